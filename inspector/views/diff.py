"""App stage (Compare page): the upsert plan from P1's chunks to another policy's, and its download.

``upsert_plan(runs, labels)`` draws the block at the end of ``pages/5_Compare.py``: which chunk ids a
vector store keeps, adds and deletes (``chunking.analysis.diff``, the same plan as ``chunking diff
OLD NEW --json``), how many added chunks have a deleted one's exact text (copy its vector), the
boundaries that moved and by how many tokens, and the churn. Ids and numbers only: no book text
reaches Markdown.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pandas as pd
import streamlit as st

from chunking.analysis.diff import ChunkDiff, diff_chunks
from chunking.index.apply import reuse_counts
from chunking.index.store import text_key
from chunking.models import Chunk
from inspector.data.cache import AppRun

SUMMARY_NAMES = {
    "old_chunks": "P1 chunks",
    "new_chunks": "target chunks",
    "keep": "keep (ids in both)",
    "add": "add",
    "delete": "delete",
    "same_text": "added with a deleted chunk's exact text",
    "boundaries_kept": "boundaries kept",
    "boundaries_moved": "boundaries moved",
    "max_move_tokens": "largest move (tokens)",
    "churn": "churn (share of ids changed)",
}
"""Display names of the plan's summary, in display order."""


def plan_record(plan: ChunkDiff, run_old: AppRun, run_new: AppRun, labels: tuple[str, str]) -> dict[str, Any]:
    """The downloadable plan: ``diff --json``'s record plus the book and the two policies."""
    return {
        "book": {"sha256": run_old.book.sha256, "source_name": run_old.book.source_name},
        "old": {"label": labels[0], "profile": run_old.policy.profile()},
        "new": {"label": labels[1], "profile": run_new.policy.profile()},
        **plan.to_dict(),
    }


def summary_table(plan: ChunkDiff, index_costs: tuple[int, int] | None = None) -> pd.DataFrame:
    """The plan's counts, one row each (display names), then what ``chunking index`` would do
    (``index_costs``: texts to embed, added chunks whose vector is reused)."""
    s = plan.summary()
    names, values = list(SUMMARY_NAMES.values()), [str(s[key]) for key in SUMMARY_NAMES]
    if index_costs is not None:
        names += ["index: embed", "index: reuse (re-keyed)"]
        values += [str(index_costs[0]), str(index_costs[1])]
    return pd.DataFrame({"": names, "value": values})


def index_costs(plan: ChunkDiff, old: Sequence[Chunk], new: Sequence[Chunk]) -> tuple[int, int]:
    """What ``chunking index`` would embed and reuse going from a store of ``old`` to ``new``."""
    known = {text_key(c.text) for c in old}
    return reuse_counts(known, new, [c.text for c in new], set(plan.add))


def moves_table(plan: ChunkDiff) -> pd.DataFrame:
    """The moved boundaries: old start, nearest new start and the signed distance in tokens."""
    return pd.DataFrame(
        {
            "old start (token)": [m.old_token for m in plan.moved],
            "nearest new start": [m.new_token for m in plan.moved],
            "moved by (tokens)": [m.delta for m in plan.moved],
        }
    )


def upsert_plan(runs: Sequence[AppRun], labels: Sequence[str]) -> None:
    """The upsert plan block: P1 → the chosen policy, tables and the plan as a JSON download."""
    st.subheader("Upsert plan: P1 → another policy", anchor=False)
    if len(runs) < 2:
        return
    target = st.selectbox(
        "Target", range(1, len(runs)), format_func=lambda i: labels[i], key="cmp_upsert_target"
    )
    old, new = runs[0], runs[target]
    plan = diff_chunks(old.chunks, new.chunks)
    left, right = st.columns([1, 2])
    left.dataframe(
        summary_table(plan, index_costs(plan, old.chunks, new.chunks)),
        hide_index=True,
        key="cmp_upsert_summary",
    )
    right.dataframe(moves_table(plan), hide_index=True, key="cmp_upsert_moves", height=300)
    st.caption(
        "Ids are content-addressed and include the policy, so another policy changes every id: "
        "'keep' is non-zero only for identical chunks of one policy; 'added with a deleted chunk's "
        "exact text' are vectors you can copy instead of re-embedding; 'index: embed / reuse' is what "
        "'chunking index' would do on a store built from P1 (vectors are cached by text)."
    )
    record = plan_record(plan, old, new, (labels[0], labels[target]))
    st.download_button(
        "Download the upsert plan (JSON)",
        json.dumps(record, indent=1).encode("utf-8"),
        file_name=f"{(old.book.source_name or 'book').rsplit('.', 1)[0]}.upsert-plan.json",
        mime="application/json",
        key="cmp_upsert_download",
    )
