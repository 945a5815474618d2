"""POD and AsciiDoc sources in a .txt (issue 22): their section headings, as each syntax defines
them, are the book's structure; nothing inside code, data regions or delimited blocks is a
heading, and a text is read as markup only on its own syntax's evidence."""

from __future__ import annotations

import pytest

from chunking.ingest import load_book
from chunking.readers import read_raw
from chunking.readers.markup import markup_headings, render_pod


def para(i: int, words: int = 60) -> str:
    """A hard-wrapped paragraph of distinct words."""
    words_ = [f"Paragraph {i}"] + [f"w{i}x{j}" for j in range(words)]
    lines, line = [], ""
    for word in words_:
        if len(line) + len(word) > 70:
            lines.append(line)
            line = ""
        line = f"{line} {word}".strip()
    return "\n".join([*lines, line + "."])


def body(n: int = 8) -> str:
    return "\n\n".join(para(i) for i in range(n))


def pod_book(chapters: list[str]) -> str:
    parts = [f"=head1 NAME\n\nguide - a generated manual\n\n=head1 DESCRIPTION\n\n{para(0)}\n"]
    for c, title in enumerate(chapters):
        parts.append(f"=head1 {title}\n\n{body()}\n\n=head2 Detail {c}\n\n{body(3)}\n")
    return "\n".join(parts) + "\n=cut\n"


def asciidoc_book(chapters: list[str]) -> str:
    parts = [f"= A Generated Manual\nAn Author\n:toc:\n\n{para(0)}\n"]
    for c, title in enumerate(chapters):
        listing = "-" * 40
        parts.append(
            f"[[ch{c}]]\n== {title}\n\n{body()}\n\n{listing}\n$ run --step {c}\n{listing}\n\n"
            f"=== Detail {c}\n\n{body(3)}\n"
        )
    return "\n".join(parts)


def titles(text: str) -> list[tuple[int, str]]:
    return [(level, title) for _, level, title in markup_headings(text)[1]]


def test_pod_head_commands_are_headings_at_their_level_and_offset():
    text = pod_book(["Variables", "Subroutines"])
    markup, headings = markup_headings(text)
    assert markup == "pod"
    assert [(lv, t) for _, lv, t in headings] == [
        (1, "NAME"),
        (1, "DESCRIPTION"),
        (1, "Variables"),
        (2, "Detail 0"),
        (1, "Subroutines"),
        (2, "Detail 1"),
    ]
    assert all(text[o:].startswith("=head") for o, _, _ in headings)


def test_pod_verbatim_data_regions_and_mid_paragraph_lines_hold_no_headings():
    text = pod_book(["One", "Two"]) + (
        "\n=pod\n\n    =head1 Indented verbatim\n\n=begin html\n\n=head1 Inside html\n\n=end html\n\n"
        "=for comment\n=head1 in a for paragraph\n\nplain line\n=head1 mid paragraph\n\n=head2 Real\n"
    )
    assert [t for _, t in titles(text)][-1] == "Real"
    assert not {"Indented verbatim", "Inside html", "in a for paragraph", "mid paragraph"} & {
        t for _, t in titles(text)
    }


def test_pod_command_paragraph_title_spans_lines_and_renders_formatting_codes():
    text = "=head1 First\n\nx\n\n=head1 Examining the C<dump>\nfunctions X<dump> E<gt> L<perlapi|perlapi/x>\n\ny\n"
    assert titles(text)[-1] == (1, "Examining the dump functions > perlapi")


def test_render_pod_handles_nested_and_multi_bracket_codes_and_numeric_entities():
    assert render_pod("B<bold I<it>> C<< $a->[0] >> E<0x41>E<0102>E<67> Z<>") == "bold it $a->[0] ABC"


def test_asciidoc_one_line_titles_give_levels_and_document_title_is_level_zero():
    text = asciidoc_book(["Introduction", "Branches"])
    markup, headings = markup_headings(text)
    assert markup == "asciidoc"
    assert [(lv, t) for _, lv, t in headings] == [
        (0, "A Generated Manual"),
        (1, "Introduction"),
        (2, "Detail 0"),
        (1, "Branches"),
        (2, "Detail 1"),
    ]
    assert all(text[o:].startswith("=") for o, _, _ in headings)


def test_asciidoc_delimited_blocks_and_comments_hold_no_titles():
    block = "-" * 30
    text = asciidoc_book(["One", "Two"]) + (
        f"\n{block}\n== in a listing\nNot a title\n-----------\n{block}\n\n"
        "////\n== in a comment block\n////\n\n// == a comment line\n\n"
        "....\n== literal\n....\n\n```\n== fenced\n```\n\n== Last ==\n"
    )
    got = [t for _, t in titles(text)]
    assert got[-1] == "Last"
    assert not {"in a listing", "Not a title", "in a comment block", "literal", "fenced"} & set(got)


def test_a_delimiter_that_nothing_closes_is_a_rule_not_a_block_to_the_end():
    """``----`` with no closing line after it (RDoc's and Markdown's rule) hides no title below."""
    text = asciidoc_book(["One", "Two"]) + f"\n----\n\n== See Also\n\n{para(9)}\n\n== Credits\n\n{para(10)}\n"
    got = [t for _, t in titles(text)]
    assert got[-2:] == ["See Also", "Credits"]


def test_asciidoc_two_line_titles_need_an_underline_within_two_characters_of_the_title():
    head = "= Manual\n\n"
    near = "Installing Things\n-----------------\n\nx\n\nConfiguring\n~~~~~~~~~~~~~\n\ny\n\n"
    far = "Not A Title Here\n---\n\nz\n"
    assert titles(head + near + far) == [(0, "Manual"), (1, "Installing Things"), (2, "Configuring")]


def test_plain_text_with_underlined_titles_alone_is_not_asciidoc():
    text = "INTRODUCTION\n============\n\n" + body(2) + "\n\nUSAGE\n=====\n\n" + body(2) + "\n"
    assert markup_headings(text) == ("", [])


def test_prose_with_an_equals_line_is_not_pod():
    text = body(3) + "\n\n=head1 lonely\n\n" + body(2)
    assert markup_headings(text)[0] == ""


def test_pod_book_chapters_come_from_its_head1_commands():
    chapters = ["Variables", "Subroutines", "Memory Allocation"]
    book = load_book(pod_book(chapters).encode(), name="guide.txt")
    chapter_titles = [h.title for h in book.headings if h.kind in ("chapter", "front", "back", "appendix")]
    assert chapter_titles[-3:] == chapters
    assert {h.source for h in book.headings} == {"pod"}
    assert read_raw(pod_book(chapters).encode(), "guide.txt").markup == "pod"


def test_asciidoc_book_chapters_come_from_its_level_one_titles():
    chapters = ["Introduction", "Repositories and Branches", "Exploring History"]
    book = load_book(asciidoc_book(chapters).encode(), name="manual.txt")
    chapter_titles = [h.title for h in book.headings if h.level == 1]
    assert chapter_titles[-3:] == chapters
    assert [h.title for h in book.headings if h.kind == "section"] == ["Detail 0", "Detail 1", "Detail 2"]
    assert {h.source for h in book.headings} == {"asciidoc"}


def wiki_page(chapters: list[str], title: str | None = "Formatting Syntax", header: str = "") -> str:
    parts = [header + (f"====== {title} ======\n\n{para(0)}\n" if title else "")]
    for c, name in enumerate(chapters):
        parts.append(
            f"===== {name} =====\n\n{body(3)}\n\n==== Detail {c} ====\n\n{para(c + 1)}\n\n"
            f"<code>\n===== not a heading =====\n</code>\n\n=== Finer {c} ===\n\n{para(c + 2)}\n"
        )
    return "\n".join(parts)


def test_a_wiki_page_counts_its_heading_signs_downwards_from_the_page_title():
    """DokuWiki/Zim: six ``=`` is the page's title, five its chapters, four and fewer below."""
    markup, headings = markup_headings(wiki_page(["Links", "Tables"]))
    assert markup == "wiki"
    assert [(lv, t) for _, lv, t in headings] == [
        (0, "Formatting Syntax"),
        (1, "Links"),
        (2, "Detail 0"),
        (3, "Finer 0"),
        (1, "Tables"),
        (2, "Detail 1"),
        (3, "Finer 1"),
    ]


def test_a_wiki_page_without_a_title_heading_has_its_most_signs_as_chapters():
    header = "Content-Type: text/x-zim-wiki\nWiki-Format: zim 0.4\n\n"
    got = titles(wiki_page(["Find", "Replace"], title=None, header=header))
    assert got[:3] == [(1, "Find"), (2, "Detail 0"), (3, "Finer 0")]


def test_an_html2text_page_frames_its_headings_in_stars_counted_like_a_wikis():
    """html2text: six ``*`` an <h1> (the chapters here), five an <h2>; a row of ``=`` (an <hr>)
    and Markdown's ``***bold***`` are no headings."""
    text = (
        "=" * 79
        + "\n The Manual\n"
        + "=" * 79
        + "\n"
        + "".join(
            f"****** {n} – {name} ******\n{para(n)}\n***** {n}.1 – Detail *****\n***bold*** text\n{para(n + 5)}\n"
            + "=" * 79
            + "\n"
            for n, name in enumerate(["Basics", "Language"], 1)
        )
    )
    markup, headings = markup_headings(text)
    assert markup == "wiki"
    assert [(lv, t) for _, lv, t in headings] == [
        (1, "1 – Basics"),
        (2, "1.1 – Detail"),
        (1, "2 – Language"),
        (2, "2.1 – Detail"),
    ]


def test_asciidoc_with_closed_titles_is_still_asciidoc():
    text = "= A Manual =\n\n" + "\n".join(
        f"== Part {k} ==\n\n{body(2)}\n\n=== Sub {k} ===\n\n{para(k)}\n" for k in range(3)
    )
    markup, headings = markup_headings(text)
    assert markup == "asciidoc"
    assert [(lv, t) for _, lv, t in headings][:3] == [(0, "A Manual"), (1, "Part 0"), (2, "Sub 0")]


def test_mediawiki_one_sign_headings_closed_like_every_other_are_chapters_not_a_title():
    """MediaWiki: ``= Title =`` is an <h1>; several of them, every heading closed, are chapters."""
    text = "Opening words of the page.\n\n" + "\n".join(
        f'<span id="c{k}"></span>\n= Release {k} =\n\n{body(2)}\n\n== Changes {k} ==\n\n{para(k)}\n'
        for k in range(3)
    )
    markup, headings = markup_headings(text)
    assert markup == "asciidoc"
    assert [(lv, t) for _, lv, t in headings][:3] == [(1, "Release 0"), (2, "Changes 0"), (1, "Release 1")]


def test_mediawiki_headings_set_tight_between_their_signs_are_headings():
    """MediaWiki: ``==Title==`` (no spaces inside the signs) is a heading as ``== Title ==`` is."""
    text = "\n".join(f"=={k} MANUAL PART==\n{body(2)}\n\n==={k}.1 Detail===\n{para(k)}\n" for k in range(3))
    markup, headings = markup_headings(text)
    assert markup == "asciidoc"
    assert [(lv, t) for _, lv, t in headings][:3] == [
        (1, "0 MANUAL PART"),
        (2, "0.1 Detail"),
        (1, "1 MANUAL PART"),
    ]


def test_a_wiki_pages_chapters_are_its_five_sign_headings():
    book = load_book(wiki_page(["Links", "Tables", "Lists"]).encode(), name="page.txt")
    assert [(h.kind, h.title) for h in book.headings if h.kind != "section"] == [
        ("front", "Formatting Syntax"),
        ("chapter", "Links"),
        ("chapter", "Tables"),
        ("chapter", "Lists"),
    ]


def texinfo_source(chapters: list[str], signed: bool = True) -> str:
    head = ("\\input texinfo   @c -*-texinfo-*-\n" if signed else "") + (
        "@setfilename manual.info\n@settitle The @TeX{} Manual\n\n@node Top\n@top\n\n" + para(0) + "\n\n"
        "@menu\n* First::\n@end menu\n"
    )
    parts = [head]
    for c, name in enumerate(chapters):
        parts.append(
            f"@node {name}\n@chapter {name}\n\n{body(3)}\n\n@example\n@chapter not a heading\n@end example\n\n"
            f"@node Detail {c}\n@section Detail @code{{{c}}}\n\n{para(c + 1)}\n\n"
            f"@ignore\n@section nor this\n@example\n@end example\n@section nor this one\n@end ignore\n"
        )
    parts.append("@node Index\n@unnumbered Index\n\n@printindex cp\n\n@bye\n")
    return "\n".join(parts)


def test_texinfo_source_sectioning_commands_are_its_headings_and_literal_blocks_hold_none():
    markup, headings = markup_headings(texinfo_source(["Overview", "Installing"]))
    assert markup == "texinfo"
    assert [(lv, t) for _, lv, t in headings] == [
        (0, "The TeX Manual"),  # an @top without a title: the @settitle one
        (1, "Overview"),
        (2, "Detail 0"),
        (1, "Installing"),
        (2, "Detail 1"),
        (1, "Index"),
    ]


def test_texinfo_source_without_its_input_line_is_known_by_its_nodes_and_settitle():
    assert markup_headings(texinfo_source(["Overview", "Installing"], signed=False))[0] == "texinfo"
    prose = f"{para(0)}\n@chapter is how a Texinfo chapter starts, and\n@section a section.\n"
    assert markup_headings(prose)[0] != "texinfo"


def test_texinfo_titles_are_rendered_as_the_manual_prints_them():
    from chunking.readers.markup_texinfo import rendered

    assert rendered("@LaTeX{}2e@tie{}: un manuel de r@'ef@'erence") == "LaTeX2e\u00a0: un manuel de référence"
    assert (
        rendered("Using @code{@var{file}} and @@ signs @{x@}  @c a comment") == "Using file and @ signs {x}"
    )


def test_a_texinfo_books_chapters_are_its_chapter_commands():
    book = load_book(texinfo_source(["Overview", "Installing", "Running"]).encode(), name="manual.txt")
    assert [(h.kind, h.title) for h in book.headings if h.kind != "section"] == [
        ("front", "The TeX Manual"),
        ("chapter", "Overview"),
        ("chapter", "Installing"),
        ("chapter", "Running"),
        ("back", "Index"),
    ]


def latex_source(chapters: list[str], parts: bool = False) -> str:
    head = (
        "% a generated manual\n\\documentclass{book}\n\\usepackage{listings}\n"
        "\\title{The \\LaTeX{} Widget\n  Manual}\n\\begin{document}\n\\maketitle\n\\tableofcontents\n\n"
    )
    out = [head + ("\\part{Basics}\n" if parts else "")]
    for c, name in enumerate(chapters):
        out.append(
            f"\\chapter[{name[:4]}]{{{name}\\label{{ch:{c}}}}}\n\n{body(2)}\n\n"
            f"\\begin{{verbatim}}\n\\chapter{{not a heading}}\n\\end{{verbatim}}\n"
            f"% \\chapter{{nor a comment}}\n    \\section{{nor an indented example}}\n"
            f"\\section{{Using \\texttt{{widget}}~{c}}}\n\n{para(c + 1)}\n"
        )
    out.append("\\appendix\n\\chapter{Options}\n\n" + para(9) + "\n\\printindex\n\\end{document}\n")
    return "\n".join(out)


def test_latex_source_sectioning_commands_are_its_headings_and_verbatim_and_comments_hold_none():
    markup, headings = markup_headings(latex_source(["Overview", "Installing"]))
    assert markup == "latex"
    assert [(lv, t) for _, lv, t in headings] == [
        (0, "The LaTeX Widget Manual"),  # \title over two lines, as \maketitle prints it
        (1, "Contents"),
        (1, "1 Overview"),  # the long title, as the chapter prints it, not the [short] one
        (2, "1.1 Using widget 0"),
        (1, "2 Installing"),
        (2, "2.1 Using widget 1"),
        (1, "Appendix A Options"),
        (1, "Index"),
    ]


@pytest.mark.parametrize(
    "block",
    [
        "{\\centering\\sffamily\\bfseries\nThe Widget Guide\n\\par}\n\n{\\centering \\includegraphics[width=4cm]{logo.png} \\par}\n"
        "{\\centering\\bfseries\nversion 1.0\n\\par}\\clearpage\n",
        "\\begin{titlepage}\n\\begin{center}\n\\vspace*{2cm}\n{\\Huge The Widget Guide}\\\\[1cm]\nA. Author\n\\end{center}\n\\end{titlepage}\n",
    ],
)
def test_a_latex_title_page_set_as_a_centred_bold_block_without_title_is_the_title(block):
    for title in ("", "\\title{}\n\\author{}\n"):
        text = f"\\documentclass{{article}}\n{title}\\begin{{document}}\n{block}\n\\tableofcontents\n"
        text += "".join(f"\\section{{Part {k}}}\nText of the part.\n\n" for k in range(3))
        markup, headings = markup_headings(text, ".tex")
        assert markup == "latex"
        assert [(lv, t) for _, lv, t in headings] == [
            (0, "The Widget Guide"),
            (1, "Contents"),
            (1, "1 Part 0"),
            (1, "2 Part 1"),
            (1, "3 Part 2"),
        ]
        assert "The Widget Guide" in text[headings[0][0] :].split("\n", 1)[0]  # its line, not the block's


def test_a_latex_centred_block_in_body_type_is_no_title():
    text = "\\documentclass{article}\n\\begin{document}\n\\begin{center}\nDraft, do not circulate\n\\end{center}\n"
    text += "".join(f"\\section{{Part {k}}}\nText of the part.\n\n" for k in range(3))
    assert [t for _, _, t in markup_headings(text, ".tex")[1]] == ["1 Part 0", "2 Part 1", "3 Part 2"]


def test_a_latex_named_unit_renamed_by_its_name_macro_prints_that_name():
    text = "\\documentclass{article}\n\\title{The Widget}\n\\renewcommand\\contentsname{Table of Contents}\n"
    text += "\\renewcommand{\\indexname}{Register}\n\\begin{document}\n\\maketitle\n\\tableofcontents\n"
    text += "".join(f"\\section{{Part {k}}}\nText of the part.\n\n" for k in range(2)) + "\\printindex\n"
    assert [t for _, _, t in markup_headings(text, ".tex")[1]] == [
        "The Widget",
        "Table of Contents",
        "1 Part 0",
        "2 Part 1",
        "Register",
    ]


def test_latex_parts_sit_between_the_title_and_the_chapters():
    _, headings = markup_headings(latex_source(["Overview"], parts=True))
    assert [(lv, t) for _, lv, t in headings][:4] == [
        (0, "The LaTeX Widget Manual"),
        (2, "Contents"),
        (1, "Part I Basics"),
        (2, "1 Overview"),
    ]


def test_a_latex_page_whose_only_section_opens_it_has_it_for_title_and_its_subsections_as_chapters():
    """A Markdown page converted to LaTeX (cmark -t latex): ``\\section{Stream}`` then
    ``\\subsection`` units; the one section is the page's title."""
    text = (
        "\\section{Stream}\n\n"
        + para(0)
        + "\n\n"
        + "".join(
            f"\\subsection{{{name}}}\n\n{para(k)}\n\n\\subsubsection{{Detail {k}}}\n\n{para(k + 1)}\n\n"
            for k, name in enumerate(["Types", "Consumers", "Implementers"], 1)
        )
    )
    assert [(lv, t) for _, lv, t in markup_headings(text, ".tex")[1]] == [
        (0, "Stream"),
        (1, "1 Types"),
        (2, "1.1 Detail 1"),
        (1, "2 Consumers"),
        (2, "2.1 Detail 2"),
        (1, "3 Implementers"),
        (2, "3.1 Detail 3"),
    ]
    two = "\\section{One}\n\n" + para(0) + "\n\n\\section{Two}\n\n\\subsection{Sub}\n\n" + para(1)
    assert [lv for _, lv, _ in markup_headings(two, ".tex")[1]] == [1, 1, 2]  # two: the chapter level


def test_a_latex_pages_only_section_under_a_title_is_the_title_and_its_subsections_chapters():
    """A converter fills ``\\title`` (a placeholder) and writes the page's own title as its one
    ``\\section``: that section is the page's title, its subsections are the chapters."""
    text = (
        "\\documentclass{article}\n\\begin{document}\n\\title{Untitled}\n\\maketitle\n\n\\section{Stream}\n\n"
    )
    text += "".join(
        f"\\subsection{{{name}}}\n\n{para(k)}\n\n" for k, name in enumerate(["Types", "Consumers"], 1)
    )
    assert [(lv, t) for _, lv, t in markup_headings(text, ".tex")[1]] == [
        (0, "Stream"),
        (1, "1 Types"),
        (1, "2 Consumers"),
    ]


def test_a_beamer_decks_titled_frames_are_its_units_below_its_sections():
    """A Beamer deck: a frame's title (its argument or its ``\\frametitle``) heads the slide, one
    level below the deck's deepest sectioning command; the untitled title frame is none."""
    frames = "".join(
        f"\\begin{{frame}}[fragile]{{Slide {k}}}\n{para(k)}\n\\end{{frame}}\n\n"
        f"\\begin{{frame}}\n\\frametitle{{Aside {k}}}\n{para(k + 1)}\n\\end{{frame}}\n\n"
        for k in range(2)
    )
    deck = "\\documentclass[ignorenonframetext]{beamer}\n\\title{The Talk}\n\\begin{document}\n"
    deck += "\\begin{frame}\n\\titlepage\n\\end{frame}\n\n"
    flat = [(lv, t) for _, lv, t in markup_headings(deck + frames + "\\end{document}\n", ".tex")[1]]
    assert flat == [(0, "The Talk"), (1, "Slide 0"), (1, "Aside 0"), (1, "Slide 1"), (1, "Aside 1")]
    grouped = (
        deck + "\\section{Opening}\n\n" + frames + "\\section{Closing}\n\n" + frames + "\\end{document}\n"
    )
    assert [(lv, t) for _, lv, t in markup_headings(grouped, ".tex")[1]][:3] == [
        (0, "The Talk"),
        (1, "1 Opening"),
        (2, "Slide 0"),
    ]


def test_a_text_about_latex_quoting_its_commands_is_not_latex_source():
    """A manual about LaTeX quotes ``\\documentclass`` and ``\\chapter{…}`` in its examples,
    indented, after its own prose: not a LaTeX source."""
    examples = "\n\n".join(
        f"{para(k)}\n\n     \\documentclass{{book}}\n     \\begin{{document}}\n     \\chapter{{Example {k}}}"
        for k in range(3)
    )
    text = (
        f"The LaTeX reference manual\n\n{examples}\n\\chapter{{A line at the margin}}\n\\section{{Another}}\n"
    )
    assert markup_headings(text)[0] != "latex"


def test_a_tex_or_texi_file_name_is_enough_for_one_sectioning_command():
    assert markup_headings("\\chapter*{Only}\n\n" + para(0), ".tex") == ("latex", [(0, 1, "Only")])
    assert markup_headings("@chapter Only\n\n" + para(0), ".texi") == ("texinfo", [(0, 1, "Only")])
    book = load_book(latex_source(["Getting Started", "Installing"]).encode(), name="manual.tex")
    assert [(h.kind, h.title) for h in book.headings if h.kind != "section"] == [
        ("front", "The LaTeX Widget Manual"),
        ("front", "Contents"),
        ("chapter", "Getting Started"),
        ("chapter", "Installing"),
        ("appendix", "Options"),
        ("back", "Index"),
    ]


def muse_source(chapters: list[str]) -> str:
    out = [f"#author A. Writer\n#title The *Widget* Guide\n\n{para(0)}\n\n<contents>\n"]
    for c, name in enumerate(chapters):
        out.append(
            f"* {name}\n\n{body(2)}\n\n<example>\n* not a heading\n** nor this\n</example>\n\n"
            f"*emphasis* starts this line\n\n** Detail ={c}=\n\n{para(c + 1)}\n"
        )
    return "\n".join(out)


def test_muse_headings_are_its_star_lines_outside_examples_and_its_title_directive():
    markup, headings = markup_headings(muse_source(["Getting Started", "Markup Rules"]))
    assert markup == "muse"
    assert [(lv, t) for _, lv, t in headings] == [
        (0, "The Widget Guide"),
        (1, "Getting Started"),
        (2, "Detail 0"),
        (1, "Markup Rules"),
        (2, "Detail 1"),
    ]


def test_star_lines_without_a_muse_directive_are_not_muse():
    text = "\n".join(f"* Item {k}\n\n{para(k)}\n" for k in range(3))
    assert markup_headings(text)[0] != "muse"


def test_star_lines_beside_a_block_of_muses_own_are_muse_without_a_directive():
    """A converter writes Muse without its directives (no ``#title``); its code blocks are
    ``<example>`` blocks, a tag of Muse's own, and its star lines are its headings."""
    text = "\n".join(muse_source(["Getting Started", "Markup Rules"]).split("\n")[3:])
    markup, headings = markup_headings(text)
    assert markup == "muse"
    assert [(lv, t) for _, lv, t in headings] == [
        (1, "Getting Started"),
        (2, "Detail 0"),
        (1, "Markup Rules"),
        (2, "Detail 1"),
    ]


def test_an_example_tag_never_closed_on_a_line_of_its_own_makes_no_muse():
    text = "\n".join(f"* Item {k}\n\n{para(k)}\n\n<example>\n{para(k + 5)}\n" for k in range(3))
    assert markup_headings(text)[0] != "muse"


def test_a_man_page_source_gives_its_sh_and_ss_headings_and_its_th_name_is_no_heading():
    text = (
        '.\\" a generated page\n.TH WIDGET 1 "May 2024" "widget 2.0"\n.SH NAME\nwidget \\- make widgets\n'
        f'.SH SYNOPSIS\n.B widget\n.RI [ options ]\n.SH DESCRIPTION\n{para(0)}\n.SS "Exit status"\n{para(1)}\n'
        '.SH "SEE ALSO"\n.BR gadget (1)\n'
    )
    assert titles(text) == [  # ``.TH`` names the page in its header and footer: no heading
        (1, "NAME"),
        (1, "SYNOPSIS"),
        (1, "DESCRIPTION"),
        (2, "Exit status"),
        (1, "SEE ALSO"),
    ]


def test_a_preprocessor_line_atop_a_man_page_source_is_no_title():
    # ``'\" t`` asks man(1) to run tbl first: a request line, printed nowhere
    text = (
        '\'\\" t\n.\\" generated\n.TH WIDGET 1\n.SH NAME\nwidget \\- make widgets\n'
        f".SH DESCRIPTION\n{para(0)}\n.SH OPTIONS\n{para(1)}\n"
    )
    book = load_book(text.encode(), name="widget.txt")
    assert [(h.kind, h.title) for h in book.headings] == [
        ("chapter", "NAME"),
        ("chapter", "DESCRIPTION"),
        ("chapter", "OPTIONS"),
    ]


@pytest.mark.parametrize(
    "opening",
    ["'\\\" -*- coding: utf-8 -*-\n", '.\\" Automatically generated by Widget Doc v1.2\n', ".ds T< \\FC\n"],
)
def test_no_request_or_comment_line_atop_a_man_page_source_is_a_title(opening):
    """A converter's comment (``'\\" -*- coding: utf-8 -*-``, a generator's banner) or a string
    definition above ``.TH``: requests, printed nowhere; the page's title is its ``.TH``."""
    text = f"{opening}.TH WIDGET 1\n.SH NAME\nwidget \\- make widgets\n.SH DESCRIPTION\n{para(0)}\n"
    book = load_book(text.encode(), name="widget.txt")
    assert [(h.kind, h.title) for h in book.headings] == [("chapter", "NAME"), ("chapter", "DESCRIPTION")]


def test_an_ms_document_numbers_its_nh_headings_as_troff_prints_them():
    chapters = "".join(
        f".NH\n{name}\n.PP\n{para(c)}\n.NH 2\nDetail \\fI{c}\\fP\n.PP\n{para(c + 5)}\n"
        for c, name in enumerate(["Getting Started", "Installing"])
    )
    text = f".TL\nThe Widget\nManual\n.AU\nA. Writer\n{chapters}.SH\nReferences\n.LP\n{para(9)}\n"
    assert titles(text) == [
        (0, "The Widget Manual"),
        (1, "1 Getting Started"),
        (2, "1.1 Detail 0"),
        (1, "2 Installing"),
        (2, "2.1 Detail 1"),
        (1, "References"),
    ]


def test_an_ms_unnumbered_heading_takes_the_depth_its_sh_request_names():
    # pandoc's ms writer sets every heading unnumbered, as ``.SH 1`` / ``.SH 2`` / ``.SH 3``
    text = ".TL\nThe Spec\n"
    for c, name in enumerate(["Introduction", "Blocks"]):
        text += f".SH 1\n{name}\n.PP\n{para(c)}\n.SH 2\nPart {c} in detail\n.PP\n{para(c + 3)}\n"
        text += f".SH 3\nA finer point {c}\n.PP\n{para(c + 6)}\n"
    assert titles(text) == [
        (0, "The Spec"),
        (1, "Introduction"),
        (2, "Part 0 in detail"),
        (3, "A finer point 0"),
        (1, "Blocks"),
        (2, "Part 1 in detail"),
        (3, "A finer point 1"),
    ]


def test_an_me_document_reads_sh_and_uh_but_not_escaped_examples_or_macro_bodies():
    text = (
        '.ds T \\s-1TROFF\\s0\n.de XX\n.sh 1 "inside a macro"\n..\n'
        f'.sh 1 "Basics"\n.pp\n{para(0)}\n.(b\n\\&.sh 1 "an escaped example"\n.)b\n'
        f'.sh 2 "Paragraphs"\n.pp\n{para(1)}\n.sh 1 "\\*T and the \\(em photosetter"\n.pp\n{para(2)}\n'
        f'.sh 0\n.uh "Acknowledgments"\n.pp\n{para(3)}\n'
    )
    assert titles(text) == [
        (1, "1 Basics"),
        (2, "1.1 Paragraphs"),
        (1, "2 TROFF and the — photosetter"),
        (1, "Acknowledgments"),
    ]


@pytest.mark.parametrize(
    "opening",
    [
        '.(l C\n.sz 14\n.b "The Widget \\-me Manual"\n.sz\n.sp 2\nA. Writer\n.)l\n',  # me
        ".ce 2\n.ps +4\nThe Widget \\-me Manual\n.ps\nA. Writer\n",  # plain troff
    ],
)
def test_a_title_set_larger_than_the_body_before_the_first_heading_is_the_title(opening):
    text = f'{opening}.sh 1 "Basics"\n.pp\n{para(0)}\n.sh 1 "Usage"\n.pp\n{para(1)}\n'
    assert titles(text) == [(0, "The Widget -me Manual"), (1, "1 Basics"), (1, "2 Usage")]


def test_a_size_set_once_for_the_whole_text_makes_no_title():
    text = f'.ps 12\n.vs 14\n{para(2)}\n.sh 1 "Basics"\n.pp\n{para(0)}\n.sh 1 "Usage"\n.pp\n{para(1)}\n'
    assert titles(text) == [(1, "1 Basics"), (1, "2 Usage")]


def test_a_mom_document_reads_title_and_heading_requests_numbered_from_its_heading_style():
    text = (
        '.TITLE "The Widget" "Manual"\n.AUTHOR "A. Writer"\n.PRINTSTYLE TYPESET\n'
        ".HEADING_STYLE 1 \\\n  NUMBER \\\n  FONT B\n.START\n"
        f'.HEADING 1 NAMED intro "Getting Started"\n.PP\n{para(0)}\n'
        f'.HEADING 2 NAMED detail "A detail"\n.PP\n{para(1)}\n'
        f'.HEADING 3 PARAHEAD "Run-in"\n{para(2)}\n'
        f'.HEADING 1 \\\n"Installing \\-Tpdf\\*[FU4] output\n.PP\n{para(3)}\n'
    )
    assert titles(text) == [
        (0, "The Widget Manual"),
        (1, "1 Getting Started"),
        (2, "A detail"),  # depth 2 has no NUMBER style
        (1, "2 Installing -Tpdf output"),  # a request continued after a backslash, its quote unclosed
    ]


def test_a_line_ending_in_an_escaped_backslash_does_not_continue_the_request():
    text = f".TH WIDGET 1\n.SH NAME\\\\\n{para(0)}\n.SH USAGE\n{para(1)}\n"
    assert [t for _, t in titles(text)] == ["NAME", "USAGE"]


def test_a_troff_escaped_dot_prints_a_dot_in_a_title():
    text = f'.TH WIDGET 1\n.SH "Class: vm\\.Script"\n{para(0)}\n.SS "new vm\\.Script(code)"\n{para(1)}\n'
    text += f".SH Using \\&.widgetrc files\n{para(2)}\n"
    assert titles(text) == [(1, "Class: vm.Script"), (2, "new vm.Script(code)"), (1, "Using .widgetrc files")]


def test_a_pair_of_inline_html_tags_in_a_troff_title_is_markup_not_title_text():
    text = (
        f'.TH WIDGET 1\n.SH "Class: <code>Widget</code>"\n{para(0)}\n'
        f'.SS "<code>widget.<em>run</em>(options)</code>"\n{para(1)}\n'
        f'.SH "Reading <file> and <b> alone"\n{para(2)}\n'  # no pair: text
    )
    assert titles(text) == [
        (1, "Class: Widget"),
        (2, "widget.run(options)"),
        (1, "Reading <file> and <b> alone"),
    ]


def test_a_contents_heading_inside_a_man_page_name_section_is_front_matter():
    text = (
        f".TH WIDGET 1\n.SH NAME\nwidget \\- make widgets\n.SS A sidebar\n{para(0)}\n"
        f".SS Contents\n.IP \\(bu 2\nUsage\n.IP \\(bu 2\nOptions\n"
        f".SH USAGE\n{para(1)}\n.SS Contents\n{para(2)}\n.SH OPTIONS\n{para(3)}\n"
    )
    book = load_book(text.encode(), name="widget.txt")
    assert [(h.level, h.kind, h.title) for h in book.headings] == [
        (1, "chapter", "NAME"),
        (2, "section", "A sidebar"),
        (1, "front", "Contents"),  # the document's contents, before its first section
        (1, "chapter", "USAGE"),
        (2, "section", "Contents"),  # a section's own contents
        (1, "chapter", "OPTIONS"),
    ]


def test_ms_headings_numbered_under_a_lone_numbered_title_are_chapters():
    """An ms document whose one ``.NH 1`` is its title: troff numbers its ``.NH 2`` headings
    ``1.1``, ``1.2``… under the title's ``1``; they are the chapters, not sections of the title."""
    text = f".NH 1\nThe Widget\n.LP\n{para(0)}\n"
    for c, name in enumerate(["Getting Started", "Installing", "Exit codes"]):
        text += f".NH 2\n{name}\n.LP\n{para(c + 1)}\n.NH 3\nDetail {c}\n.LP\n{para(c + 5)}\n"
    book = load_book(text.encode(), name="widget.txt")
    assert [(h.level, h.kind, h.number, h.title) for h in book.headings] == [
        (1, "front", "1", "The Widget"),
        (1, "chapter", "1.1", "Getting Started"),
        (2, "section", "1.1.1", "Detail 0"),
        (1, "chapter", "1.2", "Installing"),
        (2, "section", "1.2.1", "Detail 1"),
        (1, "chapter", "1.3", "Exit codes"),
        (2, "section", "1.3.1", "Detail 2"),
    ]


def test_prose_quoting_a_few_requests_is_not_troff():
    text = "\n\n".join(f"{para(k)}\n.SH EXAMPLE {k}" for k in range(6))
    assert markup_headings(text)[0] != "troff"


def test_an_mdoc_page_and_a_block_closed_by_an_indented_dot_are_read():
    text = (
        '.\\" a BSD page\n.Dd May 1, 2024\n.Dt WIDGET 1\n.if \\n[.g] \\{\\\n.  am URL\n.    ad l\n.  .\n.\\}\n'
        f".Sh NAME\n.Nm widget\n.Sh DESCRIPTION\n{para(0)}\n.Ss Options\n{para(1)}\n"
    )
    assert titles(text) == [(1, "NAME"), (1, "DESCRIPTION"), (2, "Options")]


def test_a_txt_with_atx_headings_standing_apart_is_read_as_markdown():
    """A Markdown renderer's terminal output (lowdown -Tterm): the body indented, ``##`` headings
    flush left between blank lines; a ``#`` line inside indented code is none."""
    text = "File system\n\n" + "".join(
        f"## {name}\n\n    {para(k)}\n\n        # not a heading: code\n        run --it\n\n### Detail {k}\n\n    {para(k + 3)}\n\n"
        for k, name in enumerate(["Promises API", "Callback API", "Sync API"])
    )
    markup, headings = markup_headings(text)
    assert markup == "markdown"
    assert [(lv, t) for _, lv, t in headings][:3] == [
        (2, "Promises API"),
        (3, "Detail 0"),
        (2, "Callback API"),
    ]


def test_shell_comments_at_the_margin_do_not_make_a_txt_markdown():
    text = "\n".join(f"{para(k)}\n\n# install step {k}\nmake install\n" for k in range(5))
    assert markup_headings(text)[0] != "markdown"


def test_sphinx_latex_contents_and_hyphen_macros_print_as_latex_would():
    text = (
        "\\documentclass{sphinxmanual}\n\\begin{document}\n\\sphinxmaketitle\n\\sphinxtableofcontents\n"
        "\\chapter{Top\\sphinxhyphen{}level components}\n\n" + para(0) + "\n\n"
        "\\chapter{Dashes\\textendash{}and\\slash{}slashes}\n\n" + para(1) + "\n\\end{document}\n"
    )
    assert [t for _, _, t in markup_headings(text, ".tex")[1]] == [
        "Contents",
        "1 Top-level components",
        "2 Dashes–and/slashes",
    ]


def test_a_latex_titles_colour_names_print_nothing_and_its_coloured_words_stay():
    text = (
        "\\documentclass{article}\n\\begin{document}\n\\section{Plain words}\n\n" + para(0) + "\n\n"
        "\\section[System Messages]{\\color{red}System Messages}\n\n" + para(1) + "\n\n"
        "\\section{A \\textcolor[rgb]{1,0,0}{warm} welcome}\n\n" + para(2) + "\n\\end{document}\n"
    )
    assert [t for _, _, t in markup_headings(text, ".tex")[1]] == [
        "1 Plain words",
        "2 System Messages",
        "3 A warm welcome",
    ]


def test_latex_printnomenclature_prints_a_nomenclature_unit():
    text = "\\chapter{Overview}\n\n" + para(0) + "\n\n\\printnomenclature\n\\printindex\n"
    assert markup_headings(text, ".tex") == (
        "latex",
        [
            (0, 1, "1 Overview"),
            (text.index("\\printnomenclature"), 1, "Nomenclature"),
            (text.index("\\printindex"), 1, "Index"),
        ],
    )


def html2text_page(banner: str) -> str:
    return banner + "".join(
        f"****** {n} – {name} ******\n{para(n)}\n***** {n}.1 – Detail *****\n{para(n + 5)}\n"
        for n, name in enumerate(["Basics", "Language", "Libraries"], 1)
    )


def test_a_markup_pages_title_boxed_between_rules_above_its_first_heading_is_its_title_page():
    """A converted page sets its ``<h1>`` as a banner (a rule, the title, its authors, the rule
    again) above the first marked heading: the title is a front unit, as a text's title line is."""
    rule = "=" * 79
    book = load_book(
        html2text_page(f"{rule}\n The Manual\nby A. Writer and B. Writer\n{rule}\n").encode(), name="m.txt"
    )
    assert [(h.kind, h.title) for h in book.headings if h.kind != "section"] == [
        ("front", "The Manual"),
        ("chapter", "Basics"),
        ("chapter", "Language"),
        ("chapter", "Libraries"),
    ]


def test_a_markup_pages_opening_sentence_or_open_rule_is_no_title():
    """Prose above the first heading, or a rule that boxes nothing, gives no title page."""
    sentence = "This page describes the language and its libraries in some detail for users.\n\n"
    for banner in (sentence, "=" * 79 + "\n" + para(0) + "\n\n"):
        book = load_book(html2text_page(banner).encode(), name="m.txt")
        assert [h.kind for h in book.headings if h.kind != "section"] == ["chapter"] * 3


def test_a_markdown_title_set_as_a_bare_line_above_its_first_heading_is_its_title_page():
    """A renderer that drops the ``#`` of the document title leaves it a bare line standing alone
    at the top: it is the title page; the ``##`` headings stay the chapters."""
    text = (
        "File Handling\n\n"
        + para(0)
        + "\n\n"
        + "".join(
            f"## {name}\n\n{body(3)}\n\n" for name in ["Opening Files", "Reading Files", "Closing Files"]
        )
    )
    book = load_book(text.encode(), name="guide.md")
    assert [(h.kind, h.title) for h in book.headings if h.kind != "section"] == [
        ("front", "File Handling"),
        ("chapter", "Opening Files"),
        ("chapter", "Reading Files"),
        ("chapter", "Closing Files"),
    ]


def test_a_manual_pages_header_above_its_first_heading_is_no_title_page():
    """``mandoc -Tmarkdown`` opens with the page's header (``TOOL(1) - General Commands
    Manual``), which names the page on every printed page: no title unit of its own."""
    text = "TOOL(1) - General Commands Manual\n\n" + "".join(
        f"# {name}\n\n{body(3)}\n\n" for name in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS"]
    )
    book = load_book(text.encode(), name="tool.md")
    assert not any("General Commands" in h.title for h in book.headings)


def test_a_simple_tables_border_rows_are_no_asciidoc_titles():
    """``=====  =====`` rows border a reStructuredText simple table set in a text; AsciiDoc's
    one-line titles carry words."""
    table = "=====  =====  ======\nInput  Other  Output\n=====  =====  ======\nA      B      C\n=====  =====  ======\n"
    text = f"Some prose about tables.\n\n{table}\nMore prose.\n\n{table}\nThe end.\n"
    assert markup_headings(text)[0] != "asciidoc"


def test_a_text_showing_title_styles_on_one_example_title_is_not_restructuredtext():
    """A text about reStructuredText, its examples no longer indented (an extractor flattened
    them), shows every adornment style on one title: that is no structure of its own."""
    styles = "".join(f"Section Title\n{mark * 13}\n\n" for mark in "=-`'.~*+^")
    directive = ".. image:: picture.png\n\n"
    text = f"Some prose about titles.\n\n{directive}Below are examples of section title styles:\n\n{styles}More prose.\n"
    assert markup_headings(text) == ("", [])


def test_asciidoc_inline_anchors_are_no_part_of_a_title():
    """Pandoc writes each heading's HTML id as an anchor on a marked run (``[#INTRO]#…#``); an
    ``[[id]]`` anchor may open a title too: the page shows neither."""
    text = (
        "= Manual\n\n== [#CONTENTS]#Table of Contents#\n\nx\n\n"
        "== [#INTRO]#Chapter 1 - Introduction#\n\ny\n\n== [[usage]]Using It\n\nz\n"
    )
    assert titles(text) == [
        (0, "Manual"),
        (1, "Table of Contents"),
        (1, "Chapter 1 - Introduction"),
        (1, "Using It"),
    ]


@pytest.mark.parametrize("example", ["==== build step ====\n", "== Install ==\n"])
def test_a_light_markups_headings_bunched_in_one_example_are_no_structure_of_the_text(example):
    """A manual quotes a script whose output frames its titles in ``====`` (a wiki's or AsciiDoc's
    marks): three such lines in one place, in a text of keyword chapters, are an example."""
    chapters = "".join(f"Chapter {n}. Topic number {n}\n\n{body(12)}\n\n" for n in (1, 2, 3, 4))
    snippet = "".join(f"{example}echo step {k}\n\n" for k in range(3))
    text = chapters.replace(f"{body(12)}\n\nChapter 3", f"{body(12)}\n\n{snippet}Chapter 3", 1)
    assert markup_headings(text) == ("", [])
    book = load_book(text.encode(), name="manual.txt")
    assert [h.title for h in book.headings if h.kind == "chapter"] == [
        f"Topic number {n}" for n in (1, 2, 3, 4)
    ]


def typst_source(chapters: list[str]) -> str:
    """A Typst document as pandoc writes it: a template defined in code, applied by ``#show:``
    with the title as an argument, then ``=`` chapters under ``<label>`` lines."""
    template = '#let conf(\n  title: none,\n  doc,\n) = {\n  set page(numbering: "1")\n  doc\n}\n'
    show = (
        "#show: doc => conf(\n  title: [The *Widget* Manual],\n  doc,\n)\n\n#outline(\n  title: auto,\n)\n\n"
    )
    parts = []
    for c, title in enumerate(chapters):
        raw = "```\n= not a heading\n```\n"
        parts.append(f"= {title}\n<ch{c}>\n{para(c)}\n\n{raw}\n== Detail {c}\n<d{c}>\n{para(c + 1)}\n")
    return template + show + "\n".join(parts)


def test_typst_headings_count_their_signs_from_one_and_the_title_is_the_templates_argument():
    markup, headings = markup_headings(typst_source(["Basics", "Usage", "Reference"]))
    assert markup == "typst"
    assert [(lv, t) for _, lv, t in headings] == [
        (0, "The Widget Manual"),
        (1, "Basics"),
        (2, "Detail 0"),
        (1, "Usage"),
        (2, "Detail 1"),
        (1, "Reference"),
        (2, "Detail 2"),
    ]


def test_a_typst_books_chapters_are_its_one_sign_headings_under_its_title():
    book = load_book(typst_source(["Basics", "Usage", "Reference"]).encode(), name="manual.txt")
    assert [(h.kind, h.title) for h in book.headings if h.level == 1] == [
        ("front", "The Widget Manual"),
        ("chapter", "Basics"),
        ("chapter", "Usage"),
        ("chapter", "Reference"),
    ]


@pytest.mark.parametrize("rows", [40, 400])
def test_a_man_page_mostly_tbl_tables_is_read_as_troff(rows):
    """A reference page whose ``.TS`` … ``.TE`` tables hold most of its lines (a terminal's
    control sequences): the rows are tbl's data, not text that dilutes the requests."""
    table = ".TS\nallbox;\nl l.\n" + "".join(f"row {r}\tmeaning of row {r}\n" for r in range(rows)) + ".TE\n"
    text = (
        '.\\" a generated page\n.TH WIDGET 7\n.SH NAME\nwidget-codes \\- the codes widget reads\n'
        f".SH DESCRIPTION\n{para(0)}\n.SH CODES\n.PP\nThe codes:\n{table}.SH TABLES\n.PP\nMore:\n{table}"
        ".SH SEE ALSO\n.BR widget (1)\n"
    )
    assert titles(text) == [(1, "NAME"), (1, "DESCRIPTION"), (1, "CODES"), (1, "TABLES"), (1, "SEE ALSO")]


def test_an_unclosed_table_block_in_prose_does_not_make_it_troff():
    text = ".TS\n" + "\n\n".join(f"{para(k)}\n.SH EXAMPLE {k}" for k in range(6))
    assert markup_headings(text)[0] != "troff"
