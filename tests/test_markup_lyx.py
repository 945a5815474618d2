"""LyX documents (``chunking.readers.markup_lyx``): recognised by their own header whatever the
file's name, rendered line for line into the text the chunks hold, their sectioning layouts the
book's headings, numbered as LaTeX prints them; nothing in the header, a note or raw LaTeX is a
heading, and a text that only quotes LyX's syntax is not read as LyX. All sources are generated
here, as LyX 2.3 (format 544) writes them."""

from __future__ import annotations

from chunking.ingest import load_book
from chunking.readers import read_raw
from chunking.readers.markup import markup_headings, markup_source
from chunking.readers.markup_lyx import lyx_source
from test_markup_headings import para

HEADER = (
    "#LyX 2.3 created this file. For more info see http://www.lyx.org/\n\\lyxformat 544\n"
    "\\begin_document\n\\begin_header\n\\save_transient_properties true\n\\textclass {cls}\n"
    "\\begin_preamble\n\\section{{Not a heading}}\n\\begin_layout Chapter\nNor this\n\\end_layout\n"
    "\\end_preamble\n\\use_default_options true\n\\secnumdepth {depth}\n\\tocdepth 3\n"
    "\\branch Print\n\\selected 1\n\\filename_suffix 0\n\\color #faf0e6\n\\end_branch\n"
    "\\branch Draft\n\\selected 0\n\\filename_suffix 0\n\\color #faf0e6\n\\end_branch\n"
    "\\author 5863208 \"ab\"\n\\end_header\n\n\\begin_body\n\n"
)


def layout(name: str, *lines: str) -> str:
    return "\\begin_layout " + name + "\n" + "".join(line + "\n" for line in lines) + "\\end_layout\n\n"


def inset(head: str, *lines: str) -> str:
    return "\\begin_inset " + head + "\n" + "".join(line + "\n" for line in lines) + "\\end_inset\n\n"


def standard(i: int) -> str:
    """A paragraph as LyX writes it: long lines broken before a space, an emphasis switched on
    and off on lines of their own."""
    words = para(i).replace("\n", " ").split(" ")
    return layout("Standard", " ".join(words[:6]), "\\emph on", " " + " ".join(words[6:9]), "\\emph default",
                  " " + " ".join(words[9:]))  # fmt: skip


def label(name: str) -> str:
    return inset("CommandInset label", "LatexCommand label", f'name "{name}"', "")


def lyx_document(
    chapters: list[str], cls: str = "scrbook", depth: int = 3, body: str = "", tail: str = "", top: str = "Chapter"
) -> str:
    """A LyX document: the title, an author with a footnote, the contents, ``body``, the chapters
    (a section and an unnumbered subsection each), the appendix (``top`` layout) and ``tail``
    after it, a bibliography, the nomenclature and the index."""
    out = [
        HEADER.format(cls=cls, depth=depth),
        layout("Title", "The \\SpecialChar LyX", " Widget Guide"),
        layout("Author", "A.", inset("Foot", "status collapsed", "", layout("Plain Layout", "Thanks.")), " Writer"),
        layout("Standard", inset("CommandInset toc", "LatexCommand tableofcontents", "")),
        body,
    ]
    for c, name in enumerate(chapters):
        out.append(
            layout("Chapter", name, label(f"chap:{c}"), inset("Index idx", "status collapsed", "",
                                                             layout("Plain Layout", name)))  # fmt: skip
            + standard(c)
            + layout("Section", "Using ", "\\family typewriter", "widget", "\\family default", f" {c}")
            + standard(c + 1)
            + layout("Subsection*", "Unnumbered detail")
        )
    out.append(
        layout(top, "\\start_of_appendix", "Options")
        + standard(9)
        + tail
        + layout("Bibliography", inset("CommandInset bibitem", "LatexCommand bibitem", 'label "K1"', 'key "k1"',
                                       'literal "true"', ""), "Knuth: The TeXbook")  # fmt: skip
        + layout("Bibliography", inset("CommandInset bibitem", "LatexCommand bibitem", 'key "k2"', ""), "Lamport")
        + layout("Standard", inset("CommandInset nomencl_print", "LatexCommand printnomenclature", ""),
                 inset("CommandInset index_print", "LatexCommand printindex", 'type "idx"', 'name "Index of Terms"',
                       ""))  # fmt: skip
        + "\\end_body\n\\end_document\n"
    )
    return "".join(out)


def levels(text: str, suffix: str = "") -> list[tuple[int, str]]:
    return [(level, title) for _, level, title in markup_headings(text, suffix)[1]]


def test_a_lyx_document_is_known_by_its_header_whatever_its_file_name():
    text = lyx_document(["Overview", "Running"])
    for suffix in ("", ".txt", ".lyx", ".xml"):
        assert markup_source(text, suffix)[1] == "lyx"
    raw = read_raw(text.encode(), "guide.lyx")
    assert raw.markup == "lyx" and raw.format == "txt"
    assert read_raw(text.encode(), "guide.txt").markup == "lyx"


def test_lyx_sectioning_layouts_are_headings_numbered_as_latex_prints_them():
    assert levels(lyx_document(["Overview", "Running"])) == [
        (0, "The LyX Widget Guide"),  # NOTE: \begin_layout Title
        (1, "Contents"),
        (1, "1 Overview"),
        (2, "1.1 Using widget 0"),
        (3, "Unnumbered detail"),  # NOTE: Subsection*: no number
        (1, "2 Running"),
        (2, "2.1 Using widget 1"),
        (3, "Unnumbered detail"),
        (1, "Appendix A Options"),
        (1, "Bibliography"),
        (1, "Nomenclature"),
        (1, "Index of Terms"),
    ]


def test_lyx_start_of_appendix_letters_the_chapters_from_its_own_on():
    tail = layout("Chapter", "More") + layout("Section", "Flags")
    assert levels(lyx_document(["Overview"], tail=tail))[5:9] == [
        (1, "Appendix A Options"),  # NOTE: the chapter whose layout holds \start_of_appendix
        (1, "Appendix B More"),
        (2, "B.1 Flags"),
        (1, "Bibliography"),
    ]


def test_lyx_addchap_and_starred_layouts_are_unnumbered_and_secnumdepth_limits_numbers():
    body = layout("Addchap", "Preface") + standard(0) + layout("Chapter*", "Foreword") + standard(1)
    titles = [t for _, t in levels(lyx_document(["Overview"], body=body))]
    assert titles[2:5] == ["Preface", "Foreword", "1 Overview"]
    shallow = [t for _, t in levels(lyx_document(["Overview"], depth=0))]
    assert "1 Overview" in shallow and "Using widget 0" in shallow  # NOTE: \secnumdepth 0: chapters only


def test_lyx_parts_sit_between_the_title_and_the_chapters():
    text = lyx_document(["Overview"], body=layout("Part", "Basics"))
    assert levels(text)[:4] == [(0, "The LyX Widget Guide"), (2, "Contents"), (1, "Part I Basics"), (2, "1 Overview")]


def test_lyx_article_sections_are_its_chapter_level_and_its_bibliography_is_references():
    body = layout("Section", "Scope") + standard(0) + layout("Subsection", "Aims")
    assert levels(lyx_document([], cls="article", body=body, top="Section"))[:7] == [
        (0, "The LyX Widget Guide"),
        (1, "Contents"),
        (1, "1 Scope"),
        (2, "1.1 Aims"),
        (1, "Appendix A Options"),
        (1, "References"),  # NOTE: as the article class prints it
        (1, "Nomenclature"),
    ]


def test_lyx_title_drops_insets_and_renders_escapes_as_the_page_shows_them():
    title = layout(
        "Chapter",
        "The ",
        inset("Quotes eld"),
        "\\backslash",
        "hspace",
        inset("Quotes erd"),
        " command",
        label("chap:x"),
        inset("Foot", "status collapsed", "", layout("Plain Layout", "A footnote.")),
        inset("Index idx", "status collapsed", "", layout("Plain Layout", "hspace")),
        inset("Argument 1", "status collapsed", "", layout("Plain Layout", "Short")),
        " in \\SpecialChar LaTeX",
        inset("space ~"),
        "2",
    )
    titles = [t for _, t in levels(lyx_document(["Overview"], body=title))]
    assert "1 The “\\hspace” command in LaTeX 2" in titles


def test_nothing_in_the_header_a_note_an_ert_or_an_unselected_branch_is_a_heading():
    hidden = layout(
        "Standard",
        inset("Note Note", "status open", "", layout("Section", "In a note")),
        inset("Note Comment", "status open", "", layout("Chapter", "In a comment")),
        inset("ERT", "status open", "", layout("Plain Layout", "\\backslash", "section{In ERT}")),
        inset("Branch Draft", "status open", "", layout("Chapter", "In an unselected branch")),
        inset("Foot", "status open", "", layout("Section", "In a footnote")),
    )
    titles = " ".join(t for _, t in levels(lyx_document(["Overview"], body=hidden)))
    for gone in ("Not a heading", "Nor this", "In a note", "In a comment", "In ERT", "unselected", "footnote"):
        assert gone not in titles
    rendering = lyx_source(lyx_document(["Overview"], body=hidden))
    assert rendering is not None and "In a footnote" in rendering[0]  # NOTE: printed, but no heading
    assert "In a note" not in rendering[0] and "In ERT" not in rendering[0]


def test_a_selected_branch_is_printed_in_place_headings_and_all():
    shown = layout("Standard", inset("Branch Print", "status open", "", layout("Chapter", "Printed only")))
    assert (1, "1 Printed only") in levels(lyx_document(["Overview"], body=shown))


def test_the_rendering_keeps_the_source_lines_and_each_paragraph_on_its_layout_line():
    text = lyx_document(["Overview", "Running"])
    result = lyx_source(text)
    assert result is not None
    rendering, headings = result
    source, lines = text.split("\n"), rendering.split("\n")
    assert len(lines) == len(source)
    for offset, _, title in headings:
        line = rendering.count("\n", 0, offset)
        assert lines[line] == title and offset == sum(len(x) + 1 for x in lines[:line])
        assert source[line].startswith(("\\begin_layout", "\\begin_inset"))
    for i, line in enumerate(lines):
        assert not line or source[i].startswith(("\\begin_layout", "\\begin_inset")), (i, line)
    assert "\\begin_header" not in rendering and "\\emph" not in rendering and "Not a heading" not in rendering
    first = " ".join(para(0).split())
    assert first in lines  # NOTE: a paragraph's lines joined as LyX wrote them, emphasis lines dropped
    assert "Thanks." in lines and "A. Writer" in lines  # NOTE: the footnote on its own line
    assert "[K1] Knuth: The TeXbook" in lines and "[k2] Lamport" in lines


def test_rendering_reads_tables_lists_quotes_formulas_and_drops_deleted_text():
    cell = lambda text: "<cell>\n" + inset("Text", "", layout("Plain Layout", text)) + "</cell>"  # noqa: E731
    table = inset("Tabular", '<lyxtabular version="3" rows="1" columns="2">', "<row>", cell("Name"), cell("Size"),
                  "</row>", "</lyxtabular>")  # fmt: skip
    body = (
        layout("Standard", table)
        + layout("Itemize", "First")
        + "\\begin_deeper\n"
        + layout("Enumerate", "Alpha")
        + layout("Enumerate", "Beta")
        + "\\end_deeper\n"
        + layout("Standard", "Say ", inset("Quotes gld"), "hi", inset("Quotes grd"), " with ",
                 inset("Formula $x^{2}$"), "\\change_deleted 5863208 1500000000", " old words",
                 "\\change_unchanged", ".")  # fmt: skip
        + layout("Standard", "Then:", inset("Formula \\[", "y=1", "\\]"), "done")
    )
    result = lyx_source(lyx_document(["Overview"], body=body))
    assert result is not None
    lines = result[0].split("\n")
    shown_lines = ("Name | Size", "• First", "1. Alpha", "2. Beta", "Say „hi“ with $x^{2}$.", "Then: \\[ y=1 \\] done")
    for shown in shown_lines:
        assert shown in lines, shown


def test_a_text_that_mentions_lyx_syntax_is_not_read_as_lyx():
    """A manual about LyX quotes its file format (the header, layouts) after its own prose: not
    a LyX document; nor is a header without its ``\\lyxformat`` line."""
    quoted = lyx_document(["Overview", "Running"])
    text = "How LyX stores a document\n\n" + para(0) + "\n\n" + quoted
    assert lyx_source(text) is None and markup_source(text)[1] != "lyx"
    headless = quoted.replace("\\lyxformat 544\n", "")
    assert lyx_source(headless) is None
    assert lyx_source(quoted.replace("\\begin_body", "\\begin_bodies")) is None  # NOTE: no body: no LyX 1.4+


def test_malformed_lyx_never_raises():
    start = HEADER.format(cls="book", depth=3)
    hostile = [
        start,
        start + "\\begin_layout Chapter\nUnclosed",
        start + "\\begin_inset Foot\n" * 5000 + "\\begin_layout Section\nDeep\n",
        start + "\\end_inset\n\\end_layout\n" * 100 + layout("Chapter", "After"),
        start + "\\begin_inset Tabular\n<row>\n</row>\n</row>\n<row>\n",
        start + layout("Chapter", "\\begin_inset Formula $x$", "unclosed formula"),
        start + "\\begin_deeper\n" * 1000 + "\\end_deeper\n" * 2000 + layout("Section", "S"),
        start + "\\begin_layout Bibliography",
        start + "\\begin_inset Foot\n" * 3000 + layout("Standard", "x") * 20000,  # NOTE: linear, not depth x paragraphs
    ]
    for text in hostile:
        result = lyx_source(text)
        assert result is not None and len(result[0].split("\n")) == len(text.split("\n"))
    assert (1, "1 After") in levels(hostile[3])


def test_a_lyx_books_chapters_are_its_chapter_layouts_and_its_chunks_hold_text():
    book = load_book(lyx_document(["Overview", "Running"]).encode(), name="guide.lyx")
    assert [(h.kind, h.title) for h in book.headings if h.kind != "section"] == [
        ("front", "The LyX Widget Guide"),
        ("front", "Contents"),
        ("chapter", "Overview"),
        ("chapter", "Running"),
        ("appendix", "Options"),
        ("back", "Bibliography"),
        ("back", "Nomenclature"),
        ("back", "Index of Terms"),
    ]
    assert "\\begin_layout" not in book.text and "\\end_inset" not in book.text
