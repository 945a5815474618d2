"""Stage 1 (read), ICML (InDesign's InCopy interchange, ``pandoc -t icml``): paragraphs in a
heading style are the headings.

ICML carries no sectioning: each paragraph is a ``<ParagraphStyleRange>`` naming its style, and a
heading is a paragraph in a heading style (``ParagraphStyle/Header2``, ``ParagraphStyle/Heading
2``), its level the style's number, its title the ``<Content>`` of its character ranges. The text
stays the source's (as with every markup source), so a heading's offset is where its paragraph's
tag starts.

Contract: ``icml_headings(text)`` returns ``(offset, level, title)`` headings, or None when the
text is no ICML document (no ``<?aid`` processing instruction before a ``<Document>`` root).
"""

from __future__ import annotations

import html
import re

from .markup_heading import Heading

_ROOT = re.compile(r"\A\s*(?:<\?xml[^>]*\?>\s*)?<\?aid\b.*?<Document\b", re.S)

_HEADING = re.compile(
    r"""<ParagraphStyleRange\b[^>]*\bAppliedParagraphStyle="ParagraphStyle/(?:Header|Heading) ?(\d)"[^>]*>"""
)
"""A paragraph in a numbered heading style: its level."""

_CONTENT = re.compile(r"<Content>(.*?)</Content>", re.S)

_END = "</ParagraphStyleRange>"

_ROOT_CHARS = 2000
"""Characters at the top of the file where its ``<?aid`` instruction and ``<Document>`` root stand."""


def icml_headings(text: str) -> list[Heading] | None:
    """The headings of an ICML document, or None when ``text`` is not one (module docstring)."""
    if not _ROOT.match(text[:_ROOT_CHARS]):
        return None
    out: list[Heading] = []
    for m in _HEADING.finditer(text):
        end = text.find(_END, m.end())
        inside = text[m.end() : end if end >= 0 else len(text)]
        title = " ".join(html.unescape("".join(_CONTENT.findall(inside))).split())
        if title:
            out.append((m.start(), int(m.group(1)), title))
    return out or None
