"""Overlap: where the text shared by neighbouring chunks goes and whether it crosses chapters
(tokens per boundary along the book; the matrix near its diagonal for a range of chunks), and how
well the book is covered (text lost / in one chunk / overlapped, page by page)."""

import streamlit as st

from inspector import figures, views
from inspector.data import state

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

st.subheader("Overlap at each boundary")
state.show_fig(figures.overlap_per_boundary_figure(run.book, run.chunks), key="ovl_boundaries")
st.caption(
    "One mark per boundary between two neighbouring chunks, at the page where the later one starts: "
    "the tokens both hold. Orange: inside one chapter; purple diamonds: the pair spans a chapter "
    "boundary, so one chapter's text is carried into another's chunk; grey ticks at 0: no overlap."
)

st.subheader("Shared tokens near the diagonal")
last = len(run.chunks) - 1
window = figures.MAX_BAND_CHUNKS
# NOTE: the range lives only in session state (a keyed widget given value= too makes Streamlit warn).
chosen = st.session_state.get("ovl_range")
if not chosen or not (0 <= chosen[0] <= chosen[1] <= max(last, 1)):
    st.session_state["ovl_range"] = (0, min(max(last, 1), window // 2 - 1))
a, b = st.slider(
    "Chunks",
    0,
    max(last, 1),
    key="ovl_range",
    help=f"A range of chunks to show (at most {window} at once).",
)
if b - a + 1 > window:
    b = a + window - 1
    st.caption(f"Showing chunks {a}–{b}: at most {window} at once.")
state.show_fig(figures.banded_overlap_figure(run.book, run.chunks[a : b + 1]), key="ovl_band")
st.caption(
    f"Cell = tokens two chunks share, for chunks up to {figures.BAND} apart (farther chunks never "
    "share text); × = the pair spans a chapter boundary; ◇ on the diagonal and dotted lines = the "
    "chunk where a chapter starts (its title in the hover)."
)

st.subheader("Coverage of the book")
state.show_fig(figures.coverage_figure(run.book, run.chunks), key="ovl_coverage")
st.caption(
    "Rows are pages (grouped on a long book: a row shows lost text if any of its pages "
    "loses text there, else a shade from pale blue to orange by the share of its pages that overlap there), "
    "columns the position within the page. Triangles mark chapter starts; their titles are on the "
    "right where they fit, and in the hover."
)
