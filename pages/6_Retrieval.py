"""Retrieval page: where a passage came from, what each policy retrieves, and a self-retrieval proxy.

Thin: state (book, policies, cached runs) comes from ``inspector.state``; lookups, tables, HTML and
figures from ``inspector.retrieval_view``.
"""

from __future__ import annotations

import streamlit as st

from chunking.compare import policy_label
from chunking.errors import UsageError
from chunking.locate import locate, match_chunks
from chunking.models import STRATEGIES
from inspector import retrieval_view as rv
from inspector import state, views

st.set_page_config(page_title="Retrieval · Book Chunk Inspector", layout="wide")
base = state.sidebar_policy()
st.title("Retrieval debugger")
strategies = st.multiselect(
    "Policies side by side", STRATEGIES, default=list(STRATEGIES), key="retrieval_strategies",
    help="Each is the sidebar policy with this strategy.")
if not strategies:
    st.info("Choose at least one policy.")
    st.stop()
runs = [state.current_run(base.with_(strategy=s)) for s in strategies]
labels = [policy_label(r.policy) for r in runs]
views.book_heading(runs[0])

locate_tab, search_tab, eval_tab = st.tabs(["Locate a passage", "Search", "Evaluate"])

with locate_tab:
    passage = st.text_area("Passage", key="retrieval_passage", height=140,
                           placeholder="Paste a retrieved passage; whitespace, hyphens and a heading prefix do not matter.")
    if passage.strip():
        space = rv.search_space(runs[0])
        try:
            loc = locate(space, passage)
        except UsageError as exc:
            loc = None
            st.error(str(exc))
        if loc is None:
            pass
        elif not loc.found:
            st.warning(f"Not found in this book (best match score {loc.score:.1f} / 100).")
        else:
            st.success("Found in this book.")
            st.dataframe(rv.location_table(loc), hide_index=True, key="retrieval_location")
            st.html(rv.passage_html(space.book.text, loc))
            matches = [match_chunks(rv.search_space(r), loc, r.chunks, label) for r, label in zip(runs, labels)]
            st.subheader("Chunks holding it")
            st.dataframe(rv.chunk_match_table(matches), hide_index=True, key="retrieval_matches")

with search_tab:
    left, right = st.columns([4, 1])
    query = left.text_input("Query", key="retrieval_query", placeholder="a question or keywords")
    k = right.number_input("k", 1, 50, 5, key="retrieval_k")
    if query.strip():
        for col, run, label in zip(st.columns(len(runs)), runs, labels):
            hits = rv.chunk_index(run).search(query, int(k))
            col.markdown(f"**{label}**")
            if not hits:
                col.info("No chunk shares a word with the query.")
                continue
            col.dataframe(rv.hits_table(hits), hide_index=True, key=f"retrieval_hits_{run.policy.strategy}")
            for h in hits:
                with col.expander(f"#{h.rank} · chunk {h.order} · score {h.score:.2f}"):
                    st.html(rv.hit_html(h))

with eval_tab:
    st.markdown(rv.EXPLANATION)
    st.table({"metric": [name for name, _ in rv.METRICS.values()],
              "meaning": [text for _, text in rv.METRICS.values()]})
    c1, c2, c3 = st.columns(3)
    n = c1.number_input("Sentences (n)", 1, 2000, 200, key="retrieval_eval_n")
    k_eval = c2.number_input("Chunks retrieved (k)", 1, 50, 5, key="retrieval_eval_k")
    seed = c3.number_input("Seed", 0, 2**31 - 1, 0, key="retrieval_eval_seed")
    if st.button("Run evaluation", key="retrieval_eval_run", type="primary"):
        st.session_state["retrieval_eval_args"] = (int(n), int(k_eval), int(seed))
    if "retrieval_eval_args" in st.session_state:
        n_, k_, seed_ = st.session_state["retrieval_eval_args"]
        scores = [rv.evaluation(r, label, n_, k_, seed_) for r, label in zip(runs, labels)]
        st.caption(f"n = {n_} sentences drawn (fewer if the book has fewer), k = {k_}, seed = {seed_}")
        st.dataframe(rv.evaluation_table(scores), hide_index=True, key="retrieval_eval_table")
        state.show_fig(rv.evaluation_figure(scores), key="retrieval_eval_fig")
