"""Text drawn twice at nearly the same place (a shadow, a poor man's bold) is read once, and a
line the page really repeats elsewhere stays twice (``chunking.readers.pdfpages``, issue 25).
The PDFs are generated: each copy is placed by hand, so the test knows what the page shows.
"""

from __future__ import annotations

import pymupdf

from chunking.ingest import load_book
from chunking.readers.pdfpages import page_content

BODY = "The river ran north past the station while the engine waited."


def _pdf(draws: list[tuple[float, float, str, float]]) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    for x, y, text, size in draws:
        page.insert_text((x, y), text, fontsize=size, fontname="tiro")
    return doc.tobytes()


def _lines(data: bytes) -> list[str]:
    book = load_book(data, name="overprint.pdf")
    return [line for line in book.text.split("\n") if line.strip()]


def test_a_line_drawn_twice_a_third_of_a_point_apart_is_read_once():
    data = _pdf(
        [(72, 100, "A Shadowed Heading", 18), (72.3, 100.3, "A Shadowed Heading", 18), (72, 140, BODY, 11)]
    )
    assert _lines(data) == ["A Shadowed Heading", BODY]


def test_a_line_that_repeats_elsewhere_on_the_page_stays_twice():
    draws = [(72, 100, BODY, 11), (72, 400, BODY, 11), (300, 500, BODY[:30], 11), (72, 520, BODY[:30], 11)]
    assert _lines(_pdf(draws)) == [BODY, BODY, BODY[:30], BODY[:30]]


def test_a_line_repeated_on_the_next_line_stays_twice():
    draws = [(72, 100, "Refrain of the song", 11), (72, 113, "Refrain of the song", 11)]
    assert _lines(_pdf(draws)) == ["Refrain of the song", "Refrain of the song"]


def test_fake_bold_of_three_copies_and_a_shadowed_paragraph_are_read_once():
    title = [(72 + dx, 100, "Bold by Overprint", 16) for dx in (0, 0.25, 0.5)]
    paragraph = [
        (72 + d, 200 + k * 14 + d, line, 11)
        for d in (0, 0.4)
        for k, line in enumerate([BODY, "And then it left."])
    ]
    assert _lines(_pdf(title + paragraph)) == ["Bold by Overprint", BODY, "And then it left."]


def test_a_page_with_no_repeated_line_is_its_plain_text():
    data = _pdf([(72, 100, "One line", 11), (72, 120, BODY, 11)])
    page = pymupdf.open(stream=data, filetype="pdf")[0]
    assert page_content(page) == (page.get_text(), True)


def _shadowed_runs(x: float, y: float, runs: list[tuple[str, float]]) -> list[tuple[float, float, str, float]]:
    """Faked small capitals with a drop shadow, drawn run by run: each run in grey 0.7 pt right
    and down, then in black, the pen then moving on by the run's width."""
    font = pymupdf.Font("tiro")
    draws = []
    for text, size in runs:
        draws += [(x + 0.7, y + 0.7, text, size), (x, y, text, size)]
        x += font.text_length(text, fontsize=size)
    return draws


def test_a_shadowed_heading_drawn_run_by_run_is_read_as_one_line():
    runs = [("4. C", 15.4), ("USTOMIZING", 11.4), (" Y", 15.4), ("OUR", 11.4), (" C", 15.4), ("ONFIGURATION", 11.4)]
    data = _pdf(_shadowed_runs(72, 100, runs) + [(72, 140, BODY, 11)])
    page = pymupdf.open(stream=data, filetype="pdf")[0]
    assert page.get_text().startswith("4. C\n4. CUSTOMIZING\nUSTOMIZING Y\n")  # MuPDF's own lines
    assert _lines(data) == ["4. CUSTOMIZING YOUR CONFIGURATION", BODY]


def test_a_line_that_opens_the_next_line_below_it_stays_whole():
    draws = [(72, 100, "Section A", 11), (72, 114, "Section A of the form is filled in first.", 11)]
    assert _lines(_pdf(draws)) == ["Section A", "Section A of the form is filled in first."]


def test_a_fraction_whose_numerator_opens_its_denominator_stays_two_lines():
    # a small display fraction G(time) over G(time)-1, a tall hat after the denominator: the two
    # lines' boxes share most of their height, their baselines stand 9 pt apart
    font = pymupdf.Font("tiro")
    over, under = "G(time)", "G(time)-1"
    wide, narrow = font.text_length(under, fontsize=7), font.text_length(over, fontsize=7)
    draws = [(300 + (wide - narrow) / 2, 300, over, 7), (300, 309, under, 7), (300 + wide + 1, 309, "^", 17)]
    data = _pdf(draws + [(72, 360, BODY, 11)])
    page = pymupdf.open(stream=data, filetype="pdf")[0]
    assert page.get_text().startswith(f"{over}\n{under}")  # MuPDF's own lines, one over the other
    assert _lines(data)[:2] == [over, page.get_text().split("\n")[1]]
