"""The book model's rules, defined once: what fences, what holds an offset, how numbers read.

Every stage, the app and the retrieval tools ask these questions of a ``Book``; each answer is
written here and nowhere else, so a chunk's ``chapter``, ``locate``'s chapter, the scorecard's
crossings and the figures' chapter bands can never disagree:

* **fences**: which headings cut chunks (``fence_offsets``): at ``fence="chapter"`` every
  chapter-level heading and every part; at ``fence="section"`` every heading;
* **context at an offset** (``ContextIndex``): the innermost chapter-level heading at or before
  the offset names the chapter; under a part with no chapter yet, the part's title does (a part's
  own introduction is not chapterless text); the innermost section below that chapter names the
  section; the heading path is the stack of open headings;
* **page at an offset** (``PageIndex``): pages without text are skipped; a page separator (the
  ``"\\n"`` between two pages) belongs to the page it introduces;
* **numbering**: roman numerals (``roman_value``, ``to_roman``) and the keywords that label a
  heading (``HEADING_KEYWORDS``).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .models import CHAPTER_LEVEL_KINDS, Book, Heading, Page

FENCE_KINDS = CHAPTER_LEVEL_KINDS | {"part"}
"""Heading kinds whose start is a chapter boundary: chapter-level units and parts."""

CHAPTER_KEYWORDS = ("chapter", "part", "appendix")
"""Words that open a chapter-level unit or a part when a number follows (``Chapter 3``)."""

KIND_KEYWORDS = (*CHAPTER_KEYWORDS, "section")
"""Words that name a heading's kind (``Section 2.1`` is a section): the ``HEADING_KINDS`` a
heading line can spell out."""

HEADING_KEYWORDS = (*KIND_KEYWORDS, "lecture", "unit", "book", "volume")
"""Every word that labels a numbered heading (``Lecture 4``, ``Volume II``). The words beyond
``KIND_KEYWORDS`` label a heading without saying its kind, so they count as labels (a contents
line, a folio's neighbour, a label line above a title), never as a kind."""


def keyword_alternation(words: Sequence[str], cases: bool = False) -> str:
    """``words`` as a regular-expression alternation; with ``cases`` each in lower, UPPER and
    Title case only (``chapter|CHAPTER|Chapter``: a mixed-case word is not a keyword)."""
    if not cases:
        return "|".join(words)
    return "|".join(v for w in words for v in (w, w.upper(), w.title()))


KEYWORD_ALTERNATION = "|".join(HEADING_KEYWORDS)
"""``HEADING_KEYWORDS`` as a regular-expression alternation."""

_ROMAN = re.compile(r"m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})")
_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
_ROMAN_DIGITS = (
    (1000, "m"),
    (900, "cm"),
    (500, "d"),
    (400, "cd"),
    (100, "c"),
    (90, "xc"),
    (50, "l"),
    (40, "xl"),
    (10, "x"),
    (9, "ix"),
    (5, "v"),
    (4, "iv"),
    (1, "i"),
)


def is_fence(heading: Heading, fence: str = "chapter") -> bool:
    """True when ``heading`` cuts chunks under ``fence`` (``"chapter"`` or ``"section"``)."""
    return fence == "section" or heading.kind in FENCE_KINDS


def fence_offsets(book: Book, fence: str = "chapter") -> list[int]:
    """Sorted, distinct character offsets where chunks are cut under ``fence``.

    Args:
        book (Book): the book.
        fence (str): ``"chapter"`` (chapter-level headings and parts) or ``"section"`` (every
            heading).
    """
    return sorted({h.char_offset for h in book.headings if is_fence(h, fence)})


def fence_headings(book: Book) -> list[Heading]:
    """The headings that fence at chapter level (chapter-level units and parts), in book order."""
    return [h for h in book.headings if h.kind in FENCE_KINDS]


def chapter_headings(book: Book) -> list[Heading]:
    """The chapter-level headings (what a book's chapter count counts): no parts, no sections."""
    return [h for h in book.headings if h.kind in CHAPTER_LEVEL_KINDS]


def crosses_fence(text: str, start: int, end: int, fences: Sequence[int]) -> bool:
    """True when a fence lies inside ``[start, end)`` with non-whitespace text on both sides.

    Whitespace before or after a boundary (page separators, blank lines) is nobody's text, so a
    span that is only blank lines and then the heading does not cross.
    """
    i = bisect.bisect_right(fences, start)
    while i < len(fences) and fences[i] < end:
        if text[start : fences[i]].strip() and text[fences[i] : end].strip():
            return True
        i += 1
    return False


@dataclass(frozen=True)
class Context:
    """Where an offset sits in the book's structure.

    Attributes:
        chapter (str): the chapter-level unit's title (the part's, under a part with no chapter).
        section (str): the innermost section's title below that chapter, ``""`` when none.
        path (tuple[str, ...]): titles of every open heading, outermost first.
    """

    chapter: str = ""
    section: str = ""
    path: tuple[str, ...] = ()


class ContextIndex:
    """The ``Context`` at any offset of one book, built once (O(headings)) and looked up by bisect."""

    def __init__(self, headings: Iterable[Heading]) -> None:
        self._offsets: list[int] = []
        self._contexts: list[Context] = []
        stack: list[Heading] = []
        for h in sorted(headings, key=lambda h: h.char_offset):
            while stack and stack[-1].level >= h.level:
                stack.pop()
            stack.append(h)
            chapter_at = next(
                (i for i in range(len(stack) - 1, -1, -1) if stack[i].kind in CHAPTER_LEVEL_KINDS), -1
            )
            if chapter_at < 0:
                chapter_at = next((i for i in range(len(stack) - 1, -1, -1) if stack[i].kind == "part"), -1)
            chapter = stack[chapter_at].title if chapter_at >= 0 else ""
            section = next((s.title for s in reversed(stack[chapter_at + 1 :]) if s.kind == "section"), "")
            self._offsets.append(h.char_offset)
            self._contexts.append(Context(chapter, section, tuple(s.title for s in stack)))

    def at(self, offset: int) -> Context:
        """The context of the innermost heading at or before ``offset`` (empty before the first)."""
        i = bisect.bisect_right(self._offsets, offset) - 1
        return self._contexts[i] if i >= 0 else Context()


def context_at(book: Book, offset: int) -> Context:
    """``ContextIndex(book.headings).at(offset)``, for one-off lookups."""
    return ContextIndex(book.headings).at(offset)


class PageIndex:
    """The page holding any character offset of one book's text.

    Pages without text are skipped (they hold no offset); a page separator belongs to the page it
    introduces; offsets past the text belong to the last page with text.
    """

    def __init__(self, pages: Iterable[Page]) -> None:
        self.pages: list[Page] = [p for p in pages if p.char_end > p.char_start]
        self.ends: list[int] = [p.char_end for p in self.pages]
        """Each page's ``char_end``, in order (a page holds ``[char_start, char_end)`` and the separator after it)."""

    def index_at(self, offset: int) -> int:
        """Index into ``self.pages`` of the page holding ``offset`` (0 for a book without text)."""
        return min(bisect.bisect_right(self.ends, offset), max(len(self.ends) - 1, 0))

    def page_at(self, offset: int) -> Page | None:
        """The page holding ``offset``; None when the book has no text."""
        return self.pages[self.index_at(offset)] if self.pages else None

    def number_at(self, offset: int) -> int:
        """The 1-based physical page number holding ``offset`` (1 for a book without text)."""
        page = self.page_at(offset)
        return page.number if page else 1


def roman_value(token: str) -> int:
    """``"xiv"`` or ``"XIV"`` → 14; 0 when ``token`` is not a well-formed roman numeral."""
    low = token.casefold()
    if not low or not _ROMAN.fullmatch(low):
        return 0
    total = 0
    for a, b in zip(low, low[1:] + " "):
        va, vb = _ROMAN_VALUES[a], _ROMAN_VALUES.get(b, 0)
        total += -va if va < vb else va
    return total


def to_roman(value: int) -> str:
    """14 → ``"xiv"`` (lower case; ``.upper()`` for capitals)."""
    out = []
    for number, letters in _ROMAN_DIGITS:
        while value >= number:
            out.append(letters)
            value -= number
    return "".join(out)
