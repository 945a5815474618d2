"""App stage (Compare page): the page's blocks — the policy columns (``pick_policies``), several
policies run on the current book with a progress bar each (``run_policies``), the scorecard
(``scorecard``), the boundary strips cached per book and policies (``show_strips``) and the
boundary diff against P1 (``diff_table``); ``pages/5_Compare.py`` draws them in order.

Every policy goes through ``inspector.data.cache.current_run``: the book is read and tokenized once
(the same cache every page uses), each policy's chunks, scorecard and validation are cached per
(book, policy), so a policy that did not change is never recomputed and moving the page range
only re-draws the cached figure.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Any

import pandas as pd
import streamlit as st

from chunking.analysis.compare import boundary_diff, policy_label, scorecard_rows
from chunking.errors import PolicyError
from chunking.models import STRATEGIES
from chunking.policy import Policy, parse_policy
from inspector.data import state
from inspector.data.cache import AppRun
from inspector.figures.compare import boundary_strips, zoom_strips
from inspector.safe import md

_STEPS = ("tokenizing", "chunking", "scoring", "validating")
"""The steps of one policy, in order, as its progress bar names them."""


def pick_policies(base: Policy, count: int) -> tuple[list[Policy], list[Any]]:
    """One column per policy (strategy, sizes, other ``key=value`` fields, each starting from
    ``base``, the sidebar's): the policies and one progress placeholder per column.

    An invalid policy never stops the page: its error (naming the field) is shown in its column,
    and that column keeps its last valid policy (the sidebar's with the column's strategy before
    any), so the page and the other columns stay as they were while the user fixes it.
    """
    policies, slots = [], []
    for i, col in enumerate(st.columns(count)):
        col.markdown(f"**P{i + 1}**")
        strategy = col.selectbox("Strategy", STRATEGIES, index=i, key=f"cmp_strategy_{i}")
        size = col.number_input("Max tokens", 1, 8192, base.max_tokens, step=16, key=f"cmp_max_tokens_{i}")
        overlap = col.number_input(
            "Overlap tokens", 0, 8191, base.overlap_tokens, step=8, key=f"cmp_overlap_{i}"
        )
        extra = col.text_input(
            "Other fields",
            key=f"cmp_extra_{i}",
            placeholder="snap=sentence,fence=section",
            help="key=value pairs of policy fields; unnamed fields keep the sidebar's.",
        )
        try:
            spec = f"strategy={strategy},max_tokens={size},overlap_tokens={overlap},{extra}"
            policy = parse_policy(spec, base)
            st.session_state[f"cmp_valid_{i}"] = policy
        except PolicyError as exc:
            kept = st.session_state.get(f"cmp_valid_{i}")
            policy = kept if isinstance(kept, Policy) else base.with_(strategy=strategy)
            col.error(f"P{i + 1}: {exc}")  # NOTE: policy values, no book data
            col.caption(f"P{i + 1} shows its last valid policy, {policy_label(policy)}, until this is fixed.")
        policies.append(policy)
        slots.append(col.empty())
    return policies, slots


def scorecard(runs: Sequence[AppRun], labels: Sequence[str]) -> None:
    """The scorecard, one column per policy (★ the better value), and a warning per invalid run."""
    st.subheader("Scorecard")
    rows = scorecard_rows([r.score for r in runs], mark=" ★")
    table = pd.DataFrame([cells for _, cells in rows], index=[key for key, _ in rows], columns=list(labels))
    st.dataframe(table, key="cmp_scorecard", height="content")
    st.caption(
        "★ = the better value of the row (rows without a better direction are unmarked). Pk, WindowDiff "
        "and boundary recall compare chunk starts with the detected chapter and section starts."
    )
    for label, run in zip(labels, runs):
        if not run.report.ok:
            st.warning(f"{label}: {md(run.report.message)}")


def diff_table(runs: Sequence[AppRun], labels: Sequence[str]) -> None:
    """Boundaries added, removed, moved and kept, per policy against P1 (same encoding only)."""
    st.subheader("Boundary diff against P1")
    half = max(1, runs[0].policy.max_tokens // 2)
    tolerance = st.number_input(
        "Counts as moved within (tokens)",
        1,
        100_000,
        half,
        key="cmp_tolerance",
        help="Further than this from its match: added/removed.",
    )
    diffs = {
        label: boundary_diff(runs[0].chunks, run.chunks, int(tolerance)).summary()
        for label, run in zip(labels[1:], runs[1:])
        if run.policy.encoding == runs[0].policy.encoding
    }
    st.dataframe(pd.DataFrame.from_dict(diffs, orient="index"), key="cmp_diff", height="content")
    st.caption("Boundaries are chunk starts in tokens; policies with another encoding than P1 are left out.")


def run_policies(policies: Sequence[Policy], labels: Sequence[str], slots: Sequence[Any]) -> list[AppRun]:
    """Run each policy on the current book, drawing its progress in ``slots[i]`` (an ``st.empty``).

    Each slot ends with one line: the policy's chunk count and the seconds it took (0.00 when
    everything came from the cache).

    Args:
        policies (Sequence[Policy]): the policies, in column order.
        labels (Sequence[str]): ``P1: …`` per policy.
        slots (Sequence[Any]): one placeholder per policy.

    Returns:
        list[AppRun]: one cached run per policy, scored and validated.
    """
    runs = []
    for policy, label, slot in zip(policies, labels, slots):
        t0 = time.perf_counter()

        def step(name: str, slot: Any = slot, label: str = label) -> None:
            done = _STEPS.index(name) / len(_STEPS)
            slot.progress(done, text=f"{label.split(':')[0]}: {name}…")

        run = state.current_run(policy, progress=step)
        step("scoring")
        run.score  # noqa: B018  (cached: computed once per book and policy)
        step("validating")
        run.report  # noqa: B018
        slot.caption(f"✓ {len(run.chunks)} chunks in {time.perf_counter() - t0:.2f} s")
        runs.append(run)
    return runs


_FIGURE_LOCK = threading.Lock()
"""The cached strips figure is shared by sessions; its x range is set and drawn under this lock."""


@st.cache_resource(show_spinner=False, max_entries=8)
def _strips(sha256: str, key: tuple, _book: Any, _sets: tuple) -> Any:
    return boundary_strips(_book, list(_sets))


def show_strips(runs: Sequence[AppRun], labels: Sequence[str], page_range: tuple[float, float]) -> None:
    """Draw the boundary strips of ``runs`` zoomed to ``page_range`` (built once per book and
    policies; a new range changes the x axis and the Parts and Chapters rows' labels and groups,
    ``zoom_strips``, never the strips)."""
    sets = tuple((label, run.chunks) for label, run in zip(labels, runs))
    key = tuple((label, run.key) for label, run in zip(labels, runs))
    fig = _strips(runs[0].source.sha256, key, runs[0].book, sets)
    with _FIGURE_LOCK:
        zoom_strips(fig, runs[0].book, page_range)
        state.show_fig(fig, key="cmp_strips")
