"""Boundaries: the whole book on one page axis — chapters as bands, chunks as bars — and the
detail of one selected chunk (click a bar, type its number, or step with prev/next)."""

import streamlit as st

from inspector import figures, state, tables, views

st.set_page_config(page_title="Boundaries · Book Chunk Inspector", layout="wide")
policy = state.sidebar_policy()
run = state.current_run(policy)
views.book_heading(run)
if not run.chunks:
    st.info("This book produced no chunks (it has no text).")
    st.stop()
last = len(run.chunks) - 1
n_pages = len(run.book.pages)
st.session_state.setdefault("bnd_chunk", 0)
st.session_state["bnd_chunk"] = min(st.session_state["bnd_chunk"], last)


def _step(delta: int) -> None:
    st.session_state["bnd_chunk"] = min(max(st.session_state["bnd_chunk"] + delta, 0), last)


fences = figures.fence_headings(run.book)


def _jump() -> None:
    h = fences[st.session_state["bnd_chapter"]]
    st.session_state["bnd_range"] = (max(1, h.page - 2), min(max(n_pages, 2), h.page + 2))
    around = tables.chunks_at(run.chunks, h.char_offset)
    if len(around):
        st.session_state["bnd_chunk"] = int(around["order"].iloc[0])


if fences:
    st.selectbox("Jump to a chapter start", range(len(fences)), index=None, key="bnd_chapter", on_change=_jump,
                 format_func=lambda k: f"{fences[k].number} {fences[k].title} (page {fences[k].page})".strip(),
                 help="Zoom to the chapter's first page and list the chunks around its start.")
lo, hi = st.slider("Zoom to pages", 1, max(n_pages, 2), (1, max(n_pages, 2)), key="bnd_range",
                   help="Show only this page range of the book.")
fig = figures.boundaries_figure(run.book, run.chunks, page_range=(lo, hi + 1),
                                selected=st.session_state["bnd_chunk"])
event = state.show_fig(fig, key="bnd_fig", select=True)
points = [p for p in (event.selection.points if event else []) if p.get("customdata")]
clicked = int(points[0]["customdata"][0]) if points and isinstance(points[0]["customdata"][0], int) else None
if clicked is not None and clicked != st.session_state.get("bnd_clicked"):
    st.session_state["bnd_clicked"] = st.session_state["bnd_chunk"] = clicked
    st.rerun()  # redraw the figure with the clicked chunk outlined

if st.session_state.get("bnd_chapter") is not None:
    st.caption("Chunks at this chapter start (carried_over = text repeated from the previous chunk):")
    st.dataframe(tables.chunks_at(run.chunks, fences[st.session_state["bnd_chapter"]].char_offset), hide_index=True)
left, mid, right = st.columns([1, 1, 4])
left.button("◀ previous", key="bnd_prev", on_click=_step, args=(-1,), disabled=st.session_state["bnd_chunk"] == 0)
mid.button("next ▶", key="bnd_next", on_click=_step, args=(1,), disabled=st.session_state["bnd_chunk"] == last)
right.number_input("Chunk", 0, last, key="bnd_chunk", help="Order of the chunk to inspect (0 = first).")
views.chunk_detail(run, st.session_state["bnd_chunk"])
