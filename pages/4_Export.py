"""Export: the chunk files and manifest exactly as ``python -m chunking chunk`` writes them for the
same book and policy, a table of each file's first rows, and a message after each download."""

import streamlit as st

from chunking import export
from inspector import views
from inspector.data import tables
from inspector.safe import md

# NOTE: a comment, not a docstring: Streamlit's magic would show a bare string on the page.
PREVIEW_ROWS = 5  # records shown in each format's preview table
FORMATS = {
    "jsonl": ("JSONL", "application/jsonl"),
    "csv": ("CSV", "text/csv"),
    "parquet": ("Parquet", "application/vnd.apache.parquet"),
    "langchain": ("LangChain JSONL", "application/jsonl"),
}

run = views.chunk_page("Export")
report = run.report
if report.ok:
    st.success(f"Validation passed: {len(run.output)} chunks hold rules 1–8 (8: links and headings).")
else:
    st.error(f"Validation failed: rule {report.rule} at chunk {report.chunk_order}.")
    st.code(report.message, language=None)


def downloaded(name: str, size: int) -> None:
    """Remember the download so the page confirms it (toast and message) on the rerun it starts."""
    st.session_state["exp_downloaded"] = (name, size)


if "exp_downloaded" in st.session_state:
    name, size = st.session_state.pop("exp_downloaded")
    st.toast(f"Downloaded {md(name)} ({size:,} bytes)", icon="✅")
    st.info(f"Downloaded {md(name)} ({size:,} bytes): the same bytes `python -m chunking chunk` writes.")

cols = st.columns(len(FORMATS) + 1)
for col, (fmt, (label, mime)) in zip(cols, FORMATS.items()):
    data = run.export_bytes(fmt)
    col.download_button(
        f"⬇ {label}",
        data,
        file_name=run.export_name(fmt),
        mime=mime,
        key=f"exp_{fmt}",
        on_click=downloaded,
        args=(run.export_name(fmt), len(data)),
    )
manifest_fmt = cols[-1].selectbox(
    "Manifest for",
    list(FORMATS),
    key="exp_manifest_fmt",
    help="The manifest names its chunk file, as the CLI's does.",
)
manifest = run.manifest_bytes(manifest_fmt)
manifest_name = export.manifest_path(run.export_name(manifest_fmt)).name
cols[-1].download_button(
    "⬇ Manifest",
    manifest,
    mime="application/json",
    file_name=manifest_name,
    key="exp_manifest",
    on_click=downloaded,
    args=(manifest_name, len(manifest)),
)

st.subheader("Preview")
st.caption(f"The first {PREVIEW_ROWS} records of each file, one row per chunk; nested fields as JSON.")
tabs = st.tabs([label for label, _ in FORMATS.values()] + ["Manifest"])
for tab, fmt in zip(tabs, FORMATS):
    frame = tables.export_preview(run.export_bytes(fmt), fmt, PREVIEW_ROWS)
    tab.dataframe(frame, hide_index=True, key=f"exp_preview_{fmt}", height="content")
tabs[-1].json(run.manifest(manifest_fmt), expanded=1)
