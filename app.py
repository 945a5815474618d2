"""Book Chunk Inspector — home page: pick a book, set the policy, read the summary.

Run with ``make app`` (or ``streamlit run app.py``). Every page shares the sidebar policy and the
cached book from ``inspector.state``; the other pages live in ``pages/``.
"""

import streamlit as st

from inspector import state, views

st.set_page_config(page_title="Book Chunk Inspector", page_icon="📚", layout="wide")
policy = state.sidebar_policy()
st.title("Book Chunk Inspector")
st.caption(
    "Pick a bundled sample or upload a book, tune the policy in the sidebar, then open "
    "Boundaries, Overlap, Chunks or Export in the sidebar's page list."
)
state.choose_book()
run = state.current_run(policy)
views.summary(run)
