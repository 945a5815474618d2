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

The module also answers the questions asked about a found span: pages and printed labels, the
enclosing chapter and section, the chunks (of one policy) that hold it, whether it straddles a
chunk boundary, and the sentence parts just outside a chunk's edges (``sentence_starts``).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
from rapidfuzz.distance import Indel

from ..errors import UsageError
from ..models import Book, Chunk, Page
from ..rules import PageIndex, context_at

ANCHOR_LEN = 12
"""Characters of the search space per anchor n-gram (about two words)."""

ANCHOR_STEP = 6
"""The book's n-grams are indexed every this many positions: any exact run of
``ANCHOR_LEN + ANCHOR_STEP - 1`` characters shared with the passage is guaranteed an anchor."""

MAX_ANCHOR_HITS = 8
"""An n-gram found more often than this is not rare and does not vote."""

CANDIDATES = 4
"""How many of the heaviest anchor clusters are aligned; the best alignment wins."""

MIN_BLOCK = 8
"""A matching block this long may join the aligned span across a gap (see ``_joins``); shorter
ones at the edges are coincidences more often than not (a heading's letters meeting the book's)."""

GAP_TOLERANCE = 8
MAX_GAP = 64

MAX_PASSAGE = 20_000
"""Longest passage (letters and digits) looked up; the alignment's memory grows with its square, and
a retrieved passage is a chunk or two (a 60,000-letter passage took 35 s)."""

EDGE_SCAN = 40
"""How far into the span's first and last exact runs a word-structure mismatch is looked for."""

MIN_SCORE = 60.0
"""A passage whose best span scores below this (0-100) is reported as not found."""

_HASH_BASE = np.uint64(1_000_003)
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])|\n[ \t]*\n\s*")
_CONTEXT_CHARS = 400


def _char_map(ch: str) -> str:
    """The search-space form of one character: NFKC, case-folded, letters and digits only."""
    return "".join(c for c in unicodedata.normalize("NFKC", ch).casefold() if c.isalnum())


def normalise(text: str) -> tuple[str, np.ndarray]:
    """Map ``text`` into the search space.

    Args:
        text (str): any text (a whole book or a passage).

    Returns:
        tuple[str, np.ndarray]: the normalised string and an int64 array of the same length giving,
        for each of its characters, the offset in ``text`` it comes from (a ligature such as
        ``"ﬁ"`` yields two characters with the same offset).
    """
    if not text:
        return "", np.zeros(0, dtype=np.int64)
    codes = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    # NOTE: vectorised over the distinct code points (a few hundred per book), so a 1.5 MB book
    # normalises in well under a second without a per-character Python loop.
    uniq, inverse = np.unique(codes, return_inverse=True)
    mapped = [_char_map(chr(int(c))) for c in uniq]
    lengths = np.array([len(m) for m in mapped], dtype=np.int64)
    first = np.array([ord(m[0]) if m else 0 for m in mapped], dtype=np.uint32)
    counts = lengths[inverse]
    index = np.repeat(np.arange(len(codes), dtype=np.int64), counts)
    out = np.repeat(first[inverse], counts)
    long_codes = [i for i, m in enumerate(mapped) if len(m) > 1]
    if long_codes:
        ends = np.cumsum(counts)
        for pos in np.nonzero(np.isin(inverse, long_codes))[0]:
            m = mapped[inverse[pos]]
            start = ends[pos] - len(m)
            out[start : start + len(m)] = [ord(c) for c in m]
    return out.astype("<u4").tobytes().decode("utf-32-le"), index


def _ngram_hashes(norm: str, positions: np.ndarray) -> np.ndarray:
    """Polynomial hashes (mod 2**64) of the ``ANCHOR_LEN``-grams of ``norm`` starting at ``positions``."""
    codes = np.frombuffer(norm.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    h = np.zeros(len(positions), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for j in range(ANCHOR_LEN):
            h = h * _HASH_BASE + codes[positions + j]
    return h


@dataclass
class SearchSpace:
    """One book prepared for passage lookup; build once per book and reuse (callers cache it).

    Attributes:
        book (Book): the book.
        norm (str): the book's text in the search space.
        index (np.ndarray): ``index[i]`` = offset in ``book.text`` of ``norm[i]``.
        anchor_hashes (np.ndarray): sorted hashes of the n-grams at every ``ANCHOR_STEP``-th position.
        anchor_positions (np.ndarray): the ``norm`` position of each hash, same order.
        sentence_starts (np.ndarray): offsets in ``book.text`` where sentences start (0 included).
    """

    book: Book
    norm: str
    index: np.ndarray
    anchor_hashes: np.ndarray
    anchor_positions: np.ndarray
    sentence_starts: np.ndarray

    @classmethod
    def build(cls, book: Book) -> "SearchSpace":
        """Normalise ``book.text``, index its n-grams and find its sentence starts."""
        norm, index = normalise(book.text)
        positions = np.arange(0, max(len(norm) - ANCHOR_LEN + 1, 0), ANCHOR_STEP, dtype=np.int64)
        hashes = _ngram_hashes(norm, positions)
        order = np.argsort(hashes, kind="stable")
        starts = sentence_starts(book.text, [h.char_offset for h in book.headings])
        return cls(book, norm, index, hashes[order], positions[order], starts)


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
    """

    policy: str
    ids: list[str]
    orders: list[int]
    straddles: bool
    cut_before: str = ""
    cut_after: str = ""


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
        ``{"policy", "ids", "straddles"}``."""
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
        out["chunks"] = [{"policy": c.policy, "ids": c.ids, "straddles": c.straddles} for c in self.chunks]
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


def _exact(space: SearchSpace, p_norm: str) -> tuple[int, int, int] | None:
    """Every exact occurrence of the normalised passage in the normalised book (first one wins)."""
    # NOTE: this find runs in the normalised search space; the result maps back through
    # ``space.index``, so it is exact in ``book.text`` whatever whitespace or hyphens differ.
    first = space.norm.find(p_norm)
    if first < 0:
        return None
    count, pos = 1, space.norm.find(p_norm, first + 1)
    while pos >= 0:
        count += 1
        pos = space.norm.find(p_norm, pos + 1)
    return first, first + len(p_norm), count


def _anchor_and_align(space: SearchSpace, p_norm: str, p_index: np.ndarray):
    """Vote for a window with rare anchors, then align in it (steps 3-4 of the module docstring).

    Returns:
        tuple | None: ``(b_start, b_end, p_start, p_end, score, occurrences)`` in search-space
        positions, or None when no anchor is shared with the book.
    """
    m = len(p_norm)
    if m < ANCHOR_LEN or len(space.anchor_hashes) == 0:
        return None
    offsets = np.arange(m - ANCHOR_LEN + 1, dtype=np.int64)
    hashes = _ngram_hashes(p_norm, offsets)
    lo = np.searchsorted(space.anchor_hashes, hashes, side="left")
    hi = np.searchsorted(space.anchor_hashes, hashes, side="right")
    hits = hi - lo
    rare = (hits > 0) & (hits <= MAX_ANCHOR_HITS)
    if not rare.any():
        return None
    diagonals, weights = [], []
    for o, a, b in zip(offsets[rare], lo[rare], hi[rare]):
        d = space.anchor_positions[a:b] - o
        diagonals.append(d)
        weights.append(np.full(len(d), 1.0 / (b - a)))
    diag = np.concatenate(diagonals)
    weight = np.concatenate(weights)
    order = np.argsort(diag, kind="stable")
    diag, weight = diag[order], weight[order]
    # Cluster diagonals that differ by a little (insertions/deletions between passage and book).
    tolerance = 16 + m // 10
    breaks = np.nonzero(np.diff(diag) > tolerance)[0] + 1
    starts = np.concatenate(([0], breaks))
    ends = np.concatenate((breaks, [len(diag)]))
    totals = np.array([weight[s:e].sum() for s, e in zip(starts, ends)])
    # NOTE: rarity is counted among the sampled positions only, so a sentence the book repeats can
    # outvote the true place; the heaviest few clusters are all aligned and the best score wins.
    slack = 2 * ANCHOR_LEN
    results = []
    for c in np.argsort(-totals, kind="stable")[:CANDIDATES]:
        w_start = max(0, int(diag[starts[c]]) - slack)
        w_end = min(len(space.norm), int(diag[ends[c] - 1]) + m + slack)
        results.append(_align(p_norm, p_index, space.norm[w_start:w_end], w_start, space.index))
    best = max(results, key=lambda r: (r[4], -r[0]))
    occurrences = sum(r[4] >= best[4] - 1.0 for r in results)
    return best + (occurrences,)


def _align(
    p_norm: str, p_index: np.ndarray, window: str, w_start: int, index: np.ndarray
) -> tuple[int, int, int, int, float]:
    """Local alignment of the passage inside ``window`` via rapidfuzz's LCS opcodes.

    The longest matching block seeds a chain; neighbouring blocks join it while they stay on one
    path (``_joins``); the chain's ends then grow character by character while passage and book
    agree. Growth that stops on a mismatch (not at the passage's own edge) inside a word of the
    book or of the passage is taken back to the nearest word boundary of the *passage*: a prefixed
    heading ending in ``"…e"`` then does not claim the book's ``"e"``, while a passage cut mid-word
    after a heading keeps its cut word whole.

    Args:
        p_norm (str): the normalised passage.
        p_index (np.ndarray): the passage's search-space → text offset map.
        window (str): the part of the normalised book to align in.
        w_start (int): where ``window`` starts in the normalised book.
        index (np.ndarray): the book's search-space → text offset map (``SearchSpace.index``).

    Returns:
        tuple: ``(b_start, b_end, p_start, p_end, score)`` (book positions offset by ``w_start``).
    """
    blocks = [op for op in Indel.opcodes(p_norm, window) if op.tag == "equal"]
    if not blocks:
        return 0, 0, 0, 0, 0.0
    first = last = max(range(len(blocks)), key=lambda i: blocks[i].src_end - blocks[i].src_start)
    while first > 0 and _joins(blocks[first - 1], blocks[first], blocks[first - 1]):
        first -= 1
    while last < len(blocks) - 1 and _joins(blocks[last], blocks[last + 1], blocks[last + 1]):
        last += 1
    p_start, b_start = blocks[first].src_start, blocks[first].dest_start
    p_end, b_end = blocks[last].src_end, blocks[last].dest_end
    # NOTE: growing matters for repetitive text (code): an LCS is not unique and may pair the
    # passage's first words with an earlier copy of them a few characters back in the book.
    while p_start > 0 and b_start > 0 and p_norm[p_start - 1] == window[b_start - 1]:
        p_start, b_start = p_start - 1, b_start - 1
    if p_start > 0:
        if not (_boundary(index, w_start + b_start) and _boundary(p_index, p_start)):
            while b_start < b_end - 1 and not _boundary(p_index, p_start):
                p_start, b_start = p_start + 1, b_start + 1
        # A word start of the passage inside the first exact run where the book has none: the
        # letters before it are the prefix's (a heading "…Title" + "xp…" against the book's "exp…").
        run_end = min(blocks[first].src_end, p_start + EDGE_SCAN)
        for q in range(p_start + 1, run_end):
            if _boundary(p_index, q) and not _boundary(index, w_start + b_start + q - p_start):
                b_start, p_start = b_start + q - p_start, q
                break
    while p_end < len(p_norm) and b_end < len(window) and p_norm[p_end] == window[b_end]:
        p_end, b_end = p_end + 1, b_end + 1
    if p_end < len(p_norm):
        if not (_boundary(index, w_start + b_end) and _boundary(p_index, p_end)):
            while b_end > b_start + 1 and not _boundary(p_index, p_end):
                p_end, b_end = p_end - 1, b_end - 1
        run_start = max(blocks[last].src_start, p_end - EDGE_SCAN, p_start + 1)
        for q in range(p_end - 1, run_start, -1):
            if _boundary(p_index, q) and not _boundary(index, w_start + b_end - (p_end - q)):
                b_end, p_end = b_end - (p_end - q), q
                break
    score = 100.0 * Indel.normalized_similarity(p_norm, window[b_start:b_end])
    return w_start + b_start, w_start + b_end, p_start, p_end, score


def _boundary(index: np.ndarray, pos: int) -> bool:
    """Whether search-space position ``pos`` starts a word of the text ``index`` maps into
    (something was dropped between it and the previous position, or it is an end of the text)."""
    return pos <= 0 or pos >= len(index) or int(index[pos]) - int(index[pos - 1]) > 1


def _joins(left, right, added) -> bool:
    """Whether two neighbouring matching blocks lie on one alignment path: the block being
    ``added`` is long (``MIN_BLOCK``) and the passage and book gaps between them are about equal
    (a changed word or letter, not a jump to another place)."""
    src_gap = right.src_start - left.src_end
    dest_gap = right.dest_start - left.dest_end
    return (
        added.src_end - added.src_start >= MIN_BLOCK
        and abs(src_gap - dest_gap) <= GAP_TOLERANCE
        and max(src_gap, dest_gap) <= MAX_GAP
    )


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


def sentence_starts(text: str, breaks: Sequence[int] = ()) -> np.ndarray:
    """Offsets in ``text`` where sentences start, sorted and distinct.

    A sentence starts after ``.``, ``!`` or ``?`` (and closing quotes or brackets) followed by
    space and a capital or digit, after a blank line, at 0, and at every offset in ``breaks``
    (pass the headings' offsets: a heading line has no full stop but ends the sentence before it).
    """
    cuts = [m.end() for m in _SENTENCE_END.finditer(text)]
    extra = [b for b in breaks if 0 < b < len(text)]
    return np.unique(np.array([0, *cuts, *extra], dtype=np.int64))


def edge_context(space: SearchSpace, start: int, end: int) -> tuple[str, str]:
    """The sentence parts just outside ``[start, end)`` (at most ``_CONTEXT_CHARS`` each).

    Returns:
        tuple[str, str]: text from the start of the sentence holding ``start - 1`` up to ``start``
        (the head a boundary cut off, or the previous sentence), and text from ``end`` to the end
        of the sentence holding ``end``.
    """
    text, starts = space.book.text, space.sentence_starts
    before = ""
    if start > 0:
        s = int(starts[np.searchsorted(starts, start - 1, side="right") - 1])
        before = text[max(s, start - _CONTEXT_CHARS) : start]
    after = ""
    if end < len(text):
        j = np.searchsorted(starts, end, side="right")
        e = int(starts[j]) if j < len(starts) else len(text)
        after = text[end : min(e, end + _CONTEXT_CHARS)]
    return before.strip(), after.strip()


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
        policy=policy, ids=[c.id for c in chosen], orders=[c.order for c in chosen], straddles=straddles
    )
    if chosen:
        match.cut_before = edge_context(space, chosen[0].char_start, chosen[0].char_end)[0]
        match.cut_after = edge_context(space, chosen[-1].char_start, chosen[-1].char_end)[1]
    return match
