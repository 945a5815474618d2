"""Chunks: every chunk in one table, filtered by chapter, end reason, token count and text."""

import streamlit as st

from inspector import tables, views

run = views.chunk_page("Chunks")

chapters = list(dict.fromkeys(c.chapter for c in run.chunks))
reasons = list(dict.fromkeys(c.end_reason for c in run.chunks))
low = min(c.token_count for c in run.chunks)
high = max(max(c.token_count for c in run.chunks), low + 1)
left, mid = st.columns(2)
chosen_chapters = left.multiselect("Chapter", chapters, key="chk_chapters", help="Empty = every chapter.")
chosen_reasons = mid.multiselect("End reason", reasons, key="chk_reasons", help="Empty = every end reason.")
left, mid = st.columns(2)
token_range = left.slider("Tokens", low, high, (low, high), key="chk_tokens")
query = mid.text_input("Text contains", key="chk_query", help="Case-insensitive search in the chunk text.")

shown = tables.filter_chunks(
    run.chunks, chapters=chosen_chapters, end_reasons=chosen_reasons, tokens=token_range, query=query
)
st.metric("Chunks shown", f"{len(shown)} of {len(run.chunks)}")
st.dataframe(
    tables.chunk_table(shown),
    hide_index=True,
    key="chk_table",
    column_config={"start_of_text": st.column_config.TextColumn("start of text", width="large")},
)
