"""Rule of ``chunking.tokens.retokenize`` (issue 13): a structure correction re-tokenizes only the
pieces whose heading cuts changed, and the result is exactly what ``tokenize`` gives."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunking.models import Heading
from chunking.tokens import retokenize, tokenize
from synthetic_books import assert_same_tokenized, make_book

_WORDS = st.sampled_from(
    ["alpha", "Beta", "42", "naïve", "日本語", "😀", "-", "(x)", "  ", "\n", "\n\n", "a.b"]
)
_PAGE = st.lists(_WORDS, min_size=0, max_size=30).map(" ".join)
_KINDS = st.sampled_from(["chapter", "section", "part", "appendix"])


def _heading(book, offset: int, kind: str) -> Heading:
    page = book.pages[max(0, min(len(book.pages) - 1, _page_at(book, offset)))]
    return Heading(
        level=2 if kind == "section" else 1,
        kind=kind,
        title="t",
        number="",
        page=page.number,
        page_label="",
        char_offset=offset,
        source="headings",
    )


def _page_at(book, offset: int) -> int:
    for i, p in enumerate(book.pages):
        if p.char_start <= offset <= p.char_end:
            return i
    return len(book.pages) - 1


@settings(max_examples=60, deadline=None)
@given(
    pages=st.lists(_PAGE, min_size=1, max_size=5),
    data=st.data(),
    encoding=st.sampled_from(["cl100k_base", "o200k_base"]),
)
def test_retokenize_after_a_correction_equals_tokenize(pages, data, encoding):
    book = make_book(pages)
    n = len(book.text)
    offsets = st.integers(0, n)
    before = [_heading(book, o, k) for o, k in data.draw(st.lists(st.tuples(offsets, _KINDS), max_size=6))]
    book = replace(book, headings=tuple(sorted(before, key=lambda h: h.char_offset)))
    tb = tokenize(book, encoding)
    # A correction: remove some headings, add others, move some, change kinds.
    kept = [h for h in book.headings if data.draw(st.booleans())]
    added = [_heading(book, o, k) for o, k in data.draw(st.lists(st.tuples(offsets, _KINDS), max_size=4))]
    moved = [replace(h, char_offset=data.draw(offsets)) for h in kept if data.draw(st.booleans())]
    retyped = [replace(h, kind=data.draw(_KINDS)) for h in kept[:1]]
    after = replace(
        book, headings=tuple(sorted([*kept, *added, *moved, *retyped], key=lambda h: h.char_offset))
    )
    assert_same_tokenized(retokenize(tb, after), tokenize(after, encoding))


def test_retokenize_of_a_cut_added_mid_chapter_equals_tokenize():
    pages = [f"Chapter {i}\n" + " ".join(["word"] * 200) for i in range(20)]
    book = make_book(pages, [(i, 0, "chapter", f"Chapter {i}") for i in range(1, 20)])
    tb = tokenize(book)
    added = _heading(book, book.pages[5].char_start + 100, "section")
    after = replace(book, headings=tuple(sorted([*book.headings, added], key=lambda h: h.char_offset)))
    out = retokenize(tb, after)
    assert_same_tokenized(out, tokenize(after))
    # The pieces before the split one keep their tokens and offsets.
    first = int(tb.fence_tokens["section"][4])
    assert np.array_equal(out.tokens[:first], tb.tokens[:first])
    assert np.array_equal(out.char_starts[:first], tb.char_starts[:first])


def test_retokenize_refuses_other_text():
    book = make_book(["one page", "two page"])
    other = make_book(["one page", "two pages"])
    with pytest.raises(ValueError):
        retokenize(tokenize(book), other)
