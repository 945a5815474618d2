"""Rules of ``chunking.tokens``: one canonical stream per (book, encoding) with exact offsets."""

from __future__ import annotations

import numpy as np
import pytest

from chunking.encodings import get_encoding
from chunking.errors import PolicyError
from chunking.tokens import token_byte_lengths, tokenize
from synthetic_books import make_book

PAGES = ["Preface text, plain ASCII.", "", "Chapter 1 Start\nCafé — naïve façade 😀 日本語のテキスト", "tail ok"]
HEADINGS = [(2, 0, "chapter", "Start"), (2, 16, "section", "Café")]


@pytest.mark.parametrize("encoding", ["cl100k_base", "o200k_base"])
def test_char_starts_map_every_token_to_its_text(encoding):
    book = make_book(PAGES, HEADINGS)
    tb = tokenize(book, encoding)
    enc = get_encoding(encoding)
    assert tb.char_starts.dtype == np.int64 and tb.char_starts.shape == (tb.n_tokens + 1,)
    assert tb.char_starts[0] == 0 and tb.char_starts[-1] == len(book.text)
    assert np.all(np.diff(tb.char_starts) >= 0)
    # Between two legal boundaries, the decoded tokens are exactly the text slice.
    legal = np.flatnonzero(tb.legal)
    for a, b in zip(legal, legal[1:]):
        piece = enc.decode_bytes(tb.tokens[a:b].tolist()).decode("utf-8")
        assert piece == book.text[tb.char_starts[a]:tb.char_starts[b]]


def test_every_heading_offset_is_a_token_boundary_at_both_fence_levels():
    book = make_book(PAGES, HEADINGS)
    tb = tokenize(book)
    boundaries = set(tb.char_starts[tb.legal].tolist())
    for h in book.headings:
        assert h.char_offset in boundaries
    assert tb.char_starts[tb.fence_tokens["chapter"]].tolist() == [book.headings[0].char_offset]
    assert tb.char_starts[tb.fence_tokens["section"]].tolist() == [h.char_offset for h in book.headings]


def test_stream_is_the_concatenated_encoding_of_the_pieces_between_headings():
    book = make_book(PAGES, HEADINGS)
    tb = tokenize(book)
    enc = get_encoding("cl100k_base")
    cuts = [0, *[h.char_offset for h in book.headings], len(book.text)]
    expected = [t for a, b in zip(cuts, cuts[1:]) for t in enc.encode_ordinary(book.text[a:b])]
    assert tb.tokens.tolist() == expected


def test_boundary_inside_a_multibyte_character_is_marked_illegal():
    book = make_book(["😀😀 𝔘𝔫𝔦𝔠𝔬𝔡𝔢"])
    tb = tokenize(book)
    enc = get_encoding("cl100k_base")
    # Each emoji is split into byte tokens by cl100k: some boundaries fall inside it.
    assert tb.n_tokens > len(enc.encode_ordinary("😀 x")) - 1
    assert not tb.legal.all()
    for t in np.flatnonzero(~tb.legal):
        # An illegal boundary's bytes so far do not decode to whole characters.
        with pytest.raises(UnicodeDecodeError):
            enc.decode_bytes(tb.tokens[:t].tolist()).decode("utf-8")


def test_page_of_char_gives_the_separator_to_the_incoming_page():
    book = make_book(["hello", "", "world"])
    tb = tokenize(book)
    assert book.text == "hello\nworld"
    assert [tb.page_of_char(c) for c in range(len(book.text))] == [1] * 5 + [3] * 6
    assert tb.token_at_char(0) == 0 and tb.token_at_char(len(book.text)) == tb.n_tokens


def test_byte_length_table_matches_the_vocabulary():
    lengths = token_byte_lengths("cl100k_base")
    enc = get_encoding("cl100k_base")
    for t in (0, 1000, 50_000, 100_255):
        assert lengths[t] == len(enc.decode_single_token_bytes(t))


def test_unknown_encoding_is_a_policy_error_naming_the_field():
    with pytest.raises(PolicyError, match="encoding"):
        tokenize(make_book(["x"]), "no_such_encoding")


def test_empty_book_has_no_tokens():
    tb = tokenize(make_book(["", ""]))
    assert tb.n_tokens == 0 and tb.char_starts.tolist() == [0]
    assert tb.page_of_char(0) == 1
