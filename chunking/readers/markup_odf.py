"""Stage 1 (read), OpenDocument text as XML (a flat ``.fodt``, or a ``content.xml`` as pandoc's
``opendocument`` writer gives it): ``<text:h text:outline-level="N">`` elements are the headings.

OpenDocument marks a heading as such: a ``<text:h>`` paragraph whose ``text:outline-level`` is
its level; its title is the element's text, its bookmarks, spans and notes' markup aside. The text
stays the source's (as with every markup source), so a heading's offset is where its tag starts.

Contract: ``odf_headings(text)`` returns ``(offset, level, title)`` headings, or None when the
text is no OpenDocument XML (its root is not ``<office:document>`` or
``<office:document-content>``) or holds no heading.
"""

from __future__ import annotations

import html
import re

from .markup_heading import Heading

_ROOT = re.compile(r"\A\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--.*?-->\s*)*<office:document(?:-content)?\b", re.S)

_HEADING = re.compile(r"""<text:h\b((?:[^>"']|"[^"]*"|'[^']*')*)>(.*?)</text:h>""", re.S)

_LEVEL = re.compile(r"""\btext:outline-level\s*=\s*["'](\d+)["']""")

_NOTE = re.compile(r"<text:note\b.*?</text:note>", re.S)
"""A footnote inside a heading: its text is the note's, not the title's."""

_TAG = re.compile(r"<[^>]*>")


def odf_headings(text: str) -> list[Heading] | None:
    """The headings of an OpenDocument XML text, or None when ``text`` is not one (module
    docstring)."""
    if not _ROOT.match(text):
        return None
    out: list[Heading] = []
    for m in _HEADING.finditer(text):
        level = _LEVEL.search(m.group(1))
        title = " ".join(html.unescape(_TAG.sub("", _NOTE.sub("", m.group(2)))).split())
        if title:
            out.append((m.start(), int(level.group(1)) if level else 1, title))
    return out or None
