"""OCR'd pages printed from a text file (``chunking.ocr.printout``): a page set in one
monospaced face at one pitch is recognised from Tesseract's word boxes (one advance per
character, words on one grid of columns, rows at one pitch) and gets back the blank lines and
columns its text file had, so the plain-text structure reader reads its headings (issues 22,
25). The pages are generated (``tests/scan_factory.py``): known text in Courier, rendered at
300 dpi with no text layer.
"""

from __future__ import annotations

import shutil

import pymupdf
import pytest

from chunking.ingest import load_book
from chunking.user_cache import CACHE_ENV
from scan_factory import add_scanned_page, printout_image, save, scan_image, sentences, wrapped

pytestmark = pytest.mark.skipif(
    shutil.which("tesseract") is None, reason="Tesseract is not installed (make tesseract)"
)

WIDTH = 72
"""Columns of the generated text file."""

BODY = 3
"""Columns the body is indented by."""

TITLES = ("Beginnings", "The Winter Harbour", "Northern Stations")


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    """Every test starts with an empty OCR cache of its own."""
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    return tmp_path / "cache"


def _paragraphs(seed: int, count: int) -> list[str]:
    lines: list[str] = []
    for n in range(count):
        lines += [*wrapped(sentences(45, seed=seed + n), WIDTH, BODY), ""]
    return lines


def _printout() -> list[str]:
    """The pages of a text file (lines, ``\\n``-joined), RFC style: a centred title, then each
    chapter opening with ``N.  TITLE`` at the margin over paragraphs indented ``BODY`` columns,
    its second page one long paragraph (no blank line, no line at the margin)."""
    pages = []
    for number, title in enumerate(TITLES, start=1):
        top = ["A Book Printed From Its Text".center(WIDTH).rstrip(), ""] if number == 1 else []
        first = [*top, f"{number}.  {title.upper()}", "", *_paragraphs(10 * number, 4)]
        pages.append("\n".join(first).rstrip("\n"))
        pages.append("\n".join(wrapped(sentences(400, seed=30 * number), WIDTH, BODY)))
    return pages


@pytest.fixture(scope="module")
def printout() -> tuple[list[str], bytes]:
    texts = _printout()
    doc = pymupdf.open()
    for text in texts:
        add_scanned_page(doc, printout_image(text))
    return texts, save(doc)


def _layout(text: str) -> list[int | None]:
    """Each line's indent in columns; None for a blank line."""
    return [len(line) - len(line.lstrip()) if line.strip() else None for line in text.split("\n")]


def test_ocrd_printout_page_gets_back_its_blank_lines_and_columns(printout):
    texts, data = printout
    book = load_book(data, name="printout.pdf")
    assert all(p.ocr for p in book.pages)
    for number, text in enumerate(texts, start=1):
        start, end = book.pages[number - 1].char_start, book.pages[number - 1].char_end
        got = book.text[start:end].strip("\n")
        assert _layout(got) == _layout(text), f"page {number}"


def test_ocrd_printout_is_read_as_a_plain_text_its_numbered_chapters_found(printout):
    """Half its pages hold no blank line: OCR taking them for a printout says they are one."""
    _, data = printout
    book = load_book(data, name="printout.pdf")
    chapters = [(h.page, h.title.casefold()) for h in book.headings if h.kind == "chapter"]
    assert chapters == [(1, TITLES[0].casefold()), (3, TITLES[1].casefold()), (5, TITLES[2].casefold())]


def test_a_proportional_scanned_page_is_not_taken_for_a_printout():
    doc = pymupdf.open()
    for seed in (1, 2):
        add_scanned_page(doc, scan_image(sentences(260, seed=seed), heading="A Quiet Garden"))
    book = load_book(save(doc), name="typeset.pdf")
    assert all(p.ocr for p in book.pages)
    assert "\n\n" not in book.text.strip("\n")
    assert not any(line.startswith(" ") for line in book.text.split("\n"))
