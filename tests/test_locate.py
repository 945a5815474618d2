"""Passage lookup (chunking.retrieval.locate): exact spans of the canonical text, found robustly."""

from __future__ import annotations

import functools
import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from chunking.errors import UsageError
from chunking.ingest import load_book
from chunking.retrieval.locate import (MAX_PASSAGE, SearchSpace, edge_context, locate, match_chunks, normalise,
                             page_at)
from chunking.models import Book, Chunk, Diagnostics, Heading, Page
from chunking.policy import Policy
from chunking.strategies import chunk_book
from chunking.tokens import tokenize
from conftest import sample_book

PAGE1 = ("1 Introduction\nThe quick brown fox jumps over the lazy dog. It was a sunny day in the\n"
         "valley, and every-\nbody was happy with the outcome of the experi-\nment.")
PAGE2 = ("1.1 Weather\nThen the rain came. Nobody expected such a strong storm to arrive so early in "
         "the season; the farmers lost their crops.\n\nThe quick brown fox jumps over the lazy dog.")


def small_book() -> Book:
    text = PAGE1 + "\n" + PAGE2
    pages = (Page(1, "i", 0, len(PAGE1)), Page(2, "ii", len(PAGE1) + 1, len(text)))
    headings = (Heading(1, "chapter", "Introduction", "1", 1, "i", 0, "headings"),
                Heading(2, "section", "Weather", "1.1", 2, "ii", len(PAGE1) + 1, "headings"))
    return Book("b", "s", "t", "txt", text, pages, headings, Diagnostics(), "small.txt")


def chunk(book: Book, order: int, start: int, end: int) -> Chunk:
    return Chunk(f"c{order}", book.book_id, order, book.text[start:end], "", "", (), 1, 1, "", "",
                 0, 0, 0, start, end, 0, "token_limit")


@pytest.fixture(scope="module")
def space() -> SearchSpace:
    return SearchSpace.build(small_book())


def test_normalise_maps_every_character_back_to_its_source_offset():
    text = "Ef\ufb01cient  Stra\u00dfe-\nWORDS!"
    norm, index = normalise(text)
    assert norm == "efficientstrassewords"
    assert len(index) == len(norm)
    # the ligature yields two characters of one source offset; the rest map one to one
    assert text[index[2]] == "\ufb01" and index[2] == index[3]
    assert "".join(text[i].lower() for i in index[norm.index("words"):]) == "words"


def test_whitespace_normalised_dehyphenated_passage_maps_to_exact_span(space):
    passage = "everybody was happy with the outcome of the experiment."
    loc = locate(space, passage)
    assert loc.found and loc.score == 100.0
    found = space.book.text[loc.char_start:loc.char_end]
    assert found == "every-\nbody was happy with the outcome of the experi-\nment."


def test_passage_cut_mid_word_at_both_ends_keeps_the_cut(space):
    loc = locate(space, "ick brown fox jumps over the lazy dog. It was a sun")
    assert loc.found
    found = space.book.text[loc.char_start:loc.char_end]
    assert found == "ick brown fox jumps over the lazy dog. It was a sun"


def test_prefixed_heading_is_trimmed_and_passage_start_reported(space):
    passage = "Chapter 9 Something Else\n\nwas a sunny day in the valley, and everybody was happy with"
    loc = locate(space, passage)
    assert loc.found and loc.score < 100.0
    found = space.book.text[loc.char_start:loc.char_end]
    assert found == "was a sunny day in the\nvalley, and every-\nbody was happy with"
    assert passage[loc.passage_start:loc.passage_end].startswith("was a sunny")


def test_passage_across_the_page_break_reports_both_pages_and_labels(space):
    loc = locate(space, "outcome of the experiment. 1.1 Weather Then the rain came.")
    assert loc.found
    assert (loc.page_start, loc.page_end) == (1, 2)
    assert (loc.page_label_start, loc.page_label_end) == ("i", "ii")
    assert loc.chapter == "Introduction" and loc.section == ""


def test_section_is_the_one_enclosing_the_start(space):
    loc = locate(space, "Nobody expected such a strong storm")
    assert (loc.chapter, loc.section) == ("Introduction", "Weather")


def test_repeated_text_counts_its_occurrences_and_returns_the_first(space):
    loc = locate(space, "The quick brown fox jumps over the lazy dog.")
    assert loc.found and loc.occurrences == 2
    assert loc.char_start == PAGE1.index("The quick")


def test_text_not_in_the_book_is_not_found(space):
    loc = locate(space, "Colourless green ideas sleep furiously while the compiler optimises tail calls.")
    assert not loc.found and loc.char_start == -1


def test_punctuation_at_the_passage_edges_is_part_of_the_span_whatever_the_spacing():
    text = "The prompt becomes\n$ and then you type (see ?BATCH). Next line."
    book = Book("b", "s", "t", "txt", text, (Page(1, "", 0, len(text)),), (), Diagnostics(), "p.txt")
    loc = locate(SearchSpace.build(book), "$  and then you  type (see ?BATCH).")
    assert text[loc.char_start:loc.char_end] == "$ and then you type (see ?BATCH)."


@pytest.mark.parametrize("symbol", ["M", "x", "a"])
def test_repetitive_text_locates_where_the_passage_reads_without_a_gap(symbol):
    """An LCS of repetitive text may pair the passage's first letters with an earlier copy across
    a gap; the place where the passage reads on without one is the passage's own."""
    filler = " ".join(f"word{i} of the preceding prose" for i in range(30))
    rows = [f"{symbol}_1 * {symbol}_2", f"{symbol}_1 + {symbol}_2 + {symbol}_1:{symbol}_2.",
            f"{symbol}_1 / {symbol}_2", f"{symbol}_1 + {symbol}_2 %in% {symbol}_1.",
            f"{symbol}^n", f"All terms in {symbol} together with interactions up to order n"]
    text = filler + "\n" + "\n".join(rows) + "\n" + filler.replace("preceding", "following")
    book = Book("b", "s", "t", "txt", text, (Page(1, "", 0, len(text)),), (), Diagnostics(), "p.txt")
    start = text.index(f":{symbol}_2.") + 3  # the "2" that ends the second row
    end = text.index("order n") + len("order n")
    passage = "7.3 Some section title\n" + " ".join(text[start:end].split())
    loc = locate(SearchSpace.build(book), passage)
    assert (loc.char_start, loc.char_end) == (start, end)


def test_passage_without_letters_is_a_usage_error(space):
    with pytest.raises(UsageError, match="no letters or digits"):
        locate(space, " ... --- \n")


def test_overlong_passage_is_a_usage_error_naming_the_limit(space):
    with pytest.raises(UsageError, match=f"at most {MAX_PASSAGE:,}"):
        locate(space, "word " * (MAX_PASSAGE // 4 + 1))


def test_chunk_holding_the_span_is_reported_without_straddle(space):
    book = space.book
    mid = PAGE1.index("It was")
    chunks = [chunk(book, 0, 0, mid), chunk(book, 1, mid - 10, len(book.text))]
    loc = locate(space, "It was a sunny day")
    m = match_chunks(space, loc, chunks, "p")
    assert (m.ids, m.straddles) == (["c1"], False)


def test_span_across_a_chunk_boundary_straddles_and_lists_both_chunks(space):
    book = space.book
    cut = PAGE1.index("lazy")
    chunks = [chunk(book, 0, 0, cut), chunk(book, 1, cut, len(book.text))]
    loc = locate(space, "jumps over the lazy dog")
    m = match_chunks(space, loc, chunks, "p")
    assert (m.ids, m.straddles) == (["c0", "c1"], True)
    # the first chunk's start is the book start: nothing before; the last one's end is the book end
    assert m.cut_before == "" and m.cut_after == ""


def test_edge_context_returns_the_sentence_parts_a_boundary_cut_off(space):
    text = space.book.text
    start = text.index("sunny day")
    end = text.index("storm to arrive")
    before, after = edge_context(space, start, end)
    assert before == "It was a"
    assert after == "storm to arrive so early in the season; the farmers lost their crops."


# ---------------------------------------------------------------------------- real sample books
def _word_inside(text: str, pos: int) -> int:
    """The offset two letters into the first word of at least 5 letters at or after ``pos``."""
    m = re.compile(r"[A-Za-z]{5,}").search(text, pos)
    return m.start() + 2


def _damaged(text: str) -> str:
    """What a RAG store hands back: whitespace collapsed and line-end hyphens joined."""
    return " ".join(text.replace("-\n", "").split())


@pytest.fixture(scope="module")
def r_intro():
    book = load_book(sample_book("r-intro.pdf"))
    chunks = chunk_book(tokenize(book), Policy())
    return SearchSpace.build(book), chunks


@pytest.mark.slow
def test_real_book_dehyphenated_passage_maps_onto_the_hyphenated_text(r_intro):
    space, _ = r_intro
    text = space.book.text
    hyphen = re.search(r"[a-z]{2,}-\n[a-z]{3,}", text).start()
    start, end = _word_inside(text, hyphen - 300), _word_inside(text, hyphen + 200)
    loc = locate(space, _damaged(text[start:end]))
    assert loc.found and (loc.char_start, loc.char_end) == (start, end)
    assert "-\n" in text[loc.char_start:loc.char_end]


@pytest.mark.slow
def test_real_book_passage_with_heading_cut_mid_word_across_page_break_and_chunk_boundary(r_intro):
    space, chunks = r_intro
    text = space.book.text
    checked = 0
    for c, nxt in zip(chunks, chunks[1:]):
        if nxt.char_start >= c.char_end or nxt.chapter != c.chapter:
            continue
        start = _word_inside(text, nxt.char_start - 120)
        end = _word_inside(text, c.char_end + 40)
        if page_at(space.book, start).number == page_at(space.book, end - 1).number:
            continue
        passage = "2.1 Vectors and assignment\n\n" + _damaged(text[start:end])
        loc = locate(space, passage)
        assert loc.found, (c.order, loc.score)
        assert (loc.char_start, loc.char_end) == (start, end)
        assert loc.page_end == loc.page_start + 1
        assert passage[loc.passage_start:].startswith(text[start:start + 3])
        m = match_chunks(space, loc, chunks, "chapter-window")
        assert m.straddles and c.id in m.ids and nxt.id in m.ids
        first = next(x for x in chunks if x.id == m.ids[0])
        assert text[:first.char_start].rstrip().endswith(m.cut_before)
        checked += 1
        if checked == 3:
            break
    assert checked == 3


@pytest.mark.slow
def test_real_book_passage_from_another_book_is_not_found(r_intro):
    space, _ = r_intro
    other = load_book(sample_book("haskell98-report.pdf")).text
    for at in (20_000, 90_000, 150_000):
        start = _word_inside(other, at)
        assert not locate(space, other[start:start + 600]).found


@functools.lru_cache(maxsize=1)
def r_intro_space() -> SearchSpace:
    # NOTE: not a fixture: hypothesis prints every argument of a failing example, and a Book's
    # repr is the whole book.
    return SearchSpace.build(load_book(sample_book("r-intro.pdf")))


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(at=st.floats(0.0, 1.0), length=st.integers(40, 2000), heading=st.booleans())
def test_any_damaged_span_of_a_real_book_locates_to_exactly_that_span(at, length, heading):
    space = r_intro_space()
    text = space.book.text
    start = int(at * (len(text) - length - 1))
    end = start + length
    # spans start and end on letters or digits (punctuation at the edges is matched separately)
    while not text[start].isalnum():
        start += 1
    while end > start and not text[end - 1].isalnum():
        end -= 1
    assume(len(normalise(text[start:end])[0]) >= 30)
    passage = ("7.3 Some section title\n" if heading else "") + _damaged(text[start:end])
    loc = locate(space, passage)
    assert loc.found
    if loc.occurrences == 1:
        assert (loc.char_start, loc.char_end) == (start, end)
    else:  # repeated text: the first of the equally good places, with the same letters
        assert normalise(text[loc.char_start:loc.char_end])[0] == normalise(text[start:end])[0]
