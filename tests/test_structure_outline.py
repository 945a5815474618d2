"""Outline cross-check and repair on small PDFs built with PyMuPDF (issue 2)."""

from __future__ import annotations

from chunking.ingest import load_book
from pdf_factory import Text, body, line_tops, make_pdf

BIG = 20.0


def _chapter_page(number: int, title: str, n: int = 12) -> list:
    return [(f"Chapter {number}", BIG), (title, BIG)] + body(n, number * 100)


def _summary(book) -> list[tuple]:
    return [(h.level, h.kind, h.number, h.title, h.page) for h in book.headings]


def test_parts_at_level_1_keep_their_chapters_at_level_2():
    pages = [
        [("Part I", BIG), ("Foundations", BIG)] + body(3),
        _chapter_page(1, "Alpha"),
        _chapter_page(2, "Beta"),
        [("Part II", BIG), ("Practice", BIG)] + body(3, 50),
        _chapter_page(3, "Gamma"),
    ]
    toc = [
        (1, "Part I Foundations", 1, None),
        (2, "Alpha", 2, None),
        (2, "Beta", 3, None),
        (1, "Part II Practice", 4, None),
        (2, "Gamma", 5, None),
    ]
    book = load_book(make_pdf(pages, toc=toc), name="parts.pdf")
    assert book.diagnostics.structure_source == "outline"
    assert _summary(book) == [
        (1, "part", "I", "Foundations", 1),
        (2, "chapter", "1", "Alpha", 2),
        (2, "chapter", "2", "Beta", 3),
        (1, "part", "II", "Practice", 4),
        (2, "chapter", "3", "Gamma", 5),
    ]


def test_numbered_sections_mixed_in_at_level_1_move_below_their_chapter():
    page1 = [("1 Alpha", BIG)] + body(10) + [("1.1 Detail", 14)] + body(10, 20)
    pages = [page1, [("2 Beta", BIG)] + body(10, 40)]
    toc = [(1, "1 Alpha", 1, None), (1, "1.1 Detail", 1, line_tops(page1)[11]), (1, "2 Beta", 2, None)]
    book = load_book(make_pdf(pages, toc=toc), name="mixed.pdf")
    assert _summary(book) == [
        (1, "chapter", "1", "Alpha", 1),
        (2, "section", "1.1", "Detail", 1),
        (1, "chapter", "2", "Beta", 2),
    ]
    assert book.diagnostics.outline_entries_repaired == 1


def test_entries_a_few_pages_off_are_moved_to_the_page_that_holds_the_title():
    pages = [_chapter_page(1, "Alpha"), body(12, 500), body(12, 600), _chapter_page(2, "Beta"), body(12, 700)]
    toc = [(1, "Alpha", 1, None), (1, "Beta", 2, None)]  # Beta really starts on page 4
    book = load_book(make_pdf(pages, toc=toc), name="off.pdf")
    assert [(h.title, h.page) for h in book.headings] == [("Alpha", 1), ("Beta", 4)]
    assert book.diagnostics.outline_entries_repaired == 1
    assert book.text[book.headings[1].char_offset :].startswith("Chapter 2\nBeta\n")


def test_junk_in_titles_is_cleaned_and_counted():
    pages = [_chapter_page(1, "Alpha"), _chapter_page(2, "Beta")]
    toc = [(1, "Alpha\t. . . . . . 1", 1, None), (1, "  Beta\x07 ", 2, None)]
    book = load_book(make_pdf(pages, toc=toc), name="junk.pdf")
    assert [h.title for h in book.headings] == ["Alpha", "Beta"]
    assert book.diagnostics.outline_entries_repaired == 2


def test_entries_whose_title_is_nowhere_near_are_dropped_with_a_warning():
    pages = [_chapter_page(1, "Alpha"), _chapter_page(2, "Beta"), _chapter_page(3, "Gamma")]
    toc = [
        (1, "Alpha", 1, None),
        (1, "Beta", 2, None),
        (1, "Gamma", 3, None),
        (1, "Nonexistent Topic", 3, None),
    ]
    book = load_book(make_pdf(pages, toc=toc), name="drop.pdf")
    assert [h.title for h in book.headings] == ["Alpha", "Beta", "Gamma"]
    assert book.diagnostics.outline_entries == 4
    assert book.diagnostics.outline_entries_dropped == 1
    assert "1 of 4 outline entries were not found in the text and were dropped" in book.diagnostics.warnings


def test_mid_page_chapter_starts_at_its_heading_line_using_the_destination_y():
    page1 = _chapter_page(1, "Alpha", 8)
    page2 = body(8, 300) + [("Chapter 2", BIG), ("Beta", BIG)] + body(8, 400)
    toc = [(1, "Alpha", 1, line_tops(page1)[1]), (1, "Beta", 2, line_tops(page2)[8])]
    book = load_book(make_pdf([page1, page2], toc=toc), name="mid.pdf")
    beta = book.headings[1]
    page = book.pages[1]
    assert beta.page == 2 and page.char_start < beta.char_offset < page.char_end
    assert book.text[beta.char_offset :].startswith("Chapter 2\nBeta\nLine 400")


def test_destination_y_picks_the_right_one_of_two_lines_with_the_same_title():
    page = (
        [("1 Setup", BIG)]
        + body(6)
        + [("1.1 Example", 14)]
        + body(6, 10)
        + [("1.2 Details", 14)]
        + body(6, 20)
        + [("1.3 Example", 14)]
        + body(6, 30)
    )
    tops = line_tops(page)
    toc = [
        (1, "1 Setup", 1, tops[0]),
        (2, "Example", 1, tops[7]),
        (2, "Details", 1, tops[14]),
        (2, "Example", 1, tops[21]),
    ]
    book = load_book(make_pdf([page], toc=toc), name="twice.pdf")
    sections = [h for h in book.headings if h.kind == "section"]
    starts = [book.text[h.char_offset :].split("\n")[0] for h in sections]
    assert starts == ["1.1 Example", "1.2 Details", "1.3 Example"]


def test_auto_falls_back_to_text_headings_when_the_outline_does_not_hold_up():
    pages = [_chapter_page(1, "Alpha"), _chapter_page(2, "Beta"), _chapter_page(3, "Gamma")]
    toc = [(1, "Wrong One", 1, None), (1, "Wrong Two", 2, None), (1, "Gamma", 3, None)]
    data = make_pdf(pages, toc=toc)
    book = load_book(data, name="bad-outline.pdf")
    assert book.diagnostics.structure_source == "headings"
    assert [(h.number, h.title) for h in book.headings] == [("1", "Alpha"), ("2", "Beta"), ("3", "Gamma")]
    assert any("outline does not hold up" in w for w in book.diagnostics.warnings)
    forced = load_book(data, name="bad-outline.pdf", structure="outline")
    assert forced.diagnostics.structure_source == "outline"
    # forced: entries the text does not confirm stay where they point, marked unconfirmed
    assert [(h.title, h.page) for h in forced.headings] == [("Wrong One", 1), ("Wrong Two", 2), ("Gamma", 3)]
    assert [h.confidence < 0.5 for h in forced.headings] == [True, True, False]


def test_unnumbered_entries_before_the_first_chapter_are_front_and_after_the_last_back():
    pages = [
        [("Foreword", BIG)] + body(8),
        _chapter_page(1, "Alpha"),
        [("Acknowledged Sources", BIG)] + body(8, 90),
    ]
    toc = [(1, "Foreword", 1, None), (1, "Alpha", 2, None), (1, "Acknowledged Sources", 3, None)]
    book = load_book(make_pdf(pages, toc=toc), name="matter.pdf")
    assert [(h.kind, h.title) for h in book.headings] == [
        ("front", "Foreword"),
        ("chapter", "Alpha"),
        ("back", "Acknowledged Sources"),
    ]


def test_auto_prefers_the_text_when_a_one_entry_outline_hides_the_chapters():
    pages = [[("Cover Page", 20.0)] + body(4), _chapter_page(1, "Alpha"), _chapter_page(2, "Beta")]
    book = load_book(make_pdf(pages, toc=[(1, "Cover Page", 1, None)]), name="cover.pdf")
    assert book.diagnostics.structure_source == "headings"
    assert [(h.kind, h.title) for h in book.headings] == [("chapter", "Alpha"), ("chapter", "Beta")]
    assert book.diagnostics.outline_entries == 1
    assert any("the outline has 1 chapter-level entries, the text 2" in w for w in book.diagnostics.warnings)


def test_destination_y_beats_a_perfect_running_header_match_for_a_title_wrapped_over_two_lines():
    # NOTE: lshort.pdf p. 65: the running header spells section 3.4's title exactly, the heading
    # itself wraps and only matches fuzzily; a lone perfect match must not skip the y check.
    title = "Single Equations that are Too Long: multline"
    page = (
        [("3.4 " + title, 9.0)]
        + body(4)
        + [("3.4 Single Equations that are Too Long:", 14.0), ("multline", 14.0)]
        + body(6, 10)
    )
    tops = line_tops(page)
    book = load_book(make_pdf([page], toc=[(1, title, 1, tops[5])]), name="wrapped.pdf", structure="outline")
    assert [book.text[h.char_offset :].split("\n")[0] for h in book.headings] == [
        "3.4 Single Equations that are Too Long:"
    ]


def test_an_outline_title_is_found_inside_a_keyword_heading_line():
    page1 = [("Chapter 1: Alpha Procedures", BIG)] + body(8)
    page2 = body(6, 300) + [("CHAPTER 2 - Graphical Procedures", BIG)] + body(8, 400)
    toc = [(1, "Alpha Procedures", 1, None), (1, "Graphical Procedures", 2, None)]
    book = load_book(make_pdf([page1, page2], toc=toc), name="keyword.pdf", structure="outline")
    assert book.diagnostics.outline_entries_dropped == 0
    assert [(h.kind, h.number, h.title, h.page) for h in book.headings] == [
        ("chapter", "1", "Alpha Procedures", 1),
        ("chapter", "2", "Graphical Procedures", 2),
    ]
    assert book.text[book.headings[1].char_offset :].startswith("CHAPTER 2 - Graphical Procedures\n")


def _spaced(title: str) -> str:
    """``Some Kind`` set in tracked-out small capitals, as the text layer gives it:
    ``S O M E K I N D`` (the spaces between the words are lost)."""
    return " ".join(title.replace(" ", "").upper())


def test_letter_spaced_titles_confirm_their_outline_entries():
    """Titles set letter-spaced (each letter a token) are the outline's titles: the outline holds
    and every entry is confirmed on its page."""
    titles = ["Introduction", "Related Work", "Method", "Results"]
    pages = [[("1", 60.0), (_spaced(t), 10.0)] + body(14, 100 * n) for n, t in enumerate(titles, 1)]
    for n, page in enumerate(pages, 1):
        page[0] = (str(n), 60.0)
    toc = [(1, f"{n} {t}", n, None) for n, t in enumerate(titles, 1)]
    book = load_book(make_pdf(pages, toc=toc), name="spaced.pdf")
    assert book.diagnostics.structure_source == "outline"
    assert [(h.kind, h.number, h.title, h.page) for h in book.headings] == [
        ("chapter", str(n), t, n) for n, t in enumerate(titles, 1)
    ]
    assert all(h.confidence > 0.3 for h in book.headings)  # confirmed, not kept unconfirmed


def test_unnamed_front_matter_beside_the_parts_does_not_outvote_them():
    """Level 1 holds unnumbered front-matter entries with no front-matter name (``Zusammenfassung``,
    ``Publications``) before ``Part I`` and ``Part II``: those are still the parts, and the
    chapters at level 2 stay chapters."""
    pages = [
        [("Zusammenfassung", BIG)] + body(6),
        [("Publications", BIG)] + body(6, 20),
        [("Acronyms", BIG)] + body(6, 40),
        [("Part I", BIG), ("Foundations", BIG)] + body(3, 60),
        _chapter_page(1, "Alpha"),
        [("Part II", BIG), ("Practice", BIG)] + body(3, 80),
        _chapter_page(2, "Beta"),
    ]
    toc = [
        (1, "Zusammenfassung", 1, None),
        (1, "Publications", 2, None),
        (1, "Acronyms", 3, None),
        (1, "Part I Foundations", 4, None),
        (2, "Alpha", 5, None),
        (1, "Part II Practice", 6, None),
        (2, "Beta", 7, None),
    ]
    book = load_book(make_pdf(pages, toc=toc), name="front-parts.pdf")
    chapters = [
        (h.level, h.kind, h.number, h.title, h.page) for h in book.headings if h.kind in ("part", "chapter")
    ]
    assert chapters == [
        (1, "part", "I", "Foundations", 4),
        (2, "chapter", "1", "Alpha", 5),
        (1, "part", "II", "Practice", 6),
        (2, "chapter", "2", "Beta", 7),
    ]


def _drifting_book(second_size: float, chapter_size: float = 18.0) -> list[tuple]:
    """Three chapters with two sections each; the outline nests chapter 2 (and its sections) one
    level too deep, as siblings of chapter 1's sections, as some HTML-to-PDF exports do."""
    pages, toc = [], []
    for n, title in enumerate(("Alpha", "Beta", "Gamma"), 1):
        size = second_size if n == 2 else chapter_size
        pages.append([(title, size)] + body(12, 100 * n))
        toc.append((1 if n != 2 else 2, title, len(pages), None))
        for k in (1, 2):
            pages.append([(f"{title} topic {k}", 13.0)] + body(12, 100 * n + 10 * k))
            toc.append((2 if n != 2 else 3, f"{title} topic {k}", len(pages), None))
    book = load_book(make_pdf(pages, toc=toc), name="drift.pdf")
    return [(h.kind, h.title, h.page) for h in book.headings if h.kind != "section"]


def test_an_entry_set_like_the_chapters_but_nested_too_deep_is_a_chapter():
    assert _drifting_book(second_size=18.0) == [
        ("chapter", "Alpha", 1),
        ("chapter", "Beta", 4),
        ("chapter", "Gamma", 7),
    ]


def test_an_entry_nested_deep_and_set_like_its_siblings_stays_a_section():
    assert _drifting_book(second_size=13.0) == [("chapter", "Alpha", 1), ("chapter", "Gamma", 7)]


def test_outline_depths_are_not_second_guessed_when_chapters_are_not_set_large():
    assert _drifting_book(second_size=10.0, chapter_size=10.0) == [
        ("chapter", "Alpha", 1),
        ("chapter", "Gamma", 7),
    ]


def test_back_matter_and_appendices_the_outline_nests_deeper_and_deeper_are_chapter_level():
    """An outline that drifts: after the last chapter, References at depth 3 and each appendix a
    level or two below the last, each alone at its depth; the text sets them like the chapters
    and the sections below the chapters smaller, so they are chapter-level units."""
    pages, toc = [], []
    for n, title in enumerate(("Alpha", "Beta", "Gamma"), 1):
        pages.append([(f"{n} {title}", 18.0)] + body(12, 100 * n))
        toc.append((1, f"{n} {title}", len(pages), None))
        for k in (1, 2):
            pages.append([(f"{n}.{k} {title} topic {k}", 13.0)] + body(12, 100 * n + 10 * k))
            toc.append((2, f"{n}.{k} {title} topic {k}", len(pages), None))
    back = [("REFERENCES", 3), ("APPENDIX A. Tables", 4), ("APPENDIX B. Listings", 6)]
    for title, depth in back:
        pages.append([(title, 18.0)] + body(12, 900 + len(pages)))
        toc.append((depth, title, len(pages), None))
        pages.append([(f"Part of {title.split('.')[0].title()}", 13.0)] + body(12, 950 + len(pages)))
        toc.append((depth + 1, f"Part of {title.split('.')[0].title()}", len(pages), None))
    book = load_book(make_pdf(pages, toc=toc), name="drift-back.pdf")
    top = [(h.kind, h.title) for h in book.headings if h.level == 1]
    assert top[3:] == [("back", "REFERENCES"), ("appendix", "Tables"), ("appendix", "Listings")]


def _broken(pdf: bytes, entry: int, key: str, value: str) -> bytes:
    """``pdf`` with outline entry ``entry`` (0-based, reading order) given ``key`` = ``value``
    (``{first}``: the first entry's object number)."""
    import pymupdf

    doc = pymupdf.open(stream=pdf, filetype="pdf")
    items = [x for x in range(1, doc.xref_length()) if doc.xref_get_key(x, "Title")[0] == "string"]
    doc.xref_set_key(items[entry], key, value.format(first=items[0]))
    return doc.tobytes()


def _four_chapters() -> tuple[list, list]:
    pages = [_chapter_page(n, title) for n, title in enumerate(["Alpha", "Beta", "Gamma", "Delta"], 1)]
    pages.insert(2, body(30, 700))  # chapter 2 runs over two pages
    toc = [(1, "Alpha", 1, None), (1, "Beta", 2, None), (1, "Gamma", 4, None), (1, "Delta", 5, None)]
    return pages, toc


def test_an_entry_whose_destination_does_not_resolve_is_placed_where_its_title_stands_between_neighbours():
    pages, toc = _four_chapters()
    book = load_book(_broken(make_pdf(pages, toc=toc), 1, "Dest", "/NoSuchDestination"), name="b.pdf")
    assert [(h.title, h.page) for h in book.headings if h.kind == "chapter"] == [
        ("Alpha", 1),
        ("Beta", 2),
        ("Gamma", 4),
        ("Delta", 5),
    ]
    assert book.diagnostics.structure_source == "outline"
    assert not any("dropped" in w for w in book.diagnostics.warnings)


def test_an_outline_the_pdf_library_cannot_walk_is_named_in_a_warning():
    pages, toc = _four_chapters()
    book = load_book(_broken(make_pdf(pages, toc=toc), 2, "Next", "{first} 0 R"), name="loop.pdf")
    assert any("outline (bookmarks) could not be read" in w for w in book.diagnostics.warnings)
    assert [h.title for h in book.headings if h.kind == "chapter"] == ["Alpha", "Beta", "Gamma", "Delta"]


def test_an_outline_title_that_starts_in_lower_case_keeps_its_number_apart():
    """An outline entry is a heading whatever its case: ``2. pdfmom: Output`` is chapter 2 titled
    ``pdfmom: Output`` (a command's name), like its capitalised siblings."""
    titles = ["Getting Started", "pdfmom: Simplifying Output", "Closing Remarks"]
    pages = [[(f"{n}. {t}", BIG), *body(30, n * 100)] for n, t in enumerate(titles, 1)]
    toc = [(1, f"{n}. {t}", n, None) for n, t in enumerate(titles, 1)]
    book = load_book(make_pdf(pages, toc=toc), name="lower.pdf")
    assert [(h.kind, h.number, h.title) for h in book.headings] == [
        ("chapter", str(n), t) for n, t in enumerate(titles, 1)
    ]


def test_an_outline_title_ending_in_a_number_keeps_its_number_and_its_chapter():
    """An outline entry is no contents line: ``2 Using HTTP 2`` is chapter 2 titled ``Using HTTP
    2``, not an unnumbered entry whose last number would be its page."""
    titles = ["Getting Started", "Using HTTP 2", "Moving to Release 3", "Closing Remarks"]
    pages = [[(f"{n} {t}", BIG), *body(30, n * 100)] for n, t in enumerate(titles, 1)]
    toc = [(1, f"{n} {t}", n, None) for n, t in enumerate(titles, 1)]
    book = load_book(make_pdf(pages, toc=toc), name="trailing.pdf")
    assert [(h.kind, h.number, h.title) for h in book.headings] == [
        ("chapter", str(n), t) for n, t in enumerate(titles, 1)
    ]


def test_roman_numbers_standing_above_outline_titles_number_chapters_not_appendices_or_back_matter():
    """Sections numbered in roman, each number on its own line above the title (``I.`` /
    ``INTRODUCTION``, as physics journals set them): ``I``, ``V`` and ``X`` are roman numbers
    where their neighbours run on in roman, not appendices I, V and X, and ``VIII.`` numbers
    ``Notes and References`` a chapter, whatever its name says."""
    titles = ["Introduction", "Theory", "The Method", "The Apparatus", "Measurements", "Errors",
              "Calibration", "Notes and References", "Results", "Discussion", "Outlook"]  # fmt: skip
    numerals = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI"]
    pages = [
        [(f"{r}.", BIG), (t.upper(), BIG), *body(30, n * 100)]
        for n, (r, t) in enumerate(zip(numerals, titles))
    ]
    toc = [(1, t, n, None) for n, t in enumerate(titles, 1)]
    book = load_book(make_pdf(pages, toc=toc), name="roman.pdf")
    assert [(h.kind, h.number, h.title) for h in book.headings] == [
        ("chapter", r, t) for r, t in zip(numerals, titles)
    ]


def test_a_chapter_number_run_into_its_outline_title_numbers_the_chapter():
    """A layout that sets the number in a box of fixed width runs two digits into the title
    (``10chart styles``): the rest is the outline's title word for word, so the entry is chapter
    10, not back matter after chapter 9."""
    titles = ["Introduction", "Installation", "Options", "Configuration", "Key Bindings", "Event Markers",
              "User Commands", "Print Styles", "Colour Themes", "Chart Styles", "Planner Views", "Utilities"]  # fmt: skip
    pages = [
        [(f"{n} {t.lower()}" if n < 10 else f"{n}{t.lower()}", BIG), *body(30, n * 100)]
        for n, t in enumerate(titles, 1)
    ]
    toc = [(1, t, n, None) for n, t in enumerate(titles, 1)]
    book = load_book(make_pdf(pages, toc=toc), name="glued.pdf")
    assert [(h.kind, h.number, h.title) for h in book.headings] == [
        ("chapter", str(n), t) for n, t in enumerate(titles, 1)
    ]


def test_a_run_of_lettered_appendices_reads_i_as_a_letter_and_runs_on_past_it():
    """Outline titles ``A Title`` … ``K Title`` after the numbered chapters: ``I Sources`` is
    appendix I, not chapter 1 in roman, and ``J``, ``K`` after it are appendices too."""
    letters = "ABCDEFGHIJK"
    chapters = [f"{n} Chapter Topic {n}" for n in (1, 2, 3)]
    appendices = [f"{c} Appendix Topic {c}" for c in letters]
    titles = chapters + appendices
    pages = [[(t, BIG), *body(30, n * 100)] for n, t in enumerate(titles, 1)]
    toc = [(1, t, n, None) for n, t in enumerate(titles, 1)]
    book = load_book(make_pdf(pages, toc=toc), name="lettered.pdf")
    assert [(h.kind, h.number) for h in book.headings][3:] == [("appendix", c) for c in letters]


def test_an_index_nested_at_the_part_depth_keeps_its_letter_groups_out_of_the_chapters():
    """``Index`` beside the parts with ``Symbols``, ``A``, ``B`` at the chapter depth under it:
    those are the index's letter groups, its sections, not chapters or appendices."""
    pages, toc = [], []
    chapters = {"User Guide": ("Getting Started", "Daily Use"), "Implementation": ("Helpers", "Internals")}
    for p, part in enumerate(chapters, 1):
        pages.append([(f"Part {'I' * p}", BIG), (part, BIG)])
        toc.append((1, f"{'I' * p} {part}", len(pages), None))
        for n, title in enumerate(chapters[part], 1):
            pages.append([(f"{n} {title}", BIG), *body(30, p * 100 + n)])
            toc.append((2, f"{n} {title}", len(pages), None))
    pages.append([("Index", BIG), ("Symbols", 14.0), ("\\foo, 3", 10.0), ("A", 14.0), ("alpha, 4", 10.0)])
    toc += [(1, "Index", len(pages), None), (2, "Symbols", len(pages), None), (2, "A", len(pages), None)]
    pages.append([("B", 14.0), ("beta, 5", 10.0), ("C", 14.0), ("gamma, 6", 10.0)])
    toc += [(2, "B", len(pages), None), (2, "C", len(pages), None)]
    book = load_book(make_pdf(pages, toc=toc), name="indexed.pdf")
    units = [(h.kind, h.title) for h in book.headings if h.kind != "section"]
    assert units[-1] == ("back", "Index")
    assert [t for k, t in units if k in ("chapter", "appendix")] == [t for pair in chapters.values() for t in pair]


def test_a_lone_letter_after_lettered_appendices_stays_an_appendix():
    """Appendix ``I`` after ``H`` runs on in letters: no roman number is read into it."""
    letters = "ABCDEFGHI"
    pages = [[("1", BIG), ("MAIN TEXT", BIG), *body(30, 100)]]
    pages += [[(f"{c}.", BIG), (f"TOPIC {c}", BIG), *body(30, n * 100)] for n, c in enumerate(letters, 2)]
    toc = [(1, "Main Text", 1, None)] + [(1, f"Topic {c}", n, None) for n, c in enumerate(letters, 2)]
    book = load_book(make_pdf(pages, toc=toc), name="letters.pdf")
    assert [(h.kind, h.number) for h in book.headings][1:] == [("appendix", c) for c in letters]


def test_an_outline_title_that_is_the_short_form_of_its_heading_stays_on_its_page():
    """The outline says ``Table of Questions`` where the page prints ``Table of Questions Asked
    Most Often``; the next page's running header prints the short form exactly. The entry stays
    where the outline points: its heading begins with the whole title."""
    pages = [
        _chapter_page(1, "Alpha"),
        _chapter_page(2, "Beta"),
        [("Table of Questions Asked Most Often", BIG)] + body(12, 300),
        [("Table of Questions", 9)] + body(12, 400),
    ]
    toc = [(1, "Alpha", 1, None), (1, "Beta", 2, None), (1, "Table of Questions", 3, None)]
    book = load_book(make_pdf(pages, toc=toc), name="short.pdf")
    assert [(h.title, h.page) for h in book.headings if h.level == 1][-1] == ("Table of Questions", 3)


def test_a_body_line_beginning_with_the_outline_title_does_not_keep_an_entry_that_points_a_page_early():
    body_start = (
        body(5, 300) + [("Table of Questions and the answers to them follow on the next", 10)] + body(5, 320)
    )
    pages = [
        _chapter_page(1, "Alpha"),
        body_start,
        [("Table of Questions", BIG)] + body(12, 400),
    ]
    toc = [(1, "Alpha", 1, None), (1, "Table of Questions", 2, None)]  # the heading is on page 3
    book = load_book(make_pdf(pages, toc=toc), name="early.pdf")
    assert [(h.title, h.page) for h in book.headings if h.level == 1][-1] == ("Table of Questions", 3)


def test_an_outline_whose_chapters_hold_though_its_sections_are_printed_otherwise_is_used():
    """A manual prints each section under its example's file name (``text/basics.rb``) where its
    outline says ``Basics``: most entries are not found, but the chapter-level ones all are, so
    the outline's chapters stand, and a numbered list set large inside one is no chapter."""
    names = ["Alpha", "Beta", "Gamma"]
    pages, toc = [], []
    for n, name in enumerate(names, 1):
        toc.append((1, name, len(pages) + 1, None))
        pages.append([(name, BIG)] + body(8, n * 100))
        for k in range(4):
            toc.append((2, f"Topic {n}{k}", len(pages) + 1, None))
            pages.append([(f"{name.lower()}/topic_{k}.rb", 12)] + body(10, n * 100 + k * 10))
    pages[-1] = (
        pages[-1][:3]
        + [("1. Faster document creation", 14), ("2. Smaller final document", 14)]
        + body(4, 990)
    )
    book = load_book(make_pdf(pages, toc=toc), name="manual.pdf")
    assert [(h.title, h.page) for h in book.headings if h.level == 1] == [
        ("Alpha", 1),
        ("Beta", 6),
        ("Gamma", 11),
    ]


def test_a_chapter_the_outline_never_bookmarked_is_put_in_from_the_contents_where_its_numbering_lacks_it():
    """The outline starts at chapter 1's sections (``Scope`` at its top level) and bookmarks
    chapters 2-4; the printed contents lists ``1 Overview`` on page 3, whose text opens with it:
    the contents and the outline's own numbering agree that chapter 1 is there."""
    dots = " . . . . . . . . . . . ."
    contents = [
        "Contents",
        f"1 Overview{dots} 3",
        f"1.1 Scope{dots} 3",
        f"2 Usage{dots} 5",
        f"3 Format{dots} 7",
        f"4 Index{dots} 9",
    ]
    pages = [[("A Format Specification", BIG)] + body(4, 0), [(t, 10.0) for t in contents]]
    pages.append([("1 Overview", 14.0), ("1.1 Scope", 12.0)] + body(12, 100))
    pages.append(body(16, 150))
    toc = [(1, "Scope", 3, None)]
    for n, title in enumerate(["Usage", "Format", "Index"], 2):
        pages.append([(f"{n} {title}", 14.0)] + body(12, 100 * n))
        pages.append(body(16, 100 * n + 50))
        toc.append((1, title, len(pages) - 1, None))
    book = load_book(
        make_pdf(pages, toc=toc, labels=[{"startpage": 2, "prefix": "", "style": "D", "firstpagenum": 3}]),
        name="spec.pdf",
    )
    chapters = [(h.number, h.title, h.page) for h in book.headings if h.kind == "chapter"]
    assert chapters[0] == ("1", "Overview", 3)
    assert [n for n, _, _ in chapters] == ["1", "2", "3", "4"]


def _footer_first_manual(label_above: bool, header: str = "") -> bytes:
    """Three programs' manual pages, two pages each, outlined at the page top (y 0). Each page's
    content stream draws a running header naming the program (or ``header``) and the version,
    then its footer (a date and the folio, so the folio is read right before the title, too far
    down the page's text to be taken for furniture), then the program's
    name set large (with ``label_above``: a chapter number set right above it), then text where
    the name recurs in lower case as a command."""
    import pymupdf

    doc = pymupdf.open()
    toc = []
    for k, name in enumerate(["ASSEMBLE", "INSTALL", "VALIDATE"]):
        for half in range(2):
            index = 2 * k + half
            page = doc.new_page(width=595, height=842)
            page.insert_text((72, 30), header or name, fontsize=8, fontname="hebo")
            page.insert_text((400, 30), "Suite Version 2.7", fontsize=8, fontname="hebo")
            month = ["May", "August", "June", "March", "July", "October"][index]
            page.insert_text((72, 800), f"14 {month} 2011", fontsize=9)
            page.insert_text((500, 800), str(index + 1), fontsize=9)
            y = 80
            if half == 0:
                toc.append(
                    [
                        1,
                        name,
                        index + 1,
                        {"kind": pymupdf.LINK_GOTO, "page": index, "to": pymupdf.Point(0, 0)},
                    ]
                )
                if label_above:
                    page.insert_text((72, y), str(index + 1), fontsize=18, fontname="hebo")
                    y += 26
                page.insert_text((72, y), name, fontsize=18, fontname="hebo")
                y += 30
            for j, (text, _) in enumerate(body(28, 100 * index)):
                page.insert_text(
                    (72, y),
                    name.lower() if j == 5 else text,
                    fontsize=10,
                    fontname="cour" if j == 5 else "helv",
                )
                y += 15
    doc.set_toc(toc)
    return doc.tobytes()


def test_a_folio_read_before_the_title_is_no_label_and_the_title_is_not_its_lowercase_mention():
    book = load_book(_footer_first_manual(label_above=False), name="m.pdf")
    chapters = [h for h in book.headings if h.level == 1]
    assert [(h.title, h.number, h.page) for h in chapters] == [
        ("ASSEMBLE", "", 1),
        ("INSTALL", "", 3),
        ("VALIDATE", "", 5),
    ]
    for h in chapters:
        assert book.text.startswith(h.title + "\n", h.char_offset)


def test_a_chapter_number_set_right_above_its_title_is_still_its_label():
    book = load_book(_footer_first_manual(label_above=True, header="Programs of the suite"), name="m.pdf")
    chapters = [h for h in book.headings if h.level == 1]
    assert [h.page for h in chapters] == [1, 3, 5]
    for h in chapters:
        assert book.text.startswith(f"{h.page}\n{h.title}", h.char_offset)


def _lettered_book(letters: str) -> tuple[list, list]:
    """Chapters ``1 Title``… then units titled ``A Title``, ``B Title``… (LaTeX's numbered
    bookmarks of appendices), each holding a section ``A.1 …`` in the outline."""
    pages, toc = [], []
    for n, title in enumerate(("Setup", "Usage"), 1):
        pages.append([(f"{n} {title}", BIG)] + body(12, n * 100))
        toc.append((1, f"{n} {title}", len(pages), None))
    for k, letter in enumerate(letters):
        title = ("Tables of Codes", "Country Lists", "Release Notes")[k]
        page = (
            [(f"{letter} {title}", BIG)]
            + body(6, 500 + k * 40)
            + [(f"{letter}.1 Details", 14)]
            + body(6, 520 + k * 40)
        )
        pages.append(page)
        toc += [
            (1, f"{letter} {title}", len(pages), None),
            (2, f"{letter}.1 Details", len(pages), line_tops(page)[7]),
        ]
    return pages, toc


def test_lettered_units_after_the_numbered_chapters_are_appendices_not_parts():
    pages, toc = _lettered_book("ABC")
    book = load_book(make_pdf(pages, toc=toc), name="lettered.pdf")
    assert book.diagnostics.structure_source == "outline"
    assert [s for s in _summary(book) if s[1] != "section"] == [
        (1, "chapter", "1", "Setup", 1),
        (1, "chapter", "2", "Usage", 2),
        (1, "appendix", "A", "Tables of Codes", 3),
        (1, "appendix", "B", "Country Lists", 4),
        (1, "appendix", "C", "Release Notes", 5),
    ]


def test_a_lone_title_opening_with_a_capital_letter_keeps_its_letter():
    pages, toc = _lettered_book("B")  # a ``B …`` with no ``A`` before it is no run of labels
    book = load_book(make_pdf(pages, toc=toc), name="lone.pdf")
    assert [s[1:4] for s in _summary(book) if s[1] != "section"][-1][1:] == ("", "B Tables of Codes")


def _unnumbered_book() -> tuple[list, list]:
    """A bare title page, unnumbered chapters, then ``Appendix A`` and ``Appendix B``."""
    pages = [[("The Widget Manual", BIG)]]
    toc = [(1, "The Widget Manual", 1, None)]
    for k, title in enumerate(("Introduction", "Getting Around", "Working Together")):
        pages.append([(title, BIG)] + body(14, 100 * k))
        toc.append((1, title, len(pages), None))
    for letter, title in (("A", "Quick Reference"), ("B", "Open Questions")):
        pages.append([(f"Appendix {letter}", BIG), (title, BIG)] + body(10, 700))
        toc.append((1, f"Appendix {letter}. {title}", len(pages), None))
    return pages, toc


def test_unnumbered_chapters_before_the_first_appendix_are_chapters_not_front_matter():
    pages, toc = _unnumbered_book()
    book = load_book(make_pdf(pages, toc=toc), name="unnumbered.pdf")
    assert [(kind, number, title) for _, kind, number, title, _ in _summary(book)] == [
        ("front", "", "The Widget Manual"),
        ("chapter", "", "Introduction"),
        ("chapter", "", "Getting Around"),
        ("chapter", "", "Working Together"),
        ("appendix", "A", "Quick Reference"),
        ("appendix", "B", "Open Questions"),
    ]


def test_a_bare_chapter_opening_after_a_page_of_text_is_no_title_page():
    pages, toc = _unnumbered_book()
    # no title page in the outline: a page of text the outline does not list (a notice), then
    # the first chapter's opening page, bare, its text on the next page
    pages = [body(20, 900), [("Introduction", BIG)], body(14, 0)] + pages[2:]
    toc = [(1, "Introduction", 2, None)] + [(lvl, t, p + 1, y) for lvl, t, p, y in toc[2:]]
    book = load_book(make_pdf(pages, toc=toc), name="opening.pdf")
    assert _summary(book)[0][1:4] == ("chapter", "", "Introduction")


def test_a_front_matter_name_after_the_last_chapter_is_back_matter():
    pages, toc = [], []
    for title in ("Preface", "1 Setup", "2 Usage", "Acknowledgements", "List of Figures"):
        pages.append([(title, BIG)] + body(12, 100 * len(pages)))
        toc.append((1, title, len(pages), None))
    book = load_book(make_pdf(pages, toc=toc), name="acks.pdf")
    assert [(kind, title) for _, kind, _, title, _ in _summary(book)] == [
        ("front", "Preface"),
        ("chapter", "Setup"),
        ("chapter", "Usage"),
        ("back", "Acknowledgements"),
        ("back", "List of Figures"),
    ]


def test_a_dash_between_an_outline_titles_number_and_its_title_is_no_part_of_the_title():
    pages = [
        [(f"{n} – {t}", BIG)] + body(12, 100 * n) for n, t in ((1, "Introduction"), (2, "Further Steps"))
    ]
    toc = [(1, "1 – Introduction", 1, None), (1, "2 – Further Steps", 2, None)]
    book = load_book(make_pdf(pages, toc=toc), name="dash.pdf")
    assert [(h.number, h.title) for h in book.headings] == [("1", "Introduction"), ("2", "Further Steps")]


def test_a_lettered_appendix_under_its_parts_label_on_one_page_starts_at_its_own_line():
    # ``Part V.`` / ``Appendix`` (the part) over ``A. Code Tables`` (its first appendix), one page;
    # each outline destination points at its own heading
    pages = [
        [("Part I.", BIG), ("Basics", BIG)] + body(4),
        [("1 Setup", BIG)] + body(14, 100),
        body(6, 200) + [("Part V.", BIG), ("Appendix", 24.0), ("A. Code Tables", 14.0)] + body(8, 300),
        [("B. Support", 14.0)] + body(10, 400),
    ]
    tops = line_tops(pages[2])
    toc = [
        (1, "I Basics", 1, None),
        (2, "1 Setup", 2, None),
        (1, "V Appendix", 3, tops[6]),
        (2, "A Code Tables", 3, tops[8]),
        (2, "B Support", 4, None),
    ]
    book = load_book(make_pdf(pages, toc=toc), name="appendix-part.pdf")
    got = [(kind, number, title) for _, kind, number, title, _ in _summary(book) if kind != "section"]
    assert got == [
        ("part", "I", "Basics"),
        ("chapter", "1", "Setup"),
        ("part", "V", "Appendix"),
        ("appendix", "A", "Code Tables"),
        ("appendix", "B", "Support"),
    ]
    appendix = next(h for h in book.headings if h.number == "A")
    assert book.text.startswith("A. Code Tables", appendix.char_offset)


def test_unnumbered_outline_entries_over_a_run_of_numbered_chapters_are_parts():
    """An outline whose level 1 holds unnumbered parts (no word ``Part``) and whose level 2 holds
    ``Chapter 1`` … ``Chapter 4`` in one run through the book: the numbering says where the
    chapters are, and each level-1 entry that holds some of them is a part."""
    pages = [
        [("Foundations", BIG)] + body(3),
        _chapter_page(1, "Alpha"),
        _chapter_page(2, "Beta"),
        [("Practice", BIG)] + body(3, 50),
        _chapter_page(3, "Gamma"),
        _chapter_page(4, "Delta"),
    ]
    toc = [
        (1, "Foundations", 1, None),
        (2, "Chapter 1 Alpha", 2, None),
        (2, "Chapter 2 Beta", 3, None),
        (1, "Practice", 4, None),
        (2, "Chapter 3 Gamma", 5, None),
        (2, "Chapter 4 Delta", 6, None),
    ]
    book = load_book(make_pdf(pages, toc=toc), name="parts.pdf")
    got = [(level, kind, number, title) for level, kind, number, title, _ in _summary(book)]
    assert got == [
        (1, "part", "", "Foundations"),
        (2, "chapter", "1", "Alpha"),
        (2, "chapter", "2", "Beta"),
        (1, "part", "", "Practice"),
        (2, "chapter", "3", "Gamma"),
        (2, "chapter", "4", "Delta"),
    ]


def test_sections_numbered_anew_under_each_unnumbered_chapter_stay_sections():
    pages = [[(title, BIG)] + body(8, k * 10) for k, title in enumerate(["Alpha", "Beta"])]
    toc = [
        (1, "Alpha", 1, None),
        (2, "1 Scope", 1, None),
        (2, "2 Terms", 1, None),
        (2, "3 Rules", 1, None),
        (1, "Beta", 2, None),
        (2, "1 Scope", 2, None),
        (2, "2 Terms", 2, None),
    ]
    book = load_book(make_pdf(pages, toc=toc), name="sections.pdf")
    assert [(h.level, h.title) for h in book.headings if h.level == 1] == [(1, "Alpha"), (1, "Beta")]


def _grouped_book(parts: bool) -> tuple[bytes, list]:
    """Chapters each under a group heading set on the line right above them, the group an outline
    entry of its own holding only that chapter (its title the chapter's, or a paraphrase of it);
    with ``parts``, childless entries at the groups' depth set right above a group (parts) and
    the book's title above the first of them."""
    chapters = [(1, "Setup", "Setting up"), (2, "Usage", "Using the tool"), (3, "Tuning", "Tuning")]
    pages, toc = [], []
    for k, (number, group, title) in enumerate(chapters):
        lines = body(6, k * 100)
        if parts and k == 0:
            lines = [("Field Manual", 16.0)] + lines
        if parts and number in (1, 3):
            lines.append(("Basics" if number == 1 else "Practice", 16.0))
        lines += [(group, 16.0), (f"{number}. {title}", 14.0), (f"{number}.1 First steps", 12.0)]
        lines += body(10, k * 100 + 50)
        tops = line_tops(lines)
        page = k + 1
        if parts and k == 0:
            toc.append((1, "Field Manual", page, tops[0]))
        if parts and number in (1, 3):
            toc.append((1, lines[-14][0], page, tops[-14]))
        toc += [
            (1, group, page, tops[-13]),
            (2, f"{number}. {title}", page, tops[-12]),
            (3, f"{number}.1 First steps", page, tops[-11]),
        ]
        pages.append(lines)
    return make_pdf(pages, toc=toc), chapters


def test_a_group_entry_over_the_one_chapter_on_the_next_line_is_one_unit_with_it():
    """An unnumbered outline entry whose one child is a numbered chapter set on the very next line
    of its page is one heading set twice: the pair is one unit, the chapter's, from the group's
    line on."""
    data, chapters = _grouped_book(parts=False)
    book = load_book(data, name="groups.pdf")
    units = [(h.kind, h.number, h.title) for h in book.headings if h.kind != "section"]
    assert units == [("chapter", str(n), title) for n, _, title in chapters]
    for h, (_, group, _) in zip([h for h in book.headings if h.kind == "chapter"], chapters):
        assert book.text.startswith(group, h.char_offset)


def test_childless_entries_beside_group_entries_are_parts_over_the_numbered_chapters_after_them():
    """With the groups folded into their chapters, the childless entries at the groups' depth
    stand over runs of the chapters' numbers: parts; the one before the first part, holding
    nothing, is the book's title page (front matter)."""
    data, _ = _grouped_book(parts=True)
    book = load_book(data, name="grouped-parts.pdf")
    units = [(h.level, h.kind, h.number, h.title) for h in book.headings if h.kind != "section"]
    assert units == [
        (2, "front", "", "Field Manual"),
        (1, "part", "", "Basics"),
        (2, "chapter", "1", "Setting up"),
        (2, "chapter", "2", "Using the tool"),
        (1, "part", "", "Practice"),
        (2, "chapter", "3", "Tuning"),
    ]
    assert not book.diagnostics.structure_disagreements


def test_an_unnumbered_entry_holding_nothing_before_unnumbered_parts_is_front_matter():
    """The outline's own reading (no guard): an unnumbered entry with nothing below it before the
    first of the unnumbered parts that hold the numbered chapters is front matter, not a part."""
    pages = [
        [("A Field Manual", BIG)] + body(3),
        [("Foundations", BIG)] + body(3, 20),
        _chapter_page(1, "Alpha"),
        _chapter_page(2, "Beta"),
        [("Practice", BIG)] + body(3, 50),
        _chapter_page(3, "Gamma"),
    ]
    toc = [
        (1, "A Field Manual", 1, None),
        (1, "Foundations", 2, None),
        (2, "Chapter 1 Alpha", 3, None),
        (2, "Chapter 2 Beta", 4, None),
        (1, "Practice", 5, None),
        (2, "Chapter 3 Gamma", 6, None),
    ]
    book = load_book(make_pdf(pages, toc=toc), name="title-parts.pdf", structure="outline")
    assert [(h.kind, h.title) for h in book.headings][:2] == [
        ("front", "A Field Manual"),
        ("part", "Foundations"),
    ]


def test_an_object_number_after_a_heading_line_does_not_hide_a_short_outline_title():
    """``Usage 「12」``: a generator's object number after the heading is no part of its title, on
    the line as in the outline; a short title is found on its line, not kept unconfirmed."""
    pages = [
        [Text(f"{title} 「{k}」", BIG, font="japan")] + body(10, k * 20)
        for k, title in enumerate(["Usage", "Setup", "Index"], 1)
    ]
    toc = [(1, f"{title} 「{k}」", k, None) for k, title in enumerate(["Usage", "Setup", "Index"], 1)]
    book = load_book(make_pdf(pages, toc=toc), name="object-numbers.pdf")
    assert [h.title for h in book.headings] == ["Usage", "Setup", "Index"]
    assert not [d for d in book.diagnostics.structure_disagreements if d.case == "unconfirmed"]
    assert all("title not on the page" not in where for h in book.headings for _, where in h.evidence)


def test_a_line_the_entry_before_stands_on_is_no_label_of_the_next_entry():
    """``Appendix`` (an entry of its own) right above ``Tables`` (the next entry): the line is
    the first entry's heading, not a label of the second, which starts at its own line."""
    page3 = body(4, 300) + [("Appendix", BIG), ("Tables", 16.0)] + body(8, 320)
    tops = line_tops(page3)
    pages = [_chapter_page(1, "Alpha"), _chapter_page(2, "Beta"), page3]
    toc = [
        (1, "Alpha", 1, None),
        (1, "Beta", 2, None),
        (1, "Appendix", 3, tops[4]),
        (1, "Tables", 3, tops[5]),
    ]
    book = load_book(make_pdf(pages, toc=toc), name="appendix-label.pdf", structure="outline")
    tables = next(h for h in book.headings if h.title == "Tables")
    assert book.text.startswith("Tables", tables.char_offset)


def _big_chapter_book(followed: bool) -> list[tuple[str, str, int]]:
    """A contents page, then ``Setup`` and ``Implementation`` at depth 1, set at 18pt, the second
    holding eight sections (14pt) of two subsections each (12pt): most of the outline. With
    ``followed``, three more depth-1 chapters follow it, each opening a page of its own; without,
    the book ends with it."""
    pages: list[list] = [[("Contents", 24.0)] + body(6)]
    toc: list[tuple[int, str, int, float | None]] = [(1, "Contents", 1, None)]
    pages.append([("Setup", 18.0)] + body(12, 10))
    toc.append((1, "Setup", 2, None))
    for k in range(8):
        page = ([("Implementation", 18.0)] if k == 0 else []) + [(f"Step {k} of the build", 14.0)]
        for j in range(2):
            page += body(6, 100 * k + 10 * j) + [(f"Detail {k}-{j} of the step", 12.0)]
        pages.append(page + body(4, 100 * k + 50))
        if k == 0:
            toc.append((1, "Implementation", len(pages), None))
        tops = line_tops(page)
        toc.append((2, f"Step {k} of the build", len(pages), tops[1] if k == 0 else None))
        toc += [(3, f"Detail {k}-{j} of the step", len(pages), tops[7 + 7 * j + (k == 0)]) for j in range(2)]
    if followed:
        for n, title in enumerate(["Data model", "Provided files", "Membership"]):
            pages.append([(title, 18.0)] + body(12, 900 + 20 * n))
            toc.append((1, title, len(pages), None))
    book = load_book(make_pdf(pages, toc=toc), name="big.pdf")
    return [(h.kind, h.title, h.page) for h in book.headings if h.level == 1]


def test_a_big_entry_followed_by_chapters_on_pages_of_their_own_is_no_wrapper():
    """One depth-1 entry holds most of the outline, but three siblings follow it, each opening
    a page of its own: depth 1 is the chapter level, not a wrapper over the book."""
    got = _big_chapter_book(followed=True)
    assert [(t, p) for k, t, p in got if k == "chapter"] == [
        ("Setup", 2),
        ("Implementation", 3),
        ("Data model", 11),
        ("Provided files", 12),
        ("Membership", 13),
    ]


def test_a_big_last_entry_after_the_title_page_entries_still_wraps_the_book():
    got = _big_chapter_book(followed=False)
    assert [t for k, t, p in got if k == "chapter"] == [f"Step {k} of the build" for k in range(8)]
