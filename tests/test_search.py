"""BM25 search over one policy's chunks (chunking.retrieval.search)."""

from __future__ import annotations

from chunking.models import Book, Chunk, Diagnostics, Heading, Page
from chunking.retrieval.search import ChunkIndex, crosses_chapter, highlight_spans, query_terms

TEXTS = [
    "Vectors are created with the function c and indexed with square brackets.",
    "Lists hold objects of different modes; components are extracted with double brackets.",
    "The quadrature routine integrates a function numerically over a finite interval.",
    "Graphics devices are opened and closed with dev.off and friends.",
]


def book_and_chunks() -> tuple[Book, list[Chunk]]:
    text = "\n".join(TEXTS)
    starts, pos = [], 0
    for t in TEXTS:
        starts.append(pos)
        pos += len(t) + 1
    pages = tuple(Page(i + 1, str(i + 1), s, s + len(t)) for i, (s, t) in enumerate(zip(starts, TEXTS)))
    # chapter 2 starts at the third text; the last chunk spans texts 2-4, crossing chapter 3
    headings = (Heading(1, "chapter", "Basics", "1", 1, "1", 0, "headings"),
                Heading(1, "chapter", "Numerics", "2", 3, "3", starts[2], "headings"),
                Heading(1, "chapter", "Graphics", "3", 4, "4", starts[3], "headings"))
    book = Book("b", "s", "t", "txt", text, pages, headings, Diagnostics(), "x.txt")
    spans = [(starts[0], starts[0] + len(TEXTS[0])), (starts[1], starts[1] + len(TEXTS[1])),
             (starts[1] + 30, len(text))]
    chunks = [Chunk(f"c{i}", "b", i, text[s:e], "", "", (), 1, 1, "", "", 0, 0, 0, s, e, 0, "token_limit")
              for i, (s, e) in enumerate(spans)]
    return book, chunks


def test_chunk_holding_a_unique_phrase_ranks_first():
    book, chunks = book_and_chunks()
    hits = ChunkIndex.build(book, chunks).search("quadrature routine integrates", k=3)
    assert hits[0].id == "c2"
    assert hits[0].terms == ["quadrature", "routine", "integrates"]
    assert [h.rank for h in hits] == list(range(1, len(hits) + 1))


def test_chunks_sharing_no_query_term_are_not_returned():
    book, chunks = book_and_chunks()
    assert ChunkIndex.build(book, chunks).search("zebra unicorn", k=5) == []


def test_k_larger_than_the_chunk_count_returns_at_most_every_matching_chunk():
    book, chunks = book_and_chunks()
    hits = ChunkIndex.build(book, chunks).search("brackets", k=50)
    assert sorted(h.id for h in hits) == ["c0", "c1", "c2"]


def test_empty_chunk_list_finds_nothing():
    book, _ = book_and_chunks()
    assert ChunkIndex.build(book, []).search("vectors", k=5) == []


def test_crosses_chapter_only_when_a_chapter_heading_starts_strictly_inside():
    book, chunks = book_and_chunks()
    assert [crosses_chapter(book, c) for c in chunks] == [False, False, True]
    hits = ChunkIndex.build(book, chunks).search("graphics devices", k=1)
    assert hits[0].id == "c2" and hits[0].crosses_chapter


def test_query_terms_drop_stop_words_and_repeats():
    assert query_terms("Is the function of the function c?") == ["function"]


def test_highlight_spans_mark_exactly_the_matched_words():
    text = "Brackets, brackets and more [brackets]; bracket."
    spans = highlight_spans(text, ["brackets"])
    assert [text[s:e] for s, e in spans] == ["Brackets", "brackets", "brackets"]
