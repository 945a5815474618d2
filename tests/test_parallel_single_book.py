"""Rules of a single-book run on several cores (issues 15, 23): the output never depends on how
many workers ran it. Tokens encoded on threads (the text cut at safe newlines) and chunks
re-encoded on threads give what one core gives, byte for byte."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunking.encodings import get_encoding
from chunking.policy import Policy
from chunking.strategies import chunk_book
from chunking.tokens import SAFE_SPLIT_ENCODINGS, is_safe_cut, tokenize
from chunking.validate import validate_chunks
from pdf_factory import body, make_pdf
from synthetic_books import make_book
from text_pieces import texts

ROOT = Path(__file__).resolve().parent.parent
_TEXT = texts(60)


@pytest.mark.parametrize("encoding", sorted(SAFE_SPLIT_ENCODINGS))
@settings(max_examples=300, deadline=None)
@given(text=_TEXT)
def test_a_text_cut_at_a_safe_newline_encodes_to_the_same_tokens(encoding, text):
    enc = get_encoding(encoding)
    whole = enc.encode_ordinary(text)
    for p in range(len(text) + 1):
        if is_safe_cut(text, p):
            assert enc.encode_ordinary(text[:p]) + enc.encode_ordinary(text[p:]) == whole, p


@settings(max_examples=40, deadline=None)
@given(
    pages=st.lists(_TEXT, min_size=1, max_size=6),
    workers=st.integers(2, 4),
    encoding=st.sampled_from(["cl100k_base", "o200k_base"]),
)
def test_tokens_encoded_on_threads_equal_one_thread(pages, workers, encoding):
    book = make_book(pages, [(0, 0, "chapter", "c")] if pages[0] else [])
    one, many = tokenize(book, encoding, workers=1), tokenize(book, encoding, workers=workers)
    for name in ("tokens", "char_starts", "legal"):
        assert np.array_equal(getattr(one, name), getattr(many, name)), name
    assert all(np.array_equal(one.fence_tokens[k], many.fence_tokens[k]) for k in one.fence_tokens)


def test_validation_on_threads_reports_what_one_thread_reports():
    book = make_book([" ".join(["word"] * 900) + "\n" + " ".join(["more"] * 900) for _ in range(4)])
    tb, policy = tokenize(book), Policy()
    chunks = chunk_book(tb, policy)
    assert validate_chunks(chunks, tb, policy, workers=1) == validate_chunks(chunks, tb, policy, workers=2)
    from dataclasses import replace

    broken = list(chunks)
    broken[3] = replace(broken[3], text=broken[3].text + " extra")
    one = validate_chunks(broken, tb, policy, workers=1)
    assert not one.ok and one == validate_chunks(broken, tb, policy, workers=2)


def _pdf(n: int) -> bytes:
    """A real ``n``-page PDF with chapters, a blank page and an image-only page."""
    pages = [
        [(f"Chapter {i}", 20.0), *body(30, start=i * 30)] if i % 10 == 0 else body(40, start=i * 40)
        for i in range(n)
    ]
    pages[5] = []
    return make_pdf(pages, image_pages=(7,), toc=[(1, f"Chapter {i}", i + 1, None) for i in range(0, n, 10)])


def test_cli_output_with_default_workers_is_byte_identical_to_one_worker(tmp_path):
    book = tmp_path / "book.pdf"
    book.write_bytes(_pdf(160))
    outs = []
    for k, args in enumerate(([], ["--workers", "1"], ["--workers", "2"])):
        out = tmp_path / f"run{k}" / "out.jsonl"
        out.parent.mkdir()
        subprocess.run(
            [sys.executable, "-m", "chunking", "chunk", str(book), "-o", str(out), *args],
            check=True,
            cwd=ROOT,
            capture_output=True,
        )
        outs.append((out.read_bytes(), out.with_name(out.name + ".manifest.json").read_bytes()))
    assert outs[0][0] and outs[0] == outs[1] == outs[2]

