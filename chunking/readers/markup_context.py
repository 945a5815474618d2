"""Stage 1 (read), ConTeXt source: the sectioning of a ConTeXt document (a ``.tex`` file that is
not LaTeX).

ConTeXt (its wiki's "Sectioning" page) writes a unit as an environment, ``\\startchapter[title={A
Title}, reference=…]`` … ``\\stopchapter``, or as a command, ``\\chapter{A Title}`` (an optional
``[reference]`` before the braces). The units, top down: ``part``, ``chapter``, ``section``,
``subsection``, ``subsubsection`` (and deeper ``sub…`` forms), their unnumbered twins ``title``,
``subject``, ``subsubject``, …, and ``\\startsectionlevel`` … ``\\stopsectionlevel``, whose depth
is how deep it is nested (pandoc's ConTeXt writer writes every heading so). Levels: ``chapter``
and ``title`` 1, ``section`` and ``subject`` 2, each ``sub`` one deeper, ``part`` 0 (in a
document without chapters, the section level is 1, as in LaTeX's article); a section level is
one deeper than the unit it is nested in, the outermost 1. Titles are the ``title=`` key's value
(braced, or up to the next ``,`` or ``]``), or the command's braced argument, as the document
prints them: ``\\type{x}`` → ``x``, ConTeXt's escaped signs (``\\letterunderscore{}``,
``\\letteropenbrace{}``, …) → the sign, other macros as LaTeX's (``markup_latex.rendered``).
ConTeXt numbers its units unless told not to; titles are given without numbers.

``context_headings(lines, starts, named)`` recognises a source by ConTeXt's document body,
``\\starttext`` (or a ``\\startcomponent``/``\\startproduct`` of a project) at the start of a line,
in a text without LaTeX's ``\\documentclass`` or ``\\begin{document}``, and ``MIN_HEADINGS``
units (one in a file named ``.tex``). Nothing in a comment (``%`` to the line's end) or inside a
``\\starttyping`` … ``\\stoptyping`` (or another typing, ``\\startTEX``-style) block is a unit.
"""

from __future__ import annotations

import re

from .markup_latex import rendered
from .markup_textile import render_outside
from .markup_heading import Heading


MIN_HEADINGS = 2
"""Units a text needs, when its file name does not say ``.tex``, before it is read as ConTeXt."""

TITLE_LINES = 4
"""A unit's title is looked for over at most this many lines."""

_NAMES = {"part": 0, "chapter": 1, "title": 1, "section": 2, "subject": 2}
_UNIT = re.compile(
    r"\\(start|stop)?(part|chapter|title|(?:sub)*section|(?:sub)*subject|sectionlevel)\b(?![@:])"
)
_BODY = re.compile(r"\\start(text|component|product)\b")
_LATEX = re.compile(r"\\documentclass\b|\\begin\{document\}")
_TYPING = re.compile(r"\\start([A-Z]*typing|[A-Z]{2,})\b")
_COMMENT = re.compile(r"(?<!\\)%.*")
_LETTERS = {"letterhash": "#", "letterdollar": "$", "letterpercent": "%", "letterampersand": "&",
            "letterbackslash": "\\", "letteropenbrace": "{", "letterclosebrace": "}", "letterbar": "|",
            "letterslash": "/", "letterunderscore": "_", "lettertilde": "~", "letterhat": "^",
            "letterless": "<", "lettermore": ">", "letterat": "@", "letterexclamationmark": "!",
            "letterquestionmark": "?", "letterdoublequote": '"', "lettersinglequote": "'",
            "letterleftbracket": "[", "letterrightbracket": "]", "letterleftparenthesis": "(",
            "letterrightparenthesis": ")", "letterescape": "\\"}  # fmt: skip
"""ConTeXt's macros for the signs TeX reserves, and the sign each prints."""
_LETTER = re.compile(r"\\(letter[a-z]+)(?:\{\})?")


def context_headings(lines: list[str], starts: list[int], named: bool = False) -> list[Heading] | None:
    """The headings of a ConTeXt source, or None when the text does not read as one (module
    docstring); ``named``: the file's name says it is TeX (``.tex``), one unit suffices."""
    source = [_COMMENT.sub("", line) for line in lines]
    if not any(_BODY.match(line) for line in source) or any(_LATEX.search(line) for line in source):
        return None
    chapters = any(re.match(r"\\(?:start)?(?:chapter|title|part)\b", line) for line in source)
    found: list[Heading] = []
    stack: list[int] = []  # the levels of the open \start… units
    typing: str | None = None
    for i, line in enumerate(source):
        if typing is not None:
            if line.lstrip().startswith(typing):
                typing = None
            continue
        opened = _TYPING.match(line)
        if opened:
            typing = "\\stop" + opened.group(1)
            continue
        unit = _UNIT.match(line)
        if unit is None:
            continue
        edge, name = unit.group(1), unit.group(2)
        if edge == "stop":
            if stack:
                stack.pop()
            continue
        if name == "sectionlevel":
            level = (stack[-1] if stack else 0) + 1
        else:
            subs, base = re.fullmatch(r"((?:sub)*)(part|chapter|title|section|subject)", name).groups()  # type: ignore[union-attr]
            level = _NAMES[base] + len(subs) // 3 - (0 if chapters or base == "part" else 1)
        if edge == "start":
            stack.append(level)
        rest = "\n".join(source[i : i + TITLE_LINES])[unit.end() :]
        title = _title(rest, keyed=edge == "start")
        if title:
            found.append((starts[i], max(level, 0), title))
    if len(found) < (1 if named else MIN_HEADINGS):
        return None
    return found


def _title(rest: str, keyed: bool) -> str:
    """A unit's printed title from the text after its command: a ``title=`` key in its first
    ``[…]``, else (a command) the braced argument after the ``[…]``."""
    rest = rest.lstrip()
    options = ""
    if rest.startswith("["):
        end = _closing(rest, 0, "[", "]")
        options, rest = rest[1:end], rest[end + 1 :].lstrip()
    key = re.search(r"(?:^|,)\s*title\s*=\s*", options)
    if key is not None:
        value = options[key.end() :]
        if value.startswith("{"):
            return _render(value[1 : _closing(value, 0, "{", "}")])
        return _render(value.split(",", 1)[0])
    if not keyed and rest.startswith("{"):
        return _render(rest[1 : _closing(rest, 0, "{", "}")])
    return ""


def _closing(text: str, at: int, open_: str, close: str) -> int:
    """Where the bracket opened at ``at`` closes (brackets balanced, ``\\``-escaped ones
    skipped); the text's end when it does not."""
    depth = 0
    k = at
    while k < len(text):
        if text[k] == "\\":
            k += 2
            continue
        depth += {open_: 1, close: -1}.get(text[k], 0)
        if depth == 0:
            return k
        k += 1
    return len(text)


def _render(title: str) -> str:
    """A title as ConTeXt prints it: escaped signs (``_LETTER``) kept through LaTeX's rendering,
    which drops the other macros and the braces."""
    return render_outside(title, _LETTER, lambda m: _LETTERS.get(m.group(1), ""), rendered).strip()
