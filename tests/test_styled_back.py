"""Unnumbered units after the last chapter set as the chapter headings are (issue 22): a paper's
``Data availability``, ``Acknowledgments`` and ``References`` mid-page after its last
numbered section are units of their own, not the last chapter's text (``styled_back.py``)."""

from __future__ import annotations

import pytest

from chunking.ingest import load_book
from pdf_factory import Text, body, make_pdf

CHAPTER = 14.0


def _paper(closing: Text) -> list[tuple[str, str, int]]:
    """Four numbered chapters (``N. Title``, 14 pt bold), three pages each, no outline; the last
    page goes on after the last chapter's text with ``closing`` over a paragraph, then the next
    page opens with ``References`` set the same way over a list of works."""
    pages = []
    for n, title in enumerate(["Introduction", "Methods", "Software", "Summary"], 1):
        pages.append([Text(f"{n}. {title}", CHAPTER, "hebo", space_before=8), *body(20, 100 * n)])
        pages += [body(30, 100 * n + 40 + k) for k in range(2)]
    pages[-1] = [*body(12, 700), Text(closing.text, closing.size, closing.font, space_before=8), *body(8, 800)]
    pages.append([Text("References", closing.size, closing.font), *body(30, 900)])
    book = load_book(make_pdf(pages), name="paper.pdf")
    return [(h.kind, h.title, h.page) for h in book.headings if h.level == 1]


def test_unnumbered_titles_set_as_the_chapters_after_the_last_one_are_back_units():
    units = _paper(Text("Data availability", CHAPTER, "hebo"))
    assert units[-2:] == [("back", "Data availability", 12), ("back", "References", 13)]
    assert [kind for kind, _, _ in units[:4]] == ["chapter"] * 4


@pytest.mark.parametrize(
    "closing",
    [Text("Data availability", 10.0, "hebo"), Text("Data availability", CHAPTER, "helv")],
    ids=["body size", "not bold"],
)
def test_a_title_in_another_type_than_the_chapters_is_the_last_chapters_text(closing):
    """(``References`` at the next page's top is a unit by its name, set large, either way.)"""
    units = _paper(closing)
    assert [kind for kind, _, _ in units[:4]] == ["chapter"] * 4
    assert "Data availability" not in [title for _, title, _ in units]
