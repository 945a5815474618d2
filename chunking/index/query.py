"""A store's chunks as the retrieval indexes search them (``search --store``, the Retrieval page).

Why: a store built by ``index`` should answer like the in-memory search of the same chunks, with
the same hits, flags and ``--expand`` slices. So the store is read back into what the retrieval
code already takes: the chunks (every field, links included), a ``Book`` whose canonical text is
rebuilt from the chunks (they tile the text: each chunk is an exact slice) and whose headings are
the manifest's outline. Dense ranking is LanceDB's own exact nearest-neighbour search over the
stored vectors (``StoreDenseIndex``); hybrid fuses it with BM25 over the stored texts
(``chunking.retrieval.hybrid.HybridIndex``); the embedded prefix never reaches BM25.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..errors import UnreadableInputError, UsageError
from ..models import Book, Chunk, Diagnostics, Heading
from ..retrieval.embeddings import EmbeddingBackend
from ..retrieval.search import RankedIndex
from .store import BookRecord, Store


@dataclass(frozen=True)
class StoredBook:
    """What a store holds, read back.

    Attributes:
        record (BookRecord): the store's record.
        book (Book): canonical text rebuilt from the chunks, headings from the manifest.
        chunks (list[Chunk]): the stored chunks, in order.
        gaps (tuple[tuple[int, int], ...]): spans of the text no chunk holds (whitespace by rule
            5; shown as spaces, never returned as a slice).
    """

    record: BookRecord
    book: Book
    chunks: list[Chunk]
    gaps: tuple[tuple[int, int], ...] = ()

    def exact_slice(self, start: int, end: int) -> str:
        """``canonical_text[start:end]``.

        Raises:
            UnreadableInputError: part of the span is in no stored chunk.
        """
        if any(a < end and start < b for a, b in self.gaps):
            raise UnreadableInputError(f"characters {start}-{end} are not all in the stored chunks")
        return self.book.text[start:end]


def rebuild_text(chunks: Sequence[Chunk]) -> tuple[str, tuple[tuple[int, int], ...]]:
    """The canonical text from chunks in order (each ``text == canonical[char_start:char_end]``),
    and the gaps no chunk covers (filled with spaces).

    Raises:
        UnreadableInputError: two chunks disagree about the text they share.
    """
    pieces: list[str] = []
    gaps: list[tuple[int, int]] = []
    end = 0
    prev: Chunk | None = None
    for c in chunks:
        if c.char_start > end:
            gaps.append((end, c.char_start))
            pieces.append(" " * (c.char_start - end))
            end = c.char_start
        if prev is not None and prev.char_start <= c.char_start < prev.char_end:
            shared = prev.text[c.char_start - prev.char_start :]
            if not (c.text.startswith(shared) or shared.startswith(c.text)):
                raise UnreadableInputError(f"stored chunk {c.order} disagrees with the one before it")
        if c.char_end > end:
            pieces.append(c.text[end - c.char_start :])
            end = c.char_end
        prev = c
    return "".join(pieces), tuple(gaps)


def _headings(record: BookRecord) -> tuple[Heading, ...]:
    try:
        outline = record.manifest["structure"]["outline"]
        return tuple(
            Heading(**dict(h, evidence=tuple(tuple(pair) for pair in h.get("evidence", ())))) for h in outline
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise UnreadableInputError(f"the store's manifest has no readable outline: {exc}") from None


def read_store(store: Store) -> StoredBook:
    """The store's book and chunks.

    Raises:
        UnreadableInputError: the store is empty or unreadable.
    """
    record = store.record()
    if record is None or not store.has_table(record.table):
        raise UnreadableInputError(f"{store.path}: the store holds no book yet (run 'chunking index')")
    chunks, _ = store.chunks(record.table)
    text, gaps = rebuild_text(chunks)
    book = Book(
        book_id=record.book_id,
        sha256=record.sha256,
        title=record.title,
        format=str(record.manifest.get("book", {}).get("format") or ""),
        text=text,
        pages=(),
        headings=_headings(record),
        diagnostics=Diagnostics(),
        source_name=str(record.manifest.get("book", {}).get("source_name") or ""),
        corrections=str(record.manifest.get("corrections") or ""),
    )
    return StoredBook(record, book, chunks, gaps)


def check_model(record: BookRecord, backend: EmbeddingBackend) -> None:
    """Refuse to query a store with another model than the one that built it.

    Raises:
        UsageError: the models differ.
    """
    if record.model != backend.name:
        raise UsageError(
            f"the store's vectors are from {record.model!r}; this search embeds with {backend.name!r}"
        )


class StoreDenseIndex(RankedIndex):
    """Dense ranking by LanceDB's exact search over a store's vectors (dot product of unit vectors)."""

    kind = "dense"

    def __init__(self, stored: StoredBook, store: Store, backend: EmbeddingBackend) -> None:
        check_model(stored.record, backend)
        super().__init__(stored.book, stored.chunks)
        self.table = store.chunk_table(stored.record.table)
        self.backend = backend
        self._position = {c.id: i for i, c in enumerate(self.chunks)}

    def top_k(self, queries: Sequence[str], k: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """Per query, the ``k`` chunks with the most similar stored vectors (indices, cosine)."""
        empty = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
        k = min(k, len(self.chunks))
        if not queries or k < 1:
            return [empty[0]] * len(queries), [empty[1]] * len(queries)
        docs, scores = [], []
        for v in self.backend.embed(list(queries)):
            rows = self.table.search(v).distance_type("dot").select(["id", "_distance"]).limit(k).to_list()
            # NOTE: LanceDB's "dot" distance is 1 - the dot product; equal scores keep chunk order
            ranked = sorted((float(r["_distance"]), self._position[r["id"]]) for r in rows)
            docs.append(np.array([i for _, i in ranked], dtype=np.int64))
            scores.append(np.array([1.0 - d for d, _ in ranked], dtype=np.float32))
        return docs, scores


def store_index(kind: str, stored: StoredBook, store: Store, backend: EmbeddingBackend) -> RankedIndex:
    """The retriever ``kind`` over the store's chunks (``RETRIEVERS``).

    Raises:
        UsageError: an unknown ``kind``.
    """
    from ..retrieval.hybrid import HybridIndex
    from ..retrieval.search import ChunkIndex

    if kind == "bm25":
        return ChunkIndex.build(stored.book, stored.chunks)
    if kind == "dense":
        return StoreDenseIndex(stored, store, backend)
    if kind == "hybrid":
        return HybridIndex(
            ChunkIndex.build(stored.book, stored.chunks), StoreDenseIndex(stored, store, backend)
        )
    raise UsageError(f"unknown retriever {kind!r}")
