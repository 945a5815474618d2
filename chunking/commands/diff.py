"""``python -m chunking diff OLD.jsonl NEW.jsonl [--json]``: the upsert plan between two runs.

Each chunk file needs its manifest beside it (``<name>.manifest.json``, or the legacy ``<stem>.manifest.json``). Prints the counts (keep,
add, delete, same text under a new id, boundaries kept and moved, churn) and the moved boundaries,
or with ``--json`` ``{"summary", "keep", "add", "delete", "same_text", "moved"}``
(``chunking.analysis.diff``). Exit 0; 2 when the two runs are of different books; 3 when a file or
manifest cannot be read.
"""

from __future__ import annotations

import json as jsonlib

from ..analysis.diff import ChunkDiff, diff_runs, read_run

MAX_MOVES_PRINTED = 20
"""The text report lists at most this many moved boundaries (``--json`` lists all)."""


def run(*, old: str, new: str, json: bool) -> int:
    """Print the upsert plan from ``old`` to ``new``.

    Raises:
        UsageError: the runs are of different books.
        UnreadableInputError: a chunk file or manifest is missing or malformed.
    """
    plan = diff_runs(read_run(old), read_run(new))
    print(jsonlib.dumps(plan.to_dict(), indent=1) if json else format_plan(plan))
    return 0


def format_plan(plan: ChunkDiff) -> str:
    """Plain-text report: the counts, then the first moved boundaries."""
    s = plan.summary()
    lines = [
        f"old: {s['old_chunks']} chunks, new: {s['new_chunks']} chunks",
        f"keep {s['keep']}, add {s['add']}, delete {s['delete']} "
        f"({s['same_text']} of the added have a deleted chunk's exact text: copy its vector)",
        f"boundaries: {s['boundaries_kept']} kept, {s['boundaries_moved']} moved "
        f"(at most {s['max_move_tokens']} tokens)",
        f"churn: {s['churn']:.1%} of the ids changed",
    ]
    for m in plan.moved[:MAX_MOVES_PRINTED]:
        lines.append(f"  moved: token {m.old_token} -> {m.new_token} ({m.delta:+d})")
    if len(plan.moved) > MAX_MOVES_PRINTED:
        lines.append(f"  … and {len(plan.moved) - MAX_MOVES_PRINTED} more (see --json)")
    return "\n".join(lines)
