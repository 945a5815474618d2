"""Scoring stage: judge one chunk set against its own book, with no LLM and no embeddings.

Contract: ``scorecard(chunks, tokenized, policy) -> dict`` is a pure function of a chunk set, the
tokenized book it was cut from and the policy's ``max_tokens``. Every value is JSON-safe (numbers,
``None`` or a ``dict[str, int]``) and deterministic. ``SCORE_DIRECTIONS`` says, per key, whether a
lower or a higher value is better (``None``: neither — the row is information, not a verdict).

Definitions (token positions are 0-based indices in the canonical token stream):

* **Chapter boundary**: the ``char_offset`` of a part or chapter-level heading (kinds ``part``,
  ``chapter``, ``front``, ``back``, ``appendix``). A chunk *crosses* it when it holds
  non-whitespace text on both sides of it.
* **Cross-chapter overlap**: the tokens two neighbouring chunks share, counted when their union
  crosses a chapter boundary — the overlap then carries text from one chapter into a chunk of
  another. A chapter-fenced strategy always scores 0.
* **Mid-sentence end**: a chunk ends cleanly at the end of the book, at a sentence end or a
  paragraph end (``chunking.rules.ends_sentence`` / ``ends_paragraph``, the ends ``snap`` cuts at:
  ``. ! ? …`` and closing quotes then whitespace, CJK ``。！？`` with or without it, a blank line,
  a line ending in ``. ! ? :``), or right before a heading; any other end is mid-sentence.
* **Pk and WindowDiff** (Beeferman et al. 1999; Pevzner & Hearst 2002) over the token stream.
  Reference boundaries are the token positions of every detected heading (parts, chapters,
  sections); hypothesised boundaries are the chunks' ``token_start`` values. Overlap is handled
  by that choice: each chunk's start is a hypothesised boundary and its end is not (the next
  chunk's start is), so overlapping windows are scored as one segmentation whose boundaries are
  the window starts. ``k`` is half the mean reference segment length, as is standard. Both are
  ``None`` for a book with no detected structure (there is nothing to agree with). Lower is
  better; 0 is perfect agreement. Caveat: chunks are usually much finer than sections, and when
  every probe window of ``k`` tokens holds a chunk start, Pk only measures the reference and is
  the same for every policy (it happens on ``chez-csug.pdf``, whose sections average ~1,700
  tokens); ``boundary_recall`` does not saturate.
* **Boundary recall**: the share of detected heading starts (after the book's start) at which a
  chunk starts, allowing only whitespace between the two. Higher is better; ``None`` without
  structure.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, Any

import numpy as np

from ..models import Book, Chunk
from ..policy import Policy
from ..rules import crosses_fence, ends_paragraph, ends_sentence, fence_offsets

if TYPE_CHECKING:  # NOTE: only for annotations; the scorecard reads .book/.n_tokens/.token_at_char
    from ..tokens import TokenizedBook

SCORE_DIRECTIONS: dict[str, str | None] = {
    "chunks": None,
    "tokens_min": "higher",
    "tokens_p5": "higher",
    "tokens_p50": None,
    "tokens_p95": None,
    "tokens_max": None,
    "tokens_cv": "lower",
    "small_share": "lower",
    "chapter_crossing_chunks": "lower",
    "cross_chapter_overlap_tokens": "lower",
    "inflation": "lower",
    "uncovered_tokens": "lower",
    "page_span_histogram": None,
    "mid_sentence_share": "lower",
    "pk": "lower",
    "windowdiff": "lower",
    "boundary_recall": "higher",
}
"""Every scorecard key, in display order, with the direction in which it improves."""


def scorecard(chunks: Sequence[Chunk], tokenized: TokenizedBook, policy: Policy) -> dict[str, Any]:
    """Score a chunk set on its book.

    Args:
        chunks (Sequence[Chunk]): the chunk set, in order.
        tokenized (TokenizedBook): the tokenized book the chunks were cut from (its ``book``,
            ``n_tokens`` and ``token_at_char`` are used).
        policy (Policy): the policy; only ``max_tokens`` is read (the small-chunk threshold is a
            quarter of it).

    Returns:
        dict[str, Any]: one value per key of ``SCORE_DIRECTIONS``, in that order.
    """
    book = tokenized.book
    n_tokens = int(tokenized.n_tokens)
    sizes = np.array([c.token_count for c in chunks], dtype=np.int64)
    fences = fence_offsets(book, "chapter")
    out: dict[str, Any] = {"chunks": len(chunks)}
    out.update(_size_stats(sizes, policy.max_tokens))
    out["chapter_crossing_chunks"] = sum(
        crosses_fence(book.text, c.char_start, c.char_end, fences) for c in chunks
    )
    out["cross_chapter_overlap_tokens"] = _cross_chapter_overlap(chunks, book.text, fences)
    out["inflation"] = round(float(sizes.sum()) / n_tokens, 4) if n_tokens else 0.0
    out["uncovered_tokens"] = uncovered_tokens(chunks, n_tokens)
    spans = Counter(c.page_end - c.page_start + 1 for c in chunks)
    out["page_span_histogram"] = {str(span): spans[span] for span in sorted(spans)}
    heading_starts = frozenset(h.char_offset for h in book.headings)
    out["mid_sentence_share"] = _share(
        sum(not _ends_cleanly(book.text, c.char_end, heading_starts) for c in chunks), len(chunks)
    )
    if book.headings:
        reference = [tokenized.token_at_char(h.char_offset) for h in book.headings]
        hypothesis = [c.token_start for c in chunks]
        k = pk_window(reference, n_tokens)
        out["pk"] = round(pk(reference, hypothesis, n_tokens, k), 4)
        out["windowdiff"] = round(windowdiff(reference, hypothesis, n_tokens, k), 4)
        out["boundary_recall"] = _boundary_recall(book.text, tokenized.char_starts, reference, hypothesis)
    else:
        out["pk"] = out["windowdiff"] = out["boundary_recall"] = None
    return out


def _size_stats(sizes: np.ndarray, max_tokens: int) -> dict[str, Any]:
    """Token-size distribution: min/p5/median/p95/max, coefficient of variation, small share."""
    if sizes.size == 0:
        return {
            "tokens_min": 0,
            "tokens_p5": 0.0,
            "tokens_p50": 0.0,
            "tokens_p95": 0.0,
            "tokens_max": 0,
            "tokens_cv": 0.0,
            "small_share": 0.0,
        }
    p5, p50, p95 = np.percentile(sizes, [5, 50, 95])
    mean = float(sizes.mean())
    return {
        "tokens_min": int(sizes.min()),
        "tokens_p5": round(float(p5), 2),
        "tokens_p50": round(float(p50), 2),
        "tokens_p95": round(float(p95), 2),
        "tokens_max": int(sizes.max()),
        # NOTE: population standard deviation: the chunk set is the whole population, not a sample.
        "tokens_cv": round(float(sizes.std()) / mean, 4) if mean else 0.0,
        "small_share": _share(int((sizes < max_tokens / 4).sum()), int(sizes.size)),
    }


def _share(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def _cross_chapter_overlap(chunks: Sequence[Chunk], text: str, fences: Sequence[int]) -> int:
    """Tokens shared by neighbours whose union crosses a chapter boundary."""
    total = 0
    for prev, cur in pairwise(chunks):
        shared = min(prev.token_end, cur.token_end) - cur.token_start
        if shared > 0 and crosses_fence(
            text, min(prev.char_start, cur.char_start), max(prev.char_end, cur.char_end), fences
        ):
            total += shared
    return total


def uncovered_tokens(chunks: Sequence[Chunk], n_tokens: int) -> int:
    """How many tokens of ``[0, n_tokens)`` no chunk contains.

    Args:
        chunks (Sequence[Chunk]): chunks in any order; overlaps are counted once.
        n_tokens (int): length of the canonical token stream.

    Returns:
        int: ``n_tokens`` minus the size of the union of the chunks' token ranges.
    """
    covered, reach = 0, 0
    for start, end in sorted((c.token_start, c.token_end) for c in chunks):
        start = max(start, reach)
        if end > start:
            covered += end - start
            reach = end
    return n_tokens - covered


def ends_cleanly(book: Book, end: int) -> bool:
    """Whether a chunk ending at character ``end`` ends at a sentence, paragraph or heading.

    Args:
        book (Book): the book (its ``text`` and ``headings``).
        end (int): the chunk's exclusive ``char_end``.

    Returns:
        bool: True at the end of the book, at a sentence or paragraph end
        (``chunking.rules.ends_sentence`` / ``ends_paragraph``) or right before a heading.
    """
    return _ends_cleanly(book.text, end, frozenset(h.char_offset for h in book.headings))


def _ends_cleanly(text: str, end: int, heading_starts: frozenset[int]) -> bool:
    after = text[end : end + 400]
    rest = after.lstrip()
    if not rest and end + 400 >= len(text):
        return True
    if ends_sentence(text, end) or ends_paragraph(text, end):
        return True
    next_char = end + len(after) - len(rest)
    return next_char in heading_starts


def _boundary_recall(
    text: str, char_starts: Sequence[int] | np.ndarray, reference: Sequence[int], hypothesis: Sequence[int]
) -> float | None:
    """Share of reference boundaries met by a chunk start with only whitespace between them."""
    refs = sorted({r for r in reference if 0 < r < len(char_starts) - 1})
    if not refs:
        return None
    starts = sorted(set(hypothesis))
    met = 0
    for r in refs:
        i = bisect.bisect_left(starts, r)
        near = [
            s for s in (starts[i - 1] if i else None, starts[i] if i < len(starts) else None) if s is not None
        ]
        met += any(not text[int(char_starts[min(s, r)]) : int(char_starts[max(s, r)])].strip() for s in near)
    return round(met / len(refs), 4)


def pk_window(reference: Sequence[int], n_units: int) -> int:
    """Half the mean reference segment length (at least 1): the usual ``k`` of Pk/WindowDiff."""
    segments = len({b for b in reference if 0 < b < n_units}) + 1
    return max(1, round(n_units / (2 * segments)))


def _boundary_counts(boundaries: Sequence[int], n_units: int, k: int) -> np.ndarray:
    """For each probe ``i`` in ``[0, n_units - k)``: boundaries ``b`` with ``i < b <= i + k``."""
    marks = np.zeros(n_units + 1, dtype=np.int64)
    inside = np.unique(np.asarray([b for b in boundaries if 0 < b < n_units], dtype=np.int64))
    marks[inside] = 1
    cum = np.cumsum(marks)
    i = np.arange(n_units - k)
    return cum[i + k] - cum[i]


def pk(reference: Sequence[int], hypothesis: Sequence[int], n_units: int, k: int) -> float:
    """Pk: the share of probes ``(i, i + k)`` on whose sameness of segment the two disagree.

    Args:
        reference (Sequence[int]): positions where reference segments start (0 and ``n_units``
            and anything outside are ignored; duplicates count once).
        hypothesis (Sequence[int]): positions where hypothesised segments start.
        n_units (int): length of the sequence.
        k (int): probe distance (see ``pk_window``).

    Returns:
        float: in ``[0, 1]``; 0 when the sequence is shorter than ``k + 1``.
    """
    if n_units <= k:
        return 0.0
    ref = _boundary_counts(reference, n_units, k) == 0
    hyp = _boundary_counts(hypothesis, n_units, k) == 0
    return float(np.mean(ref != hyp))


def windowdiff(reference: Sequence[int], hypothesis: Sequence[int], n_units: int, k: int) -> float:
    """WindowDiff: the share of windows ``(i, i + k]`` holding a different number of boundaries.

    Args:
        reference (Sequence[int]): positions where reference segments start.
        hypothesis (Sequence[int]): positions where hypothesised segments start.
        n_units (int): length of the sequence.
        k (int): window size (see ``pk_window``).

    Returns:
        float: in ``[0, 1]``; 0 when the sequence is shorter than ``k + 1``.
    """
    if n_units <= k:
        return 0.0
    ref = _boundary_counts(reference, n_units, k)
    hyp = _boundary_counts(hypothesis, n_units, k)
    return float(np.mean(ref != hyp))
