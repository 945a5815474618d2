"""Overlap: which chunks share which tokens (chunk × chunk heatmap), how well the book is covered
(page × position map: 0 = lost, 1, 2+), and the overlap figures that sum it up."""

import streamlit as st

from inspector import figures, state, views

run = views.chunk_page("Overlap")

stats = figures.overlap_stats(run.score, run.chunks)
cols = st.columns(4)
cols[0].metric(
    "Tokens emitted ÷ book tokens",
    f"{stats.inflation:.3f}",
    help="Above 1 by the overlap; below 1 means text was lost.",
)
cols[1].metric("Overlap tokens inside chapters", stats.overlap_within_chapters)
cols[2].metric(
    "Overlap tokens across chapters",
    stats.overlap_across_chapters,
    help="Text carried from one chapter into a chunk of another; 0 for chapter-window.",
)
cols[3].metric("Uncovered tokens", stats.uncovered_tokens, help="Tokens in no chunk (usually whitespace).")

st.subheader("Shared tokens, chunk × chunk")
last = len(run.chunks) - 1
a, b = st.slider(
    "Chunks",
    0,
    max(last, 1),
    (0, max(last, 1)),
    key="ovl_range",
    help="Above 200 chunks the matrix is binned; narrow the range to see every chunk.",
)
state.show_fig(figures.overlap_heatmap(run.chunks[a : b + 1]), key="ovl_heatmap")
st.caption("Dotted lines: the chapter changes between those chunks.")

st.subheader("Coverage of the book")
state.show_fig(figures.coverage_figure(run.book, run.chunks), key="ovl_coverage")
st.caption(
    "Rows are physical pages, columns positions within the page; red = text in no chunk, "
    "light = one chunk, dark = two or more (overlap). Triangles mark chapter starts."
)
