"""Structure files, applied: anchors in the text and the corrections they carry.

``apply_corrections(book, corrections)`` → a new ``Book`` with corrected headings that records
the corrections' digest (``Book.corrections``, which salts its chunk ids). Pure: it never
re-reads the file or re-tokenizes, so the app can re-chunk at once. Anchors (page + line
text + char offset) are matched to the book's lines, so a correction still applies when the
engine later finds slightly different headings. ``heading_anchor``/``page_lines`` serve the app.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from rapidfuzz import fuzz

from ..models import Book, Heading
from ..rules import PageIndex
from ..titles import MAX_TEXT_FIELD, safe_title
from .schema import (
    CORRECTION_SOURCE,
    MATCH_MIN_SCORE,
    Anchor,
    Correction,
    StructureFile,
    _fail,
    corrections_digest,
)


def line_span(text: str, offset: int) -> tuple[int, int]:
    """``[start, end)`` of the line of ``text`` holding ``offset`` (without its newline)."""
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    return start, len(text) if end < 0 else end


def _norm(line: str) -> str:
    return " ".join(line.split()).casefold()


def heading_anchor(book: Book, heading: Heading) -> Anchor:
    """The anchor that finds ``heading`` again: its page, its line's text and its offset."""
    a, b = line_span(book.text, heading.char_offset)
    return Anchor(heading.page, " ".join(book.text[a:b].split()) or heading.title or "?", heading.char_offset)


def page_lines(book: Book, page: int) -> list[tuple[int, str]]:
    """Every non-blank line of ``page`` as ``(offset of its first non-space character, text)``:
    the lines a user can pick to add a heading at (the app's "pick page, then the line")."""
    if not 1 <= page <= len(book.pages):
        return []
    p = book.pages[page - 1]
    out, pos = [], p.char_start
    for line in book.text[p.char_start : p.char_end].split("\n"):
        if line.strip():
            out.append((pos + len(line) - len(line.lstrip()), line.strip()))
        pos += len(line) + 1
    return out


def _score(line: str, anchor_text: str) -> float:
    """How well a book ``line`` matches an anchor's ``line_text`` (0-100); a line longer than an
    anchor may hold is compared by its first ``MAX_TEXT_FIELD`` characters, as its anchor was cut."""
    return float(
        fuzz.ratio(_norm(safe_title(line[: 2 * MAX_TEXT_FIELD]))[:MAX_TEXT_FIELD], _norm(anchor_text))
    )


MAX_CANDIDATES = 256
"""Most headings (or lines) of the anchor's page scored when its offset names none: the nearest
ones, so one operation costs the same on a page of 10 headings and on a page of 100,000."""


class _Outline:
    """The headings while corrections apply, indexed so that each operation costs O(log n).

    Headings live in slots (a removed one leaves ``None``), in the order the old list kept them,
    so ties break as before. ``at`` maps a char offset to its headings' slots, ``on_page`` keeps
    each page's ``(char_offset, slot)`` sorted, and line ends and page lines are looked up, not
    scanned: 100,000 operations on a 100,000-heading book take seconds (``bench/corrections.py``).
    """

    def __init__(self, book: Book) -> None:
        self.book = book
        self.slots: list[Heading | None] = []
        self.at: dict[int, list[int]] = {}
        self.on_page: dict[int, list[tuple[int, int]]] = {}
        self.pages = PageIndex(book.pages)
        self.newlines = [m.start() for m in re.finditer("\n", book.text)]
        self._lines: dict[int, list[tuple[int, int]]] = {}
        for h in book.headings:
            self.add(h)

    def add(self, h: Heading) -> None:
        self.slots.append(h)
        self._index(len(self.slots) - 1, h)

    def _index(self, slot: int, h: Heading) -> None:
        bisect.insort(self.at.setdefault(h.char_offset, []), slot)
        bisect.insort(self.on_page.setdefault(h.page, []), (h.char_offset, slot))

    def _unindex(self, slot: int, h: Heading) -> None:
        self.at[h.char_offset].remove(slot)
        if not self.at[h.char_offset]:
            del self.at[h.char_offset]
        page = self.on_page[h.page]
        del page[bisect.bisect_left(page, (h.char_offset, slot))]

    def remove(self, slot: int) -> None:
        h = self.slots[slot]
        assert h is not None
        self._unindex(slot, h)
        self.slots[slot] = None

    def put(self, slot: int, h: Heading) -> None:
        old = self.slots[slot]
        assert old is not None
        self._unindex(slot, old)
        self.slots[slot] = h
        self._index(slot, h)

    def get(self, slot: int) -> Heading:
        h = self.slots[slot]
        assert h is not None
        return h

    def taken(self, at: int, but: int | None = None) -> Heading | None:
        """A heading starting at ``at`` (other than slot ``but``), or None."""
        return next((self.get(s) for s in self.at.get(at, ()) if s != but), None)

    def line_end(self, offset: int) -> int:
        """End of the line holding ``offset`` (``line_span``'s end, by bisection)."""
        k = bisect.bisect_left(self.newlines, offset)
        return self.newlines[k] if k < len(self.newlines) else len(self.book.text)

    def line_start(self, offset: int) -> int:
        k = bisect.bisect_left(self.newlines, offset)
        return self.newlines[k - 1] + 1 if k else 0

    def text(self, start: int, end: int) -> str:
        """``book.text[start:end]``, at most what ``_score`` compares."""
        return self.book.text[start : min(end, start + 2 * MAX_TEXT_FIELD)]

    def lines(self, page: int) -> list[tuple[int, int]]:
        """``page_lines(book, page)`` as ``(offset, offset)`` pairs, computed once per page."""
        if page not in self._lines:
            self._lines[page] = [(o, o) for o, _ in page_lines(self.book, page)]
        return self._lines[page]

    def sorted_headings(self) -> tuple[Heading, ...]:
        return tuple(sorted((h for h in self.slots if h is not None), key=lambda h: (h.char_offset, h.level)))


def _nearest(items: list[tuple[int, int]], offset: int, score: Callable[[int, int], float]) -> int | None:
    """The second member of the ``(offset, tie)`` item (``items`` sorted) scoring at least
    ``MATCH_MIN_SCORE`` nearest ``offset``: ties go to the higher score, then the smaller ``tie``.
    Items are scored outward from ``offset``, at most ``MAX_CANDIDATES`` of them."""
    right = bisect.bisect_left(items, (offset, -1))
    left = right - 1
    best: tuple[int, float, int] | None = None
    for _ in range(min(MAX_CANDIDATES, len(items))):
        take_left = left >= 0 and (right >= len(items) or offset - items[left][0] <= items[right][0] - offset)
        at, tie = items[left] if take_left else items[right]
        if take_left:
            left -= 1
        else:
            right += 1
        distance = abs(at - offset)
        if best is not None and distance > best[0]:
            break
        value = score(at, tie)
        if value >= MATCH_MIN_SCORE:
            key = (distance, -value, tie)
            best = key if best is None or key < best else best
    return None if best is None else best[2]


def _check_anchor(book: Book, a: Anchor, name: str, where: str) -> None:
    if a.page > len(book.pages):
        raise _fail(name, where, f"page {a.page} is past the book's last page ({len(book.pages)})")
    if a.char_offset > len(book.text):
        raise _fail(
            name, where, f"char_offset {a.char_offset} is past the text ({len(book.text)} characters)"
        )


def _find_heading(outline: _Outline, a: Anchor, name: str, where: str) -> int:
    """Slot of the heading ``a`` names: the one at ``a.char_offset``, else the one on ``a.page``
    whose line matches ``a.line_text`` (fuzzy), nearest the offset."""
    _check_anchor(outline.book, a, name, where)
    if a.char_offset in outline.at:
        return outline.at[a.char_offset][0]

    def score(offset: int, slot: int) -> float:
        e = outline.line_end(offset)
        line = outline.text(outline.line_start(offset), e)
        return max(_score(line, a.line_text), _score(outline.text(offset, e), a.line_text))

    found = _nearest(outline.on_page.get(a.page, []), a.char_offset, score)
    if found is None:
        raise _fail(
            name,
            where,
            f"no heading on page {a.page} matches {a.line_text[:80]!r} "
            f"(none starts at char {a.char_offset} either)",
        )
    return found


def _find_line(outline: _Outline, a: Anchor, name: str, where: str) -> int:
    """The char offset ``a`` names as a place for a heading: ``a.char_offset`` itself when its
    line matches ``a.line_text``, else the start of the matching line on ``a.page`` nearest it."""
    book = outline.book
    _check_anchor(book, a, name, where)
    p = book.pages[a.page - 1]
    # NOTE: the offset itself only when the text from it matches (a heading mid-line); an offset
    # inside a matching line falls through to that line's start below.
    if p.char_start <= a.char_offset < p.char_end:
        rest = outline.text(a.char_offset, outline.line_end(a.char_offset))
        if rest.strip() and _score(rest, a.line_text) >= MATCH_MIN_SCORE:
            return a.char_offset

    def score(offset: int, _: int) -> float:
        return _score(outline.text(offset, outline.line_end(offset)).strip(), a.line_text)

    found = _nearest(outline.lines(a.page), a.char_offset, score)
    if found is None:
        raise _fail(name, where, f"no line on page {a.page} matches {a.line_text[:80]!r}")
    return found


# ---------------------------------------------------------------- applying


def apply_corrections(
    book: Book,
    corrections: StructureFile | tuple[Correction, ...] | list[Correction],
    *,
    name: str | None = None,
) -> Book:
    """Return ``book`` with its headings corrected; pure (no re-reading, no tokenizing).

    Operations apply in order, each to the headings the previous ones left, so a ``set`` may
    name a heading an ``add`` made. Headings end sorted by ``char_offset``. Each operation costs
    O(log n) in the book's headings (``_Outline``), so n operations cost O(n log n).

    Args:
        book (Book): the book as ``load_book`` read it.
        corrections: a ``StructureFile`` or its corrections.
        name (str | None): the file name for messages. Defaults to the structure file's name.

    Returns:
        Book: the same text and pages, corrected headings, ``headings_per_level`` recounted and
        ``corrections`` the digest of the corrections (``corrections_digest``), so its chunks'
        ids differ from the uncorrected book's. No corrections: ``book`` itself.

    Raises:
        ValueError: ``book`` is already corrected (apply every correction to the book as read,
            at once: the digest names them all).
        StructureFileError: an anchor past the text or matching nothing, an add or move onto
            an existing heading, or a move that overlaps an earlier move (names the op).
    """
    if isinstance(corrections, StructureFile):
        name = name or corrections.name
        corrections = corrections.corrections
    name = name or "structure file"
    if not corrections:
        return book
    if book.corrections:
        raise ValueError("the book is already corrected; apply all corrections to the book as read")
    outline = _Outline(book)
    moved: dict[int, int] = {}  # char offset of a moved heading -> index of the move that put it there
    moved_from: dict[int, int] = {}  # original char offset -> index of the move that took it away
    for index, c in enumerate(corrections):
        where = f"corrections[{index}] ({c.op})"
        if c.op == "add":
            at = _find_line(outline, c.anchor, name, where)
            _refuse_taken(outline.taken(at), at, name, where)
            values = dict(c.fields)
            page = outline.pages.number_at(at)
            line = outline.text(at, outline.line_end(at))
            outline.add(
                Heading(
                    level=values["level"],
                    kind=values["kind"],
                    title=values.get("title") or safe_title(" ".join(line.split()), MAX_TEXT_FIELD),
                    number=values.get("number", ""),
                    page=page,
                    page_label=book.pages[page - 1].label,
                    char_offset=at,
                    source=CORRECTION_SOURCE,
                    evidence=(_note(where, name),),
                    confidence=1.0,
                )
            )
        elif c.op == "remove":
            outline.remove(_find_heading(outline, c.anchor, name, where))
        elif c.op == "set":
            i = _find_heading(outline, c.anchor, name, where)
            h = outline.get(i)
            outline.put(i, replace(h, **dict(c.fields), evidence=(*h.evidence, _note(where, name))))
        else:
            if c.anchor.char_offset in moved_from:
                raise _fail(
                    name,
                    where,
                    f"overlaps corrections[{moved_from[c.anchor.char_offset]}] (move): "
                    "both move the same heading",
                )
            i = _find_heading(outline, c.anchor, name, where)
            h = outline.get(i)
            if h.char_offset in moved:
                raise _fail(
                    name,
                    where,
                    f"overlaps corrections[{moved[h.char_offset]}] (move): it moves the "
                    "heading that move put there",
                )
            assert c.to is not None  # parse_correction gives every move its target
            at = _find_line(outline, c.to, name, f"{where} to")
            if at in moved:
                raise _fail(
                    name, where, f"overlaps corrections[{moved[at]}] (move): both move a heading to char {at}"
                )
            _refuse_taken(outline.taken(at, but=i), at, name, where)
            page = outline.pages.number_at(at)
            outline.put(
                i,
                replace(
                    h,
                    char_offset=at,
                    page=page,
                    page_label=book.pages[page - 1].label,
                    evidence=(*h.evidence, _note(where, name)),
                ),
            )
            moved[at] = moved_from[h.char_offset] = index
    headings = outline.sorted_headings()
    per_level: dict[str, int] = {}
    for h in headings:
        per_level[str(h.level)] = per_level.get(str(h.level), 0) + 1
    diagnostics = replace(book.diagnostics, headings_per_level=dict(sorted(per_level.items())))
    return replace(
        book, headings=headings, diagnostics=diagnostics, corrections=corrections_digest(corrections)
    )


def _note(where: str, name: str) -> tuple[str, str]:
    """The evidence pair a corrected heading carries: which correction of which file."""
    return CORRECTION_SOURCE, f"{where} in {Path(name).name}"


def _refuse_taken(h: Heading | None, at: int, name: str, where: str) -> None:
    """Refuse an add or move onto ``at`` when heading ``h`` already starts there."""
    if h is not None:
        raise _fail(
            name,
            where,
            f"page {h.page} already has a heading at char {at} ({h.title[:60]!r}); "
            "use a set operation to change it",
        )
