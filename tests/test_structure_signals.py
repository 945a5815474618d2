"""One small real PDF per structure rule: outline levels and matching, text headings, the printed
contents, the display size, running headers as evidence and the furniture rules that keep or
remove heading-like lines. Each test is named after the rule it protects."""

from __future__ import annotations

import pytest

from chunking.ingest import load_book
from pdf_factory import Text, body, line_tops, make_pdf

BIG = 20.0
SMALL = 8.0


def _heads(book) -> list[tuple]:
    return [(h.level, h.kind, h.number, h.title, h.page) for h in book.headings]


def _chapters(book) -> list[tuple]:
    return [(h.kind, h.number, h.title, h.page) for h in book.headings if h.kind != "section"]


def _starts(book) -> list[str]:
    """The first canonical line of every heading."""
    return [book.text[h.char_offset:].split("\n")[0] for h in book.headings]


def _all_found(book) -> bool:
    """Every outline entry was found as a line of its page (none dropped, none unconfirmed)."""
    return book.diagnostics.outline_entries_dropped == 0 and not any(
        "unconfirmed" in w for w in book.diagnostics.warnings)


def _opening(lines: list[str], start: int, n: int = 12, size: float = BIG) -> list:
    return [(text, size) for text in lines] + body(n, start)


# --- outline levels (structure/levels.py) -------------------------------------------------------


def test_outline_roman_numbered_run_above_chapters_is_the_part_level():
    pages = [_opening(["I Foundations"], 0, 3), _opening(["Chapter 1", "Alpha"], 100),
             _opening(["Chapter 2", "Beta"], 200), _opening(["II Practice"], 300, 3),
             _opening(["Chapter 3", "Gamma"], 400)]
    toc = [(1, "I Foundations", 1, None), (2, "Alpha", 2, None), (2, "Beta", 3, None),
           (1, "II Practice", 4, None), (2, "Gamma", 5, None)]
    book = load_book(make_pdf(pages, toc=toc), name="x.pdf")
    assert _all_found(book)
    assert book.diagnostics.structure_source == "outline"
    assert _heads(book) == [(1, "part", "I", "Foundations", 1), (2, "chapter", "1", "Alpha", 2),
                            (2, "chapter", "2", "Beta", 3), (1, "part", "II", "Practice", 4),
                            (2, "chapter", "3", "Gamma", 5)]


def test_outline_lone_root_is_not_a_heading_and_its_children_are_the_chapters():
    pages = [[("A Handbook of Things", BIG)] + body(3), _opening(["Chapter 1", "Alpha"], 100),
             _opening(["Chapter 2", "Beta"], 200)]
    toc = [(1, "A Handbook of Things", 1, None), (2, "Alpha", 2, None), (2, "Beta", 3, None)]
    book = load_book(make_pdf(pages, toc=toc), name="x.pdf")
    assert _all_found(book)
    assert book.diagnostics.structure_source == "outline"
    assert _heads(book) == [(1, "chapter", "1", "Alpha", 2), (1, "chapter", "2", "Beta", 3)]


def test_outline_chapter_depth_is_the_shallowest_with_two_entries_not_the_most_common():
    sections = {1: ["Getting the Tools", "Reading the Manual", "Asking for Help"],
                2: ["Making a Plan", "Testing the Plan", "Changing the Plan"]}
    pages, toc = [], []
    for number, title in ((1, "Alpha"), (2, "Beta")):
        page = [(f"Chapter {number}", BIG), (title, BIG)] + body(4, number * 100)
        toc.append((1, title, len(pages) + 1, None))
        for k, name in enumerate(sections[number]):
            page += [(name, 14.0)] + body(4, number * 100 + 10 * (k + 1))
        tops = line_tops(page)
        for name in sections[number]:
            toc.append((2, name, len(pages) + 1, tops[[t for t, _ in page].index(name)]))
        pages.append(page)
    book = load_book(make_pdf(pages, toc=toc), name="x.pdf")
    assert _all_found(book)
    assert book.diagnostics.structure_source == "outline"
    assert [(h.level, h.kind, h.title) for h in book.headings] == (
        [(1, "chapter", "Alpha")] + [(2, "section", s) for s in sections[1]]
        + [(1, "chapter", "Beta")] + [(2, "section", s) for s in sections[2]])


# --- outline matching (structure/outline.py) ----------------------------------------------------


def test_outline_title_wrapped_over_two_lines_on_the_page_is_matched():
    title = "Numerical Methods for Ordinary Differential Equations"
    pages = [_opening(["Chapter 1", "Alpha"], 100),
             _opening(["Chapter 2", "Numerical Methods for", "Ordinary Differential Equations"], 200)]
    toc = [(1, "Alpha", 1, None), (1, title, 2, None)]
    book = load_book(make_pdf(pages, toc=toc), name="x.pdf", structure="outline")
    assert _all_found(book)
    assert _chapters(book) == [("chapter", "1", "Alpha", 1), ("chapter", "2", title, 2)]
    assert _starts(book)[1] == "Chapter 2"


def test_outline_number_title_matches_a_chapter_label_line_and_the_title_under_it():
    pages = [_opening(["Chapter 1", "Power"], 100), _opening(["Chapter 2", "Series"], 200)]
    toc = [(1, "1 Power", 1, None), (1, "2 Series", 2, None)]
    book = load_book(make_pdf(pages, toc=toc), name="x.pdf", structure="outline")
    assert _all_found(book)
    assert _chapters(book) == [("chapter", "1", "Power", 1), ("chapter", "2", "Series", 2)]
    assert _starts(book) == ["Chapter 1", "Chapter 2"]


def test_outline_roman_title_matches_a_part_label_line_and_the_title_under_it():
    pages = [_opening(["Part I", "Core"], 0, 3), _opening(["Chapter 1", "Alpha"], 100),
             _opening(["Part II", "Usage"], 200, 3), _opening(["Chapter 2", "Beta"], 300)]
    toc = [(1, "I Core", 1, None), (2, "Alpha", 2, None), (1, "II Usage", 3, None), (2, "Beta", 4, None)]
    book = load_book(make_pdf(pages, toc=toc), name="x.pdf", structure="outline")
    assert _all_found(book)
    assert _heads(book) == [(1, "part", "I", "Core", 1), (2, "chapter", "1", "Alpha", 2),
                            (1, "part", "II", "Usage", 3), (2, "chapter", "2", "Beta", 4)]
    assert _starts(book)[2] == "Part II"


def test_outline_entry_whose_title_is_nowhere_is_kept_unconfirmed_at_its_destination_y():
    middle = body(10, 300) + body(10, 400)
    pages = [_opening(["Chapter 1", "Alpha"], 100), middle, _opening(["Chapter 2", "Beta"], 200),
             _opening(["Chapter 3", "Gamma"], 500)]
    toc = [(1, "Alpha", 1, None), (1, "Lost Interlude", 2, line_tops(middle)[10]), (1, "Beta", 3, None),
           (1, "Gamma", 4, None)]
    book = load_book(make_pdf(pages, toc=toc), name="x.pdf")
    assert book.diagnostics.structure_source == "outline"
    lost = next(h for h in book.headings if h.title == "Lost Interlude")
    assert lost.page == 2 and book.text[lost.char_offset:].startswith("Line 400")
    assert lost.confidence < 0.5
    assert any((d.case, d.title, d.page, d.signals) == ("unconfirmed", "Lost Interlude", 2, ("outline",))
               for d in book.diagnostics.structure_disagreements)


def _contents_page(entries: list[tuple[str, int]]) -> list:
    return [("Contents", BIG)] + [(f"{title} {page}", 10.0) for title, page in entries]


def test_outline_entry_a_few_pages_off_is_never_moved_onto_a_contents_page():
    entries = [("1 Alpha Methods", 3), ("2 Beta Methods", 6), ("3 Gamma Methods", 8),
               ("4 Delta Methods", 9), ("5 Epsilon Methods", 10), ("6 Zeta Methods", 11)]
    pages = [[("A Handbook of Things", BIG)] + body(3, 900), _contents_page(entries),
             _opening(["1 Alpha Methods"], 100), body(12, 150), body(12, 180),
             _opening(["2 Beta Methods"], 200)] + [body(12, 1000 + 20 * k) for k in range(6)]
    # "Beta Methods" points at p. 4 (body only); the contents page p. 2 lists it and is closer
    # than its real page p. 6.
    toc = [(1, "Alpha Methods", 3, None), (1, "Beta Methods", 4, None)]
    book = load_book(make_pdf(pages, toc=toc), name="x.pdf", structure="outline")
    assert _all_found(book)
    assert [(h.title, h.page) for h in book.headings] == [("Alpha Methods", 3), ("Beta Methods", 6)]


def test_outline_entry_is_moved_onto_a_page_of_numbers_that_do_not_rise():
    output = [(f"run {k} value {(k * 37) % 50 + 1}", 10.0) for k in range(12)]
    pages = [_opening(["1 Alpha Methods"], 100), body(12, 150),
             output + [("2 Beta Methods", BIG)] + body(4, 200),
             body(12, 300), body(12, 400)]
    toc = [(1, "Alpha Methods", 1, None), (1, "Beta Methods", 4, None)]
    book = load_book(make_pdf(pages, toc=toc), name="x.pdf", structure="outline")
    assert _all_found(book)
    assert [(h.title, h.page) for h in book.headings] == [("Alpha Methods", 1), ("Beta Methods", 3)]


def test_outline_section_label_above_the_title_makes_a_chapter_not_a_section():
    pages = [_opening(["Section 1", "Alpha"], 100), _opening(["Section 2", "Beta"], 200)]
    toc = [(1, "Alpha", 1, None), (1, "Beta", 2, None)]
    book = load_book(make_pdf(pages, toc=toc), name="x.pdf")
    assert _all_found(book)
    assert book.diagnostics.structure_source == "outline"
    assert _heads(book) == [(1, "chapter", "1", "Alpha", 1), (1, "chapter", "2", "Beta", 2)]
    assert _starts(book) == ["Section 1", "Section 2"]


def _with_title_page(openings: list[list[str]]) -> list:
    """A title page, then each opening followed by two body pages (bare chapter numbers never
    equal the page number)."""
    pages = [[("A Handbook of Things", 30.0)] + body(3, 900)]
    for k, lines in enumerate(openings):
        pages += [_opening(lines, 100 * k), body(14, 100 * k + 30), body(14, 100 * k + 60)]
    return pages


def test_outline_bare_number_line_above_the_title_gives_the_chapter_number():
    pages = _with_title_page([["1", "Alpha Methods"], ["2", "Beta Methods"]])
    toc = [(1, "Alpha Methods", 2, None), (1, "Beta Methods", 5, None)]
    book = load_book(make_pdf(pages, toc=toc), name="x.pdf")
    assert _all_found(book)
    assert _chapters(book) == [("chapter", "1", "Alpha Methods", 2), ("chapter", "2", "Beta Methods", 5)]
    assert _starts(book) == ["1", "2"]


def test_outline_spelled_number_line_above_the_title_is_given_as_digits():
    pages = _with_title_page([["ONE", "Alpha Methods"], ["TWO", "Beta Methods"]])
    toc = [(1, "Alpha Methods", 2, None), (1, "Beta Methods", 5, None)]
    book = load_book(make_pdf(pages, toc=toc), name="x.pdf")
    assert _all_found(book)
    assert _chapters(book) == [("chapter", "1", "Alpha Methods", 2), ("chapter", "2", "Beta Methods", 5)]
    assert _starts(book) == ["ONE", "TWO"]


def test_outline_heading_ending_in_a_full_stop_keeps_its_number():
    pages = [_opening(["1. Alpha Methods."], 100), _opening(["2. Beta Methods."], 200)]
    toc = [(1, "Alpha Methods", 1, None), (1, "Beta Methods", 2, None)]
    book = load_book(make_pdf(pages, toc=toc), name="x.pdf")
    assert _all_found(book)
    assert _chapters(book) == [("chapter", "1", "Alpha Methods", 1), ("chapter", "2", "Beta Methods", 2)]


def test_outline_lettered_title_line_is_an_appendix():
    pages = [_opening(["Chapter 1", "Alpha"], 100), _opening(["Chapter 2", "Beta"], 200),
             _opening(["A. Installation Notes"], 300)]
    toc = [(1, "Alpha", 1, None), (1, "Beta", 2, None), (1, "Installation Notes", 3, None)]
    book = load_book(make_pdf(pages, toc=toc), name="x.pdf")
    assert _all_found(book)
    assert _heads(book)[2] == (1, "appendix", "A", "Installation Notes", 3)


def test_outline_lone_letter_line_above_the_title_is_an_appendix():
    pages = [_opening(["Chapter 1", "Alpha"], 100), _opening(["Chapter 2", "Beta"], 200),
             _opening(["A", "Installation Notes"], 300)]
    toc = [(1, "Alpha", 1, None), (1, "Beta", 2, None), (1, "Installation Notes", 3, None)]
    book = load_book(make_pdf(pages, toc=toc), name="x.pdf")
    assert _all_found(book)
    assert _heads(book)[2] == (1, "appendix", "A", "Installation Notes", 3)
    assert _starts(book)[2] == "A"


# --- text headings (structure/headings.py) ------------------------------------------------------


def test_heading_ending_in_a_full_stop_is_a_chapter_only_when_set_larger_than_the_body():
    lines = [["1. Alpha Methods."], ["2. Beta Methods."], ["3. Gamma Methods."]]
    large = load_book(make_pdf(_with_title_page(lines)), name="x.pdf")
    assert _chapters(large) == [("chapter", "1", "Alpha Methods", 2), ("chapter", "2", "Beta Methods", 5),
                                ("chapter", "3", "Gamma Methods", 8)]
    pages = [[("A Handbook of Things", 30.0)] + body(3, 900)]
    for k, (title,) in enumerate(lines):
        pages += [[(title, 10.0)] + body(12, 100 * k), body(14, 100 * k + 30)]
    small = load_book(make_pdf(pages), name="x.pdf")
    assert [h for h in small.headings if h.kind == "chapter"] == []


def test_bare_number_then_a_title_over_two_large_lines_is_one_chapter_without_the_body_line_after():
    pages = [[("A Handbook of Things", 30.0)] + body(3, 900)]
    for k, (first, second) in enumerate((("Graphical", "Procedures"), ("Numerical", "Methods"))):
        pages += [[(str(k + 1), BIG), (first, BIG), (second, BIG), ("Overview of the Approach", 10.0)]
                  + body(12, 100 * k), body(14, 100 * k + 30), body(14, 100 * k + 60)]
    book = load_book(make_pdf(pages), name="x.pdf")
    assert _chapters(book) == [("chapter", "1", "Graphical Procedures", 2),
                               ("chapter", "2", "Numerical Methods", 5)]
    assert _starts(book) == ["1", "2"]


def test_chapter_number_framed_by_dashes_is_a_bare_chapter_number():
    book = load_book(make_pdf(_with_title_page([["-1-", "Alpha Methods"], ["- 2 -", "Beta Methods"]])),
                     name="x.pdf")
    assert _chapters(book) == [("chapter", "1", "Alpha Methods", 2), ("chapter", "2", "Beta Methods", 5)]


def test_section_keyword_used_for_chapters_makes_chapters():
    pages = _with_title_page([["Section 1", "Alpha Methods"], ["Section 2", "Beta Methods"]])
    book = load_book(make_pdf(pages), name="x.pdf")
    assert _chapters(book) == [("chapter", "1", "Alpha Methods", 2), ("chapter", "2", "Beta Methods", 5)]


def test_stacked_appendix_keyword_letter_and_title_is_an_appendix():
    pages = _with_title_page([["Chapter 1", "Alpha"], ["Chapter 2", "Beta"],
                              ["APPENDIX", "A", "INSTALLATION NOTES"], ["APPENDIX", "B", "USAGE NOTES"]])
    book = load_book(make_pdf(pages), name="x.pdf")
    assert _chapters(book)[2:] == [("appendix", "A", "Installation Notes", 8),
                                   ("appendix", "B", "Usage Notes", 11)]
    assert _starts(book)[2:] == ["APPENDIX", "APPENDIX"]


def test_lettered_appendices_come_after_the_last_chapter_in_a_run_and_an_author_initial_is_none():
    pages = [[("A Handbook of Things", 30.0), ("A. N. Author", BIG)] + body(3, 900)]
    for k, lines in enumerate([["Chapter 1", "Alpha"], ["Chapter 2", "Beta"], ["A. Installation Notes"],
                               ["B. Usage Notes"], ["D. Data Sources"]]):
        pages += [_opening(lines, 100 * k), body(14, 100 * k + 30)]
    book = load_book(make_pdf(pages), name="x.pdf")
    assert _chapters(book) == [("chapter", "1", "Alpha", 2), ("chapter", "2", "Beta", 4),
                               ("appendix", "A", "Installation Notes", 6),
                               ("appendix", "B", "Usage Notes", 8)]


def test_appendix_sections_numbered_by_letter_are_sections():
    appendix = ([("Appendix A", BIG), ("Notes", BIG)] + body(4, 300)
                + [("A.1 First Notes", 14.0)] + body(4, 310)
                + [("A.2 More Notes", 14.0)] + body(4, 320))
    pages = [_opening(["Chapter 1", "Alpha"], 100), _opening(["Chapter 2", "Beta"], 200), appendix]
    book = load_book(make_pdf(pages), name="x.pdf")
    assert _heads(book)[2:] == [(1, "appendix", "A", "Notes", 3), (2, "section", "A.1", "First Notes", 3),
                                (2, "section", "A.2", "More Notes", 3)]


def test_chapter_set_large_under_a_page_of_numbers_is_found_and_a_contents_page_yields_none():
    # NOTE: the program output ends its lines in numbers that do not rise: no contents page.
    names = ("Alpha", "Beta", "Gamma", "Delta", "Omega")
    contents = [("Contents", BIG)] + [(f"{n} Topic {name} {3 * n}", 10.0) for n, name in enumerate(names, 1)]
    output = [(f"run {k} value {(k * 37) % 50 + 1}", 10.0) for k in range(14)]
    pages = [[("A Handbook of Things", 30.0)] + body(3, 900), contents,
             _opening(["Chapter 1", "Alpha"], 100),
             output + [("Chapter 2", BIG), ("Beta", BIG)] + body(4, 200),
             body(14, 300)]
    book = load_book(make_pdf(pages), name="x.pdf")
    assert _chapters(book) == [("front", "", "Contents", 2), ("chapter", "1", "Alpha", 3),
                               ("chapter", "2", "Beta", 4)]
    assert _starts(book)[2] == "Chapter 2"


def test_contents_page_whose_entries_are_set_large_yields_no_chapters():
    names = ("Alpha", "Beta", "Gamma", "Delta", "Omega")
    contents = [("Contents", BIG)]
    for n, name in enumerate(names, 1):
        contents += [(f"{n} Topic {name}", 12.0), (str(3 * n), 12.0)]
    pages = [[("A Handbook of Things", 30.0)] + body(3, 900), contents, _opening(["Chapter 1", "Alpha"], 100),
             body(14, 150), _opening(["Chapter 2", "Beta"], 200), body(14, 250)]
    book = load_book(make_pdf(pages), name="x.pdf")
    assert _chapters(book) == [("front", "", "Contents", 2), ("chapter", "1", "Alpha", 3),
                               ("chapter", "2", "Beta", 5)]


# --- the printed contents as a signal (structure/__init__.py _listed) ---------------------------

DOTS = " . . . . . . . . . . . ."


def test_printed_contents_entry_found_on_its_page_accepts_an_unnumbered_chapter():
    # unnumbered titles set at 12 pt: no number, no keyword; the printed contents, not the size, places them
    titles = ["Getting Started", "Working with Data", "Drawing Pictures", "Where to Go Next"]
    contents = [("Contents", BIG)] + [(f"{title}{DOTS} {1 + 2 * k}", 10.0) for k, title in enumerate(titles)]
    pages = [[("A Handbook of Things", 30.0)] + body(3, 900), contents]
    for k, title in enumerate(titles):
        pages += [_opening([title], 100 * k, size=12.0), body(14, 100 * k + 50)]
    book = load_book(make_pdf(pages), name="x.pdf")
    assert book.diagnostics.structure_source == "headings"
    assert _chapters(book) == [("front", "", "A Handbook of Things", 1), ("front", "", "Contents", 2)] + [
        ("chapter", "", t, 3 + 2 * k) for k, t in enumerate(titles)]
    assert all(h.evidence[0][0] == "contents" for h in book.headings[2:])


def test_printed_contents_unnumbered_chapter_carries_no_numbering_evidence():
    titles = ["Getting Started", "Working with Data", "Drawing Pictures", "Where to Go Next"]
    contents = [("Contents", BIG)] + [(f"{title}{DOTS} {1 + 2 * k}", 10.0) for k, title in enumerate(titles)]
    pages = [[("A Handbook of Things", 30.0)] + body(3, 900), contents]
    for k, title in enumerate(titles):
        pages += [_opening([title], 100 * k, size=12.0), body(14, 100 * k + 50)]
    book = load_book(make_pdf(pages), name="x.pdf")
    assert not any(s == "numbering" for h in book.headings for s, _ in h.evidence)


def test_printed_contents_own_running_header_read_as_an_entry_is_not_a_chapter():
    # the second contents page's header (folio, CONTENTS, a number) reads as entry 4 "CONTENTS" p. 3
    entries = [("1 Alpha Methods", 1), ("2 Beta Methods", 2), ("3 Gamma Methods", 3), ("4 Delta Methods", 7),
               ("5 Epsilon Methods", 9), ("6 Zeta Methods", 11)]
    lines = [(f"{t}{DOTS} {p}", 10.0) for t, p in entries]
    first = [("A Handbook of Things", 14.0), ("Contents", BIG)] + lines[:3]
    second = [("4 CONTENTS 3", 10.0)] + lines[3:]
    pages = [[("A Handbook of Things", 30.0)] + body(3, 900), first, second]
    for k, (title, _) in enumerate(entries):
        pages += [_opening([title], 100 * k), body(14, 100 * k + 50)]
    book = load_book(make_pdf(pages), name="x.pdf")
    assert [h.title for h in book.headings if h.kind == "chapter"] == [t[2:] for t, _ in entries]


# --- display size (structure/display.py) --------------------------------------------------------


def test_display_size_chapter_opening_mid_page_is_found_by_the_whole_page_pass():
    titles = ["Getting Started", "Working with Data", "Drawing Pictures", "Where to Go Next"]
    pages = [[("A Handbook of Things", 30.0)] + body(2, 900)]
    for k, title in enumerate(titles[:3]):
        pages += [[(title, 18.0)] + body(20, 100 * k), body(22, 100 * k + 50)]
    # the last chapter opens below the top band, after the previous chapter's last lines
    pages.append(body(26, 400) + [(titles[3], 18.0)] + body(10, 450))
    pages.append(body(22, 500))
    book = load_book(make_pdf(pages), name="x.pdf")
    assert [(h.kind, h.title, h.page) for h in book.headings] == [("front", "A Handbook of Things", 1)] + [
        ("chapter", t, 2 + 2 * k) for k, t in enumerate(titles)]
    assert _starts(book)[4] == titles[3]


def test_a_second_display_size_opening_on_a_page_whose_top_opened_a_chapter_is_found():
    """A short chapter opens at the top of a page and the next one lower on the same page: both
    are set at the display size, both open chapters."""
    titles = ["Getting Started", "Working with Data", "Drawing Pictures", "Where to Go Next"]
    pages = [[("A Handbook of Things", 30.0)] + body(2, 900)]
    for k, title in enumerate(titles[:2]):
        pages += [[(title, 18.0)] + body(20, 100 * k), body(22, 100 * k + 50)]
    pages.append([(titles[2], 18.0)] + body(8, 300) + [(titles[3], 18.0)] + body(10, 450))
    pages.append(body(22, 500))
    book = load_book(make_pdf(pages), name="x.pdf")
    assert [(h.kind, h.title, h.page) for h in book.headings] == [("front", "A Handbook of Things", 1),
        ("chapter", titles[0], 2), ("chapter", titles[1], 4), ("chapter", titles[2], 6), ("chapter", titles[3], 6)]
    assert _starts(book)[4] == titles[3]


def _heading_one_book(titles: list[str], size: float) -> bytes:
    """Three chapters opening at page tops, the fourth mid-page, titles at ``size`` over the
    factory's 10 pt body, nothing else marking them (no number, no keyword, no contents)."""
    pages = [[("A Handbook of Things", 30.0)] + body(2, 900)]
    for k, title in enumerate(titles[:3]):
        pages += [[(title, size)] + body(20, 100 * k), body(22, 100 * k + 50)]
    pages.append(body(12, 400) + [(titles[3], size)] + body(10, 450))
    return make_pdf(pages)


def test_a_word_processors_heading_a_fifth_larger_than_the_body_is_a_display_size():
    # 12 pt chapter titles over a 10 pt body (14 over 12 in a word processor's Heading 1)
    titles = ["Getting Started", "Working with Data", "Drawing Pictures", "Where to Go Next"]
    book = load_book(_heading_one_book(titles, 12.0), name="x.pdf")
    assert [(h.kind, h.title, h.page) for h in book.headings] == [("front", "A Handbook of Things", 1),
        ("chapter", titles[0], 2), ("chapter", titles[1], 4), ("chapter", titles[2], 6), ("chapter", titles[3], 8)]


def test_a_display_title_that_is_a_command_line_option_opens_a_chapter():
    titles = ["Getting Started", "--pipe", "Drawing Pictures", "Where to Go Next"]
    book = load_book(_heading_one_book(titles, 18.0), name="x.pdf")
    assert [h.title for h in book.headings if h.kind == "chapter"] == titles


def test_a_size_barely_above_the_body_is_no_display_size():
    titles = ["Getting Started", "Working with Data", "Drawing Pictures", "Where to Go Next"]
    book = load_book(_heading_one_book(titles, 11.0), name="x.pdf")
    assert [h.title for h in book.headings if h.kind == "chapter"] == []



def test_a_display_line_opening_in_lower_case_is_a_chapter_title():
    """A chapter titled by a program's name (``zlib streams``), set in the chapters' display type,
    opens a chapter like its capitalised neighbours: on a page of its own, and lower on a page
    whose top opened another chapter."""
    titles = ["Getting Started", "zlib streams", "Drawing Pictures", "Working with Data", "xmllint output"]
    pages = [[("A Handbook of Things", 30.0)] + body(2, 900)]
    for k, title in enumerate(titles[:4]):
        pages += [[(title, 18.0)] + body(20, 100 * k), body(22, 100 * k + 50)]
    pages[-1] = body(12, 450) + [(titles[4], 18.0)] + body(10, 480)
    book = load_book(make_pdf(pages), name="x.pdf")
    assert [(h.title, h.page) for h in book.headings if h.kind == "chapter"] == [
        (t, p) for t, p in zip(titles, (2, 4, 6, 8, 9))]


def test_a_lower_case_display_line_going_on_from_a_line_above_opens_no_chapter():
    """Lower-case lines in the chapters' display type that go on from a line above are no titles:
    a title's line wrapped over the page break (the page before ends at the display size), a
    word's rest after a drop cap (one letter alone above it) and a line the type repeats on two
    pages (a running head the furniture pass left)."""
    pages = [
        [("A Handbook of Things", 30.0)] + body(2, 900),
        [("Getting Started", 18.0)] + body(20, 0),
        body(25, 50) + [("Reading and Writing the Files of", 18.0)],
        [("many other programs", 18.0)] + body(20, 100),
        [("Working with Data", 18.0)] + body(20, 200),
        body(8, 250) + [Text("O", 36.0), ("nce the data are read", 18.0)] + body(10, 270),
        [("Drawing Pictures", 18.0)] + body(20, 300),
        [("tool reference", 18.0)] + body(22, 350),
        body(22, 370),
        [("tool reference", 18.0)] + body(22, 380),
        [("Where to Go Next", 18.0)] + body(20, 400),
        body(22, 450),
    ]
    book = load_book(make_pdf(pages), name="x.pdf")
    assert [(h.title, h.page) for h in book.headings if h.kind == "chapter"] == [
        ("Getting Started", 2), ("Reading and Writing the Files of", 3), ("Working with Data", 5),
        ("Drawing Pictures", 7), ("Where to Go Next", 11)]


def test_the_books_title_set_once_larger_than_every_chapter_over_its_first_page_is_a_front_unit():
    """The title over the book's opening paragraphs, larger than the chapters' display type and
    set nowhere else, is the book's title page (a front unit), though its page is not bare and the
    first chapter opens below it; a size that recurs (a part's) makes none."""
    titles = ["Getting Started", "Working with Data", "Drawing Pictures", "Where to Go Next"]
    pages = [[("Handbook", 24.0)] + body(10, 900) + [(titles[0], 18.0)] + body(8, 0), body(22, 50)]
    for k, title in enumerate(titles[1:], 1):
        pages += [[(title, 18.0)] + body(20, 100 * k), body(22, 100 * k + 50)]
    book = load_book(make_pdf(pages), name="x.pdf")
    assert [(h.kind, h.title, h.page) for h in book.headings] == [("front", "Handbook", 1)] + [
        ("chapter", t, p) for t, p in zip(titles, (1, 3, 5, 7))]
    assert book.headings[0].char_offset == 0
    # a cover's title in stepped sizes, each larger than the chapters', is one title
    cover = [[("Handbook", 30.0), ("for Beginners", 22.0)] + body(2, 800)]
    book = load_book(make_pdf(cover + pages), name="x.pdf")
    assert [(h.kind, h.title, h.page) for h in book.headings][:2] == [
        ("front", "Handbook for Beginners", 1), ("chapter", titles[0], 2)]
    pages[4] = [("Second Part", 24.0)] + pages[4]
    book = load_book(make_pdf(pages), name="x.pdf")
    assert "front" not in [h.kind for h in book.headings]


# --- running headers as evidence (structure/running.py) -----------------------------------------


def _headed_book(openings: list[tuple[int, str, float]], follow: int = 3) -> bytes:
    """Chapters ``(number, title, heading size)``; the pages after each opening carry the running
    header ``CHAPTER N. TITLE`` over the folio."""
    pages, headers = [], []
    for number, title, size in openings:
        pages.append([(f"Chapter {number}", size), (title, size)] + body(14, number * 100))
        headers.append([])
        for extra in range(follow):
            pages.append(body(16, number * 100 + 20 * (extra + 1)))
            headers.append([(f"CHAPTER {number}. {title.upper()}", SMALL)])
    return make_pdf(pages, header=lambda i: headers[i] + [(str(i + 1), SMALL)])


def test_running_header_naming_the_chapter_on_the_pages_after_its_opening_is_evidence():
    book = load_book(_headed_book([(1, "Alpha", BIG), (2, "Beta", BIG), (3, "Gamma", BIG)]), name="x.pdf")
    assert "CHAPTER 2. BETA" not in book.text
    assert _chapters(book) == [("chapter", "1", "Alpha", 1), ("chapter", "2", "Beta", 5),
                               ("chapter", "3", "Gamma", 9)]
    beta = book.headings[1]
    assert ("running_header", "p. 6: 'CHAPTER 2. BETA'") in beta.evidence


def test_running_header_naming_a_chapter_no_heading_opens_is_a_disagreement():
    # chapter 3's opening is set at body size: the text detector misses it, its headers do not
    openings = [(1, "Alpha", BIG), (2, "Beta", BIG), (3, "Gamma", 10.0), (4, "Delta", BIG)]
    book = load_book(_headed_book(openings), name="x.pdf")
    assert [h.number for h in book.headings if h.kind == "chapter"] == ["1", "2", "4"]
    (d,) = [d for d in book.diagnostics.structure_disagreements if d.case == "unopened"]
    assert (d.signals, d.kind, d.number, d.title, d.page) == (("running_header",), "chapter", "3", "CHAPTER 3. GAMMA", 10)
    assert d.message == "running_header: 'CHAPTER 3. GAMMA' on p. 10 names chapter 3, which no heading opens"


# --- furniture (chunking/normalise/furniture.py) ----------------------------------------------------------


def test_furniture_keeps_a_lone_chapter_keyword_atop_many_short_chapters():
    words = ["ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX"]
    titles = ["INSTALLATION", "USAGE", "CONFIGURATION", "PLUGINS", "TESTING", "RELEASES"]
    pages = [[("CHAPTER", BIG), (word, BIG), (title, BIG)] + body(10, 100 * k)
             for k, (word, title) in enumerate(zip(words, titles))]
    book = load_book(make_pdf(pages, footer=lambda i: [(str(i + 1), SMALL)]), name="x.pdf")
    assert _chapters(book) == [("chapter", str(k + 1), t.title(), k + 1) for k, t in enumerate(titles)]
    assert _starts(book) == ["CHAPTER"] * 6


def test_furniture_removes_an_appendix_header_printed_once_in_its_chapters_header_shape():
    # one chapter header and one appendix header, each printed once outside the folio
    pages = [_opening(["Chapter 1", "Alpha"], 100), body(16, 150), _opening(["Appendix A", "Notes"], 200),
             body(16, 250)]
    headers = {1: ["CHAPTER 1. ALPHA"], 3: ["APPENDIX A. NOTES"]}
    data = make_pdf(pages, header=lambda i: [(h, SMALL) for h in headers.get(i, [])] + [(str(i + 1), SMALL)])
    book = load_book(data, name="x.pdf")
    assert "CHAPTER 1. ALPHA" not in book.text
    assert "APPENDIX A. NOTES" not in book.text


def _man_page(headings: list[str]) -> bytes:
    """Man-page-like pages: bold upper-case headings at body size at the margin, the body indented,
    and bold title-like option terms indented like the body."""
    pages, k = [], 0
    for n in range(0, len(headings), 2):
        page = []
        for title in headings[n:n + 2]:
            page.append(Text(title, 10.0, font="hebo", x=72))
            page.append(Text(f"Option For {title.title()}", 10.0, font="hebo", x=108))
            page += [Text(t, 10.0, x=108) for t, _ in body(8, 100 * k)]
            k += 1
        pages.append(page)
    return make_pdf(pages)


def test_bold_headings_at_body_size_left_of_the_indented_body_are_chapters_when_nothing_else_marks_them():
    titles = ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "ENVIRONMENT", "SEE ALSO"]
    book = load_book(_man_page(titles), name="man.pdf")
    found = [h.title for h in book.headings if h.kind in ("chapter", "front", "back")]
    assert found == [t.title() for t in titles]
    assert all(any(s == "typography" and "left of the body" in w for s, w in h.evidence)
               for h in book.headings)


def test_bold_lines_indented_like_the_body_are_not_headings():
    book = load_book(_man_page(["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS"]), name="man.pdf")
    assert not any(h.title.startswith("Option For") for h in book.headings)


def test_of_bold_outdented_headings_at_two_indents_only_the_outermost_are_chapters():
    """A troff -me paper: '1. Title' bold 30 pt left of the body, its '1.1. Title' sections bold
    15 pt left; nothing else marks either."""
    pages = []
    for n, title in enumerate(["Basics", "Requests", "Displays", "Annotations"], 1):
        page = [Text(f"{n}. {title}", 10.0, font="hebo", x=72)] + [Text(t, 10.0, x=102) for t, _ in body(6, 100 * n)]
        for k in (1, 2):
            page.append(Text(f"{n}.{k}. {('First', 'Second')[k - 1]} Topic of {title}", 10.0, font="hebo", x=87))
            page += [Text(t, 10.0, x=102) for t, _ in body(5, 100 * n + 10 * k)]
        pages.append(page)
    book = load_book(make_pdf(pages), name="me.pdf")
    chapters = [h.title for h in book.headings if h.kind == "chapter"]
    assert chapters == ["Basics", "Requests", "Displays", "Annotations"]
    assert not any(h.level == 1 and "Topic" in h.title for h in book.headings)


def test_a_summary_printing_every_outdented_heading_before_the_sections_gives_no_chapters_of_its_own():
    """An API page printed from the web: bold outdented titles in a summary (each over a table of
    names), then the same titles over the detailed sections; only the second run are chapters."""
    titles = ["Class Blob", "Class Face", "Class Font", "Class Buffer"]
    pages = [[]]
    for title in titles:  # the summary, on the first page
        pages[0].append(Text(title, 10.0, font="hebo", x=72))
        pages[0] += [Text(f"name_{k} short description of {title.lower()}", 10.0, x=102) for k in range(3)]
    for n, title in enumerate(titles, 1):
        pages.append([Text(title, 10.0, font="hebo", x=72)] + [Text(t, 10.0, x=102) for t, _ in body(8, 100 * n)])
    book = load_book(make_pdf(pages), name="api.pdf")
    chapters = [(h.title, h.page) for h in book.headings if h.kind == "chapter"]
    assert chapters == [(t, n) for n, t in enumerate(titles, 2)]


def _ms_paper(first_number: int = 1) -> bytes:
    """An -ms paper through groff's own PDF driver: '1. Title' in Times-Bold at the body's size,
    flush with the body, mid-page; a bold term and a numbered list item at body size too."""
    pages = []
    for n, title in enumerate(["Basics", "Requests", "Displays", "Annotations"], first_number):
        page = [Text(t, 10.0, font="tiro", x=72) for t, _ in body(8, 100 * n)]
        page.append(Text(f"{n}. {title}", 10.0, font="tibo", x=72))
        page += [Text(t, 10.0, font="tiro", x=72) for t, _ in body(6, 100 * n + 50)]
        page.append(Text(f"{n + 4}. A numbered item of a list", 10.0, font="tiro", x=72))
        page.append(Text("Important Term", 10.0, font="tibo", x=72))
        pages.append(page)
    return make_pdf(pages)


def test_bold_numbered_lines_at_body_size_flush_with_the_body_are_chapters_when_their_numbers_run():
    book = load_book(_ms_paper(), name="ms.pdf")
    assert [(h.number, h.title) for h in book.headings if h.kind == "chapter"] == [
        ("1", "Basics"), ("2", "Requests"), ("3", "Displays"), ("4", "Annotations")
    ]


def test_bold_numbered_lines_whose_numbers_do_not_start_at_one_are_no_chapters():
    book = load_book(_ms_paper(first_number=5), name="ms.pdf")
    assert not [h for h in book.headings if h.kind == "chapter"]
