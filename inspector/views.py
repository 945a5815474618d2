"""App stage (views): the Streamlit blocks pages share — book summary and one chunk's detail.

Pages stay thin by calling these. Untrusted text (book content, file names, titles, warnings)
only reaches the screen through ``st.html`` after ``inspector.render`` escaped it, or through
``st.dataframe``/``st.code``, which show text as text; never through Markdown.
"""

from __future__ import annotations

import html

import streamlit as st

from chunking import rules
from chunking.models import Heading
from inspector import pdfview, render, safe, state, tables
from inspector.state import AppRun

END_REASON_TEXT = {
    "token_limit": "it reached the policy's max tokens",
    "page_limit": "it reached the policy's max pages",
    "target_pages": "it spanned the target pages and ended at a page break (keeping ≥ half of max tokens)",
    "fence": "the next chapter (or section, with fence = section) starts here",
    "book_end": "the book ends here",
    "sentence": "a token-limited window was snapped back to the last sentence end",
    "paragraph": "a token-limited window was snapped back to the last paragraph end",
}
"""Plain-language explanation of each end reason, shown in the chunk detail."""


def heading_label(h: Heading) -> str:
    """``"3 Objects, their modes and attributes (page 20)"``: how pickers name a heading."""
    return f"{h.number} {h.title}".strip() + f" (page {h.page})"


def chunk_picker(last: int) -> int:
    """◀ previous / next ▶ buttons and a number input bound to ``st.session_state["bnd_chunk"]``.

    Returns:
        int: the selected chunk's position (0…``last``).
    """

    def step(delta: int) -> None:
        st.session_state["bnd_chunk"] = min(max(st.session_state["bnd_chunk"] + delta, 0), last)

    st.session_state["bnd_chunk"] = min(st.session_state.get("bnd_chunk", 0), last)
    current = st.session_state["bnd_chunk"]
    left, mid, right = st.columns([1, 1, 4])
    left.button("◀ previous", key="bnd_prev", on_click=step, args=(-1,), disabled=current == 0)
    mid.button("next ▶", key="bnd_next", on_click=step, args=(1,), disabled=current == last)
    return right.number_input(
        "Chunk", 0, last, key="bnd_chunk", help="Order of the chunk to inspect (0 = first)."
    )


def clicked_chunk(event: object) -> int | None:
    """The ``order`` of the chunk bar a plotly selection event points at (None: no chunk bar).

    Chunk bars carry ``customdata = [order, …hover fields]``; the Chapters row carries only its
    hover text and the chapter bands none, so a click there selects nothing.
    """
    points = [p for p in (event.selection.points if event else []) if p.get("customdata")]
    order = points[0]["customdata"][0] if points else None
    return order if isinstance(order, int) else None


def chunk_page(title: str) -> AppRun:
    """Frame of a page that shows the current chunks: config, shared sidebar, cached run, heading.

    Stops the page with an info box when the book produced no chunks (it has no text).

    Args:
        title (str): the page's name, shown in the browser tab.

    Returns:
        AppRun: the current book chunked under the sidebar's policy.
    """
    st.set_page_config(page_title=f"{title} · Book Chunk Inspector", layout="wide")
    run = state.current_run(state.sidebar_policy())
    book_heading(run)
    if not run.chunks:
        st.info("This book produced no chunks (it has no text).")
        st.stop()
    return run


def book_heading(run: AppRun) -> None:
    """The book's title and file name (escaped: both come from the file)."""
    st.html(
        f"<h3 style='margin:0'>{html.escape(run.book.title)}</h3>"
        f"<div style='color:#666'>{html.escape(run.source.name)} · {run.book.format.upper()} · "
        f"book id {run.book.book_id}</div>"
    )


def summary(run: AppRun) -> None:
    """Metrics, detected structure and diagnostics of the current book under the current policy."""
    book_heading(run)
    cols = st.columns(5)
    cols[0].metric("Pages", len(run.book.pages))
    cols[1].metric(
        "Chapters",
        len(rules.chapter_headings(run.book)),
        help="Chapter-level units: chapters plus front matter, appendices and back matter.",
    )
    cols[2].metric("Tokens", run.tokenized.n_tokens)
    cols[3].metric("Chunks", len(run.chunks))
    cols[4].metric(
        "Chapter-crossing chunks",
        run.score["chapter_crossing_chunks"],
        help="Chunks holding text on both sides of a chapter start (0 for chapter-window).",
    )
    diag = run.book.diagnostics
    st.subheader("Detected structure")
    st.caption(
        f"Source used: {diag.structure_source}. Outline entries: {diag.outline_entries} "
        f"({diag.outline_entries_repaired} repaired, {diag.outline_entries_dropped} dropped)."
    )
    st.dataframe(tables.structure_table(run.book), hide_index=True, key="home_structure")
    st.subheader("Diagnostics")
    for warning in diag.warnings:
        st.html(
            f"<div style='background:#fff4e5;padding:0.4rem 0.7rem;border-radius:6px'>⚠️ "
            f"{html.escape(warning)}</div>"
        )
    facts = {k: v for k, v in diag.to_dict().items() if k != "warnings"}
    st.dataframe(
        {"fact": list(facts), "value": [str(v) for v in facts.values()]},
        hide_index=True,
        key="home_diagnostics",
    )


@st.cache_data(show_spinner="Rendering page…", max_entries=64)
def _page_png(sha256: str, page_number: int, page_text: str, spans: tuple, _pdf: bytes) -> bytes:
    return pdfview.page_image(_pdf, page_number, page_text, spans)


def chunk_detail(run: AppRun, i: int) -> None:
    """Everything about chunk ``i``: metadata, why it ended, its text with overlaps marked between
    what the boundary cut off, and (PDF) its pages with the chunk painted on them."""
    chunks, c = run.chunks, run.chunks[i]
    st.subheader(f"Chunk {c.order}")
    meta = {k: v for k, v in c.to_dict().items() if k != "text"}
    meta["heading_path"] = " › ".join(c.heading_path)
    left, right = st.columns([1, 2])
    left.dataframe(
        {"field": list(meta), "value": [str(v) for v in meta.values()]}, hide_index=True, key="bnd_meta"
    )
    left.html(
        f"<p><b>Why it ended:</b> {html.escape(END_REASON_TEXT.get(c.end_reason, c.end_reason))}.</p>"
        "<p><mark class='ov-prev' style='background:#ffe08a'>yellow</mark> = shared with the previous "
        "chunk, <mark style='background:#a6d8ff'>blue</mark> = shared with the next; grey = text "
        "just outside the chunk; ⟦ ⟧ = the chunk's edges.</p>"
    )
    with right:
        st.html(render.chunk_detail_html(run.book.text, chunks, i))
    if run.book.format == "pdf":
        st.caption("The chunk on its printed page(s): green = chunk text, orange = overlap with a neighbour.")
        overlaps = [(s + c.char_start, e + c.char_start) for s, e, _ in render.overlap_spans(chunks, i)]
        cols = st.columns(min(3, c.page_end - c.page_start + 1))
        for k, number in enumerate(range(c.page_start, c.page_end + 1)):
            page = run.book.pages[number - 1]
            spans = [
                (
                    max(c.char_start, page.char_start) - page.char_start,
                    min(c.char_end, page.char_end) - page.char_start,
                    "chunk",
                )
            ]
            spans += [
                (
                    max(s, page.char_start) - page.char_start,
                    min(e, page.char_end) - page.char_start,
                    "overlap",
                )
                for s, e in overlaps
                if s < page.char_end and page.char_start < e
            ]
            page_text = run.book.text[page.char_start : page.char_end]
            caption = f"page {number}" + (f" (p. {safe.md(page.label)})" if page.label else "")
            try:
                png = _page_png(run.source.sha256, number, page_text, tuple(spans), run.source.data)
            except pdfview.PageTooLargeError as exc:
                cols[k % len(cols)].info(f"{caption}: no image, {exc}.")
                continue
            cols[k % len(cols)].image(png, caption=caption)
