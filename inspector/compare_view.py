"""App stage (Compare page): several policies run on the current book with a progress bar each,
and the boundary strips cached per book and policies.

Every policy goes through ``inspector.cache.current_run``: the book is read and tokenized once
(the same cache every page uses), each policy's chunks, scorecard and validation are cached per
(book, policy), so a policy that did not change is never recomputed and moving the page range
only re-draws the cached figure.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Any

import streamlit as st

from chunking.policy import Policy
from inspector import state
from inspector.cache import AppRun
from inspector.compare_figures import boundary_strips

_STEPS = ("tokenizing", "chunking", "scoring", "validating")
"""The steps of one policy, in order, as its progress bar names them."""


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
    policies; a new range only changes the x axis)."""
    sets = tuple((label, run.chunks) for label, run in zip(labels, runs))
    key = tuple((label, state.policy_items(run.policy)) for label, run in zip(labels, runs))
    fig = _strips(runs[0].source.sha256, key, runs[0].book, sets)
    with _FIGURE_LOCK:
        fig.update_xaxes(range=list(page_range))
        state.show_fig(fig, key="cmp_strips")
