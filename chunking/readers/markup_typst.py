"""Stage 1 (read), Typst markup: its ``=`` heading lines and the document's title.

Typst writes a heading as a line that opens with one or more ``=`` and a space, the number of
signs its level, one for the top (``= Introduction``, ``== Details``): the other way round from
AsciiDoc, whose one-sign line is the document's title. A ``<label>`` on the line below names the
heading for references. The title is no heading: it is an argument, ``title: [The Manual]`` (or
``title: "The Manual"``), of ``#set document(…)`` or of the template call a ``#show:`` rule
applies to the whole document (pandoc's ``#show: doc => conf(title: […], …)``).

``typst_headings(lines, starts)`` recognises a text by Typst's own marks: at least
``MIN_HEADINGS`` heading lines and a line opening with one of Typst's set-up keywords
(``#set``, ``#show``, ``#let``, ``#import``) or a ``<label>`` line under a heading, which no
AsciiDoc or wiki page writes. Nothing inside a raw block (a fence of three or more backticks)
or a ``/* … */`` comment is a heading, nor a ``//`` comment line, nor a line inside the
parentheses or braces of a ``#`` call or definition that runs over several lines (the template's
code). Titles are what the page shows: ``*strong*``, ``_emph_`` and backquotes dropped, a
backslash escape as its sign.
"""

from __future__ import annotations

import re
from .markup_heading import Heading


MIN_HEADINGS = 2
"""Heading lines a text needs before it is read as Typst."""

_HEADING = re.compile(r"(={1,6})[ \t]+(\S.*?)[ \t]*$")
_LABEL = re.compile(r"<[\w:.-]+>[ \t]*$")
_SETUP = re.compile(r"#(?:set|show|let|import)\b")
_FENCE = re.compile(r"`{3,}")
_TITLE = re.compile(r"[ \t]*title:[ \t]*(?:\[(.*)\]|\"((?:[^\"\\]|\\.)*)\")[ \t]*,?[ \t]*$")
_MARKERS = re.compile(r"(?<!\\)[*_`]")
_ESCAPE = re.compile(r"\\(.)")


def _shown(title: str) -> str:
    """A title as the page shows it (module docstring)."""
    return " ".join(_ESCAPE.sub(r"\1", _MARKERS.sub("", title)).split())


def _depth(line: str) -> int:
    """The change in open parentheses and braces over ``line``, strings left out."""
    line = re.sub(r'"(?:[^"\\]|\\.)*"', "", line)
    return line.count("(") + line.count("{") - line.count(")") - line.count("}")


def typst_headings(lines: list[str], starts: list[int]) -> list[Heading] | None:
    """The headings of a Typst text (level 0 the document's title, 1 its top headings), or
    None when the text does not read as Typst (module docstring)."""
    found: list[Heading] = []
    title: Heading | None = None
    marked = False
    fence: str | None = None
    comment = False
    depth = 0  # NOTE: open brackets of a multi-line ``#`` call or definition (code, not markup)
    in_title_call = False
    for i, raw in enumerate(lines):
        line = raw.rstrip()
        if fence is not None:
            if line.lstrip().startswith(fence):
                fence = None
            continue
        if comment:
            comment = "*/" not in line
            continue
        stripped = line.lstrip()
        if stripped.startswith("/*"):
            comment = "*/" not in stripped[2:]
            continue
        if stripped.startswith("//"):
            continue
        opened = _FENCE.match(stripped)
        if opened:
            if stripped.count(opened.group(0)) < 2:
                fence = opened.group(0)
            continue
        if depth > 0:
            if in_title_call and title is None and (m := _TITLE.match(line)):
                title = (starts[i], 0, _shown(m.group(1) if m.group(1) is not None else m.group(2)))
            depth = max(0, depth + _depth(line))
            continue
        if stripped.startswith("#"):
            marked = marked or bool(_SETUP.match(stripped))
            change = _depth(stripped)
            if change > 0:
                depth = change
                in_title_call = stripped.startswith(("#show:", "#set document("))
            if (
                title is None
                and stripped.startswith("#set document(")
                and (m := re.search(r"title:\s*\[(.*?)\]", stripped))
            ):
                title = (starts[i], 0, _shown(m.group(1)))
            continue
        heading = _HEADING.match(line)
        if heading and re.search(r"\w", heading.group(2)):
            found.append((starts[i], len(heading.group(1)), _shown(heading.group(2))))
            if i + 1 < len(lines) and _LABEL.match(lines[i + 1].strip()):
                marked = True
    if len(found) < MIN_HEADINGS or not marked:
        return None
    if title is not None and title[0] < found[0][0] and title[2]:
        return [title, *found]
    return found
