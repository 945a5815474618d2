"""Org and reStructuredText sources (issue 22): their headings, as each syntax defines them, are
the book's structure, in a .txt recognised by its own syntax or in a file named .org / .rst;
nothing in a block, an indented literal or a transition is a heading."""

from __future__ import annotations

import pytest

from chunking.ingest import load_book
from chunking.readers import read_raw
from chunking.readers.markup import markup_headings
from chunking.readers.markup_org import clean_title

from test_markup_headings import body, para


def titles(text: str, suffix: str = "") -> list[tuple[int, str]]:
    return [(level, title) for _, level, title in markup_headings(text, suffix)[1]]


def org_book(
    chapters: list[str],
    stars: tuple[int, int] = (1, 2),
    header: str = "#+TITLE: A Generated Manual\n#+AUTHOR: An Author\n",
) -> str:
    parts = [f"{header}\n{para(0)}\n"]
    for c, title in enumerate(chapters):
        parts.append(
            f"{'*' * stars[0]} {title}\n\n{body()}\n\n#+BEGIN_SRC shell\n* not a headline {c}\n#+END_SRC\n\n"
            f"{'*' * stars[1]} Detail {c}\n\n{body(3)}\n"
        )
    return "\n".join(parts)


def rst_book(chapters: list[str], chapter_mark: str = "-", overline: bool = True) -> str:
    title = "A Generated Manual"
    parts = [
        f"{'=' * len(title)}\n{title}\n{'=' * len(title)}\n\n:Author: An Author\n\n.. contents::\n\n{para(0)}\n"
    ]
    for c, name in enumerate(chapters):
        adorn = chapter_mark * (len(name) + 2)
        head = f"{adorn}\n {name}\n{adorn}" if overline else f"{name}\n{chapter_mark * len(name)}"
        parts.append(
            f"{head}\n\n{body()}\n\nAn example::\n\n    Not A Title {c}\n    ===============\n\n"
            f"Detail {c}\n{'~' * 10}\n\n{body(3)}\n"
        )
    return "\n".join(parts) + "\n.. _target: https://example.org/\n"


# --- Org ---------------------------------------------------------------------------------------


def test_org_headlines_are_headings_at_their_star_level_with_the_title_at_level_zero():
    assert titles(org_book(["Installation", "Usage"])) == [
        (0, "A Generated Manual"),
        (1, "Installation"),
        (2, "Detail 0"),
        (1, "Usage"),
        (2, "Detail 1"),
    ]


def test_org_headline_offsets_are_where_the_headline_line_starts():
    text = org_book(["Installation", "Usage"])
    for offset, _, title in markup_headings(text)[1][1:]:
        assert text[offset:].split("\n", 1)[0].lstrip("* ") == title


def test_org_blocks_hold_no_headlines_whatever_their_name():
    text = (
        org_book(["One", "Two"])
        + "\n#+begin_example\n* inside an example\n#+end_example\n\n#+BEGIN: clocktable\n* dyn\n#+END:\n"
    )
    assert not any("inside" in t or "not a headline" in t or t == "dyn" for _, t in titles(text))


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("TODO Write the manual", "Write the manual"),
        ("DONE [#A] Ship it :release:urgent:", "Ship it"),
        ("Progress [2/5]", "Progress"),
        ("Progress [40%]", "Progress"),
        ("COMMENT Draft notes", "Draft notes"),
        ("See [[https://orgmode.org][the Org site]]", "See the Org site"),
        ("Using =org-drill= and ~M-x~", "Using org-drill and M-x"),
        ("Paths like /usr/share/doc stay", "Paths like /usr/share/doc stay"),
    ],
)
def test_org_titles_drop_keywords_priorities_cookies_and_tags(raw: str, clean: str):
    assert clean_title(raw, ("TODO", "DONE")) == clean


def test_org_declared_todo_keywords_are_dropped_from_titles():
    text = (
        "#+TODO: WAIT(w) NEXT | CANCELLED\n\n* WAIT Chapter one\n\n"
        + body(2)
        + "\n\n* NEXT Chapter two\n\n"
        + body(2)
    )
    assert titles(text) == [(1, "Chapter one"), (1, "Chapter two")]


def test_org_odd_levels_only_halves_the_star_count():
    text = org_book(["One", "Two"], stars=(1, 3), header="#+STARTUP: odd\n")
    assert titles(text) == [(1, "One"), (2, "Detail 0"), (1, "Two"), (2, "Detail 1")]


def test_star_bullets_without_org_keywords_are_not_org():
    text = "Shopping\n\n* milk and bread\n* eggs\n\n" + body(2) + "\n\n* another bullet\n"
    assert markup_headings(text)[0] == ""


def test_an_org_file_name_needs_no_keyword_line():
    text = "* Only chapter\n\n" + body(2)
    assert markup_headings(text, ".org") == ("org", [(0, 1, "Only chapter")])


def test_org_book_chapters_come_from_its_top_headlines():
    chapters = ["Installation", "Writing the questions", "Running a session"]
    data = org_book(chapters).encode()
    book = load_book(data, name="drill.txt")
    assert [h.title for h in book.headings if h.level == 1][-3:] == chapters
    assert {h.source for h in book.headings} == {"org"}
    assert read_raw(data, "drill.org").markup == "org"


# --- reStructuredText ---------------------------------------------------------------------------


@pytest.mark.parametrize("overline", [True, False])
def test_rst_levels_follow_the_order_adornment_styles_first_appear(overline: bool):
    assert titles(rst_book(["Admonitions", "Images"], overline=overline)) == [
        (1, "A Generated Manual"),
        (2, "Admonitions"),
        (3, "Detail 0"),
        (2, "Images"),
        (3, "Detail 1"),
    ]


def test_rst_same_character_with_and_without_overline_are_two_styles():
    text = "=====\nTitle\n=====\n\n.. note:: x\n\nOne\n===\n\n" + body(1) + "\n\nTwo\n===\n\n" + body(1)
    assert titles(text) == [(1, "Title"), (2, "One"), (2, "Two")]


def test_rst_heading_offsets_start_at_the_overline_or_the_title_line():
    text = rst_book(["Admonitions", "Images"])
    headings = markup_headings(text)[1]
    assert text[headings[0][0] :].startswith("=" * 18 + "\nA Generated Manual")
    assert text[headings[2][0] :].startswith("Detail 0\n~")


def test_rst_indented_literals_transitions_and_directives_hold_no_titles():
    text = (
        rst_book(["One", "Two"])
        + "\n\n----------\n\n"
        + body(1)
        + "\n\n.. image:: x.png\n   :alt: Alt\n   ======\n"
    )
    found = [t for _, t in titles(text)]
    assert not any(t.startswith("Not A Title") or t == ":alt: Alt" for t in found)
    assert found == ["A Generated Manual", "One", "Detail 0", "Two", "Detail 1"]


def test_rst_underline_shorter_than_its_title_counts_from_four_characters():
    text = (
        ".. comment\n.. _x: y\n\nA long title\n----\n\n"
        + body(1)
        + "\n\nAnother title\n--\n\n"
        + body(1)
        + "\n\nThird title\n----\n\n"
        + body(1)
    )
    assert [t for _, t in titles(text)] == ["A long title", "Third title"]


def test_rst_title_must_open_its_paragraph():
    text = (
        ".. note:: x\n\n"
        + "First\n=====\n\n"
        + body(1)
        + "\n\nsome words\nmore words\n==========\n\nSecond\n======\n\n"
        + body(1)
    )
    assert [t for _, t in titles(text)] == ["First", "Second"]


def test_underlined_plain_text_without_rst_markup_is_not_rst():
    text = "INTRODUCTION\n------------\n\n" + body(2) + "\n\nUSAGE\n-----\n\n" + body(2) + "\n"
    assert markup_headings(text)[0] == ""
    assert markup_headings(text, ".rst")[0] == "rst"


def test_rst_book_chapters_come_from_its_second_style_under_the_document_title():
    chapters = ["Admonitions", "Images", "Body Elements"]
    data = rst_book(chapters).encode()
    book = load_book(data, name="directives.txt")
    assert [h.title for h in book.headings if h.level == 1] == ["A Generated Manual", *chapters]
    assert [h.kind for h in book.headings if h.level == 1][0] == "front"
    assert {h.source for h in book.headings} == {"rst"}
    assert read_raw(data, "directives.rst").markup == "rst"


@pytest.mark.parametrize(
    ("source", "shown"),
    [
        ("`1. Introduction <toc.html#TOC1>`__", "1. Introduction"),
        ("`2. The ``mkconf`` Program <toc.html#TOC2>`_", "2. The mkconf Program"),
        ("Using ``cfgtool`` with *emphasis* and **strong**", "Using cfgtool with emphasis and strong"),
        ("The :code:`mkconf` role and `Other Section`_", "The mkconf role and Other Section"),
        ("Notes [1]_ on Python_", "Notes on Python"),
        ("snake_case_name and a * b", "snake_case_name and a * b"),
    ],
)
def test_rst_titles_are_read_as_docutils_shows_them_without_inline_markup(source: str, shown: str):
    text = f"{source}\n{'=' * (len(source) + 2)}\n\n{body(1)}\n\nSecond title\n{'=' * 12}\n\n{body(1)}\n"
    assert titles(text, ".rst")[0] == (1, shown)


def test_rst_chapters_written_as_links_to_their_contents_entries_keep_their_numbers():
    """A converter that writes each heading as a link back to the contents (``3. Usage
    <toc.html#TOC3>`` backquoted, then ``__``) still numbers the chapter 3, titled ``Usage``."""
    chapters = ["Introduction", "Installing", "Usage"]
    text = "".join(
        f"`{n}. {c} <toc.html#TOC{n}>`__\n{'=' * 40}\n\n{body()}\n\n" for n, c in enumerate(chapters, 1)
    )
    book = load_book(text.encode(), name="manual.rst")
    assert [(h.kind, h.number, h.title) for h in book.headings if h.level == 1] == [
        ("chapter", str(n), c) for n, c in enumerate(chapters, 1)
    ]
