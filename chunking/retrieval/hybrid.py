"""Dense and hybrid retrieval over one policy's chunks, and the one way to build any retriever.

* ``DenseIndex``: cosine similarity between the query's vector and each chunk's vector (an
  ``EmbeddingBackend``, WordLlama by default; vectors are unit length, so a dot product). Every
  chunk gets a score, so a dense search always returns ``k`` hits (``min(k, chunks)``).
* ``HybridIndex``: reciprocal rank fusion (RRF, Cormack et al. 2009) of the BM25 and the dense
  ranking: ``score(c) = sum over the two lists of 1 / (RRF_K + rank(c))`` with 1-based ranks, each
  list cut at ``FUSION_DEPTH``; a chunk missing from a list adds nothing for it. Ties are broken
  deterministically: the better (smaller) best rank in either list first, then the BM25 list's
  order (the list given first), then the chunk's position.
* ``build_index(kind, book, chunks, ...)``: ``"bm25"``, ``"dense"`` or ``"hybrid"`` (``RETRIEVERS``).
  Pass ``embeddings`` (``embed_chunks``' result, cached per book × policy by the caller) to skip
  embedding the chunks again.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..errors import UsageError
from ..models import Book, Chunk
from .embeddings import EmbeddingBackend, default_backend, embed_chunks
from ..models import RETRIEVERS
from .search import ChunkIndex, RankedIndex

RRF_K = 60
"""RRF's rank constant (the value of the original paper and of most search engines): it damps the
weight of the very top ranks so that one list cannot decide alone."""

FUSION_DEPTH = 100
"""How deep each list is read before fusing; a chunk below this rank in both lists is not fused."""


class DenseIndex(RankedIndex):
    """Chunk vectors of one policy; search by cosine similarity."""

    kind = "dense"

    def __init__(
        self, book: Book, chunks: Sequence[Chunk], vectors: np.ndarray, backend: EmbeddingBackend
    ) -> None:
        super().__init__(book, chunks)
        if len(vectors) != len(self.chunks):
            raise ValueError(f"{len(vectors)} vectors for {len(self.chunks)} chunks")
        self.vectors = vectors
        self.backend = backend

    @classmethod
    def build(
        cls,
        book: Book,
        chunks: Sequence[Chunk],
        backend: EmbeddingBackend | None = None,
        embeddings: np.ndarray | None = None,
    ) -> "DenseIndex":
        """Embed ``chunks`` (unless ``embeddings`` are given) with ``backend`` (default WordLlama)."""
        backend = backend or default_backend()
        vectors = embeddings if embeddings is not None else embed_chunks(chunks, backend)
        return cls(book, chunks, vectors, backend)

    def top_k(self, queries: Sequence[str], k: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """Per query, the ``k`` most similar chunks (indices, cosine scores), best first.

        Equal scores keep chunk order (a stable sort), so results are deterministic.
        """
        if not self.chunks or k < 1 or not queries:
            empty = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
            return [empty[0]] * len(queries), [empty[1]] * len(queries)
        sims = self.backend.embed(list(queries)) @ self.vectors.T
        k = min(k, len(self.chunks))
        docs, scores = [], []
        for row in sims:
            order = np.argsort(-row, kind="stable")[:k]
            docs.append(order.astype(np.int64))
            scores.append(row[order].astype(np.float32))
        return docs, scores


def rrf_fuse(
    rankings: Sequence[Sequence[int] | np.ndarray], k: int, rrf_k: int = RRF_K, depth: int = FUSION_DEPTH
) -> tuple[np.ndarray, np.ndarray]:
    """Fuse ranked lists of chunk indices by reciprocal rank (see the module docstring).

    Args:
        rankings (Sequence[Sequence[int]]): each a list of chunk indices, best first.
        k (int): how many fused results to return.
        rrf_k (int): the rank constant. Defaults to ``RRF_K``.
        depth (int): each list is read to this rank. Defaults to ``FUSION_DEPTH``.

    Returns:
        tuple[np.ndarray, np.ndarray]: the fused chunk indices (best first) and their RRF scores.
    """
    score: dict[int, float] = {}
    best: dict[int, tuple[int, int]] = {}
    for list_no, ranking in enumerate(rankings):
        for rank, doc in enumerate(list(ranking)[:depth], start=1):
            doc = int(doc)
            score[doc] = score.get(doc, 0.0) + 1.0 / (rrf_k + rank)
            best[doc] = min(best.get(doc, (rank, list_no)), (rank, list_no))
    order = sorted(score, key=lambda d: (-score[d], best[d], d))[: max(k, 0)]
    return np.array(order, dtype=np.int64), np.array([score[d] for d in order], dtype=np.float32)


class HybridIndex(RankedIndex):
    """BM25 and dense rankings of the same chunks, fused by ``rrf_fuse``."""

    kind = "hybrid"

    def __init__(self, bm25: ChunkIndex, dense: RankedIndex) -> None:
        """``dense``: a ``DenseIndex``, or any dense ranking of the same chunks (a store's)."""
        super().__init__(bm25.book, bm25.chunks, bm25._chunk_terms)
        self.bm25 = bm25
        self.dense = dense

    def top_k(self, queries: Sequence[str], k: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """Per query, the top ``k`` of the fused BM25 + dense ranking (indices, RRF scores)."""
        if k < 1 or not self.chunks:
            return self.bm25.top_k(queries, 0)
        depth = max(k, FUSION_DEPTH)
        lexical, _ = self.bm25.top_k(queries, depth)
        semantic, _ = self.dense.top_k(queries, depth)
        fused = [rrf_fuse([a, b], k) for a, b in zip(lexical, semantic)]
        return [f[0] for f in fused], [f[1] for f in fused]


def build_index(
    kind: str,
    book: Book,
    chunks: Sequence[Chunk],
    backend: EmbeddingBackend | None = None,
    embeddings: np.ndarray | None = None,
) -> RankedIndex:
    """The retriever ``kind`` (one of ``RETRIEVERS``) over ``chunks``.

    Raises:
        UsageError: an unknown ``kind``.
    """
    if kind == "bm25":
        return ChunkIndex.build(book, chunks)
    if kind == "dense":
        return DenseIndex.build(book, chunks, backend, embeddings)
    if kind == "hybrid":
        return HybridIndex(
            ChunkIndex.build(book, chunks), DenseIndex.build(book, chunks, backend, embeddings)
        )
    raise UsageError(f"unknown retriever {kind!r}; choose one of {', '.join(RETRIEVERS)}")
