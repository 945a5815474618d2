"""The fidelity bench (bench/fidelity.py, issue 25) on a page the reference extractor cannot read
whole: a content stream that writes a number in exponent notation (``3.05176e-05``, no PDF
number; ``xotcl-tutorial``'s pages do). poppler's pdftotext stops the page there, MuPDF skips the
token and reads on: the words pdftotext lacks are its loss (``reference``), not words we invented.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pymupdf
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import fidelity  # noqa: E402

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs pdftotext (make poppler)")

CLEAN = (
    b"BT /helv 11 Tf 72 770 Td (a clean page of plain words) Tj 0 -28 Td (read alike by both readers) Tj ET"
)
BROKEN = (
    b"BT /helv 11 Tf 72 770 Td (first line of the page) Tj 3.05176e-05 -28 Td (second line after the error) Tj"
    b" 0 -28 Td (third line of words) Tj ET"
)


def _book(tmp_path: Path) -> Path:
    doc = pymupdf.open()
    for content in (CLEAN, BROKEN):
        page = doc.new_page()
        page.insert_text((72, 72), "x", fontsize=11)  # NOTE: registers the font as /helv
        doc.update_stream(page.get_contents()[0], content)
    path = tmp_path / "exponent-numbers.pdf"
    doc.save(path)
    return path


def test_a_page_pdftotext_stops_on_is_found_and_its_missing_words_are_not_invented(tmp_path):
    path = _book(tmp_path)
    reference, messages = fidelity.pdftotext_pages(path)
    assert "second" not in "\n".join(reference[1])  # NOTE: poppler really stopped there
    assert fidelity.reference_failures(path, len(reference), messages) == {1}
    tally, _ = fidelity.measure(path)
    assert tally.invented == {"reference": 9}
    assert "unknown" not in tally.lost and "unknown" not in tally.invented
    row = fidelity.table([("exponent-numbers.pdf", tally)]).splitlines()[-1]
    assert row.startswith("| exponent-numbers.pdf | 16 | 0.00% | 0.00% |")


def test_a_book_pdftotext_reads_without_error_is_never_read_again_page_by_page(tmp_path):
    path = _book(tmp_path)
    assert fidelity.reference_failures(path, 2, b"") == set()


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="Tesseract is not installed (make tesseract)")
def test_a_page_our_reader_read_by_ocr_is_left_out_of_both_texts(tmp_path, monkeypatch):
    """A scanned page has no text layer for pdftotext to read: our OCR'd words there are no
    invented words, and the born-digital page beside it is still measured."""
    from scan_factory import add_scanned_page, add_text_page, scan_image, sentences

    from chunking.user_cache import CACHE_ENV

    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    doc = pymupdf.open()
    add_text_page(doc, sentences(120, seed=1))
    add_scanned_page(doc, scan_image(sentences(120, seed=2)))
    path = tmp_path / "half-scanned.pdf"
    doc.save(path)
    tally, _ = fidelity.measure(path)
    assert tally.words > 100  # NOTE: the born-digital page is counted
    assert not tally.invented and not tally.lost
