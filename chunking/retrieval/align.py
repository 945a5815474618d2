"""Passage lookup, part 2: find where a normalised passage sits in a ``SearchSpace``.

An exact hit of the whole normalised passage is taken as is. Otherwise the passage anchors on the
book's rare n-grams (votes for diagonals ``book_pos - passage_pos``), the heaviest clusters each
give a window, and rapidfuzz's LCS alignment inside each window is trimmed and grown to word
boundaries; the best-scoring window wins (see ``chunking.retrieval.locate`` for the whole method).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from rapidfuzz.distance import Indel

from .space import ANCHOR_LEN, SearchSpace, _ngram_hashes

MAX_ANCHOR_HITS = 8
"""An n-gram found more often than this is not rare and does not vote."""

CANDIDATES = 4
"""How many of the heaviest anchor clusters are aligned; the best alignment wins."""

MIN_BLOCK = 8
"""A matching block this long may join the aligned span across a gap (see ``_joins``); shorter
ones at the edges are coincidences more often than not (a heading's letters meeting the book's)."""

GAP_TOLERANCE = 8
MAX_GAP = 64


EDGE_SCAN = 40
"""How far into the span's first and last exact runs a word-structure mismatch is looked for."""


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
    blocks = [
        _Block(op.src_start, op.src_end, op.dest_start, op.dest_end)
        for op in Indel.opcodes(p_norm, window)
        if op.tag == "equal"
    ]
    if not blocks:
        return 0, 0, 0, 0, 0.0
    first = last = max(range(len(blocks)), key=lambda i: blocks[i].src_end - blocks[i].src_start)
    while first > 0:
        blocks[first - 1] = _beside(blocks[first - 1], blocks[first], p_norm, window, left=True)
        if not _joins(blocks[first - 1], blocks[first], blocks[first - 1]):
            break
        first -= 1
    while last < len(blocks) - 1:
        blocks[last + 1] = _beside(blocks[last + 1], blocks[last], p_norm, window, left=False)
        if not _joins(blocks[last], blocks[last + 1], blocks[last + 1]):
            break
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


class _Block(NamedTuple):
    """A run of equal characters: passage ``[src_start, src_end)`` = window ``[dest_start, dest_end)``."""

    src_start: int
    src_end: int
    dest_start: int
    dest_end: int


def _beside(block: _Block, chain: _Block, p_norm: str, window: str, left: bool) -> _Block:
    """``block`` moved next to ``chain`` in the book when the passage between them reads the same
    there (left: ``block`` then ``chain``; else ``chain`` then ``block``).

    An LCS is not unique in repetitive text (``M_1 + M_2 + M_1:M_2``): it may pair a block with an
    earlier copy of its letters across a gap the passage does not have; the copy that continues
    the chain without a gap is the passage's own text.
    """
    if left:
        start = chain.dest_start - (chain.src_start - block.src_start)
        if start >= 0 and window[start : chain.dest_start] == p_norm[block.src_start : chain.src_start]:
            return _Block(block.src_start, block.src_end, start, start + block.src_end - block.src_start)
        return block
    end = chain.dest_end + (block.src_end - chain.src_end)
    if end <= len(window) and window[chain.dest_end : end] == p_norm[chain.src_end : block.src_end]:
        return _Block(block.src_start, block.src_end, end - (block.src_end - block.src_start), end)
    return block


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
