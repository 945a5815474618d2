"""Structure files, applied: anchors in the text and the corrections they carry.

``apply_corrections(book, corrections)`` → a new ``Book`` with corrected headings that records
the corrections' digest (``Book.corrections``, which salts its chunk ids). Pure: it never
re-reads the file or re-tokenizes, so the app can re-chunk at once. Anchors (page + line
text + char offset) are matched to the book's lines, so a correction still applies when the
engine later finds slightly different headings. ``heading_anchor``/``page_lines`` serve the app.
"""

from __future__ import annotations

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


def _page_of(book: Book, offset: int) -> int:
    """1-based page holding ``offset`` (``rules.PageIndex``)."""
    return PageIndex(book.pages).number_at(offset)


def _check_anchor(book: Book, a: Anchor, name: str, where: str) -> None:
    if a.page > len(book.pages):
        raise _fail(name, where, f"page {a.page} is past the book's last page ({len(book.pages)})")
    if a.char_offset > len(book.text):
        raise _fail(
            name, where, f"char_offset {a.char_offset} is past the text ({len(book.text)} characters)"
        )


def _find_heading(book: Book, headings: list[Heading], a: Anchor, name: str, where: str) -> int:
    """Index of the heading ``a`` names: the one at ``a.char_offset``, else the one on ``a.page``
    whose line matches ``a.line_text`` (fuzzy), nearest the offset."""
    _check_anchor(book, a, name, where)
    for i, h in enumerate(headings):
        if h.char_offset == a.char_offset:
            return i
    best: tuple[int, float, int] | None = None
    for i, h in enumerate(headings):
        if h.page != a.page:
            continue
        s, e = line_span(book.text, h.char_offset)
        score = max(_score(book.text[s:e], a.line_text), _score(book.text[h.char_offset : e], a.line_text))
        if score >= MATCH_MIN_SCORE:
            key = (abs(h.char_offset - a.char_offset), -score, i)
            best = key if best is None or key < best else best
    if best is None:
        raise _fail(
            name,
            where,
            f"no heading on page {a.page} matches {a.line_text[:80]!r} "
            f"(none starts at char {a.char_offset} either)",
        )
    return best[2]


def _find_line(book: Book, a: Anchor, name: str, where: str) -> int:
    """The char offset ``a`` names as a place for a heading: ``a.char_offset`` itself when its
    line matches ``a.line_text``, else the start of the matching line on ``a.page`` nearest it."""
    _check_anchor(book, a, name, where)
    p = book.pages[a.page - 1]
    e = line_span(book.text, a.char_offset)[1]
    # NOTE: the offset itself only when the text from it matches (a heading mid-line); an offset
    # inside a matching line falls through to that line's start below.
    if (
        p.char_start <= a.char_offset < p.char_end
        and book.text[a.char_offset : e].strip()
        and _score(book.text[a.char_offset : e], a.line_text) >= MATCH_MIN_SCORE
    ):
        return a.char_offset
    best: tuple[int, float, int] | None = None
    for offset, line in page_lines(book, a.page):
        score = _score(line, a.line_text)
        if score >= MATCH_MIN_SCORE:
            key = (abs(offset - a.char_offset), -score, offset)
            best = key if best is None or key < best else best
    if best is None:
        raise _fail(name, where, f"no line on page {a.page} matches {a.line_text[:80]!r}")
    return best[2]


# ---------------------------------------------------------------- applying


def apply_corrections(
    book: Book,
    corrections: StructureFile | tuple[Correction, ...] | list[Correction],
    *,
    name: str | None = None,
) -> Book:
    """Return ``book`` with its headings corrected; pure (no re-reading, no tokenizing).

    Operations apply in order, each to the headings the previous ones left, so a ``set`` may
    name a heading an ``add`` made. Headings end sorted by ``char_offset``.

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
    headings = list(book.headings)
    moved: dict[int, int] = {}  # char offset of a moved heading -> index of the move that put it there
    moved_from: dict[int, int] = {}  # original char offset -> index of the move that took it away
    for index, c in enumerate(corrections):
        where = f"corrections[{index}] ({c.op})"
        if c.op == "add":
            at = _find_line(book, c.anchor, name, where)
            _refuse_taken(headings, at, name, where)
            values = dict(c.fields)
            page = _page_of(book, at)
            a, b = line_span(book.text, at)
            headings.append(
                Heading(
                    level=values["level"],
                    kind=values["kind"],
                    title=values.get("title")
                    or safe_title(" ".join(book.text[at:b].split()), MAX_TEXT_FIELD),
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
            headings.pop(_find_heading(book, headings, c.anchor, name, where))
        elif c.op == "set":
            i = _find_heading(book, headings, c.anchor, name, where)
            h = headings[i]
            headings[i] = replace(h, **dict(c.fields), evidence=(*h.evidence, _note(where, name)))
        else:
            if c.anchor.char_offset in moved_from:
                raise _fail(
                    name,
                    where,
                    f"overlaps corrections[{moved_from[c.anchor.char_offset]}] (move): "
                    "both move the same heading",
                )
            i = _find_heading(book, headings, c.anchor, name, where)
            h = headings[i]
            if h.char_offset in moved:
                raise _fail(
                    name,
                    where,
                    f"overlaps corrections[{moved[h.char_offset]}] (move): it moves the "
                    "heading that move put there",
                )
            assert c.to is not None  # parse_correction gives every move its target
            at = _find_line(book, c.to, name, f"{where} to")
            if at in moved:
                raise _fail(
                    name, where, f"overlaps corrections[{moved[at]}] (move): both move a heading to char {at}"
                )
            _refuse_taken([x for j, x in enumerate(headings) if j != i], at, name, where)
            page = _page_of(book, at)
            headings[i] = replace(
                h,
                char_offset=at,
                page=page,
                page_label=book.pages[page - 1].label,
                evidence=(*h.evidence, _note(where, name)),
            )
            moved[at] = moved_from[h.char_offset] = index
    headings.sort(key=lambda h: (h.char_offset, h.level))
    per_level: dict[str, int] = {}
    for h in headings:
        per_level[str(h.level)] = per_level.get(str(h.level), 0) + 1
    diagnostics = replace(book.diagnostics, headings_per_level=dict(sorted(per_level.items())))
    return replace(
        book, headings=tuple(headings), diagnostics=diagnostics, corrections=corrections_digest(corrections)
    )


def _note(where: str, name: str) -> tuple[str, str]:
    """The evidence pair a corrected heading carries: which correction of which file."""
    return CORRECTION_SOURCE, f"{where} in {Path(name).name}"


def _refuse_taken(headings: list[Heading], at: int, name: str, where: str) -> None:
    for h in headings:
        if h.char_offset == at:
            raise _fail(
                name,
                where,
                f"page {h.page} already has a heading at char {at} ({h.title[:60]!r}); "
                "use a set operation to change it",
            )
