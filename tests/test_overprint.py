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
