"""Chinese and Japanese headings (``chunking.structure.kinds``): caseless titles, Chinese numerals,
``第…章`` / ``附录`` labels and ``一、`` numbering, read in generated PDF and text books.

A caseless script has no capital to start a title with and no spaces between words, so the title
test, the numbering and the labels are the book's own (issue 22: signals true of books in
general, not of books in English)."""

from __future__ import annotations

import pytest
from pdf_factory import Text, make_pdf

from chunking.ingest import load_book
from chunking.structure.kinds import number_value, parse_heading, title_like

BODY = "这是正文的一行，讲述本章所说的内容，并且足够长，像真正的书那样。"
TITLES = ["总则", "论文的一般格式", "印刷格式与装订", "提交与存档"]


@pytest.mark.parametrize(
    "numeral, value",
    [("一", 1), ("九", 9), ("十", 10), ("十二", 12), ("二十", 20), ("二十一", 21), ("一百零五", 105)],
)
def test_chinese_numerals_give_their_value(numeral, value):
    assert number_value(numeral) == value


@pytest.mark.parametrize(
    "line, kind, number, title",
    [
        ("第三章 总则", "chapter", "3", "总则"),
        ("第十二章　图形", "chapter", "12", "图形"),  # ideographic space
        ("第2章 安装", "chapter", "2", "安装"),
        ("第一部分 基础知识", "part", "1", "基础知识"),
        ("第二篇", "part", "2", ""),
        ("一、学位论文的一般格式", "numbered", "1", "学位论文的一般格式"),
        ("附录A 术语表", "appendix", "A", "术语表"),
        ("附件二：", "appendix", "2", ""),
        ("参考文献", "back", "", "参考文献"),
        ("前言", "front", "", "前言"),
    ],
)
def test_chinese_heading_forms_parse_to_kind_number_and_title(line, kind, number, title):
    parsed = parse_heading(line)
    assert parsed is not None
    assert (parsed.kind, parsed.number, parsed.title) == (kind, number, title)


@pytest.mark.parametrize(
    "line",
    [
        "这是一个句子，它说明了一件事情。",  # ends with a full stop
        "本规定适用于所有在校研究生撰写的学位论文以及与之相关的各类材料和其他文件的格式要求",  # too long
        "（一）论文题目",  # a second-level heading, not numbered with a bare numeral
    ],
)
def test_chinese_sentences_and_subheadings_are_not_chapter_headings(line):
    parsed = parse_heading(line)
    assert parsed is None or parsed.kind not in ("chapter", "numbered", "part", "appendix")


def test_a_caseless_title_is_title_like_and_an_english_lower_case_line_is_not():
    assert title_like("论文的一般格式")
    assert not title_like("lower case words are no title")


def _pdf_book(numbering: str) -> tuple[bytes, list[tuple[str, str, str, int]]]:
    """Chapters opening mid-page and at page tops, each with a 14 pt sub-heading and a body-size
    enumerated list whose items begin like chapter numbers (``二、``) but are set at body size."""
    pages: list[list] = []
    expected = []
    lines: list = []
    for n, title in enumerate(TITLES, 1):
        numeral = "一二三四"[n - 1]
        head = f"{numeral}、{title}" if numbering == "numbered" else f"第{numeral}章 {title}"
        if n % 2 == 1 and lines:
            pages.append(lines)
            lines = []
        expected.append(("chapter", str(n), title, len(pages) + 1))
        lines.append(Text(head, 16, font="china-s", space_before=12))
        lines.append(Text("（一）概述", 14, font="china-s", space_before=6))
        lines += [Text(BODY, 10.5, font="china-s") for _ in range(6)]
        lines.append(Text("二、列表中的一项内容", 10.5, font="china-s"))
        lines += [Text(BODY, 10.5, font="china-s") for _ in range(6)]
    pages.append(lines)
    return make_pdf(pages), expected


@pytest.mark.parametrize("numbering", ["numbered", "labelled"])
def test_chinese_pdf_chapters_are_found_by_their_numbering_and_size(numbering):
    pdf, expected = _pdf_book(numbering)
    book = load_book(pdf, name="x.pdf")
    found = [
        (h.kind, h.number, h.title, h.page)
        for h in book.headings
        if h.kind in ("chapter", "part", "appendix")
    ]
    assert found == expected
    for h in book.headings:
        if h.kind == "chapter":
            assert book.text[h.char_offset :].startswith(("一二三四"[int(h.number) - 1], "第"))


def test_chinese_text_book_labels_give_chapters_and_appendices():
    text = "前言\n\n" + BODY + "\n\n"
    expected = [("front", "", "前言")]
    for n, title in enumerate(TITLES[:3], 1):
        text += f"第{'一二三'[n - 1]}章 {title}\n\n{BODY}\n{BODY}\n\n"
        expected.append(("chapter", str(n), title))
    text += f"附录A 术语表\n\n{BODY}\n\n"
    expected.append(("appendix", "A", "术语表"))
    book = load_book(text.encode(), name="x.txt")
    found = [
        (h.kind, h.number, h.title)
        for h in book.headings
        if h.kind in ("chapter", "appendix", "front", "back")
    ]
    assert found == expected
