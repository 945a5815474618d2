"""Stage 1 (read), wiki markup: the section headings of a DokuWiki or Zim page, or of a web page
rendered as text by html2text.

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

html2text (Debian's, the C++ one) frames a web page's headings the same way with ``*``:
``****** Title ******`` an ``<h1>``, five an ``<h2>``, down to one. A page is read with one sign,
whichever frames more of its lines; a ``*`` frame needs a space on both sides of the title (``***bold
italic***`` in Markdown has none) and as many signs closing as opening.

Titles are what the page shows: XWiki's macros (its pages frame headings in ``=`` too), a
standalone ``{{id name="x"/}}`` anchor and the ``{{code}}`` … ``{{/code}}`` markers around a run
of text, are left out, their content kept (``_MACRO``).
"""

from __future__ import annotations

import re
from .markup_heading import Heading


MIN_HEADINGS = 2
"""Headings a text needs before it is read as a wiki page."""

_HEADING = re.compile(r"(={2,6})[ \t]*(\S.*?)[ \t]*(={2,6})[ \t]*$")
_STARRED = re.compile(r"(\*{1,6})[ \t]+(\S.*?)[ \t]+(\*{1,6})[ \t]*$")
_ANY = re.compile(r"={1,6}[ \t]")
_MACRO = re.compile(r"\{\{/?[a-zA-Z][\w-]*(?:[ \t][^{}]*)?/?\}\}")
"""An XWiki macro's marker in a title: ``{{code}}``, ``{{/code}}``, ``{{id name="x"/}}``
(a DokuWiki media link, ``{{image.png}}``, has a dot or a colon and is not one)."""
_OPEN = re.compile(r"^(?:'''|<(code|file|nowiki|html|php)\b[^>]*>)")


def wiki_headings(lines: list[str], starts: list[int]) -> list[Heading] | None:
    """The headings of a DokuWiki/Zim page or an html2text rendering, or None when the text does
    not read as one (module docstring)."""
    starred = sum(1 for line in lines if line[:1] == "*" and _framing(_STARRED, line, same=True))
    framed = sum(1 for line in lines if line[:1] == "=" and _framing(_HEADING, line))
    if starred >= MIN_HEADINGS and starred > framed:
        return _framed(lines, starts, _STARRED, same=True)
    return _framed(lines, starts, _HEADING)


def _framing(pattern: re.Pattern[str], line: str, same: bool = False) -> re.Match[str] | None:
    """The match of a heading framed by ``pattern``'s signs around a title with a word in it
    (with ``same``: as many signs closing as opening), or None."""
    m = pattern.fullmatch(line.rstrip())
    if m is None or (same and len(m.group(1)) != len(m.group(3))) or not re.search(r"\w", m.group(2)):
        return None
    return m


def _framed(
    lines: list[str], starts: list[int], pattern: re.Pattern[str], same: bool = False
) -> list[Heading] | None:
    """The headings framed by ``pattern``'s runs of signs (with ``same``: as many closing as
    opening), levels by the number of signs, most first (module docstring)."""
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
        heading = _framing(pattern, line, same)
        if heading:
            found.append(
                (starts[i], len(heading.group(1)), " ".join(_MACRO.sub("", heading.group(2)).split()))
            )
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
