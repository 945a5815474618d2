"""The bench's synthetic scale book (``bench/synthetic.py``): deterministic bytes, the page count
asked for, and the structure the pipeline is meant to find in it (no timings are tested)."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pymupdf
import pytest

from chunking.ingest import load_book

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import synthetic  # noqa: E402

PAGES = 45  # three chapters (pages 1, 21, 41); the 2,000-page book is the same generator, longer


@pytest.fixture(scope="module")
def pdf_bytes() -> bytes:
    return synthetic.build_pdf(PAGES)


def test_synthetic_book_is_byte_identical_across_builds(pdf_bytes):
    again = synthetic.build_pdf(PAGES)
    assert hashlib.sha256(again).hexdigest() == hashlib.sha256(pdf_bytes).hexdigest()


def test_synthetic_book_has_the_pages_and_outline_asked_for(pdf_bytes):
    assert synthetic.DEFAULT_PAGES == 2000
    with pymupdf.open(stream=pdf_bytes, filetype="pdf") as doc:
        assert doc.page_count == PAGES
        toc = doc.get_toc()
        assert [(lvl, page) for lvl, _, page in toc] == [
            (1, 1), (2, 6), (2, 14), (1, 21), (2, 26), (2, 34), (1, 41)]
        # Every page carries text at book density, and no page is the same as another.
        texts = [page.get_text() for page in doc]
    assert all(len(t) > 1000 for t in texts)
    assert len(set(texts)) == PAGES


def test_synthetic_book_reads_with_its_chapters_and_without_its_furniture(pdf_bytes):
    book = load_book(pdf_bytes, name="synthetic.pdf")
    assert len(book.pages) == PAGES
    chapters = [(h.number, h.page) for h in book.headings if h.kind == "chapter"]
    assert chapters == [("1", 1), ("2", 21), ("3", 41)]
    assert [(h.number, h.page) for h in book.headings if h.kind == "section"] == [
        ("1.1", 6), ("1.2", 14), ("2.1", 26), ("2.2", 34)]
    # Running headers and page numbers are furniture the normaliser removes.
    assert book.diagnostics.removed_page_numbers >= PAGES - 3
    assert book.diagnostics.removed_header_lines >= 0.8 * (PAGES - 3)


def test_cached_book_is_reused_and_keyed_by_page_count(tmp_path):
    first = synthetic.cached_book(tmp_path, 3)
    stamp = first.stat().st_mtime_ns
    assert synthetic.cached_book(tmp_path, 3) == first and first.stat().st_mtime_ns == stamp
    other = synthetic.cached_book(tmp_path, 4)
    assert other != first
    with pymupdf.open(other) as doc:
        assert doc.page_count == 4
