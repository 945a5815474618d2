"""Chapters of plain-text books (``chunking.structure.plain_text``), on generated ``.txt`` books.

Each book is built from a list of true chapter starts, varying one trait of real plain-text
manuals at a time (setext underlines and their characters, NBSP keyword labels, nroff ``N.  TITLE``
chapters with a breaking list item and a quoted numbered line, ``APPENDIX A`` with its title
below, a printed contents at the start or the end, with or without page numbers, running
footers); the test asserts every chapter-level heading found: kind, number, title and exact
offset (``book.text[h.char_offset:]`` starts with the heading line).
"""

from __future__ import annotations

import pytest

from chunking.errors import UnreadableInputError
from chunking.ingest import load_book

TITLES = ["Getting Started", "Binary Packages", "Source Packages", "Control Files", "Version Numbering"]


def _body(k: int, indent: str = "") -> str:
    return "\n\n".join(
        f"{indent}Paragraph {j} says something about the subject at hand, at some length, so that it\n"
        f"{indent}wraps over two lines like the body of a real manual does."
        for j in range(k)
    )


def _chapters(text: str) -> tuple[str, list[tuple[str, str, str, int]]]:
    """The book's canonical text and its chapter-level headings."""
    book = load_book(text.encode(), name="x.txt")
    return book.text, [
        (h.kind, h.number, h.title, h.char_offset)
        for h in book.headings
        if h.kind in ("chapter", "appendix", "front", "back", "part")
    ]


def _assert_starts(text: str, expected: list[tuple[str, str, str, str]]) -> None:
    """``expected``: (kind, number, title, the heading line the chapter starts with)."""
    canonical, found = _chapters(text)
    assert [(k, n, t) for k, n, t, _ in found] == [(k, n, t) for k, n, t, _ in expected]
    for (_, _, _, offset), (*_, line) in zip(found, expected):
        assert canonical.startswith(line, offset), (canonical[offset : offset + 40], line)


@pytest.mark.parametrize("chapter_char,section_char", [("*", "="), ("=", "-"), ("#", "*"), ("~", "^")])
def test_setext_underline_character_of_numbered_titles_is_the_chapter_level(chapter_char, section_char):
    text = "The Manual\n" + "+" * 10 + "\n\n" + _body(1) + "\n\n"
    expected = [("front", "", "The Manual", "The Manual")]  # the title page
    for n, title in enumerate(TITLES[:4], 1):
        line = f"{n} {title}"
        expected.append(("chapter", str(n), title, line))
        text += f"{line}\n{chapter_char * len(line)}\n\n{_body(2)}\n\n"
        sec = f"{n}.1 Details of it"
        text += f"{sec}\n{section_char * len(sec)}\n\n{_body(2)}\n\n"
    text += f"Index\n{chapter_char * 5}\n\n{_body(1)}\n"
    expected.append(("back", "", "Index", "Index"))
    _assert_starts(text, expected)
    book = load_book(text.encode(), name="x.txt")
    sections = [h for h in book.headings if h.kind == "section"]
    assert [h.number for h in sections] == ["1.1", "2.1", "3.1", "4.1"]
    assert all(h.level == 2 for h in sections)


def test_setext_levels_follow_first_appearance_when_nothing_is_numbered():
    text = _body(1) + "\n\n"
    expected = []
    for title in TITLES[:3]:
        expected.append(("chapter", "", title, title))
        text += f"{title}\n{'=' * len(title)}\n\n{_body(1)}\n\nA Subsection\n------------\n\n{_body(1)}\n\n"
    _assert_starts(text, expected)


def test_setext_overline_starts_the_heading_at_the_overline():
    text = _body(1) + "\n\n"
    expected = []
    for title in TITLES[:3]:
        rule = "=" * len(title)
        expected.append(("chapter", "", title, rule + "\n" + title))
        text += f"{rule}\n{title}\n{rule}\n\n{_body(2)}\n\n"
    _assert_starts(text, expected)


def test_table_rules_and_short_rules_under_prose_are_not_underlines():
    text = "Introduction\n============\n\n" + _body(1) + "\n\n"
    text += "Name     Value\n-----    -----\nalpha    1\n\n"
    text += "This long sentence of body text ends the paragraph here and\n---\n\n"
    text += "Usage\n=====\n\n" + _body(1) + "\n"
    _assert_starts(text, [("chapter", "", "Introduction", "Introduction"), ("chapter", "", "Usage", "Usage")])


@pytest.mark.parametrize("space", ["\u00a0", " ", "  "])
def test_keyword_labels_with_no_break_space_are_chapters(space):
    text = "Preface\n\n" + _body(1) + "\n\n"
    expected = [("front", "", "Preface", "Preface")]
    for n, title in enumerate(TITLES[:3], 1):
        line = f"Chapter{space}{n}. {title}"
        expected.append(("chapter", str(n), title, line))
        text += f"{line}\n\n{_body(2)}\n\n"
    line = f"Appendix{space}A. Licence Terms"
    expected.append(("appendix", "A", "Licence Terms", line))
    text += f"{line}\n\n{_body(1)}\n"
    _assert_starts(text, expected)


def test_appendix_label_alone_takes_its_title_from_the_centred_line_below():
    text = "1.  INTRODUCTION\n\n" + _body(1, "   ") + "\n\n2.  USAGE\n\n" + _body(1, "   ") + "\n\n"
    text += "APPENDIX  A\n\n\n" + " " * 24 + "THE FORMAL GRAMMAR\n\n" + _body(1, "   ") + "\n\n"
    text += "APPENDIX  B\n\n" + " " * 26 + "EXAMPLES\n\n" + _body(1, "   ") + "\n"
    _assert_starts(
        text,
        [
            ("chapter", "1", "Introduction", "1.  INTRODUCTION"),
            ("chapter", "2", "Usage", "2.  USAGE"),
            ("appendix", "A", "The Formal Grammar", "APPENDIX  A"),
            ("appendix", "B", "Examples", "APPENDIX  B"),
        ],
    )


def _nroff(quoted_at: int | None = None, listed: bool = True) -> tuple[str, list]:
    text = "Abstract\n\n" + _body(1, "   ") + "\n\n"
    expected = [("front", "", "Abstract", "Abstract")]
    for n, title in enumerate(TITLES, 1):
        line = f"{n}.  {title.upper()}"
        expected.append(("chapter", str(n), title.title(), line))
        text += f"{line}\n\n{_body(2, '   ')}\n\n   {n}.1.  Scope of It\n\n{_body(1, '   ')}\n\n"
        if listed and n == 2:
            text += "   1.  an indented list item\n\n   2.  and another one\n\n"
        if quoted_at == n:
            text += "6.  Security Considerations\n\n   (a template the chapter quotes)\n\n"
    return text, expected


@pytest.mark.parametrize("quoted_at", [None, 1, 2, 4])
def test_nroff_chapters_are_the_longest_run_despite_a_quoted_numbered_line(quoted_at):
    text, expected = _nroff(quoted_at)
    _assert_starts(text, expected)
    book = load_book(text.encode(), name="x.txt")
    assert [h.number for h in book.headings if h.kind == "section"] == ["1.1", "2.1", "3.1", "4.1", "5.1"]
    assert all(("numbering" in {s for s, _ in h.evidence}) for h in book.headings if h.kind == "chapter")


@pytest.mark.parametrize("margin", [1, 2, 4])
def test_numbered_chapters_count_their_column_from_the_books_own_left_margin(margin):
    """The same nroff-style book with every line shifted right by a uniform margin (as some
    formatters write plain text): ``N.  TITLE`` at the margin is still a chapter, its list items
    still break no run, and each heading starts at its own line."""
    text, expected = _nroff(quoted_at=2)
    shifted = "\n".join((" " * margin + line) if line.strip() else line for line in text.split("\n"))
    _assert_starts(shifted, expected)


def test_numbered_lines_indented_beyond_the_margin_are_not_chapters():
    """Margin-relative, not margin-blind: with a one-column margin, numbered lines set three
    columns further in are list items, never chapters."""
    text, expected = _nroff()
    shifted = "\n".join((" " + line) if line.strip() else line for line in text.split("\n"))
    shifted += "\n" + "".join(f"    {n}.  ANOTHER ITEM\n\n{_body(1, '     ')}\n\n" for n in (1, 2, 3))
    _assert_starts(shifted, expected)


def test_contents_at_the_end_of_the_file_confirms_the_chapters():
    text, expected = _nroff()
    text += (
        "TABLE OF CONTENTS\n\n"
        + "\n".join(f"{n}.  {t.upper()} {'.' * 20} {3 * n}" for n, t in enumerate(TITLES, 1))
        + "\n"
    )
    _assert_starts(text, [*expected, ("front", "", "TABLE OF CONTENTS", "TABLE OF CONTENTS")])
    book = load_book(text.encode(), name="x.txt")
    chapters = [h for h in book.headings if h.kind == "chapter"]
    assert all("contents" in {s for s, _ in h.evidence} for h in chapters)


@pytest.mark.parametrize("page_numbers", [True, False])
def test_contents_list_is_never_taken_for_the_chapters(page_numbers):
    """A numbered contents list (with or without page numbers) comes first; the chapters are the
    body's own headings, here unnumbered lines the contents names."""
    text = (
        "Contents\n\n"
        + "\n".join(
            f"{n}. {t}" + (f"  {10 * n}" if page_numbers else "") for n, t in enumerate(TITLES[:4], 1)
        )
        + "\n\n"
    )
    expected = [("front", "", "Contents", "Contents")]  # the book's contents is a front-matter unit
    for title in TITLES[:4]:
        expected.append(("chapter", "", title, title.upper()))
        text += f"{title.upper()}\n\n{_body(2)}\n\n"
    _assert_starts(text, expected)


def test_numbered_list_block_without_text_between_is_not_chapters():
    text = "1. Alpha Step\n2. Beta Step\n3. Gamma Step\n\n" + _body(1) + "\n\n"
    expected = []
    for n, title in enumerate(TITLES[:3], 1):
        line = f"{n}.  {title.upper()}"
        expected.append(("chapter", str(n), title.title(), line))
        text += f"{line}\n\n{_body(2, '   ')}\n\n"
    _assert_starts(text, expected)


def test_running_footers_of_paginated_text_are_not_headings():
    """Every ~60 lines a footer and a form feed: the footer repeats verbatim, and a header that
    names the chapter repeats too; only the chapter's own line opens it."""
    text, expected = _nroff(listed=False)
    lines = text.split("\n")
    paged: list[str] = []
    for k, line in enumerate(lines):
        paged.append(line)
        if k % 20 == 19:
            paged += ["", "Example Manual            [Page]", "\f", "1.  GETTING STARTED", ""]
    _assert_starts("\n".join(paged), expected)


def test_texinfo_info_file_is_read_as_text_and_its_chapters_found():
    info = (
        b"This is x.info, produced by makeinfo version 7.1 from x.texi.\n\n"
        b"\x1f\nFile: x.info,  Node: Top,  Next: Overview,  Up: (dir)\n\n"
        b"The X Manual\n************\n\nThis manual documents X.\n\n"
        b"\x1f\nFile: x.info,  Node: Overview,  Next: Invoking,  Prev: Top,  Up: Top\n\n"
        b"1 Overview\n**********\n\nX does things.\n\n1.1 History\n===========\n\nLong ago.\n\n"
        b"\x1f\nFile: x.info,  Node: Invoking,  Next: Index,  Prev: Overview,  Up: Top\n\n"
        b"2 Invoking X\n************\n\nRun it.\n\n"
        b"\x1f\nFile: x.info,  Node: Index,  Prev: Invoking,  Up: Top\n\n"
        b"Index\n*****\n\n\x00\x08[index\x00\x08]\n* Menu:\n\n* history:  History.  (line 6)\n\n"
        b"\x1f\nTag Table:\nNode: Top\x7f64\nNode: Overview\x7f170\n\x1f\nEnd Tag Table\n"
    )
    book = load_book(info, name="x.txt")
    assert "\x00" not in book.text and "[index" not in book.text
    got = [(h.kind, h.number, h.title) for h in book.headings]
    assert ("chapter", "1", "Overview") in got and ("chapter", "2", "Invoking X") in got
    assert ("section", "1.1", "History") in got and ("back", "", "Index") in got
    for h in book.headings:
        assert book.text.startswith(h.title if not h.number else h.number, h.char_offset)


@pytest.mark.parametrize(
    "data",
    [
        b"\x00\x01\x02\x03binary\x1f\x00",
        b"ELF\x00\x00\x1f\x00\x08[index\x00\x08]",
        b"\x00\x08[x\x00\x08]no separators",
    ],
)
def test_nul_bytes_outside_info_markers_are_still_a_binary_file(data):
    with pytest.raises(UnreadableInputError, match="binary"):
        load_book(data, name="x.txt")


def test_too_few_plain_text_chapters_falls_back_to_the_generic_detector():
    assert _chapters(_body(3) + "\n")[1] == []


def _labelled_book(chapter_contents: bool) -> tuple[str, list]:
    """``Chapter N. Title`` chapters (a no-break space after the keyword), each with bare
    ``1. Title`` sections whose numbers restart, and optionally the chapter's own contents."""
    text, expected = "", []
    for n, title in enumerate(TITLES[:3], 1):
        sections = [f"{s} of {title}" for s in ("Home Page", "Mailing Lists", "Getting It")]
        line = f"Chapter\u00a0{n}. {title}"
        expected.append(("chapter", str(n), title, line))
        text += f"{line}\n\n"
        if chapter_contents:
            text += (
                "Table of Contents\n\n" + "\n".join(f"{k}. {s}" for k, s in enumerate(sections, 1)) + "\n\n"
            )
        text += _body(1) + "\n\n"
        for k, s in enumerate(sections, 1):
            text += f"{k}.\u00a0{s}\n\n{_body(1)}\n\n"
    return text, expected


@pytest.mark.parametrize("chapter_contents", [False, True])
def test_bare_numbers_inside_labelled_chapters_are_their_sections(chapter_contents):
    text, expected = _labelled_book(chapter_contents)
    _assert_starts(text, expected)
    book = load_book(text.encode(), name="x.txt")
    sections = [h.title for h in book.headings if h.kind == "section"]
    assert sections == [
        f"{s} of {t}" for t in TITLES[:3] for s in ("Home Page", "Mailing Lists", "Getting It")
    ]


def test_a_separator_rule_over_a_numbered_title_opens_a_chapter():
    text, expected = "", []
    for n, title in enumerate(TITLES[:4], 1):
        line = f"{n}. {title.upper()}"
        expected.append(("chapter", str(n), title.title(), line))
        text += "=" * 79 + f"\n{line}\n\n{_body(2)}\n\n"
    _assert_starts(text, expected)


# --- the title page, lists after the contents, underlines, contents sub-entries (issue 22) -------


def _numbered_chapters(k: int = 3) -> tuple[str, list[tuple[str, str, str, str]]]:
    text, expected = "", []
    for n, title in enumerate(TITLES[:k], 1):
        line = f"Chapter {n}. {title}"
        expected.append(("chapter", str(n), title, line))
        text += f"{line}\n\n{_body(2)}\n\n"
    return text, expected


@pytest.mark.parametrize(
    "first, title",
    [
        ("The Widget Manual", "The Widget Manual"),
        ("                 The Widget Manual", "The Widget Manual"),  # centred
        ("THE WIDGET MANUAL", "The Widget Manual"),
        ("−ME REFERENCE MANUAL", "−Me Reference Manual"),  # a sign glued to the name
        ("                 .NET Widget Manual", ".NET Widget Manual"),
        ("The Widget Manual\n=================", "The Widget Manual"),  # underlined once
        (
            "The Widget Manual\nby A. Writer, with notes\n$Date: 2002/03/18 $",
            "The Widget Manual",
        ),  # title block
    ],
)
def test_title_page_the_first_line_alone_is_a_front_unit(first, title):
    chapters, expected = _numbered_chapters()
    text = f"{first}\n\nVersion 2.1\n\n{_body(1)}\n\n" + chapters
    _assert_starts(text, [("front", "", title, title.upper() if first.isupper() else title), *expected])


@pytest.mark.parametrize(
    "below, title",
    [
        ("\n" + " " * 27 + "INSTALLATION AND OPERATION GUIDE", "The Widget Installation And Operation Guide"),
        ("\n" + " " * 39 + "A. Writer", "The Widget"),  # the author, in mixed case, is no title
        ("\n\n\n" + " " * 27 + "INSTALLATION AND OPERATION GUIDE", "The Widget"),  # set well apart
    ],
)
def test_title_page_centred_capital_lines_below_the_first_continue_the_title(below, title):
    chapters, expected = _numbered_chapters()
    first = " " * 38 + "THE WIDGET"  # centred over the body's 87 columns
    text = f"{first}\n{below}\n\n{_body(1)}\n\n" + chapters
    _assert_starts(text, [("front", "", title, "THE WIDGET"), *expected])


@pytest.mark.parametrize(
    "first",
    [
        "This file documents version 4.9 of the widget, a small tool.",  # a sentence
        # not alone, and no title block: wrapped prose that fills its lines
        "The Widget Manual explains how the widget is built, configured and run\n"
        "on every system the project supports, at some length and in detail, and\n"
        "what to do when it fails.",
        # a generator's banner: one sentence over two short lines, the second in small letters
        "This is widget.info, produced by makeinfo version 6.7 from\nwidget.texi.",
    ],
)
def test_title_page_a_first_line_that_is_no_title_is_not_a_unit(first):
    chapters, expected = _numbered_chapters()
    _assert_starts(f"{first}\n\n{_body(1)}\n\n" + chapters, expected)


@pytest.mark.parametrize("name", ["List of Examples", "List of Figures", "List of Listings"])
def test_a_list_after_the_contents_is_a_front_unit_and_the_chapters_stay(name):
    contents = "Table of Contents\n\n" + "".join(f"{n}. {t}\n" for n, t in enumerate(TITLES[:3], 1))
    listing = f"{name}\n\n" + "".join(f"1.{k}. An item of the list number {k}\n" for k in range(1, 4))
    chapters, expected = _numbered_chapters()
    text = f"Abstract\n\n{_body(1)}\n\n{contents}\n{listing}\n" + chapters
    _assert_starts(
        text,
        [
            ("front", "", "Abstract", "Abstract"),
            ("front", "", "Table of Contents", "Table of Contents"),
            ("front", "", name, name),
            *expected,
        ],
    )


def test_underline_a_rule_after_a_blank_line_is_a_separator_not_an_underline():
    chapters, expected = _numbered_chapters(2)
    command = "    run-the-tool --remove the-old-alternative /usr/local/bin/the-tool-x"
    text = chapters + f"{command}\n\n{'-' * len(command.strip())}\n\n{_body(1)}\n"
    _assert_starts(text, expected)


def test_underline_marks_a_numbered_section_whose_title_is_lower_case():
    text, expected = "", []
    for n, title in enumerate(TITLES[:3], 1):
        line = f"{n}. {title.upper()}"
        expected.append(("chapter", str(n), title.title(), line))
        sec = f"{n}.1 lower-case options of it"
        text += f"{'=' * 70}\n{line}\n\n{_body(1)}\n\n{sec}\n{'-' * len(sec)}\n\n{_body(1)}\n\n"
    _assert_starts(text, expected)
    sections = [h for h in load_book(text.encode(), name="x.txt").headings if h.kind == "section"]
    assert [h.number for h in sections] == ["1.1", "2.1", "3.1"]


def test_contents_a_repeated_sub_entry_does_not_end_the_contents():
    """Two sections may share a title (``Input Focus``); only a repeated top-level entry means
    the chapters themselves have begun, so an entry after the repeat is still listed and placed."""
    contents = "Contents\n\n"
    for n, title in enumerate(TITLES[:3], 1):
        contents += f"{n}. {title}\n    Input Focus\n"
    contents += "Closing Remarks\n"
    chapters, _ = _numbered_chapters()
    text = contents + "\n" + chapters + f"Closing Remarks\n\n{_body(1)}\n"
    titles = [t for _, _, t, _ in _chapters(text)[1]]
    assert titles == ["Contents", *TITLES[:3], "Closing Remarks"]


@pytest.mark.parametrize("body_indent", [4, 7])
def test_indentation_alone_sets_off_the_headings_of_a_man_page(body_indent):
    """No numbers, keywords or underlines: the headings are the title-like lines less indented
    than the body (a man page as ``man`` shows it); a further indent is a level below."""
    pad = " " * body_indent
    text = "TOOL(1)            General Commands Manual            TOOL(1)\n\n\n"
    expected = []
    for title in ("NAME", "SYNOPSIS", "DESCRIPTION", "EXIT STATUS"):
        expected.append(title.title())
        text += f"{title}\n{_body(2, pad)}\n\n   More On {title.title()}\n{_body(1, pad)}\n\n"
    text += "Tool 1.0                    2024-01-01                    TOOL(1)\n"
    canonical, found = _chapters(text)
    assert [t for _, _, t, _ in found] == expected
    book = load_book(text.encode(), name="tool.txt")
    assert [h.level for h in book.headings if h.title.startswith("More On")] == [2, 2, 2, 2]


def test_a_man_pages_margin_sections_outrank_its_bold_subsections_set_between_blank_lines():
    """``man`` sets a section at the margin in bold with its text right below it, and a
    subsection three columns in, in bold, between blank lines: bold alone would choose the
    subsections; the margin makes the sections the chapters, the subsections a level below."""
    pad = " " * 7
    text = "TOOL(7)            Miscellaneous Information Manual            TOOL(7)\n\n"
    expected = []
    for title in ("NAME", "DESCRIPTION", "USAGE NOTES", "SEE ALSO"):
        expected.append(title.title())
        text += f"{_bold(title)}\n{_body(2, pad)}\n\n"
        for sub in ("Basic use", "Finer points"):
            text += f"   {_bold(sub + ' of ' + title.lower())}\n\n\n{_body(1, pad)}\n\n"
    text += "Tool 1.0                    2024-01-01                    TOOL(7)\n"
    canonical, found = _chapters(text)
    assert [t for _, _, t, _ in found] == expected
    book = load_book(text.encode(), name="tool.txt")
    assert {h.level for h in book.headings if h.title.startswith(("Basic use", "Finer points"))} == {2}


def test_a_numbered_chapter_titled_by_a_programs_name_in_small_letters_keeps_the_run():
    titles = ["Getting Started", "Binary Packages", "setup.cfg Options", "Control Files", "Version Numbering"]
    text, expected = "", []
    for n, title in enumerate(titles, 1):
        line = f"{n} {title}"
        expected.append(("chapter", str(n), title, line))
        text += f"{line}\n\n{_body(2)}\n\n"
    _assert_starts(text, expected)


def test_the_run_of_numbers_with_their_sections_under_them_outranks_a_longer_numbered_list():
    """An RTF manual as text: a paragraph a line, no blank lines; chapters ``N Title`` over
    sections ``N.1 Title``; inside chapter 1 a numbered list of eight platforms (``1.<tab>Name``)
    runs longer than the five chapters: the chapters still win."""
    para = "This paragraph runs on at length, as a converter writes a whole paragraph on one line. " * 2
    platforms = "".join(f"{k}.\tPlatform number {k}\nIt was tested with its own compiler and make.\n" for k in range(1, 9))
    text, expected = "", []
    for n, title in enumerate(TITLES, 1):
        line = f"{n} {title}"
        expected.append(("chapter", str(n), title, line))
        text += f"{line}\n{para}\n{para}\n"
        if n <= 3:
            text += f"{n}.1 The details\n{para}\n"
        if n == 1:
            text += platforms
    _assert_starts(text, expected)


def test_indentation_is_no_heading_signal_when_the_body_is_flush_left():
    text = "".join(f"SHORT LINE {k}\n\n{_body(2)}\n\n" for k in range(4))
    assert _chapters(text)[1] == []


@pytest.mark.parametrize("items", [3, 8])
def test_a_numbered_checklist_inside_underlined_chapters_is_not_chapters(items):
    # Sphinx's text builder underlines ``N. Title`` chapters; a checklist inside a chapter numbers
    # its own items 1, 2, 3… with text between them and a hanging indent.
    checklist = "\n\n".join(
        f"{k}. Make sure that your package item {k} is set properly\n   before it is uploaded to the archive"
        for k in range(1, items + 1)
    )
    text, expected = "", []
    for n, title in enumerate(TITLES, 1):
        line = f"{n}. {title}"
        expected.append(("chapter", str(n), title, line))
        text += f"{line}\n{'*' * len(line)}\n\n{_body(2)}\n\n"
        if n == 3:
            text += checklist + "\n\n" + _body(1) + "\n\n"
    _assert_starts(text, expected)


def _bold(text: str) -> str:
    return "".join(f"{c}\b{c}" if c.strip() else c for c in text)


def _underlined(text: str) -> str:
    return "".join(f"_\b{c}" if c.strip() else c for c in text)


def test_overstruck_bold_and_underline_read_as_the_letters_a_terminal_shows():
    """nroff text for a terminal sets bold as ``X\\bX`` and underline as ``_\\bX``: the headings
    are found, and the canonical text holds each letter once, no backspace, no underscore."""
    text, expected = _nroff(listed=False)
    for _, _, _, line in expected:
        text = text.replace(f"{line}\n", f"{_bold(line)}\n", 1)
    text = text.replace("something about", f"something {_underlined('about')}")
    _assert_starts(text, expected)
    canonical, _ = _chapters(text)
    assert "\b" not in canonical and "_" not in canonical
    assert "GETTING STARTED" in canonical and "something about the subject" in canonical


def test_an_elision_under_a_code_line_is_not_an_underline():
    text, expected = _nroff(listed=False)
    text = text.replace("   2.1.  Scope of It\n", "   2.1.  Scope of It\n\n   if {\n   ...\n   }\n", 1)
    _assert_starts(text, expected)


def test_sections_numbered_with_a_colon_are_sections_in_the_contents_and_the_body():
    """``Chapter 2: Title`` chapters with ``2.1: Title`` sections, listed word for word in a
    contents without page numbers: the sections stay sections, never chapters."""
    contents, body_text, expected = [], "", [("front", "", "Table of Contents", "Table of Contents")]
    for n, title in enumerate(TITLES[:3], 1):
        contents += [
            f"Chapter {n}: {title}",
            f"{n}.1: First Topic",
            f"{n}.1.1: A Detail",
            f"{n}.2: Second Topic",
        ]
        expected.append(("chapter", str(n), title, f"Chapter {n}: {title}"))
        body_text += f"Chapter {n}: {title}\n\n{_body(2)}\n\n"
        body_text += f"{n}.1: First Topic\n\n{_body(1)}\n\n{n}.1.1: A Detail\n\n{_body(1)}\n\n"
        body_text += f"{n}.2: Second Topic\n\n{_body(1)}\n\n"
    text = "Table of Contents\n\n" + "\n".join(contents) + "\n\n" + body_text
    _assert_starts(text, expected)
    book = load_book(text.encode(), name="x.txt")
    assert [h.number for h in book.headings if h.kind == "section"][:3] == ["1.1", "1.1.1", "1.2"]


@pytest.mark.parametrize("mark", [": ", "• ", "| "])
def test_title_page_a_converters_mark_before_the_title_is_no_part_of_it(mark):
    """Some text converters set the title block's lines off with a mark (``: Title``): the title
    page is still a front unit, titled without the mark."""
    chapters, expected = _numbered_chapters()
    text = f"{mark}The Widget Manual\n{mark}A. Writer\n\n{_body(1)}\n\n" + chapters
    _assert_starts(text, [("front", "", "The Widget Manual", f"{mark}The Widget Manual"), *expected])


def _paper(abstract: str) -> str:
    chapters, _ = _numbered_chapters()
    centre = " " * 20
    return f"{centre}The Widget Paper\n\n{centre}  A. Writer\n\n{abstract}\n\n     {_body(1)}\n\n" + chapters


def test_title_page_a_centred_abstract_under_the_centred_title_is_part_of_it():
    """A paper's first page sets title, author and ``ABSTRACT`` centred: one title page, no
    separate Abstract unit."""
    _, expected = _numbered_chapters()
    _assert_starts(
        _paper(" " * 22 + "ABSTRACT"), [("front", "", "The Widget Paper", "The Widget Paper"), *expected]
    )


def test_title_page_an_abstract_at_the_margin_is_a_unit_of_its_own():
    _, expected = _numbered_chapters()
    front = [("front", "", "The Widget Paper", "The Widget Paper"), ("front", "", "Abstract", "Abstract")]
    _assert_starts(_paper("Abstract"), front + expected)


def _framed_book(table: bool = False) -> tuple[str, list[tuple[str, str, str, str]]]:
    """Chapters whose number stands flush left and whose title is centred in the rest of the
    line, framed by two full-width rules; sections underlined with '=' of a fixed width."""
    rule = "-" * 72
    text, expected = "", []
    for n, title in enumerate(TITLES[:4], 1):
        line = f"{n}.{' ' * (30 - len(title) // 2)}{title.upper()}"
        expected.append(("chapter", str(n), title.title(), f"{rule}\n{line}"))  # from the rule above
        text += f"{rule}\n{line}\n{rule}\n\n{_body(2)}\n\nDetails of it\n{'=' * 40}\n\n{_body(2)}\n\n"
        if table and n == 2:
            text += f"{rule}\nOption        Meaning\n{rule}\n-v            verbose\n-q            quiet\n\n"
            text += f"{rule}\nHere is an example of a displayed line.\n{rule}\n\n{_body(1)}\n\n"
    return text, expected


def test_a_title_spread_over_its_line_between_two_full_rules_is_a_chapter():
    _assert_starts(*_framed_book())


def test_a_table_header_or_a_sentence_between_two_rules_is_no_heading():
    _assert_starts(*_framed_book(table=True))


def _tbold(text: str) -> str:
    return "".join(f"{ch}\b{ch}" if ch != " " else ch for ch in text)


def _bold_book(topics: bool) -> tuple[str, list[tuple[str, str, str, str]]]:
    """A text rendered for a terminal: headings only in bold (overstruck), chapters and their
    sections alike; with ``topics``, a bulleted list before the chapters names them."""
    text = f"{_tbold('The Widget Guide')}\n\n{_body(1)}\n\n"
    if topics:
        text += "Topics covered in this document:\n\n" + "".join(f"  * {t}\n" for t in TITLES[:3]) + "\n"
    expected = [("front", "", "The Widget Guide", "The Widget Guide")]
    for title in TITLES[:3]:
        text += f"{_tbold(title)}\n\n{_body(2)}\n\n{_tbold('Details of ' + title.lower())}\n\n{_body(2)}\n\n"
        expected.append(("chapter", "", title, title))
        if not topics:
            expected.append(("chapter", "", "Details of " + title.lower(), "Details of " + title.lower()))
    return text, expected


@pytest.mark.parametrize("topics", [True, False])
def test_headings_set_only_in_terminal_bold_are_found_and_a_topics_list_sets_the_chapters(topics):
    _assert_starts(*_bold_book(topics))


def test_a_bold_sentence_or_an_underlined_line_is_no_heading():
    chapters, expected = _numbered_chapters()
    italic = "".join(f"_\b{ch}" for ch in "An Emphasised Remark")
    text = chapters + f"\n{_tbold('This sentence is set in bold for emphasis.')}\n\n{italic}\n\n{_body(1)}\n"
    _assert_starts(text, expected)


def test_an_appendices_divider_is_a_part_over_the_appendices_whatever_marks_it():
    text, expected = _framed_book()
    hashes = "#" * 40
    text += f"{hashes}\nAppendices\n{hashes}\n\n{_body(1)}\n\n"
    text += f"A. Field List\n{'=' * 13}\n\n{_body(2)}\n\nDetails of it\n{'=' * 40}\n\n{_body(1)}\n"
    canonical, found = _chapters(text)
    assert [(k, t) for k, _, t, _ in found][-2:] == [("part", "Appendices"), ("appendix", "Field List")]


_WIDTH = len(_body(1).splitlines()[0])


def _centred(line: str) -> str:
    return line.center(_WIDTH).rstrip()


_FRAME = "-" * 22
_MEMO = "\n".join(
    f"{left:<{_WIDTH - len(right)}}{right}"
    for left, right in [
        ("Widget Working Group", "A. Writer"),
        ("Request for Comments: 9999", "Example Inc."),
        ("Category: Informational", "May 2024"),
    ]
)


@pytest.mark.parametrize(
    "opening",
    [
        "\n".join(_centred(t) for t in (_FRAME, "Widget", "Reference Manual", _FRAME, "version 2.6")),
        f"{_MEMO}\n\n\n{_centred('Widget')}\n{_centred('Reference Manual')}",
    ],
    ids=["framed by dashes", "under a memo's two-column header"],
)
def test_title_page_a_centred_title_under_a_first_line_that_is_no_title_is_a_front_unit(opening):
    """Where the file opens with a frame or a memo's header, the title page's title is its first
    centred line, continued by the centred line right below it."""
    chapters, expected = _numbered_chapters()
    text = f"{opening}\n\n{_body(1)}\n\n" + chapters
    front = ("front", "", "Widget Reference Manual", "Widget\n")
    _assert_starts(text, [front, *expected])


def test_title_page_a_centred_line_after_the_prose_has_begun_is_no_title():
    chapters, expected = _numbered_chapters()
    text = f"{_FRAME}\n\n{_body(1)}\n\n{_centred('Widget Reference Manual')}\n\n{_body(1)}\n\n" + chapters
    _assert_starts(text, expected)


def _memo_front(body_indent: str) -> str:
    sections = ["Abstract", "Status of This Memo", "Copyright Notice"]
    return "".join(f"{name}\n\n{_body(1, body_indent)}\n\n" for name in sections)


def test_front_matter_headings_set_as_the_named_one_over_an_indented_text_are_front_units():
    """``Status of This Memo`` has no front-matter name, but is set as ``Abstract`` is: flush
    left, alone, over a text set further in."""
    chapters, expected = _numbered_chapters()
    front = [("front", "", t, t) for t in ("Abstract", "Status of This Memo", "Copyright Notice")]
    _assert_starts(_memo_front("   ") + chapters, [*front, *expected])


def test_front_matter_a_short_line_in_a_flush_left_text_is_no_front_heading():
    chapters, expected = _numbered_chapters()
    _assert_starts(_memo_front("") + chapters, [("front", "", "Abstract", "Abstract"), *expected])


def test_the_books_only_chapter_label_showing_chapter_five_in_an_example_is_no_chapter():
    """A manual of a typesetting package shows what its chapter macro prints (``CHAPTER 5`` /
    ``CONCLUSIONS``, centred) inside its own chapters, which are numbered ``N.  TITLE``."""
    text, expected = _nroff()
    shown = f"{' ' * 30}CHAPTER 5\n{' ' * 29}CONCLUSIONS\n\n{_body(1, '   ')}\n\n"
    second = text.index("2.  ")
    _assert_starts(text[:second] + shown + text[second:], expected)


def test_a_book_of_one_labelled_chapter_one_keeps_it():
    chapters, expected = _numbered_chapters(1)
    _assert_starts(chapters, expected)


def test_the_books_contents_after_an_unnumbered_front_unit_set_as_a_chapter_is_a_front_unit():
    """``Abstract`` and ``Copyright Notice`` underlined as the chapters are, then the contents,
    then the numbered chapters: the contents is the book's own, a front unit."""
    front = "".join(
        f"{name}\n{'-' * len(name)}\n\n{_body(3, '     ')}\n\n" for name in ("Abstract", "Copyright Notice")
    )
    contents = "Contents\n--------\n\n" + "".join(
        f"     {n}.        {t}\n\n" for n, t in enumerate(TITLES[:3], 1)
    )
    chapters = "".join(
        f"{n}. {t}\n{'-' * (len(t) + 3)}\n\n{_body(2, '     ')}\n\n" for n, t in enumerate(TITLES[:3], 1)
    )
    canonical, found = _chapters(front + contents + chapters)
    assert [(k, t) for k, _, t, _ in found] == [
        ("front", "Abstract"),
        ("front", "Copyright Notice"),
        ("front", "Contents"),
        *[("chapter", t) for t in TITLES[:3]],
    ]


def test_lines_set_as_the_chapters_the_contents_placed_are_chapters_though_the_contents_names_them_otherwise():
    """A web page rendered as text: a bulleted contents without pages, two entries on one line
    and one named otherwise than its heading; every heading flush left over a body indented three
    columns, as the chapters the contents did place are."""
    heads = ["Getting Started", "Reading Files", "Writing Files", "Forms", "Tables", "The Cache"]
    listed = ["Getting Started", "Reading Files", "Writing Files", "Forms | Tables", "Lynx and The Cache"]
    text = "Contents\n\n" + "".join(f"     • {t}\n" for t in listed) + "\n"
    for title in heads:
        text += f"{title}\n\n{_body(3, '   ')}\n\n   [ToC]\n\n"
    assert [t for _, _, t, _ in _chapters(text)[1]] == ["Contents", *heads]


def test_numbered_sections_and_running_lines_set_like_the_listed_chapters_stay_out():
    heads = ["1. Getting Started", "2. Reading Files", "3. Writing Files", "4. Closing"]
    text = "Contents\n\n" + "".join(f"   {t}\n" for t in heads) + "\n"
    for n, title in enumerate(heads, 1):
        text += f"{title}\n\n{_body(2, '   ')}\n\n{n}.1. A Section\n\n{_body(1, '   ')}\n\n"
        text += f"Manual Page {n}\n\n{_body(1, '   ')}\n\n"
    found = [t for _, _, t, _ in _chapters(text)[1]]
    assert found == ["Contents", "Getting Started", "Reading Files", "Writing Files", "Closing"]


def test_a_menu_label_before_the_chapters_that_titles_a_chapter_further_on_is_no_front_unit():
    """A Texinfo node listing rendered as text: after the ``Abstract``, the label ``Getting
    Started`` over its indented menu items is the title of chapter 1 further on, not a front unit."""
    chapters, expected = _numbered_chapters()
    menu = f"{TITLES[0]}\n\n   * First steps\n   * Next steps\n\n"
    front = [("front", "", "Abstract", "Abstract")]
    _assert_starts(f"Abstract\n\n{_body(1, '   ')}\n\n" + menu + chapters, [*front, *expected])


def test_headings_set_apart_by_two_blank_lines_where_paragraphs_take_one_are_the_last_resort():
    """An nroff rendering, its bold lost: a heading has two blank lines above it, a paragraph
    one; a centred title-page line and a sentence after two blank lines are no headings."""
    text = "\n\n              The Widget Control Sequences\n\n                   A. Writer\n\n\n\n"
    for title in ("Definitions", "Plain Mode", "Special Keys", "Mouse Tracking"):
        text += f"{title}\n\n{_body(6)}\n\n\n"
    text += "This sentence only follows a wide gap.\n\n" + _body(1) + "\n"
    found = [(k, t) for k, _, t, _ in _chapters(text)[1]]
    assert [t for k, t in found if k == "chapter"] == [
        "Definitions",
        "Plain Mode",
        "Special Keys",
        "Mouse Tracking",
    ]
    assert not any("Writer" in t for _, t in found)


def test_paragraphs_parted_by_two_blank_lines_throughout_give_no_headings():
    text = "".join(f"Short Line {k}\n\n\n{_body(1)}\n\n\n" for k in range(6))
    assert [k for k, _, _, _ in _chapters(text)[1] if k == "chapter"] == []


def test_keyword_headings_whose_titles_end_in_a_full_stop_are_chapters():
    text, expected = "", []
    for n, title in enumerate(TITLES[:4], 1):
        line = f"Chapter {n}. {title}."
        expected.append(("chapter", str(n), title, line))
        text += f"{line}\n\n{_body(2)}\n\n"
    _assert_starts(text, expected)


def test_a_keyword_heading_wrapped_over_two_lines_takes_both_as_its_title():
    text, expected = "", []
    for n, title in enumerate(TITLES[:4], 1):
        if n == 2:
            line, wrapped = f"Chapter {n}. Of {title}, with a long subtitle that;", "wraps onto a second line"
            expected.append(("chapter", str(n), f"Of {title}, with a long subtitle that; {wrapped}", line))
            text += f"{line}\n{wrapped}\n\n{_body(2)}\n\n"
            continue
        line = f"Chapter {n}. {title}"
        expected.append(("chapter", str(n), title, line))
        text += f"{line}\n\n{_body(2)}\n\n"
    _assert_starts(text, expected)


def test_a_keyword_line_over_a_paragraph_of_prose_is_not_a_wrapped_title():
    chapters, expected = _numbered_chapters(3)
    prose = "Chapter 7 of the old manual said this at length, and then it said more than\nthat in a second line of the same paragraph, and a third line followed it\nbefore the paragraph came to its end."
    _assert_starts(chapters + f"{prose}\n\n{_body(1)}\n", expected)


def test_a_contents_cut_into_number_title_and_page_lines_lists_sections_as_sections():
    """An extractor that cuts each contents entry into pieces (``1.1`` / ``Title . . .`` / ``4``):
    a number on its own line is the next entry's, a page number on its own line no entry, so a
    listed section whose heading in the body stands alone unnumbered is no chapter."""
    contents = "Contents\n\n"
    body = ""
    for n, title in enumerate(TITLES[:3], 1):
        contents += f"{n}\n\n{title}\n\n{n * 3}\n\n{n}.1\n\nHow the {title.lower()} work . . . . . . .\n\n{n * 3 + 1}\n\n"
        body += f"Chapter {n}\n\n{title}\n\n{_body(2)}\n\nHow the {title.lower()} work\n\n{_body(2)}\n\n"
    canonical, found = _chapters(contents + body)
    assert [(k, n, t) for k, n, t, _ in found] == [("front", "", "Contents")] + [
        ("chapter", str(n), t) for n, t in enumerate(TITLES[:3], 1)
    ]


def test_a_contents_section_whose_title_starts_in_lower_case_keeps_its_number():
    entries = "".join(
        f"{n} {t} . . . . . {n * 5}\n{n}.1 {t.lower()}() in detail . . . . . {n * 5 + 1}\n"
        for n, t in enumerate(TITLES[:3], 1)
    )
    body = "".join(
        f"Chapter {n}. {t}\n\n{_body(2)}\n\n{n}.1 {t.lower()}() in detail\n\n{_body(2)}\n\n"
        for n, t in enumerate(TITLES[:3], 1)
    )
    canonical, found = _chapters(f"Contents\n\n{entries}\n" + body)
    assert [(k, n) for k, n, _, _ in found] == [("front", "")] + [("chapter", str(n)) for n in (1, 2, 3)]


def test_a_title_set_twice_right_above_its_numbered_heading_is_one_heading():
    """A generator writes a level's title over the numbered heading it opens, only a marker
    without letters between (``「3」``): one heading, the numbered one, under its part."""
    text, expected = "", []
    for part, titles in (("BASICS", TITLES[:2]), ("ADVANCED", TITLES[2:4])):
        text += f"{part}\n{'*' * len(part)}\n「1」\n\n"
        expected.append(("part", "", part.title(), part))
        for title in titles:
            n = TITLES.index(title) + 1
            upper, numbered = title.upper(), f"{n}. {title.upper()}"
            text += f"{upper}\n{'*' * len(upper)}\n「2」\n\n{numbered}\n{'-' * len(numbered)}\n「3」\n\n{_body(2)}\n\n"
            expected.append(("chapter", str(n), title.title(), numbered))
    _assert_starts(text, expected)


def test_running_headers_naming_a_chapter_that_opens_elsewhere_are_no_chapters():
    """A PDF's text extraction keeps its running heads: ``CHAPTER 2. BINARY PACKAGES`` atop each
    page after the opening ``Chapter 2`` / ``Binary Packages``. They repeat; the opening does not."""
    text, expected = "", []
    for n, title in enumerate(TITLES[:3], 1):
        text += f"Chapter {n}\n\n{title}\n\n{_body(3)}\n\n"
        expected.append(("chapter", str(n), title, f"Chapter {n}"))
        for page in range(3):
            text += f"CHAPTER {n}. {title.upper()}\n\n{page + 2}\n\n{_body(3)}\n\n"
    _assert_starts(text, expected)


def test_an_opening_label_without_a_title_takes_its_running_headers_title():
    text, expected = "", []
    for n, title in enumerate(TITLES[:3], 1):
        shown = "" if n == 3 else f"{title}\n\n"
        text += f"Chapter {n}\n\n{shown}{_body(3)}\n\n"
        expected.append(("chapter", str(n), title, f"Chapter {n}"))
        for page in range(3):
            text += f"CHAPTER {n}. {title.upper()}\n\n{page + 2}\n\n{_body(3)}\n\n"
    _assert_starts(text, expected)


def _paragraph_lines(k: int, indent: str = "") -> str:
    """``k`` paragraphs with no blank line between them, each one long line (a paragraph a line,
    as an extractor that writes no blank lines leaves them)."""
    return "\n".join(
        f"{indent}Paragraph {j} says something about the subject at hand, at some length, so that it"
        " runs on as the body of a real manual does."
        for j in range(k)
    )


def test_a_text_without_blank_lines_has_the_chapters_its_contents_lists_with_their_numbers():
    """No blank line anywhere (Ghostscript's txtwrite, UnRTF): the contents (its leaders running
    over the line) lists ``1 Introduction`` and its sections; the numbered lines bearing those
    titles are the chapters, though no blank line sets them off, and a running header repeating
    a title bare is none."""
    leaders = "." * 110
    contents = ["Table of Contents"]
    body = []
    for n, title in enumerate(TITLES[:4], 1):
        contents += [f"{n} {title}{leaders}{3 * n}", f" {n}.1 Details of it{leaders}{3 * n + 1}"]
        body += [f"{' ' * 40}{TITLES[n - 2] if n > 1 else 'Preface'}", f"{n} {title}", _paragraph_lines(3)]
        body += [f"{n}.1 Details of it", _paragraph_lines(4)]
    text = "\n".join(["The Widget Manual", *contents, *body]) + "\n"
    expected = [
        ("front", "", "The Widget Manual", "The Widget Manual"),
        ("front", "", "Table of Contents", "Table"),
    ]
    expected += [("chapter", str(n), title, f"{n} {title}") for n, title in enumerate(TITLES[:4], 1)]
    _assert_starts(text, expected)


def test_a_printers_header_repeated_further_out_than_the_body_does_not_set_its_margin():
    """A printout's own lines (``Page N/M``, the file name) stand at column 0 on every page
    while the text is set ten columns in: ``N.  Title`` at the text's margin, over its indented
    body, is a chapter."""
    pages = []
    for n, title in enumerate(TITLES[:4], 1):
        footer = f"\n\nstdin\n\nPage {n}/4\n"
        pages.append(f"          {n}.  {title}\n\n{_body(3, '               ')}\n{footer}")
    text = "\n\n".join(pages)
    expected = [("chapter", str(n), title, f"{n}.  {title}") for n, title in enumerate(TITLES[:4], 1)]
    _assert_starts(text, expected)


def test_a_converters_banner_above_the_title_is_no_part_of_the_title_page():
    """UnRTF opens its text with comment lines (``###  Translation from RTF performed by
    UnRTF``) and a rule: the title page is the first line below them."""
    banner = "###  Translation from RTF performed by UnRTF, version 0.21.10\n### font table contains 3 fonts total\n\n"
    chapters, expected = _numbered_chapters()
    text = f"{banner}-----------------\nThe Widget Manual\n\n{_body(1)}\n\n" + chapters
    _assert_starts(text, [("front", "", "The Widget Manual", "The Widget Manual"), *expected])


@pytest.mark.parametrize("label", ["{n}", "—{n}—", "- {n} -"])
@pytest.mark.parametrize("first_section", ["Introduction", "Overview"])
def test_a_number_alone_over_a_contents_title_opens_that_chapter(label, first_section):
    """A chapter set as its number alone (maybe framed by dashes) over its title, where the
    printed contents lists that title under that number, opens at the number's line, even when
    a section of another chapter has the same title (``3.1 Introduction``)."""
    contents = "Contents\n\n" + "\n".join(f"{n} {t}{' ' * 20}{n * 4}" for n, t in enumerate(TITLES[:3], 1))
    contents += f"\n  3.1 {first_section} . . . . . . . . 12\n\n"
    titles = ["Introduction", *TITLES[1:3]]
    contents = contents.replace(TITLES[0], titles[0], 1)
    text, expected = contents, [("front", "", "Contents", "Contents")]
    for n, title in enumerate(titles, 1):
        mark = label.format(n=n)
        text += f"{mark}\n{title}\n\n{_body(2)}\n\n"
        expected.append(("chapter", str(n), title, mark))
    text += f"3.1 {first_section}\n\n{_body(1)}\n"
    _assert_starts(text, expected)


def test_a_framed_number_over_a_title_the_contents_does_not_number_so_is_no_chapter():
    """The same pair whose number is not the one the contents gives the title (a folio over a
    line of text) opens nothing."""
    contents = "Contents\n\n" + "\n".join(f"{n} {t}{' ' * 20}{n * 4}" for n, t in enumerate(TITLES[:3], 1))
    text = contents + "\n\n"
    for n, title in enumerate(TITLES[:3], 1):
        text += f"- {n + 1} -\n{title}\n\n{_body(2)}\n\n"
    found = _chapters(text)[1]
    assert [(k, n) for k, n, _, _ in found if k == "chapter"] == []


def _texinfo_dump(navigation: bool) -> str:
    """A Texinfo manual's HTML dumped as text: its title, a contents, then nodes, each under a
    navigation line when ``navigation``; the top node (``Widgets``) first, unnumbered."""
    nodes = [("", "Widgets"), *((str(n), t) for n, t in enumerate(TITLES[:3], 1))]
    text = "Widgets: a manual\n\nTable of Contents\n\n" + "".join(f"  * {n} {t}\n" for n, t in nodes[1:])
    for k, (n, title) in enumerate(nodes):
        following = nodes[k + 1][1] if k + 1 < len(nodes) else "Index"
        if navigation:
            text += f"\nNext: {following}, Up: Top   [Contents][Index]\n"
        text += f"\n{f'{n} ' if n else ''}{title}\n\n{_body(2)}\n"
    return text


@pytest.mark.parametrize("navigation", [True, False])
def test_the_top_node_under_its_navigation_line_is_a_front_unit(navigation):
    """Below a Texinfo node's navigation line, before the first chapter, a title alone opens the
    top node; without the navigation lines the same line is text of the contents' unit."""
    found = [(k, n, t) for k, n, t, _ in _chapters(_texinfo_dump(navigation))[1]]
    assert (("front", "", "Widgets") in found) is navigation
    assert [n for k, n, _ in found if k == "chapter"] == ["1", "2", "3"]


@pytest.mark.parametrize("glued", [True, False])
def test_an_underlined_title_glued_to_the_contents_above_is_a_heading_where_chapters_are_underlined_so(glued):
    """A Texinfo plain-text manual opens with its contents (no header, no blank lines) run
    straight into the top node's title, underlined as the chapters are: that title opens a front
    unit. Glued to the text above with an underline no heading standing apart uses, it is none."""
    chapters = "".join(
        f"{n} {t}\n{'*' * (len(t) + 2)}\n\n{_body(2)}\n\n" for n, t in enumerate(TITLES[:3], 1)
    )
    if not glued:
        chapters = chapters.replace("*", "~")
    contents = "Widget Manual\n" + "".join(f"{n} {t}\n" for n, t in enumerate(TITLES[:3], 1))
    text = contents + "Widget Manual\n*************\n\n" + _body(1) + "\n\n" + chapters
    canonical, found = _chapters(text)
    top_node = [o for k, _, t, o in found if k == "front" and canonical.startswith("Widget Manual\n*", o)]
    assert bool(top_node) is glued
    assert [n for k, n, _, _ in found if k == "chapter"] == ["1", "2", "3"]


@pytest.mark.parametrize("sub_entries", [0, 2])
def test_a_contents_without_a_header_never_places_the_first_chapter(sub_entries):
    """``1.  Title`` over its indented sub-entries (``    1.1 …``) and the next chapters' lines
    run on below, no blank line between, is a contents without a header: chapter 1 opens at its
    heading in the body, not at the contents' first line."""
    contents = ""
    for n, title in enumerate(TITLES[:4], 1):
        contents += f"{n}.  {title}\n" + "".join(f"    {n}.{m} Part {m}\n" for m in range(1, sub_entries + 1))
    text = f"Some words about this manual.\n\n{contents}\nMore words.\n\n"
    expected = []
    for n, title in enumerate(TITLES[:4], 1):
        text += f"{n}. {title}\n\n{_body(2)}\n\n"
        expected.append(("chapter", str(n), title, f"{n}. {title}"))
    _assert_starts(text, expected)


def test_numbered_lines_whose_text_hangs_at_their_titles_column_are_list_items_not_chapters():
    """pandoc's plain text: ``1.  Download it`` over its paragraph indented to where ``Download``
    starts is a list item, whatever runs 1, 2, 3 it makes."""
    steps = ["Download the package", "Put it in the load path", "Enable the mode"]
    items = "".join(f"{n}.  {step}\n\n{_body(1, '    ')}\n\n" for n, step in enumerate(steps, 1))
    text = f"Installing\n\n{_body(2)}\n\n{items}Using It\n\n{_body(3)}\n\nTroubleshooting\n\n{_body(3)}\n"
    found = [t for _, _, t, _ in _chapters(text)[1]]
    assert not set(steps) & set(found)


def test_numbered_chapters_over_flush_text_stay_chapters():
    text = "".join(f"{n}.  {title}\n\n{_body(2)}\n\n" for n, title in enumerate(TITLES[:4], 1))
    assert [(n, t) for _, n, t, _ in _chapters(text)[1]] == [(str(n), t) for n, t in enumerate(TITLES[:4], 1)]


def test_bare_title_lines_over_paragraphs_are_the_headings_of_a_text_with_no_other_marks():
    """A converter's plain text sets every heading, chapter and section, as a bare line between
    blank lines; a heading directly over its first section's heading counts too (that section a
    level below it); a sentence, a line ending in a colon and a numbered list item are no
    headings."""
    heads = ["Introduction", "Installation", "Checking the Version", "Key Bindings", "Customization", "Faces"]
    text = ""
    for k, title in enumerate(heads):
        text += f"{title}\n\n"
        if title != "Customization":  # NOTE: straight over its first section's heading
            text += f"{_body(3)}\n\nHere are the steps:\n\n1.  First step\n\n{_body(1, '    ')}\n\n"
    book_text, found = _chapters(text)
    assert [t for _, _, t, _ in found] == heads[:-1]
    assert all(book_text[offset:].startswith(title) for _, _, title, offset in found)


def test_short_lines_over_short_lines_are_a_list_not_headings():
    names = "\n\n".join(f"Name Number {k}" for k in range(12))
    text = f"{_body(2)}\n\n{names}\n\n{_body(2)}\n"
    assert _chapters(text)[1] == []


def _unwrapped(k: int) -> str:
    """``k`` paragraphs, each one long line, with no blank line between them."""
    return "\n".join(
        f"Paragraph {j} of a word processor's text export runs on as one long line, because the export "
        "writes a paragraph a line and leaves the wrapping to whoever reads it."
        for j in range(k)
    )


def test_paragraphs_a_line_without_blank_lines_between_them_let_numbered_titles_stand_alone():
    """A word processor's text export: no blank line between paragraphs (a code block alone is set
    off by blank lines), so a numbered title never follows a blank line."""
    text = ""
    for n, title in enumerate(TITLES[:4], 1):
        code = "\n    $ an example command\n    $ and another\n\n" if n % 2 else ""
        text += f"{n}. {title}\n{_unwrapped(6)}\n{code}{_unwrapped(2)}\n"
    assert [(n, t) for _, n, t, _ in _chapters(text)[1]] == [(str(n), t) for n, t in enumerate(TITLES[:4], 1)]


def test_of_two_runs_1_2_3_the_one_with_text_under_its_lines_is_the_chapters():
    """A contents without a header at the top lists ``1. Title`` … as the chapters do further on:
    the chapters are the numbered lines with text under them."""
    contents = "The Widget Book\n\n" + "".join(
        f"{n}. {t}\n\nGroup {n}\n\n" for n, t in enumerate(TITLES[:4], 1)
    )
    body = "".join(f"{n}. {t}\n\n{_body(4)}\n\n" for n, t in enumerate(TITLES[:4], 1))
    book_text, found = _chapters(contents + body)
    chapters = [(n, offset) for kind, n, _, offset in found if kind == "chapter"]
    assert [n for n, _ in chapters] == ["1", "2", "3", "4"]
    assert all(offset >= len(contents) for _, offset in chapters)


def test_an_object_number_after_a_title_is_not_part_of_it():
    text = "".join(f"{n}. {t} 「{10 * n}」\n\n{_body(3)}\n\n" for n, t in enumerate(TITLES[:4], 1))
    assert [t for _, _, t, _ in _chapters(text)[1]] == TITLES[:4]


def test_a_bulleted_contents_places_the_chapters_its_top_bullets_list():
    """A web page's contents as a text rendering prints it: ``*`` before each chapter, ``+`` before
    its sections (one in lower case); the chapters are bare lines set in like their text, each over
    a short line (no paragraph of prose right under it)."""
    sections = {0: ["Details", "more details in lower case"], 2: ["Options"]}
    contents = "  Contents\n\n" + "".join(
        f"    * {t}\n" + "".join(f"        + {s}\n" for s in sections.get(k, []))
        for k, t in enumerate(TITLES[:4])
    )
    body = ""
    for k, title in enumerate(TITLES[:4]):
        body += f"\n    {title}\n\n    In short:\n{_body(2, '    ')}\n"
        for sub in sections.get(k, []):
            body += f"\n      {sub}\n\n{_body(1, '      ')}\n"
    book_text, found = _chapters(contents + body)
    chapters = [(t, offset) for kind, _, t, offset in found if kind == "chapter"]
    assert [t for t, _ in chapters] == TITLES[:4]
    assert all(book_text[offset:].startswith(t) and offset > len(contents) for t, offset in chapters)


def test_a_navigation_bar_above_the_title_is_not_the_title():
    text = "Widget | Overview | About | Users | Reference\n\n  The Widget Guide\n\n"
    text += "".join(f"{n}. {t}\n\n{_body(3)}\n\n" for n, t in enumerate(TITLES[:3], 1))
    fronts = [t for kind, _, t, _ in _chapters(text)[1] if kind == "front"]
    assert fronts == ["The Widget Guide"]


def test_a_run_of_chapters_keeps_one_form_of_number():
    """Chapters numbered ``1 Title`` and, under chapter 1's first lines, a list numbered ``1. …``
    with more text under its items: chapter 1 is still the ``1 Introduction`` line."""
    items = "".join(f"{n}. Item number {n} of the list\n\n{_body(3)}\n\n" for n in (1, 2, 3))
    text = f"1 Introduction\n\nA short opening line.\n\n{items}"
    text += "".join(f"{n} {t}\n\n{_body(3)}\n\n" for n, t in enumerate(TITLES[1:4], 2))
    found = [(n, t) for kind, n, t, _ in _chapters(text)[1] if kind == "chapter"]
    assert found == [("1", "Introduction"), *((str(n), t) for n, t in enumerate(TITLES[1:4], 2))]


def _flush_contents(page_break: bool) -> str:
    """A contents with dot leaders and page numbers that sets every entry flush: chapters
    ``N. Title``, their sections unnumbered (two named alike), a back-matter ``Index``; with
    ``page_break`` the folio and a running head of the PDF it was extracted from stand inside it."""
    rows = []
    for n, title in enumerate(TITLES[:4], 1):
        rows += [f"{n}. {title} .......... {n * 5}", f"Input Focus .......... {n * 5 + 1}"]
        rows.append(f"More on {title} .......... {n * 5 + 2}")
        if page_break and n == 2:
            rows += ["iii", "", "The Widget Manual"]
    rows.append("Index .......... 40")
    return "Table of Contents\n\n" + "\n".join(rows) + "\n\n"


@pytest.mark.parametrize("page_break", [False, True])
def test_unnumbered_entries_a_flush_contents_lists_after_its_numbered_chapters_are_their_sections(page_break):
    body = ""
    for n, title in enumerate(TITLES[:4], 1):
        body += f"Chapter {n}. {title}\n\n{_body(2)}\n\nInput Focus\n\n{_body(2)}\n\nMore on {title}\n\n{_body(2)}\n\n"
    body += f"Index\n\n{_body(1)}\n"
    found = [(k, t) for k, _, t, _ in _chapters(_flush_contents(page_break) + body)[1]]
    assert [t for k, t in found if k == "chapter"] == TITLES[:4]
    assert ("back", "Index") in found


def test_a_contents_resumes_after_the_folio_and_running_head_of_a_page_break():
    """A contents extracted from a PDF keeps the folio and the running head between its pages: the
    entries after them are still the contents' and place their chapters (bare titles)."""
    rows = [f"{t} .......... {k * 5 + 1}" for k, t in enumerate(TITLES[:2])]
    rows += ["iii", "", "The Widget Manual"]
    rows += [f"{t} .......... {k * 5 + 11}" for k, t in enumerate(TITLES[2:4])]
    text = "Table of Contents\n\n" + "\n".join(rows) + "\n\n"
    text += "".join(f"{t}\n\n{_body(3)}\n\n" for t in TITLES[:4])
    assert [t for k, _, t, _ in _chapters(text)[1] if k == "chapter"] == TITLES[:4]


def test_bare_title_lines_are_sought_where_the_front_and_back_units_found_hold_the_body():
    """A converter's plain text with a named ``Abstract`` on top and ``Acknowledgements`` at the
    end: those two units would hold the whole book, so the bare headings between them are sought
    (a title page on the first line stays the title page)."""
    heads = ["Introduction", "Installation", "Key Bindings", "Customization"]
    text = "The Widget Manual\n\nAbstract\n\n" + _body(1) + "\n\n"
    text += "".join(f"{title}\n\n{_body(6)}\n\n" for title in heads)
    text += f"Acknowledgements\n\n{_body(1)}\n"
    found = _chapters(text)[1]
    assert [(k, t) for k, _, t, _ in found] == [("front", "The Widget Manual"), ("front", "Abstract")] + [
        ("chapter", t) for t in heads
    ] + [("back", "Acknowledgements")]


def test_a_line_over_an_indented_block_in_a_flush_left_text_is_no_front_unit():
    """A title-like line over an indented block (a table's cells, a code example) after a named
    ``Abstract`` is a front-matter heading by its form only where headings stand out of an
    indented body; in a flush-left text it is a label of the block."""
    cells = "\n\n".join(f"    \\\\symbol{k}" for k in range(6))
    text = f"Abstract\n\n{_body(1)}\n\nGreek letters\n\n{cells}\n\n{_body(1)}\n\n"
    text += "".join(f"{n} {t}\n{'=' * (len(t) + 2)}\n\n{_body(3)}\n\n" for n, t in enumerate(TITLES[:3], 1))
    assert [t for _, _, t, _ in _chapters(text)[1]] == ["Abstract"] + TITLES[:3]


def test_a_sentence_in_brackets_or_quotes_standing_alone_is_no_heading():
    """A sentence ends in its full stop also inside closing brackets or quotes: a remark in
    brackets or a quoted docstring on a line of its own over prose is no heading."""
    heads = ["Introduction", "Installation", "Key Bindings", "Customization"]
    text = ""
    for k, title in enumerate(heads):
        aside = ["(This part was adapted from an older manual.)", '"""Return the widget\'s size."""'][k % 2]
        text += f"{title}\n\n{_body(3)}\n\n{aside}\n\n{_body(3)}\n\n"
    assert [t for _, _, t, _ in _chapters(text)[1]] == heads


def test_a_bare_heading_right_below_another_is_a_level_below_it():
    """Headings stacked with no text between them: each is the first heading under the one above
    it. A title page on the first line heads no chapter."""
    text = "The Widget Manual\n\n"
    stacked = {"Customization": ["Faces", "Colours"]}
    for title in ["Introduction", "Installation", "Customization", "Key Bindings"]:
        text += "".join(f"{t}\n\n" for t in [title, *stacked.get(title, [])]) + f"{_body(6)}\n\n"
    book = load_book(text.encode(), name="x.txt")
    found = [(h.title, h.level) for h in book.headings]
    assert found == [
        ("The Widget Manual", 1),
        ("Introduction", 1),
        ("Installation", 1),
        ("Customization", 1),
        ("Faces", 2),
        ("Colours", 3),
        ("Key Bindings", 1),
    ]


def test_a_bare_heading_over_a_short_sentence_stands_alone_as_over_a_paragraph():
    """A short sentence (ending in a colon or a full stop) under a bare heading is prose, as a
    paragraph is: the heading stands, and so does the heading right above it."""
    text = ""
    for title in ["Introduction", "Installation", "Customization", "Key Bindings"]:
        if title == "Customization":
            text += f"{title}\n\nFaces\n\nSet them as follows:\n\n    (set-face red)\n\n{_body(5)}\n\n"
        else:
            text += f"{title}\n\n{_body(6)}\n\n"
    book = load_book(text.encode(), name="x.txt")
    assert [(h.title, h.level) for h in book.headings] == [
        ("Introduction", 1),
        ("Installation", 1),
        ("Customization", 1),
        ("Faces", 2),
        ("Key Bindings", 1),
    ]


def test_a_line_of_two_sentences_standing_alone_is_no_heading():
    heads = ["Introduction", "Installation", "Key Bindings", "Customization"]
    text = ""
    for title in heads:
        text += f"{title}\n\n{_body(3)}\n\nMerge the {title} files. Keep a list?\n\n{_body(3)}\n\n"
        text += f"A class for {title.lower()}. (widgets/{title.lower()}.py)\n\n{_body(3)}\n\n"
    assert [t for _, _, t, _ in _chapters(text)[1]] == heads


def _web_page_text(titles: list[str], sub: str = "2.1.1.1.1. option¶") -> str:
    """A web page of a Sphinx manual as an HTML-to-text extractor gives it: the site's chrome
    first, each heading glued to the text below it and ending in its permalink sign."""
    text = "Navigation\n\n  • Home »\n  • Manuals »\n\nThe Widget Manual¶\n\nA. Writer\n\n"
    for n, title in enumerate(titles, 1):
        text += f"{n}. {title}¶\n{_body(2)}\n\n{n}.1. More on it¶\n{_body(2)}\n\n"
        if n == 2:
            text += f"{sub}\n{_body(1)}\n\n"
    return text


def test_a_line_ending_in_a_permalink_sign_is_a_heading_and_the_pages_title_is_the_first_one():
    titles = ["Getting Started", "Moving to Version 3", "Source Packages"]
    expected = [("front", "", "The Widget Manual", "The Widget Manual¶")] + [
        ("chapter", str(n), t, f"{n}. {t}¶") for n, t in enumerate(titles, 1)
    ]
    _assert_starts(_web_page_text(titles), expected)


def test_a_pilcrow_after_a_space_is_no_permalink():
    text = "Notes on style\n\n" + "".join(f"Rule {n} of the house ¶\n{_body(2)}\n\n" for n in range(4))
    _, found = _chapters(text)
    assert all(not t.startswith("Rule") for _, _, t, _ in found)


def test_a_headerless_bulleted_contents_says_which_bare_lines_are_the_chapters():
    """A text browser renders a page's table of contents (a list of links with no heading) as
    bullets, the sections indented, and every heading as a bare line: the list's top-level
    items are the chapters, its nested items the sections, and it opens no unit of its own."""
    titles = ["Introduction", "Using the tool", "Writing input files"]
    toc = "".join(f"* {t}\n\n  * First topic of {t}\n  * Second topic of {t}\n\n" for t in titles)
    text = f"The Tool Manual\n\n The Tool Manual\n\n{toc}"
    for t in titles:
        text += f" {t}\n\n{_body(2)}\n\n First topic of {t}\n\n{_body(2)}\n\n Second topic of {t}\n\n{_body(2)}\n\n"
    _, found = _chapters(text)
    assert [(k, t) for k, _, t, _ in found] == [("front", "The Tool Manual")] + [
        ("chapter", t) for t in titles
    ]


def test_a_numbered_heading_standing_alone_may_end_in_a_number_of_its_title():
    """``3. Upgrading from Release 2`` alone on its line is chapter 3, not a contents line with
    its page number: missing it would break the run and lose chapters 4 and 5 too."""
    titles = [
        "Getting Started",
        "Binary Packages",
        "Upgrading from Release 2",
        "Control Files",
        "Version Numbering",
    ]
    text = "".join(f"{n}.\u00a0{t}\n\n{_body(3)}\n\n" for n, t in enumerate(titles, 1))
    _assert_starts(text, [("chapter", str(n), t, f"{n}.\u00a0{t}") for n, t in enumerate(titles, 1)])


def test_a_contents_header_set_right_under_a_paragraph_is_still_the_contents():
    """A word processor's text export leaves no blank line between paragraphs: ``Table of
    Contents`` follows the copyright notice's last line directly; its unnumbered first entry
    is the preface, placed on its bare line."""
    titles = ["Purposes and Goals", "Overview of the Interface", "Internal Data Structures"]
    entries = "".join(f"\t{n}. {t}\n" for n, t in enumerate(titles, 1))
    text = (
        "The Interface\n\n\nCopyright 1993 Some Corporation. All rights reserved, every one of them.\n"
        f"Table of Contents\n\tAbout This Interface\n{entries}\n"
        f"About This Interface\n\n{_body(2)}\n\n"
        + "".join(f"{n}. {t}\n\n{_body(3)}\n\n" for n, t in enumerate(titles, 1))
    )
    _, found = _chapters(text)
    assert [(k, t) for k, _, t, _ in found] == [
        ("front", "The Interface"),
        ("front", "Table of Contents"),
        ("front", "About This Interface"),
    ] + [("chapter", t) for t in titles]


@pytest.mark.parametrize("title", ["frob Command Manual", "qux User's Guide"])
def test_a_title_opening_with_a_programs_name_in_small_letters_is_the_title(title):
    text = f"{title}\n\n" + "".join(f"{n}. {t}\n\n{_body(3)}\n\n" for n, t in enumerate(TITLES[:3], 1))
    _, found = _chapters(text)
    assert found[0][:3] == ("front", "", title)


def test_a_centred_title_at_the_top_in_small_letters_is_the_title():
    """A title page centres the book's title over a flush version line: all in small letters
    (a program's name first), its place still marks it as the title."""
    text = f"{' ' * 28}frob user's manual\n\nVersion 1.2\n\n{_body(1)}\n\n"
    text += "".join(f"{n}. {t}\n\n{_body(3)}\n\n" for n, t in enumerate(TITLES[:3], 1))
    _, found = _chapters(text)
    assert found[0][:3] == ("front", "", "frob user's manual")


def test_a_run_of_chapter_numbers_may_open_at_two_where_the_text_lost_chapter_one():
    """A boilerplate remover drops a page's first heading with its lead paragraph: the chapters
    run 2, 3, 4, 5 and are still the chapters; their ``N.M`` sections stay sections."""
    text = f"{_body(2)}\n\n" + "".join(
        f"{n} {t}\n\n{_body(2)}\n\n{n}.1 First part\n\n{_body(2)}\n\n" for n, t in enumerate(TITLES[1:], 2)
    )
    _assert_starts(text, [("chapter", str(n), t, f"{n} {t}") for n, t in enumerate(TITLES[1:], 2)])


def test_two_numbered_lines_opening_at_two_are_no_run_of_chapters():
    text = "Getting Started\n===============\n\n" + _body(2) + "\n\n2 Binary Packages\n\n" + _body(2)
    text += "\n\n3 Source Packages\n\n" + _body(2) + "\n"
    _, found = _chapters(text)
    assert not [t for k, _, t, _ in found if k == "chapter" and t in ("Binary Packages", "Source Packages")]


def _reference_page(command: str, what: str, dash: str = "—") -> str:
    return (
        f"Name\n\n   {command} {dash} {what}\n\nSynopsis\n\n   {command} [options...] files...\n\n"
        f"Description\n\n{_body(2, '   ')}\n\nOptions\n\n   --help\n\n   Print a usage message.\n\n"
    )


@pytest.mark.parametrize("hyphen,dash", [("-", "—"), ("\u2212", "-")])
def test_reference_pages_after_the_chapters_are_chapter_level_units_titled_by_their_command(hyphen, dash):
    """A manual whose last part is a command reference printed as text (``Name`` over
    ``cmd — what it does``, then ``Synopsis``…): each reference page opens a unit. troff's
    hyphens may come out as minus signs."""
    text = "".join(f"Chapter {n}. {title}\n\n{_body(2, '   ')}\n\n" for n, title in enumerate(TITLES[:2], 1))
    text += _reference_page("pkgtool", "install and remove packages", dash)
    text += _reference_page(f"pkgtool{hyphen}bundle", "bundle the package state", dash)
    _assert_starts(
        text,
        [
            ("chapter", "1", TITLES[0], f"Chapter 1. {TITLES[0]}"),
            ("chapter", "2", TITLES[1], f"Chapter 2. {TITLES[1]}"),
            ("chapter", "", "pkgtool", "Name"),
            ("chapter", "", f"pkgtool{hyphen}bundle", "Name"),
        ],
    )


def test_a_single_reference_page_opens_no_unit_of_its_own():
    text = "".join(f"Chapter {n}. {title}\n\n{_body(2, '   ')}\n\n" for n, title in enumerate(TITLES[:2], 1))
    text += _reference_page("pkgtool", "install and remove packages")
    _, found = _chapters(text)
    assert [t for _, _, t, _ in found] == TITLES[:2]


@pytest.mark.parametrize(("parent", "is_chapter"), [("Top", True), ("Widget basics", False)])
def test_an_unnumbered_node_up_to_the_top_node_between_numbered_chapters_is_a_chapter(parent, is_chapter):
    """A Texinfo dump's nodes each say their parent on the navigation line above them: one whose
    parent is the top node, between numbered chapters, is an unnumbered chapter (a licence, its
    version on the line under its title); one whose parent is a chapter is a section's text."""
    text = "Widgets: a manual\n\n"
    nodes = [("1", TITLES[0], "Top"), ("2", TITLES[1], "Top"), ("", "Copying Conditions", parent),
             ("3", TITLES[2], "Top")]
    for n, title, up in nodes:
        text += f"\nNext: Elsewhere, Previous: Before, Up: {up}   [Contents][Index]\n\n"
        under = "Version 3, 29 June 2007\n" if not n else "\n"
        text += f"{f'{n} ' if n else ''}{title}\n{under}\n{_body(2)}\n"
    found = [(k, n, t) for k, n, t, _ in _chapters(text)[1]]
    assert [n for k, n, _ in found if k == "chapter" and n] == ["1", "2", "3"]
    assert ("Copying Conditions" in [t for _, _, t in found]) is is_chapter


# --- a heading over its own contents (a DocBook or Texinfo dump's chapter contents) (issue 22) ---


def _own_contents(heading: str, sections: list[str], rule: str = "") -> str:
    """``heading`` centred over its own contents (``Table of Contents`` and its sections, a blank
    line after each), then a paragraph and each section standing alone over its text."""
    text = f"{' ' * 25}{heading}\n{rule}\nTable of Contents\n\n" + "".join(f"{s}\n\n" for s in sections)
    text += _body(1) + "\n\n"
    return text + "".join(f"{s}\n\n{_body(2)}\n\n" for s in sections)


def test_a_heading_over_its_own_contents_is_a_unit_and_its_entries_are_its_sections():
    """The book's contents lists flat an unnumbered ``Introduction`` and its sections before
    ``1. Title``, then each chapter with its sections; every heading in the text opens with its
    own contents (its name again right under it, listing the sections that follow): the heading
    is a unit, the entries its sections, the own contents no unit of its own."""
    intro = ["About this manual", "Getting help"]
    chapters = {t: [f"{s} {t.split()[0].lower()}" for s in ("Using", "Tuning")] for t in TITLES[:3]}
    text = "Table of Contents\n\nIntroduction\n\n" + "".join(f"{s}\n\n" for s in intro)
    for n, (title, sections) in enumerate(chapters.items(), 1):
        text += f"{n}. {title}\n\n" + "".join(f"{s}\n\n" for s in sections)
    text += _own_contents("Introduction", intro)
    for n, (title, sections) in enumerate(chapters.items(), 1):
        text += _own_contents(f"Chapter\u00a0{n}. {title}", sections)
    _assert_starts(
        text,
        [
            ("front", "", "Table of Contents", "Table of Contents"),
            ("front", "", "Introduction", "Introduction"),
            *[("chapter", str(n), t, f"Chapter\u00a0{n}. {t}") for n, t in enumerate(chapters, 1)],
        ],
    )
    book = load_book(text.encode(), name="x.txt")
    assert [h.title for h in book.headings if h.kind == "section"] == intro + [
        s for sections in chapters.values() for s in sections
    ]


def test_a_heading_over_its_own_contents_of_reference_pages_is_their_part():
    """After the chapters, a heading whose own contents (under a rule) lists reference pages
    that open by their own ``Name`` lines groups them: a part."""
    text = "Table of Contents\n\n" + "".join(f"{n}. {t}\n\n" for n, t in enumerate(TITLES[:2], 1))
    text += "Command Reference\n\n"
    text += "".join(f"Chapter {n}. {title}\n\n{_body(2, '   ')}\n\n" for n, title in enumerate(TITLES[:2], 1))
    pages = [("pkgtool", "install and remove packages"), ("pkgtool-bundle", "bundle the package state")]
    text += " " * 25 + "Command Reference\n" + "=" * 60 + "\nTable of Contents\n\n"
    text += "".join(f"{c} — {w}\n\n" for c, w in pages)
    text += "".join(_reference_page(c, w) for c, w in pages)
    _assert_starts(
        text,
        [
            ("front", "", "Table of Contents", "Table of Contents"),
            ("chapter", "1", TITLES[0], f"Chapter 1. {TITLES[0]}"),
            ("chapter", "2", TITLES[1], f"Chapter 2. {TITLES[1]}"),
            ("part", "", "Command Reference", "Command Reference"),
            ("chapter", "", "pkgtool", "Name"),
            ("chapter", "", "pkgtool-bundle", "Name"),
        ],
    )
