"""Boundaries: the whole book on one page axis — parts and chapters as bands, chunks as bars — and
the detail of one selected chunk (click a bar, type its number, or step with prev/next)."""

import streamlit as st

from chunking import rules
from chunking.models import Heading
from inspector import figures, views
from inspector.data import state, tables

run = views.chunk_page("Boundaries")
n_pages = max(len(run.book.pages), 2)
fences = rules.fence_headings(run.book)


def _open_chunk_at(h: Heading) -> None:
    """After a jump: open the first chunk at the chapter's start."""
    around = tables.chunks_at(run.chunks, h.char_offset)
    if len(around):
        st.session_state["bnd_chunk"] = int(around["order"].iloc[0])


views.chapter_jump(
    fences,
    n_pages,
    key="bnd_chapter",
    range_key="bnd_range",
    then=_open_chunk_at,
    help="Zoom to the chapter's first page and list the chunks around its start.",
)
lo, hi = views.page_zoom(
    n_pages, key="bnd_range", label="Zoom to pages", help="Show only this page range of the book."
)
fig = figures.boundaries_figure(
    run.book, run.chunks, page_range=(lo, hi + 1), selected=st.session_state.get("bnd_chunk", 0)
)
clicked = views.clicked_chunk(state.show_fig(fig, key="bnd_fig", select=True))
if clicked is not None and clicked != st.session_state.get("bnd_clicked"):
    st.session_state["bnd_clicked"] = st.session_state["bnd_chunk"] = clicked
    st.rerun()  # redraw the figure with the clicked chunk outlined
st.caption(
    "Top rows: the book's parts (when it has them) and chapters; a label shows where it fits, "
    "every title is in the hover. Lanes: the chunks, coloured by why they ended."
    + (
        " Drag the window in the strip under the axis to move along the whole book."
        if n_pages > figures.MINIMAP_MIN_PAGES
        else ""
    )
)

if st.session_state.get("bnd_chapter") is not None:
    st.caption("Chunks at this chapter start (carried_over = text repeated from the previous chunk):")
    start = fences[st.session_state["bnd_chapter"]].char_offset
    st.dataframe(tables.chunks_at(run.chunks, start), hide_index=True)
views.chunk_detail(run, views.chunk_picker(len(run.chunks) - 1))
