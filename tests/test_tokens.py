"""Rules of ``chunking.tokens``: one canonical stream per (book, encoding) with exact offsets."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunking.encodings import get_encoding
from chunking.errors import PolicyError
from chunking.tokens import _bytes_to_chars, sorted_unique, token_byte_lengths, tokenize
from synthetic_books import make_book

PAGES = ["Preface text, plain ASCII.", "", "Chapter 1 Start\nCafé — naïve façade 😀 日本語のテキスト", "tail ok"]
HEADINGS = [(2, 0, "chapter", "Start"), (2, 16, "section", "Café")]


@pytest.mark.parametrize("encoding", ["cl100k_base", "o200k_base"])
def test_char_starts_map_every_token_to_its_text(encoding):
    book = make_book(PAGES, HEADINGS)
    tb = tokenize(book, encoding)
    enc = get_encoding(encoding)
    assert tb.char_starts.dtype == np.int32 and tb.char_starts.shape == (tb.n_tokens + 1,)
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


@pytest.mark.parametrize("encoding", ["cl100k_base", "o200k_base"])
def test_byte_length_table_matches_the_vocabulary_in_one_byte_per_id(encoding):
    lengths = token_byte_lengths(encoding)
    enc = get_encoding(encoding)
    assert lengths.dtype == np.uint8 and lengths.shape == (enc.n_vocab,)
    for t in (0, 1000, 50_000, 100_255, int(lengths.argmax())):
        assert lengths[t] == len(enc.decode_single_token_bytes(t))


def _reference_char_offsets(text: str, byte_offsets: list[int]) -> tuple[list[int], list[bool]]:
    """Byte offset → (offset of the character starting there or next, is it a character start)."""
    starts, pos = {}, 0
    for i, ch in enumerate(text):
        starts[pos] = i
        pos += len(ch.encode("utf-8"))
    starts[pos] = len(text)
    chars = [starts[b] if b in starts else min(i for p, i in starts.items() if p > b) for b in byte_offsets]
    return chars, [b in starts for b in byte_offsets]


_CHARS = st.sampled_from(list("ab \né€😀日") + ["\U0001d518"])


@settings(max_examples=200, deadline=None)
@given(text=st.lists(_CHARS, max_size=40).map("".join), data=st.data(), block=st.integers(1, 9))
def test_byte_to_char_mapping_is_exact_across_block_edges(text, data, block):
    # Any increasing byte offsets ending at the byte length, some inside multi-byte characters.
    n_bytes = len(text.encode("utf-8"))
    inner = data.draw(st.lists(st.integers(1, max(n_bytes - 1, 1)), unique=True)) if n_bytes > 1 else []
    offsets = [0, *sorted(inner), n_bytes] if n_bytes else [0]
    starts = np.asarray(offsets, dtype=np.int32)
    legal = np.ones(len(offsets), dtype=bool)
    _bytes_to_chars(text, starts, legal, block)
    chars, is_start = _reference_char_offsets(text, offsets)
    assert starts.tolist() == chars and legal.tolist() == is_start


def test_tokenize_holds_no_book_sized_temporaries():
    # 40 chapters of dense text (~1.3 UTF-8 bytes per token, many boundaries inside characters),
    # far above the offset block size, so the results dwarf the slack below.
    body = "1,2;3.4:5!6?7 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 é-ü+ñ*ø/ Plain words. " * 1000 + "\n"
    pages = [f"Chapter {i}\n" + body for i in range(40)]
    book = make_book(pages, [(i, 0, "chapter", f"Chapter {i}") for i in range(40)])
    get_encoding("cl100k_base"), token_byte_lengths("cl100k_base")  # loaded once per process
    tracemalloc.start()
    try:
        tb = tokenize(book)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        held, _ = tracemalloc.get_traced_memory()
        assert tb.token_at_char(len(book.text) // 2) > 0 and tb.page_boundary_token(3) > 0
        search_peak = tracemalloc.get_traced_memory()[1] - held
    finally:
        tracemalloc.stop()
    n_bytes = len(book.text.encode("utf-8"))
    results = tb.tokens.nbytes + tb.char_starts.nbytes + tb.legal.nbytes
    assert tb.tokens.nbytes == 4 * tb.n_tokens and tb.tokens.flags.owndata  # shrunk to fit
    assert not tb.legal.all() and 4 * tb.n_tokens > 3 * 2**20
    # While encoding, the token array is reserved at one slot per byte (its untouched tail never
    # becomes resident); afterwards only the results and block-sized temporaries are live. One
    # more book-sized array (even the 4 bytes per token of a second token array) breaks this.
    assert peak <= max(4 * n_bytes, results) + 2 * 2**20
    # Searching the int32 offsets with a Python int must not copy them to int64.
    assert search_peak < 2**16


def test_unknown_encoding_is_a_policy_error_naming_the_field():
    with pytest.raises(PolicyError, match="encoding"):
        tokenize(make_book(["x"]), "no_such_encoding")


def test_empty_book_has_no_tokens():
    tb = tokenize(make_book(["", ""]))
    assert tb.n_tokens == 0 and tb.char_starts.tolist() == [0]
    assert tb.page_of_char(0) == 1


@given(st.lists(st.integers(min_value=-(2**40), max_value=2**40), max_size=60))
def test_sorted_unique_equals_numpy_unique(values):
    got = sorted_unique(np.asarray(values, dtype=np.int64))
    assert got.dtype == np.int64
    assert np.array_equal(got, np.unique(np.asarray(values, dtype=np.int64)))
