"""The chunker's safe cut points really are safe: text cut there re-encodes to the stream's tokens."""

from __future__ import annotations

from hypothesis import example, given, settings

from chunking.encodings import get_encoding
from chunking.strategies.common import is_cut
from chunking.tokens import tokenize
from synthetic_books import make_book
from text_pieces import texts



def _check(text: str, encoding: str) -> None:
    if len(text) < 2:
        return
    tb = tokenize(make_book([text]), encoding)
    enc = get_encoding(encoding)
    book = tb.book.text
    for t in range(1, tb.n_tokens):
        if is_cut(tb, t):
            c = int(tb.char_starts[t])
            assert enc.encode_ordinary(book[:c]) + enc.encode_ordinary(book[c:]) == tb.tokens.tolist(), (book, c)


@settings(max_examples=150, deadline=None)
@given(texts(40))
@example("word!\n/usr more")
def test_every_cut_point_splits_o200k_tokens_exactly(text):
    _check(text, "o200k_base")


@settings(max_examples=150, deadline=None)
@given(texts(40))
def test_every_cut_point_splits_cl100k_tokens_exactly(text):
    _check(text, "cl100k_base")


def test_a_newline_then_a_slash_after_punctuation_is_no_cut_under_o200k():
    for text in ("word!\n/usr more", "word,\n\n/a more", "word]\n/. more", "word'\n\n/usr more"):
        _check(text, "o200k_base")
