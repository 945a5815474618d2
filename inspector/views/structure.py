"""App stage (Structure page): the page's blocks, drawn in order by ``pages/7_Structure.py``.

``StructurePage`` holds what every block reads (the run, the book as read, the corrections so
far). Blocks: ``upload`` (a structure file), ``summary`` (counts), ``evidence`` (the ✓/✗/—
table and the heading picker; returns the selected heading), ``selected_heading`` (its line,
evidence and pages), ``rejected`` (the candidates, one acceptable as a chapter start),
``correct`` (add / remove / move / change tabs) and ``corrections`` (the list, undo, clear and
the ``<book>.structure.json`` download). Each correction is checked against the book as read
before it is kept, then the page re-chunks (``keep``). Widget keys start with ``st_``.

Book data reaches the screen only through ``st.dataframe``, ``st.code``/``st.text``, images, or
Markdown elements after ``inspector.safe.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import streamlit as st

from chunking import rules
from chunking.models import HEADING_KINDS, Book
from chunking.titles import MAX_TEXT_FIELD
from chunking.structure_file import (
    Correction,
    StructureFileError,
    apply_corrections,
    load_structure_file,
    page_lines,
    structure_bytes,
    too_big_to_read,
)
from inspector.data import state, structure
from inspector.data.state import AppRun
from inspector.safe import md
from inspector.views import heading_label, pdfview


@dataclass(frozen=True)
class StructurePage:
    """What the Structure page's blocks read.

    Attributes:
        run (AppRun): the current book chunked under the sidebar policy, corrections applied.
        raw (Book): the book as read, before corrections (what corrections are checked against).
        ops (tuple[Correction, ...]): the corrections applied so far.
    """

    run: AppRun
    raw: Book
    ops: tuple[Correction, ...]

    @property
    def book(self) -> Book:
        return self.run.book


def structure_page(run: AppRun) -> StructurePage:
    """The page's state for ``run``: the book as read under the run's structure source."""
    return StructurePage(run, state.current_book(run.policy), tuple(run.structure_ops))


def keep(page: StructurePage, new_op: Correction) -> None:
    """Append a correction if it applies to the book as read (else say why), then re-chunk."""
    try:
        apply_corrections(page.raw, [*page.ops, new_op], name=f"{page.run.source.name}.structure.json")
    except StructureFileError as exc:
        st.session_state["st_message"] = str(exc)
        st.rerun()
    state.set_corrections([*page.ops, new_op])
    st.session_state.pop("st_message", None)
    st.rerun()


def upload(page: StructurePage) -> None:
    """A structure file uploaded replaces the corrections (refused, with why, if it does not
    apply to this book); the last refusal stays shown until a correction is kept."""
    src = page.run.source
    file = st.file_uploader(
        "Upload a structure file",
        type=["json"],
        key="st_upload",
        help="A <book>.structure.json written by this page or by `chunking outline BOOK --write-structure F`.",
    )
    if file is not None and st.session_state.get("st_upload_seen") != file.file_id:
        st.session_state["st_upload_seen"] = file.file_id
        try:
            sf = load_structure_file(file.getvalue(), name=file.name, book_sha256=src.sha256)
            apply_corrections(page.raw, sf.corrections, name=file.name)
        except StructureFileError as exc:
            st.session_state["st_message"] = str(exc)
        else:
            state.set_corrections(sf.corrections)
            st.session_state.pop("st_message", None)
            st.rerun()
    if st.session_state.get("st_message"):
        st.error(md(st.session_state["st_message"]))  # NOTE: quotes file names and book lines


def summary(page: StructurePage) -> None:
    """Chapters, headings, chunks and corrections, as four metrics."""
    cols = st.columns(4)
    cols[0].metric("Chapters", len(rules.chapter_headings(page.book)))
    cols[1].metric("Headings", len(page.book.headings))
    cols[2].metric("Chunks", len(page.run.chunks))
    cols[3].metric("Corrections", len(page.ops))


def evidence(page: StructurePage) -> int | None:
    """The evidence table (optionally only its disagreements) and the heading picker; returns
    the index into ``book.headings`` of the selected heading (None for a book without any)."""
    book = page.book
    st.subheader("Evidence")
    st.caption(
        "✓ the signal supports the heading · ✗ the signal speaks in this book but not for this "
        "heading · — no say. disagree = signals disagree, low confidence, or named in the diagnostics."
    )
    table = structure.evidence_table(book)
    only = st.toggle("Only disagreements", key="st_only")
    shown = table[table["disagree"]] if only else table
    st.dataframe(shown, hide_index=True, key="st_table")
    choices = [int(i) for i in shown["heading"]] or [int(i) for i in table["heading"]]
    if not choices:
        choices = list(range(len(book.headings)))
    if st.session_state.get("st_heading") not in choices:
        st.session_state.pop("st_heading", None)
    if not choices:
        return None
    return st.selectbox(
        "Heading", choices, key="st_heading", format_func=lambda i: heading_label(book.headings[i])
    )


@st.cache_data(show_spinner="Rendering page…", max_entries=64)
def _png(sha256: str, number: int, page_text: str, spans: tuple, _pdf: bytes) -> bytes | str:
    """The page's PNG, or why it has none (kept too: a page the reader stopped is not drawn again)."""
    try:
        return pdfview.page_image(_pdf, number, page_text, spans)
    except pdfview.PageNotDrawnError as exc:
        return str(exc)


def show_page(page: StructurePage, col: Any, number: int, spans: tuple) -> None:
    """Page ``number`` in ``col``: the PDF page image (heading line painted) or its text."""
    book, src = page.book, page.run.source
    p = book.pages[number - 1]
    text = book.text[p.char_start : p.char_end]
    caption = f"page {number}" + (f" (p. {md(p.label)})" if p.label else "")
    if book.format == "pdf" and p.lost:
        col.info(f"{caption}: no image, {pdfview.LOST_PAGE}.")
    elif book.format == "pdf":
        png = _png(src.sha256, number, text, spans, src.data)
        if not isinstance(png, str):
            col.image(png, caption=caption)
            return
        col.info(f"{caption}: no image, {png}.")
    col.caption(caption)
    if spans:
        a = spans[0][0]
        text = text[:a] + "▶ " + text[a:]  # NOTE: st.code cannot colour a line; mark it
    col.code(text or "(empty page)", language=None, wrap_lines=True)


def selected_heading(page: StructurePage, selected: int | None) -> None:
    """The selected heading's line, its evidence, and its page between the previous and next."""
    if selected is None:
        return
    book = page.book
    h = book.headings[selected]
    a, b = structure.heading_line(book, h)
    st.text(f"Heading line (page {h.page}): {book.text[book.pages[h.page - 1].char_start :][a:b]}")
    with st.expander("Evidence of this heading"):
        st.dataframe(
            {"signal": [s for s, _ in h.evidence], "where": [w for _, w in h.evidence]},
            hide_index=True,
            key="st_evidence",
        )
    left, mid, right = st.columns(3)
    around = ((left, h.page - 1, ()), (mid, h.page, ((a, b, "chunk"),)), (right, h.page + 1, ()))
    for col, number, spans in around:
        if 1 <= number <= len(book.pages):
            show_page(page, col, number, spans)


def rejected(page: StructurePage) -> None:
    """The candidates the engine left out (``structure.candidates``), one acceptable as a chapter."""
    book = page.book
    st.subheader("Rejected candidates")
    found = structure.candidates(book)
    if not found:
        st.caption("The engine rejected no candidate in this book.")
        return
    st.dataframe(
        {"page": [c.page for c in found], "line": [c.text for c in found], "why": [c.why for c in found]},
        hide_index=True,
        key="st_rejected",
    )
    pick = st.selectbox(
        "Candidate", range(len(found)), key="st_candidate", format_func=lambda k: found[k].label()
    )
    cand = found[pick]
    hit = structure.find_line(book, cand.page, cand.text) if cand.page else None
    if st.button("Accept as a chapter start", key="st_accept", disabled=hit is None):
        assert cand.page is not None and hit is not None  # the button is disabled otherwise
        keep(page, structure.add_op(book, cand.page, hit[0], hit[1]))


def line_picker(book: Book, container: Any, prefix: str) -> tuple[int, int, str] | None:
    """Pick a page, then a line on it: (page, offset, line text), or None (a blank page)."""
    number = container.number_input("Page", 1, max(len(book.pages), 1), key=f"{prefix}_page")
    lines = page_lines(book, int(number))
    if not lines:
        container.caption("This page has no text.")
        return None
    k = container.selectbox(
        "Line", range(len(lines)), key=f"{prefix}_line", format_func=lambda j: lines[j][1][:100]
    )
    k = min(k or 0, len(lines) - 1)
    return int(number), lines[k][0], lines[k][1]


def correct(page: StructurePage, selected: int | None) -> None:
    """Add, Remove, Move and Change tabs, each keeping one correction (``keep``)."""
    book = page.book
    st.subheader("Correct the structure")
    add_tab, remove_tab, move_tab, change_tab = st.tabs(["Add", "Remove", "Move", "Change"])
    with add_tab:
        where = line_picker(book, add_tab, "st_add")
        c1, c2, c3 = st.columns(3)
        kind = c1.selectbox("Kind", HEADING_KINDS, index=HEADING_KINDS.index("chapter"), key="st_add_kind")
        level = c2.number_input("Level", 1, 9, structure.chapter_level(book), key="st_add_level")
        title = c3.text_input("Title (empty: the line)", key="st_add_title", max_chars=MAX_TEXT_FIELD)
        if st.button("Add heading here", key="st_add", disabled=where is None) and where is not None:
            keep(page, structure.add_op(book, where[0], where[1], where[2], kind, int(level), title))
    with remove_tab:
        if st.button("Remove the selected heading", key="st_remove", disabled=selected is None):
            assert selected is not None
            keep(page, structure.remove_op(book, selected))
    with move_tab:
        target = line_picker(book, move_tab, "st_move")
        disabled = selected is None or target is None
        if st.button("Move the selected heading here", key="st_move", disabled=disabled):
            assert selected is not None and target is not None
            keep(page, structure.move_op(book, selected, *target))
    with change_tab:
        if selected is not None:
            _change(page, selected)


def _change(page: StructurePage, selected: int) -> None:
    h = page.book.headings[selected]
    c1, c2, c3 = st.columns(3)
    new_kind = c1.selectbox(
        "Kind", HEADING_KINDS, index=HEADING_KINDS.index(h.kind), key=f"st_set_kind_{selected}"
    )
    new_level = c2.number_input("Level", 1, 9, min(max(h.level, 1), 9), key=f"st_set_level_{selected}")
    new_title = c3.text_input("Title", h.title, key=f"st_set_title_{selected}", max_chars=MAX_TEXT_FIELD)
    if st.button("Apply the change", key="st_set"):
        op = structure.set_op(page.book, selected, kind=new_kind, level=int(new_level), title=new_title)
        if op is not None:
            keep(page, op)


def corrections(page: StructurePage) -> None:
    """The corrections kept, Undo last / Clear, and the structure file download."""
    ops = list(page.ops)
    st.subheader("Corrections")
    if ops:
        st.dataframe(
            {"#": list(range(len(ops))), "correction": [structure.op_label(c) for c in ops]},
            hide_index=True,
            key="st_ops",
        )
    else:
        st.caption("No corrections yet: the structure is the engine's.")
    u1, u2, u3 = st.columns(3)
    if u1.button("Undo last", key="st_undo", disabled=not ops):
        state.set_corrections(ops[:-1])
        st.rerun()
    if u2.button("Clear", key="st_clear", disabled=not ops):
        state.set_corrections([])
        st.rerun()
    sf = state.structure_file_of(page.run.source, page.ops)
    data = structure_bytes(sf)
    refused = too_big_to_read(data)
    if refused:  # NOTE: never offer a file the CLI would refuse
        u3.warning(md(f"No download: {refused}."))
        return
    u3.download_button(
        "⬇ Structure file",
        data,
        file_name=sf.name,
        mime="application/json",
        key="st_download",
        help="Use it with `python -m chunking chunk BOOK --structure-file F`.",
    )
