"""inspector.data.tables: the Chunks page's filters and the chunks around a chapter start."""

from __future__ import annotations

import pandas as pd
import pytest
from handmade_books import four_page_book, make_chunks

from chunking import export
from chunking.models import Book
from inspector.data import tables


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


def test_chunk_table_holds_each_chunks_full_id(book: Book) -> None:
    chunks = make_chunks(book, [(0, 120), (90, 200)])
    assert list(tables.chunk_table(chunks)["id"]) == [c.id for c in chunks]


def test_table_pages_hold_every_row_once_and_clamp_the_page_number() -> None:
    frame = pd.DataFrame({"n": range(23)})
    pages = [list(tables.page_rows(frame, p, 10)["n"]) for p in (1, 2, 3)]
    assert [len(p) for p in pages] == [10, 10, 3]
    assert sum(pages, []) == list(range(23))
    assert list(tables.page_rows(frame, 9, 10)["n"]) == pages[-1]
    assert list(tables.page_rows(frame, 0, 10)["n"]) == pages[0]
    assert tables.page_rows(frame.iloc[:0], 1, 10).empty


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet", "langchain"])
def test_export_preview_is_the_first_records_of_the_file(book: Book, fmt: str) -> None:
    chunks = make_chunks(book, [(0, 120), (90, 200), (202, 302)], chapters=["One", "One", "Two"])
    frame = tables.export_preview(export.render(chunks, fmt), fmt, 2)
    assert len(frame) == 2
    text = frame["page_content"] if fmt == "langchain" else frame["text"]
    assert list(text) == [c.text for c in chunks[:2]]
