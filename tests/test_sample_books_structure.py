"""The five sample books: every chapter, part and appendix start of the verified reference at its
page, and nothing else at chapter level except front/back matter (issue 2, "Done when")."""

from __future__ import annotations

import re

import pytest

from chunking.ingest import load_book
from chunking.models import CHAPTER_LEVEL_KINDS
from chunking.readers import read_raw
from conftest import reference, sample_book

pytestmark = pytest.mark.slow

BOOKS = ["chez-csug", "debian-policy", "haskell98-report", "lshort", "r-intro"]
BOUNDARY_KINDS = ("chapter", "part", "appendix")


@pytest.fixture(scope="module")
def books() -> dict:
    out = {}
    for name in BOOKS:
        ref = reference(name)
        out[name] = (load_book(sample_book(ref["file"])), ref)
    return out


def _page_index(book, offset: int) -> int:
    return next(i for i, p in enumerate(book.pages) if p.char_start <= offset < p.char_end)


def _reference_starts(book, ref) -> list[tuple[str, int]]:
    """(kind, start page) of every chapter/part/appendix the reference lists, in book order."""
    if ref["format"] == "epub":
        first_page = {}
        for page in book.pages:
            first_page.setdefault(page.source_doc, page.number)
        return [(e["kind"], first_page[e["spine_doc"]]) for e in ref["entries"]
                if e["kind"] in BOUNDARY_KINDS]
    return [(e["kind"], e["start_page"]) for e in ref["entries"] if e["kind"] in BOUNDARY_KINDS]


@pytest.mark.parametrize("name", BOOKS)
def test_outline_finds_exactly_the_reference_chapter_part_and_appendix_starts(books, name):
    book, ref = books[name]
    found = [(h.kind, h.page) for h in book.headings if h.kind in BOUNDARY_KINDS]
    assert found == _reference_starts(book, ref)


@pytest.mark.parametrize("name", BOOKS)
def test_chapter_level_entries_beyond_the_reference_are_only_front_or_back_matter(books, name):
    book, ref = books[name]
    chapter_level = [h for h in book.headings if h.kind in CHAPTER_LEVEL_KINDS | {"part"}]
    extra = [h for h in chapter_level if h.kind not in BOUNDARY_KINDS]
    assert all(h.kind in ("front", "back") for h in extra)
    assert len(chapter_level) - len(extra) == len(_reference_starts(book, ref))


@pytest.mark.parametrize("name", ["chez-csug", "haskell98-report", "lshort", "r-intro"])
def test_pdf_chapter_titles_and_numbers_match_the_reference(books, name):
    book, ref = books[name]
    want = [(e["number"], e["title"].casefold()) for e in ref["entries"] if e["kind"] in BOUNDARY_KINDS]
    got = [(h.number, h.title.casefold()) for h in book.headings if h.kind in BOUNDARY_KINDS]
    assert got == want


@pytest.mark.parametrize("name", BOOKS)
def test_every_heading_offset_lies_on_its_page_and_headings_are_in_book_order(books, name):
    book, _ = books[name]
    offsets = [h.char_offset for h in book.headings]
    assert offsets == sorted(offsets)
    for h in book.headings:
        page = book.pages[h.page - 1]
        assert page.char_start <= h.char_offset < page.char_end
        assert h.page_label == page.label


@pytest.mark.parametrize("name", ["chez-csug", "haskell98-report", "lshort", "r-intro"])
def test_chapter_start_offset_points_at_the_heading_line_not_the_page_start(books, name):
    book, ref = books[name]
    firsts = {e["start_page"]: e["first_line_on_page"] for e in ref["entries"] if e["kind"] in BOUNDARY_KINDS}
    for h in book.headings:
        if h.kind in BOUNDARY_KINDS:
            line = book.text[h.char_offset:].split("\n", 1)[0]
            assert line == firsts[h.page]


def test_structure_sources_are_the_outline_for_outlined_books_and_the_text_otherwise(books):
    sources = {name: books[name][0].diagnostics.structure_source for name in BOOKS}
    assert sources == {"chez-csug": "headings", "debian-policy": "outline", "haskell98-report": "headings",
                       "lshort": "outline", "r-intro": "outline"}


def test_running_headers_and_page_numbers_are_removed_and_counted(books):
    book, _ = books["chez-csug"]
    d = book.diagnostics
    assert d.removed_header_lines > 400 and d.removed_page_numbers > 400
    # the running header of chapter 12 survives only where the chapter starts (and in the contents)
    starts = [m.start() for m in re.finditer(r"(?m)^12\. System Operations$", book.text)]
    assert [book.pages[_page_index(book, i)].number for i in starts] == [7, 335]
    page = book.pages[335]  # physical 336: "326" / "12. System Operations" removed
    assert not book.text[page.char_start:page.char_end].startswith(("326", "12. System Operations"))


def test_bare_numbers_on_synthetic_epub_pages_are_footnote_labels_and_stay_in_the_text(books):
    book, ref = books["debian-policy"]
    raw = read_raw(sample_book(ref["file"]).read_bytes(), ref["file"])
    assert all(p.synthetic for p in raw.pages)  # no page-list: the reader cut the pages
    assert book.diagnostics.removed_page_numbers == 0
    bare = re.compile(r"(?m)^\d{1,4}[ \t]*$")
    labels = [len(bare.findall(p.text)) for p in raw.pages]
    assert sum(labels) >= 5  # Sphinx footnote labels ('3', '4' in <dl class="footnote"><dt>)
    assert [len(bare.findall(book.text[p.char_start:p.char_end])) for p in book.pages] == labels


@pytest.mark.parametrize("name", ["chez-csug", "haskell98-report", "lshort", "r-intro"])
def test_printed_pdf_pages_keep_losing_their_page_numbers(books, name):
    d = books[name][0].diagnostics
    assert d.removed_page_numbers > d.pages / 2 and d.removed_header_lines > 0


@pytest.mark.parametrize("name", ["lshort", "r-intro"])
def test_text_headings_alone_find_the_same_starts_in_books_that_have_an_outline(name):
    ref = reference(name)
    book = load_book(sample_book(ref["file"]), structure="headings")
    assert book.diagnostics.structure_source == "headings"
    found = [(h.kind, h.page) for h in book.headings if h.kind in BOUNDARY_KINDS]
    assert found == _reference_starts(book, ref)
