"""Structure: why each chapter was found (evidence per signal), the page it starts on, the
candidates the engine rejected, and corrections (add, remove, move, change) that re-chunk at once
and download as the ``<book>.structure.json`` the CLI reads with ``--structure-file``.

Book data reaches the screen only through ``st.dataframe``, ``st.code``/``st.text``, images, or
Markdown elements after ``inspector.safe.md``.
"""

import json

import streamlit as st

from chunking import rules
from chunking.models import HEADING_KINDS
from chunking.structure_file import (
    MAX_STRUCTURE_FILE_BYTES,
    StructureFileError,
    apply_corrections,
    page_lines,
    parse_structure,
)
from inspector import pdfview, state, structure_view, views
from inspector.safe import md

st.set_page_config(page_title="Structure · Book Chunk Inspector", layout="wide")
policy = state.sidebar_policy()
run = state.current_run(policy)
src, book = run.source, run.book
raw = state.current_book(policy.structure)
ops = list(run.structure_ops)
views.book_heading(run)


def keep(new_op) -> None:  # noqa: ANN001
    """Append a correction if it applies to the book as read (else say why), then re-chunk."""
    try:
        apply_corrections(raw, [*ops, new_op], name=f"{src.name}.structure.json")
    except StructureFileError as exc:
        st.session_state["st_message"] = str(exc)
        st.rerun()
    state.set_corrections([*ops, new_op])
    st.session_state.pop("st_message", None)
    st.rerun()


# --------------------------------------------------------------- upload a structure file
upload = st.file_uploader(
    "Upload a structure file",
    type=["json"],
    key="st_upload",
    help="A <book>.structure.json written by this page or by `chunking outline BOOK --write-structure F`.",
)
if upload is not None and st.session_state.get("st_upload_seen") != upload.file_id:
    st.session_state["st_upload_seen"] = upload.file_id
    data = upload.getvalue()
    try:
        if len(data) > MAX_STRUCTURE_FILE_BYTES:
            raise StructureFileError(
                f"{upload.name}: larger than the {MAX_STRUCTURE_FILE_BYTES >> 20} MiB limit"
            )
        try:
            obj = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise StructureFileError(f"{upload.name}: not valid JSON ({type(exc).__name__})") from None
        sf = parse_structure(obj, upload.name)
        if sf.book_sha256 != src.sha256:
            raise StructureFileError(
                f"{upload.name}: written for another book (book_sha256 "
                f"{sf.book_sha256[:16]}…, this book {src.sha256[:16]}…); refused"
            )
        apply_corrections(raw, sf.corrections, name=upload.name)
    except StructureFileError as exc:
        st.session_state["st_message"] = str(exc)
    else:
        state.set_corrections(sf.corrections)
        st.session_state.pop("st_message", None)
        st.rerun()
if st.session_state.get("st_message"):
    st.error(md(st.session_state["st_message"]))  # NOTE: quotes file names and book lines

# ------------------------------------------------------------------------- summary
cols = st.columns(4)
cols[0].metric("Chapters", len(rules.chapter_headings(book)))
cols[1].metric("Headings", len(book.headings))
cols[2].metric("Chunks", len(run.chunks))
cols[3].metric("Corrections", len(ops))

# ------------------------------------------------------------------------- evidence table
st.subheader("Evidence")
st.caption(
    "✓ the signal supports the heading · ✗ the signal speaks in this book but not for this "
    "heading "
    "· — no say. disagree = signals disagree, low confidence, or named in the diagnostics."
)
table = structure_view.evidence_table(book)
only = st.toggle("Only disagreements", key="st_only")
shown = table[table["disagree"]] if only else table
st.dataframe(shown, hide_index=True, key="st_table")
choices = [int(i) for i in shown["heading"]] or [int(i) for i in table["heading"]]
if not choices:
    choices = list(range(len(book.headings)))
if st.session_state.get("st_heading") not in choices:
    st.session_state.pop("st_heading", None)
selected = (
    st.selectbox(
        "Heading", choices, key="st_heading", format_func=lambda i: views.heading_label(book.headings[i])
    )
    if choices
    else None
)


@st.cache_data(show_spinner="Rendering page…", max_entries=64)
def _png(sha256: str, number: int, page_text: str, spans: tuple, _pdf: bytes) -> bytes:
    return pdfview.page_image(_pdf, number, page_text, spans)


def show_page(col, number: int, spans: tuple) -> None:  # noqa: ANN001
    """Page ``number`` in ``col``: the PDF page image (heading line painted) or its text."""
    page = book.pages[number - 1]
    text = book.text[page.char_start : page.char_end]
    caption = f"page {number}" + (f" (p. {md(page.label)})" if page.label else "")
    if book.format == "pdf":
        try:
            col.image(_png(src.sha256, number, text, spans, src.data), caption=caption)
            return
        except pdfview.PageTooLargeError as exc:
            col.info(f"{caption}: no image, {exc}.")
    col.caption(caption)
    if spans:
        a = spans[0][0]
        text = text[:a] + "▶ " + text[a:]  # NOTE: st.code cannot colour a line; mark it
    col.code(text or "(empty page)", language=None, wrap_lines=True)


if selected is not None:
    h = book.headings[selected]
    a, b = structure_view.heading_line(book, h)
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
            show_page(col, number, spans)

# --------------------------------------------------------------------------- rejected
st.subheader("Rejected candidates")
found = structure_view.candidates(book)
if not found:
    st.caption("The engine rejected no candidate in this book.")
else:
    st.dataframe(
        {"page": [c.page for c in found], "line": [c.text for c in found], "why": [c.why for c in found]},
        hide_index=True,
        key="st_rejected",
    )
    pick = st.selectbox(
        "Candidate", range(len(found)), key="st_candidate", format_func=lambda k: found[k].label()
    )
    cand = found[pick]
    hit = structure_view.find_line(book, cand.page, cand.text) if cand.page else None
    if st.button("Accept as a chapter start", key="st_accept", disabled=hit is None):
        keep(structure_view.add_op(book, cand.page, hit[0], hit[1]))

# --------------------------------------------------------------------------- corrections
st.subheader("Correct the structure")
add_tab, remove_tab, move_tab, change_tab = st.tabs(["Add", "Remove", "Move", "Change"])


def line_picker(container, prefix: str) -> tuple[int, int, str] | None:  # noqa: ANN001
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


with add_tab:
    where = line_picker(add_tab, "st_add")
    c1, c2, c3 = st.columns(3)
    kind = c1.selectbox("Kind", HEADING_KINDS, index=HEADING_KINDS.index("chapter"), key="st_add_kind")
    level = c2.number_input("Level", 1, 9, structure_view.chapter_level(book), key="st_add_level")
    title = c3.text_input("Title (empty: the line)", key="st_add_title")
    if st.button("Add heading here", key="st_add", disabled=where is None):
        keep(structure_view.add_op(book, where[0], where[1], where[2], kind, int(level), title))
with remove_tab:
    if st.button("Remove the selected heading", key="st_remove", disabled=selected is None):
        keep(structure_view.remove_op(book, selected))
with move_tab:
    target = line_picker(move_tab, "st_move")
    if st.button(
        "Move the selected heading here", key="st_move", disabled=selected is None or target is None
    ):
        keep(structure_view.move_op(book, selected, *target))
with change_tab:
    if selected is not None:
        h = book.headings[selected]
        c1, c2, c3 = st.columns(3)
        new_kind = c1.selectbox(
            "Kind", HEADING_KINDS, index=HEADING_KINDS.index(h.kind), key=f"st_set_kind_{selected}"
        )
        new_level = c2.number_input("Level", 1, 9, min(max(h.level, 1), 9), key=f"st_set_level_{selected}")
        new_title = c3.text_input("Title", h.title, key=f"st_set_title_{selected}")
        if st.button("Apply the change", key="st_set"):
            op = structure_view.set_op(book, selected, kind=new_kind, level=int(new_level), title=new_title)
            if op is not None:
                keep(op)

# --------------------------------------------------------------------------- the file
st.subheader("Corrections")
if ops:
    st.dataframe(
        {"#": list(range(len(ops))), "correction": [structure_view.op_label(c) for c in ops]},
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
sf = state.structure_file_of(src, tuple(ops))
u3.download_button(
    "⬇ Structure file",
    state.structure_file_bytes(sf),
    file_name=sf.name,
    mime="application/json",
    key="st_download",
    help="Use it with `python -m chunking chunk BOOK --structure-file F`.",
)
