"""Stage 1 (read), Emacs Muse sources: the headings of a Muse document.

Muse (the Emacs authoring mode, "Markup Rules" of its manual) writes a heading as one to five
``*`` at the start of a line, then a space: ``* Chapter``, ``** Section``. Its directives open
the file, one per line: ``#title The Book``, ``#author …``, ``#date …``; the ``#title`` is the
document's title (level 0). Nothing inside an ``<example>``, ``<src>``, ``<verse>``,
``<literal>``, ``<verbatim>`` or ``<comment>`` block is a heading (a manual of Muse shows its
heading syntax in an example). Emphasis (``*word*``, ``**strong**``) has no space after its
stars and is no heading.

``muse_headings(lines, starts)`` recognises a Muse source by a ``#title`` or ``#author``
directive among its first lines, or a block of Muse's own (``_muse_block``), and at least
``MIN_HEADINGS`` headings; Org, which shares the
stars, writes its keywords ``#+TITLE:`` and is read by ``chunking.readers.markup_org``.
"""

from __future__ import annotations

import re
from .markup_heading import Heading


MIN_HEADINGS = 2
"""Headings a text needs before it is read as Muse."""

DIRECTIVE_LINES = 10
"""The directives are among this many first lines."""

_HEADING = re.compile(r"(\*{1,5})[ \t]+(\S.*?)[ \t]*$")
_DIRECTIVE = re.compile(r"#(title|author|date|desc|keywords)[ \t]+(.*?)[ \t]*$")
_OPEN = re.compile(r"<(example|src|verse|literal|verbatim|comment)\b[^>]*>")
_MARKERS = re.compile(r"(?<![\w*])(\*{1,3}|=|_)(\S(?:.*?\S)?)\1(?![\w*])")
_LINK = re.compile(r"\[\[([^\]]*)\](?:\[([^\]]*)\])?\]")


_BLOCK_LINE = re.compile(r"<(example|src|verse|literal)\b[^<>]*>")


def _muse_block(lines: list[str]) -> bool:
    """Whether the text holds a block of Muse's own: an ``<example>``, ``<src>``, ``<verse>`` or
    ``<literal>`` tag alone on its line, closed alone on a later one (no HTML element bears
    those names but ``<src>``'s look-alikes, which never stand alone on a line). A converter
    writes Muse without directives (pandoc's ``muse`` writer, unless asked for a standalone
    document), and its code blocks are such blocks."""
    opened: set[str] = set()
    for line in lines:
        text = line.strip()
        if (tag := _BLOCK_LINE.fullmatch(text)) is not None:
            opened.add(tag.group(1))
        elif text.startswith("</") and text[2:-1] in opened and text.endswith(">"):
            return True
    return False


def muse_headings(lines: list[str], starts: list[int]) -> list[Heading] | None:
    """The headings of a Muse source, or None when the text does not read as one (module
    docstring)."""
    directives: dict[str, tuple[str, str]] = {}
    for line in lines[:DIRECTIVE_LINES]:
        m = _DIRECTIVE.fullmatch(line)
        if m:
            directives.setdefault(m.group(1), (m.group(2), line))
    if "title" not in directives and "author" not in directives and not _muse_block(lines):
        return None
    out: list[Heading] = []
    block: str | None = None
    for i, line in enumerate(lines):
        if block is not None:
            if f"</{block}>" in line:
                block = None
            continue
        opened = _OPEN.search(line)
        if opened:
            if f"</{opened.group(1)}>" not in line[opened.end() :]:
                block = opened.group(1)
            continue
        heading = _HEADING.fullmatch(line)
        if heading:
            title = _clean(heading.group(2))
            if title:
                out.append((starts[i], len(heading.group(1)), title))
    if len(out) < MIN_HEADINGS:
        return None
    if "title" in directives:
        text, line = directives["title"]
        offset = starts[lines.index(line)]
        out.append((offset, 0, _clean(text)))
    return sorted(out)


def _clean(title: str) -> str:
    """A title as published: emphasis and code markers dropped, a link shown by its text."""
    title = _LINK.sub(lambda m: m.group(2) or m.group(1), title)
    return " ".join(_MARKERS.sub(r"\2", title).split())
