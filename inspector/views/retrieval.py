"""App stage (retrieval view): the Retrieval page's three tabs, their cached data, tables and figure.

Keeps ``pages/6_Retrieval.py`` thin: it picks the policies and calls ``locate_tab``, ``search_tab``
and ``evaluate_tab``. Cached builders key on the book's sha256, its corrections digest and the
policy's fields (``AppRun.key``; never on widgets); tables, HTML and the figure are pure functions
of their data. Untrusted book text only reaches HTML through ``inspector.views.render`` (escaped) or
dataframes (text as text).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from chunking.errors import UsageError
import numpy as np

from chunking.models import Book
from chunking.retrieval.book_index import BookIndex, parse_book_index
from chunking.retrieval.embeddings import default_backend, embed_chunks
from chunking.retrieval.evaluate import (
    DROP_SHARE,
    IndexScore,
    PolicyScore,
    evaluate_chunks,
    evaluate_index,
    index_queries,
)
from chunking.retrieval.hybrid import build_index
from chunking.models import Chunk
from chunking.retrieval.chunk_ids import chunks_with_id, id_query
from chunking.retrieval.locate import ChunkMatch, Location, SearchSpace, locate, match_chunks
from chunking.retrieval.probes import BOUNDARY_TOKENS, boundary_probes, sample_probes
from chunking.retrieval.search import RankedIndex, SearchHit, highlight_spans
from inspector import palette
from inspector.views import render
from inspector.safe import md
from inspector.data.state import PLOTLY_CONFIG, AppRun

METRICS = {
    "hit_at_k": ("hit@k", "Share of sampled sentences that lie whole inside one of the k retrieved chunks."),
    "mrr": ("MRR", "Mean of 1 / rank of the first retrieved chunk holding the whole sentence (0 if none)."),
    "chapter_purity": (
        "chapter purity",
        "Share of all retrieved tokens that lie in the sentence's own chapter.",
    ),
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
"""Column name and one-line definition of every evaluation metric in [0, 1], in display order."""

COST = (
    "tokens_per_hit",
    "tokens per hit",
    "Retrieved tokens per sentence found: what a hit costs (lower is better).",
)
"""The one metric not in [0, 1]: a table column, not a bar."""

INDEX_METRICS = {
    "recall_at_k": ("recall@k", "Relevant chunks in the top k ÷ min(relevant chunks, k)."),
    "ndcg_at_10": ("nDCG@10", "Ranking quality of the first 10 chunks with binary gains."),
}
"""The printed-index evaluation's metrics: a chunk is relevant when it covers a page the entry names."""

FIGURE_ZONE = "boundary"
"""The figure shows the boundary-zone probes, where policies differ; the table shows both zones."""

EXPLANATION = f"""\
**This is a proxy, not a measure of answer quality.** No LLM is involved: *n* sentences drawn at
random and *n* drawn within {BOUNDARY_TOKENS} tokens of a chapter start (the *boundary zone*, where
policies differ) each become a query by dropping English stop words and {DROP_SHARE:.0%} of the
remaining words (the same words for the same seed); each retriever (BM25, dense WordLlama
embeddings, hybrid = reciprocal rank fusion) then retrieves the top *k* chunks of each policy. A
policy scores well when its chunks keep a sentence findable and whole, and do not dilute it with
text of other chapters. When the book has a printed index, its entries are a second, human-written
relevance set: the term is the query, the chunks covering the pages it names are relevant.
"""


@st.cache_resource(show_spinner="Indexing the book for passage lookup…", max_entries=6)
def _space(sha256: str, structure: str, digest: str, _book: Book) -> SearchSpace:
    return SearchSpace.build(_book)


def search_space(run: AppRun) -> SearchSpace:
    """The passage-lookup index of the run's book, cached per (file, structure source, corrections)."""
    return _space(run.source.sha256, run.policy.read_key(), run.book.corrections, run.book)


@st.cache_data(show_spinner="Embedding the chunks…", max_entries=16)
def _vectors(sha256: str, key: tuple, backend: str, _run: AppRun) -> np.ndarray:
    return embed_chunks(_run.chunks, default_backend())


def chunk_vectors(run: AppRun) -> np.ndarray:
    """The chunks' embeddings, cached per (file, policy, backend) like the tokens."""
    return _vectors(run.source.sha256, run.key, default_backend().name, run)


@st.cache_resource(show_spinner="Building the index…", max_entries=48)
def _index(sha256: str, key: tuple, kind: str, _run: AppRun) -> RankedIndex:
    vectors = chunk_vectors(_run) if kind != "bm25" else None
    return build_index(kind, _run.book, _run.chunks, embeddings=vectors)


def chunk_index(run: AppRun, kind: str = "bm25") -> RankedIndex:
    """The ``kind`` retriever over one run's chunks, cached per (file, policy, retriever)."""
    return _index(run.source.sha256, run.key, kind, run)


@st.cache_data(show_spinner=False, max_entries=96)
def _evaluation(
    sha256: str,
    key: tuple,
    kind: str,
    n: int,
    k: int,
    seed: int,
    label: str,
    _run: AppRun,
) -> list[PolicyScore]:
    # NOTE: the scores themselves, not their 4-decimal ``to_dict`` records: the table rounds
    # once, to 3 decimals, as the CLI's core values would be (0.02652 → 0.027, not 0.0265 → 0.026).
    index = chunk_index(_run, kind)
    probes = (sample_probes(_run.tokenized, n, seed), boundary_probes(_run.tokenized, n, seed))
    return [evaluate_chunks(p, index, k, label) for p in probes]


def evaluation(run: AppRun, label: str, kind: str, n: int, k: int, seed: int) -> list[PolicyScore]:
    """Random and boundary-zone scores of one run × retriever, cached per (file, policy, retriever, n, k, seed)."""
    return _evaluation(run.source.sha256, run.key, kind, n, k, seed, label, run)


@st.cache_data(show_spinner="Reading the printed index…", max_entries=8)
def _book_index(sha256: str, structure: str, digest: str, _book: Book) -> BookIndex:
    return parse_book_index(_book)


def book_index(run: AppRun) -> BookIndex:
    """The book's printed index, parsed and mapped (cached per file, structure source and corrections)."""
    return _book_index(run.source.sha256, run.policy.read_key(), run.book.corrections, run.book)


@st.cache_data(show_spinner=False, max_entries=96)
def _index_score(
    sha256: str, key: tuple, kind: str, k: int, seed: int, label: str, _run: AppRun
) -> IndexScore:
    parsed = book_index(_run)
    queries = index_queries(parsed.entries, seed)  # the score itself: rounded once, by the table
    return evaluate_index(queries, chunk_index(_run, kind), k, label, (parsed.char_start, parsed.char_end))


def index_score(run: AppRun, label: str, kind: str, k: int, seed: int) -> IndexScore:
    """Recall@k and nDCG@10 of one run × retriever against the printed index (cached)."""
    return _index_score(run.source.sha256, run.key, kind, k, seed, label, run)


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
            "ids": [", ".join(m.ids) for m in matches],
            "straddles a boundary": ["yes" if m.straddles else "no" for m in matches],
            "boundaries inside": [len(m.boundaries) for m in matches],
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
            "id": [h.id for h in hits],
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
    """One row per policy × retriever × zone, one column per metric (display names), 3 decimals."""
    data: dict[str, list] = {
        "policy": [s.policy for s in scores],
        "retriever": [s.retriever for s in scores],
        "zone": [s.zone for s in scores],
        "n": [s.n for s in scores],
        "k": [s.k for s in scores],
    }
    for key, (name, _) in METRICS.items():
        data[name] = [round(getattr(s, key), 3) for s in scores]
    data[COST[1]] = [None if s.tokens_per_hit is None else round(s.tokens_per_hit) for s in scores]
    return pd.DataFrame(data)


def index_table(scores: Sequence[IndexScore]) -> pd.DataFrame:
    """One row per policy × retriever of the printed-index evaluation."""
    data: dict[str, list] = {
        "policy": [s.policy for s in scores],
        "retriever": [s.retriever for s in scores],
        "queries": [s.queries for s in scores],
    }
    for key, (name, _) in INDEX_METRICS.items():
        data[name] = [round(getattr(s, key), 3) for s in scores]
    data["relevant chunks / query"] = [round(s.relevant_per_query, 2) for s in scores]
    return pd.DataFrame(data)


RETRIEVER_PATTERNS = {"bm25": "", "dense": "/", "hybrid": "x"}
"""Bar fill pattern per retriever: the colour is the policy's (``palette``), as on every page."""


def evaluation_figure(scores: Sequence[PolicyScore], zone: str = FIGURE_ZONE) -> go.Figure:
    """Grouped bars: one group per metric, one bar per policy × retriever, for one probe zone
    (coloured by policy, patterned by retriever)."""
    fig = go.Figure()
    names = [name for name, _ in METRICS.values()]
    for s in (s for s in scores if s.zone == zone):
        label = f"{s.policy} · {s.retriever}"
        fig.add_bar(
            name=label,
            x=names,
            y=[getattr(s, key) for key in METRICS],
            marker_color=palette.policy_colour(s.policy),
            marker_pattern_shape=RETRIEVER_PATTERNS.get(s.retriever, "."),
            hovertemplate="%{x}: %{y:.3f}<extra>" + label.replace("<", "&lt;") + "</extra>",
        )
    fig.update_layout(
        barmode="group",
        yaxis={"range": [0, 1], "title": f"mean over {zone} probes"},
        height=380,
        margin={"t": 30, "b": 40},
        legend={"orientation": "h", "y": -0.2},
    )
    return fig


# ------------------------------------------------------------------------------------ tabs
def chunk_table(c: Chunk) -> pd.DataFrame:
    """One chunk's provenance as field/value rows: id, order, pages, chapter, section, tokens."""
    pages = f"{c.page_start}" + ("" if c.page_end == c.page_start else f"–{c.page_end}")
    rows = [
        ("id", c.id),
        ("chunk", f"#{c.order}"),
        ("pages", pages),
        ("chapter", c.chapter or "–"),
        ("section", c.section or "–"),
        ("tokens", str(c.token_count)),
        ("characters", f"[{c.char_start:,}, {c.char_end:,})"),
        ("end reason", c.end_reason),
    ]
    return pd.DataFrame(rows, columns=["", "value"])


def passage_marks(loc: Location, match: ChunkMatch) -> list[tuple[int, str, int]]:
    """``match``'s chunk boundaries inside the found span, as offsets into that span."""
    return [(b.char - loc.char_start, b.edge, b.order) for b in match.boundaries]


def _open_on_boundaries(strategy: str, order: int, pages: tuple[int, int]) -> None:
    """Button callback: make the sidebar policy the chunk's (its strategy; every other field is
    already the sidebar's) and point Boundaries at the chunk: its detail, its pages zoomed."""
    st.session_state["policy_strategy"] = strategy
    st.session_state["bnd_chunk"] = order
    st.session_state["bnd_chapter"] = None
    st.session_state["bnd_range"] = pages


def open_button(run: AppRun, c: Chunk, *, key: str) -> None:
    """ "Open on Boundaries": switch to the Boundaries page showing chunk ``c`` of ``run``."""
    n_pages = max(len(run.book.pages), 2)
    pages = (max(1, c.page_start - 1), min(n_pages, max(c.page_end + 1, c.page_start)))
    if st.button(
        f"Open chunk {c.order} on Boundaries",
        key=key,
        on_click=_open_on_boundaries,
        args=(run.policy.strategy, c.order, pages),
        help="Shows this chunk on the Boundaries page, under this policy (the sidebar follows).",
    ):
        st.switch_page("pages/1_Boundaries.py")


def chunk_id_view(runs: Sequence[AppRun], labels: Sequence[str], text: str) -> None:
    """The chunk a pasted id names, per policy: provenance, text, and a button to open it."""
    query = id_query(text) or ""
    found = [(run, label, c) for run, label in zip(runs, labels) for c in chunks_with_id(run.chunks, query)]
    if not found:
        st.warning(
            f"No chunk of these policies has an id starting with {query}. Ids change with every "
            "policy field and with structure corrections: set the sidebar to the policy the "
            "chunks were exported with (the manifest's policy), or paste the chunk's text instead."
        )
        return
    st.success(f"Chunk id {query}: {len(found)} chunk(s) found.")
    for run, label, c in found:
        st.subheader(f"{label}: chunk {c.order}", anchor=False)
        left, right = st.columns([1, 2])
        left.dataframe(chunk_table(c), hide_index=True, key=f"retrieval_id_{run.policy.strategy}_{c.order}")
        with left:
            open_button(run, c, key=f"retrieval_open_id_{run.policy.strategy}_{c.order}")
        with right:
            st.html(render.chunk_detail_html(run.book.text, run.chunks, c.order))


def locate_tab(runs: Sequence[AppRun], labels: Sequence[str]) -> None:
    """Passage box → its location, the span in context, the chunks holding it per policy, and
    the chunk boundaries inside it; a chunk id pasted in the box shows that chunk instead."""
    passage = st.text_area(
        "Passage or chunk id",
        key="retrieval_passage",
        height=140,
        placeholder="Paste a retrieved passage (whitespace, hyphens and a heading prefix do not matter) "
        "or the chunk id a vector store returned (its first 8+ hex digits are enough).",
    )
    if not passage.strip():
        return
    if id_query(passage) is not None:
        chunk_id_view(runs, labels, passage)
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
    st.subheader("Chunk boundaries inside the passage", anchor=False)
    st.caption(render.BOUNDARY_LEGEND + ".")
    span = space.book.text[loc.char_start : loc.char_end]
    for run, label, match in zip(runs, labels, matches):
        marks = passage_marks(loc, match)
        held = (
            f"chunk {match.orders[0]} holds the whole passage"
            if not match.straddles
            else "no chunk holds all of it"
        )
        st.markdown(f"**{label}** — {len(marks)} boundary mark(s) inside; {held}.")
        st.html(render.boundary_marks_html(span, marks))
        for col, order in zip(st.columns(max(len(match.orders), 3)), match.orders):
            with col:
                open_button(run, run.chunks[order], key=f"retrieval_open_{run.policy.strategy}_{order}")


def search_tab(runs: Sequence[AppRun], labels: Sequence[str], retrievers: Sequence[str]) -> None:
    """Query box → per policy, the top-k hits of each retriever side by side, terms highlighted."""
    left, right = st.columns([4, 1])
    query = left.text_input("Query", key="retrieval_query", placeholder="a question or keywords")
    k = int(right.number_input("k", 1, 50, 5, key="retrieval_k"))
    if not query.strip():
        return
    for run, label in zip(runs, labels):
        st.subheader(label, anchor=False)
        for col, kind in zip(st.columns(len(retrievers)), retrievers):
            hits = chunk_index(run, kind).search(query, k)
            col.markdown(f"**{kind}**")
            if not hits:
                col.info("No chunk shares a word with the query.")
                continue
            col.dataframe(
                hits_table(hits), hide_index=True, key=f"retrieval_hits_{run.policy.strategy}_{kind}"
            )
            for h in hits:
                with col.expander(f"#{h.rank} · chunk {h.order} · score {h.score:.3f}"):
                    st.html(hit_html(h))


def evaluate_tab(runs: Sequence[AppRun], labels: Sequence[str], retrievers: Sequence[str]) -> None:
    """Explanation and definitions, n/k/seed, and (after the button) tables, figure, index scores."""
    st.markdown(EXPLANATION)
    defs = [*METRICS.values(), COST[1:], *INDEX_METRICS.values()]
    st.table({"metric": [name for name, _ in defs], "meaning": [text for _, text in defs]})
    c1, c2, c3 = st.columns(3)
    n = int(c1.number_input("Sentences (n)", 1, 2000, 200, key="retrieval_eval_n"))
    k = int(c2.number_input("Chunks retrieved (k)", 1, 50, 5, key="retrieval_eval_k"))
    seed = int(c3.number_input("Seed", 0, 2**31 - 1, 0, key="retrieval_eval_seed"))
    if st.button("Run evaluation", key="retrieval_eval_run", type="primary"):
        st.session_state["retrieval_eval_args"] = (n, k, seed)
    if "retrieval_eval_args" not in st.session_state:
        return
    n, k, seed = st.session_state["retrieval_eval_args"]
    parsed = book_index(runs[0])
    jobs = [(r, label, kind) for r, label in zip(runs, labels) for kind in retrievers]
    steps = len(jobs) * (2 if parsed.mapped else 1)
    bar = st.progress(0.0, text="Evaluating…")
    scores: list[PolicyScore] = []
    judged: list[IndexScore] = []
    for i, (r, label, kind) in enumerate(jobs):
        bar.progress(i / steps, text=f"Probes: {label} · {kind}")
        scores.extend(evaluation(r, label, kind, n, k, seed))
    if parsed.mapped:
        for i, (r, label, kind) in enumerate(jobs, start=len(jobs)):
            bar.progress(i / steps, text=f"Printed index: {label} · {kind}")
            judged.append(index_score(r, label, kind, k, seed))
    bar.progress(1.0, text="Evaluation done.")
    st.caption(f"n = {n} sentences drawn per zone (fewer if the book has fewer), k = {k}, seed = {seed}")
    st.dataframe(evaluation_table(scores), hide_index=True, key="retrieval_eval_table")
    st.plotly_chart(evaluation_figure(scores), key="retrieval_eval_fig", config=PLOTLY_CONFIG)
    st.subheader("The book's printed index as relevance judgments", anchor=False)
    if not parsed.mapped:
        st.text(
            f"No printed index with page references that map to pages was found "
            f"({len(parsed.entries)} entries parsed)."
        )
        return
    st.caption(
        f"Index on pages {parsed.page_start}–{parsed.page_end}: {len(parsed.entries)} entries parsed, "
        f"{len(parsed.mapped)} mapped to physical pages through the page labels; "
        f"{judged[0].queries if judged else 0} distinct entries queried."
    )
    st.dataframe(index_table(judged), hide_index=True, key="retrieval_index_table")
