"""App stage (retrieval view): cached retrieval objects, tables, HTML and figures for the Retrieval page.

Keeps ``pages/6_Retrieval.py`` thin. Cached builders key on the book's sha256 and the policy's
fields (never on widgets); everything else is a pure function of its data. Untrusted book text
only reaches HTML through ``inspector.render`` (escaped).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from chunking.evaluate import DROP_SHARE, PolicyScore, evaluate_chunks, sample_probes
from chunking.locate import ChunkMatch, Location, SearchSpace
from chunking.models import Book
from chunking.policy import Policy
from chunking.search import ChunkIndex, SearchHit, highlight_spans
from inspector import render
from inspector.state import AppRun

METRICS = {
    "hit_at_k": ("hit@k", "Share of sampled sentences that lie whole inside one of the k retrieved chunks."),
    "chapter_precision_at_k": ("chapter precision@k",
                               "Mean share of each retrieved chunk's text that lies in the sentence's chapter."),
    "iou": ("token IoU", "Sentence tokens retrieved ÷ (all retrieved tokens + sentence tokens missed)."),
    "precision": ("token precision", "Sentence tokens retrieved ÷ all retrieved tokens (a token in two "
                                     "overlapping chunks counts twice)."),
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
def _evaluation(sha256: str, items: tuple[tuple[str, Any], ...], n: int, k: int, seed: int, label: str,
                _run: AppRun) -> dict[str, Any]:
    probes = sample_probes(_run.tokenized, n, seed)
    return evaluate_chunks(probes, chunk_index(_run), k, label).to_dict()


def evaluation(run: AppRun, label: str, n: int, k: int, seed: int) -> PolicyScore:
    """Self-retrieval scores of one run, cached per (file, policy, n, k, seed)."""
    return PolicyScore(**_evaluation(run.source.sha256, policy_items(run.policy), n, k, seed, label, run))


def location_table(loc: Location) -> pd.DataFrame:
    """Where a found passage is: span, pages with printed labels, chapter, section, score."""
    def page(n: int, label: str) -> str:
        return f"{n}" + (f" (printed {label})" if label else "")
    rows = [("match score", f"{loc.score:.1f} / 100"),
            ("characters", f"[{loc.char_start:,}, {loc.char_end:,})"),
            ("pages", page(loc.page_start, loc.page_label_start)
             + ("" if loc.page_end == loc.page_start else f" to {page(loc.page_end, loc.page_label_end)}")),
            ("chapter", loc.chapter or "–"), ("section", loc.section or "–")]
    if loc.occurrences > 1:
        rows.append(("equally good places", str(loc.occurrences)))
    return pd.DataFrame(rows, columns=["", "value"])


def passage_html(text: str, loc: Location, *, context: int = 300) -> str:
    """The found span highlighted inside a little of the text around it (escaped)."""
    lo, hi = max(0, loc.char_start - context), min(len(text), loc.char_end + context)
    return render.text_block_html(text[lo:hi], [(loc.char_start - lo, loc.char_end - lo, "hit")])


def chunk_match_table(matches: Sequence[ChunkMatch]) -> pd.DataFrame:
    """One row per policy: which chunks hold the passage and whether it straddles a boundary."""
    return pd.DataFrame({
        "policy": [m.policy for m in matches],
        "chunks": [", ".join(f"#{o}" for o in m.orders) for m in matches],
        "straddles a boundary": ["yes" if m.straddles else "no" for m in matches],
        "cut off before": [m.cut_before[-120:] for m in matches],
        "cut off after": [m.cut_after[:120] for m in matches],
    })


def hits_table(hits: Sequence[SearchHit]) -> pd.DataFrame:
    """Ranked hits of one policy: score, chunk, pages, chapter, crossing flag, matched terms."""
    return pd.DataFrame({
        "rank": [h.rank for h in hits],
        "score": [round(h.score, 3) for h in hits],
        "chunk": [f"#{h.order}" for h in hits],
        "pages": [f"{h.page_start}" + ("" if h.page_end == h.page_start else f"–{h.page_end}") for h in hits],
        "chapter": [h.chapter for h in hits],
        "crosses chapter": ["⚠ yes" if h.crosses_chapter else "" for h in hits],
        "terms": [", ".join(h.terms) for h in hits],
    })


def hit_html(hit: SearchHit) -> str:
    """A hit's text with its matched query terms highlighted (escaped)."""
    return render.text_block_html(hit.text, [(s, e, "hit") for s, e in highlight_spans(hit.text, hit.terms)])


def evaluation_table(scores: Sequence[PolicyScore]) -> pd.DataFrame:
    """One row per policy, one column per metric (display names), rounded to 3 decimals."""
    data: dict[str, list] = {"policy": [s.policy for s in scores], "n": [s.n for s in scores],
                             "k": [s.k for s in scores]}
    for key, (name, _) in METRICS.items():
        data[name] = [round(getattr(s, key), 3) for s in scores]
    return pd.DataFrame(data)


def evaluation_figure(scores: Sequence[PolicyScore]) -> go.Figure:
    """Grouped bars: one group per metric, one bar per policy (all metrics lie in [0, 1])."""
    fig = go.Figure()
    names = [name for name, _ in METRICS.values()]
    for s in scores:
        fig.add_bar(name=s.policy, x=names, y=[getattr(s, key) for key in METRICS],
                    hovertemplate="%{x}: %{y:.3f}<extra>" + s.policy.replace("<", "&lt;") + "</extra>")
    fig.update_layout(barmode="group", yaxis={"range": [0, 1], "title": "mean over sampled sentences"},
                      height=360, margin={"t": 30, "b": 40}, legend={"orientation": "h", "y": -0.2})
    return fig
