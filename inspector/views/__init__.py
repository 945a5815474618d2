"""App stage (views): the Streamlit blocks pages share — the current-book header, book summary,
paged tables and one chunk's detail. The submodules hold one page's blocks each (``home``,
``compare``, ``diff``, ``retrieval``, ``structure``) and the display helpers (``render``,
``pdfview``, ``chart_warmup``).

Pages stay thin by calling these. Untrusted text (book content, file names, titles, warnings)
only reaches the screen through ``st.html`` after ``html.escape``/``inspector.views.render`` escaped it,
through Markdown after ``inspector.safe.md``, or through ``st.dataframe``/``st.code``, which show
text as text.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable
from typing import Any

import pandas as pd
import streamlit as st

from chunking import rules
from chunking.models import Book, Chunk, Heading
from chunking.readers.text import PAGE_CHARS
from inspector import flow, safe
from inspector.data import state, tables
from inspector.views import pdfview, render
from inspector.data.state import AppRun

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

TABLE_ROWS = 25
"""Rows per page of a long table: the table is as tall as its rows, so no empty scroll box."""


def heading_label(h: Heading) -> str:
    """``"3 Objects, their modes and attributes (page 20)"``: how pickers name a heading."""
    return f"{h.number} {h.title}".strip() + f" (page {h.page})"


def page_zoom(n_pages: int, *, key: str, label: str, help: str) -> tuple[int, int]:
    """The "zoom to pages" slider of a page axis, its value kept in session state only.

    NOTE: never also given as the widget's value= (Streamlit warns when a keyed widget gets both):
    set here for a new book, or when it no longer fits the book (another book was loaded).
    """
    zoom = st.session_state.get(key)
    if not zoom or not (1 <= zoom[0] <= zoom[1] <= n_pages):
        st.session_state[key] = (1, n_pages)
    chosen: tuple[int, int] = st.slider(label, 1, n_pages, key=key, help=help)  # type: ignore[assignment]
    return chosen[0], chosen[1]


def chapter_jump(
    fences: list[Heading],
    n_pages: int,
    *,
    key: str,
    range_key: str,
    then: Callable[[Heading], None] | None = None,
    help: str = "",
) -> None:
    """ "Jump to a chapter start": a box of the book's chapters and parts that zooms the page axis
    whose slider is ``range_key`` to two pages either side of the chosen start (Boundaries and
    Compare share it), then calls ``then(heading)`` for the page's own follow-up."""
    if not fences:
        return

    def jump() -> None:
        k = st.session_state.get(key)
        if k is None or not 0 <= k < len(fences):
            return  # the box was emptied (or names a chapter of another book): nothing to jump to
        h = fences[k]
        st.session_state[range_key] = (max(1, h.page - 2), min(n_pages, h.page + 2))
        if then is not None:
            then(h)

    st.selectbox(
        "Jump to a chapter start",
        range(len(fences)),
        index=None,
        key=key,
        on_change=jump,
        format_func=lambda k: heading_label(fences[k]),
        help=help or "Zoom to the chapter's first page.",
    )


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


def clicked_chunk(event: Any) -> int | None:
    """The ``order`` of the chunk bar a plotly selection event points at (None: no chunk bar).

    Chunk bars carry ``customdata = [order, …hover fields]``; the Chapters row carries only its
    hover text and the chapter bands none, so a click there selects nothing.
    """
    points = [p for p in (event.selection.points if event else []) if p.get("customdata")]
    order = points[0]["customdata"][0] if points else None
    return order if isinstance(order, int) else None


def chunk_page(title: str) -> AppRun:
    """Frame of a page that shows the current chunks: config, shared sidebar, cached run, header.

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
        flow.stop()
    if title == "Boundaries":
        follow_chapter_jump(run)
    return run


def follow_chapter_jump(run: AppRun) -> None:
    """After "Jump to a chapter start", a new policy opens the first chunk that crosses that
    start (else the first chunk at it), so the detail follows the table instead of keeping a chunk
    of the old chunk set (the README walkthrough, step 5)."""
    fences = rules.fence_headings(run.book)
    k = st.session_state.get("bnd_chapter")
    if k is None or not 0 <= k < len(fences):
        return
    seen = st.session_state.get("bnd_followed")
    st.session_state["bnd_followed"] = now = (run.source.sha256, run.key, k)
    if seen is None or seen[2] != k or seen == now:
        return  # the jump itself chose the chunk (or nothing changed)
    around = tables.chunks_at(run.chunks, fences[k].char_offset)
    if len(around):
        crossing = around[around["where"] == "crosses"]
        st.session_state["bnd_chunk"] = int((crossing if len(crossing) else around)["order"].iloc[0])


def page_note(book: Book) -> str:
    """What one "page" of ``book`` is: physical PDF pages, EPUB print pages, or synthetic pages."""
    n = len(book.pages)
    synthetic = sum(p.synthetic for p in book.pages)
    if book.format == "pdf":
        return f"{n} pages (the PDF's physical pages)"
    if synthetic == n:
        return (
            f"{n} pages, synthetic: the file has no printed pages, so the reader cut its text into "
            f"pages of about {PAGE_CHARS:,} characters at paragraph ends"
        )
    if synthetic == 0:
        return f"{n} pages (the EPUB's print-page markers)"
    return (
        f"{n} pages: {n - synthetic} from the EPUB's print-page markers, {synthetic} synthetic "
        f"(about {PAGE_CHARS:,} characters each)"
    )


def book_heading(run: AppRun) -> None:
    """The current-book header every page shows: title, file name (sample or upload), format, pages
    and what a page is, and the structure source (all escaped: they come from the file)."""
    book, src = run.book, run.source
    diag = book.diagnostics
    structure = f"structure: {diag.structure_source}"
    if run.policy.structure != diag.structure_source:
        structure += f" (policy: {run.policy.structure})"
    if run.structure_ops:
        structure += f", {len(run.structure_ops)} correction(s) applied"
    facts = [
        f"{src.name} ({'bundled sample' if src.is_sample else 'uploaded'})",
        book.format.upper(),
        page_note(book),
        structure,
        f"book id {book.book_id}",
    ]
    st.html(
        "<div class='current-book' style='border-left:4px solid #4c78a8;padding:0.2rem 0.8rem'>"
        "<div style='color:#666;font-size:0.8rem'>Current book</div>"
        f"<h3 style='margin:0'>{html.escape(book.title)}</h3>"
        f"<div class='current-book-facts' style='color:#444'>{html.escape(' · '.join(facts))}</div></div>"
    )
    if run.policy.exclude_matter:
        st.caption(f"Export and the Chunks table {run.excluded.message()} (the sidebar's Exclude matter).")


def paged_table(frame: pd.DataFrame, *, key: str, rows: int = TABLE_ROWS, **kwargs: Any) -> pd.DataFrame:
    """Show ``frame`` as tall as its rows, ``rows`` at a time with a page box when it is longer.

    Args:
        frame (pd.DataFrame): the table.
        key (str): the dataframe's widget key; the page box is ``<key>_page``.
        rows (int): rows per page. Defaults to ``TABLE_ROWS``.
        **kwargs: passed to ``st.dataframe`` (``column_config``, ``on_select``, …).

    Returns:
        pd.DataFrame: the rows shown.
    """
    pages = max(1, math.ceil(len(frame) / rows))
    page = 1
    if pages > 1:
        left, right = st.columns([1, 3], vertical_alignment="bottom")
        page = int(left.number_input(f"Table page (1–{pages})", 1, pages, key=f"{key}_page"))
        right.caption(f"Rows {(page - 1) * rows + 1}–{min(page * rows, len(frame))} of {len(frame)}.")
    shown = tables.page_rows(frame, page, rows)
    st.dataframe(shown, hide_index=True, key=key, height="content", **kwargs)
    return shown


def summary(run: AppRun) -> None:
    """Header, metrics, detected structure and diagnostics of the current book under the policy."""
    book_heading(run)
    cols = st.columns(5)
    cols[0].metric("Pages", len(run.book.pages), help=page_note(run.book))
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
    paged_table(tables.structure_table(run.book), key="home_structure")
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
        height="content",
    )


@st.cache_data(show_spinner="Rendering page…", max_entries=64)
def _page_png(sha256: str, page_number: int, page_text: str, spans: tuple, _pdf: bytes) -> bytes | str:
    """The page's PNG, or why it has none (kept too: a page the reader stopped is not drawn again)."""
    try:
        return pdfview.page_image(_pdf, page_number, page_text, spans)
    except pdfview.PageNotDrawnError as exc:
        return str(exc)


def ocr_note_html(book: Book, c: Chunk) -> str:
    """For a chunk whose text came from OCR: which of its pages were read by OCR, with their mean
    word confidence (``""`` otherwise)."""
    if not c.ocr:
        return ""
    confidence = {p["page"]: p["mean_confidence"] for p in book.diagnostics.ocr_pages}
    pages = [n for n in range(c.page_start, c.page_end + 1) if book.pages[n - 1].ocr]
    named = ", ".join(f"p. {n} (mean word confidence {confidence.get(n, 0):g})" for n in pages)
    return f"<p class='ocr-note'><b>Text from OCR:</b> {html.escape(named)}; check it against the page.</p>"


def chunk_detail(run: AppRun, i: int) -> None:
    """Everything about chunk ``i``: metadata, why it ended, its text with overlaps marked between
    what the boundary cut off, and (PDF) its pages with the chunk painted on them."""
    chunks, c = run.chunks, run.chunks[i]
    st.subheader(f"Chunk {c.order}")
    meta = {k: v for k, v in c.to_dict().items() if k != "text"}
    meta["heading_path"] = " › ".join(c.heading_path)
    left, right = st.columns([1, 2])
    left.dataframe(
        {"field": list(meta), "value": [str(v) for v in meta.values()]},
        hide_index=True,
        key="bnd_meta",
        height="content",
        column_config={"value": st.column_config.TextColumn("value", width="large")},
    )
    left.caption("Full chunk id (copy button on the right):")
    left.code(c.id, language=None)
    left.html(
        f"<p><b>Why it ended:</b> {html.escape(END_REASON_TEXT.get(c.end_reason, c.end_reason))}.</p>"
        + ocr_note_html(run.book, c)
        + f"<p>{render.OVERLAP_LEGEND_HTML}</p>"
    )
    with right:
        st.html(render.chunk_detail_html(run.book.text, chunks, i))
    if run.book.format == "pdf":
        st.caption(f"The chunk on its printed page(s): {render.PAGE_IMAGE_LEGEND}.")
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
            if page.lost:
                cols[k % len(cols)].info(f"{caption}: no image, {pdfview.LOST_PAGE}.")
                continue
            png = _page_png(run.source.sha256, number, page_text, tuple(spans), run.source.data)
            if isinstance(png, str):
                cols[k % len(cols)].info(f"{caption}: no image, {png}.")
                continue
            cols[k % len(cols)].image(png, caption=caption)
