"""inspector.tables: the Chunks page's filters and the chunks around a chapter start."""

from __future__ import annotations

import pytest
from handmade_books import four_page_book, make_chunks

from chunking.models import Book
from inspector import tables


@pytest.fixture
def book() -> Book:
    return four_page_book()


def test_chunk_table_has_one_row_per_chunk_with_pages_and_labels(book: Book) -> None:
    chunks = make_chunks(book, [(0, 120), (90, 200), (202, 302)], chapters=["One", "One", "Two"])
    df = tables.chunk_table(chunks)
    assert list(df.columns) == list(tables.CHUNK_COLUMNS)
    assert list(df["pages"]) == ["1–2", "1–2", "4"] and list(df["labels"]) == ["11–12", "11–12", "14"]
    assert list(df["tokens"]) == [120, 110, 100]


def test_filters_combine_and_empty_filters_keep_everything(book: Book) -> None:
    chunks = make_chunks(book, [(0, 50), (50, 120), (120, 200), (202, 302)],
                         chapters=["One", "One", "One", "Two"],
                         reasons=["token_limit", "token_limit", "fence", "book_end"])
    assert tables.filter_chunks(chunks) == chunks
    assert [c.order for c in tables.filter_chunks(chunks, chapters=["One"])] == [0, 1, 2]
    assert [c.order for c in tables.filter_chunks(chunks, end_reasons=["fence", "book_end"])] == [2, 3]
    assert [c.order for c in tables.filter_chunks(chunks, tokens=(60, 80))] == [1, 2]
    assert [c.order for c in tables.filter_chunks(chunks, chapters=["One"], tokens=(60, 80),
                                                  end_reasons=["fence"])] == [2]
    assert [c.order for c in tables.filter_chunks(chunks, query="  CC ")] == [3]


def test_chunks_at_a_chapter_start_say_where_they_sit_and_what_overlap_carried(book: Book) -> None:
    start = book.headings[1].char_offset  # chapter Two, mid-page 4 (offset 252)
    chunks = make_chunks(book, [(0, 120), (90, 252), (230, 302), (252, 302)])
    df = tables.chunks_at(chunks, start)
    assert list(df["order"]) == [1, 2, 3]
    assert list(df["where"]) == ["ends here", "crosses", "starts here"]
    assert list(df["carried_over"]) == ["a" * 10 + " " + "b" * 19, "c" * 22, "d" * 50]
