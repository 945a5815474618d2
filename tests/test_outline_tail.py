"""An outline that stops at the last chapter (issue 22, failure class 6): the appendices and back
matter the text sets after its last entry are units of their own, not the last chapter's pages."""

from __future__ import annotations

from chunking.ingest import load_book
from pdf_factory import Text, body, make_pdf

CHAPTER = 16.0


def _book(appendix_label: str) -> bytes:
    """Four chapters (``N.`` over the title, 16 pt, five pages each), then appendices A and B
    labelled ``appendix_label`` (``A.``) over their titles at the chapter size, with ``B.1``
    sections; the outline lists the chapters only."""
    pages, toc = [], []
    for n, title in enumerate(["Overview", "Input Language", "User Guide", "A Sample Compiler"], 1):
        pages.append([Text(f"{n}.", CHAPTER, "hebo"), Text(title, CHAPTER, "hebo"), *body(20, 100 * n)])
        toc.append((1, f"{n}. {title}", len(pages), None))
        pages += [body(30, 100 * n + 40 + k) for k in range(4)]
    for letter, title in (("A", "Grammar of Inputs"), ("B", "Listings of the Sample")):
        label = appendix_label.replace("A", letter)
        code = Text("Grammar =", 10.0, "cour")  # reads like a title, set at the body size
        pages.append([Text(label, CHAPTER, "hebo"), Text(title, CHAPTER, "hebo"), code, *body(10, 900)])
        pages.append([Text(f"{letter}.1 Listing", 13.0, "hebo"), *body(30, 950)])
    return make_pdf(pages, toc=toc)


def _units(data: bytes) -> list[tuple[str, str, int]]:
    book = load_book(data, name="manual.pdf")
    return [(h.kind, h.number, h.page) for h in book.headings if h.kind in ("chapter", "appendix")]


def test_appendices_after_the_outlines_last_chapter_are_units_of_their_own():
    got = _units(_book("A."))
    assert got[-2:] == [("appendix", "A", 21), ("appendix", "B", 23)]
    assert [kind for kind, _, _ in got[:4]] == ["chapter"] * 4


def test_an_appendix_title_under_its_letter_is_the_lines_set_at_the_letters_size():
    """``A.`` over ``Grammar of Inputs`` over a first line of code that reads like a title:
    the title ends where the size does."""
    book = load_book(_book("A."), name="manual.pdf")
    titles = [h.title for h in book.headings if h.kind == "appendix"]
    assert titles == ["Grammar of Inputs", "Listings of the Sample"]


def test_a_bare_appendix_letter_without_its_full_stop_is_a_label_too():
    assert _units(_book("A"))[-2:] == [("appendix", "A", 21), ("appendix", "B", 23)]


def _references_mid_page(size: float) -> list[tuple[str, str, int]]:
    """Three chapters in the outline; the last chapter's page goes on, after its text, with
    ``References`` set at ``size`` over a list of works, and a page of text after it."""
    pages, toc = [], []
    for n, title in enumerate(["Overview", "Input Language", "Acknowledgements"], 1):
        toc.append((1, f"{n}. {title}", len(pages) + 1, None))
        pages.append([Text(f"{n}.", CHAPTER, "hebo"), Text(title, CHAPTER, "hebo"), *body(20, 100 * n)])
        pages += [body(30, 100 * n + 40 + k) for k in range(2)]
    pages[-1] = [*body(12, 700), Text("References", size, "hebo"), *body(8, 800)]
    pages.append(body(30, 900))
    book = load_book(make_pdf(pages, toc=toc), name="m.pdf")
    return [(h.kind, h.title, h.page) for h in book.headings if h.level == 1]


def test_back_matter_set_as_the_chapters_mid_page_after_the_outlines_end_is_a_unit():
    assert _references_mid_page(CHAPTER)[-1] == ("back", "References", 9)


def test_a_back_matter_name_mid_page_at_another_size_than_the_chapters_is_text():
    assert [kind for kind, _, _ in _references_mid_page(12.0)] == ["chapter"] * 3



def test_an_outline_that_reaches_its_index_says_where_the_book_ends():
    """An outline whose last entry is the index: the index's letter groups (``A`` over
    ``Abstract syntax``, set large) are no appendices."""
    pages, toc = [], []
    for n, title in enumerate(["Overview", "Input Language", "User Guide"], 1):
        toc.append((1, f"{n}. {title}", len(pages) + 1, None))
        pages.append([Text(f"{n}.", CHAPTER, "hebo"), Text(title, CHAPTER, "hebo"), *body(20, 100 * n)])
        pages += [body(30, 100 * n + 40 + k) for k in range(4)]
    toc.append((1, "Index", len(pages) + 1, None))
    pages.append([Text("Index", CHAPTER, "hebo"), *body(5, 900)])
    for letter, first in (("A", "Abstract syntax, parsing of"), ("B", "Buffer, size of the")):
        pages.append([Text(letter, 14.0, "hebo"), Text(first, 10.0), *body(20, 950)])
    assert [h.kind for h in load_book(make_pdf(pages, toc=toc), name="m.pdf").headings if h.level == 1] == [
        "chapter",
        "chapter",
        "chapter",
        "back",
    ]
