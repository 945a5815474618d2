"""Markdown headings as CommonMark reads them (issue 23): ATX and setext, at exact offsets, never
in code, quotes, lists or front matter; the line-skipping speed-up never changes the answer."""

from __future__ import annotations

import random

import pytest

from markdown_it import MarkdownIt

from chunking.ingest import load_book
from chunking.readers import read_raw
from chunking.readers.markdown import (
    _front_matter_lines,
    rendered_text,
    markdown_headings,
    setext_title_apart,
)


def para(i: int, words: int = 50) -> str:
    """A paragraph hard-wrapped at about 70 characters, as Markdown books are written."""
    text = f"Paragraph {i} " + " ".join(f"w{i}x{j}" for j in range(words)) + "."
    lines, line = [], ""
    for word in text.split():
        if len(line) + len(word) > 70:
            lines.append(line)
            line = ""
        line = f"{line} {word}".strip()
    return "\n".join([*lines, line])


def test_setext_and_atx_headings_become_outline_entries_at_exact_offsets():
    body = "\n\n".join(para(i) for i in range(12))
    md = (
        f"User Guide\n==========\n\nIntro.\n\nInstalling\n----------\n\n{body}\n\n"
        f"## Configuring ##\n\n{body}\n\n  Reference\n  Manual\n===\n\nEnd.\n"
    )
    book = read_raw(md.encode(), "guide.md")
    got = [(e.level, e.title, book.pages[e.page - 1].text[e.offset :].split("\n")[0]) for e in book.outline]
    assert got == [
        (1, "User Guide", "User Guide"),
        (2, "Installing", "Installing"),
        (2, "Configuring", "## Configuring ##"),
        (1, "Reference Manual", "Reference"),  # a setext heading may span lines
    ]
    assert book.outline[-1].page > book.outline[2].page > 1
    offsets = [offset for offset, _, _ in markdown_headings(md)]
    assert [md[o:].split("\n")[0] for o in offsets] == [
        "User Guide",
        "Installing",
        "## Configuring ##",
        "Reference",
    ]


def test_a_setext_title_over_atx_chapters_is_the_title_and_its_setext_heading_a_chapter():
    body = "\n\n".join(para(i) for i in range(12))
    md = (
        f"Widget Kit\n==========\n\n{para(0)}\n\n#### Note:\n\n- one\n- two\n\n"
        f"Setup\n-----\n\n{body}\n\n# Usage\n\n{body}\n\n## Options\n\n{body}\n\n"
        f"# Reference\n\n{body}\n"
    )
    book = load_book(md.encode(), name="kit.md")
    units = [(h.kind, h.title) for h in book.headings if h.kind != "section"]
    assert units == [
        ("front", "Widget Kit"),
        ("chapter", "Setup"),
        ("chapter", "Usage"),
        ("chapter", "Reference"),
    ]
    # NOTE: one syntax for both top levels keeps them as CommonMark levels them
    same = "Widget Kit\n==========\n\nText.\n\nSetup\n-----\n\nText.\n\nUsage\n=====\n\nText.\n"
    assert [level for _, level, _ in markdown_headings(same)] == [1, 2, 1]


def test_headings_in_code_quotes_lists_and_front_matter_are_not_the_books_but_its_title_is():
    md = (
        "---\ntitle: Front matter\nauthor: nobody\n---\n\n"
        "Real\n====\n\n"
        "```bash\n# a shell comment\nNot a title\n===\n```\n\n"
        "~~~~\n# no\n~~~\n## still inside\n~~~~\n\n"
        "    # indented code\n\n"
        "> # Quoted heading\n\n"
        "- # Listed heading\n\n"
        "#hashtag\n\n#\n\n"
        "Real too\n--------\n\n"
        "```\n# an unclosed fence runs to the end\nAlso not\n---\n"
    )
    assert [(level, title) for _, level, title in markdown_headings(md)] == [
        (1, "Front matter"),  # the title page: the front matter's own title, at its start
        (1, "Real"),
        (2, "Real too"),
    ]
    book = read_raw(md.encode(), "code.md")
    assert [e.title for e in book.outline] == ["Front matter", "Real", "Real too"]


def test_a_rule_opening_the_book_is_not_front_matter():
    md = "---\n\nBook Title\n==========\n\nText.\n\n---\n\nMore.\n"
    assert [(level, title) for _, level, title in markdown_headings(md)] == [(1, "Book Title")]
    md = "+++\ntitle = 'TOML'\n+++\n\nStart\n=====\n"
    assert [(level, title) for _, level, title in markdown_headings(md)] == [(1, "TOML"), (1, "Start")]


def test_front_matter_without_a_title_adds_no_heading_and_pandoc_attributes_are_no_part_of_a_title():
    md = "---\nauthor: nobody\noutput: html_vignette\n---\n\n# Usage {#usage .unnumbered}\n\nText.\n"
    assert [(level, title) for _, level, title in markdown_headings(md)] == [(1, "Usage")]


def test_a_dash_line_under_a_paragraph_is_a_setext_heading_as_commonmark_says():
    md = "Lead paragraph.\n\nA line\n---\n\nText.\n\n---\n\nAfter a rule.\n"
    assert markdown_headings(md) == [(17, 2, "A line")]


def test_setext_chapters_are_the_books_structure():
    body = "\n\n".join(para(i) for i in range(6))
    md = f"Chapter One\n===========\n\n{body}\n\nA Section\n---------\n\n{body}\n\nChapter Two\n===========\n\n{body}\n"
    book = load_book(md.encode(), name="setext.md")
    assert [(h.level, h.kind, h.title, h.source) for h in book.headings] == [
        (1, "chapter", "Chapter One", "markdown"),
        (2, "section", "A Section", "markdown"),
        (1, "chapter", "Chapter Two", "markdown"),
    ]
    for h in book.headings:
        assert book.text[h.char_offset :].startswith(h.title)


_FULL = MarkdownIt("commonmark").disable(["inline", "text_join"])

TRICKY_LINES = [
    "",
    "",
    "Plain words here",
    "more plain words",
    "  indented plain",
    "   three in",
    "    code four",
    "\tTab",
    "# Atx",
    "## Atx two ##",
    "===",
    "---",
    "- item",
    "  - nested",
    "* star",
    "1. one",
    "2) two",
    "> quote",
    "> # quoted",
    "```",
    "~~~",
    "```py",
    "<div>",
    "</div>",
    "<!-- comment",
    "end -->",
    "<script>",
    "</script>",
    "[ref]: /url",
    "[multi",
    "line]: /u",
    "'title'",
    "***",
    "Setext?",
    "  lazy words",
    "+ plus",
    "<pre>",
    "</pre>",
    "words <b>",
    "Word [link]",
    "_ _ _",
    "Ünïcode words",
    "  ===",
]


def _reference(text: str) -> list[tuple[int, int, str]]:
    """The headings of markdown-it's parse of every line (no line skipped)."""
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    front = _front_matter_lines(lines)
    tokens = _FULL.parse("\n".join([""] * front + lines[front:]))
    found, marks = [], []
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and token.level == 0 and token.map:
            title = rendered_text(" ".join(tokens[i + 1].content.split()))  # the same inline reading
            line = lines[token.map[0]]
            if title:
                found.append(
                    (starts[token.map[0]] + len(line) - len(line.lstrip(" \t")), int(token.tag[1]), title)
                )
                marks.append(token.markup[:1])
    return setext_title_apart(found, marks)  # the same levels read from the same syntaxes


def test_skipping_plain_lines_never_changes_the_headings():
    rng = random.Random(23)
    for _ in range(3000):
        text = "\n".join(rng.choice(TRICKY_LINES) for _ in range(rng.randint(1, 30)))
        assert markdown_headings(text) == _reference(text), text


@pytest.mark.parametrize(
    "source,title",
    [
        ("# 1\\. Overview of the Tool", "1. Overview of the Tool"),  # a backslash escape
        ("## The `--strict` option", "The --strict option"),  # a code span
        ("## *Very* **bold** &amp; [linked](https://example.org)", "Very bold & linked"),
        ("## A <span>tagged</span> title", "A tagged title"),  # inline HTML
        ("## Plain title", "Plain title"),
        # a PDF converter's wrapped heading: each line a bold run, the word broken at a hyphen
        ("## **2 Writing widget configura-** **tions**", "2 Writing widget configurations"),
        ("## **Pre-** **and post-processing**", "Pre- and post-processing"),  # a suspended hyphen
        ("## **Input-** **Output**", "Input- Output"),  # a capital: two words
    ],
)
def test_a_heading_title_is_read_as_the_page_shows_it(source, title):
    assert markdown_headings(f"{source}\n\nSome text.\n") == [(0, int(source.count("#", 0, 2)), title)]


def test_an_escaped_chapter_number_numbers_the_chapter():
    book = load_book(b"# 1\\. Overview\n\nText.\n\n# 2\\. Details\n\nMore text.\n", name="x.md")
    assert [(h.kind, h.number, h.title) for h in book.headings] == [
        ("chapter", "1", "Overview"),
        ("chapter", "2", "Details"),
    ]


def test_a_heading_title_ending_in_a_number_keeps_its_chapter_number():
    """A Markdown heading is no contents line: ``## 2 Using HTTP 2`` is chapter 2 titled ``Using
    HTTP 2``, as its siblings are chapters, not front matter for want of a number."""
    body = "\n\n".join(para(i) for i in range(3))
    titles = ["Topic 1", "Using HTTP 2", "Last chapter"]
    md = f"# Guide\n\n{body}\n\n" + "".join(f"## {n} {t}\n\n{body}\n\n" for n, t in enumerate(titles, 1))
    book = load_book(md.encode(), name="guide.md")
    assert [(h.kind, h.number, h.title) for h in book.headings if h.level == 1][1:] == [
        ("chapter", str(n), t) for n, t in enumerate(titles, 1)
    ]


def test_a_page_title_line_over_the_same_words_as_the_first_heading_is_that_heading_the_documents_title():
    """A converted web page writes its ``<title>`` as a bare first line above its ``<h1>``: the
    ``=`` heading is the document's title, and the ``-`` headings under it its chapters."""
    body = "\n\n".join(para(i) for i in range(4))
    md = "How to Use the Widget\n\n\n\nHow to Use the Widget\n=====================\n\n" + "".join(
        f"[{n} Part {n} of the guide](#id{n})\n{'-' * 30}\n\n{body}\n\n" for n in (1, 2, 3)
    )
    book = load_book(md.encode(), name="page.md")
    top = [(h.kind, h.title) for h in book.headings if h.level == 1]
    assert top == [("front", "How to Use the Widget")] + [
        ("chapter", f"Part {n} of the guide") for n in (1, 2, 3)
    ]


def test_a_contents_heading_set_deeper_than_the_chapters_before_the_first_of_them_is_a_front_unit():
    """A converter that guesses heading depth from type size writes the contents' heading as
    ``###`` under the ``#`` title and above the ``##`` chapters: there is no chapter for it to be
    a section of, so it is front matter at chapter level; a ``###`` under a chapter stays a
    section, whatever its name."""
    body = "\n\n".join(para(i) for i in range(4))
    chapters = "".join(f"## Chapter title {n}\n\n{body}\n\n### Contents\n\n{body}\n\n" for n in (1, 2, 3))
    md = f"# The Manual\n\n{body}\n\n### Table of Contents\n\nChapter title 1 ... 2\n\n{chapters}"
    book = load_book(md.encode(), name="manual.md")
    got = [(h.level, h.kind, h.title) for h in book.headings]
    assert got[:3] == [
        (1, "front", "The Manual"),
        (1, "front", "Table of Contents"),
        (1, "chapter", "Chapter title 1"),
    ]
    assert got[3] == (2, "section", "Contents")


def _converted_page(header: str, entries: int) -> str:
    """A web page converted to Markdown: the site's menu, the page title as a bare line, a
    contents box (``header`` over ``entries`` of the headings as bare paragraphs), then the
    ``#`` chapters."""
    body = "\n\n".join(para(i) for i in range(4))
    titles = [f"{n}\\. Chapter title {n}" for n in (1, 2, 3, 4)]
    menu = "  * [Home](index.html)\n  * [Download](download.html)\n\nSearch the documentation\n\n"
    listed = "".join(f"{t}\n\n" for t in titles[:entries])
    return f"{menu}The Widget Manual\n\n{header}\n\n{listed}" + "".join(
        f"# {t}\n\n{body}\n\n" for t in titles
    )


def test_a_contents_box_above_the_first_heading_is_a_front_unit_under_the_page_title():
    book = load_book(_converted_page("► Table Of Contents", 4).encode(), name="page.md")
    top = [(h.kind, h.title) for h in book.headings if h.level == 1]
    assert top[:2] == [("front", "The Widget Manual"), ("front", "Table Of Contents")]
    assert [kind for kind, _ in top[2:]] == ["chapter"] * 4
    assert book.text[book.headings[1].char_offset :].startswith("► Table Of Contents")


@pytest.mark.parametrize(("header", "entries"), [("Related pages", 4), ("Table Of Contents", 2)])
def test_no_contents_unit_without_a_contents_header_over_the_books_own_headings(header, entries):
    book = load_book(_converted_page(header, entries).encode(), name="page.md")
    assert [h.kind for h in book.headings if h.level == 1] == ["chapter"] * 4


def test_an_atx_heading_after_empty_anchors_on_its_line_is_a_heading_starting_at_the_first_anchor():
    """A word-processor converter sets each bookmark as an empty anchor before the heading's
    ``#`` (and more after its title); CommonMark alone reads such a line as a paragraph."""
    body = "\n\n".join(para(i) for i in range(3))
    md = (
        f'<a id="usage"></a># Usage\n\n{body}\n\n'
        f'<a id="opts"></a><a name="o2"></a>## Options<a id="flags"></a>\n\n{body}\n\n'
        f'<span id="faq"></span># Questions\n\n{body}\n\n'
        f'<a id="x"></a>#hashtag is no heading\n\n{body}\n'
    )
    got = markdown_headings(md)
    assert [(level, title) for _, level, title in got] == [(1, "Usage"), (2, "Options"), (1, "Questions")]
    assert [md[offset:].split("\n")[0][:8] for offset, _, _ in got] == ['<a id="u', '<a id="o', "<span id"]


@pytest.mark.parametrize("title", ["macOS Setup Guide", "iOS Deployment Guide"])
def test_a_title_line_opening_with_a_camel_case_name_is_the_documents_title(title):
    body = "\n\n".join(para(i) for i in range(4))
    md = f"{title}\n\nA. N. Author\n\n{body}\n\n" + "".join(f"# Chapter {n}\n\n{body}\n\n" for n in (1, 2, 3))
    book = load_book(md.encode(), name="doc.md")
    assert [(h.kind, h.title) for h in book.headings][0] == ("front", title)


def test_a_converted_pages_title_and_top_node_over_its_numbered_chapters_are_front_matter():
    """A converted manual sets its title and its top node (version, copyright) as ``#`` and its
    chapters ``## 1 …`` to ``## 4 …`` under them, sections ``### 1.1``: the numbered run is the
    chapters; the ``#`` entries before them are front matter, and the front matter block's title,
    which the first heading repeats, is no second unit."""
    body = "\n\n".join(para(i) for i in range(3))
    names = ["Setup", "Usage", "Tuning", "Support"]
    chapters = "".join(
        f"## {n} {t}\n\n{body}\n\n### {n}.1 Detail\n\n{body}\n\n" for n, t in enumerate(names, 1)
    )
    md = f"---\ntitle: The Manual\n---\n\n# The Manual\n\n# Version\n\nCopyright.\n\n{chapters}## Index\n\n{body}\n"
    book = load_book(md.encode(), name="manual.md")
    top = [(h.kind, h.title) for h in book.headings if h.level == 1]
    assert top == [("front", "The Manual"), ("front", "Version")] + [("chapter", t) for t in names] + [
        ("back", "Index")
    ]


def _titled_page(contents: str) -> str:
    """A converted page whose title is its first heading, then the author, the abstract and
    ``contents`` in plain text, then the chapters at the title's depth, each with sections."""
    body = "\n\n".join(para(i) for i in range(3))
    chapters = "".join(
        f"## Chapter title {n}\n\n{body}\n\n### Section {n}.1 words\n\n{body}\n\n" for n in (1, 2, 3, 4)
    )
    return f"## The Widget Manual\n\n### A. N. Author\n\n**Abstract**\n\nWhat it is about.\n\n{contents}\n\n{chapters}"


def test_a_bold_contents_under_the_title_heading_is_a_front_unit_before_the_first_chapter():
    listed = "".join(f"*[Chapter title {n}][{n}]*\n  *[Section {n}.1 words][{n}1]*\n" for n in (1, 2, 3, 4))
    book = load_book(_titled_page(f"**Table of Contents**\n\n{listed}").encode(), name="page.md")
    top = [(h.kind, h.title) for h in book.headings if h.level == 1]
    assert top[1] == ("front", "Table of Contents")
    assert [title for _, title in top[2:]] == [f"Chapter title {n}" for n in (1, 2, 3, 4)]
    contents = next(h for h in book.headings if h.title == "Table of Contents")
    assert book.text[contents.char_offset :].startswith("**Table of Contents**")


def test_a_chapters_own_contents_of_its_sections_makes_no_front_unit():
    body = "\n\n".join(para(i) for i in range(3))
    own = "**Contents**\n\n" + "".join(f"*[Part {k} of it][{k}]*\n" for k in (1, 2, 3))
    sections = "".join(f"### Part {k} of it\n\n{body}\n\n" for k in (1, 2, 3))
    md = f"## Chapter one\n\n{own}\n\n{sections}## Chapter two\n\n{body}\n\n## Chapter three\n\n{body}\n"
    book = load_book(md.encode(), name="page.md")
    assert [h.title for h in book.headings if h.level == 1] == ["Chapter one", "Chapter two", "Chapter three"]


def test_a_front_matter_title_folded_over_lines_is_read_whole_and_as_rendered():
    """YAML folds a long quoted title over indented lines (``title: "Building`` … ``Tools"``);
    its links read as their text. A quote that never closes gives no title."""
    folded = '---\nauthor: A. Writer\ntitle: "Building\n  [Widget](https://example.org/widget)\n  Tools"\n---\n\nText.\n\n# One\n\nMore.\n'
    assert [(lv, t) for _, lv, t in markdown_headings(folded)] == [(1, "Building Widget Tools"), (1, "One")]
    broken = '---\ntitle: "Building\ndate: 2022\n---\n\nText.\n\n# One\n\nMore.\n'
    assert [t for _, _, t in markdown_headings(broken)] == ["One"]


@pytest.mark.parametrize(
    ("source", "title"),
    [
        (
            '# <a href="#toc-entry-1" class="toc-backref">Running the\nwhole suite</a>\n',
            "Running the whole suite",
        ),
        ('# <a href="https://example.org/"\nclass="reference external">Widget</a> Tools\n', "Widget Tools"),
    ],
)
def test_a_heading_whose_raw_html_link_a_converter_wrapped_runs_on_to_where_the_link_closes(source, title):
    assert [t for _, _, t in markdown_headings(f"{source}\nText.\n")] == [title]


def test_a_heading_leaving_a_tag_open_before_a_blank_line_is_read_as_commonmark_reads_it():
    assert [t for _, _, t in markdown_headings('# Use <a href="x"\n\nclass="y">more</a>\n')] == [
        'Use <a href="x"'
    ]


def test_a_contents_of_wrapped_raw_html_links_under_a_title_heading_after_front_matter_is_a_front_unit():
    """A page converted to Markdown keeps its contents box as a bare ``Contents`` line over a list
    of raw HTML links, each wrapped over two lines, under its title heading; front matter and a
    site header stand above that heading."""
    body = "\n\n".join(para(i) for i in range(3))
    names = [f"Chapter title {n}" for n in (1, 2, 3, 4)]
    listed = "".join(
        f'- <a href="#c{n}" id="toc-entry-{n}"\n  class="reference internal">{name}</a>\n'
        for n, name in enumerate(names)
    )
    chapters = "".join(
        f'# <a href="#toc-entry-{n}" class="toc-backref">{name}</a>\n\n{body}\n\n'
        for n, name in enumerate(names)
    )
    md = (
        "---\ntitle: The Widget Manual\n---\n\n"
        '<div class="header">\n\n<a href="https://example.org">Home</a> \\|\n<a href="../index.html">Overview</a>\n\n</div>\n\n'
        f"# The Widget Manual\n\n{para(9)}\n\nContents\n\n{listed}\n{para(8)}\n\n{chapters}"
    )
    book = load_book(md.encode(), name="page.md")
    top = [(h.kind, h.title) for h in book.headings if h.level == 1]
    assert [title for _, title in top] == ["The Widget Manual", "Contents", *names]
    assert top[1] == ("front", "Contents")
