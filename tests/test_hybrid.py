"""Hybrid retrieval (chunking.retrieval.hybrid): reciprocal rank fusion as documented (RRF_K = 60,
1-based ranks, deterministic ties), and the hybrid index fuses exactly the BM25 and dense lists."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from chunking.ingest import load_book
from chunking.policy import Policy
from chunking.retrieval.hybrid import FUSION_DEPTH, RRF_K, HybridIndex, build_index, rrf_fuse
from chunking.strategies import chunk_book
from chunking.tokens import tokenize

ROOT = Path(__file__).resolve().parent.parent


def test_rrf_scores_are_the_sum_of_reciprocal_ranks_on_a_hand_computed_case():
    docs, scores = rrf_fuse([[3, 1, 2], [1, 4]], k=10)
    # 1: 1/62 + 1/61; 3: 1/61; 4: 1/62; 2: 1/63
    assert RRF_K == 60
    assert docs.tolist() == [1, 3, 4, 2]
    assert scores.tolist() == pytest.approx([1 / 62 + 1 / 61, 1 / 61, 1 / 62, 1 / 63])
    assert rrf_fuse([[3, 1, 2], [1, 4]], k=2)[0].tolist() == [1, 3]


def test_rrf_ties_go_to_the_better_best_rank_then_the_first_list_then_the_chunk():
    # 5 and 6 both score 1/61 + 1/62; both have best rank 1; 5 got it in the first list
    assert rrf_fuse([[5, 6], [6, 5]], k=2)[0].tolist() == [5, 6]
    assert rrf_fuse([[6, 5], [5, 6]], k=2)[0].tolist() == [6, 5]
    # 8 and 9 tie on everything but the chunk number
    assert rrf_fuse([[8], [9]], k=2)[0].tolist() == [8, 9]
    # a list is read only to the given depth
    assert rrf_fuse([[1, 2, 3]], k=3, depth=2)[0].tolist() == [1, 2]


def test_hybrid_index_fuses_the_bm25_and_dense_rankings_of_a_sample_book():
    book = load_book(ROOT / "sample_books" / "r-intro.pdf")
    chunks = chunk_book(tokenize(book), Policy(strategy="fixed-window"))
    hybrid = build_index("hybrid", book, chunks)
    assert isinstance(hybrid, HybridIndex)
    queries = ["generalized linear models", "how to read data from a file"]
    lexical, _ = hybrid.bm25.top_k(queries, FUSION_DEPTH)
    semantic, _ = hybrid.dense.top_k(queries, FUSION_DEPTH)
    docs, scores = hybrid.top_k(queries, 5)
    for q in range(len(queries)):
        expected = rrf_fuse([lexical[q], semantic[q]], 5)
        assert docs[q].tolist() == expected[0].tolist()
        assert np.allclose(scores[q], expected[1])
    hits = hybrid.search(queries[0], 5)
    assert [h.order for h in hits] == [chunks[i].order for i in docs[0]]
