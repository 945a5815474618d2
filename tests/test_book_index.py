"""The printed index as relevance judgments (chunking.retrieval.book_index): entries of two sample
books map to the physical pages a reader finds them on, and the line rules parse what real indexes
print (ranges, ff, roman numerals, see also, sub-entries, dot leaders, letter headers)."""

from __future__ import annotations

from pathlib import Path

import pytest

from chunking.ingest import load_book
from chunking.retrieval.book_index import expand_ref, parse_book_index, parse_entries, split_line

ROOT = Path(__file__).resolve().parent.parent

HAND_CHECKED = {
    "lshort.pdf": {
        # (parent, term) -> physical pages; each was opened and the term read on the page
        ("", "binomial coefficient"): (63,),      # printed 49: "To typeset binomial coefficients"
        ("", "booktabs"): (51,),                  # printed 37: "available in the booktabs package"
        ("", "Chinese"): (41,),                   # printed 27: "Chinese, Japanese and Korean (CJK)"
        ("brace", "horizontal"): (61,),           # printed 47: "\overbrace ... horizontal braces"
    },
    "haskell98-report.pdf": {
        ("", "ASCII character set"): (21,),       # printed 7: "biased toward the ASCII character set"
        ("", "atan2"): (106, 107),                # printed 92, 93: "atan2 y x computes the angle"
        ("", "as-pattern (@)"): (45, 47),         # printed 31, 33: "are called as-patterns"
    },
}
"""Labels differ from physical pages in both books (roman front matter), so a parser that skipped
the label mapping would fail."""


@pytest.mark.parametrize("name", sorted(HAND_CHECKED))
def test_hand_checked_entries_map_to_the_right_physical_pages(name):
    book = load_book(ROOT / "sample_books" / name)
    index = parse_book_index(book)
    found = {(e.parent, e.term): e.pages for e in index.entries}
    for key, pages in HAND_CHECKED[name].items():
        assert found.get(key) == pages, key
    # the index itself is found at the back and most entries map to pages
    assert index.page_start > len(book.pages) * 0.8
    assert len(index.mapped) > 0.8 * len(index.entries) > 100


def test_a_book_without_a_printed_index_gives_no_entries():
    book = load_book(ROOT / "sample_books" / "debian-policy.epub")   # no page labels: nothing maps
    assert parse_book_index(book).mapped == []


def test_references_expand_ranges_ff_and_roman_numerals():
    assert expand_ref("12-15") == ["12", "13", "14", "15"]
    assert expand_ref("12–13") == ["12", "13"]
    assert expand_ref("123-25") == ["123", "124", "125"]
    assert expand_ref("12f") == ["12", "13"]
    assert expand_ref("12ff") == ["12", "13", "14"]
    assert expand_ref("xiv") == ["xiv"]
    assert expand_ref("t270") == [] and expand_ref("1-900") == ["1"]


def test_lines_split_into_term_references_and_see_also():
    assert split_line("binomial coefficient, 49, 51-52") == ("binomial coefficient", ["49", "51-52"], [])
    assert split_line("abs. . . . . . . . . . 25, 26, 69") == ("abs", ["25", "26", "69"], [])
    assert split_line("pattern, see pattern binding") == ("pattern", [], ["pattern binding"])
    assert split_line("lists, 12, see also arrays") == ("lists", ["12"], ["arrays"])
    assert split_line("Smith, John, 4") == ("Smith, John", ["4"], [])
    assert split_line("preface, xi") == ("preface", ["xi"], [])


def test_sub_entries_belong_to_the_heading_above_until_the_order_moves_on():
    lines = ["INDEX", "129", "A", "alpha, 3", "brace", "horizontal, 47", "vertical, 48",
             "bracketing, 50", "B", "character set", "ASCII, see ASCII", "charesc, 12,", "110",
             "Entries in bold are definitions of the term in question.", "zeta, 7-9"]
    entries = parse_entries(lines)
    assert [(t, p, r) for t, p, r, _ in entries] == [
        ("alpha", "", ["3"]), ("brace", "", []), ("horizontal", "brace", ["47"]),
        ("vertical", "brace", ["48"]), ("bracketing", "", ["50"]), ("character set", "", []),
        ("ASCII", "character set", []), ("charesc", "", ["12", "110"]), ("zeta", "", ["7-9"])]
