"""The PDF reader: pages, printed labels, outline destinations and title, as PyMuPDF gives them."""

from __future__ import annotations

import pymupdf
import pytest

from chunking.readers import read_raw
from chunking.readers.pdf import read_pdf
from conftest import sample_book
from pdf_factory import Text, body, gutter_printout, line_tops, make_pdf


def test_pages_are_one_based_in_physical_order_with_their_text():
    raw = read_pdf(make_pdf([body(2), body(2, 10), body(2, 20)]), "three.pdf")
    assert [p.number for p in raw.pages] == [1, 2, 3]
    assert [p.text.split("\n")[0] for p in raw.pages] == [
        "Line 0 plain body text about the topic at hand number 0.",
        "Line 10 plain body text about the topic at hand number 10.",
        "Line 20 plain body text about the topic at hand number 20.",
    ]
    assert raw.format == "pdf" and raw.pdf is not None


def test_printed_labels_come_from_the_pdf_and_are_empty_when_it_defines_none():
    labels = [
        {"startpage": 0, "prefix": "", "style": "r", "firstpagenum": 1},
        {"startpage": 2, "prefix": "", "style": "D", "firstpagenum": 1},
    ]
    raw = read_pdf(make_pdf([body(1)] * 4, labels=labels), "labels.pdf")
    assert [p.label for p in raw.pages] == ["i", "ii", "1", "2"]
    assert [p.label for p in read_pdf(make_pdf([body(1)] * 2), "plain.pdf").pages] == ["", ""]


def test_outline_entries_keep_level_title_page_and_the_distance_from_the_page_top():
    page = body(20)
    tops = line_tops(page)
    raw = read_pdf(make_pdf([page, page], toc=[(1, "One", 1, tops[0]), (2, "Deep", 2, tops[15])]), "toc.pdf")
    assert [(e.level, e.title, e.page) for e in raw.outline] == [(1, "One", 1), (2, "Deep", 2)]
    assert raw.outline[0].y == pytest.approx(tops[0], abs=0.5)
    assert raw.outline[1].y == pytest.approx(tops[15], abs=0.5)


def test_explicit_outline_destinations_are_read_from_the_page_top_whatever_the_pdf_space_y():
    page = body(20)
    tops = line_tops(page)
    data = make_pdf([page], toc=[(1, "Near the top", 1, tops[0]), (1, "Near the bottom", 1, tops[19])])
    doc = pymupdf.open(stream=data, filetype="pdf")
    # the PDF itself states PDF-space y (origin bottom-left): the top line is the higher number
    written = [float(doc.xref_get_key(x, "A/D")[1].split()[-2]) for x in doc.get_outline_xrefs()]
    raw = read_pdf(data, "dest.pdf")
    assert [e.y for e in raw.outline] == pytest.approx([842 - y for y in written], abs=0.01)
    assert [e.y for e in raw.outline] == pytest.approx([tops[0], tops[19]], abs=0.5)


def test_named_outline_destinations_resolve_to_the_distance_from_the_page_top():
    data = sample_book("lshort.pdf").read_bytes()
    doc = pymupdf.open(stream=data, filetype="pdf")
    names = doc.resolve_names()  # the PDF's name tree, in PDF space (origin bottom-left)
    raw = read_pdf(data, "lshort.pdf")
    uris = [item.uri for item in _outline_items(doc.outline)]
    assert len(uris) == len(raw.outline) == 137
    for entry, uri in zip(raw.outline, uris):
        target = names[uri.split("=", 1)[1]]
        assert entry.page == target["page"] + 1
        assert entry.y == pytest.approx(doc[target["page"]].cropbox.height - target["to"][1], abs=0.01)


def _outline_items(item):
    while item:
        yield item
        yield from _outline_items(item.down)
        item = item.next


def test_title_comes_from_metadata_unless_it_is_a_file_name():
    assert read_pdf(make_pdf([body(1)], title="A Real Title"), "x.pdf").title == "A Real Title"
    dvi = read_pdf(make_pdf([body(1)], title="haskell.dvi"), "haskell98-report.pdf")
    assert dvi.title == "haskell98-report"
    assert read_pdf(make_pdf([body(1)]), "no-title.pdf").title == "no-title"


def test_read_raw_dispatches_pdf_by_extension():
    raw = read_raw(make_pdf([body(1)]), "Book.PDF")
    assert raw.format == "pdf"


def test_sample_book_labels_and_outline_are_read():
    raw = read_pdf(sample_book("r-intro.pdf").read_bytes(), "r-intro.pdf")
    assert len(raw.pages) == 113
    assert [p.label for p in raw.pages[:8]] == ["T-1", "T-2", "i", "ii", "iii", "iv", "1", "2"]
    assert len(raw.outline) == 145
    first = raw.outline[0]
    assert (first.level, first.title, first.page) == (1, "Preface", 7)
    assert first.y == pytest.approx(72.0, abs=1.0)


_PRINTOUT = [
    "1. INTRODUCTION",
    "",
    "The tool reads books and cuts them into chunks,",
    "one chapter at a time.",
    "",
    "",
    "It keeps the pages and the titles.",
    "",
    "2. INSTALLING",
    "",
    *(f"Step {k}: the tool is installed from the package registry." for k in range(8)),
]
"""The lines of a text file printed under a printer's header (blank lines drawn as nothing)."""


def _typewritten_page(font: str) -> bytes:
    """One page of a text file printed in ``font``: two paragraphs and a heading, blank lines
    between them drawn as nothing."""
    return make_pdf([[Text(line, 10.0, font) for line in _PRINTOUT[:9]]])


def test_a_typewritten_page_gets_its_blank_lines_back_from_the_line_pitch():
    text = read_raw(_typewritten_page("cour"), "printout.pdf").pages[0].text
    assert "1. INTRODUCTION\n\nThe tool reads" in text
    assert "one chapter at a time.\n\n\nIt keeps" in text
    assert "the titles.\n\n2. INSTALLING" in text


def test_a_typewritten_page_under_a_printers_header_in_another_font_gets_its_blank_lines_back():
    """a2ps sets its own header (date, file name, ``Page N/M``) in Helvetica over the Courier
    text, which keeps the file's margin as spaces: the header is passed over, the text's blank
    lines still come back from its pitch."""
    header = [Text("Jan 01, 80 0:00", 9.0, "helv"), Text("Page 1/4", 9.0, "hebo", inline=True)]
    page = [*header, *(Text(f"     {line}" if line else "", 10.0, "cour") for line in _PRINTOUT)]
    text = read_raw(make_pdf([page]), "printout.pdf").pages[0].text
    assert "1. INTRODUCTION\n\n     The tool reads" in text
    assert "one chapter at a time.\n\n\n     It keeps" in text


def _printout_under_a_boxed_header() -> bytes:
    """``_PRINTOUT`` in Courier under a printer's header in Helvetica 14/12 pt (file name and
    page over folder and date), the file's lines flush left (its headings at the margin, its
    paragraphs too), a blank line's space between the header and the text."""
    header = [
        Text("source.txt", 14.0, "hebo"),
        Text("1/4", 14.0, "hebo", align="right", inline=True),
        Text("~/", 12.0, "helv"),
        Text("01/01/80", 12.0, "helv", align="right", inline=True),
    ]
    body = [
        Text(line, 10.0, "cour", space_before=30.0 if k == 0 else 0.0) for k, line in enumerate(_PRINTOUT)
    ]
    return make_pdf([[*header, *body]])


def test_a_printout_under_a_header_standing_apart_in_another_font_gets_its_blank_lines_back():
    """The decision rests on the monospaced body: a printer's header in another font standing
    above it with a blank line's space between is furniture, even where the file's lines open at
    the margin (no indent tells a printout); the header stays apart from the text's first line."""
    text = read_raw(_printout_under_a_boxed_header(), "printout.pdf").pages[0].text
    assert "01/01/80\n\n1. INTRODUCTION\n\nThe tool" in text
    assert "one chapter at a time.\n\n\nIt keeps" in text
    assert "the titles.\n\n2. INSTALLING\n\nStep 0" in text


@pytest.mark.parametrize("numbered", [False, True])
def test_a_printers_gutter_set_smaller_than_the_text_is_no_text_of_the_line(numbered):
    """A printer that numbers lines sets a gutter before each line in a smaller size, blank or
    holding the line's number: it is taken off each line, and a line of the gutter alone is a
    blank line of the file."""
    text = read_raw(gutter_printout([_PRINTOUT], numbered=numbered), "printout.pdf").pages[0].text
    assert "Page 1 of 1\n\n1. INTRODUCTION\n\nThe tool reads" in text
    assert "one chapter at a time.\n\n\nIt keeps" in text
    assert "the titles.\n\n2. INSTALLING\n\nStep 0" in text


def test_a_fractional_line_pitch_read_from_whole_point_baselines_is_one_pitch():
    """Courier 5.8 pt at 1.5 leading: a pitch of 8.7 pt, whose baselines in whole points are 8
    or 9 apart; a blank line (a gap of 17 or 18) is two of that pitch, not 2.25 of the smallest
    gap."""
    lines = []
    for k in range(14):
        lines += (
            [f"{k + 1}. STEP", ""]
            + [f"The tool is installed from the registry, part {k}." for _ in range(3)]
            + [""]
        )
    text = read_raw(make_pdf([[Text(line, 5.8, "cour") for line in lines]]), "printout.pdf").pages[0].text
    assert text.count("\n\n") == 2 * 14 - 1
    assert "part 0.\n\n2. STEP\n\nThe tool" in text


def test_a_typeset_page_of_code_under_a_proportional_heading_keeps_its_text_as_read():
    """A typeset book's page of code (a listing in Courier under a heading in Helvetica) draws
    no margin of spaces: it is no printout, and no blank line is put into it."""
    lines = ["(define (f x)", "  (g x))", "", "(define (g y)", "  y)"] * 4
    page = [Text("Listing 3", 12.0, "hebo"), *(Text(line, 10.0, "cour") for line in lines)]
    text = read_raw(make_pdf([page]), "book.pdf").pages[0].text
    assert "\n\n" not in text.strip("\n")


def test_a_page_in_a_proportional_font_keeps_no_blank_lines():
    text = read_raw(_typewritten_page("helv"), "set.pdf").pages[0].text
    assert "\n\n" not in text.strip("\n")


def test_a_printout_that_moves_the_pen_to_each_lines_column_gets_its_leading_spaces_back():
    """A printer that sets each line at its column (CUPS' texttopdf) draws no leading spaces:
    the file's indents come back from the lines' starts, a space per character advance (Courier
    10 pt: 6 pt) from the page's leftmost line; a printer that draws its spaces is read as before."""
    indents = [0, 0, 3, 3, 0, 0, 3, 0, 0]
    page = [Text(line, 10.0, "cour", x=72.0 + 6.0 * n) for line, n in zip(_PRINTOUT[:9], indents)]
    text = read_raw(make_pdf([page]), "printout.pdf").pages[0].text
    assert "1. INTRODUCTION\n\n   The tool reads books" in text
    assert "\n   one chapter at a time.\n" in text
    assert "\n\n   It keeps the pages" in text
    assert "\n2. INSTALLING" in text


def test_a_typewritten_page_in_a_font_its_name_calls_monospaced_gets_its_blank_lines_back():
    """A TrueType program without the tables that state a fixed pitch is a proportional face to
    MuPDF (its generic family ``serif``); the font's name still says what it is."""
    doc = pymupdf.open()
    page = doc.new_page()
    writer = pymupdf.TextWriter(page.rect)
    face = pymupdf.Font("cjk")
    for k, line in enumerate(_PRINTOUT[:9]):
        if line:
            writer.append((72, 100 + 12 * k), line, font=face, fontsize=10)
    writer.write_text(page)
    (xref, *_), *_ = page.get_fonts()
    descendant = int(doc.xref_get_key(xref, "DescendantFonts")[1].strip("[]").split()[0])
    for font in (xref, descendant):
        doc.xref_set_key(font, "BaseFont", "/ABCDEF+PrinterMono")
    text = read_raw(doc.tobytes(), "printout.pdf").pages[0].text
    assert "1. INTRODUCTION\n\nThe tool reads" in text
    assert "one chapter at a time.\n\n\nIt keeps" in text
