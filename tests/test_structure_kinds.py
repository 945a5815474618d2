"""Heading vocabulary: what a line says it is (kind, number, clean title)."""

from __future__ import annotations

import pytest

from chunking.structure.kinds import Parsed, clean_title, number_value, parse_heading, title_like


@pytest.mark.parametrize("line, expected", [
    ("Chapter 12: Graphical procedures", ("chapter", "12", "Graphical procedures")),
    ("CHAPTER XII. The End", ("chapter", "XII", "The End")),
    ("Chapter Three", ("chapter", "Three", "")),
    ("Chapter twenty-one: Late", ("chapter", "twenty-one", "Late")),
    ("Part I", ("part", "I", "")),
    ("Section 2.4 Results", ("section", "2.4", "Results")),
    ("12.1. Exceptions", ("section", "12.1", "Exceptions")),
    ("12. System Operations", ("numbered", "12", "System Operations")),
    ("12 Graphical procedures", ("numbered", "12", "Graphical procedures")),
    ("3 – Further Steps", ("numbered", "3", "Further Steps")),  # a dash between the number and title
    ("4 - Reference Tables", ("numbered", "4", "Reference Tables")),
    ("7 setup.cfg Options", ("numbered", "7", "setup.cfg Options")),  # a file's name
    ("第II部 応用", ("part", "2", "応用")),  # a Japanese part numbered in roman
    ("3.2 run_tests Options", ("section", "3.2", "run_tests Options")),
    ("Appendix A", ("appendix", "A", "")),
    ("Appendix B Invoking R", ("appendix", "B", "Invoking R")),
    ("Appendix D Function and variable index", ("back", "D", "Function and variable index")),
    ("Preface", ("front", "", "Preface")),
    ("Table of Contents", ("front", "", "Table of Contents")),
    ("Bibliography", ("back", "", "Bibliography")),
    ("Concept index", ("back", "", "Concept index")),
])
def test_heading_lines_parse_into_kind_number_and_title(line, expected):
    parsed = parse_heading(line)
    assert (parsed.kind, parsed.number, parsed.title) == expected


@pytest.mark.parametrize("line", [
    "Section did not converge",        # "did" is not a roman numeral
    "Part civil war",
    "Part 2 of the report shows growth",
    "Part of the problem",
    "Chapter 15 documents the thread system",
    "Introduction",
    "1. To quit the R program, type q().",
    "5 -3 dB below the peak",  # a minus sign, not a separator
    "Chapter I. this is a sentence, not a title,",
    "3 see Figure",  # prose in small letters after a number: no program's name
    "2 setup.cfg is Read Again",
])
def test_sentences_that_look_like_headings_are_not(line):
    assert parse_heading(line) is None


@pytest.mark.parametrize("number, value", [("12", 12), ("XIV", 14), ("Three", 3), ("ONE", 1),
                                           ("twenty-one", 21), ("B", 2), ("", 0)])
def test_number_value_reads_arabic_roman_spelled_and_letters(number, value):
    assert number_value(number) == value


@pytest.mark.parametrize("raw, clean", [
    ("Alpha\t. . . . . . 12", "Alpha"),
    ("  Beta\x07 ", "Beta"),
    ("Gamma........ 7", "Gamma"),
    ("Delta   14", "Delta"),
    ("Python 3", "Python 3"),
    ("The ... argument", "The ... argument"),
    ("Installation¶", "Installation"),
    ("Preface . . . . . . . . xi", "Preface"),
])
def test_clean_title_strips_outline_junk_but_keeps_real_words(raw, clean):
    assert clean_title(raw) == clean


def test_title_like_rejects_contents_lines_and_sentences():
    assert title_like("Storage Management")
    assert not title_like("Storage Management . . . . 411")
    assert not title_like("is made of roman letters")
    assert not title_like("A sentence that ends with a full stop.")


@pytest.mark.parametrize(
    "title,clean",
    [
        ("L A TEX for authors", "LaTeX for authors"),  # the raised A apart
        ("Using L [A] TEX", "Using LaTeX"),  # marked as a superscript
        ("LATEX basics", "LATEX basics"),  # one word already
        ("PLAIN TEX", "PLAIN TEX"),
        ("LATEX 2ε for class writers", "LaTeX2ε for class writers"),  # a space before the kerned 2ε
        ("LaTeX 2 ε fonts", "LaTeX2ε fonts"),
        ("LaTeX 2 and 3", "LaTeX 2 and 3"),  # no ε: a version number
    ],
)
def test_a_split_latex_logo_in_a_title_is_one_word(title, clean):
    assert clean_title(title) == clean


@pytest.mark.parametrize(
    "title,heading",
    [
        ("Where to go from here ...", True),  # an ellipsis written as three full stops
        ("Where next…", True),
        ("Introduction ....", False),  # dot leaders
        ("Introduction . . .", False),
        ("Introduction ... 12", False),  # leaders and a page number
    ],
)
def test_an_ellipsis_closing_a_title_is_no_dot_leaders(title, heading):
    assert title_like(title) is heading


def test_a_keyword_label_closed_by_a_full_stop_may_take_a_title_in_lower_case():
    """``Chapter 2. pkgtool reference guide``: the full stop or colon after the number closes
    the label, and the title is a command's name in lower case; prose that opens with the label
    runs on without one (``Chapter 2 describes…``)."""
    assert parse_heading("Chapter 2. pkgtool reference guide") == Parsed("chapter", "2", "pkgtool reference guide")
    assert parse_heading("Appendix B: dpkg options") == Parsed("appendix", "B", "dpkg options")
    assert parse_heading("Chapter 2 describes the reference guide") is None
