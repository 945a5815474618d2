"""Stage 1 (read), wiki markup: the section headings of a DokuWiki or Zim page.

DokuWiki's syntax (which Zim borrowed) sets a heading between runs of ``=``, and counts them the
other way round from AsciiDoc and Markdown: ``====== Title ======`` (six) is the top level,
``===== Section =====`` the next, down to ``== Title ==`` (two). Read with AsciiDoc's rule
(more signs, deeper) such a page came out upside down: its sections were taken for chapters
and its chapters for sub-sections.

``wiki_headings(lines, starts)`` recognises a page by its headings alone: at least
``MIN_HEADINGS`` lines of 2-6 ``=`` around a title, every such title closed by ``=`` (a wiki
heading always is; AsciiDoc's closing run is optional and rare), none with a single ``=`` (a wiki
has no such heading; AsciiDoc's document title is one), and the first heading set with the most
signs (the page's top). Levels: the most signs are level 0, the page's title, when only the
first heading has them; otherwise they are level 1 (chapters) and there is no title heading.
Nothing inside a ``''' ... '''`` or ``<code>``/``<file>``/``<nowiki>`` block is a heading.
"""

from __future__ import annotations

import re

Heading = tuple[int, int, str]
"""(offset of the heading's source line, level, title)."""

MIN_HEADINGS = 2
"""Headings a text needs before it is read as a wiki page."""

_HEADING = re.compile(r"(={2,6})[ \t]*(\S.*?)[ \t]*(={2,6})[ \t]*$")
_ANY = re.compile(r"={1,6}[ \t]")
_OPEN = re.compile(r"^(?:'''|<(code|file|nowiki|html|php)\b[^>]*>)")


def wiki_headings(lines: list[str], starts: list[int]) -> list[Heading] | None:
    """The headings of a DokuWiki/Zim page, or None when the text does not read as one (module
    docstring)."""
    found: list[tuple[int, int, str]] = []  # (offset, signs, title)
    others = 0
    block: str | None = None
    for i, raw in enumerate(lines):
        line = raw.rstrip()
        if block is not None:
            if (block == "'''" and line.startswith("'''")) or (block != "'''" and f"</{block}>" in line):
                block = None
            continue
        opened = _OPEN.match(line)
        if opened:
            block = opened.group(1) or "'''"
            closing = "'''" if block == "'''" else f"</{block}>"
            if closing in line[opened.end() :]:
                block = None
            continue
        heading = _HEADING.fullmatch(line)
        if heading and re.search(r"\w", heading.group(2)):
            found.append((starts[i], len(heading.group(1)), " ".join(heading.group(2).split())))
        elif _ANY.match(line):
            others += 1  # NOTE: ``= Title`` or an unclosed ``== Title``: AsciiDoc's, not a wiki's
    if len(found) < MIN_HEADINGS or others > len(found) // 10:
        return None
    signs = [s for _, s, _ in found]
    top = max(signs)
    if signs[0] != top:
        return None
    title = signs.count(top) == 1
    return [(offset, top - s + (0 if title else 1), text) for offset, s, text in found]
