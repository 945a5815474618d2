"""Stage 1 (read), BBCode (forum markup): its heading lines.

BBCode has no heading syntax. A converter or a writer sets a heading as a paragraph that is
wholly one title wrapped in emphasis tags, alone between blank lines: ``[b]Title[/b]``,
``[u][b]Title[/b][/u]``, ``[size=150][b]Title[/b][/size]``, or a forum's own ``[h2]Title[/h2]``.
Its level is how strongly it is set (``_strength``): an ``[hN]`` tag by its digit, then a
``[size=N]`` by its size, then the emphasis tags, bold over underline over italic and two
of them over one; the strongest style is level 1, the next level 2, and so on.

``bbcode_headings(lines, starts)`` recognises a BBCode text by its own markup: at least
``MIN_HEADINGS`` such heading lines and ``MIN_TAGS`` of BBCode's block and link tags
(``[url=…]``, ``[code]``, ``[quote]``, ``[list]``, ``[img]``) on other lines, each closed on
its line or a later one. Prose that mentions a tag (``write [b]bold[/b]``) sets no line wholly in
it. Nothing inside ``[code]`` … ``[/code]`` (or ``[noparse]``, ``[pre]``) is a heading. Titles
are what the page shows: tags dropped, a link by its text.
"""

from __future__ import annotations

import re
from .markup_heading import Heading


MIN_HEADINGS = 2
"""Heading lines a text needs before it is read as BBCode."""

MIN_TAGS = 3
"""BBCode block or link tags (``_MARK``) a text needs, outside its heading lines."""

EMPHASIS = {"b": 4, "u": 2, "i": 1}
"""The weight of each emphasis tag in a heading's style (``_strength``): bold over underline over
italic, and two of them over any one."""

_OPEN_TAG = re.compile(r"\[(b|u|i|h[1-6]|size|color|colour|font|center|centre)(?:=([^\]\s]*))?\]", re.I)
"""A tag that may wrap a heading's whole title; colour, font and centring add no level."""

_MARK = re.compile(r"\[(?:url|code|quote|list|img)(?:=[^\]]*)?\].*?\[/(?:url|code|quote|list|img)\]", re.I)
"""A BBCode tag of its own kind, closed on the same line: ``[url=…]text[/url]``, ``[img]…[/img]``."""

_BLOCK_OPEN = re.compile(r"\[(url|code|quote|list|img|noparse|pre)(?:=[^\]]*)?\]", re.I)
_BLOCK = re.compile(r"\[(code|quote|list|img|noparse|pre)(?:=[^\]]*)?\]", re.I)
"""A block inside a paragraph's tags: the paragraph is no heading line."""
_VERBATIM = re.compile(r"\[(code|noparse|pre)(?:=[^\]]*)?\]", re.I)
_LINK = re.compile(r"\[url=[^\]]*\](.*?)\[/url\]", re.I)
_TAG = re.compile(
    r"\[/?(?:b|i|u|s|h[1-6]|size|colou?r|font|cent(?:er|re)|left|right|sup|sub|tt|url|email|spoiler)"
    r"(?:=[^\]]*)?\]",
    re.I,
)
"""An inline tag of BBCode's own names (``[b]``, ``[size=150]``, ``[/url]``); a bracket that names
none (``[ipv4]``, an optional argument in a signature) is text."""


def _unwrapped(line: str) -> tuple[list[tuple[str, str]], str] | None:
    """The tags that wrap the whole of ``line`` (outermost first, each ``(name, value)``) and the
    title inside them, or None when no tag wraps it whole."""
    tags: list[tuple[str, str]] = []
    inner = line.strip()
    while (m := _OPEN_TAG.match(inner)) is not None:
        name = m.group(1).lower()
        close = re.compile(rf"\[/{re.escape(m.group(1))}\]$", re.I)
        end = close.search(inner)
        if end is None or end.start() < m.end():
            break
        body = inner[m.end() : end.start()]
        if re.search(rf"\[/{re.escape(name)}\]", body, re.I):
            break  # ``[b]a[/b] and [b]b[/b]``: two runs, not one wrapping the line
        tags.append((name, m.group(2) or ""))
        inner = body.strip()
    if not tags or not inner:
        return None
    return tags, inner


def _strength(tags: list[tuple[str, str]]) -> tuple[int, float] | None:
    """How strongly a heading's tags set it (module docstring), or None for tags that set no
    heading (colour or centring alone)."""
    heads = [int(name[1]) for name, _ in tags if name[0] == "h" and len(name) == 2]
    if heads:
        return 3, -min(heads)
    sizes = [float(v) for name, v in tags if name == "size" and re.fullmatch(r"\d+(?:\.\d+)?", v)]
    if sizes:
        return 2, max(sizes)
    weight = sum(EMPHASIS.get(name, 0) for name in {name for name, _ in tags})
    return (1, weight) if weight else None


def bbcode_title(title: str) -> str:
    """A title as the page shows it: a link by its text, every other tag dropped."""
    return " ".join(_TAG.sub("", _LINK.sub(r"\1", title)).split())


def bbcode_headings(lines: list[str], starts: list[int]) -> list[Heading] | None:
    """The heading lines of a BBCode text, or None when the text is not one (module
    docstring)."""
    found: list[tuple[int, tuple[int, float], str]] = []
    marks = 0
    verbatim: str | None = None
    for i, line in enumerate(lines):
        if verbatim is not None:
            if re.search(rf"\[/{verbatim}\]", line, re.I):
                verbatim = None
            continue
        opened = _VERBATIM.search(line)
        if opened and not re.search(rf"\[/{opened.group(1)}\]", line[opened.end() :], re.I):
            verbatim = opened.group(1).lower()
            marks += 1
            continue
        alone = (i == 0 or not lines[i - 1].strip()) and (i + 1 == len(lines) or not lines[i + 1].strip())
        wrapped = _unwrapped(line) if alone and line[:1] == "[" else None
        strength = _strength(wrapped[0]) if wrapped else None
        if wrapped and strength and not _BLOCK.search(wrapped[1]):
            if title := bbcode_title(wrapped[1]):
                found.append((starts[i], strength, title))
                continue
        marks += len(_MARK.findall(line)) or (_BLOCK_OPEN.match(line.strip()) is not None)
    if len(found) < MIN_HEADINGS or marks < MIN_TAGS:
        return None
    ranks = {s: k for k, s in enumerate(sorted({s for _, s, _ in found}, reverse=True), 1)}
    return [(offset, ranks[strength], title) for offset, strength, title in found]
