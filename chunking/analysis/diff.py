"""Upsert plan: what a vector store must do to go from one chunk set of a book to another.

Contract: ``diff_chunks(old, new)`` compares two chunk lists of the *same book* by id (ids are
content-addressed, ``chunking.ids``: an unchanged chunk under an unchanged policy keeps its id):

* ``keep``: ids in both (their vectors stay); ``add``: ids only in ``new`` (embed and insert);
  ``delete``: ids only in ``old`` (remove). Each list is in chunk order.
* ``same_text``: pairs ``(old id, new id)`` of a deleted and an added chunk with the same character
  span: the id changed (another policy) but the text did not, so its vector can be copied.
* ``moved``: the boundaries (chunk start offsets in the canonical token stream, the cut points)
  that exist in ``old`` and not in ``new``, each paired with the nearest ``new`` boundary and the
  signed distance in tokens (``new - old``; on a tie the earlier new boundary). ``boundaries_kept``
  counts the starts both share.
* ``churn``: the share of distinct ids that changed, ``(add + delete) / (keep + add + delete)``:
  0 for identical sets, 1 when nothing is kept.

``read_run(path)`` reads a chunk file and its manifest (``chunking.export.find_manifest``:
``<name>.manifest.json``, or the legacy ``<stem>.manifest.json``); ``diff_runs`` refuses two runs of different books
(their ``book.sha256`` differ) with a ``UsageError``.
"""

from __future__ import annotations

import bisect
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import UnreadableInputError, UsageError
from ..export import find_manifest, read_chunks
from ..inputs import MAX_MANIFEST_BYTES, load_json
from ..models import Chunk


@dataclass(frozen=True)
class Move:
    """A boundary of the old set that the new set does not have.

    Attributes:
        old_token (int): the old chunk start (token offset).
        new_token (int): the nearest new chunk start.
        delta (int): ``new_token - old_token`` (negative: the cut moved earlier).
    """

    old_token: int
    new_token: int
    delta: int


@dataclass
class ChunkDiff:
    """The upsert plan between two chunk sets of one book (see the module docstring)."""

    keep: list[str] = field(default_factory=list)
    add: list[str] = field(default_factory=list)
    delete: list[str] = field(default_factory=list)
    same_text: list[tuple[str, str]] = field(default_factory=list)
    moved: list[Move] = field(default_factory=list)
    boundaries_kept: int = 0
    old_count: int = 0
    new_count: int = 0

    @property
    def churn(self) -> float:
        """Share of distinct ids that changed (0 identical, 1 nothing kept; 0 for two empty sets)."""
        total = len(self.keep) + len(self.add) + len(self.delete)
        return (len(self.add) + len(self.delete)) / total if total else 0.0

    def summary(self) -> dict[str, Any]:
        """Counts only: what a one-screen report shows."""
        deltas = [abs(m.delta) for m in self.moved]
        return {
            "old_chunks": self.old_count,
            "new_chunks": self.new_count,
            "keep": len(self.keep),
            "add": len(self.add),
            "delete": len(self.delete),
            "same_text": len(self.same_text),
            "boundaries_kept": self.boundaries_kept,
            "boundaries_moved": len(self.moved),
            "max_move_tokens": max(deltas, default=0),
            "churn": round(self.churn, 4),
        }

    def to_dict(self) -> dict[str, Any]:
        """The ``diff --json`` record and the app's downloadable plan."""
        return {
            "summary": self.summary(),
            "keep": self.keep,
            "add": self.add,
            "delete": self.delete,
            "same_text": [{"old": a, "new": b} for a, b in self.same_text],
            "moved": [
                {"old_token": m.old_token, "new_token": m.new_token, "delta": m.delta} for m in self.moved
            ],
        }


def diff_chunks(old: Sequence[Chunk], new: Sequence[Chunk]) -> ChunkDiff:
    """The upsert plan from ``old`` to ``new`` (two chunk lists of one book)."""
    old_ids = {c.id for c in old}
    new_ids = {c.id for c in new}
    plan = ChunkDiff(old_count=len(old), new_count=len(new))
    plan.keep = [c.id for c in new if c.id in old_ids]
    plan.add = [c.id for c in new if c.id not in old_ids]
    plan.delete = [c.id for c in old if c.id not in new_ids]
    added_by_span = {(c.char_start, c.char_end): c.id for c in new if c.id not in old_ids}
    plan.same_text = [
        (c.id, added_by_span[(c.char_start, c.char_end)])
        for c in old
        if c.id not in new_ids and (c.char_start, c.char_end) in added_by_span
    ]
    new_starts = sorted({c.token_start for c in new})
    old_starts = sorted({c.token_start for c in old})
    shared = set(new_starts)
    plan.boundaries_kept = sum(s in shared for s in old_starts)
    if new_starts:
        for s in old_starts:
            if s not in shared:
                nearest = _nearest(new_starts, s)
                plan.moved.append(Move(s, nearest, nearest - s))
    return plan


def _nearest(sorted_values: Sequence[int], x: int) -> int:
    """The value of ``sorted_values`` nearest ``x`` (the smaller one on a tie)."""
    i = bisect.bisect_left(sorted_values, x)
    candidates = sorted_values[max(i - 1, 0) : i + 1]
    return min(candidates, key=lambda v: (abs(v - x), v))


@dataclass(frozen=True)
class Run:
    """A chunk file and its manifest."""

    path: Path
    chunks: list[Chunk]
    manifest: dict[str, Any]

    @property
    def book_sha256(self) -> str:
        book = self.manifest.get("book")
        return str(book.get("sha256") or "") if isinstance(book, dict) else ""


def read_run(path: str | Path) -> Run:
    """Read ``path``'s chunks and its manifest.

    Raises:
        UnreadableInputError: the chunk file or its manifest is missing or malformed.
    """
    chunks, _ = read_chunks(path)
    mpath = find_manifest(path)
    if not os.path.lexists(mpath):
        raise UnreadableInputError(f"{mpath}: no manifest next to {Path(path).name}")
    manifest = load_json(mpath, MAX_MANIFEST_BYTES, str(mpath), "manifest")
    if not isinstance(manifest, dict) or not isinstance(manifest.get("book"), dict):
        raise UnreadableInputError(f"{mpath}: manifest lacks 'book'")
    run = Run(Path(path), chunks, manifest)
    if not run.book_sha256:
        raise UnreadableInputError(f"{mpath}: manifest lacks book.sha256")
    return run


def diff_runs(old: Run, new: Run) -> ChunkDiff:
    """``diff_chunks`` of two runs of one book.

    Raises:
        UsageError: the manifests name different books (their sha256 differ).
    """
    if old.book_sha256 != new.book_sha256:
        raise UsageError(
            f"{old.path.name} and {new.path.name} are chunks of different books "
            f"(sha256 {old.book_sha256[:12]}… vs {new.book_sha256[:12]}…); diff compares runs of one book"
        )
    return diff_chunks(old.chunks, new.chunks)
