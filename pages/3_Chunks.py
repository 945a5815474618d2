"""Chunks: every exported chunk in one table (the sidebar's Exclude matter leaves some out),
filtered by chapter, end reason, token count and text; the table is paged (as tall as its rows)
and a selected row shows its matter and its full id with a copy button."""

import streamlit as st

from inspector import flow, views
from inspector.data import tables

run = views.chunk_page("Chunks")
chunks = run.output
if not chunks:
    st.info("Every chunk of this book is of excluded matter (the sidebar's Exclude matter).")
    flow.stop()

chapters = list(dict.fromkeys(c.chapter for c in chunks))
reasons = list(dict.fromkeys(c.end_reason for c in chunks))
low = min(c.token_count for c in chunks)
high = max(max(c.token_count for c in chunks), low + 1)
left, mid = st.columns(2)
chosen_chapters = left.multiselect("Chapter", chapters, key="chk_chapters", help="Empty = every chapter.")
chosen_reasons = mid.multiselect("End reason", reasons, key="chk_reasons", help="Empty = every end reason.")
left, mid = st.columns(2)
token_range = left.slider("Tokens", low, high, (low, high), key="chk_tokens")
query = mid.text_input("Text contains", key="chk_query", help="Case-insensitive search in the chunk text.")

shown = tables.filter_chunks(
    chunks, chapters=chosen_chapters, end_reasons=chosen_reasons, tokens=token_range, query=query
)
st.metric("Chunks shown", f"{len(shown)} of {len(chunks)}")
rows = views.paged_table(
    tables.chunk_table(shown),
    key="chk_table",
    on_select="rerun",
    selection_mode="single-row",
    column_config={
        "start_of_text": st.column_config.TextColumn("start of text", width="medium"),
        "id": st.column_config.TextColumn("id", help="The full chunk id: select a row to copy it."),
    },
)
picked = st.session_state.get("chk_table", {}).get("selection", {}).get("rows", [])
if picked and picked[0] < len(rows):
    row = rows.iloc[picked[0]]
    st.caption(f"Chunk {int(row['order'])}, matter {row['matter']}: its full id (copy button on the right)")
    st.code(rows["id"].iloc[picked[0]], language=None)
else:
    st.caption("Select a row (the box at its left) to copy its full id.")
