"""Structure on scanned books: OCR'd lines carry a type size measured from Tesseract's word
boxes (``chunking.ocr.lines``), fed to the same typography signal as a text layer's font sizes
(issue 25). The books are generated (``tests/scan_factory.py``): their chapter openings are
known, titles alone set large, so only size can find them.
"""

from __future__ import annotations

import json
import shutil

import pymupdf
import pytest

from chunking.ingest import load_book
from chunking.ocr import cache
from chunking.ocr.engine import PageOcr
from chunking.ocr.lines import OcrLine
from chunking.user_cache import CACHE_ENV
from scan_factory import CHAPTER_TITLES, add_text_page, save, scanned_book, sentences

pytestmark = pytest.mark.skipif(
    shutil.which("tesseract") is None, reason="Tesseract is not installed (make tesseract)"
)


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    """Every test starts with an empty OCR cache of its own."""
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture(scope="module")
def turned_book() -> tuple[bytes, list[int]]:
    """40 scanned pages, 4 chapters; every other page turned 1-2 degrees and speckled."""
    return scanned_book(pages_per_chapter=10, chapters=4, turned=True)


def _chapters(book) -> list[tuple[int, str]]:
    return [(h.page, h.title) for h in book.headings if h.kind == "chapter"]


def test_scanned_book_finds_every_chapter_by_its_size_at_its_page(turned_book):
    data, openings = turned_book
    book = load_book(data, name="scanned.pdf")
    assert all(p.ocr for p in book.pages)
    assert _chapters(book) == list(zip(openings, CHAPTER_TITLES))
    for heading in book.headings:
        assert any(signal == "typography" for signal, _ in heading.evidence)


def test_scanned_book_keeps_its_chapters_when_read_from_the_cache(turned_book, tmp_path, monkeypatch):
    data, openings = turned_book
    first = load_book(data, name="scanned.pdf")
    monkeypatch.setenv("PATH", str(tmp_path))  # NOTE: no Tesseract now: only the cache reads the pages
    again = load_book(data, name="scanned.pdf")
    assert again.diagnostics.warnings == []
    assert _chapters(again) == _chapters(first) == list(zip(openings, CHAPTER_TITLES))


def test_born_digital_book_reads_its_sizes_from_the_text_layer_as_before():
    doc = pymupdf.open()
    for n in range(12):
        add_text_page(doc, sentences(120, seed=300 + n), heading=CHAPTER_TITLES[n // 4] if n % 4 == 0 else "")
    book = load_book(save(doc), name="born-digital.pdf")
    assert not any(p.ocr for p in book.pages)
    assert _chapters(book) == [(1, CHAPTER_TITLES[0]), (5, CHAPTER_TITLES[1]), (9, CHAPTER_TITLES[2])]
    notes = [where for h in book.headings for signal, where in h.evidence if signal == "typography"]
    assert notes and all("20.0 pt" in note and "body 12.0 pt" in note for note in notes)


def test_an_entry_of_the_old_format_is_ocrd_again_never_read_without_sizes(turned_book, own_cache):
    data, openings = turned_book
    load_book(data, name="scanned.pdf")
    for entry in cache.cache_dir().rglob("*.json"):
        record = json.loads(entry.read_text())
        assert record["schema"] == cache.SCHEMA == 3
        if "books" in entry.parts:  # NOTE: a book record: version 1 wrote none, so it is gone
            entry.unlink()
            continue
        assert record["lines"]
        old = {k: v for k, v in record.items() if k != "lines"}
        old["schema"] = 1  # NOTE: what version 1 wrote: no line sizes
        entry.write_text(json.dumps(old))
    for entry in cache.cache_dir().rglob("*.json"):
        assert cache.load(entry.stem, None) is None
    again = load_book(data, name="scanned.pdf")
    assert _chapters(again) == list(zip(openings, CHAPTER_TITLES))
    assert all(json.loads(e.read_text())["schema"] == 3 for e in cache.cache_dir().rglob("*.json"))


def test_an_entry_whose_lines_are_not_its_text_is_ignored(own_cache):
    key = cache.page_key("e" * 64, "eng", 300)
    result = PageOcr(
        "Winter Harbour\nbody words",
        95.0,
        4,
        (OcrLine("Winter Harbour", 19.5, 72, 72, 92), OcrLine("body words", 12.0, 72, 110, 122)),
    )
    cache.save(key, "tesseract 5.3.0", result)
    assert cache.load(key, None) == result
    path = next(cache.cache_dir().rglob("*.json"))
    record = json.loads(path.read_text())
    record["lines"][0][0] = "Another Title"
    path.write_text(json.dumps(record))
    assert cache.load(key, None) is None
