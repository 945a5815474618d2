"""Chapters with a label and no title (``Chapter 7`` set large, the chapter's text right below, as
in a novel): found when the label is set large, never at body size, and the line below is the
chapter's text, not its title (issue 25: the generated scanned book of ``tests/test_ocr.py``)."""

from __future__ import annotations

from chunking.ingest import load_book
from pdf_factory import make_pdf

BIG = 20.0
TITLES = ("The Northern Station", "Winter Harbour", "A Quiet Garden")
PROSE = "Carried the letter across the river and waited by the window until the"


def _prose(n: int, seed: int) -> list[tuple[str, float]]:
    """Body lines that read like a title (capitalised, no full stop, under 12 words)."""
    words = PROSE.split()
    return [(" ".join(words[(seed + k) % 5 :]).capitalize(), 11.0) for k in range(n)]


def _chapters(book) -> list[tuple[str, str, int]]:
    return [(h.number, h.title, h.page) for h in book.headings if h.kind == "chapter"]


def test_untitled_chapter_labels_set_large_are_chapters_without_a_title():
    pages = []
    for n in range(9):
        label = [(f"Chapter {n // 3 + 1}", BIG)] if n % 3 == 0 else []
        pages.append(label + _prose(20, n))
    book = load_book(make_pdf(pages), name="novel.pdf")
    assert _chapters(book) == [("1", "", 1), ("2", "", 4), ("3", "", 7)]


def test_a_chapter_label_alone_at_body_size_is_no_chapter():
    pages = []
    for n in range(6):
        pages.append(_prose(8, n) + [(f"Chapter {n + 1}", 11.0)] + _prose(8, n + 1))
    book = load_book(make_pdf(pages), name="cross-references.pdf")
    assert _chapters(book) == []


def test_a_title_set_large_below_its_label_stays_its_title():
    pages = []
    for n in range(6):
        opening = [(f"Chapter {n // 2 + 1}", BIG), (TITLES[n // 2], BIG)] if n % 2 == 0 else []
        pages.append(opening + _prose(18, n))
    book = load_book(make_pdf(pages), name="titled.pdf")
    assert _chapters(book) == [("1", TITLES[0], 1), ("2", TITLES[1], 3), ("3", TITLES[2], 5)]
