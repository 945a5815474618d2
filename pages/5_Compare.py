"""Compare: two or three policies on the current book — scorecard with the better value marked,
boundary strips on one page axis, boundary diff against P1, and overlaid token-size histograms."""

import pandas as pd
import streamlit as st

from chunking.analysis.compare import boundary_diff, policy_label, scorecard_rows
from chunking.errors import PolicyError
from chunking.models import STRATEGIES
from chunking.policy import parse_policy
from inspector import flow, compare_view, state, views
from inspector.safe import md
from inspector.compare_figures import token_histograms

st.set_page_config(page_title="Compare · Book Chunk Inspector", layout="wide")
base = state.sidebar_policy()
st.title("Compare policies")
views.book_heading(state.current_run(base))  # the book is read here once, shared by every policy
count = st.radio(
    "Policies",
    (2, 3),
    index=1,
    horizontal=True,
    key="cmp_count",
    help="Each policy starts from the sidebar's policy; set its strategy and sizes here.",
)
policies, errors, slots = [], [], []
for i, col in enumerate(st.columns(count)):
    col.markdown(f"**P{i + 1}**")
    strategy = col.selectbox("Strategy", STRATEGIES, index=i, key=f"cmp_strategy_{i}")
    size = col.number_input("Max tokens", 1, 8192, base.max_tokens, step=16, key=f"cmp_max_tokens_{i}")
    overlap = col.number_input("Overlap tokens", 0, 8191, base.overlap_tokens, step=8, key=f"cmp_overlap_{i}")
    extra = col.text_input(
        "Other fields",
        key=f"cmp_extra_{i}",
        placeholder="snap=sentence,fence=section",
        help="key=value pairs of policy fields; unnamed fields keep the sidebar's.",
    )
    slots.append(col.empty())
    try:
        spec = f"strategy={strategy},max_tokens={size},overlap_tokens={overlap},{extra}"
        policies.append(parse_policy(spec, base))
    except PolicyError as exc:
        errors.append(f"P{i + 1}: {exc}")
for message in errors:
    st.error(message)
if errors:
    flow.stop()

labels = [f"P{i + 1}: {policy_label(p)}" for i, p in enumerate(policies)]
runs = compare_view.run_policies(policies, labels, slots)
st.subheader("Scorecard")
rows = scorecard_rows([r.score for r in runs], mark=" ★")
table = pd.DataFrame([cells for _, cells in rows], index=[key for key, _ in rows], columns=labels)
st.dataframe(table, key="cmp_scorecard", height="content")
st.caption(
    "★ = the better value of the row (rows without a better direction are unmarked). Pk, WindowDiff "
    "and boundary recall compare chunk starts with the detected chapter and section starts."
)
for label, run in zip(labels, runs):
    if not run.report.ok:
        st.warning(f"{label}: {md(run.report.message)}")

st.subheader("Boundaries on one page axis")
n_pages = max(len(runs[0].book.pages), 1)
lo, hi = st.slider("Pages", 1, n_pages, (1, n_pages), key="cmp_pages", help="Zoom to this page range.")
compare_view.show_strips(runs, labels, (lo, hi + 1))
sets = [(label, run.chunks) for label, run in zip(labels, runs)]

st.subheader("Boundary diff against P1")
half = max(1, policies[0].max_tokens // 2)
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
    if run.policy.encoding == policies[0].encoding
}
st.dataframe(pd.DataFrame.from_dict(diffs, orient="index"), key="cmp_diff", height="content")
st.caption("Boundaries are chunk starts in tokens; policies with another encoding than P1 are left out.")

st.subheader("Chunk sizes")
state.show_fig(token_histograms(sets), key="cmp_hist")

from inspector import diff_view  # noqa: E402  (issue 16's block, kept apart from the page's top)

diff_view.upsert_plan(runs, labels)
