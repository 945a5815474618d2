"""Retrieval: where a pasted passage came from, what each policy retrieves for a query, the
evaluation per policy × retriever (tabs drawn by ``inspector.views.retrieval``), and a search of a
store built by ``chunking index`` (``inspector.views.store_search``)."""

import streamlit as st

from chunking.analysis.compare import policy_label
from chunking.models import RETRIEVERS, STRATEGIES
from inspector import flow, views
from inspector.data import state
from inspector.views import retrieval, store_search

st.set_page_config(page_title="Retrieval · Book Chunk Inspector", layout="wide")
base = state.sidebar_policy()
st.title("Retrieval debugger")
views.book_heading(state.current_run(base))  # the book is read here once, shared by every policy
strategies = st.multiselect(
    "Policies side by side",
    STRATEGIES,
    default=list(STRATEGIES),
    key="retrieval_strategies",
    help="Each is the sidebar policy with this strategy.",
)
retrievers = st.multiselect(
    "Retrievers side by side",
    RETRIEVERS,
    default=list(RETRIEVERS),
    key="retrieval_retrievers",
    help="bm25: lexical; dense: WordLlama embeddings (offline); hybrid: reciprocal rank fusion of both.",
)
if not strategies or not retrievers:
    st.info("Choose at least one policy and one retriever.")
    flow.stop()
runs = [state.current_run(base.with_(strategy=s)) for s in strategies]
labels = [policy_label(r.policy) for r in runs]

locate_tab, search_tab, evaluate_tab, store_tab = st.tabs(
    ["Locate a passage", "Search", "Evaluate", "Search a store"]
)
with locate_tab:
    retrieval.locate_tab(runs, labels)
with search_tab:
    retrieval.search_tab(runs, labels, retrievers)
with evaluate_tab:
    retrieval.evaluate_tab(runs, labels, retrievers)
with store_tab:
    store_search.store_tab(runs[0])
