"""The printed table of contents as a structure signal (``chunking.structure.contents``).

Each test builds a small real PDF whose contents page is laid out the way PyMuPDF hands real
ones over (dot leaders, a page number or an entry number on its own line, wrapped titles), then
checks the parsed entries, how printed pages map to physical ones, and the confirmed offsets.
"""

from __future__ import annotations

import pytest

from chunking.ingest import load_book
from chunking.normalise import normalise
from chunking.readers import read_raw
from chunking.structure.contents import read_contents
from chunking.structure.contents_lines import SCAN_MIN_PAGES, _ends_paged
from pdf_factory import body, make_pdf

BIG = 20.0
DOTS = " . . . . . . . . . . . . . . . ."


def _norm(pages, **kwargs):
    return normalise(read_raw(make_pdf(pages, **kwargs), "book.pdf").pages)


def _book(contents, openings, total, contents_at=1):
    """``total`` pages: a title page, the contents page at ``contents_at``, body pages; the
    pages in ``openings`` (0-based) start with the given heading lines."""
    pages = []
    for index in range(total):
        if index == 0:
            pages.append([("A Book About Things", BIG)])
        elif index == contents_at:
            pages.append([(text, 10.0) for text in contents])
        elif index in openings:
            pages.append([(t, BIG) for t in openings[index]] + body(8, index * 100))
        else:
            pages.append(body(12, index * 100))
    return pages


def _line_offset(norm, page, text):
    return next(off for off, t in norm.lines[page] if t == text)


def _summary(contents):
    return [(e.kind, e.number, e.title, e.printed, e.page, e.confirmed) for e in contents.entries]


def test_dot_leaders_with_the_page_number_on_the_same_line_are_entries():
    contents = ["Contents", "1 Introduction" + DOTS + " 1", "2 Methods" + DOTS + " 3",
                "2.1 Setup" + DOTS + " 4", "3 Results" + DOTS + " 6"]
    openings = {3: ["1 Introduction"], 5: ["2 Methods"], 6: ["2.1 Setup"], 8: ["3 Results"]}
    norm = _norm(_book(contents, openings, 12))
    found = read_contents(norm)
    assert found.pages == (1,)
    assert _summary(found) == [("chapter", "1", "Introduction", "1", 3, True),
                               ("chapter", "2", "Methods", "3", 5, True),
                               ("section", "2.1", "Setup", "4", 6, True),
                               ("chapter", "3", "Results", "6", 8, True)]
    assert found.offsets == {"arabic": 2} and found.mapping == {"arabic": "offset"}
    assert found.entries[1].offset == _line_offset(norm, 5, "2 Methods")


def test_entry_number_and_page_number_on_their_own_lines_are_joined_to_the_title():
    contents = ["Contents", "1", "Introduction", "1", "1.1", "Scope", ". . . . . . . . . .", "2",
                "2", "Methods", "4", "3", "Results", "6"]
    openings = {2: ["1", "Introduction"], 3: ["1.1 Scope"], 5: ["2", "Methods"], 7: ["3", "Results"]}
    found = read_contents(_norm(_book(contents, openings, 10)))
    assert [(e.number, e.title, e.printed, e.page, e.confirmed) for e in found.entries] == [
        ("1", "Introduction", "1", 2, True), ("1.1", "Scope", "2", 3, True),
        ("2", "Methods", "4", 5, True), ("3", "Results", "6", 7, True)]


def test_the_books_title_set_above_the_contents_heading_is_no_part_of_the_first_entry():
    """``Field Reports, Numbers 1-3`` / ``Contents`` / ``Number 1, Spring 1994`` / ``3``: the first
    entry is ``Number 1, Spring 1994``, confirmed on its page like the others, not one title glued
    from the book's title, the heading and the entry."""
    contents = ["Field Reports, Numbers 1-3", "Contents", "Number 1, Spring 1994", "3", "Number 2, Autumn 1995", "5",
                "Number 3, Winter 1996", "7"]  # fmt: skip
    openings = {3: ["Number 1, Spring 1994"], 5: ["Number 2, Autumn 1995"], 7: ["Number 3, Winter 1996"]}
    found = read_contents(_norm(_book(contents, openings, 10)))
    assert [(e.title, e.page, e.confirmed) for e in found.entries] == [
        ("Number 1, Spring 1994", 3, True), ("Number 2, Autumn 1995", 5, True), ("Number 3, Winter 1996", 7, True)]


def test_roman_front_matter_and_arabic_body_each_get_their_own_offset():
    contents = ["Contents", "Preface" + DOTS + " v", "1 Basics" + DOTS + " 1", "2 Tools" + DOTS + " 4"]
    openings = {4: ["Preface"], 7: ["1 Basics"], 10: ["2 Tools"]}
    found = read_contents(_norm(_book(contents, openings, 13, contents_at=2)))
    assert [(e.kind, e.page, e.confirmed) for e in found.entries] == [
        ("front", 4, True), ("chapter", 7, True), ("chapter", 10, True)]
    assert found.offsets == {"roman": -1, "arabic": 6}


def test_page_labels_are_used_when_they_place_more_titles_than_one_offset():
    # the printed folios skip a page (an unnumbered plate): one offset cannot place chapter 3
    contents = ["Contents", "1 Alpha" + DOTS + " 1", "2 Beta" + DOTS + " 3", "3 Gamma" + DOTS + " 6"]
    openings = {2: ["1 Alpha"], 4: ["2 Beta"], 8: ["3 Gamma"]}
    labels = [{"startpage": 0, "prefix": "", "style": "r", "firstpagenum": 1},
              {"startpage": 2, "prefix": "", "style": "D", "firstpagenum": 1},
              {"startpage": 6, "prefix": "", "style": "", "firstpagenum": 1},
              {"startpage": 7, "prefix": "", "style": "D", "firstpagenum": 5}]
    found = read_contents(_norm(_book(contents, openings, 11), labels=labels))
    assert found.mapping == {"arabic": "labels"}
    assert [(e.page, e.confirmed) for e in found.entries] == [(2, True), (4, True), (8, True)]


def test_wrong_page_labels_lose_to_the_fitted_offset():
    # labels run 4 ahead of the printed folios
    contents = ["Contents", "1 Alpha" + DOTS + " 1", "2 Beta" + DOTS + " 3", "3 Gamma" + DOTS + " 6"]
    openings = {2: ["1 Alpha"], 4: ["2 Beta"], 7: ["3 Gamma"]}
    labels = [{"startpage": 0, "prefix": "", "style": "r", "firstpagenum": 1},
              {"startpage": 2, "prefix": "", "style": "D", "firstpagenum": 5}]
    found = read_contents(_norm(_book(contents, openings, 14), labels=labels))
    assert found.mapping == {"arabic": "offset"} and found.offsets == {"arabic": 1}
    assert [(e.page, e.confirmed) for e in found.entries] == [(2, True), (4, True), (7, True)]


def test_title_wrapped_over_two_lines_is_one_entry_and_confirms_wrapped():
    contents = ["Contents", "1 Alpha" + DOTS + " 1", "2 A Rather Long Title That Needs", "Two Lines"
                + DOTS + " 3", "3 Gamma" + DOTS + " 5"]
    openings = {2: ["1 Alpha"], 4: ["2 A Rather Long Title That Needs", "Two Lines"], 6: ["3 Gamma"]}
    norm = _norm(_book(contents, openings, 9))
    found = read_contents(norm)
    second = found.entries[1]
    assert (second.number, second.title, second.page, second.confirmed) == (
        "2", "A Rather Long Title That Needs Two Lines", 4, True)
    assert second.offset == _line_offset(norm, 4, "2 A Rather Long Title That Needs")


def test_parts_chapters_sections_appendices_and_back_matter_get_kinds_and_levels():
    contents = ["Contents", "Part I Foundations" + DOTS + " 1", "1 Basics" + DOTS + " 3",
                "1.1 Terms" + DOTS + " 3", "1.1.1 Words" + DOTS + " 4", "Part II Practice" + DOTS + " 5",
                "2 Tools" + DOTS + " 7", "Appendix A Tables" + DOTS + " 9", "Index" + DOTS + " 11"]
    openings = {2: ["Part I", "Foundations"], 4: ["1 Basics", "1.1 Terms"], 5: ["1.1.1 Words"],
                6: ["Part II", "Practice"], 8: ["2 Tools"], 10: ["Appendix A", "Tables"], 12: ["Index"]}
    found = read_contents(_norm(_book(contents, openings, 14)))
    assert [(e.kind, e.number, e.level) for e in found.entries] == [
        ("part", "I", 1), ("chapter", "1", 2), ("section", "1.1", 3), ("section", "1.1.1", 4),
        ("part", "II", 1), ("chapter", "2", 2), ("appendix", "A", 2), ("back", "", 2)]
    assert all(e.confirmed for e in found.entries)


def test_stacked_heading_is_confirmed_at_its_keyword_line():
    contents = ["Contents", "1 Alpha" + DOTS + " 1", "2 Beta" + DOTS + " 3", "3 Gamma" + DOTS + " 5"]
    openings = {2: ["Chapter 1", "Alpha"], 4: ["CHAPTER", "TWO", "Beta"], 6: ["Chapter 3", "Gamma"]}
    norm = _norm(_book(contents, openings, 9))
    found = read_contents(norm)
    assert [e.offset for e in found.entries] == [_line_offset(norm, 2, "Chapter 1"),
                                                 _line_offset(norm, 4, "CHAPTER"),
                                                 _line_offset(norm, 6, "Chapter 3")]


def test_a_numbered_section_with_the_same_title_does_not_confirm_a_chapter():
    contents = ["Contents", "1 Alpha" + DOTS + " 1", "2 Overview" + DOTS + " 3", "3 Gamma" + DOTS + " 5"]
    # chapter 2's page (3 + 1) has only "1.2 Overview", a section of chapter 1
    openings = {2: ["1 Alpha"], 3: ["1.2 Overview"], 6: ["3 Gamma"]}
    found = read_contents(_norm(_book(contents, openings, 9)))
    second = found.entries[1]
    assert (second.page, second.confirmed, second.offset) == (4, False, None)


def test_an_entry_not_found_on_its_page_stays_unconfirmed_at_its_mapped_page():
    contents = ["Contents", "1 Alpha" + DOTS + " 1", "2 Beta" + DOTS + " 3", "3 Gamma" + DOTS + " 5"]
    openings = {2: ["1 Alpha"], 6: ["3 Gamma"]}
    found = read_contents(_norm(_book(contents, openings, 9)))
    assert [(e.title, e.page, e.confirmed) for e in found.entries] == [
        ("Alpha", 2, True), ("Beta", 4, False), ("Gamma", 6, True)]


def test_a_blank_target_page_passes_the_search_to_the_next_page():
    contents = ["Contents", "1 Alpha" + DOTS + " 1", "2 Beta" + DOTS + " 3", "3 Gamma" + DOTS + " 6"]
    pages = _book(contents, {2: ["1 Alpha"], 4: ["2 Beta"], 8: ["3 Gamma"]}, 10)
    pages[7] = []  # chapter 3 is printed as starting on a blank page; it opens on the next
    found = read_contents(_norm(pages))
    assert [(e.page, e.confirmed) for e in found.entries] == [(2, True), (4, True), (8, True)]


def test_unnumbered_entries_inside_a_chapter_are_sections_and_one_before_a_first_chapter_is_a_part():
    contents = ["Contents", "User Guide" + DOTS + " 1", "1 Alpha" + DOTS + " 3", "Details" + DOTS + " 4",
                "2 Beta" + DOTS + " 5", "Appendices" + DOTS + " 7", "A Tables" + DOTS + " 9",
                "B Figures" + DOTS + " 10"]
    openings = {2: ["User Guide"], 4: ["1 Alpha"], 5: ["Details"], 6: ["2 Beta"], 8: ["Appendices"],
                10: ["Appendix A", "Tables"], 11: ["Appendix B", "Figures"]}
    found = read_contents(_norm(_book(contents, openings, 13)))
    assert [(e.kind, e.number, e.title) for e in found.entries] == [
        ("part", "", "User Guide"), ("chapter", "1", "Alpha"), ("section", "", "Details"),
        ("chapter", "2", "Beta"), ("part", "", "Appendices"), ("appendix", "A", "Tables"),
        ("appendix", "B", "Figures")]
    assert all(e.confirmed for e in found.entries)


def test_a_lone_unnumbered_entry_before_chapter_one_is_front_matter_not_a_part():
    """Beside no other part, the unnumbered title before ``1`` is an introduction in any language."""
    contents = ["Contents", "Opening remarks" + DOTS + " 2", "1 Alpha" + DOTS + " 3", "2 Beta" + DOTS + " 5",
                "3 Gamma" + DOTS + " 7"]
    openings = {3: ["Opening remarks"], 4: ["1 Alpha"], 6: ["2 Beta"], 8: ["3 Gamma"]}
    found = read_contents(_norm(_book(contents, openings, 10)))
    assert [(e.kind, e.number, e.title) for e in found.entries] == [
        ("front", "", "Opening remarks"), ("chapter", "1", "Alpha"), ("chapter", "2", "Beta"),
        ("chapter", "3", "Gamma")]


def test_a_list_whose_page_numbers_start_over_is_not_part_of_the_contents():
    contents = ["Contents", "1 Alpha" + DOTS + " 1", "2 Beta" + DOTS + " 3", "3 Gamma" + DOTS + " 5",
                "4 Delta" + DOTS + " 7"]
    examples = ["1. First example 1", "2. Second example 2", "3. Third example 4", "4. Fourth example 6"]
    pages = _book(contents, {3: ["1 Alpha"], 5: ["2 Beta"], 7: ["3 Gamma"], 9: ["4 Delta"]}, 12)
    pages[2] = [(t, 10.0) for t in examples]
    found = read_contents(_norm(pages))
    assert found.pages == (1,)
    assert [e.title for e in found.entries] == ["Alpha", "Beta", "Gamma", "Delta"]


def test_a_page_of_body_text_is_no_contents_page():
    pages = [body(30, i * 100) for i in range(6)]
    assert read_contents(_norm(pages)).entries == ()


def test_contents_pages_are_looked_for_only_near_the_front():
    contents = ["Contents", "1 Alpha" + DOTS + " 1", "2 Beta" + DOTS + " 3", "3 Gamma" + DOTS + " 5",
                "4 Delta" + DOTS + " 7"]
    late = SCAN_MIN_PAGES + 5
    pages = _book(contents, {}, late + 20, contents_at=late)
    assert read_contents(_norm(pages)).pages == ()
    pages = _book(contents, {}, late + 20, contents_at=3)
    assert read_contents(_norm(pages)).pages == (3,)


def test_a_book_with_synthetic_pages_has_no_printed_contents_to_read():
    text = "Contents\n" + "\n".join(f"{n} Chapter title {n} . . . . . . {n * 3}" for n in range(1, 8))
    norm = normalise(read_raw(text.encode(), "book.txt").pages)
    assert read_contents(norm).pages == ()


def _roman_book(titles):
    """Chapters numbered in roman only (``VII Token speak``): the contents lists number, title
    and page on three lines; each chapter opens its page with number and title on one line."""
    contents = ["Contents"]
    openings = {}
    for k, title in enumerate(titles):
        roman = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII"][k]
        contents += [roman, title, str(3 + 2 * k)]
        openings[2 + 2 * k] = [f"{roman} {title}"]
    return _book(contents, openings, 3 + 2 * len(titles))


def test_short_title_after_its_own_roman_number_confirms_the_entry():
    # ``VII Token speak``: the number shortens the ratio of a short title below the fuzzy bar,
    # so the entry's own number is read off the line before the title is compared.
    titles = ["Going beta", "Token speak", "Arabic", "How Lua fits in the engine"]
    found = read_contents(_norm(_roman_book(titles)), sections=False)
    assert [(e.title, e.confirmed) for e in found.entries] == [(t, True) for t in titles]


def test_another_numbers_line_never_confirms_a_short_title():
    titles = ["Going beta", "Arabic", "Colors redone"]
    pages = _roman_book(titles)
    pages[4] = [("IX Arabic", BIG)] + body(8, 400)  # chapter II's page shows IX
    found = read_contents(_norm(pages), sections=False)
    assert [e.confirmed for e in found.entries] == [True, False, True]


def test_roman_numbers_without_any_chapter_inside_are_chapters_not_parts():
    titles = ["Going beta", "Token speak", "Arabic notes", "Colors redone"]
    found = read_contents(_norm(_roman_book(titles)), sections=False)
    assert {e.kind for e in found.entries} == {"chapter"}


def test_roman_numbers_over_arabic_chapters_stay_parts():
    contents = ["Contents", "I", "Foundations", "3", "1 Sets" + DOTS + " 3", "2 Maps" + DOTS + " 5",
                "II", "Structures", "7", "3 Groups" + DOTS + " 7", "4 Rings" + DOTS + " 9"]
    openings = {2: ["I Foundations", "1 Sets"], 4: ["2 Maps"], 6: ["II Structures", "3 Groups"], 8: ["4 Rings"]}
    found = read_contents(_norm(_book(contents, openings, 11)), sections=False)
    assert [(e.kind, e.number) for e in found.entries] == [
        ("part", "I"), ("chapter", "1"), ("chapter", "2"), ("part", "II"), ("chapter", "3"), ("chapter", "4")]


# --- an opening whose title is not in the text layer (drawn as outlines, an image) --------------

GAP_TITLES = ["Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta"]


def _gap_book(missing: set[int]):
    """Six chapters on physical pages 2, 4, … 12 (printed 1, 3, …); the openings of the chapters
    in ``missing`` (0-based) have no title in the text: their page starts with body text."""
    contents = ["Contents"] + [f"{n} {t}{DOTS} {2 * n - 1}" for n, t in enumerate(GAP_TITLES, 1)]
    openings = {2 * n: [f"{n} {t}"] for n, t in enumerate(GAP_TITLES, 1) if n - 1 not in missing}
    return make_pdf(_book(contents, openings, 14))


def _chapter_pages(pdf: bytes) -> list[tuple[str, int]]:
    book = load_book(pdf, name="book.pdf")
    return [(h.title, h.page) for h in book.headings if h.kind == "chapter"]


def test_a_contents_entry_between_found_neighbours_is_placed_at_its_page_without_its_title():
    found = _chapter_pages(_gap_book({2}))
    assert ("Gamma", 7) in found and len(found) == 6


def test_an_entry_without_a_found_neighbour_after_it_is_not_placed_by_the_contents_alone():
    found = _chapter_pages(_gap_book({5}))
    assert [title for title, _ in found] == GAP_TITLES[:5]


def test_a_contents_that_found_too_few_of_its_chapters_places_none_by_page_alone():
    found = _chapter_pages(_gap_book({1, 3}))
    assert [title for title, _ in found] == ["Alpha", "Gamma", "Epsilon", "Zeta"]


def test_a_first_section_below_the_listing_on_the_contents_page_is_confirmed_there():
    """An article or vignette: title, contents and the first section on page 1 (printed 1); the
    section is found below the listing, never at its own listing line."""
    titles = ["Introduction", "Methods", "Results", "Discussion", "Outlook", "Summary", "Sources", "Errata"]
    contents = ["Contents"] + [f"{n} {t}{DOTS} {n}" for n, t in enumerate(titles, 1)]
    first = [("An Article About Things", BIG)] + [(t, 10.0) for t in contents] + [("1 Introduction", 14.0)]
    pages = [first + body(2, 0)]
    pages += [[(f"{n} {t}", 14.0)] + body(12, 100 * n) for n, t in enumerate(titles[1:], 2)]
    norm = _norm(pages, labels=[{"startpage": 0, "prefix": "", "style": "D", "firstpagenum": 1}])
    found = read_contents(norm)
    placed = [(e.title, e.page, e.confirmed) for e in found.entries if e.page is not None]
    assert placed == [(t, n, True) for n, t in enumerate(titles)]
    introduction = next(e for e in found.entries if e.title == "Introduction")
    assert introduction.offset == max(off for off, t in norm.lines[0] if t == "1 Introduction")


def test_unnumbered_entries_running_on_inside_the_last_chapter_are_its_sections_not_back_matter():
    contents = ["Contents", "1 Alpha" + DOTS + " 1", "2 Beta" + DOTS + " 3", "3 Problems" + DOTS + " 5",
                "Install Problems" + DOTS + " 5", "Export Problems" + DOTS + " 6", "Memory Problems" + DOTS + " 6",
                "Further Material" + DOTS + " 9", "Bibliography" + DOTS + " 11"]
    found = read_contents(_norm(_book(contents, {}, 16)))
    assert [(e.title, e.kind) for e in found.entries] == [
        ("Alpha", "chapter"), ("Beta", "chapter"), ("Problems", "chapter"),
        ("Install Problems", "section"), ("Export Problems", "section"), ("Memory Problems", "section"),
        ("Further Material", "back"), ("Bibliography", "back")]


def test_clauses_on_the_page_of_an_unnumbered_back_matter_unit_are_its_sections():
    contents = ["Contents", "1 Alpha" + DOTS + " 1", "2 Beta" + DOTS + " 3", "Licence" + DOTS + " 7",
                "Preamble" + DOTS + " 7", "Conditions" + DOTS + " 8", "Bibliography" + DOTS + " 11"]
    found = read_contents(_norm(_book(contents, {}, 16)))
    assert [(e.title, e.kind) for e in found.entries] == [
        ("Alpha", "chapter"), ("Beta", "chapter"), ("Licence", "back"),
        ("Preamble", "section"), ("Conditions", "section"), ("Bibliography", "back")]


@pytest.mark.parametrize("heading", ["Table des matières", "Inhaltsverzeichnis", "Índice", "Sommaire"])
def test_a_contents_heading_in_another_language_under_a_printers_line_is_no_entry(heading):
    # a proof's line above the heading, then each entry as number / separator / title / page
    contents = ["Proof, 2 May", heading, "1", "\\", "Introduction", "1", "2", "\\", "Methods", "4",
                "3", "\\", "Results", "6"]
    openings = {2: ["1", "Introduction"], 5: ["2", "Methods"], 7: ["3", "Results"]}
    found = read_contents(_norm(_book(contents, openings, 10)))
    assert [(e.number, e.title, e.page) for e in found.entries] == [
        ("1", "Introduction", 2), ("2", "Methods", 5), ("3", "Results", 7)]


def test_a_contents_heading_lower_down_the_page_is_an_entrys_title():
    contents = ["Contents", "1", "Introduction", "1", "2", "Making a book", "3", "Contents", "4",
                "Indexes", "5", "3", "Results", "6"]
    found = read_contents(_norm(_book(contents, {}, 12)))
    assert [(e.number, e.title, e.printed) for e in found.entries] == [
        ("1", "Introduction", "1"), ("2", "Making a book", "3"), ("", "Contents", "4"), ("", "Indexes", "5"),
        ("3", "Results", "6")]


def test_a_line_ending_in_a_page_number_or_leaders_counts_towards_a_contents_page():
    # the cheap test before a page is parsed: a page number alone, after a space or leaders
    # (arabic or lower-case roman, trailing blanks allowed), or three leaders at the end
    for line in ("12", "xiv", " 7 ", "Preface xiv", "Getting Started 12", "Title . . . . 12",
                 "Title....12", "Title . . .", "Title………  ", "Title\t12\t"):
        assert _ends_paged(line), line
    # a number glued to a word, inside the line or too long, and two leaders, are not
    for line in ("Version12", "In 1999 we met", "Title 12345", "Title ..", "", "Overview"):
        assert not _ends_paged(line), line



def test_a_part_label_set_large_on_the_contents_page_is_its_entry_not_the_parts_opening():
    """The contents sets ``PART I`` / ``PART II`` large over the part titles, with the chapters
    under them: those lines are entries, and each part opens on its own page, the second as the
    first does (not taken for a repeat of the contents' line)."""
    pages = [[("A Book About Things", BIG)]]
    contents = [("Contents", BIG), ("PART I", 14.0), ("FOUNDATIONS", 10.0), ("1", 10.0),
                ("1 Basics" + DOTS + " 3", 10.0), ("2 Terms" + DOTS + " 5", 10.0),
                ("PART II", 14.0), ("PRACTICE", 10.0), ("7", 10.0), ("3 Tools" + DOTS + " 9", 10.0)]
    pages.append(contents)
    openings = {2: ["PART I", "FOUNDATIONS"], 4: ["1 Basics"], 6: ["2 Terms"],
                8: ["PART II", "PRACTICE"], 10: ["3 Tools"]}
    for index in range(2, 13):
        pages.append([(t, BIG) for t in openings[index]] + body(8, index * 100) if index in openings
                     else body(12, index * 100))
    book = load_book(make_pdf(pages, labels=[{"startpage": 2, "prefix": "", "style": "D", "firstpagenum": 1}]),
                     name="b.pdf")
    assert [(h.kind, h.number, h.page) for h in book.headings if h.kind in ("part", "chapter")] == [
        ("part", "I", 3), ("chapter", "1", 5), ("chapter", "2", 7), ("part", "II", 9), ("chapter", "3", 11)]


@pytest.mark.parametrize("size,unit", [(12.0, False), (BIG, True)])
def test_a_listed_title_after_the_last_chapter_set_smaller_than_every_chapter_is_no_unit(size, unit):
    """The contents lists, after the last chapter and without what marks its sections, a title
    the page sets smaller than every chapter heading: a section of the last chapter, not back
    matter; set as the chapters are, it is a unit."""
    contents = [("Contents", BIG), ("1 Basics" + DOTS + " 2", 10.0), ("2 Terms" + DOTS + " 4", 10.0),
                ("3 Tools" + DOTS + " 6", 10.0), ("A closing look at the tools we met", 10.0), ("7", 10.0),
                ("Bibliography" + DOTS + " 9", 10.0)]
    pages = [[("A Book About Things", BIG)], contents]
    for index in range(2, 11):
        if index in (2, 4, 6):
            pages.append([(f"{index // 2} {['Basics', 'Terms', 'Tools'][index // 2 - 1]}", BIG)] + body(8, index * 100))
        elif index == 7:
            pages.append(body(6, 700) + [("A closing look at the tools we met", size)] + body(8, 750))
        elif index == 9:
            pages.append([("Bibliography", BIG)] + body(8, 900))
        else:
            pages.append(body(12, index * 100))
    book = load_book(make_pdf(pages, labels=[{"startpage": 1, "prefix": "", "style": "D", "firstpagenum": 1}]),
                     name="b.pdf")
    titles = [h.title for h in book.headings if h.level == 1]
    assert ("A closing look at the tools we met" in titles) is unit
    assert "Bibliography" in titles


def test_an_unnumbered_contents_entry_set_in_from_the_chapter_entries_is_a_section():
    from pdf_factory import Text

    chapters = {
        "First Steps": ["Getting Started", "Files and Folders"],
        "Page Layout": ["Margins", "Columns"],
        "Fonts": ["Families", "Sizes"],
    }
    pages = [[("A Book About Things", BIG)], [("Contents", BIG)]]
    listing = []
    for chapter, sections in chapters.items():
        listing.append(Text(chapter + DOTS + f" {len(pages) - 1}", x=72.0))
        pages.append([(f"Chapter {list(chapters).index(chapter) + 1}", BIG), (chapter, BIG), *body(20, len(pages) * 100)])
        for section in sections:
            listing.append(Text(section + DOTS + f" {len(pages) - 1}", x=92.0))
            pages.append([(section, 12.0), *body(30, len(pages) * 100)])
    pages[1] += listing
    book = load_book(make_pdf(pages), name="indented.pdf")
    assert [h.title for h in book.headings if h.kind == "chapter"] == list(chapters)
