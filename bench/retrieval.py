"""Retrieval bench (issue 16): fixed-window / chapter-window / section × bm25 / dense / hybrid.

``python bench/retrieval.py [--corpus DIR] [-n 200] [-k 5] [--seed 0] [--out bench/RETRIEVAL.md]``

On the sample books and the corpus books (``--corpus``, default the cache folder
``bench/corpus.py`` fetches them into, or ``$BOOK_CHUNK_CORPUS``) that have a printed index whose entries map to pages, for each policy
(every strategy at the default policy) × retriever:

* the probe evaluation (``chunking.retrieval.evaluate``): ``n`` random and ``n`` boundary-zone
  sentences (within ``probes.BOUNDARY_TOKENS`` tokens of a chapter start), hit@k, MRR, chapter
  purity and tokens per hit;
* the printed index as judgments: recall@k and nDCG@10, with how many entries were parsed and
  mapped;
* dense and hybrid again with each chunk embedded after its breadcrumb (``Book title › Chapter ›
  Section``, ``chunking.retrieval.breadcrumb``; rows ``… +breadcrumb``), on the same probes and
  judgments; the chunks, their stored text and BM25 are the same.

Each book is read and tokenized once, each policy chunked and embedded once; the three retrievers
share the vectors. Writes ``bench/RETRIEVAL.md`` (per-book tables, then the mean over the books per
policy × retriever) with the date and git commit. About a minute per big book on two busy cores.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import time
from collections import defaultdict
from pathlib import Path

from chunking.ingest import load_book
from chunking.models import STRATEGIES
from chunking.policy import Policy
from chunking.retrieval.book_index import parse_book_index
from chunking.retrieval.breadcrumb import embedding_texts
from chunking.retrieval.embeddings import default_backend, embed_chunks
from chunking.retrieval.evaluate import evaluate_chunks, evaluate_index, index_queries
from chunking.retrieval.hybrid import build_index
from chunking.retrieval.probes import BOUNDARY_TOKENS, boundary_probes, sample_probes
from chunking.models import RETRIEVERS
from chunking.strategies import chunk_book
from chunking.tokens import tokenize

import corpus

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SAMPLES = ROOT / "sample_books"
CORPUS = Path(os.environ.get("BOOK_CHUNK_CORPUS") or corpus.CACHE / "corpus")
"""The corpus books as ``bench/corpus.py`` fetches them (``fetch_corpus``), or ``$BOOK_CHUNK_CORPUS``."""
BOOK_SUFFIXES = (".pdf", ".epub", ".txt", ".md")
PROBE_METRICS = ("hit_at_k", "mrr", "chapter_purity", "tokens_per_hit")
INDEX_METRICS = ("recall_at_k", "ndcg_at_10")
BREADCRUMB_RETRIEVERS = ("dense", "hybrid")
"""Also run with the chunks embedded after their breadcrumb (issue 27; BM25 never sees it)."""
ROW_ORDER = (*RETRIEVERS, *(f"{kind} +breadcrumb" for kind in BREADCRUMB_RETRIEVERS))
"""The retriever rows of each policy, in table order."""


def has_index(path: Path) -> bool:
    """True when the book's printed index has at least one entry mapped to a page."""
    return bool(parse_book_index(load_book(path)).mapped)


def evaluate_book(path: Path, n: int, k: int, seed: int) -> dict:
    """Every policy × retriever on one book: probe rows (both zones) and index rows."""
    t0 = time.perf_counter()
    book = load_book(path)
    tokenized = tokenize(book)
    parsed = parse_book_index(book)
    queries = index_queries(parsed.entries, seed)
    span = (parsed.char_start, parsed.char_end)
    zones = {"random": sample_probes(tokenized, n, seed), "boundary": boundary_probes(tokenized, n, seed)}
    rows = []
    for strategy in STRATEGIES:
        chunks = chunk_book(tokenized, Policy(strategy=strategy))
        vectors = embed_chunks(chunks, default_backend())
        crumbs = default_backend().embed(embedding_texts(chunks, book.title, "breadcrumb"))
        runs = [(kind, kind, vectors) for kind in RETRIEVERS]
        runs += [(f"{kind} +breadcrumb", kind, crumbs) for kind in BREADCRUMB_RETRIEVERS]
        for label, kind, embedded in runs:
            index = build_index(kind, book, chunks, embeddings=embedded)
            row = {"policy": strategy, "retriever": label, "chunks": len(chunks)}
            for zone, probes in zones.items():
                score = evaluate_chunks(probes, index, k, strategy)
                for m in PROBE_METRICS:
                    row[f"{zone}_{m}"] = getattr(score, m)
            judged = evaluate_index(queries, index, k, strategy, span) if queries else None
            for m in INDEX_METRICS:
                row[m] = getattr(judged, m) if judged else None
            rows.append(row)
    return {
        "book": path.name,
        "pages": len(book.pages),
        "probes": {z: len(p) for z, p in zones.items()},
        "index": (len(parsed.entries), len(parsed.mapped), len(queries)),
        "rows": rows,
        "seconds": time.perf_counter() - t0,
    }


def _cell(v) -> str:
    if v is None:
        return "–"
    return f"{v:.0f}" if isinstance(v, float) and v > 1.5 else f"{v:.3f}" if isinstance(v, float) else str(v)


HEADER = (
    "| policy | retriever | rand hit@k | rand MRR | bnd hit@k | bnd MRR | bnd purity | bnd tokens/hit "
    "| index R@k | index nDCG@10 |\n|---|---|---|---|---|---|---|---|---|---|"
)
COLUMNS = (
    "random_hit_at_k",
    "random_mrr",
    "boundary_hit_at_k",
    "boundary_mrr",
    "boundary_chapter_purity",
    "boundary_tokens_per_hit",
    "recall_at_k",
    "ndcg_at_10",
)


def table(rows: list[dict]) -> str:
    lines = [HEADER]
    for r in rows:
        lines.append(
            f"| {r['policy']} | {r['retriever']} | " + " | ".join(_cell(r[c]) for c in COLUMNS) + " |"
        )
    return "\n".join(lines)


def means(results: list[dict]) -> list[dict]:
    """Per policy × retriever, the mean of each column over the books that have it."""
    acc: dict[tuple[str, str], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for res in results:
        for r in res["rows"]:
            for c in COLUMNS:
                if r[c] is not None:
                    acc[(r["policy"], r["retriever"])][c].append(r[c])
    out = []
    for (policy, kind), cols in acc.items():
        out.append(
            {"policy": policy, "retriever": kind}
            | {c: sum(v) / len(v) if v else None for c in COLUMNS for v in [cols.get(c, [])]}
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("-n", type=int, default=200)
    parser.add_argument("-k", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=HERE / "RETRIEVAL.md")
    args = parser.parse_args()
    t0 = time.perf_counter()
    samples = sorted(
        p for p in SAMPLES.iterdir() if p.suffix in BOOK_SUFFIXES and not p.stem.upper().startswith("README")
    )
    corpus_books = (
        sorted(p for p in args.corpus.iterdir() if p.suffix in BOOK_SUFFIXES) if args.corpus.is_dir() else []
    )
    skipped = [p.name for p in corpus_books if not has_index(p)]
    books = samples + [p for p in corpus_books if p.name not in skipped]
    results = []
    for path in books:
        res = evaluate_book(path, args.n, args.k, args.seed)
        print(f"{path.name}: {res['seconds']:.1f} s", flush=True)
        results.append(res)
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
    ).stdout.strip()
    out = [
        "# Retrieval bench (`bench/retrieval.py`)",
        "",
        f"Run {time.strftime('%Y-%m-%d')} at commit `{commit}`: `python bench/retrieval.py -n {args.n} -k {args.k} "
        f"--seed {args.seed}` ({time.perf_counter() - t0:.0f} s on this machine).",
        "",
        "Books: every sample book, and the corpus books whose printed index maps to pages "
        f"(skipped, no usable index: {', '.join(skipped) or 'none'}). Policies: every strategy at the default "
        "policy (512 tokens, 120 overlap, chapter fence). Retrievers: bm25 (bm25s), dense (WordLlama 256-d, "
        "offline), hybrid (reciprocal rank fusion, k = 60); *dense +breadcrumb* and *hybrid +breadcrumb* embed "
        "each chunk after its breadcrumb (Book title › Chapter › Section, `--embed-prefix breadcrumb`), "
        "for embedding only: the same chunks, stored text and BM25.",
        "",
        f"Columns: *rand* = {args.n} random probe sentences, *bnd* = up to {args.n} sentences within "
        f"{BOUNDARY_TOKENS} tokens of a chapter start; hit@k and MRR (sentence whole in a retrieved chunk), "
        "purity = share of retrieved tokens from the sentence's chapter, tokens/hit = retrieved tokens per "
        f"sentence found; *index* = the printed index's entries as queries (up to 300 per book), the chunks "
        f"covering the pages they name as relevant, recall@{args.k} (capped at k) and nDCG@10. k = {args.k}.",
        "",
        "## Mean over the books",
        "",
        table(sorted(means(results), key=lambda r: (r["policy"], ROW_ORDER.index(r["retriever"])))),
        "",
    ]
    for res in results:
        parsed, mapped, queried = res["index"]
        out += [
            f"## {res['book']} ({res['pages']} pages)",
            "",
            f"Probes: {res['probes']['random']} random, {res['probes']['boundary']} boundary. Printed index: "
            + (
                f"{parsed} entries parsed, {mapped} mapped to pages, {queried} queried."
                if parsed
                else "none found."
            ),
            "",
            table(res["rows"]),
            "",
        ]
    args.out.write_text("\n".join(out), encoding="utf-8")
    print(f"wrote {args.out} in {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
