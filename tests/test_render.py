"""inspector.views.render: book text is escaped before our highlight markup; overlaps are marked."""

from __future__ import annotations

import pytest
from handmade_books import four_page_book, make_chunks

from chunking.models import Book
from inspector.views import render


@pytest.fixture
def book() -> Book:
    return four_page_book()


def test_book_text_is_escaped_before_highlight_markup() -> None:
    text = "<script>alert(1)</script> **bold** <img src=x onerror=alert(2)>"
    out = render.highlight(text, [(0, 8, "ov-prev")])
    assert "<script>" not in out and "<img" not in out
    assert out.startswith('<mark class="ov-prev">&lt;script&gt;</mark>')
    assert "**bold**" in out


def test_overlap_spans_mark_text_shared_with_each_neighbour(book: Book) -> None:
    chunks = make_chunks(book, [(0, 120), (90, 200), (180, 302)])
    assert render.overlap_spans(chunks, 1) == [(0, 30, "ov-prev"), (90, 110, "ov-next")]
    html = render.chunk_detail_html(book.text, chunks, 1)
    assert html.count('<mark class="ov-prev">') == 1 and html.count('<mark class="ov-next">') == 1


def test_highlight_gives_both_classes_where_overlaps_meet() -> None:
    out = render.highlight("abcdef", [(0, 4, "ov-prev"), (2, 6, "ov-next")])
    assert out == ('<mark class="ov-prev">ab</mark><mark class="ov-next ov-prev">cd</mark>'
                   '<mark class="ov-next">ef</mark>')
