"""Rules of the outline's plain reading (``chunking.structure.baseline``, issue 22): the chapter
level is chosen by numbering, ``Part``/``Chapter`` words and nesting alone."""

from __future__ import annotations

import pytest

from chunking.readers.raw import OutlineEntry
from chunking.structure.baseline import outline_baseline


def _kinds(entries: list[tuple[int, str, int]], pages: int = 200) -> list[tuple[str, str]]:
    got = outline_baseline([OutlineEntry(level, title, page) for level, title, page in entries], pages)
    return [(b.kind, b.outline_title) for b in got]


def _chapter_level(entries, pages: int = 200) -> list[str]:
    return [t for k, t in _kinds(entries, pages) if k in ("chapter", "appendix")]


def test_parts_named_part_hold_the_chapters_below_them():
    toc = [
        (1, "Part I Basics", 1),
        (2, "Getting started", 2),
        (2, "Files", 9),
        (1, "Part II Advanced", 20),
        (2, "Networking", 21),
        (2, "Threads", 30),
    ]
    assert _kinds(toc)[0] == ("part", "Part I Basics")
    assert _chapter_level(toc) == ["Getting started", "Files", "Networking", "Threads"]


def test_unnumbered_level_one_titles_over_chapter_words_are_parts():
    toc = [
        (1, "Foundations", 1),
        (2, "Chapter 1. Sets", 2),
        (2, "Chapter 2. Maps", 10),
        (1, "Applications", 20),
        (2, "Chapter 3. Graphs", 21),
        (3, "3.1 Trees", 22),
    ]
    kinds = _kinds(toc)
    assert [k for k, _ in kinds] == ["part", "chapter", "chapter", "part", "chapter", "section"]


def test_numbering_that_runs_on_across_parents_makes_the_parents_parts():
    toc = [
        (1, "The Language", 1),
        (2, "1 Lexical structure", 2),
        (2, "2 Expressions", 8),
        (1, "The Libraries", 20),
        (2, "3 Prelude", 21),
        (2, "4 Lists", 30),
    ]
    assert [k for k, _ in _kinds(toc)] == ["part", "chapter", "chapter", "part", "chapter", "chapter"]


def test_numbering_that_restarts_under_each_parent_keeps_the_parents_chapters():
    toc = [
        (1, "Introduction", 1),
        (2, "1 Scope", 2),
        (2, "2 Terms", 3),
        (1, "Installation", 10),
        (2, "1 Linux", 11),
        (2, "2 Windows", 12),
    ]
    assert _chapter_level(toc) == ["Introduction", "Installation"]


def test_chapters_restarting_under_each_parent_with_their_own_sections_make_the_parents_parts():
    toc = [
        (1, "User Manual", 1),
        (2, "1. Introduction", 2),
        (3, "1.1. Overview", 2),
        (2, "2. Using the core", 8),
        (3, "2.1. Options", 9),
        (1, "Technical Documentation", 40),
        (2, "1. Design", 41),
        (2, "2. Writing a tool", 45),
        (3, "2.1. Basics", 45),
    ]
    kinds = [k for k, _ in _kinds(toc)]
    assert kinds == ["part", "chapter", "section", "chapter", "section", "part", "chapter", "chapter", "section"]


@pytest.mark.parametrize("references", ["References", "Références", "Literatur", "Bibliografía"])
def test_articles_each_with_their_own_references_stay_chapters_though_their_sections_restart(references):
    """A journal issue or an edited volume: each contributed article numbers its sections from 1,
    with subsections of their own, and lists its own references: the articles are the chapters."""
    toc = []
    for k, title in enumerate(["On Graphs", "On Groups"]):
        start = 30 * k + 1
        toc += [
            (1, title, start),
            (2, "Introduction", start + 1),
            (2, "1 First section", start + 3),
            (3, "1.1 A subsection", start + 4),
            (2, "2 Second section", start + 8),
            (3, "2.1 Another subsection", start + 9),
            (2, references if k == 0 else "References", start + 20),
        ]
    assert _chapter_level(toc) == ["On Graphs", "On Groups"]


def test_numbered_children_without_sections_of_their_own_keep_an_unnumbered_parent_a_chapter():
    toc = [
        (1, "Introduction", 1),
        (2, "1. Scope", 2),
        (3, "Terms used", 2),
        (2, "2. Terms", 3),
        (1, "Installation", 10),
        (2, "1. Linux", 11),
        (3, "Packages", 11),
        (2, "2. Windows", 12),
    ]
    assert _chapter_level(toc) == ["Introduction", "Installation"]


def test_a_lone_root_holding_the_book_is_not_a_chapter():
    toc = [
        (1, "The Book Title", 1),
        (2, "Preface", 2),
        (2, "1 Start", 4),
        (2, "2 Go", 10),
        (3, "2.1 Fast", 11),
    ]
    kinds = _kinds(toc)
    assert ("chapter", "1 Start") in kinds and ("book", "The Book Title") in kinds
    assert ("front", "Preface") in kinds


def test_title_page_entries_wrapping_the_whole_book_are_skipped():
    toc = [(1, "Cover", 1), (1, "Title Page", 2), (2, "Contents", 3)] + [
        (2, f"Chapter {n}: Topic {n}", 4 + 10 * n) for n in range(1, 9)
    ]
    assert _chapter_level(toc) == [f"Chapter {n}: Topic {n}" for n in range(1, 9)]


def test_a_last_entry_whose_children_point_back_into_the_book_is_no_wrapper():
    toc = [(1, title, 2 + 6 * k) for k, title in enumerate(["Introduction", "Input", "Output", "Errors"])]
    toc += [(1, "Index", 30), (1, "Names of the modules", 34)]
    toc += [(2, f"Step {n} of the work", 3 + n) for n in range(20)]
    assert _chapter_level(toc) == ["Introduction", "Input", "Output", "Errors", "Names of the modules"]


def _big_entry(after: list[tuple[str, int]]) -> list[tuple[int, str, int]]:
    """``Contents`` and ``Setup``, then ``Implementation`` holding twenty sections, then ``after``."""
    toc = [(1, "Contents", 1), (1, "Setup", 3), (1, "Implementation", 5)]
    toc += [(2, f"Step {n} of the work", 6 + n) for n in range(20)]
    return toc + [(1, title, page) for title, page in after]


def test_a_big_entry_followed_by_chapters_opening_pages_of_their_own_is_no_wrapper():
    toc = _big_entry([("Data model", 30), ("Provided files", 31), ("Membership", 60)])
    assert _chapter_level(toc) == ["Setup", "Implementation", "Data model", "Provided files", "Membership"]


@pytest.mark.parametrize(
    "after",
    [
        [],
        [("Bibliography", 30), ("Index", 34)],  # back matter after it
        [("Data model", 30)],  # one sibling after it
        [("Data model", 30), ("Provided files", 30)],  # two on one page
        [("Part II Usage", 30), ("Reference", 40)],  # a part after it: one chapter-like sibling
    ],
)
def test_a_big_entry_followed_by_back_matter_or_one_sibling_still_wraps_the_book(after):
    assert _chapter_level(_big_entry(after)) == [f"Step {n} of the work" for n in range(20)]


def test_a_dotted_number_at_chapter_level_is_a_section():
    toc = [(1, "1 Intro", 1), (1, "1.1 Scope", 2), (1, "2 Use", 5)]
    assert _kinds(toc) == [("chapter", "1 Intro"), ("section", "1.1 Scope"), ("chapter", "2 Use")]


def test_unnumbered_entries_around_numbered_chapters_are_front_and_back():
    toc = [(1, "Foreword", 1), (1, "1 Intro", 3), (1, "2 Use", 9), (1, "Index", 30)]
    assert [k for k, _ in _kinds(toc)] == ["front", "chapter", "chapter", "back"]


def test_unresolved_destinations_and_empty_titles_are_skipped():
    toc = [(1, "1 Intro", 1), (1, "", 3), (1, "2 Use", 0), (1, "3 End", 999), (1, "4 Last", 9)]
    assert _chapter_level(toc, pages=20) == ["1 Intro", "4 Last"]


def test_contributed_chapters_without_numbers_under_parts_stay_chapters():
    toc = [
        (1, "Part I", 1),
        (2, "On Method", 2),
        (2, "A Reply", 15),
        (1, "Part II", 30),
        (2, "Afterthoughts", 31),
    ]
    assert _chapter_level(toc) == ["On Method", "A Reply", "Afterthoughts"]


def test_an_unnamed_entry_with_nothing_below_it_at_the_part_depth_is_matter_not_a_part():
    """A part holds chapters: ``Zusammenfassung`` before the first part and ``Acronyms`` after the
    last, with no entries below them, are front and back matter."""
    toc = [
        (1, "Zusammenfassung", 3),
        (1, "Foundations", 10),
        (2, "Chapter 1. Sets", 11),
        (2, "Chapter 2. Maps", 20),
        (1, "Applications", 30),
        (2, "Chapter 3. Graphs", 31),
        (1, "Acronyms", 50),
    ]
    assert [k for k, _ in _kinds(toc)] == ["front", "part", "chapter", "chapter", "part", "chapter", "back"]


def test_lettered_entries_holding_sections_after_the_chapters_are_appendices_not_parts():
    # ``C`` and ``D`` are roman numerals too, and each lettered entry holds sections: still no
    # run I, II… and still after the numbered chapters, so appendices
    toc = [(1, "1 Getting Started", 1), (2, "1.1 Basics", 1), (1, "2 Principles", 5), (2, "2.1 Ideas", 5)]
    for k, letter in enumerate("ABCDE"):
        toc += [(1, f"{letter} Reference Tables {k}", 10 + 4 * k), (2, f"{letter}.1 Details", 10 + 4 * k)]
    kinds = _kinds(toc)
    assert [k for k, _ in kinds if k != "section"] == ["chapter", "chapter"] + ["appendix"] * 5


def test_roman_numbered_titles_in_a_run_from_one_are_parts():
    toc = [(1, "I Foundations", 1), (2, "Sets", 2), (2, "Maps", 8), (1, "II Practice", 20), (2, "Graphs", 21)]
    assert [k for k, _ in _kinds(toc)] == ["part", "chapter", "chapter", "part", "chapter"]


def test_an_index_beside_the_parts_holds_its_letter_groups_as_sections_not_chapters():
    toc = [
        (1, "Part I User Guide", 3),
        (2, "1 Introduction", 3),
        (2, "2 Usage", 9),
        (1, "Part II Implementation", 20),
        (2, "1 Helpers", 21),
        (2, "2 Internals", 30),
        (1, "Index", 40),
        (2, "Symbols", 40),
        (2, "A", 40),
        (2, "B", 41),
    ]
    assert _chapter_level(toc) == ["1 Introduction", "2 Usage", "1 Helpers", "2 Internals"]
    assert [k for k, t in _kinds(toc) if t in ("Symbols", "A", "B")] == ["section"] * 3


def test_a_group_entry_right_above_its_one_numbered_chapter_is_no_unit_and_its_neighbours_are_parts():
    """An unnumbered entry whose one child is a numbered chapter pointing right below it on its
    page is a group set over that chapter: one heading set twice, the chapter the unit. Without
    the groups, the childless entries beside them hold the chapters that follow: parts."""
    toc = [
        OutlineEntry(1, "Handbook", 1, 50.0),
        OutlineEntry(1, "Basics", 1, 70.0),
        OutlineEntry(1, "Setup", 1, 90.0),
        OutlineEntry(2, "1. Setting up", 1, 105.0),
        OutlineEntry(3, "1.1 Needs", 1, 300.0),
        OutlineEntry(1, "Usage", 5, 400.0),
        OutlineEntry(2, "2. Using it", 5, 415.0),
        OutlineEntry(1, "Practice", 9, 200.0),
        OutlineEntry(1, "Tuning", 9, 215.0),
        OutlineEntry(2, "3. Tuning", 9, 230.0),
    ]
    got = [(b.kind, b.outline_title) for b in outline_baseline(toc, 20)]
    assert got == [
        ("front", "Handbook"),
        ("part", "Basics"),
        ("chapter", "1. Setting up"),
        ("section", "1.1 Needs"),
        ("chapter", "2. Using it"),
        ("part", "Practice"),
        ("chapter", "3. Tuning"),
    ]


def test_an_entry_whose_one_numbered_child_stands_far_below_it_on_its_page_stays_a_unit():
    toc = [
        OutlineEntry(1, "Basics", 1, 70.0),
        OutlineEntry(2, "1. Setting up", 1, 500.0),
        OutlineEntry(1, "Usage", 5, 100.0),
        OutlineEntry(2, "2. Using it", 6, 60.0),
    ]
    assert [b.kind for b in outline_baseline(toc, 20)] == ["chapter", "section", "chapter", "section"]


def test_a_part_holding_one_chapter_right_below_it_among_parts_holding_several_stays_a_part():
    toc = [
        OutlineEntry(1, "Foundations", 1, 70.0),
        OutlineEntry(2, "Chapter 1. Sets", 1, 95.0),
        OutlineEntry(2, "Chapter 2. Maps", 3, 60.0),
        OutlineEntry(1, "Applications", 4, 70.0),
        OutlineEntry(2, "Chapter 3. Graphs", 4, 95.0),
    ]
    assert [b.kind for b in outline_baseline(toc, 20)] == ["part", "chapter", "chapter", "part", "chapter"]
