"""Rule 1 without re-encoding every chunk (issue 15): a chunk whose edges and inner heading offsets
are stable cuts re-encodes to the tokenizer's stream of its span, so the validator may count it
from the span; every other chunk is re-encoded. Both halves are checked against tiktoken."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import example, given, settings
from hypothesis import strategies as st

from chunking.encodings import get_encoding
from chunking.policy import Policy
from chunking.strategies import chunk_book
from chunking.tokens import SAFE_SPLIT_ENCODINGS, tokenize
from chunking.validate import _Counts, stable_cut, validate_chunks
from synthetic_books import make_book
from text_pieces import texts

_TEXT = texts(50)
_ENCODINGS = st.sampled_from(sorted(SAFE_SPLIT_ENCODINGS))


@settings(max_examples=400, deadline=None)
@given(text=_TEXT, encoding=_ENCODINGS)
@example(text="a.\n/b", encoding="o200k_base")  # o200k's punctuation piece takes "\n/"
@example(text="e\u0301\nb", encoding="cl100k_base")  # a mark is punctuation to cl100k: "\u0301\n"
@example(text="a \u00a0b", encoding="cl100k_base")
def test_a_text_cut_at_a_stable_cut_encodes_to_the_same_tokens(text, encoding):
    enc = get_encoding(encoding)
    whole = enc.encode_ordinary(text)
    for p in range(1, len(text)):
        if stable_cut(text, p):
            assert enc.encode_ordinary(text[:p]) + enc.encode_ordinary(text[p:]) == whole, (p, text)


@settings(max_examples=60, deadline=None)
@given(
    pages=st.lists(_TEXT, min_size=1, max_size=5),
    data=st.data(),
    encoding=_ENCODINGS,
    max_tokens=st.integers(4, 40),
)
def test_a_chunk_counted_from_the_stream_has_the_re_encoded_count(pages, data, encoding, max_tokens):
    book = make_book(pages)
    n = len(book.text)
    heads = sorted(set(data.draw(st.lists(st.integers(0, n), max_size=5))))
    book = replace(
        book,
        headings=tuple(replace(h, char_offset=o) for h, o in zip([_any_heading(book)] * len(heads), heads)),
    )
    tb = tokenize(book, encoding)
    policy = Policy(
        strategy="fixed-window", max_tokens=max_tokens, overlap_tokens=max_tokens // 4, encoding=encoding
    )
    chunks = chunk_book(tb, policy)
    counts = _Counts(get_encoding(encoding), chunks, tb, encoding, workers=1)
    enc = get_encoding(encoding)
    for i, c in enumerate(chunks):
        assert counts.count(i) == len(enc.encode_ordinary(c.text)), (i, counts.stream[i])


def _any_heading(book):
    from chunking.models import Heading

    return Heading(
        level=1, kind="chapter", title="t", number="", page=1, page_label="", char_offset=0, source="headings"
    )


def test_a_chunk_whose_text_was_changed_is_re_encoded_and_caught():
    book = make_book([" ".join(["word"] * 300)])
    tb, policy = tokenize(book), Policy(max_tokens=100, overlap_tokens=10)
    chunks = chunk_book(tb, policy)
    bloated = replace(chunks[0], text=chunks[0].text + " extra words" * 60)
    counts = _Counts(get_encoding("cl100k_base"), [bloated, *chunks[1:]], tb, "cl100k_base", workers=1)
    assert counts.stream[0] is False and counts.count(0) > policy.max_tokens
    report = validate_chunks([bloated, *chunks[1:]], tb, policy)
    assert not report.ok and (report.rule, report.chunk_order) == (1, 0)
