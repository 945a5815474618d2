"""A PDF outline read as its pages set the headings (``chunking.structure.outline_runs``, issue 22):
styled runs of one heading line joined into one entry, a destination past its page's text moved to
the next page, in the engine and in the outline's plain reading (``bench/outline_baseline.py``)."""

from __future__ import annotations

import sys
from pathlib import Path

from chunking.ingest import load_book
from chunking.normalise import normalise
from chunking.readers import read_raw
from chunking.structure.outline_runs import MAX_RUN, as_set
from pdf_factory import BODY, LEADING, Text, body, line_tops, make_pdf

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from outline_baseline import baseline_lines  # noqa: E402

BIG = 18.0
ABOVE = 6.0
"""Points above its heading line a destination points (as generators set it, a little above)."""


def _chapters(book) -> list[tuple[str, int]]:
    return [(h.title, h.page) for h in book.headings if h.kind in ("chapter", "front", "back", "appendix")]


def _baseline(tmp_path: Path, pdf: bytes) -> list[tuple[str, int]]:
    path = tmp_path / "book.pdf"
    path.write_bytes(pdf)
    return [(line["title"], line["page"]) for line in baseline_lines(path)]


def _run_book(runs: list[str], offsets: list[float]) -> tuple[bytes, list]:
    """Three chapters; the second one's heading line, mid-page, bookmarked as one entry per run
    (``runs``), each pointing ``offsets[i]`` points below the first's destination."""
    heading = "".join(runs)
    page2 = body(12, 100) + [Text(heading, BIG, space_before=10)] + body(12, 200)
    pages = [[Text("Getting started", BIG)] + body(30), page2, [Text("Reference", BIG)] + body(30, 300)]
    y = line_tops(page2)[12] - ABOVE
    toc = [(1, "Getting started", 1, line_tops(pages[0])[0] - ABOVE)]
    toc += [(1, run, 2, y + offset) for run, offset in zip(runs, offsets)]
    toc += [(1, "Reference", 3, line_tops(pages[2])[0] - ABOVE)]
    return make_pdf(pages, toc=toc), pages


def test_styled_runs_of_one_heading_line_at_one_destination_are_one_entry(tmp_path):
    pdf, _ = _run_book(["Class: ", "Widget", " and its ", "Parts"], [0.0, 0.0, 0.0, 0.0])
    book = load_book(pdf, name="runs.pdf")
    want = [("Getting started", 1), ("Class: Widget and its Parts", 2), ("Reference", 3)]
    assert _chapters(book) == want
    assert book.text[book.headings[1].char_offset :].startswith("Class: Widget and its Parts\n")
    assert any("3 of 6 outline entries were styled runs" in w for w in book.diagnostics.warnings)
    assert _baseline(tmp_path, pdf) == want


def test_runs_whose_destinations_lie_within_their_lines_height_are_one_entry():
    pdf, _ = _run_book(["Class: ", "Widget"], [0.0, 0.6 * BIG * LEADING])
    book = load_book(pdf, name="adjacent.pdf")
    assert _chapters(book)[1] == ("Class: Widget", 2)


def test_entries_a_line_or_more_apart_are_not_runs_of_one_heading():
    # the same titles, pointing a line apart: two destinations, not one heading's runs
    pdf, _ = _run_book(["Class: ", "Widget"], [0.0, 2 * BIG * LEADING])
    book = load_book(pdf, name="apart.pdf")
    assert ("Class: Widget", 2) not in _chapters(book)


def test_two_headings_at_one_destination_stay_two_entries(tmp_path):
    # two one-line headings, one under the other, both bookmarked at the first: their titles
    # together are no line of the page
    page2 = body(12, 100) + [Text("Widgets", BIG), Text("Gadgets", BIG)] + body(12, 200)
    pages = [[Text("Getting started", BIG)] + body(30), page2, [Text("Reference", BIG)] + body(30, 300)]
    y = line_tops(page2)[12] - ABOVE
    toc = [
        (1, "Getting started", 1, 10.0),
        (1, "Widgets", 2, y),
        (1, "Gadgets", 2, y),
        (1, "Reference", 3, 10.0),
    ]
    pdf = make_pdf(pages, toc=toc)
    titles = [t for t, _ in _baseline(tmp_path, pdf)]
    assert titles == ["Getting started", "Widgets", "Gadgets", "Reference"]
    assert [t for t, _ in _chapters(load_book(pdf, name="two.pdf"))] == titles


def _late_book(folios: bool, after: int = 0, opening: str = "") -> tuple[bytes, float]:
    """Three chapters; the second opens page 3, but its destination points below the 40th line of
    page 2, its last (recorded before the page break). ``after``: body lines on page 2 below the
    destination. ``opening``: a line set above its title on page 3. ``folios``: a folio in every
    page's footer."""
    page2 = body(40, 100) + body(after, 150)
    below = line_tops(page2)[39] + BODY * LEADING + 2.0
    page3 = ([Text(opening)] if opening else []) + [Text("Second steps", BIG)] + body(30, 200)
    pages = [
        [Text("Getting started", BIG)] + body(40),
        page2,
        page3,
        [Text("Reference", BIG)] + body(30, 300),
    ]
    toc = [(1, "Getting started", 1, 30.0), (1, "Second steps", 2, below), (1, "Reference", 4, 30.0)]
    footer = (lambda i: [Text(str(i + 1), BODY, align="center")]) if folios else None
    return make_pdf(pages, toc=toc, footer=footer), below


def test_an_entry_pointing_past_its_pages_last_line_at_the_title_opening_the_next_page_is_there(tmp_path):
    for folios in (False, True):
        pdf, _ = _late_book(folios)
        want = [("Getting started", 1), ("Second steps", 3), ("Reference", 4)]
        assert _baseline(tmp_path, pdf) == want, folios
        assert _chapters(load_book(pdf, name="late.pdf")) == want


def test_an_entry_pointing_above_a_line_of_its_page_stays_there(tmp_path):
    # the destination points at a line of its page (more body below it): not past the page's text
    pdf, _ = _late_book(False, after=2)
    assert ("Second steps", 2) in _baseline(tmp_path, pdf)


def test_an_entry_past_its_pages_text_stays_when_the_next_page_does_not_open_with_its_title(tmp_path):
    pdf, _ = _late_book(False, opening="A line of text before the heading.")
    assert ("Second steps", 2) in _baseline(tmp_path, pdf)


def test_thousands_of_entries_at_one_spot_are_joined_at_most_max_run_at_a_time():
    # a hostile outline: every entry a piece of the line at one spot; runs are bounded, so the
    # reading stays linear, and a line of more pieces than MAX_RUN is never joined
    for repeats, want in ((8, 2000 // 8), (MAX_RUN + 4, 2000)):
        pages = [[Text("ab" * repeats, BIG)] + body(40), [Text("Reference", BIG)] + body(40, 100)]
        raw = read_raw(make_pdf(pages, toc=[(1, "ab", 1, 40.0)] * 2000), "hostile.pdf")
        try:
            assert len(as_set(raw, normalise(raw.pages)).entries) == want
        finally:
            raw.close()


def test_an_entry_whose_page_prints_its_title_over_two_lines_stays_on_its_page():
    """``Chapter 2`` / ``Widgets`` on the entry's page holds ``Chapter 2. Widgets`` (its letters
    and digits in order, whatever stands between them), though the next page's running header
    opens with the title written whole: the entry stays."""
    pages = [
        [Text("Chapter 1", BIG), Text("Getting started", BIG)] + body(30),
        [Text("Chapter 2", BIG), Text("Widgets", BIG)] + body(30, 100),
        [Text("Chapter 2. Widgets")] + body(30, 200),
        [Text("Chapter 3", BIG), Text("Reference", BIG)] + body(30, 300),
    ]
    toc = [
        (1, "Chapter 1. Getting started", 1, 30.0),
        (1, "Chapter 2. Widgets", 2, 30.0),
        (1, "Chapter 3. Reference", 4, 30.0),
    ]
    raw = read_raw(make_pdf(pages, toc=toc), "split.pdf")
    try:
        read = as_set(raw, normalise(raw.pages))
    finally:
        raw.close()
    assert [(e.title, e.page) for e in read.entries] == [(t, p) for _, t, p, _ in toc]
    assert read.moved == 0
