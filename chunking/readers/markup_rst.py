"""Stage 1 (read), reStructuredText sources: the section titles of an rST text, as Docutils reads them.

Contract (the reStructuredText specification, "Sections"): a section title is a single line of
text that follows a blank line (or starts the text), either

* **underlined**: at column 0, followed by an adornment line, or
* **over- and underlined**: an adornment line at column 0, the title (which may be inset), and
  an adornment line of the same character and the same length;

where an adornment line repeats one non-alphanumeric 7-bit ASCII character. The adornment is at
least as long as the title; a shorter one still makes a title when it holds at least four
characters (Docutils warns "Title underline too short" and keeps it), never below that. Levels
are not fixed by character: each adornment *style* (the character, with or without an overline)
gets the next level the first time it appears, so the first style seen is level 1, the second
level 2, and so on. A title style used once at the top of the document is its title (Docutils'
"doctitle"): the level structure reads that as a lone root (``chunking.structure.levels``).

Nothing indented is a title (a block quote, a literal block after ``::``, a directive's content),
nor an adornment line standing alone between blank lines (a transition), nor an explicit markup
line (``.. directive::``, ``.. _target:``, ``.. comment``).
"""

from __future__ import annotations

import re

ADORNMENT_CHARS = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
"""The characters an adornment line may repeat (the specification's non-alphanumeric 7-bit ASCII)."""

SHORT_ADORNMENT = 4
"""An adornment shorter than its title still makes a title from this length on (Docutils)."""

EXPLICIT_MARKUP = re.compile(r"\.\.(?: |$)")
"""An explicit markup line: directive, hyperlink target, footnote, substitution or comment."""

DIRECTIVE = re.compile(r"\.\. (?:\|[^|]+\| )?[A-Za-z][\w.+:-]*::(?: |$)")
"""A directive line (``.. image:: x``, ``.. |name| replace:: x``): rST's own syntax."""


_HYPERLINK = re.compile(r"`(?P<text>(?:[^`<]|``[^`]*``)+?)\s*<[^<>`]*>`__?")
"""An embedded hyperlink: ``text <target>`` between backquotes, then ``_`` (or ``__``, anonymous);
the page shows ``text``."""

_INTERPRETED = re.compile(r"(?::[\w.+-]+:)?`(?P<text>[^`]+)`(?::[\w.+-]+:)?__?|:[\w.+-]+:`(?P<role>[^`]+)`")
"""A phrase reference (backquoted text then ``_``) or a role (``:code:`` before backquoted text):
its text shows."""

_LITERAL = re.compile(r"``(?P<text>.+?)``")
_STRONG_OR_EMPHASIS = re.compile(r"(?<![\w*])\*\*?(?P<text>[^*\s](?:[^*]*[^*\s])?)\*\*?(?![\w*])")
_FOOTNOTE_REFERENCE = re.compile(r"\s*\[(?:\d+|#[\w.-]*|\*|[A-Za-z][\w.-]*)\]_")
_SIMPLE_REFERENCE = re.compile(r"(?<=\w)__?(?=\W|$)")


def rendered_title(title: str) -> str:
    """A section title as Docutils shows it: inline markup read, not printed. A converter that
    writes each heading as a link back to its contents entry (``1. Introduction <toc.html#TOC1>``
    backquoted, then ``__``) titles the section ``1. Introduction``; literals, emphasis and roles show their text, footnote
    references and the ``_`` of a simple reference (``name_``) nothing."""
    if "`" in title:
        title = _HYPERLINK.sub(lambda m: m.group("text"), title)
        title = _INTERPRETED.sub(lambda m: m.group("text") or m.group("role"), title)
        title = _LITERAL.sub(lambda m: m.group("text"), title)
    if "*" in title:
        title = _STRONG_OR_EMPHASIS.sub(lambda m: m.group("text"), title)
    if "_" in title:
        title = _SIMPLE_REFERENCE.sub("", _FOOTNOTE_REFERENCE.sub("", title))
    return " ".join(title.split())


def _adornment(line: str) -> str | None:
    """The character an adornment line repeats, or None when ``line`` is not one."""
    mark = line.rstrip()
    if not mark or mark[0] not in ADORNMENT_CHARS or mark != mark[0] * len(mark):
        return None
    return mark[0]


def _fits(title: str, adornment: str) -> bool:
    """Whether an adornment is long enough for its title (see the module docstring)."""
    length = len(adornment.rstrip())
    return length >= len(title) or length >= SHORT_ADORNMENT


def rst_titles(lines: list[str], starts: list[int]) -> list[tuple[int, tuple[str, bool], str]]:
    """Every section title of an rST text with its adornment style, in order.

    Args:
        lines (list[str]): the text's lines.
        starts (list[int]): the offset where each line starts.

    Returns:
        list[tuple[int, tuple[str, bool], str]]: ``(offset, (character, overlined), title)``;
        the offset is where the title's first source line (its overline, if any) starts.
    """
    out: list[tuple[int, tuple[str, bool], str]] = []
    n = len(lines)
    i = 0
    after_blank = True
    while i < n:
        line = lines[i]
        if not line.strip():
            after_blank = True
            i += 1
            continue
        if after_blank and line[0] not in " \t":
            over = _adornment(line)
            if over is not None and i + 2 < n:
                title, under = lines[i + 1].strip(), lines[i + 2].rstrip()
                if (
                    title
                    and _adornment(lines[i + 1]) is None
                    and under == line.rstrip()
                    and _fits(title, under)
                ):
                    out.append((starts[i], (over, True), rendered_title(title)))
                    i += 3
                    continue  # NOTE: a section's body may open with its first subsection's title
            if over is None and i + 1 < n and not EXPLICIT_MARKUP.match(line):
                under_char = _adornment(lines[i + 1])
                title = line.strip()
                if under_char is not None and _fits(title, lines[i + 1]):
                    out.append((starts[i], (under_char, False), rendered_title(title)))
                    i += 2
                    continue
        after_blank = False
        i += 1
    return out


def rst_headings(lines: list[str], starts: list[int]) -> list[tuple[int, int, str]]:
    """The section titles of an rST text as ``(offset, level, title)``, levels by first appearance
    of each adornment style (1 = the first style seen)."""
    styles: dict[tuple[str, bool], int] = {}
    out: list[tuple[int, int, str]] = []
    for offset, style, title in rst_titles(lines, starts):
        level = styles.setdefault(style, len(styles) + 1)
        out.append((offset, level, title))
    return out


def looks_like_rst(lines: list[str]) -> bool:
    """Whether a text without an ``.rst`` name is written in rST: it holds a directive line, or at
    least two explicit markup lines at column 0 (targets, comments). Underlined titles alone do
    not make rST: plain-text manuals underline their titles too."""
    directives = explicit = 0
    for line in lines:
        if line.startswith(".."):
            directives += DIRECTIVE.match(line) is not None
            explicit += EXPLICIT_MARKUP.match(line) is not None
            if directives or explicit >= 2:
                return True
    return False
