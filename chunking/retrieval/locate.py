"""Retrieval debugging, stage 1: a pasted passage → its exact span of ``Book.text``.

Contract: ``locate(index, passage)`` returns a ``Location`` whose ``char_start``/``char_end`` are a
half-open span of the canonical text (``book.text[char_start:char_end]`` is the passage as the book
holds it), or ``found=False`` when the passage is not in the book. Offsets are never recovered with
``str.find`` on chunk text: the search runs in a *normalised search space* (letters and digits
only, NFKC, case-folded) and every position there maps back to ``book.text`` through an index
array, so whitespace changes, dehyphenation, ligatures, punctuation and page breaks do not matter.

How (in order):

1. Normalise book and passage into the search space (``SearchSpace``).
2. An exact hit of the whole normalised passage is taken as is (score 100).
3. Otherwise anchor on rare n-grams: hashes of the book's n-grams at every ``ANCHOR_STEP``-th
   position are sorted once; every n-gram of the passage is looked up; n-grams found at most
   ``MAX_ANCHOR_HITS`` times vote (weight 1/hits) for the diagonal ``book_pos - passage_pos``.
   The ``CANDIDATES`` heaviest clusters of diagonals each give a window of the book.
4. Align passage and window with rapidfuzz (``Indel.opcodes``, an LCS alignment) and keep the chain
   of matching blocks around the longest one that stay on one path, grown letter by letter at both
   ends: that trims a prefixed heading or text from elsewhere, and keeps a word cut in the middle
   exact to the letter. The best-scoring window wins (the first one on a tie).

Step 1 lives in ``chunking.retrieval.space``, steps 2-4 in ``chunking.retrieval.align``; this
module reports the result. It also answers the questions asked about a found span: pages and
printed labels, the enclosing chapter and section, the chunks (of one policy) that hold it,
whether it straddles a chunk boundary, and the sentence parts just outside a chunk's edges.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from ..errors import UsageError
from ..models import Book, Chunk, Page
from ..rules import PageIndex, context_at
from .align import _anchor_and_align, _exact
from .space import SearchSpace, edge_context, normalise, sentence_starts

__all__ = [
    "MAX_PASSAGE",
    "MIN_SCORE",
    "BoundaryMark",
    "ChunkMatch",
    "Location",
    "SearchSpace",
    "edge_context",
    "enclosing_titles",
    "locate",
    "boundaries_inside",
    "match_chunks",
    "normalise",
    "page_at",
    "sentence_starts",
]

MAX_PASSAGE = 20_000
"""Longest passage (letters and digits) looked up; the alignment's memory grows with its square, and
a retrieved passage is a chunk or two."""

MIN_SCORE = 60.0
"""A passage whose best span scores below this (0-100) is reported as not found."""


@dataclass(frozen=True)
class BoundaryMark:
    """A chunk edge that falls strictly inside a located span.

    Attributes:
        char (int): the edge's offset in ``book.text`` (a ``char_start`` or ``char_end``).
        edge (str): ``"start"`` (a chunk starts here) or ``"end"`` (a chunk ends here).
        order (int): that chunk's ``order``.
        id (str): that chunk's id.
    """

    char: int
    edge: str
    order: int
    id: str


def boundaries_inside(chunks: Sequence[Chunk], start: int, end: int) -> list[BoundaryMark]:
    """Every chunk start and end strictly inside ``[start, end)``, by offset (an end before a
    start at the same offset: the earlier chunk ends, then the next begins).

    With overlap a span can hold a start and, further on, the previous chunk's end; both are marked,
    since both are places where one retrieved chunk stops holding the passage.
    """
    marks = [
        BoundaryMark(x, edge, c.order, c.id)
        for c in chunks
        for x, edge in ((c.char_start, "start"), (c.char_end, "end"))
        if start < x < end
    ]
    return sorted(marks, key=lambda m: (m.char, m.edge == "start", m.order))


@dataclass
class ChunkMatch:
    """Which chunks of one policy hold a located span.

    Attributes:
        policy (str): the policy's label.
        ids (list[str]): the chunks that contain the whole span; when none does, the chunks it
            overlaps (then ``straddles`` is True).
        orders (list[int]): the ``order`` of each chunk in ``ids``.
        straddles (bool): no single chunk contains the whole span.
        cut_before (str): the part of a sentence just before the first listed chunk's start (what
            its start boundary cut off, or the whole previous sentence when it starts cleanly).
        cut_after (str): the same just after the last listed chunk's end.
        boundaries (list[BoundaryMark]): the chunk edges inside the span (``boundaries_inside``);
            empty when one chunk holds it with no other chunk's edge inside.
    """

    policy: str
    ids: list[str]
    orders: list[int]
    straddles: bool
    cut_before: str = ""
    cut_after: str = ""
    boundaries: list[BoundaryMark] = field(default_factory=list)


@dataclass
class Location:
    """Where a passage is in a book (see the module docstring for the offset contract).

    Attributes:
        found (bool): the best span scores at least ``MIN_SCORE``.
        score (float): 0-100, rapidfuzz's normalised Indel similarity between the whole normalised
            passage and the normalised found span (a prefixed heading or a few changed characters
            lower it a little; text from elsewhere lowers it to near 0).
        char_start (int): span start in ``book.text`` (``-1`` when not found).
        char_end (int): span end (exclusive) in ``book.text`` (``-1`` when not found).
        page_start (int): 1-based physical page of ``char_start`` (0 when not found).
        page_end (int): 1-based physical page of the span's last character.
        page_label_start (str): printed label of ``page_start``.
        page_label_end (str): printed label of ``page_end``.
        chapter (str): title of the chapter-level unit holding ``char_start`` (``""`` when none).
        section (str): title of the section holding ``char_start`` within that chapter.
        passage_start (int): first character of the passage that the span covers.
        passage_end (int): end (exclusive) of the passage part the span covers.
        occurrences (int): how many places in the book match equally well (repeated text): exact
            copies, or aligned candidates within one point of the best score.
        chunks (list[ChunkMatch]): filled by ``match_chunks`` per policy.
    """

    found: bool
    score: float
    char_start: int = -1
    char_end: int = -1
    page_start: int = 0
    page_end: int = 0
    page_label_start: str = ""
    page_label_end: str = ""
    chapter: str = ""
    section: str = ""
    passage_start: int = 0
    passage_end: int = 0
    occurrences: int = 0
    chunks: list[ChunkMatch] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The ``locate --json`` record: the fields the CLI contract names, chunks as
        ``{"policy", "ids", "straddles", "boundaries"}`` (each boundary ``{"char", "edge", "order",
        "id"}``)."""
        keys = (
            "found",
            "score",
            "char_start",
            "char_end",
            "page_start",
            "page_end",
            "page_label_start",
            "page_label_end",
            "chapter",
            "section",
        )
        out = {k: getattr(self, k) for k in keys}
        out["score"] = round(self.score, 2)
        out["chunks"] = [
            {
                "policy": c.policy,
                "ids": c.ids,
                "straddles": c.straddles,
                "boundaries": [
                    {"char": b.char, "edge": b.edge, "order": b.order, "id": b.id} for b in c.boundaries
                ],
            }
            for c in self.chunks
        ]
        return out


def locate(space: SearchSpace, passage: str) -> Location:
    """Find the exact span of ``space.book.text`` that ``passage`` was taken from.

    Args:
        space (SearchSpace): the prepared book (``SearchSpace.build``).
        passage (str): the text to look for; may be whitespace-normalised, dehyphenated, carry a
            prefixed heading, be cut mid-word at either end or span page breaks.

    Returns:
        Location: ``found=False`` (score kept) when no span scores ``MIN_SCORE``; else the span
        with pages, labels, chapter and section.

    Raises:
        UsageError: the passage has no letter or digit to search for, or more than ``MAX_PASSAGE``.
    """
    p_norm, p_index = normalise(passage)
    if not p_norm:
        raise UsageError("the passage has no letters or digits to search for")
    if len(p_norm) > MAX_PASSAGE:
        raise UsageError(
            f"the passage has {len(p_norm):,} letters and digits; paste at most "
            f"{MAX_PASSAGE:,} (a chunk or a few)"
        )
    hit = _exact(space, p_norm)
    if hit is not None:
        b_start, b_end, occurrences = hit
        p_start, p_end, score = 0, len(p_norm), 100.0
    else:
        aligned = _anchor_and_align(space, p_norm, p_index)
        if aligned is None:
            return Location(found=False, score=0.0)
        b_start, b_end, p_start, p_end, score, occurrences = aligned
        if score < MIN_SCORE:
            return Location(found=False, score=score)
    char_start = int(space.index[b_start])
    char_end = int(space.index[b_end - 1]) + 1
    pass_start = int(p_index[p_start])
    pass_end = int(p_index[p_end - 1]) + 1
    char_start, char_end, pass_start, pass_end = _grow_punctuation(
        space.book.text, passage, char_start, char_end, pass_start, pass_end
    )
    loc = Location(
        found=True,
        score=score,
        char_start=char_start,
        char_end=char_end,
        passage_start=pass_start,
        passage_end=pass_end,
        occurrences=occurrences,
    )
    _describe(space.book, loc)
    return loc


def _grow_punctuation(
    text: str, passage: str, c0: int, c1: int, p0: int, p1: int
) -> tuple[int, int, int, int]:
    """Extend the span over punctuation the passage also has at its edges (``"end."``, ``"$ x"``).

    The search space holds only letters and digits, so the aligned span stops at the last letter;
    this takes back the non-alphanumeric symbols just outside it that passage and book share,
    whitespace between them being free to differ.
    """
    while True:
        i, j = _next_visible(passage, p1), _next_visible(text, c1)
        if i < len(passage) and j < len(text) and passage[i] == text[j] and not passage[i].isalnum():
            p1, c1 = i + 1, j + 1
        else:
            break
    while True:
        i, j = _prev_visible(passage, p0), _prev_visible(text, c0)
        if i > 0 and j > 0 and passage[i - 1] == text[j - 1] and not passage[i - 1].isalnum():
            p0, c0 = i - 1, j - 1
        else:
            break
    return c0, c1, p0, p1


def _next_visible(s: str, i: int) -> int:
    """The first offset at or after ``i`` holding a non-space character (``len(s)`` if none)."""
    while i < len(s) and s[i].isspace():
        i += 1
    return i


def _prev_visible(s: str, i: int) -> int:
    """The largest offset ``k <= i`` such that ``s[k - 1]`` is not a space (0 if none)."""
    while i > 0 and s[i - 1].isspace():
        i -= 1
    return i


def _describe(book: Book, loc: Location) -> None:
    """Fill pages, labels, chapter and section of a found location."""
    first = page_at(book, loc.char_start)
    last = page_at(book, max(loc.char_start, loc.char_end - 1))
    loc.page_start, loc.page_label_start = first.number, first.label
    loc.page_end, loc.page_label_end = last.number, last.label
    loc.chapter, loc.section = enclosing_titles(book, loc.char_start)


def page_at(book: Book, offset: int) -> Page:
    """The page holding ``book.text[offset]`` (``rules.PageIndex``: a separator gives the next page).

    Raises:
        UsageError: the book has no page with text.
    """
    page = PageIndex(book.pages).page_at(offset)
    if page is None:
        raise UsageError(f"book {book.source_name or book.title!r} has no text")
    return page


def enclosing_titles(book: Book, offset: int) -> tuple[str, str]:
    """Titles of the chapter and the section that hold ``offset`` (``rules.context_at``)."""
    ctx = context_at(book, offset)
    return ctx.chapter, ctx.section


def match_chunks(space: SearchSpace, loc: Location, chunks: Sequence[Chunk], policy: str) -> ChunkMatch:
    """Which of ``chunks`` hold the located span, and what their edges cut off.

    Args:
        space (SearchSpace): the prepared book the chunks were cut from.
        loc (Location): a found location.
        chunks (Sequence[Chunk]): one policy's chunks in order.
        policy (str): the policy's label to report.

    Returns:
        ChunkMatch: containing chunks, or overlapping ones with ``straddles=True``.
    """
    s, e = loc.char_start, loc.char_end
    inside = [c for c in chunks if c.char_start <= s and e <= c.char_end]
    straddles = not inside
    chosen = inside or [c for c in chunks if c.char_start < e and s < c.char_end]
    match = ChunkMatch(
        policy=policy,
        ids=[c.id for c in chosen],
        orders=[c.order for c in chosen],
        straddles=straddles,
        boundaries=boundaries_inside(chunks, s, e),
    )
    if chosen:
        match.cut_before = edge_context(space, chosen[0].char_start, chosen[0].char_end)[0]
        match.cut_after = edge_context(space, chosen[-1].char_start, chosen[-1].char_end)[1]
    return match
