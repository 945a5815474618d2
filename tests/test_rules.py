"""The book model's rules, defined once in ``chunking.rules``, and every user agreeing with them."""

from __future__ import annotations

import pytest

from chunking.models import Book, Diagnostics, Heading, Page
from chunking.policy import Policy
from chunking.retrieval.locate import enclosing_titles, page_at
from chunking.rules import (
    ContextIndex,
    PageIndex,
    crosses_fence,
    fence_offsets,
    roman_value,
    to_roman,
)
from chunking.strategies import chunk_book
from chunking.tokens import tokenize


def _heading(kind: str, level: int, title: str, offset: int, page: int = 1) -> Heading:
    return Heading(kind=kind, title=title, number="", page=page, page_label="", level=level,
                   char_offset=offset, source="headings")


def _book(text: str, headings: list[Heading], pages: list[tuple[int, int]] | None = None) -> Book:
    spans = pages or [(0, len(text))]
    return Book(book_id="b" * 16, sha256="0" * 64, title="t", format="txt", text=text,
                pages=tuple(Page(number=i + 1, label=str(i + 1), char_start=a, char_end=b)
                            for i, (a, b) in enumerate(spans)),
                headings=tuple(headings), diagnostics=Diagnostics(pages=len(spans)), source_name="t.txt")


PART_TEXT = "Basics\n\nA part's own introduction.\n\nFirst chapter\n\nText of the chapter.\n\nA section\n\nMore.\n"
PART_HEADINGS = [
    _heading("part", 1, "Basics", 0),
    _heading("chapter", 2, "First chapter", PART_TEXT.index("First chapter")),
    _heading("section", 3, "A section", PART_TEXT.index("A section")),
]


def test_under_a_part_without_a_chapter_yet_the_part_names_the_chapter():
    ctx = ContextIndex(PART_HEADINGS).at(PART_TEXT.index("introduction"))
    assert (ctx.chapter, ctx.section, ctx.path) == ("Basics", "", ("Basics",))


def test_the_innermost_chapter_and_its_section_name_an_offset():
    ctx = ContextIndex(PART_HEADINGS).at(PART_TEXT.index("More."))
    assert (ctx.chapter, ctx.section) == ("First chapter", "A section")
    assert ctx.path == ("Basics", "First chapter", "A section")


def test_before_the_first_heading_the_context_is_empty():
    assert ContextIndex(PART_HEADINGS[1:]).at(0).chapter == ""


def test_locate_and_chunks_name_the_same_chapter_under_a_part():
    book = _book(PART_TEXT, PART_HEADINGS)
    chunks = chunk_book(tokenize(book), Policy(strategy="chapter-window", max_tokens=8, overlap_tokens=0))
    for c in chunks:
        first = c.char_start + len(c.text) - len(c.text.lstrip())
        assert enclosing_titles(book, first) == (c.chapter, c.section)


def test_a_page_separator_belongs_to_the_page_it_introduces():
    text = "one\ntwo"
    index = PageIndex(_book(text, [], [(0, 3), (4, 7)]).pages)
    assert [index.number_at(c) for c in range(len(text))] == [1, 1, 1, 2, 2, 2, 2]


def test_pages_without_text_hold_no_offset():
    text = "one\ntwo"
    book = _book(text, [], [(0, 3), (4, 4), (4, 7)])
    assert PageIndex(book.pages).number_at(4) == 3 == page_at(book, 4).number


def test_parts_and_chapter_level_kinds_fence_at_chapter_level_and_every_heading_at_section_level():
    book = _book(PART_TEXT, PART_HEADINGS)
    assert fence_offsets(book, "chapter") == [0, PART_TEXT.index("First chapter")]
    assert fence_offsets(book, "section") == [h.char_offset for h in PART_HEADINGS]


@pytest.mark.parametrize(
    ("start", "end", "crosses"),
    [(0, 10, False), (3, 15, True), (5, 15, False), (3, 10, False)],
)
def test_a_span_crosses_a_fence_only_with_text_on_both_sides(start, end, crosses):
    text = "aaaaa\n\n\n  bbbbbbbbbb"
    assert crosses_fence(text, start, end, [10]) is crosses


@pytest.mark.parametrize(("value", "numeral"), [(1, "i"), (4, "iv"), (14, "xiv"), (1999, "mcmxcix"), (2026, "mmxxvi")])
def test_roman_numerals_round_trip(value, numeral):
    assert to_roman(value) == numeral and roman_value(numeral) == value == roman_value(numeral.upper())


@pytest.mark.parametrize("word", ["", "iiii", "vx", "il", "chapter"])
def test_malformed_roman_numerals_are_zero(word):
    assert roman_value(word) == 0
