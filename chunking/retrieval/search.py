"""Retrieval debugging, stage 2: BM25 search over one policy's chunks of one book.

Contract: ``ChunkIndex.build(book, chunks)`` indexes the chunk texts with ``bm25s`` (lower-cased
words of two or more letters, English stop words removed, no stemming). Build one index per
book × policy and keep it (the CLI builds it once per run, the app caches it).
``ChunkIndex.search(query, k)`` returns at most ``k`` ``SearchHit``s, best first, only chunks that
share at least one query term (score > 0). Each hit names the query terms it matched, its pages,
chapter, and ``crosses_chapter``: a chapter-level (or part) heading starts strictly inside the
chunk's span (after some non-whitespace text of the chunk), i.e. the chunk mixes two chapters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

if TYPE_CHECKING:  # NOTE: bm25s is slow to import; the app and commands import this module early
    import bm25s
    from bm25s.tokenization import Tokenizer

from ..models import Book, Chunk
from ..rules import crosses_fence, fence_offsets

TOKEN_PATTERN = r"(?u)\b\w\w+\b"
"""bm25s's word pattern; highlighting uses the same so a highlighted word is a matched term."""

_WORD = re.compile(TOKEN_PATTERN)


@dataclass
class SearchHit:
    """One retrieved chunk.

    Attributes:
        rank (int): 1-based rank.
        id (str): chunk id.
        order (int): chunk order in its policy's chunk list.
        score (float): the retriever's score: BM25, cosine similarity (dense) or fused reciprocal
            rank (hybrid); higher is better, comparable within one index only.
        page_start (int): first physical page of the chunk.
        page_end (int): last physical page.
        page_label_start (str): printed label of ``page_start``.
        page_label_end (str): printed label of ``page_end``.
        chapter (str): the chunk's chapter title.
        section (str): the chunk's section title.
        crosses_chapter (bool): a chapter-level heading starts strictly inside the chunk.
        terms (list[str]): query terms found in the chunk, in query order.
        char_start (int): chunk span start in ``book.text``.
        char_end (int): chunk span end (exclusive).
        text (str): the chunk's text.
    """

    rank: int
    id: str
    order: int
    score: float
    page_start: int
    page_end: int
    page_label_start: str
    page_label_end: str
    chapter: str
    section: str
    crosses_chapter: bool
    terms: list[str] = field(default_factory=list)
    char_start: int = 0
    char_end: int = 0
    text: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The ``search --json`` record of one hit."""
        return {
            "id": self.id,
            "score": round(self.score, 4),
            "page_start": self.page_start,
            "page_end": self.page_end,
            "chapter": self.chapter,
            "crosses_chapter": self.crosses_chapter,
        }


def chapter_starts(book: Book) -> list[int]:
    """Sorted offsets where a chapter-level unit or a part starts (``rules.fence_offsets``)."""
    return fence_offsets(book, "chapter")


def crosses_chapter(book: Book, chunk: Chunk, starts: Sequence[int] | None = None) -> bool:
    """True when a chapter-level or part heading starts strictly inside ``chunk``'s span.

    Args:
        book (Book): the book.
        chunk (Chunk): one of its chunks.
        starts (Sequence[int] | None): ``chapter_starts(book)``, when the caller has it.
            Defaults to None (computed).
    """
    starts = chapter_starts(book) if starts is None else starts
    return crosses_fence(book.text, chunk.char_start, chunk.char_end, starts)


def query_terms(query: str) -> list[str]:
    """The words of ``query`` BM25 scores with: lower-cased, stop words removed, first occurrence kept.

    Args:
        query (str): free text.

    Returns:
        list[str]: distinct terms in query order.
    """
    from bm25s.tokenization import Tokenizer

    words = Tokenizer(stopwords="en").tokenize(
        [query], update_vocab=True, return_as="string", show_progress=False
    )[0]
    return list(dict.fromkeys(w for w in words if w))


def highlight_spans(text: str, terms: Sequence[str]) -> list[tuple[int, int]]:
    """Spans of ``text`` whose word (bm25s's pattern, case-insensitive) is one of ``terms``."""
    wanted = {t.lower() for t in terms}
    return [m.span() for m in _WORD.finditer(text) if m.group().lower() in wanted]


def word_set(text: str) -> frozenset[str]:
    """The lower-cased words of ``text`` (bm25s's word pattern): what a hit's ``terms`` are read from."""
    return frozenset(w.lower() for w in _WORD.findall(text))


class RankedIndex:
    """What every retriever shares: its chunks, their chapter-crossing flags and ``search``.

    Subclasses implement ``top_k(queries, k)``; ``search`` turns its result into ``SearchHit``s.

    Attributes:
        book (Book): the book the chunks were cut from.
        chunks (list[Chunk]): the indexed chunks, in order.
        kind (str): one of ``RETRIEVERS``.
    """

    kind = ""

    def __init__(
        self, book: Book, chunks: Sequence[Chunk], chunk_terms: list[frozenset[str]] | None = None
    ) -> None:
        self.book = book
        self.chunks = list(chunks)
        self._chunk_terms = chunk_terms if chunk_terms is not None else [word_set(c.text) for c in chunks]
        starts = chapter_starts(book)
        self._crosses = np.array([crosses_chapter(book, c, starts) for c in self.chunks], dtype=bool)

    def top_k(self, queries: Sequence[str], k: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """Per query, the indices into ``chunks`` and the scores of its best ``k`` chunks, best first."""
        raise NotImplementedError

    def search(self, query: str, k: int = 5) -> list[SearchHit]:
        """Top-``k`` chunks for ``query``, best first; chunks sharing no term are left out.

        Args:
            query (str): free text.
            k (int): how many hits at most. Defaults to 5.

        Returns:
            list[SearchHit]: at most ``k`` hits (fewer when fewer chunks match). ``terms`` are the
            query's words found in the chunk, whatever the retriever.
        """
        order, scores = self.top_k([query], k)
        terms = query_terms(query)
        hits = []
        for rank, (i, score) in enumerate(zip(order[0], scores[0]), start=1):
            c = self.chunks[i]
            hits.append(
                SearchHit(
                    rank=rank,
                    id=c.id,
                    order=c.order,
                    score=float(score),
                    page_start=c.page_start,
                    page_end=c.page_end,
                    page_label_start=c.page_label_start,
                    page_label_end=c.page_label_end,
                    chapter=c.chapter,
                    section=c.section,
                    crosses_chapter=bool(self._crosses[i]),
                    terms=[t for t in terms if t in self._chunk_terms[i]],
                    char_start=c.char_start,
                    char_end=c.char_end,
                    text=c.text,
                )
            )
        return hits


class ChunkIndex(RankedIndex):
    """A BM25 index over one policy's chunks of one book."""

    kind = "bm25"

    def __init__(
        self,
        book: Book,
        chunks: Sequence[Chunk],
        tokenizer: Tokenizer,
        retriever: bm25s.BM25 | None,
        chunk_terms: list[frozenset[str]],
    ) -> None:
        super().__init__(book, chunks, chunk_terms)
        self._tokenizer = tokenizer
        self._retriever = retriever

    @classmethod
    def build(cls, book: Book, chunks: Sequence[Chunk]) -> "ChunkIndex":
        """Index ``chunks`` (their ``text``) with BM25.

        Args:
            book (Book): the book (for chapter headings).
            chunks (Sequence[Chunk]): one policy's chunks.

        Returns:
            ChunkIndex: ready to ``search``; an empty chunk list gives an index that finds nothing.
        """
        import bm25s
        from bm25s.tokenization import Tokenizer

        tokenizer = Tokenizer(stopwords="en")
        if not chunks:
            return cls(book, chunks, tokenizer, None, [])
        ids = tokenizer.tokenize(
            [c.text for c in chunks], update_vocab=True, return_as="ids", show_progress=False
        )
        vocab = {i: w for w, i in tokenizer.get_vocab_dict().items()}
        chunk_terms = [frozenset(vocab[i] for i in doc) for doc in ids]
        retriever = bm25s.BM25()
        retriever.index(ids, show_progress=False)
        return cls(book, chunks, tokenizer, retriever, chunk_terms)

    def top_k(self, queries: Sequence[str], k: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """Batch retrieval: for each query, the indices into ``chunks`` and scores of its hits.

        Args:
            queries (Sequence[str]): free-text queries.
            k (int): hits per query at most.

        Returns:
            tuple[list[np.ndarray], list[np.ndarray]]: per query, chunk indices and BM25 scores,
            best first, zero-score chunks removed.
        """
        empty = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32))
        if self._retriever is None or k < 1:
            return [empty[0]] * len(queries), [empty[1]] * len(queries)
        ids = self._tokenizer.tokenize(
            list(queries), update_vocab=False, return_as="ids", show_progress=False
        )
        k = min(k, len(self.chunks))
        docs, scores = self._retriever.retrieve(ids, k=k, show_progress=False, n_threads=1)
        out_docs, out_scores = [], []
        for d, s in zip(docs, scores):
            keep = s > 0
            out_docs.append(d[keep].astype(np.int64))
            out_scores.append(s[keep])
        return out_docs, out_scores
