"""Stage 3 (structure), plain text: labelled headings an extractor glued into the lines around them.

An HTML-to-text extractor that writes a page's text nodes with nothing between its blocks (a
parser's ``text_content()``, a tag stripper) leaves a chapter's heading inside a line of text:
run on from the paragraph before it and into its first block after it
(``…as shown above.Chapter 2. Installing the ToolsTable of Contents…``). No line of its own marks it,
so a reader of such a text sees a heading only where two independent signals agree:

* **contents**: the book's own printed contents lists the title verbatim under the same number
  (``2. Installing the Tools``, itself glued into its neighbours or on a line of its own), and in
  the contents as in the body the title ends at a seam: the line's end, a page number, or a
  capital letter or digit run straight on (the next block's first character);
* **numbering**: the headings so listed run 1, 2, 3… (appendices A, B…) in book order, the
  longest such run, two headings at least.

And only a label that is glued: at its line's start or right after a non-space character (the
last character of the block before it, a sentence's full stop or a code line's last word), never
after a space: prose that mentions ``Chapter 2. Installing the Tools`` inside a paragraph has a
space before it, and a paragraph opening with it runs on after the title with words, not a seam.
A line that reads whole as a heading (the label and title alone) is no glued one: the plain-text
reader's own rules read it.
The contents is the one under the first ``Contents`` / ``Table of Contents`` name standing before
the chapters (at its line's start or glued to the text before it, and alone or glued to its first
entry); it ends at the first label after it, where the body begins.

An extractor that ends a heading with no break runs two headings in a row into one line
(``PrefaceWho is this book for?``: a chapter with no text before its first section): a line
that is two consecutive entries of the contents, run together at a seam with no space (a capital
or digit run straight on), is both (``run_together``), the second a level below the first.

The canonical text is unchanged: the plain-text reader splits its lines at these seams
(``plain_text._unglued``, ``plain_text._run_apart``), so a chapter may open in the middle of a line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..rules import CHAPTER_KEYWORDS, CONTENTS_NAMES, keyword_alternation, keyword_kind
from .kinds import CAPITAL_LETTER, NUMBER_RE, number_value, parse_heading, words_key

RUN_MIN = 2
"""Glued headings of one kind that make a run: a single listed label may be a cross-reference
that happens to be set as a block (one chapter's number and title quoted in a table)."""

MAX_TITLE_CHARS = 100
"""The longest title a glued heading may have (as a line's title in ``plain_text``)."""

_LABEL = re.compile(
    rf"(?P<kw>{keyword_alternation(CHAPTER_KEYWORDS, cases=True)})[^\S\n]+"
    rf"(?P<num>{NUMBER_RE}|{CAPITAL_LETTER})(?:[.:]|[^\S\n]+[-–—])?[^\S\n]+(?=\S)"
)
"""A heading's label, ``Chapter 2.`` (any spaces, NO-BREAK SPACE included), up to its title."""

_CONTENTS_NAME = re.compile(rf"(?-i:(?=[A-ZÀ-ÖØ-ÞА-ЯЁ]))(?:{CONTENTS_NAMES})", re.I)
"""A contents name set as a header: capitalised (``Table of Contents``, ``CONTENTS``, ``Índice``)."""


@dataclass(frozen=True)
class Glued:
    """A heading found inside a line: ``start`` (its label's offset) to ``end`` (its title's end)."""

    start: int
    end: int
    kind: str
    number: str
    title: str
    listed: int  # the offset of the contents entry that lists it


def glued_headings(lines: Sequence[tuple[int, str]]) -> tuple[tuple[int, int] | None, list[Glued]]:
    """The glued headings of a text given as its non-blank lines (``(offset of the first
    non-space character, the line stripped)``, in order), and the span of the contents' name
    above them; ``(None, [])`` when there is no run of them."""
    labels = [
        (i, m)
        for i, (_, raw) in enumerate(lines)
        for m in _LABEL.finditer(raw)
        if m.start() == 0 or not raw[m.start() - 1].isspace()
    ]
    # NOTE: a line that reads as a heading whole is no glued one (``plain_text`` reads it)
    inside = [(i, m) for i, m in labels if m.start() > 0 or parse_heading(lines[i][1]) is None]
    header = _contents_name(lines[: inside[-1][0] + 1]) if len(inside) >= RUN_MIN else None
    if header is None:
        return None, []
    at, name = header
    # NOTE: the contents runs from its name to the first label after it, where the body begins
    body = next(((i, m.start()) for i, m in labels if (i, m.start()) > (at, name.start())), None)
    if body is None:
        return None, []
    entries = _entries(lines, (at, name.end()), body, {m.group("num") for _, m in inside})
    listed: list[tuple[str, Glued]] = []  # (the label word's kind, the heading)
    for i, m in inside:
        offset, raw = lines[i]
        title = (
            _listed_title(entries.get(m.group("num"), []), raw[m.end() :]) if (i, m.start()) >= body else None
        )
        if title is None:
            continue
        parsed = parse_heading(raw[m.start() : m.end()] + title[1])
        if parsed is None or parsed.title != " ".join(title[1].split()):
            continue
        end = offset + m.end() + len(title[1])
        glued = Glued(offset + m.start(), end, parsed.kind, parsed.number, parsed.title, title[0])
        listed.append((keyword_kind(m.group("kw")), glued))
    chapters = _run([g for word, g in listed if word == "chapter"])
    if len(chapters) < RUN_MIN:
        return None, []
    found = list(chapters)
    for kind in ("appendix", "part"):
        run = _run([g for word, g in listed if word == kind])
        if len(run) >= RUN_MIN or (run and number_value(run[0].number) == 1):
            found += run
    start = lines[at][0] + name.start()
    return (start, start + len(name.group())), sorted(found, key=lambda g: g.start)


def _contents_name(lines: Sequence[tuple[int, str]]) -> tuple[int, re.Match[str]] | None:
    """The first contents name set as a header: at its line's start or glued to the text before
    it, capitalised, and the line's end or a character other than a space or a small letter right
    after it (the first entry glued on)."""
    for i, (_, raw) in enumerate(lines):
        for m in _CONTENTS_NAME.finditer(raw):
            after = raw[m.end() : m.end() + 1]
            glued = m.start() == 0 or not raw[m.start() - 1].isspace()
            if glued and not (after.isspace() or after.islower()):
                return i, m
    return None


def _entries(
    lines: Sequence[tuple[int, str]], since: tuple[int, int], until: tuple[int, int], numbers: set[str]
) -> dict[str, list[tuple[int, str]]]:
    """The entries of the contents between ``since`` and ``until`` (line, column) numbered with
    one of ``numbers`` (``2.``, ``Chapter 2.``, ``A.``), by number: each as ``(offset, the text
    from its title to the contents' end or its line's)``."""
    alternation = "|".join(re.escape(n) for n in sorted(numbers, key=len, reverse=True))
    entry = re.compile(rf"(?<![\d.])(?P<num>{alternation})(?:[.:]|[^\S\n]+[-–—])?[^\S\n]+(?=\S)")
    out: dict[str, list[tuple[int, str]]] = {}
    for i in range(since[0], until[0] + 1):
        offset, raw = lines[i]
        lo = since[1] if i == since[0] else 0
        hi = until[1] if i == until[0] else len(raw)
        for m in entry.finditer(raw, lo, hi):
            out.setdefault(m.group("num"), []).append((offset + m.start(), raw[m.end() : hi]))
    return out


def _listed_title(entries: list[tuple[int, str]], after: str) -> tuple[int, str] | None:
    """The longest title of ``entries`` (the contents' under one number) that ``after`` (the
    body's text after the label) opens with, ending at a seam on both sides; with the offset of
    its entry. None when none."""
    best: tuple[int, str] | None = None
    for offset, listed in entries:
        n = _common(listed, after)
        if _inside_word(listed, n) and _inside_word(after, n):
            # NOTE: both run on into a next block whose first letters they share (``ToolsT``
            # over ``ToolsTable`` and ``ToolsTesting``): back to where that word began
            while n > 0 and not after[n - 1].isspace() and not (_seam(listed, n) and _seam(after, n)):
                n -= 1
        if 0 < n <= MAX_TITLE_CHARS and _seam(listed, n, paged=True) and _seam(after, n):
            if best is None or n > len(best[1]):
                best = (offset, after[:n])
    return best


def _inside_word(text: str, n: int) -> bool:
    """Whether ``text`` runs on at ``n`` with no space before or at it."""
    return 0 < n < len(text) and not text[n - 1].isspace() and not text[n].isspace()


def _common(a: str, b: str) -> int:
    """The length of the prefix ``a`` and ``b`` share, any space equal to any other."""
    n = 0
    for x, y in zip(a, b):
        if x != y and not (x.isspace() and y.isspace()):
            break
        n += 1
    return n


_PAGE_AFTER = re.compile(r"[^\S\n]*(?:\.[\s.]*)?\d+\s*$")
"""What may follow a title in a paged contents: leaders and a page number, to the line's end."""


def _seam(text: str, n: int, paged: bool = False) -> bool:
    """Whether a title ending at ``text[n]`` ends at a block's edge: the line's end (spaces at
    most before it), or a capital letter or digit run straight on; in a contents also its page
    number. A title cut inside a word, or one a sentence runs on from, ends at no seam."""
    if n == 0 or text[n - 1].isspace():
        return False
    rest = text[n:]
    if not rest or rest.isspace():
        return True
    if paged and _PAGE_AFTER.match(rest):
        return True
    return rest[0].isupper() or rest[0].isdigit()


def _run(found: list[Glued]) -> list[Glued]:
    """The longest run of ``found`` (in book order) whose numbers go up by one from each to the
    next."""
    best: list[list[Glued]] = []
    for k, g in enumerate(found):
        value = number_value(g.number)
        prev = [best[j] for j in range(k) if number_value(found[j].number) == value - 1]
        best.append(max(prev, key=len, default=[]) + [g])
    return max(best, key=len, default=[])


def run_together(lines: Sequence[tuple[int, str, str]], listed: Sequence[Sequence[str]]) -> dict[int, int]:
    """Lines that are two consecutive entries of the contents run together (``PrefaceWho is this
    book for?``): an extractor that ends a heading with no break writes the next heading, when
    no text stands between them, straight on after it. Returns, by line index, the offset where
    the second title starts: a seam with no space, a capital letter or digit run straight on,
    the words before it the first entry's title and those after it the next one's.

    The second title may wrap onto the lines below (a wrapped paragraph's). A line of the
    contents itself may be such a line: the body's first heading run into the contents' last
    entry reads as one more entry.

    Args:
        lines: ``(offset, text, below)`` of every line: the text stripped, ``below`` the lines
            run on below it, up to the next blank line, joined by spaces.
        listed: the words keys (``kinds.words_key``) of each contents block's entries, in order.
    """
    pairs: dict[str, tuple[str, str]] = {}
    for keys in listed:
        for first, second in zip(keys, keys[1:]):
            if first and second:
                pairs.setdefault(first + second, (first, second))
                pairs.setdefault(f"{first} {second}", (first, second))
    seams: dict[int, int] = {}
    if not pairs:
        return seams
    for i, (offset, text, below) in enumerate(lines):
        whole = f"{text} {below}"
        if len(whole) > 2 * MAX_TITLE_CHARS or (pair := pairs.get(words_key(whole))) is None:
            continue
        for p in range(1, len(text)):
            if (
                (text[p].isupper() or text[p].isdigit())
                and not text[p - 1].isspace()
                and words_key(text[:p]) == pair[0]
                and words_key(f"{text[p:]} {below}") == pair[1]
            ):
                seams[i] = offset + p
                break
    return seams
