"""Comparison stage: run several policies on one book, score each, and diff their boundaries.

Contract:

* ``chunk_policies(source, policies)`` reads the book once per structure source and tokenizes it
  once per (structure, encoding), then chunks every policy, in order; ``run_policies`` also
  validates and scores each.
* ``score_run(policy, tokenized, chunks)`` does the same for chunks the caller already has (the
  app's cached runs).
* ``better_marks(scorecards)`` says, per scorecard row, which policies hold the better value.
* ``boundary_diff(base, other, tolerance)`` matches two chunk sets' boundaries (chunk starts, in
  tokens): unchanged, moved (by how many tokens), added and removed.

Nothing here prints or imports a UI; ``chunking.commands.compare`` and ``pages/5_Compare.py``
present the results.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from ..ingest import load_book
from ..models import Book, Chunk
from ..policy import Policy
from ..strategies import chunk_book
from ..tokens import TokenizedBook, tokenize
from ..validate import ValidationReport, validate_chunks
from .scorecard import SCORE_DIRECTIONS, scorecard


@dataclass(frozen=True)
class PolicyRun:
    """One policy's result on a book.

    Attributes:
        policy (Policy): the policy.
        tokenized (TokenizedBook): the tokenized book the chunks were cut from.
        chunks (list[Chunk]): the chunk set.
        scorecard (dict[str, Any]): ``chunking.analysis.scorecard.scorecard`` of the chunk set.
        report (ValidationReport): rules 1–7 checked on the chunk set.
    """

    policy: Policy
    tokenized: TokenizedBook
    chunks: list[Chunk]
    scorecard: dict[str, Any]
    report: ValidationReport


def score_run(policy: Policy, tokenized: TokenizedBook, chunks: list[Chunk]) -> PolicyRun:
    """Validate and score a chunk set the caller already has.

    Args:
        policy (Policy): the policy the chunks were cut with.
        tokenized (TokenizedBook): the tokenized book.
        chunks (list[Chunk]): the chunks.

    Returns:
        PolicyRun: the chunks with their scorecard and validation report.
    """
    return PolicyRun(
        policy,
        tokenized,
        chunks,
        scorecard(chunks, tokenized, policy),
        validate_chunks(chunks, tokenized, policy),
    )


def chunk_policies(
    source: str | os.PathLike | bytes,
    policies: Sequence[Policy],
    *,
    name: str | None = None,
    structure_file: Any = None,
) -> Iterator[tuple[Policy, TokenizedBook, list[Chunk]]]:
    """Chunk one book under several policies, sharing the costly reading and tokenizing.

    The book is read once per structure source and OCR settings (``Policy.read_key``) and
    tokenized once per (those, encoding); only chunking runs per policy.

    Args:
        source (str | os.PathLike | bytes): the book (path or bytes), as for ``load_book``.
        policies (Sequence[Policy]): the policies, in the order to yield them.
        name (str | None): the file name when ``source`` is bytes. Defaults to None.
        structure_file (StructureFile | None): corrections applied to the book as it is read
            (the corrected book salts the ids itself). Defaults to None.

    Yields:
        tuple[Policy, TokenizedBook, list[Chunk]]: each policy with its tokenized book and chunks.

    Raises:
        UnreadableInputError: the book cannot be read.
        ChunkLimitError: a policy needs more than its ``max_chunks`` chunks.
    """
    books: dict[str, Book] = {}
    tokenized: dict[tuple[str, str], TokenizedBook] = {}
    for policy in policies:
        read = policy.read_key()
        if read not in books:
            books[read] = load_book(source, name=name, structure_file=structure_file, **policy.read_options())
        key = (read, policy.encoding)
        if key not in tokenized:
            tokenized[key] = tokenize(books[read], policy.encoding)
        yield policy, tokenized[key], chunk_book(tokenized[key], policy)


def run_policies(
    source: str | os.PathLike | bytes,
    policies: Sequence[Policy],
    *,
    name: str | None = None,
    structure_file: Any = None,
) -> list[PolicyRun]:
    """Chunk, validate and score one book under several policies (see ``chunk_policies``).

    Returns:
        list[PolicyRun]: one run per policy, in order.
    """
    return [
        score_run(p, tb, chunks)
        for p, tb, chunks in chunk_policies(source, policies, name=name, structure_file=structure_file)
    ]


def policy_label(policy: Policy) -> str:
    """A short name for a policy: its strategy plus every field that differs from the default.

    Args:
        policy (Policy): the policy.

    Returns:
        str: e.g. ``"fixed-window max_tokens=256"``; just the strategy for a default policy.
    """
    default = Policy()
    changed = [
        f"{f.name}={getattr(policy, f.name)}"
        for f in fields(Policy)
        if f.name != "strategy" and getattr(policy, f.name) != getattr(default, f.name)
    ]
    return " ".join([policy.strategy, *changed])


def better_marks(scorecards: Sequence[dict[str, Any]]) -> dict[str, list[int]]:
    """Per scorecard key, the indices of the policies holding the better value.

    Args:
        scorecards (Sequence[dict[str, Any]]): one scorecard per policy.

    Returns:
        dict[str, list[int]]: every key of ``SCORE_DIRECTIONS``; an empty list when the key has
        no direction, when a value is missing (``None``) or when every policy ties.
    """
    marks: dict[str, list[int]] = {}
    for key, direction in SCORE_DIRECTIONS.items():
        values = [card.get(key) for card in scorecards]
        if direction is None or len(values) < 2 or any(v is None for v in values) or len(set(values)) == 1:
            marks[key] = []
            continue
        present = [v for v in values if v is not None]
        best = min(present) if direction == "lower" else max(present)
        marks[key] = [i for i, v in enumerate(values) if v == best]
    return marks


def scorecard_rows(scorecards: Sequence[dict[str, Any]], mark: str = "*") -> list[tuple[str, list[str]]]:
    """Scorecards as display rows: one per key, one cell per policy, ``mark`` after better values.

    Args:
        scorecards (Sequence[dict[str, Any]]): one scorecard per policy.
        mark (str): appended to the better value(s) of each row. Defaults to ``"*"``.

    Returns:
        list[tuple[str, list[str]]]: ``(key, cells)`` in ``SCORE_DIRECTIONS`` order; ``None`` shows
        as ``"-"`` and the page-span histogram as ``"1p:76 2p:108"``.
    """
    marks = better_marks(scorecards)
    return [
        (key, [_cell(card.get(key)) + (mark if i in marks[key] else "") for i, card in enumerate(scorecards)])
        for key in SCORE_DIRECTIONS
    ]


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, dict):
        return " ".join(f"{k}p:{v}" for k, v in value.items())
    return str(value)


@dataclass(frozen=True)
class BoundaryDiff:
    """How ``other``'s chunk boundaries differ from ``base``'s (positions are token indices).

    Attributes:
        unchanged (int): boundaries both sets have at the same token.
        moved (list[tuple[int, int, int]]): ``(base position, other position, other − base)``.
        added (list[int]): boundaries only ``other`` has.
        removed (list[int]): boundaries only ``base`` has.
    """

    unchanged: int
    moved: list[tuple[int, int, int]]
    added: list[int]
    removed: list[int]

    def summary(self) -> dict[str, Any]:
        """Counts, plus the mean and largest absolute move in tokens (0 when nothing moved)."""
        shifts = [abs(d) for _, _, d in self.moved]
        return {
            "unchanged": self.unchanged,
            "moved": len(self.moved),
            "added": len(self.added),
            "removed": len(self.removed),
            "mean_move_tokens": round(sum(shifts) / len(shifts), 1) if shifts else 0.0,
            "max_move_tokens": max(shifts, default=0),
        }


def boundaries(chunks: Sequence[Chunk]) -> list[int]:
    """A chunk set's boundaries: the distinct ``token_start`` values after the book's start."""
    return sorted({c.token_start for c in chunks if c.token_start > 0})


def boundary_diff(base: Sequence[Chunk], other: Sequence[Chunk], tolerance: int) -> BoundaryDiff:
    """Match the boundaries of two chunk sets of the same tokenized book.

    A base boundary and an other boundary are the same boundary (unchanged or moved) when each is
    the other's nearest and they are at most ``tolerance`` tokens apart; every other boundary was
    added or removed.

    Args:
        base (Sequence[Chunk]): the reference chunk set.
        other (Sequence[Chunk]): the chunk set to compare with it.
        tolerance (int): the largest move, in tokens, still counted as a move.

    Returns:
        BoundaryDiff: unchanged count, moves, additions and removals, in token order.
    """
    a = np.asarray(boundaries(base), dtype=np.int64)
    b = np.asarray(boundaries(other), dtype=np.int64)
    near_b = _nearest(a, b)
    near_a = _nearest(b, a)
    moved, paired_a, paired_b, unchanged = [], set(), set(), 0
    for i, j in enumerate(near_b):
        if j < 0 or near_a[j] != i or abs(int(b[j]) - int(a[i])) > tolerance:
            continue
        paired_a.add(i)
        paired_b.add(j)
        if a[i] == b[j]:
            unchanged += 1
        else:
            moved.append((int(a[i]), int(b[j]), int(b[j] - a[i])))
    return BoundaryDiff(
        unchanged,
        moved,
        [int(x) for j, x in enumerate(b) if j not in paired_b],
        [int(x) for i, x in enumerate(a) if i not in paired_a],
    )


def _nearest(points: np.ndarray, candidates: np.ndarray) -> np.ndarray:
    """Index of the nearest candidate for each point (the lower one on a tie; -1 if none)."""
    if candidates.size == 0:
        return np.full(points.size, -1, dtype=np.int64)
    right = np.clip(np.searchsorted(candidates, points), 0, candidates.size - 1)
    left = np.clip(right - 1, 0, candidates.size - 1)
    take_left = np.abs(points - candidates[left]) <= np.abs(candidates[right] - points)
    return np.where(take_left, left, right)


@dataclass(frozen=True)
class ChunkedRun:
    """One policy's chunks of a book, as the retrieval commands use them."""

    policy: Policy
    label: str
    tokenized: TokenizedBook
    chunks: list[Chunk]

    @property
    def book(self) -> Book:
        return self.tokenized.book


def chunked_runs(book: str, policies: Sequence[Policy], structure_file: Any = None) -> list[ChunkedRun]:
    """Read, tokenize and chunk ``book`` under each policy, sharing reading and tokenizing.

    Raises:
        UnreadableInputError: the book cannot be read.
        ChunkLimitError: a policy needs more than its ``max_chunks`` chunks.
    """
    runs = chunk_policies(book, list(policies), structure_file=structure_file)
    return [ChunkedRun(p, policy_label(p), tb, chunks) for p, tb, chunks in runs]
