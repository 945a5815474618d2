"""Retrieval debugging, stage 3: evaluation of chunk sets × retrievers (no LLM, no network).

Two relevance sets, both deterministic for a seed:

* **Probes** (``chunking.retrieval.probes``): sentences of the book turned into damaged queries,
  drawn at random or from the boundary zones near chapter starts. ``evaluate_chunks(probes, index,
  k, label)`` retrieves the top ``k`` chunks of one policy with one retriever (any
  ``RankedIndex``: BM25, dense, hybrid) for every probe's query and averages the metrics below.
  It is a *proxy*: it measures how well a policy's chunks keep a sentence findable and whole, not
  answer quality.
* **The book's printed index** (``chunking.retrieval.book_index``): ``evaluate_index(entries,
  index, k, label)`` uses each entry's term as the query and the chunks covering its pages as the
  relevant set (see ``evaluate_index``).

Probe metrics, for one probe with evidence E (the sentence's tokens, a half-open range) and
retrieved chunks C_1..C_r (r ≤ k, token ranges, best first):

* ``hit_at_k``: 1 when some C_i contains the whole sentence (in characters), else 0.
* ``mrr``: 1 / i for the first such C_i, 0 when none (mean reciprocal rank).
* ``chapter_precision_at_k``: the mean over C_1..C_r of the share of the chunk's characters that
  lie in the sentence's chapter-level unit (between two consecutive fences); 0 when r = 0.
* ``chapter_purity``: the share of all retrieved tokens, Σ|C_i ∩ U| / Σ|C_i|, that lie in the
  sentence's chapter-level unit U (token-weighted, where chapter precision weighs chunks alike).
* ``tokens_per_hit``: Σ over probes of Σ|C_i|, divided by the number of probes with a hit: what
  a reader pays in context per sentence found (lower is better; None when nothing was hit).
* Token metrics, as Chroma's chunking evaluation defines them (canonical tokens, fixed k):
  ``I = |E ∩ (C_1 ∪ … ∪ C_r)|``, ``precision = I / Σ|C_i|`` (a token held by two overlapping
  chunks counts twice), ``recall = I / |E|``, ``iou = I / (Σ|C_i| + |E| - I)``; 0 when r = 0.

Every reported value except ``tokens_per_hit`` is a mean over the probes.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Sequence

import numpy as np

from ..models import Chunk
from .probes import DROP_SHARE, Probe, boundary_probes, make_query, sample_probes
from .search import RankedIndex, chapter_starts

__all__ = [
    "DROP_SHARE",
    "PolicyScore",
    "Probe",
    "IndexScore",
    "boundary_probes",
    "evaluate_index",
    "index_queries",
    "chapter_share",
    "evaluate_chunks",
    "make_query",
    "sample_probes",
    "span_metrics",
]


@dataclass(frozen=True)
class PolicyScore:
    """Mean metrics of one policy (see the module docstring for the definitions).

    Attributes:
        policy (str): the policy's label.
        n (int): probes evaluated.
        k (int): chunks retrieved per probe at most.
        hit_at_k (float): share of probes whose sentence lies whole in a retrieved chunk.
        chapter_precision_at_k (float): mean share of retrieved chunks from the sentence's chapter.
        iou (float): mean token IoU.
        precision (float): mean token precision.
        recall (float): mean token recall.
        mrr (float): mean reciprocal rank of the first chunk holding the whole sentence.
        chapter_purity (float): share of retrieved tokens from the sentence's chapter.
        tokens_per_hit (float | None): retrieved tokens per sentence found (None: none found).
        retriever (str): the retriever (``RETRIEVERS``).
        zone (str): where the probes were drawn (``probes.ZONES``).
    """

    policy: str
    n: int
    k: int
    hit_at_k: float
    chapter_precision_at_k: float
    iou: float
    precision: float
    recall: float
    mrr: float = 0.0
    chapter_purity: float = 0.0
    tokens_per_hit: float | None = None
    retriever: str = "bm25"
    zone: str = "random"

    def to_dict(self) -> dict[str, Any]:
        """The ``evaluate --json`` record (metrics rounded to 4 decimals)."""
        return {k: round(v, 4) if isinstance(v, float) else v for k, v in asdict(self).items()}


def span_metrics(
    evidence: tuple[int, int], retrieved: Sequence[tuple[int, int]]
) -> tuple[float, float, float]:
    """Token precision, recall and IoU of retrieved ranges against one evidence range.

    Args:
        evidence (tuple[int, int]): half-open token range of the sentence.
        retrieved (Sequence[tuple[int, int]]): half-open token ranges of the retrieved chunks.

    Returns:
        tuple[float, float, float]: ``(precision, recall, iou)`` as the module docstring defines.
    """
    e0, e1 = evidence
    if not retrieved or e1 <= e0:
        return 0.0, 0.0, 0.0
    covered = np.zeros(e1 - e0, dtype=bool)
    for c0, c1 in retrieved:
        lo, hi = max(c0, e0), min(c1, e1)
        if lo < hi:
            covered[lo - e0 : hi - e0] = True
    inter = int(covered.sum())
    total = sum(c1 - c0 for c0, c1 in retrieved)
    precision = inter / total if total else 0.0
    return precision, inter / (e1 - e0), inter / (total + (e1 - e0) - inter)


def chapter_share(unit: int, retrieved: Sequence[Chunk], bounds: Sequence[int]) -> float:
    """Mean share of each retrieved chunk's characters that lie in chapter-level unit ``unit``.

    Args:
        unit (int): the unit index (``bisect_right(bounds, offset)``).
        retrieved (Sequence[Chunk]): the retrieved chunks.
        bounds (Sequence[int]): ``chapter_starts(book)``.

    Returns:
        float: 0 when nothing was retrieved.
    """
    if not retrieved:
        return 0.0
    u_start = bounds[unit - 1] if unit > 0 else 0
    u_end = bounds[unit] if unit < len(bounds) else max(c.char_end for c in retrieved)
    shares = [
        max(0, min(c.char_end, u_end) - max(c.char_start, u_start)) / max(c.char_end - c.char_start, 1)
        for c in retrieved
    ]
    return sum(shares) / len(shares)


def chapter_purity(probe: Probe, retrieved: Sequence[Chunk], bounds: Sequence[int]) -> tuple[int, int]:
    """``(tokens of the retrieved chunks inside the probe's unit, all retrieved tokens)``.

    Uses the probe's unit token range; without one (``unit_token_end == -1``) each chunk's tokens
    are weighted by its character share inside the unit.
    """
    total = sum(c.token_count for c in retrieved)
    if probe.unit_token_end >= 0:
        u0, u1 = probe.unit_token_start, probe.unit_token_end
        inside = sum(max(0, min(c.token_end, u1) - max(c.token_start, u0)) for c in retrieved)
        return inside, total
    inside_f = sum(chapter_share(probe.unit, [c], bounds) * c.token_count for c in retrieved)
    return round(inside_f), total


def evaluate_chunks(probes: Sequence[Probe], index: RankedIndex, k: int, label: str) -> PolicyScore:
    """Retrieve the top ``k`` chunks for each probe and average the metrics.

    Args:
        probes (Sequence[Probe]): from ``sample_probes`` or ``boundary_probes`` (same book).
        index (RankedIndex): one policy's chunk index (BM25, dense or hybrid).
        k (int): chunks retrieved per probe at most.
        label (str): the policy's label to report.

    Returns:
        PolicyScore: means over the probes (all 0 when there are no probes).
    """
    bounds = chapter_starts(index.book)
    docs, _ = index.top_k([p.query for p in probes], k) if probes else ([], [])
    rows = []
    inside_tokens = all_tokens = hits = 0
    for probe, found in zip(probes, docs):
        chunks = [index.chunks[i] for i in found]
        rank = next(
            (
                r
                for r, c in enumerate(chunks, 1)
                if c.char_start <= probe.char_start and probe.char_end <= c.char_end
            ),
            0,
        )
        precision, recall, iou = span_metrics(
            (probe.token_start, probe.token_end), [(c.token_start, c.token_end) for c in chunks]
        )
        inside, total = chapter_purity(probe, chunks, bounds)
        inside_tokens, all_tokens, hits = inside_tokens + inside, all_tokens + total, hits + bool(rank)
        rows.append(
            (
                float(bool(rank)),
                chapter_share(probe.unit, chunks, bounds),
                iou,
                precision,
                recall,
                1 / rank if rank else 0.0,
            )
        )
    means = np.mean(rows, axis=0).tolist() if rows else [0.0] * 6
    hit, chapter, iou, precision, recall, mrr = means
    return PolicyScore(
        label,
        len(probes),
        k,
        hit,
        chapter,
        iou,
        precision,
        recall,
        mrr=mrr,
        chapter_purity=inside_tokens / all_tokens if all_tokens else 0.0,
        tokens_per_hit=all_tokens / hits if hits else None,
        retriever=index.kind,
        zone=probes[0].zone if probes else "random",
    )


INDEX_QUERIES = 300
"""At most this many index entries are queried per book (a seeded sample; the bench stays short)."""

NDCG_DEPTH = 10
"""nDCG is computed over the first this many chunks (nDCG@10)."""


@dataclass(frozen=True)
class IndexScore:
    """Scores of one policy × retriever against the book's printed index.

    Attributes:
        policy (str): the policy's label.
        retriever (str): the retriever.
        k (int): the recall cut-off.
        queries (int): entries queried (distinct queries with at least one mapped page).
        recall_at_k (float): mean of |relevant ∩ top k| / min(|relevant|, k).
        ndcg_at_10 (float): mean nDCG@10 with binary gains.
        relevant_per_query (float): mean number of relevant chunks per query.
    """

    policy: str
    retriever: str
    k: int
    queries: int
    recall_at_k: float
    ndcg_at_10: float
    relevant_per_query: float

    def to_dict(self) -> dict[str, Any]:
        """The ``evaluate --book-index --json`` row (metrics rounded to 4 decimals)."""
        return {k: round(v, 4) if isinstance(v, float) else v for k, v in asdict(self).items()}


def index_queries(
    entries: Sequence[Any], seed: int, limit: int = INDEX_QUERIES
) -> list[tuple[str, tuple[int, ...]]]:
    """Distinct ``(query, pages)`` of the mapped entries (pages of equal queries merged), at most
    ``limit`` drawn with ``seed``, in index order."""
    merged: dict[str, set[int]] = {}
    for e in entries:
        if e.pages and e.query.strip():
            merged.setdefault(e.query, set()).update(e.pages)
    items = [(q, tuple(sorted(p))) for q, p in merged.items()]
    if len(items) > limit:
        rng = np.random.default_rng(seed)
        items = [items[i] for i in sorted(rng.choice(len(items), size=limit, replace=False).tolist())]
    return items


def ndcg(ranked_relevant: Sequence[bool], n_relevant: int, depth: int = NDCG_DEPTH) -> float:
    """Binary-gain nDCG@depth: Σ rel_i / log2(i + 1) over the ideal ordering's value."""
    dcg = sum(1.0 / np.log2(i + 2) for i, rel in enumerate(ranked_relevant[:depth]) if rel)
    ideal = sum(1.0 / np.log2(i + 2) for i in range(min(n_relevant, depth)))
    return dcg / ideal if ideal else 0.0


def evaluate_index(
    queries: Sequence[tuple[str, tuple[int, ...]]],
    index: RankedIndex,
    k: int,
    label: str,
    exclude: tuple[int, int] = (-1, -1),
) -> IndexScore:
    """Score one policy × retriever with the printed index's entries as judged queries.

    A chunk is relevant to an entry when its page span covers one of the entry's pages. Chunks
    overlapping ``exclude`` (the index pages' character span: they list every term) are dropped
    from the ranking before it is cut, and are never relevant.

    Args:
        queries (Sequence[tuple[str, tuple[int, ...]]]): ``index_queries``' result.
        index (RankedIndex): one policy's chunk index.
        k (int): the recall cut-off.
        label (str): the policy's label.
        exclude (tuple[int, int]): character span of the index itself. Defaults to none.
    """
    x0, x1 = exclude
    banned = {i for i, c in enumerate(index.chunks) if c.char_start < x1 and x0 < c.char_end}
    depth = max(k, NDCG_DEPTH)
    docs, _ = index.top_k([q for q, _ in queries], depth + len(banned)) if queries else ([], [])
    recalls, ndcgs, sizes = [], [], []
    for (_, pages), found in zip(queries, docs):
        wanted = set(pages)
        relevant = {
            i
            for i, c in enumerate(index.chunks)
            if i not in banned and any(c.page_start <= p <= c.page_end for p in wanted)
        }
        ranked = [int(i) for i in found if int(i) not in banned][:depth]
        if not relevant:
            continue
        flags = [i in relevant for i in ranked]
        recalls.append(sum(flags[:k]) / min(len(relevant), k))
        ndcgs.append(ndcg(flags, len(relevant)))
        sizes.append(len(relevant))
    mean = lambda xs: float(np.mean(xs)) if xs else 0.0  # noqa: E731
    return IndexScore(label, index.kind, k, len(recalls), mean(recalls), mean(ndcgs), mean(sizes))
