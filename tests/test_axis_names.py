"""Honest page axes (issue 24): a figure of a PDF counts physical pages, of an EPUB with a page
list print pages, of TXT/Markdown synthetic pages; and no end reason wears overlap's orange or
lost text's red (inspector.palette)."""

from __future__ import annotations

from dataclasses import replace

from synthetic_books import make_book, words

from chunking.models import END_REASONS
from chunking.policy import Policy
from chunking.strategies import chunk_book
from chunking.tokens import tokenize
from inspector import figures, palette
from inspector.figures.compare import boundary_strips


def _book(fmt: str, synthetic: bool):
    book = make_book(["Chapter 1\n" + words(300), words(300), "Chapter 2\n" + words(300)],
                     [(0, 0, "chapter", "Chapter 1"), (2, 0, "chapter", "Chapter 2")])
    return replace(book, format=fmt, pages=tuple(replace(p, synthetic=synthetic) for p in book.pages))


def _axis_titles(book):
    chunks = chunk_book(tokenize(book), Policy(max_tokens=128, overlap_tokens=16))
    figs = [figures.boundaries_figure(book, chunks), figures.overlap_per_boundary_figure(book, chunks),
            boundary_strips(book, [("P1", chunks)])]
    titles = [f.layout.xaxis.title.text for f in figs]
    return titles + [figures.coverage_figure(book, chunks).layout.yaxis.title.text]


def test_a_text_books_axes_say_synthetic_page_never_physical_page():
    titles = _axis_titles(_book("txt", synthetic=True))
    assert all("synthetic page" in t and "physical" not in t for t in titles), titles


def test_an_epub_with_a_page_list_counts_print_pages_and_a_pdf_physical_pages():
    assert all(t.startswith("print page") for t in _axis_titles(_book("epub", synthetic=False)))
    assert all(t.startswith("physical page") for t in _axis_titles(_book("pdf", synthetic=False)))


def test_no_end_reason_is_drawn_in_overlaps_orange_or_lost_texts_red():
    colours = {r: palette.END_REASON_COLOURS[r] for r in END_REASONS}
    for reason, colour in colours.items():
        assert colour not in (palette.OVERLAP, palette.LOST), reason
        r, g, b = palette.rgb01(colour)
        assert not (r > 0.85 and 0.35 < g < 0.65 and b < 0.3), f"{reason} {colour} looks orange"
