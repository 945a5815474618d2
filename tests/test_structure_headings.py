"""Heading detection from the text and its typography, on small PDFs without an outline."""

from __future__ import annotations

import pytest

from chunking.ingest import load_book
from pdf_factory import LEFT, Text, body, gutter_printout, make_pdf

BIG = 20.0
SMALL = 8.0


def _chapters(book) -> list[tuple[str, str, str, int]]:
    return [(h.kind, h.number, h.title, h.page) for h in book.headings if h.kind != "section"]


def _book_with_running_headers() -> bytes:
    """Chapter openers with ``Chapter N`` / title; other pages carry ``N`` / ``CHAPTER N. TITLE``."""
    pages, physical = [], 0
    for number, title, length in ((1, "Alpha", 4), (2, "Beta", 1), (3, "Gamma", 3)):
        pages.append([("Chapter " + str(number), BIG), (title, BIG)] + body(14, number * 100))
        physical += 1
        for extra in range(length):
            physical += 1
            header = [(str(physical), SMALL), (f"CHAPTER {number}. {title.upper()}", SMALL)]
            pages.append(header + body(14, number * 100 + 20 * (extra + 1)))
    return make_pdf(pages)


def test_chapter_keyword_with_title_on_the_next_line_is_found_and_running_headers_are_not():
    book = load_book(_book_with_running_headers(), name="headers.pdf")
    assert book.diagnostics.structure_source == "headings"
    assert _chapters(book) == [
        ("chapter", "1", "Alpha", 1),
        ("chapter", "2", "Beta", 6),
        ("chapter", "3", "Gamma", 8),
    ]
    # "CHAPTER 2. BETA" appears once (chapter 2 has one more page): not removed as a repeat,
    # yet never a chapter start, because it is set at header size.
    assert "CHAPTER 2. BETA" in book.text
    assert book.diagnostics.removed_header_lines >= 5


def test_chapter_that_starts_mid_page_starts_at_its_line():
    pages = [
        [("Chapter 1", BIG), ("Alpha", BIG)] + body(10),
        body(6, 100) + [("Chapter 2", BIG), ("Beta", BIG)] + body(6, 200),
    ]
    book = load_book(make_pdf(pages), name="mid.pdf")
    beta = book.headings[1]
    assert (beta.number, beta.page) == ("2", 2)
    assert book.pages[1].char_start < beta.char_offset
    assert book.text[beta.char_offset :].startswith("Chapter 2\nBeta\nLine 200")


def test_seed_false_positives_are_not_headings():
    pages = [
        [("Chapter 1", BIG), ("Alpha", BIG)]
        + body(4)
        + [
            ("Section did not converge after many steps", 10.0),
            ("Part of the problem is here", 10.0),
            ("Part 2 of the report shows growth", 10.0),
            ("Chapter 15 documents the thread system", 10.0),
        ]
        + body(4, 50)
    ]
    book = load_book(make_pdf(pages), name="false.pdf")
    assert _chapters(book) == [("chapter", "1", "Alpha", 1)]


def test_texinfo_numbered_titles_form_a_sequence_and_list_items_do_not_join():
    steps = [("1. Open the file.", 10.0), ("2. Save it", 10.0)]
    pages = [
        [("1 Getting started", BIG)] + body(5) + steps + body(5, 10),
        [("2 Going further", BIG)] + body(10, 30),
        [("3. Wrapping up", BIG)] + body(10, 60),
    ]
    book = load_book(make_pdf(pages), name="texinfo.pdf")
    assert _chapters(book) == [
        ("chapter", "1", "Getting started", 1),
        ("chapter", "2", "Going further", 2),
        ("chapter", "3", "Wrapping up", 3),
    ]


def test_sphinx_chapter_number_word_title_and_spelled_numbers_become_digits():
    pages = [
        [("CHAPTER", BIG), ("ONE", BIG), ("INSTALLATION", BIG)] + body(10),
        [("CHAPTER", BIG), ("TWO", BIG), ("USAGE NOTES", BIG)] + body(10, 20),
        [("Chapter Three", BIG), ("Advanced Topics", BIG)] + body(10, 40),
    ]
    book = load_book(make_pdf(pages), name="sphinx.pdf")
    assert _chapters(book) == [
        ("chapter", "1", "Installation", 1),
        ("chapter", "2", "Usage Notes", 2),
        ("chapter", "3", "Advanced Topics", 3),
    ]


def test_parts_appendices_and_front_back_matter_sit_at_chapter_level_around_parts():
    pages = [
        [("Preface", BIG)] + body(8),
        [("Part I", BIG), ("Basics", BIG)] + body(3, 10),
        [("Chapter 1", BIG), ("Alpha", BIG)] + body(8, 20),
        [("Chapter 2: Beta", BIG)] + body(8, 40),
        [("Appendix A", BIG), ("Tables", BIG)] + body(8, 60),
        [("Index", BIG)] + body(8, 80),
    ]
    book = load_book(make_pdf(pages), name="matter.pdf")
    assert [(h.level, h.kind, h.number, h.title, h.page) for h in book.headings] == [
        (2, "front", "", "Preface", 1),
        (1, "part", "I", "Basics", 2),
        (2, "chapter", "1", "Alpha", 3),
        (2, "chapter", "2", "Beta", 4),
        (2, "appendix", "A", "Tables", 5),
        (2, "back", "", "Index", 6),
    ]


def test_chapters_numbered_from_1_again_in_each_part_are_all_chapters():
    pages = []
    for part, name, chapters in (
        (1, "Arrival", ["Alpha", "Beta", "Gamma"]),
        (2, "Departure", ["Delta", "Epsilon"]),
    ):
        pages.append([(f"Part {part}", BIG), (name, BIG)] + body(3, 10 * part))
        for n, title in enumerate(chapters, 1):
            pages.append([(f"Chapter {n}", BIG), (title, BIG)] + body(14, 100 * part + 10 * n))
            pages.append(body(30, 100 * part + 10 * n + 5))
    book = load_book(make_pdf(pages), name="restart.pdf")
    assert [(h.level, h.kind, h.number, h.title) for h in book.headings] == [
        (1, "part", "1", "Arrival"),
        (2, "chapter", "1", "Alpha"),
        (2, "chapter", "2", "Beta"),
        (2, "chapter", "3", "Gamma"),
        (1, "part", "2", "Departure"),
        (2, "chapter", "1", "Delta"),
        (2, "chapter", "2", "Epsilon"),
    ]


def test_a_list_numbered_from_1_inside_a_later_part_at_body_size_is_no_chapters():
    pages = [[("Part 1", BIG), ("Arrival", BIG)] + body(3, 10)]
    for n, title in enumerate(["Alpha", "Beta", "Gamma"], 1):
        pages.append([(f"Chapter {n}", BIG), (title, BIG)] + body(14, 100 + 10 * n))
    pages.append([("Part 2", BIG), ("Departure", BIG)] + body(3, 20))
    steps = [("1. Install the widget", 10.0), ("2. Run the widget", 10.0), ("3. Stop the widget", 10.0)]
    pages.append(body(10, 900) + steps + body(10, 950))
    book = load_book(make_pdf(pages), name="list.pdf")
    assert [h.number for h in book.headings if h.kind == "chapter"] == ["1", "2", "3"]


def test_numbered_sections_follow_their_chapter_number_and_increase():
    pages = [
        [("Chapter 1", BIG), ("Alpha", BIG)]
        + body(3)
        + [("1.1 First Steps", 12.0)]
        + body(3, 10)
        + [("2.7 Stray Reference Line", 12.0)]
        + [("1.2 Next Steps", 12.0)]
        + body(3, 20),
        [("Chapter 2", BIG), ("Beta", BIG)] + body(3, 30) + [("2.1 Basics Again", 12.0)] + body(3, 40),
    ]
    book = load_book(make_pdf(pages), name="sections.pdf")
    assert [(h.level, h.number, h.title) for h in book.headings if h.kind == "section"] == [
        (2, "1.1", "First Steps"),
        (2, "1.2", "Next Steps"),
        (2, "2.1", "Basics Again"),
    ]


def test_contents_page_lines_are_not_chapter_starts():
    names = {1: "Topic Alpha", 2: "Topic Beta", 3: "Topic Gamma"}
    contents = (
        [("Contents", BIG)]
        + [(f"{n} {names[n]} . . . . . . {n * 10}", 10.0) for n in names]
        + [(f"{n}.1 Subtopic . . . . {n * 10 + 1}", 10.0) for n in names]
    )
    pages = [contents] + [[(f"{n} {names[n]}", BIG)] + body(8, n * 20) for n in names]
    book = load_book(make_pdf(pages), name="contents.pdf")
    assert _chapters(book) == [("front", "", "Contents", 1)] + [
        ("chapter", str(n), names[n], n + 1) for n in names
    ]


def test_structure_none_gives_no_headings_and_headings_mode_ignores_the_outline():
    data = _book_with_running_headers()
    assert load_book(data, name="x.pdf", structure="none").headings == ()
    assert load_book(data, name="x.pdf", structure="none").diagnostics.structure_source == "none"
    assert load_book(data, name="x.pdf", structure="headings").diagnostics.structure_source == "headings"


def test_small_running_header_naming_the_new_chapter_above_its_mid_page_start_is_not_the_start():
    pages = [
        [("Chapter 1", BIG), ("Alpha", BIG)] + body(10),
        [("2", SMALL), ("CHAPTER 2. BETA", SMALL)]
        + body(6, 100)
        + [("Chapter 2", BIG), ("Beta", BIG)]
        + body(6, 200),
    ]
    book = load_book(make_pdf(pages), name="header-above.pdf")
    beta = book.headings[1]
    assert (beta.number, beta.title, beta.page) == ("2", "Beta", 2)
    assert book.text[beta.char_offset :].startswith("Chapter 2\nBeta\nLine 200")


def test_a_chapter_whose_first_page_reads_like_an_index_is_still_found():
    index_lines = [(f"entry {n}, {n * 3}, {n * 7}", 10.0) for n in range(1, 16)]
    pages = [
        [("Chapter 1", BIG), ("Alpha", BIG)] + body(10),
        [("Chapter 2", BIG), ("Index of Terms", BIG)] + index_lines,
    ]
    book = load_book(make_pdf(pages), name="index-like.pdf")
    assert _chapters(book) == [("chapter", "1", "Alpha", 1), ("chapter", "2", "Index of Terms", 2)]


def test_confirmed_large_headings_bridge_a_chapter_the_text_does_not_show():
    pages = [
        [("1 Alpha", BIG)] + body(10),
        [("2 Beta", BIG)] + body(10, 20),
        [],
        [("4 Delta", BIG)] + body(10, 40),
        [("5 Epsilon", BIG)] + body(10, 60),
    ]
    book = load_book(make_pdf(pages, image_pages=(2,)), name="gap.pdf")
    assert [h.number for h in book.headings if h.kind == "chapter"] == ["1", "2", "4", "5"]


def test_upper_case_section_header_above_the_section_heading_is_not_its_start():
    pages = [
        [("Chapter 1", BIG), ("Alpha", BIG)] + body(12),
        [("1.1. LAYOUT", SMALL), ("2", SMALL)]
        + body(4, 100)
        + [("1.1", 12.0), ("Layout", 12.0)]
        + body(6, 200),
    ]
    book = load_book(make_pdf(pages), name="section-header.pdf")
    sections = [h for h in book.headings if h.kind == "section"]
    assert [(h.number, h.title, h.page) for h in sections] == [("1.1", "Layout", 2)]
    assert book.text[sections[0].char_offset :].startswith("1.1\nLayout\nLine 200")


def test_unnumbered_chapters_are_found_by_their_display_size_when_nothing_else_marks_them():
    # no outline, no numbers, no keywords, no contents: only the size of the opening lines
    titles = ["Getting Started", "Working with Data", "Drawing Pictures", "Where to Go Next"]
    pages = [[("A Handbook of Things", 30.0)] + body(2, 900)]
    for k, title in enumerate(titles):
        pages.append(
            [(title, 18.0)] + body(14, 100 * k) + [("Smaller Side Heading", 12.0)] + body(6, 100 * k + 50)
        )
        pages.append(body(22, 100 * k + 70))
    book = load_book(make_pdf(pages), name="display.pdf")
    found = [(h.kind, h.title, h.page) for h in book.headings if h.kind in ("chapter", "front", "back")]
    assert found == [("front", "A Handbook of Things", 1)] + [
        ("chapter", t, 2 + 2 * k) for k, t in enumerate(titles)
    ]
    assert all(
        ("typography", f"p. {2 + 2 * k}: 18.0 pt display size, body 10.0 pt") in h.evidence
        for k, h in enumerate(book.headings[1:])
    )


def test_a_size_used_on_most_pages_is_not_a_chapter_display_size():
    # a large line opens every page (a glossary's terms, a header set large): no chapter style
    words = ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel"]
    pages = [[(f"Entry {w}", 16.0)] + body(20, 30 * k) for k, w in enumerate(words)]
    book = load_book(make_pdf(pages), name="runner.pdf")
    assert [h for h in book.headings if h.kind == "chapter"] == []


def test_a_one_chapter_offprint_keeps_its_chapter_above_its_sections():
    """An offprint holds one chapter: its opening (``Chapter 7`` / title, set large) is a chapter
    with its ``7.N`` sections below it, not a wrapper title dropped as the lone root of a
    nesting (text headings have no nesting)."""
    pages = [[("Chapter 7", BIG), ("Graph Methods", BIG)] + body(20)]
    for k in (1, 2, 3):
        pages.append([(f"7.{k} Part {k} of the method", 12.0)] + body(20, 100 * k))
    book = load_book(make_pdf(pages), name="offprint.pdf")
    assert _chapters(book) == [("chapter", "7", "Graph Methods", 1)]
    sections = [(h.number, h.level, h.page) for h in book.headings if h.kind == "section"]
    assert sections == [("7.1", 2, 2), ("7.2", 2, 3), ("7.3", 2, 4)]


def _labelled_appendices(title_size: float) -> bytes:
    pages = []
    for number, title in ((1, "Alpha"), (2, "Beta")):
        pages.append([("Chapter " + str(number), BIG), (title, BIG)] + body(20, 100 * number))
    for letter, title in (("A", "Formal Grammar"), ("B", "Error Messages")):
        pages.append([(f"APPENDIX {letter}", 10.0), (title, title_size)] + body(20, 500))
    return make_pdf(pages)


def test_an_appendix_label_at_body_size_over_a_large_title_is_an_appendix():
    book = load_book(_labelled_appendices(BIG), name="labels.pdf")
    assert _chapters(book) == [
        ("chapter", "1", "Alpha", 1),
        ("chapter", "2", "Beta", 2),
        ("appendix", "A", "Formal Grammar", 3),
        ("appendix", "B", "Error Messages", 4),
    ]


def test_an_appendix_label_at_body_size_over_body_text_is_no_appendix():
    book = load_book(_labelled_appendices(10.0), name="labels.pdf")
    assert _chapters(book) == [("chapter", "1", "Alpha", 1), ("chapter", "2", "Beta", 2)]


def test_a_sentence_ending_in_an_appendix_name_at_a_page_top_is_no_appendix():
    """``… is given in`` / ``Appendix A.`` wrapped onto the next page, above a large section
    number: the end of a sentence, not a label over its title."""
    pages = [
        [("Chapter 1", BIG), ("Alpha", BIG)]
        + body(20, 100)
        + [("The grammar of the language is given in", 10.0)],
        [("Appendix A.", 10.0), ("1.1", 17.0), ("A Section", 17.0)] + body(20, 200),
        [("Chapter 2", BIG), ("Beta", BIG)] + body(20, 300),
    ]
    book = load_book(make_pdf(pages), name="wrapped.pdf")
    assert _chapters(book) == [("chapter", "1", "Alpha", 1), ("chapter", "2", "Beta", 3)]


def test_a_numbered_list_of_the_chapters_without_page_numbers_is_no_chapters():
    """A contents of ``1. Notices`` … ``6. File Formats`` with no page numbers (so no line ends
    in a number to mark it as one), set large, spilling onto a second page; the chapters
    themselves are unnumbered headings set large in the text. The list's lines are no chapters;
    the headings are."""
    titles = ["Notices", "Copying", "Introduction", "General Operation", "Colour Schemes", "File Formats"]
    contents = [("Table of Contents", BIG)] + [(f"{n}. {t}", 14.0) for n, t in enumerate(titles[:4], 1)]
    spill = [(f"{n}. {t}", 14.0) for n, t in enumerate(titles[4:], 5)] + body(3, 10)
    pages = [[("The Widget Manual", 28.0)], contents, spill]
    for n, title in enumerate(titles):
        pages.append([(title, BIG)] + body(30, n * 100))
        pages += [body(40, n * 100 + 40), body(40, n * 100 + 80)]
    book = load_book(make_pdf(pages), name="listed.pdf")
    opened = [
        (h.title, h.page) for h in book.headings if h.kind in ("chapter", "front", "back") and h.page > 3
    ]
    assert opened == [(t, 4 + 3 * n) for n, t in enumerate(titles)]
    assert not [h for h in book.headings if h.kind == "chapter" and h.page <= 3]


def _modules_book(chapter_size: float) -> bytes:
    """A printed contents listing five chapters, each opening at the margin in bold at
    ``chapter_size`` over an indented 10 pt body, with bold 10 pt headings at the margin below it
    that recur in every chapter (``Global Variables``): no numbers, no keywords, no outline."""

    titles = ["Memory Module", "Router Module", "Scanner Module", "Parser Module", "Printer Module"]
    entries = [Text(f"{t} . . . . . . . . {3 + 3 * k}", 10.0, x=LEFT + 24) for k, t in enumerate(titles)]
    pages = [[Text("Architecture Manual", 30.0, "hebo")], [Text("Contents", 12.0, "hebo"), *entries]]
    for k, title in enumerate(titles):
        pages.append(
            [
                Text(title, chapter_size, "hebo"),
                *_indented(6, 100 * k),
                Text("Global Variables", 10.0, "hebo"),
            ]
            + _indented(8, 100 * k + 10)
        )
        pages.append([Text("Global Functions", 10.0, "hebo"), *_indented(20, 100 * k + 30)])
        pages.append(_indented(30, 100 * k + 70))
    return make_pdf(pages)


def test_bold_headings_set_below_the_listed_chapters_size_are_not_chapters():
    book = load_book(_modules_book(12.0), name="modules.pdf")
    chapters = [(h.title, h.page) for h in book.headings if h.kind == "chapter" and h.page > 2]
    names = ["Memory", "Router", "Scanner", "Parser", "Printer"]
    assert chapters == [(f"{name} Module", 3 + 3 * k) for k, name in enumerate(names)]


def test_a_chapter_the_contents_places_and_the_text_finds_is_one_heading():
    book = load_book(_modules_book(12.0), name="modules.pdf")
    offsets = [h.char_offset for h in book.headings]
    assert len(offsets) == len(set(offsets))


def test_a_pdf_printed_from_a_text_file_is_read_as_a_plain_text():
    """Every line in Courier at one pitch (enscript, an RFC): no type size tells a heading, but
    the text's own marks do once its blank lines are back (``readers/pdftypewriter.py``): the
    numbered titles under a rule are the chapters."""
    words = "The tool reads books and cuts them into chunks one chapter at a time".split()
    pages = []
    for n, title in enumerate(["INTRODUCTION", "INSTALLING", "RUNNING"], 1):
        lines = ["=" * 60, f"{n}. {title}", ""]
        for k in range(6):
            lines += [" ".join(words[(k + j) % len(words)] for j in range(9)) for _ in range(4)] + [""]
        pages.append([Text(line, 10.0, "cour") for line in lines])
        pages.append([Text(" ".join(words[:9]) if k % 5 else "", 10.0, "cour") for k in range(1, 41)])
    book = load_book(make_pdf(pages), name="printout.pdf")
    assert [(h.kind, h.number, h.title, h.page) for h in book.headings if h.kind == "chapter"] == [
        ("chapter", "1", "Introduction", 1),
        ("chapter", "2", "Installing", 3),
        ("chapter", "3", "Running", 5),
    ]


def test_a_printout_page_with_a_blank_line_after_every_line_keeps_its_blank_lines():
    """A printout's page holding a list with a blank line after each entry (a list of figures)
    has no two lines one pitch apart: its smallest gap is two pitches, and the blank lines come
    back as on a page of prose."""
    words = "The tool reads books and cuts them into chunks one chapter at a time".split()
    prose = [Text(" ".join(words[k % 5 : k % 5 + 8]), 10.0, "cour") for k in range(30)]
    entries = [f"2.{k}. Commands available in menu {k}" for k in range(1, 13)]
    listed = [Text(line, 10.0, "cour") for entry in entries for line in (entry, "")]
    book = load_book(make_pdf([prose, listed]), name="printout.pdf")
    page = book.pages[1]
    assert book.text[page.char_start : page.char_end].strip() == "\n\n".join(entries)


def test_a_printout_under_a_larger_header_in_another_font_is_read_as_a_plain_text():
    """A text file printed in Courier under a printer's header set larger in Helvetica (file
    name, page, folder, date): the header is furniture, standing apart above the text; the body
    decides that the book is a printout, and its chapter headings at the margin are chapters,
    though none is set larger than the text."""
    words = "The tool reads books and cuts them into chunks one chapter at a time".split()
    para = [" " * 4 + " ".join(words[(k + j) % len(words)] for j in range(9)) for k in range(4)] + [""]
    titles = ["Introduction", "Installing", "Running"]
    pages = []
    for n, title in enumerate(titles, 1):
        pages.append([f"Chapter {n}. {title}", *para * 6])
        pages.append(para * 7)
    pages.append(["Appendix A. Options", *para * 6])
    book = []
    for k, lines in enumerate(pages):
        header = [
            Text("source.txt", 14.0, "hebo"),
            Text(f"{k + 1}/{len(pages)}", 14.0, "hebo", align="right", inline=True),
            Text("~/", 12.0, "helv"),
            Text("01/01/80", 12.0, "helv", align="right", inline=True),
        ]
        body = [Text(line, 8.5, "cour", space_before=30.0 if j == 0 else 0.0) for j, line in enumerate(lines)]
        book.append([*header, *body])
    units = [
        (h.kind, h.number, h.title, h.page) for h in load_book(make_pdf(book), name="printout.pdf").headings
    ]
    assert [u for u in units if u[0] in ("chapter", "appendix")] == [
        ("chapter", "1", "Introduction", 1),
        ("chapter", "2", "Installing", 3),
        ("chapter", "3", "Running", 5),
        ("appendix", "A", "Options", 7),
    ]


def test_a_printout_with_a_printers_gutter_is_read_as_a_plain_text():
    """A text file printed with a gutter before each line in a smaller size (a line-numbering
    printer's, each line's number in it) under a header in Helvetica: the gutter is no text, the
    file's blank lines drawn as the gutter alone are blank lines, and the book reads as a
    printout, its chapter headings found though none is set larger than the text."""
    words = "The tool reads books and cuts them into chunks one chapter at a time".split()
    para = ["    " + " ".join(words[(k + j) % len(words)] for j in range(9)) for k in range(4)] + [""]
    pages = []
    for n, title in enumerate(["Introduction", "Installing", "Running"], 1):
        pages.append([f"Chapter {n}. {title}", "", *para * 6])
        pages.append(para * 7)
    units = [
        (h.kind, h.number, h.title, h.page)
        for h in load_book(gutter_printout(pages, numbered=True), name="p.pdf").headings
    ]
    assert [u for u in units if u[0] == "chapter"] == [
        ("chapter", "1", "Introduction", 1),
        ("chapter", "2", "Installing", 3),
        ("chapter", "3", "Running", 5),
    ]


def _indented(n: int, start: int) -> list[Text]:
    """Body lines set 24 pt in from the margin the outdented headings stand at."""
    return [Text(t, s, x=LEFT + 24) for t, s in body(n, start)]


def _chapter_pages(book: bytes, name: str) -> list[tuple[str, int]]:
    return [(h.title, h.page) for h in load_book(book, name=name).headings if h.kind == "chapter"]


def test_bold_outdented_headings_at_several_sizes_are_chapters_only_at_the_largest():
    """Chapters in bold 12 pt, sections in bold 11 pt and bold 10 pt, all at the margin over an
    indented 10 pt body, no contents, no numbers: the size steps the levels down, not the place."""

    chapters = ["Getting Started", "Input Sources", "Remote Execution", "Saving Output"]
    pages = []
    for k, title in enumerate(chapters):
        pages.append(
            [Text(title, 12.0, "hebo"), *_indented(8, 100 * k), Text("A Single Source", 11.0, "hebo")]
            + _indented(8, 100 * k + 10)
            + [Text("Linking Arguments", 10.0, "hebo"), *_indented(8, 100 * k + 20)]
        )
        pages.append([Text("Multiple Sources", 11.0, "hebo"), *_indented(30, 100 * k + 40)])
    expected = [(title, 1 + 2 * k) for k, title in enumerate(chapters)]
    assert _chapter_pages(make_pdf(pages), "sizes.pdf") == expected


def test_a_bold_outdented_chapter_heading_may_be_a_name_opening_with_a_sign():
    """A manual titles a chapter by the option it covers (``--pipe``): set in the chapters' bold
    12 pt at the margin, it is a chapter like its neighbours; the same name in bold at the body
    size is a term in a list, not a heading."""

    chapters = ["Getting Started", "Input Sources", "--pipe", "Saving Output"]
    pages = []
    for k, title in enumerate(chapters):
        pages.append(
            [Text(title, 12.0, "hebo"), *_indented(8, 100 * k), Text("--keep-order", 10.0, "hebo")]
            + _indented(20, 100 * k + 10)
        )
        pages.append(_indented(30, 100 * k + 40))
    expected = [(title, 1 + 2 * k) for k, title in enumerate(chapters)]
    assert _chapter_pages(make_pdf(pages), "options.pdf") == expected


def test_a_display_title_over_several_lines_with_spacing_accents_is_read_whole():
    """TeX sets ``é`` as ``´e`` in its text layer; the canonical text composes it. A chapter
    title set large over three lines (``Pr´eparer les`` / ``r´esum´es des`` / ``r´eunions``)
    is one title, each line's size found although its characters were composed."""
    titles = [("Pr´eparer les", "r´esum´es des", "r´eunions"), ("Les ´etapes", "du mod`ele", "g´eom´etrique"),
              ("Choisir les", "param`etres de", "r´eglage")]  # fmt: skip
    pages = [body(30, 0)]
    for n, lines in enumerate(titles, 1):
        pages += [[(str(n), 36.0), *((t, 26.0) for t in lines), *body(20, n * 100)], body(40, n * 100 + 50)]
    book = load_book(make_pdf(pages), name="accents.pdf")
    assert [h.title for h in book.headings if h.kind == "chapter"] == [
        "Préparer les résumés des réunions",
        "Les étapes du modèle géométrique",
        "Choisir les paramètres de réglage",
    ]


def test_a_large_label_over_a_large_title_that_wraps_after_a_comma_keeps_that_title():
    titles = [("Groups,", "groups within groups"), ("Sizes",), ("Boxes,", "rules and glue")]
    pages = []
    for number, lines in enumerate(titles, 1):
        pages.append([(f"Chapter {number}", BIG), *[(t, BIG) for t in lines], *body(30, 100 * number)])
        pages.append(body(40, 100 * number + 50))
    book = load_book(make_pdf(pages), name="wrapped.pdf")
    assert [h.title for h in book.headings if h.kind == "chapter"] == [
        "Groups, groups within groups",
        "Sizes",
        "Boxes, rules and glue",
    ]


def test_a_printouts_full_page_without_a_blank_line_is_typewritten_too():
    """A printer fills every page with as many lines: in a book most of whose pages hold blank
    lines, a full page without one (a table of settings) is one of its pages, not typeset."""
    from chunking.readers import read_raw
    from chunking.structure import _typewritten

    spaced = ["Heading", "", *(f"line {k} of the text file" for k in range(6)), "", "the end"]
    dense = [f"setting {k}: its value" for k in range(len(spaced))]
    pages = [[Text(line, 10.0, "cour") for line in lines] for lines in (spaced, spaced, spaced, dense)]
    raw = read_raw(make_pdf(pages), "printout.pdf")
    try:
        assert [("\n\n" in p.text) for p in raw.pages] == [True, True, True, False]
        assert _typewritten(raw)
    finally:
        raw.close()


HEADING = 17.3


def _small_letter_book(line: Text, at: int = 3) -> bytes:
    """Five numbered chapters running on one after another (each opens mid-page under the last
    one's text), headings ``N. Title`` in bold ``HEADING`` pt, body in Times 10 pt; chapter
    ``at``'s heading is ``line``. Chapter 2 holds a list item and a command in small letters."""
    steps = [Text("1. cd norm/unix", font="tiro"), Text("2. make -f Makefile.linux norm", font="cour")]
    pages = []
    for n, title in enumerate(["Background", "Building", "Concepts", "Command Reference", "Examples"], 1):
        head = line if n == at else Text(f"{n}. {title}", HEADING, "hebo", space_before=8.0)
        before = [Text(text, size, font="tiro") for text, size in body(6, 100 * n)]
        after = [Text(text, size, font="tiro") for text, size in body(8, 100 * n + 50)]
        pages.append(before + [head] + after + (steps if n == 2 else []))
    return make_pdf(pages)


@pytest.mark.parametrize("at", [1, 3, 5])
def test_a_numbered_title_in_small_letters_in_sequence_and_in_heading_type_is_a_chapter(at):
    line = Text(f"{at}. norm usage", HEADING, "hebo", space_before=8.0)
    book = load_book(_small_letter_book(line, at), name="small.pdf")
    titles = ["Background", "Building", "Concepts", "Command Reference", "Examples"]
    titles[at - 1] = "norm usage"
    assert _chapters(book) == [("chapter", str(n), t, n) for n, t in enumerate(titles, 1)]


@pytest.mark.parametrize(
    "line",
    [
        Text("3. norm usage", font="tiro"),  # body type
        Text("3. norm usage", 10.0, "hebo"),  # bold, but at body size
        Text("3. norm usage", HEADING, "helv", space_before=8.0),  # the heading's size, not its weight
        Text("3. make -f Makefile.linux norm", font="cour"),  # a command
        Text("7. norm usage", HEADING, "hebo", space_before=8.0),  # heading type, out of sequence
        Text("2. norm usage", HEADING, "hebo", space_before=8.0),  # a number the chain holds
    ],
)
def test_a_numbered_line_in_small_letters_out_of_heading_type_or_sequence_is_no_chapter(line):
    book = load_book(_small_letter_book(line), name="small.pdf")
    assert [c[1] for c in _chapters(book)] == ["1", "2", "4", "5"]
