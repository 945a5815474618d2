"""Compare: two or three policies on the current book — scorecard with the better value marked,
boundary strips on one page axis, boundary diff against P1, and overlaid token-size histograms."""

import streamlit as st

from chunking import rules
from chunking.analysis.compare import policy_label
from inspector import views
from inspector.data import state
from inspector.figures.compare import token_histograms
from inspector.views import compare, diff

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
policies, slots = compare.pick_policies(base, count)
labels = [f"P{i + 1}: {policy_label(p)}" for i, p in enumerate(policies)]
runs = compare.run_policies(policies, labels, slots)
compare.scorecard(runs, labels)

st.subheader("Boundaries on one page axis")
n_pages = max(len(runs[0].book.pages), 2)
views.chapter_jump(rules.fence_headings(runs[0].book), n_pages, key="cmp_chapter", range_key="cmp_pages")
lo, hi = views.page_zoom(n_pages, key="cmp_pages", label="Pages", help="Zoom to this page range.")
compare.show_strips(runs, labels, (lo, hi + 1))

compare.diff_table(runs, labels)

st.subheader("Chunk sizes")
state.show_fig(token_histograms([(label, run.chunks) for label, run in zip(labels, runs)]), key="cmp_hist")

diff.upsert_plan(runs, labels)
