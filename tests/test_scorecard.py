"""Scorecard: each score on small hand-built books and chunk sets whose answers are known."""

from __future__ import annotations

from itertools import pairwise

import pytest

from chunking.models import Book, Chunk, Diagnostics, Heading, Page
from chunking.policy import Policy
from chunking.analysis.scorecard import (
    SCORE_DIRECTIONS,
    ends_cleanly,
    pk,
    pk_window,
    scorecard,
    uncovered_tokens,
    windowdiff,
)
from chunking.tokens import tokenize


def make_book(pages: list[str], headings: list[tuple[str, int, str]] = ()) -> Book:
    """A book from page texts; each heading ``(kind, level, title)`` starts where ``title`` first occurs."""
    text, spans, pos = [], [], 0
    for page in pages:
        if text and page:
            pos += 1
        spans.append((pos, pos + len(page)))
        if page:
            text.append(page)
            pos += len(page)
    full = "\n".join(text)
    page_objs = tuple(Page(i + 1, str(i + 1), a, b) for i, (a, b) in enumerate(spans))

    def page_of(offset: int) -> int:
        return next(p.number for p in page_objs if p.char_start <= offset < max(p.char_end, p.char_start + 1))

    heads = tuple(
        Heading(level, kind, title, "", page_of(full.index(title)), "", full.index(title), "outline")
        for kind, level, title in headings
    )
    return Book("b" * 16, "0" * 64, "Test Book", "txt", full, page_objs, heads, Diagnostics(pages=len(pages)))


def chunk_at(tb, order: int, token_start: int, token_end: int, overlap: int = 0) -> Chunk:
    """A chunk over a token span of ``tb``, with pages from its character span."""
    cs, ce = int(tb.char_starts[token_start]), int(tb.char_starts[token_end])
    p0, p1 = tb.page_of_char(cs), tb.page_of_char(max(cs, ce - 1))
    return Chunk(
        f"c{order}",
        tb.book.book_id,
        order,
        tb.book.text[cs:ce],
        "",
        "",
        (),
        p0,
        p1,
        "",
        "",
        token_start,
        token_end,
        token_end - token_start,
        cs,
        ce,
        overlap,
        "token_limit",
    )


CH1 = "Chapter One. " + " ".join(f"Alpha sentence number {i} ends here." for i in range(30))
CH2 = "Chapter Two. " + " ".join(f"Beta sentence number {i} ends here." for i in range(30))


@pytest.fixture(scope="module")
def two_chapters():
    book = make_book([CH1, CH2], [("chapter", 1, "Chapter One."), ("chapter", 1, "Chapter Two.")])
    return tokenize(book)


def boundary_token(tb) -> int:
    return tb.token_at_char(tb.book.headings[1].char_offset)


def test_fixed_window_crossing_a_chapter_twice_scores_two(two_chapters):
    tb, b = two_chapters, boundary_token(two_chapters)
    chunks = [
        chunk_at(tb, 0, 0, b - 40),
        chunk_at(tb, 1, b - 50, b + 10, 10),
        chunk_at(tb, 2, b - 5, b + 60, 15),
        chunk_at(tb, 3, b + 50, tb.n_tokens, 10),
    ]
    card = scorecard(chunks, tb, Policy(max_tokens=512, overlap_tokens=20))
    assert card["chapter_crossing_chunks"] == 2


def test_chunk_ending_exactly_at_chapter_start_does_not_cross(two_chapters):
    tb, b = two_chapters, boundary_token(two_chapters)
    chunks = [chunk_at(tb, 0, 0, b), chunk_at(tb, 1, b, tb.n_tokens)]
    card = scorecard(chunks, tb, Policy())
    assert card["chapter_crossing_chunks"] == 0
    assert card["cross_chapter_overlap_tokens"] == 0


def test_cross_chapter_overlap_counts_only_pairs_spanning_a_chapter_start(two_chapters):
    tb, b = two_chapters, boundary_token(two_chapters)
    # Pairs (0, 1) and (1, 2) span the chapter start (7 and 12 shared); (2, 3) lies in chapter two.
    chunks = [
        chunk_at(tb, 0, 0, b - 30),
        chunk_at(tb, 1, b - 37, b + 20, 7),
        chunk_at(tb, 2, b + 8, b + 80, 12),
        chunk_at(tb, 3, b + 71, tb.n_tokens, 9),
    ]
    card = scorecard(chunks, tb, Policy())
    assert card["cross_chapter_overlap_tokens"] == 7 + 12
    assert card["chapter_crossing_chunks"] == 1


def test_inflation_is_tokens_emitted_over_book_tokens(two_chapters):
    tb = two_chapters
    n = tb.n_tokens
    chunks = [chunk_at(tb, 0, 0, n // 2 + 10), chunk_at(tb, 1, n // 2 - 10, n, 20)]
    card = scorecard(chunks, tb, Policy())
    assert card["inflation"] == round((n + 20) / n, 4)
    assert card["uncovered_tokens"] == 0


def test_uncovered_tokens_counts_gaps_once_despite_overlap(two_chapters):
    tb = two_chapters
    chunks = [chunk_at(tb, 0, 0, 50), chunk_at(tb, 1, 40, 100, 10), chunk_at(tb, 2, 130, tb.n_tokens)]
    assert scorecard(chunks, tb, Policy())["uncovered_tokens"] == 30
    assert uncovered_tokens([], 17) == 17


def test_size_statistics_and_small_share_use_a_quarter_of_max_tokens(two_chapters):
    tb = two_chapters
    cuts = [0, 10, 30, 60, 100, 150]  # sizes 10, 20, 30, 40, 50
    chunks = [chunk_at(tb, i, a, b) for i, (a, b) in enumerate(pairwise(cuts))]
    card = scorecard(chunks, tb, Policy(max_tokens=100, overlap_tokens=10))
    assert (card["chunks"], card["tokens_min"], card["tokens_p50"], card["tokens_max"]) == (5, 10, 30.0, 50)
    assert card["tokens_p5"] == 12.0 and card["tokens_p95"] == 48.0
    assert card["tokens_cv"] == round((200**0.5) / 30, 4)
    assert card["small_share"] == 0.4  # 10 and 20 are under 100 / 4


def test_page_span_histogram_counts_chunks_per_span(two_chapters):
    tb, b = two_chapters, boundary_token(two_chapters)
    chunks = [
        chunk_at(tb, 0, 0, b - 20),
        chunk_at(tb, 1, b - 20, b + 20),
        chunk_at(tb, 2, b + 20, tb.n_tokens),
    ]
    assert scorecard(chunks, tb, Policy())["page_span_histogram"] == {"1": 2, "2": 1}


def test_mid_sentence_share_counts_ends_without_sentence_end_or_heading(two_chapters):
    tb, b = two_chapters, boundary_token(two_chapters)
    text = tb.book.text
    period = tb.token_at_char(text.index("number 3 ends here.") + len("number 3 ends here."))
    mid = tb.token_at_char(text.index("number 7 ends") + len("number"))
    chunks = [
        chunk_at(tb, 0, 0, period),
        chunk_at(tb, 1, period, mid),
        chunk_at(tb, 2, mid, b),
        chunk_at(tb, 3, b, tb.n_tokens),
    ]
    # ends: after a period (clean), mid-sentence, before the chapter heading (clean), book end (clean)
    assert scorecard(chunks, tb, Policy())["mid_sentence_share"] == 0.25


def test_blank_line_and_closing_quote_count_as_clean_ends():
    book = make_book(['He said "stop." Then\n\nnew paragraph and more'])
    assert ends_cleanly(book, book.text.index("Then"))
    assert ends_cleanly(book, book.text.index("\n\n"))
    assert not ends_cleanly(book, book.text.index(" and"))


def test_pk_and_windowdiff_known_values():
    assert pk_window([5], 10) == 2
    assert pk([5], [5], 10, 2) == 0.0 and windowdiff([5], [5], 10, 2) == 0.0
    assert pk([5], [], 10, 2) == 0.25 and windowdiff([5], [], 10, 2) == 0.25
    assert pk([5], [6], 10, 2) == 0.25
    # Two hypothesised boundaries in one window: Pk sees "different segment" both ways, WindowDiff counts.
    assert pk([5], [5, 6], 10, 2) == 0.125 and windowdiff([5], [5, 6], 10, 2) == 0.25


def test_pk_is_zero_when_chunk_starts_are_the_structure(two_chapters):
    tb, b = two_chapters, boundary_token(two_chapters)
    card = scorecard([chunk_at(tb, 0, 0, b), chunk_at(tb, 1, b, tb.n_tokens)], tb, Policy())
    assert card["pk"] == 0.0 and card["windowdiff"] == 0.0


def test_book_without_structure_has_no_boundary_agreement():
    tb = tokenize(make_book(["Just text. No headings at all."]))
    card = scorecard([chunk_at(tb, 0, 0, tb.n_tokens)], tb, Policy())
    assert card["pk"] is None and card["windowdiff"] is None and card["boundary_recall"] is None


def test_scorecard_has_every_key_in_order_and_handles_no_chunks(two_chapters):
    card = scorecard([], two_chapters, Policy())
    assert list(card) == list(SCORE_DIRECTIONS)
    assert (
        card["chunks"] == 0 and card["uncovered_tokens"] == two_chapters.n_tokens and card["inflation"] == 0.0
    )


def test_boundary_recall_is_the_share_of_heading_starts_where_a_chunk_starts(two_chapters):
    tb, b = two_chapters, boundary_token(two_chapters)
    fenced = [chunk_at(tb, 0, 0, b), chunk_at(tb, 1, b, tb.n_tokens)]
    crossing = [chunk_at(tb, 0, 0, b - 7), chunk_at(tb, 1, b - 7, tb.n_tokens)]
    assert scorecard(fenced, tb, Policy())["boundary_recall"] == 1.0
    assert scorecard(crossing, tb, Policy())["boundary_recall"] == 0.0


def test_boundary_recall_allows_only_whitespace_between_chunk_start_and_heading():
    book = make_book(
        ["Intro words here", "Chapter A. Body of A.", "Chapter B. Body of B."],
        [("chapter", 1, "Chapter A."), ("chapter", 1, "Chapter B.")],
    )
    tb = tokenize(book)
    a = tb.token_at_char(book.headings[0].char_offset)
    b = tb.token_at_char(book.headings[1].char_offset)
    newline = tb.token_at_char(book.headings[0].char_offset - 1)  # the page separator before chapter A
    assert book.text[tb.char_starts[newline] : tb.char_starts[a]].strip() == ""
    chunks = [
        chunk_at(tb, 0, 0, newline),
        chunk_at(tb, 1, newline, b - 2),
        chunk_at(tb, 2, b - 2, tb.n_tokens),
    ]
    assert scorecard(chunks, tb, Policy())["boundary_recall"] == 0.5
