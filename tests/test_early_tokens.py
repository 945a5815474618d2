"""Rules of ``chunking.early_tokens`` (issue 15): the text encoded before its headings are known,
then spliced at the headings, is array for array what ``tokenize`` gives once they are known."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunking.early_tokens import EarlyTokens, _windows
from chunking.models import Heading
from chunking.pipeline import run_book
from chunking.policy import Policy
from chunking.tokens import tokenize
from synthetic_books import assert_same_tokenized, make_book
from text_pieces import texts

_KINDS = st.sampled_from(["chapter", "section", "part"])


def _with_headings(book, offsets_kinds):
    headings = [
        Heading(
            level=2 if kind == "section" else 1,
            kind=kind,
            title="t",
            number="",
            page=1,
            page_label="",
            char_offset=offset,
            source="headings",
        )
        for offset, kind in offsets_kinds
    ]
    return replace(book, headings=tuple(sorted(headings, key=lambda h: h.char_offset)))


@settings(max_examples=150, deadline=None)
@given(
    pages=st.lists(texts(40), min_size=1, max_size=5),
    data=st.data(),
    encoding=st.sampled_from(["cl100k_base", "o200k_base"]),
    piece_chars=st.integers(1, 40),
    search_chars=st.integers(1, 64),
    threads=st.integers(1, 3),
)
def test_early_tokens_spliced_at_the_headings_equal_tokenize(
    pages, data, encoding, piece_chars, search_chars, threads
):
    book = make_book(pages)
    offsets = st.integers(0, len(book.text))
    book = _with_headings(book, data.draw(st.lists(st.tuples(offsets, _KINDS), max_size=8)))
    early = EarlyTokens(book.text, encoding, threads, piece_chars=piece_chars, search_chars=search_chars)
    assert_same_tokenized(early.tokenized(book), tokenize(book, encoding))


def test_a_heading_inside_a_line_is_spliced_not_re_encoded_from_scratch():
    line = "alpha beta gamma delta 42 epsilon"
    book = make_book(["\n".join([line] * 200) for _ in range(3)])
    middle = book.text.index("gamma", len(book.text) // 2)  # mid-line: not a safe newline
    book = _with_headings(book, [(middle, "chapter"), (middle + 2, "section")])
    windows = _windows(book.text, [middle, middle + 2], 1 << 16)
    assert windows and len(windows) == 1 and windows[0][2] == [middle, middle + 2]
    start, end, _ = windows[0]
    assert book.text[start - 1] == "\n" and book.text[end - 1] == "\n" and end - start <= 2 * len(line) + 2
    assert_same_tokenized(EarlyTokens(book.text, "cl100k_base", 2, piece_chars=500).tokenized(book), tokenize(book))


def test_a_heading_with_no_safe_newline_in_reach_falls_back_to_tokenize():
    book = make_book([" ".join(["word"] * 5000)])  # one endless line
    book = _with_headings(book, [(len(book.text) // 2, "chapter")])
    assert _windows(book.text, [len(book.text) // 2], 256) is None
    assert_same_tokenized(EarlyTokens(book.text, "cl100k_base", 2, search_chars=256).tokenized(book), tokenize(book))


def test_early_tokens_of_another_text_are_not_used():
    book = make_book(["first text\nof the book", "second page"])
    other = make_book(["first text\nof the book", "second page, edited"])
    assert_same_tokenized(EarlyTokens(book.text, "cl100k_base", 2).tokenized(other), tokenize(other))


def test_early_tokens_refuse_an_encoding_without_proven_safe_newlines():
    with pytest.raises(ValueError, match="safe-split"):
        EarlyTokens("text", "p50k_base", 2)
    assert EarlyTokens.start("text\n" * 10, "p50k_base", 2) is None
    assert EarlyTokens.start("text\n" * 10, "cl100k_base", 1) is None  # --workers 1: one thread


def test_a_book_run_with_early_tokens_equals_one_core(tmp_path):
    text = "\n\n".join(
        f"# Chapter {i}: Topic {i}\n\n" + "\n".join(f"Line {j} of chapter {i}, with words and 12 numbers." for j in range(300))
        for i in range(1, 9)
    )
    book = tmp_path / "book.md"
    book.write_text(text, encoding="utf-8")
    one, two = run_book(book, Policy(), workers=1), run_book(book, Policy(), workers=2)
    assert len(one.book.headings) >= 8
    assert_same_tokenized(two.tokenized, one.tokenized)
    assert [c.to_dict() for c in two.chunks] == [c.to_dict() for c in one.chunks]
