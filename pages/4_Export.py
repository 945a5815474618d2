"""Export: the chunk files and manifest exactly as ``python -m chunking chunk`` writes them for the
same book and policy, with a preview of the first rows."""

import io

import pandas as pd
import streamlit as st

from chunking import export
from inspector import state, views

st.set_page_config(page_title="Export · Book Chunk Inspector", layout="wide")
policy = state.sidebar_policy()
run = state.current_run(policy)
views.book_heading(run)
report = run.report
if report.ok:
    st.success(f"Validation passed: {len(run.chunks)} chunks hold rules 1–7.")
else:
    st.error(f"Validation failed: rule {report.rule} at chunk {report.chunk_order}.")
    st.code(report.message, language=None)

FORMATS = {
    "jsonl": ("JSONL", "application/jsonl"),
    "csv": ("CSV", "text/csv"),
    "parquet": ("Parquet", "application/vnd.apache.parquet"),
    "langchain": ("LangChain JSONL", "application/jsonl"),
}
cols = st.columns(len(FORMATS) + 1)
for col, (fmt, (label, mime)) in zip(cols, FORMATS.items()):
    col.download_button(
        f"⬇ {label}", run.export_bytes(fmt), file_name=run.export_name(fmt), mime=mime, key=f"exp_{fmt}"
    )
manifest_fmt = cols[-1].selectbox(
    "Manifest for",
    list(FORMATS),
    key="exp_manifest_fmt",
    help="The manifest names its chunk file, as the CLI's does.",
)
cols[-1].download_button(
    "⬇ Manifest",
    run.manifest_bytes(manifest_fmt),
    mime="application/json",
    file_name=export.manifest_path(run.export_name(manifest_fmt)).name,
    key="exp_manifest",
)

st.subheader("Preview")
tabs = st.tabs([label for label, _ in FORMATS.values()] + ["Manifest"])
for tab, fmt in zip(tabs, FORMATS):
    data = run.export_bytes(fmt)
    if fmt == "parquet":
        tab.dataframe(pd.read_parquet(io.BytesIO(data)).head(5), key="exp_preview_parquet")
    else:
        tab.code(
            "\n".join(data.decode("utf-8").splitlines()[:4]),
            language="json" if fmt != "csv" else None,
            wrap_lines=True,
        )
tabs[-1].json(run.manifest(manifest_fmt), expanded=1)
