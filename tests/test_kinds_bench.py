"""The kind and title check of the structure bench (``bench/kinds.py``, issue 22): a unit found on
its true page counts for F1 whatever its kind; this check counts its kind and title. Generated
PDFs; no ``../shared`` needed."""

from __future__ import annotations

import sys
from pathlib import Path

from pdf_factory import body, make_pdf

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import kinds  # noqa: E402

BIG = 20.0


def _book(tmp_path: Path) -> Path:
    """A preface, two numbered chapters and an index, each opening a page and in the outline."""
    pages, toc = [], []
    for title in ("Preface", "1 Setup", "2 Usage", "Index"):
        pages.append([(title, BIG)] + body(14, 100 * len(pages)))
        toc.append((1, title, len(pages), None))
    path = tmp_path / "k.pdf"
    path.write_bytes(make_pdf(pages, toc=toc))
    return path


def _truth(kind_of_usage: str, title_of_setup: str) -> dict:
    return {
        "entries": [
            {"title": "Preface", "kind": "front", "start_page": 1},
            {"title": title_of_setup, "kind": "chapter", "start_page": 2},
            {"title": "Usage", "kind": kind_of_usage, "start_page": 3},
            {"title": "Index", "kind": "back", "start_page": 4},
            {"title": "Not found anywhere", "kind": "chapter", "start_page": 9},
        ]
    }


def test_units_found_on_their_pages_are_checked_for_kind_and_title(tmp_path):
    row = kinds.check_book(("x", "k", str(_book(tmp_path)), _truth("chapter", "Setup"), "tuning"))
    assert (row["units"], row["kind"], row["title"], row["examples"]) == (4, 4, 4, [])


def test_a_unit_on_its_page_with_another_kind_or_title_is_a_disagreement(tmp_path):
    row = kinds.check_book(("x", "k", str(_book(tmp_path)), _truth("appendix", "Installation"), "tuning"))
    assert (row["units"], row["kind"], row["title"]) == (4, 3, 3)
    assert len(row["examples"]) == 2 and "appendix 'Usage' → chapter 'Usage'" in row["examples"][1]


def test_titles_match_as_the_scorer_matches_them():
    assert kinds._same("setup", "1 setup") and kinds._same("the setup", "setup")
    assert not kinds._same("setup", "setups") and not kinds._same("", "")
