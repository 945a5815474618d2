"""App stage (retrieval view): the Retrieval page's three tabs, their cached data, tables and figure.

Keeps ``pages/6_Retrieval.py`` thin: it picks the policies and calls ``locate_tab``, ``search_tab``
and ``evaluate_tab``. Cached builders key on the book's sha256 and the policy's fields (never on
widgets); tables, HTML and the figure are pure functions of their data. Untrusted book text only
reaches HTML through ``inspector.render`` (escaped) or dataframes (text as text).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from chunking.errors import UsageError
from chunking.retrieval.evaluate import DROP_SHARE, PolicyScore, evaluate_chunks, sample_probes
from chunking.retrieval.locate import ChunkMatch, Location, SearchSpace, locate, match_chunks
from chunking.models import Book
from chunking.policy import Policy
from chunking.retrieval.search import ChunkIndex, SearchHit, highlight_spans
from inspector import render
from inspector.safe import md
from inspector.state import PLOTLY_CONFIG, AppRun

METRICS = {
    "hit_at_k": ("hit@k", "Share of sampled sentences that lie whole inside one of the k retrieved chunks."),
    "chapter_precision_at_k": (
        "chapter precision@k",
        "Mean share of each retrieved chunk's text that lies in the sentence's chapter.",
    ),
    "iou": ("token IoU", "Sentence tokens retrieved ÷ (all retrieved tokens + sentence tokens missed)."),
    "precision": (
        "token precision",
        "Sentence tokens retrieved ÷ all retrieved tokens (a token in two overlapping chunks counts twice).",
    ),
    "recall": ("token recall", "Sentence tokens retrieved ÷ sentence tokens."),
}
"""Column name and one-line definition of every evaluation metric, in display order."""

EXPLANATION = f"""\
**This is a proxy, not a measure of answer quality.** No LLM and no embeddings are involved: *n*
sentences of the book are drawn with the seed; each becomes a query by dropping English stop words
and {DROP_SHARE:.0%} of the remaining words (the same words for the same seed); BM25 then retrieves
the top *k* chunks of each policy. A policy scores well when its chunks keep a sentence findable
and whole, and do not dilute it with much unrelated text. Token metrics follow Chroma's chunking
evaluation, over the canonical tiktoken stream (with a fixed *k*).
"""


def policy_items(policy: Policy) -> tuple[tuple[str, Any], ...]:
    """A hashable form of a policy for cache keys."""
    return tuple((f.name, getattr(policy, f.name)) for f in fields(Policy))


@st.cache_resource(show_spinner="Indexing the book for passage lookup…", max_entries=6)
def _space(sha256: str, structure: str, _book: Book) -> SearchSpace:
    return SearchSpace.build(_book)


def search_space(run: AppRun) -> SearchSpace:
    """The passage-lookup index of the run's book, cached per (file, structure source)."""
    return _space(run.source.sha256, run.policy.structure, run.book)


@st.cache_resource(show_spinner="Building the BM25 index…", max_entries=16)
def _index(sha256: str, items: tuple[tuple[str, Any], ...], _run: AppRun) -> ChunkIndex:
    return ChunkIndex.build(_run.book, _run.chunks)


def chunk_index(run: AppRun) -> ChunkIndex:
    """The BM25 index of one run's chunks, cached per (file, policy)."""
    return _index(run.source.sha256, policy_items(run.policy), run)


@st.cache_data(show_spinner="Evaluating…", max_entries=32)
def _evaluation(
    sha256: str, items: tuple[tuple[str, Any], ...], n: int, k: int, seed: int, label: str, _run: AppRun
) -> dict[str, Any]:
    probes = sample_probes(_run.tokenized, n, seed)
    return evaluate_chunks(probes, chunk_index(_run), k, label).to_dict()


def evaluation(run: AppRun, label: str, n: int, k: int, seed: int) -> PolicyScore:
    """Self-retrieval scores of one run, cached per (file, policy, n, k, seed)."""
    return PolicyScore(**_evaluation(run.source.sha256, policy_items(run.policy), n, k, seed, label, run))


def location_table(loc: Location) -> pd.DataFrame:
    """Where a found passage is: span, pages with printed labels, chapter, section, score."""

    def page(n: int, label: str) -> str:
        return f"{n}" + (f" (printed {label})" if label else "")

    rows = [
        ("match score", f"{loc.score:.1f} / 100"),
        ("characters", f"[{loc.char_start:,}, {loc.char_end:,})"),
        (
            "pages",
            page(loc.page_start, loc.page_label_start)
            + ("" if loc.page_end == loc.page_start else f" to {page(loc.page_end, loc.page_label_end)}"),
        ),
        ("chapter", loc.chapter or "–"),
        ("section", loc.section or "–"),
    ]
    if loc.occurrences > 1:
        rows.append(("equally good places", str(loc.occurrences)))
    return pd.DataFrame(rows, columns=["", "value"])


def passage_html(text: str, loc: Location, *, context: int = 300) -> str:
    """The found span highlighted inside a little of the text around it (escaped)."""
    lo, hi = max(0, loc.char_start - context), min(len(text), loc.char_end + context)
    return render.text_block_html(text[lo:hi], [(loc.char_start - lo, loc.char_end - lo, "hit")])


def chunk_match_table(matches: Sequence[ChunkMatch]) -> pd.DataFrame:
    """One row per policy: which chunks hold the passage and whether it straddles a boundary."""
    return pd.DataFrame(
        {
            "policy": [m.policy for m in matches],
            "chunks": [", ".join(f"#{o}" for o in m.orders) for m in matches],
            "straddles a boundary": ["yes" if m.straddles else "no" for m in matches],
            "cut off before": [m.cut_before[-120:] for m in matches],
            "cut off after": [m.cut_after[:120] for m in matches],
        }
    )


def hits_table(hits: Sequence[SearchHit]) -> pd.DataFrame:
    """Ranked hits of one policy: score, chunk, pages, chapter, crossing flag, matched terms."""
    return pd.DataFrame(
        {
            "rank": [h.rank for h in hits],
            "score": [round(h.score, 3) for h in hits],
            "chunk": [f"#{h.order}" for h in hits],
            "pages": [
                f"{h.page_start}" + ("" if h.page_end == h.page_start else f"–{h.page_end}") for h in hits
            ],
            "chapter": [h.chapter for h in hits],
            "crosses chapter": ["⚠ yes" if h.crosses_chapter else "" for h in hits],
            "terms": [", ".join(h.terms) for h in hits],
        }
    )


def hit_html(hit: SearchHit) -> str:
    """A hit's text with its matched query terms highlighted (escaped)."""
    return render.text_block_html(hit.text, [(s, e, "hit") for s, e in highlight_spans(hit.text, hit.terms)])


def evaluation_table(scores: Sequence[PolicyScore]) -> pd.DataFrame:
    """One row per policy, one column per metric (display names), rounded to 3 decimals."""
    data: dict[str, list] = {
        "policy": [s.policy for s in scores],
        "n": [s.n for s in scores],
        "k": [s.k for s in scores],
    }
    for key, (name, _) in METRICS.items():
        data[name] = [round(getattr(s, key), 3) for s in scores]
    return pd.DataFrame(data)


def evaluation_figure(scores: Sequence[PolicyScore]) -> go.Figure:
    """Grouped bars: one group per metric, one bar per policy (all metrics lie in [0, 1])."""
    fig = go.Figure()
    names = [name for name, _ in METRICS.values()]
    for s in scores:
        fig.add_bar(
            name=s.policy,
            x=names,
            y=[getattr(s, key) for key in METRICS],
            hovertemplate="%{x}: %{y:.3f}<extra>" + s.policy.replace("<", "&lt;") + "</extra>",
        )
    fig.update_layout(
        barmode="group",
        yaxis={"range": [0, 1], "title": "mean over sampled sentences"},
        height=360,
        margin={"t": 30, "b": 40},
        legend={"orientation": "h", "y": -0.2},
    )
    return fig


# ------------------------------------------------------------------------------------ tabs
def locate_tab(runs: Sequence[AppRun], labels: Sequence[str]) -> None:
    """Passage box → its location, the span in context, and the chunks holding it per policy."""
    passage = st.text_area(
        "Passage",
        key="retrieval_passage",
        height=140,
        placeholder="Paste a retrieved passage; whitespace, hyphens and a heading prefix do not matter.",
    )
    if not passage.strip():
        return
    space = search_space(runs[0])
    try:
        loc = locate(space, passage)
    except UsageError as exc:
        st.error(md(exc))
        return
    if not loc.found:
        st.warning(f"Not found in this book (best match score {loc.score:.1f} / 100).")
        return
    st.success("Found in this book.")
    st.dataframe(location_table(loc), hide_index=True, key="retrieval_location")
    st.html(passage_html(space.book.text, loc))
    # NOTE: every run shares runs[0]'s book (the page varies only the strategy), so one location
    # serves every policy.
    matches = [match_chunks(space, loc, r.chunks, label) for r, label in zip(runs, labels)]
    st.subheader("Chunks holding it")
    st.dataframe(chunk_match_table(matches), hide_index=True, key="retrieval_matches")


def search_tab(runs: Sequence[AppRun], labels: Sequence[str]) -> None:
    """Query box → the top-k BM25 hits of each policy, side by side, terms highlighted."""
    left, right = st.columns([4, 1])
    query = left.text_input("Query", key="retrieval_query", placeholder="a question or keywords")
    k = int(right.number_input("k", 1, 50, 5, key="retrieval_k"))
    if not query.strip():
        return
    for col, run, label in zip(st.columns(len(runs)), runs, labels):
        hits = chunk_index(run).search(query, k)
        col.markdown(f"**{label}**")
        if not hits:
            col.info("No chunk shares a word with the query.")
            continue
        col.dataframe(hits_table(hits), hide_index=True, key=f"retrieval_hits_{run.policy.strategy}")
        for h in hits:
            with col.expander(f"#{h.rank} · chunk {h.order} · score {h.score:.2f}"):
                st.html(hit_html(h))


def evaluate_tab(runs: Sequence[AppRun], labels: Sequence[str]) -> None:
    """Explanation and definitions, n/k/seed, and (after the button) the table and figure."""
    st.markdown(EXPLANATION)
    st.table(
        {"metric": [name for name, _ in METRICS.values()], "meaning": [text for _, text in METRICS.values()]}
    )
    c1, c2, c3 = st.columns(3)
    n = int(c1.number_input("Sentences (n)", 1, 2000, 200, key="retrieval_eval_n"))
    k = int(c2.number_input("Chunks retrieved (k)", 1, 50, 5, key="retrieval_eval_k"))
    seed = int(c3.number_input("Seed", 0, 2**31 - 1, 0, key="retrieval_eval_seed"))
    if st.button("Run evaluation", key="retrieval_eval_run", type="primary"):
        st.session_state["retrieval_eval_args"] = (n, k, seed)
    if "retrieval_eval_args" not in st.session_state:
        return
    n, k, seed = st.session_state["retrieval_eval_args"]
    scores = [evaluation(r, label, n, k, seed) for r, label in zip(runs, labels)]
    st.caption(f"n = {n} sentences drawn (fewer if the book has fewer), k = {k}, seed = {seed}")
    st.dataframe(evaluation_table(scores), hide_index=True, key="retrieval_eval_table")
    st.plotly_chart(evaluation_figure(scores), key="retrieval_eval_fig", config=PLOTLY_CONFIG)
