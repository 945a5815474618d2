"""Stage 1 (read), pandoc's XML (``pandoc -t xml``, pandoc 3): its ``<Header level="N">``
blocks are the headings.

Pandoc's XML writes the document's syntax tree as it is: a ``<Pandoc>`` root, its ``<meta>``
(the metadata, the title in ``<entry key="title">``) and its ``<blocks>``, where a heading is a
``<Header id="…" level="N">`` whose content is the heading's inlines: text, ``<Code>``,
``<Emph>``, ``<Link>``… (their text is the title), ``<SoftBreak />``/``<LineBreak />`` (a space)
and ``<Note>`` (a footnote: no part of the title). Code and raw blocks hold their text
escaped, so no ``<Header`` tag stands inside them. The metadata's title is level 0. The text
stays the source's (as with every markup source), so a heading's offset is where its tag starts.

Contract: ``pandoc_xml_headings(text)`` returns ``(offset, level, title)`` headings, or None
when the text is no pandoc XML (its root is not ``<Pandoc>``) or holds no ``<Header>``.
"""

from __future__ import annotations

import bisect
import html
import re

from .markup_heading import Heading

_ROOT = re.compile(r"\A\ufeff?\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--.*?-->\s*)*<Pandoc\b", re.S)

_HEADER = re.compile(r"""<Header\b((?:[^>"']|"[^"]*"|'[^']*')*)>""")

_LEVEL = re.compile(r"""\blevel\s*=\s*["'](\d{1,2})["']""")

_META_TITLE = re.compile(r"""<entry\s+key\s*=\s*["']title["']\s*>(.*?)</entry>""", re.S)

_NOTE = re.compile(r"<Note\b.*?</Note>", re.S)

_BREAK = re.compile(r"<(?:SoftBreak|LineBreak|Space)\s*/>")

_TAG = re.compile(r"<[^>]*>")


def _inline_text(inner: str) -> str:
    """An element's inlines as the page shows them: footnotes out, breaks a space, tags away."""
    inner = _BREAK.sub(" ", _NOTE.sub("", inner))
    return " ".join(html.unescape(_TAG.sub("", inner)).split())


def pandoc_xml_headings(text: str) -> list[Heading] | None:
    """The headings of a pandoc XML document, or None when ``text`` is not one (module
    docstring)."""
    if not _ROOT.match(text):
        return None
    out: list[Heading] = []
    blocks = text.find("<blocks")
    meta = _META_TITLE.search(text, 0, blocks if blocks >= 0 else len(text))
    if meta and (title := _inline_text(meta.group(1))):
        out.append((meta.start(), 0, title))
    closes = [m.start() for m in re.finditer("</Header>", text)]
    opens = list(_HEADER.finditer(text, max(blocks, 0)))
    for k, m in enumerate(opens):
        c = bisect.bisect_left(closes, m.end())
        if c == len(closes):
            break
        if k + 1 < len(opens) and opens[k + 1].start() < closes[c]:
            continue  # NOTE: left open: the next heading opens before any close (no heading)
        level = _LEVEL.search(m.group(1))
        title = _inline_text(text[m.end() : closes[c]])
        if level and title:
            out.append((m.start(), int(level.group(1)), title))
    return out if len(out) > bool(meta) else None
