"""``python -m chunking evaluate BOOK [--policy …]… [--retriever R]… [-n 200] [-k 5] [--seed 0]
[--book-index] [--json]``.

Without ``--book-index``: the probe evaluation (``chunking.retrieval.evaluate``): ``n`` random
sentences and ``n`` sentences from the boundary zones (within ``probes.BOUNDARY_TOKENS`` tokens of
a chapter start), drawn with ``seed``, become damaged queries; each policy's chunks are searched
with each retriever (default: bm25, dense and hybrid) and scored on hit@k, MRR, chapter
precision@k, chapter purity, tokens per hit and Chroma-style token IoU / precision / recall.
Prints a table, or with ``--json`` a list of ``{"policy", "retriever", "zone", "n", "k",
"hit_at_k", "mrr", "chapter_precision_at_k", "chapter_purity", "tokens_per_hit", "iou",
"precision", "recall"}``.

With ``--book-index``: the book's printed index is parsed (``chunking.retrieval.book_index``),
its entries mapped to physical pages through the page labels, and each policy × retriever is
scored by recall@k and nDCG@10 with the entry's term as the query. Prints how many entries were
parsed and mapped and a table, or with ``--json`` ``{"index_pages", "entries_parsed",
"entries_mapped", "queries", "scores": [{"policy", "retriever", "k", "queries", "recall_at_k",
"ndcg_at_10", "relevant_per_query"}]}``. Exit 0 (also for a book without an index: no scores).
"""

from __future__ import annotations

import json as jsonlib
from typing import Any

from ..errors import UsageError
from ..models import STRATEGIES
from ..policy import Policy
from ..retrieval.book_index import parse_book_index
from ..retrieval.embeddings import default_backend, embed_chunks
from ..retrieval.evaluate import evaluate_chunks, evaluate_index, index_queries
from ..retrieval.hybrid import build_index
from ..retrieval.probes import boundary_probes, sample_probes
from ..models import RETRIEVERS
from ..structure_file import load_optional
from ..analysis.compare import chunked_runs
from ..policy import parse_policies

COLUMNS = ("hit_at_k", "mrr", "chapter_precision_at_k", "chapter_purity", "tokens_per_hit", "iou", "recall")
"""Probe metrics printed in the text table (``--json`` has every metric)."""

INDEX_COLUMNS = ("queries", "recall_at_k", "ndcg_at_10", "relevant_per_query")
"""Index metrics printed in the text table."""


def run(
    *,
    book: str,
    policy: list[str],
    n: int,
    k: int,
    seed: int,
    json: bool,
    structure_file: str | None = None,
    retriever: list[str] | None = None,
    book_index: bool = False,
) -> int:
    """Evaluate each policy × retriever on one book and print the scores.

    Raises:
        UsageError: ``n`` or ``k`` below 1, or a negative seed.
        PolicyError: a policy spec is invalid.
        UnreadableInputError: the book cannot be read.
    """
    for name, value, low in (("-n", n, 1), ("-k", k, 1), ("--seed", seed, 0)):
        if value < low:
            raise UsageError(f"{name} must be at least {low}; got {value}")
    retrievers = list(dict.fromkeys(retriever or RETRIEVERS))
    policies = parse_policies(policy, [Policy(strategy=s) for s in STRATEGIES])
    runs = chunked_runs(book, policies, load_optional(structure_file))
    rows: list[dict[str, Any]] = []
    cache: dict[int, Any] = {}
    for r in runs:
        key = id(r.tokenized)
        if key not in cache:
            if book_index:
                parsed = parse_book_index(r.book)
                cache[key] = (parsed, index_queries(parsed.entries, seed))
            else:
                cache[key] = (sample_probes(r.tokenized, n, seed), boundary_probes(r.tokenized, n, seed))
        vectors = embed_chunks(r.chunks, default_backend()) if set(retrievers) - {"bm25"} else None
        for kind in retrievers:
            index = build_index(kind, r.book, r.chunks, embeddings=vectors)
            if book_index:
                parsed, queries = cache[key]
                span = (parsed.char_start, parsed.char_end)
                rows.append(evaluate_index(queries, index, k, r.label, span).to_dict())
            else:
                for probes in cache[key]:
                    rows.append(_ordered(evaluate_chunks(probes, index, k, r.label).to_dict()))
    if book_index:
        parsed, queries = cache[id(runs[0].tokenized)]
        report = {
            "index_pages": [parsed.page_start, parsed.page_end],
            "entries_parsed": len(parsed.entries),
            "entries_mapped": len(parsed.mapped),
            "queries": len(queries),
            "scores": rows,
        }
        print(jsonlib.dumps(report, indent=1) if json else _index_text(report))
        return 0
    print(
        jsonlib.dumps(rows, indent=1)
        if json
        else format_table(rows, ("policy", "retriever", "zone", "n", "k"), COLUMNS)
    )
    return 0


def _ordered(row: dict[str, Any]) -> dict[str, Any]:
    """Identity columns first, as the docstring lists them."""
    head = {key: row[key] for key in ("policy", "retriever", "zone", "n", "k")}
    return head | {key: v for key, v in row.items() if key not in head}


def _index_text(report: dict[str, Any]) -> str:
    first, last = report["index_pages"]
    head = (
        f"printed index: pages {first}-{last}, {report['entries_parsed']} entries parsed, "
        f"{report['entries_mapped']} mapped to pages, {report['queries']} queried"
        if report["entries_parsed"]
        else "no printed index found (or it has no page references)"
    )
    return head + "\n" + format_table(report["scores"], ("policy", "retriever", "k"), INDEX_COLUMNS)


def format_table(rows: list[dict[str, Any]], keys: tuple[str, ...], columns: tuple[str, ...]) -> str:
    """Plain-text table: identity ``keys`` then the metric ``columns`` (3 decimals)."""

    def cell(v: Any) -> str:
        return "-" if v is None else f"{v:.3f}" if isinstance(v, float) else str(v)

    table = [list(keys) + list(columns)] + [[cell(r[c]) for c in (*keys, *columns)] for r in rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    return "\n".join(
        "  ".join(c.ljust(w) if i < len(keys) else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths)))
        for row in table
    )
