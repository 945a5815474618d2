"""Stage 3 (structure), outline runs: a PDF outline's entries read as the headings its pages set.

Contract: ``as_set(raw, norm)`` returns ``raw.outline`` with two readings of its destinations,
each checked on the pages; the engine (``outline.py``) and the outline's plain reading
(``baseline.py``, and through it the guard) both read this outline:

* **runs joined**: consecutive entries at one level whose destinations are one spot (the same
  page, their y apart by less than the height of the line they point at) and whose titles,
  written one after the other, are the text of that one line (whitespace aside) are one entry,
  titled as the line: a generator that writes an entry per styled run of a heading (``Class:``
  in the text face, ``Widget`` in the code face) splits one heading into several;
* **a destination past its page's text**: an entry whose page does not hold its title, whose
  destination lies below every line of that page (below the middle of its last line; running
  headers and footers aside), and whose title opens the next page, points at the top of the next
  page: a generator that records the destination before it breaks the page.

The page's kept text (``NormalisedBook``) is read first; the layout's blocks (line positions) are
asked only for a page where such a case is possible (a run's titles make one of its lines, or a
title absent from it opens the next page). A run is at most ``MAX_RUN`` entries long, so a
hostile outline (thousands of entries at one spot) costs linear time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..normalise import NormalisedBook
from ..readers.layout import PageLayout
from ..readers.raw import OutlineEntry, RawBook
from .kinds import clean_title, compact_key

_NOT_LETTERS = re.compile(r"[\W_]+")

MAX_RUN = 16
"""Entries one heading line may be split into (a run per styled span): more are not joined."""

OPENING_LINES = 4
"""A title that opens a page may run over this many of its first kept lines (wrapped)."""


@dataclass(frozen=True)
class _Row:
    """One line of a page as laid out: its top and bottom (points from the page top) and text key."""

    top: float
    bottom: float
    key: str


@dataclass
class AsSet:
    """The outline as ``as_set`` reads it and what it changed."""

    entries: list[OutlineEntry]
    joined: int = 0
    """Entries merged into the entry before them (styled runs of one heading line)."""
    moved: int = 0
    """Entries that point past their page's text, moved to the next page."""

    def warnings(self, stated: int) -> list[str]:
        """One line per reading that changed the outline (``stated``: entries as the PDF has them)."""
        out = []
        if self.joined:
            out.append(
                f"{self.joined} of {stated} outline entries were styled runs of the heading line "
                "the entry before them points at, and were joined to it"
            )
        if self.moved:
            out.append(
                f"{self.moved} outline entries pointed past the last line of their page, at the "
                "title that opens the next page, and were moved to it"
            )
        return out


class _Pages:
    """Per-page lookups, each computed once: kept line keys, kept text key, laid-out rows."""

    def __init__(self, norm: NormalisedBook, layout: PageLayout | None):
        self.norm = norm
        self.layout = layout
        self._line_keys: dict[int, set[str]] = {}
        self._text_keys: dict[int, str] = {}
        self._rows: dict[int, list[_Row]] = {}
        self._openings: dict[int, list[str]] = {}

    def line_keys(self, index: int) -> set[str]:
        if index not in self._line_keys:
            self._line_keys[index] = {compact_key(line) for _, line in self.norm.lines[index]}
        return self._line_keys[index]

    def text_key(self, index: int) -> str:
        """The page's kept text as its letters and digits alone (``_letters``)."""
        if index not in self._text_keys:
            self._text_keys[index] = _letters("".join(line for _, line in self.norm.lines[index]))
        return self._text_keys[index]

    def rows(self, index: int) -> list[_Row]:
        """The page's laid-out lines, top down, without its running headers and footers (the
        texts the normaliser removed as furniture)."""
        if index not in self._rows:
            rows: list[_Row] = []
            if self.layout is not None:
                furniture = (
                    {compact_key(t) for t in self.norm.furniture[index]}
                    if index < len(self.norm.furniture)
                    else set()
                )
                for block in self.layout.blocks(index):
                    texts = block.text.rstrip("\n").split("\n")
                    step = (block.y1 - block.y0) / len(texts)
                    for k, text in enumerate(texts):
                        key = compact_key(text)
                        if key and key not in furniture:
                            rows.append(_Row(block.y0 + step * k, block.y0 + step * (k + 1), key))
            self._rows[index] = sorted(rows, key=lambda row: row.top)
        return self._rows[index]

    def opening(self, index: int) -> list[str]:
        """The keys of the page's first kept lines joined one, two… ``OPENING_LINES`` at a time."""
        if index not in self._openings:
            lines = self.norm.lines[index][:OPENING_LINES]
            self._openings[index] = [
                "".join(compact_key(line) for _, line in lines[: k + 1]) for k in range(len(lines))
            ]
        return self._openings[index]


def as_set(raw: RawBook, norm: NormalisedBook) -> AsSet:
    """Read ``raw.outline`` (a PDF's) as the headings its pages set (see the module docstring).

    Args:
        raw (RawBook): the reader's output; its outline and layout are read.
        norm (NormalisedBook): the canonical text and per-page kept lines.

    Returns:
        AsSet: the entries in outline order, and how many were joined or moved; the outline as
        it is for any other format than PDF (an EPUB's nav points at exact offsets).
    """
    outline = raw.outline
    if raw.format != "pdf" or not outline:
        return AsSet(list(outline))
    pages = _Pages(norm, raw.layout)
    out = AsSet([])
    k = 0
    while k < len(outline):
        entry, taken = _joined(outline, k, pages)
        out.joined += taken - 1
        moved = _past_the_page(entry, pages)
        out.moved += moved is not entry
        out.entries.append(moved)
        k += taken
    return out


def _joined(outline: list[OutlineEntry], k: int, pages: _Pages) -> tuple[OutlineEntry, int]:
    """Entry ``k`` with the entries after it that are styled runs of its heading line joined to
    it, and how many entries that took (1: none joined)."""
    first = outline[k]
    index = first.page - 1
    if first.y is None or not 0 <= index < len(pages.norm.lines):
        return first, 1
    longest = max((len(key) for key in pages.line_keys(index)), default=0)
    if index + 1 < len(pages.norm.lines):
        longest = max([longest, *(len(key) for key in pages.opening(index + 1)[:1])])
    keys = [compact_key(first.title)]  # NOTE: the keys of the runs k..k, k..k+1, … (cumulative)
    while (
        len(keys) < MAX_RUN
        and k + len(keys) < len(outline)
        and (e := outline[k + len(keys)]).level == first.level
        and e.page == first.page
        and e.y is not None
        and len(keys[-1]) < longest
    ):
        keys.append(keys[-1] + compact_key(e.title))
    for size in range(len(keys), 1, -1):  # NOTE: the longest run that makes a line wins
        key = keys[size - 1]
        run = outline[k : k + size]
        # NOTE: a destination past its page's text points at the next page's opening line
        page = index if key in pages.line_keys(index) else index + 1
        if page != index and not (
            page < len(pages.norm.lines) and key in pages.opening(page)[:1] and _past_text(first, pages)
        ):
            continue
        if _one_spot(run, key, page, pages):
            line = next(text for _, text in pages.norm.lines[page] if compact_key(text) == key)
            return replace(first, title=" ".join(line.split())), size
    return first, 1


def _one_spot(run: list[OutlineEntry], key: str, index: int, pages: _Pages) -> bool:
    """Whether the destinations of ``run`` are one spot: their y apart by less than the height of
    the line that holds their titles (the one nearest them when the page holds it twice); the
    same y where the page's positions cannot be read."""
    ys = [e.y for e in run if e.y is not None]
    spread = max(ys) - min(ys)
    rows = [row for row in pages.rows(index) if row.key == key]
    if not rows:
        return spread == 0
    row = min(rows, key=lambda r: abs(r.top - ys[0]))
    return spread < row.bottom - row.top


def _past_the_page(entry: OutlineEntry, pages: _Pages) -> OutlineEntry:
    """``entry`` moved to the top of the next page when its destination points past its page's
    text, at the title that opens the next page; else ``entry`` itself."""
    index = entry.page - 1
    if entry.y is None or not 0 <= index < len(pages.norm.lines) - 1:
        return entry
    key = compact_key(clean_title(entry.title))
    # NOTE: the page holds the title when it prints its letters and digits in order, whatever it
    # sets between them (``Chapter 1`` / ``Preface`` for ``Chapter 1. Preface``): no layout asked
    if not key or _letters(key) in pages.text_key(index) or key not in pages.opening(index + 1):
        return entry
    if not _past_text(entry, pages):
        return entry
    return replace(entry, page=entry.page + 1, y=0.0)


def _letters(text: str) -> str:
    """``text`` casefolded, its letters and digits alone: how a title is looked for in a page's
    whole text, over line breaks and punctuation."""
    return _NOT_LETTERS.sub("", text.casefold())


def _past_text(entry: OutlineEntry, pages: _Pages) -> bool:
    """Whether ``entry``'s destination lies below every kept line of its page (below the middle
    of the last one): it points at nothing there."""
    rows = pages.rows(entry.page - 1)
    return entry.y is not None and bool(rows) and all((row.top + row.bottom) / 2 < entry.y for row in rows)
