"""Rules of the guard (``chunking.structure.guard``, issue 22): the engine never drops or demotes
an outline entry unless two independent signals contradict it, and says which."""

from __future__ import annotations

import dataclasses

from chunking.ingest import load_book
from chunking.models import Heading
from chunking.normalise import normalise
from chunking.readers import read_raw
from chunking.readers.raw import OutlineEntry
from chunking.structure.baseline import outline_baseline
from chunking.structure.guard import keep_outline
from pdf_factory import body, make_pdf

TITLES = ["Sets and Maps", "Graph Search", "Dynamic Programming", "Closing Remarks"]


def _book(pages: list[list]) -> tuple:
    raw = read_raw(make_pdf(pages), "book.pdf")
    norm = normalise(raw.pages)
    raw.close()
    return norm


def _chapters_pdf(bare: int | None = None) -> list[list]:
    pages = []
    for n, title in enumerate(TITLES, 1):
        pages.append([(f"{n} {title}", 18.0), *body(30, n * 100)])
        pages.append(body(40, n * 100 + 50))
    if bare is not None:
        pages[bare] = [("Series in Computing", 12.0)]
    return pages


def _baseline(entries: list[tuple[int, str, int]], pages: int):
    return outline_baseline([OutlineEntry(level, title, page) for level, title, page in entries], pages)


def test_an_outline_chapter_the_engine_lost_is_put_back_at_its_title_line():
    norm = _book(_chapters_pdf())
    base = _baseline([(1, f"{n} {t}", 2 * n - 1) for n, t in enumerate(TITLES, 1)], len(norm.pages))
    headings, notes = keep_outline((), base, norm)
    assert [(h.kind, h.page) for h in headings] == [
        ("chapter", 1),
        ("chapter", 3),
        ("chapter", 5),
        ("chapter", 7),
    ]
    third = headings[2]
    assert norm.text[third.char_offset :].startswith("3 Dynamic Programming")
    assert notes and all(n.case == "restored" and n.signals == ("outline",) for n in notes)
    assert [(n.page, n.title) for n in notes] == [(2 * n - 1, f"{n} {t}") for n, t in enumerate(TITLES, 1)]
    assert all("kept (0 signal(s)" in n.message for n in notes)


def test_an_entry_with_two_signals_against_it_is_left_out_and_the_signals_named():
    norm = _book(_chapters_pdf(bare=5))  # page 6: a bare series page without the entry's title
    entries = [(1, f"{n} {t}", 2 * n - 1) for n, t in enumerate(TITLES, 1)] + [(1, "Copyright", 6)]
    entries.sort(key=lambda e: e[2])
    base = _baseline(entries, len(norm.pages))
    headings, notes = keep_outline((), base, norm)
    assert 6 not in [h.page for h in headings]
    (note,) = [n for n in notes if n.title == "Copyright"]
    assert note.case == "dropped" and note.page == 6 and {"text", "page"} <= set(note.signals)
    assert "left out" in note.message


def test_one_signal_is_not_enough_to_drop_an_entry():
    norm = _book(_chapters_pdf())
    entries = [(1, f"{n} {t}", 2 * n - 1) for n, t in enumerate(TITLES, 1)] + [(1, "Colophon", 8)]
    base = _baseline(entries, len(norm.pages))
    headings, notes = keep_outline((), base, norm)  # title absent from p. 8, but a full page
    assert 8 in [h.page for h in headings]
    assert any(
        n.title == "Colophon" and n.case == "restored" and "kept (1 signal(s)" in n.message for n in notes
    )


def test_a_chapter_the_engine_demoted_to_a_section_is_promoted_not_duplicated():
    norm = _book(_chapters_pdf())
    base = _baseline([(1, f"{n} {t}", 2 * n - 1) for n, t in enumerate(TITLES, 1)], len(norm.pages))
    engine, _ = keep_outline((), base, norm)
    demoted = tuple(dataclasses.replace(h, kind="section", level=2) if h.page == 3 else h for h in engine)
    headings, notes = keep_outline(demoted, base, norm)
    assert [(h.kind, h.level, h.page) for h in headings] == [("chapter", 1, p) for p in (1, 3, 5, 7)]
    assert len(notes) == 1 and notes[0].case == "restored" and "Graph Search" in notes[0].title


def test_chapters_kept_under_unnumbered_parts_sit_below_the_parts():
    pages = [
        [("Foundations", 24.0), ("Chapter 1. Sets and Maps", 18.0), *body(20)],
        body(40, 10),
        [("Chapter 2. Graph Search", 18.0), *body(30, 20)],
        [("Applications", 24.0), ("Chapter 3. Dynamic Programming", 18.0), *body(20, 30)],
        body(40, 40),
    ]
    toc = [
        (1, "Foundations", 1, None),
        (2, "Chapter 1. Sets and Maps", 1, None),
        (2, "Chapter 2. Graph Search", 3, None),
        (1, "Applications", 4, None),
        (2, "Chapter 3. Dynamic Programming", 4, None),
    ]
    book = load_book(make_pdf(pages, toc=toc), name="parts.pdf")
    units = [(h.kind, h.level, h.page, h.title) for h in book.headings if h.kind in ("part", "chapter")]
    assert units == [
        ("part", 1, 1, "Foundations"),
        ("chapter", 2, 1, "Sets and Maps"),
        ("chapter", 2, 3, "Graph Search"),
        ("part", 1, 4, "Applications"),
        ("chapter", 2, 4, "Dynamic Programming"),
    ]


def _units(book) -> list[tuple[str, int, str]]:
    return [(h.kind, h.page, h.title) for h in book.headings if h.kind != "section"]


def test_title_page_entries_holding_the_whole_book_are_not_chapters():
    pages = [[("A Book Title", 28.0)], [("Copyright 2020 Someone", 9.0)]]
    toc = [(1, "Cover", 1, None), (1, "Title Page", 2, None)]
    for n, title in enumerate(TITLES, 1):
        pages += [[(f"Chapter {n}: {title}", 20.0), *body(30, n * 100)], body(45, n * 100 + 50)]
        toc.append((2, f"Chapter {n}: {title}", len(pages) - 1, None))
    book = load_book(make_pdf(pages, toc=toc), name="wrapped.pdf")
    assert _units(book) == [("chapter", 3 + 2 * k, t) for k, t in enumerate(TITLES)]


def test_contributed_chapters_without_numbers_under_parts_stay_chapters():
    pages, toc, want = [], [], []
    for p, (part, chapters) in enumerate([("Part I Theory", TITLES[:2]), ("Part II Practice", TITLES[2:])]):
        pages.append([(part, 26.0)])
        toc.append((1, part, len(pages), None))
        want.append(("part", len(pages), part.split(" ", 2)[2]))
        for c, title in enumerate(chapters):
            pages += [
                [(title, 18.0), ("Jane Author", 11.0), *body(30, p * 1000 + c * 100)],
                body(45, p * 1000 + c * 100 + 50),
            ]
            toc.append((2, title, len(pages) - 1, None))
            want.append(("chapter", len(pages) - 1, title))
    book = load_book(make_pdf(pages, toc=toc), name="edited.pdf")
    assert _units(book) == want


def _parts_book(outline: bool) -> tuple[bytes, list[tuple[str, int, str]]]:
    pages, toc, want = [[("The Title", 28.0)]], [], []
    n = 0
    for part in ("Part I Foundations", "Part II Systems"):
        for c in range(2):
            n += 1
            heading = (f"Chapter {n} {TITLES[n - 1]}", 18.0)
            if c == 0:
                toc.append((1, part, len(pages) + 1, None))
                want.append(("part", len(pages) + 1, part.split(" ", 2)[2]))
            pages += [
                ([(part, 24.0)] if c == 0 else []) + [heading, *body(25, n * 100)],
                body(45, n * 100 + 50),
            ]
            toc.append((2, heading[0], len(pages) - 1, None))
            want.append(("chapter", len(pages) - 1, TITLES[n - 1]))
    for kind, title, number in (
        ("appendix", "Tables", "Appendix A "),
        ("back", "Bibliography", ""),
        ("back", "Index", ""),
    ):
        pages.append([(number + title, 18.0), *body(30, 9000 + len(pages))])
        toc.append((1, number + title, len(pages), None))
        want.append((kind, len(pages), title))
    return make_pdf(pages, toc=toc if outline else None), want


def test_a_chapter_on_its_parts_page_and_the_matter_after_the_last_chapter_are_units():
    for outline in (True, False):
        data, want = _parts_book(outline)
        assert _units(load_book(data, name="parts.pdf")) == want, f"outline={outline}"


def test_chapters_under_the_documents_title_entry_on_its_page_are_each_their_own_chapter():
    """One engine unit stands for one outline entry: the document's title set again above the
    first chapters (its outline entry holds them all) is no stand-in for the chapters that open
    on its page, which stay chapters like those on later pages."""
    pages = [
        [("Notes on Sets", 24.0)],
        [("Contents", 16.0), *[(f"{n}. {t} . . . . {n}", 10.0) for n, t in enumerate(TITLES, 1)]],
        [
            ("Notes on Sets", 16.0),
            ("1. Sets and Maps", 13.0),
            *body(8, 100),
            ("2. Graph Search", 13.0),
            *body(8, 200),
        ],
        [("2.1. Breadth First", 11.0), *body(12, 250), ("3. Dynamic Programming", 13.0), *body(12, 300)],
        [("3.1. Tables", 11.0), *body(10, 400), ("4. Closing Remarks", 13.0), *body(20, 450)],
    ]
    toc = [(1, "Title Page: Notes on Sets", 1, None), (1, "Contents", 2, None), (1, "Notes on Sets", 3, None)]
    toc += [
        (2, "1. Sets and Maps", 3, None),
        (2, "2. Graph Search", 3, None),
        (3, "2.1. Breadth First", 4, None),
        (2, "3. Dynamic Programming", 4, None),
        (3, "3.1. Tables", 5, None),
        (2, "4. Closing Remarks", 5, None),
    ]
    book = load_book(make_pdf(pages, toc=toc), name="paper.pdf")
    chapters = [(h.page, h.title) for h in book.headings if h.kind == "chapter"]
    assert chapters == list(zip((3, 3, 4, 5), TITLES))


def test_an_entry_whose_title_holds_another_entrys_title_is_not_matched_to_that_entrys_unit():
    """``README`` and ``README_MISSING_SYSCALL`` are two outline chapters three pages apart: the
    unit put back for ``README`` stands for the first only, and the second is put back too."""
    titles = ["README", "README_MISSING_SYSCALL", "README_DEVELOPERS"]
    pages = []
    for n, title in enumerate(titles, 1):
        pages += [
            [(f"{n}. {title}", 18.0), *body(30, n * 100)],
            body(40, n * 100 + 50),
            body(40, n * 100 + 70),
        ]
    norm = _book(pages)
    base = _baseline([(1, f"{n}. {t}", 3 * n - 2) for n, t in enumerate(titles, 1)], len(norm.pages))
    headings, _ = keep_outline((), base, norm)  # NOTE: the engine lost all three
    assert [(h.title, h.page) for h in headings if h.level == 1] == [
        ("README", 1),
        ("README_MISSING_SYSCALL", 4),
        ("README_DEVELOPERS", 7),
    ]


def test_a_chapter_repeating_its_wrappers_title_a_page_on_is_its_own_unit():
    """An outline entry holding a whole book of a collection (``The Quick Start Guide``, on its
    title page) and the chapter under it that repeats its title two pages on: the wrapper's unit
    on its own page is no stand-in for the chapter, which is put back."""
    pages = [
        [("The Quick Start Guide", 24.0)],
        [("Contents", 16.0), *body(10, 10)],
        [("The Quick Start Guide", 18.0), *body(30, 100)],
        [("1. Running the Tool", 18.0), *body(30, 200)],
        [("2. Reading its Output", 18.0), *body(30, 300)],
    ]
    norm = _book(pages)
    entries = [(1, "The Quick Start Guide", 1), (2, "The Quick Start Guide", 3)]
    entries += [(2, "1. Running the Tool", 4), (2, "2. Reading its Output", 5)]
    base = _baseline(entries, len(norm.pages))
    wrapper_unit = Heading(
        level=1, kind="chapter", title="The Quick Start Guide", number="", page=1, page_label="",
        char_offset=0, source="outline", evidence=(("outline", "level 1"),),
    )  # fmt: skip
    headings, _ = keep_outline((wrapper_unit,), base, norm)
    assert [(h.page, h.title) for h in headings if h.level == 1][0] == (3, "The Quick Start Guide")


def test_a_title_split_by_a_note_under_its_label_on_a_bare_page_is_still_on_its_page():
    """``Anhang A`` / ``(informativ)`` / ``Aufteilung der Felder`` over a figure, a page of few
    words, in a language whose label the parser does not know: the outline's ``Anhang A
    Aufteilung der Felder`` is on its page (its words in order, a note among them), so one signal
    is against it and it is kept."""
    pages = _chapters_pdf()
    pages.append([("Anhang A", 12.0), ("(informativ)", 10.0), ("Aufteilung der Felder", 12.0)])
    norm = _book(pages)
    entries = [(1, f"{n} {t}", 2 * n - 1) for n, t in enumerate(TITLES, 1)] + [(1, "Anhang A Aufteilung der Felder", 9)]
    headings, notes = keep_outline((), _baseline(entries, len(norm.pages)), norm)
    assert [h.page for h in headings] == [1, 3, 5, 7, 9]
    assert not [n for n in notes if n.case != "restored"]


def test_a_last_entry_whose_children_point_back_into_the_book_is_no_wrapper():
    steps = [f"Step {n} of the work" for n in range(20)]
    pages, toc = [], []
    for n, title in enumerate(TITLES, 1):
        toc.append((1, title, len(pages) + 1, None))
        pages.append([(f"{n}. {title}.", 11.0), *body(30, n * 100)])
        for k in range(5):
            pages.append([(f"{steps[(n - 1) * 5 + k]}", 10.0), *body(40, n * 100 + 10 * k)])
            toc.append((2, steps[(n - 1) * 5 + k], len(pages), None))
    pages.append([("Names of the modules", 11.0), *[(s, 9.0) for s in steps]])
    names = [e for e in toc if e[0] == 2]
    toc = [e for e in toc if e[0] == 1] + [(1, "Names of the modules", len(pages), None)]
    toc += sorted(names, key=lambda e: e[1])
    book = load_book(make_pdf(pages, toc=toc), name="program.pdf")
    chapters = [(h.page, h.title) for h in book.headings if h.kind == "chapter"]
    assert chapters == [(1 + 6 * k, t) for k, t in enumerate(TITLES)]
