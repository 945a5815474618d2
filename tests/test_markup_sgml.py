"""LinuxDoc, DebianDoc and DocBook (SGML or XML) book sources (issue 22): their sectioning
elements, titled as the DTD says, are the book's headings, at the start of the line of their
start tag; nothing in comments, CDATA or verbatim elements is an element, and a text is read as
SGML/XML only on its own evidence (a doctype, or a root element and headings), never an HTML
page. All sources are generated here."""

from __future__ import annotations

import subprocess
import sys

from chunking.ingest import load_book
from chunking.readers.markup import markup_headings
from chunking.readers.markup_sgml import rendered, sgml_headings
from test_markup_headings import body, para


def levels(text: str, suffix: str = "") -> list[tuple[int, str]]:
    return [(level, title) for _, level, title in markup_headings(text, suffix)[1]]


def linuxdoc_source(sections: list[str]) -> str:
    out = [
        "<!-- a generated guide -->\n<!doctype linuxdoc system>\n\n<article>\n\n"
        "<title>The Widget <tt/HOWTO/\n<author>A. Writer\n<date>v1.0\n<abstract>\n"
        f"{para(0)}\n</abstract>\n\n<toc>\n"
    ]
    for c, name in enumerate(sections):
        out.append(
            f"<sect>{name}\n<p>\n{body(2)}\n\n<tscreen><verb>\n<toc>\n<sect>Not a heading\n<p>\n</verb></tscreen>\n\n"
            f'<sect1>Using <tt/widget/ &amp; friends<label id="use-{c}">\n<p>\n{para(c + 1)}\n'
        )
    out.append(f"<appendix>\n\n<sect>Options\n<p>\n{para(9)}\n\n<sect1>Flags<p>\n{para(8)}\n</article>\n")
    return "\n".join(out)


def debiandoc_source(chapters: list[str]) -> str:
    out = [
        '<!doctype debiandoc public "-//DebianDoc//DTD DebianDoc//EN">\n<book>\n<titlepag>\n'
        "<title>The Widget Manual</title>\n<author><name>A. Writer</name></author>\n</titlepag>\n<toc>\n"
    ]
    for c, name in enumerate(chapters):
        out.append(
            f'<chapt id="ch{c}">\n<heading>{name}</heading>\n<p>\n{body(2)}\n</p>\n'
            f"<sect><heading>Installing <prgn>widget</prgn></heading>\n<p>\n{para(c)}\n"
            f"<sect1><heading>Detail {c}</heading>\n<p>{para(c + 1)}\n"
        )
    out.append("<appendix><heading>Licence</heading>\n<p>\n" + para(9) + "\n</book>\n")
    return "\n".join(out)


def docbook_xml(chapters: list[str], doctype: bool = True) -> str:
    head = '<?xml version="1.0" encoding="UTF-8"?>\n'
    if doctype:
        head += (
            '<!DOCTYPE book PUBLIC "-//OASIS//DTD DocBook XML V4.5//EN"\n'
            '  "http://www.oasis-open.org/docbook/xml/4.5/docbookx.dtd" [\n'
            '  <!ENTITY product "Widget">\n]>\n'
        )
    out = [
        head + '<book lang="en">\n<bookinfo>\n  <author><firstname>A.</firstname></author>\n'
        "  <title>The &product; Book</title>\n</bookinfo>\n<preface>\n<para>"
        + para(0)
        + "</para>\n</preface>\n"
        "<part>\n<title>Basics</title>\n"
    ]
    for c, name in enumerate(chapters):
        out.append(
            f'<chapter id="ch{c}">\n  <title>{name}</title>\n<para>{body(2)}</para>\n'
            "<!-- <chapter><title>Not in a comment</title></chapter> -->\n"
            "<programlisting>\n<chapter>\n  <title>Not a heading</title>\n</chapter>\n</programlisting>\n"
            "<para><![CDATA[<sect1><title>Nor in CDATA</title></sect1>]]></para>\n"
            f"<sect1>\n<title>Running <command>widget</command> &mdash; <emphasis>fast</emphasis> &#38; "
            f"&lt;safe&gt;<indexterm><primary>run</primary></indexterm></title>\n<para>{para(c + 1)}</para>\n"
            f"<section><title>Detail {c}</title><para>{para(c + 2)}</para>\n"
            f"<section><info><title>Deeper {c}</title></info><para>{para(c + 3)}</para></section>\n"
            "</section>\n</sect1>\n</chapter>\n"
        )
    out.append(
        "</part>\n<appendix><title>Options</title><para>" + para(9) + "</para></appendix>\n"
        "<index/>\n</book>\n"
    )
    return "\n".join(out)


def test_linuxdoc_sect_titles_run_to_p_or_label_and_verb_holds_none():
    markup, headings = markup_headings(linuxdoc_source(["Overview", "Installing"]))
    assert markup == "sgml"
    assert [(lv, t) for _, lv, t in headings] == [
        (0, "The Widget HOWTO"),
        (1, "Table of Contents"),  # NOTE: where <toc> has the formatters print it
        (1, "1. Overview"),  # NOTE: numbered as the formatters print a chapter-level unit
        (2, "Using widget & friends"),
        (1, "2. Installing"),
        (2, "Using widget & friends"),
        (1, "Appendix A. Options"),  # NOTE: after LinuxDoc's empty <appendix>
        (2, "Flags"),
    ]


def test_offsets_are_the_start_of_the_line_of_the_start_tag():
    text = linuxdoc_source(["Overview"]) + ""
    for offset, _, _ in markup_headings(text)[1]:
        assert offset == 0 or text[offset - 1] == "\n"
        assert text[offset] == "<"
    one_line = (
        "<book><title>B</title><chapter><title>A</title></chapter><chapter><title>C</title></chapter></book>"
    )
    offsets = [offset for offset, _, _ in sgml_headings(one_line, named=True) or []]
    assert offsets == [0, one_line.index("<chapter>"), one_line.rindex("<chapter>")]


def test_debiandoc_headings_and_titlepag_title():
    assert levels(debiandoc_source(["Overview", "Installing"])) == [
        (0, "The Widget Manual"),
        (1, "Table of Contents"),
        (1, "1. Overview"),
        (2, "Installing widget"),
        (3, "Detail 0"),
        (1, "2. Installing"),
        (2, "Installing widget"),
        (3, "Detail 1"),
        (1, "Appendix A. Licence"),
    ]


def test_docbook_parts_sit_between_the_title_and_the_chapters():
    assert levels(docbook_xml(["Overview", "Installing"])) == [
        (0, "The Widget Book"),  # the doctype's own entity
        (2, "Preface"),  # NOTE: outside the part, one level down, as LaTeX's reader does
        (1, "Part I. Basics"),
        (2, "1. Overview"),
        (3, "Running widget — fast & <safe>"),
        (4, "Detail 0"),
        (5, "Deeper 0"),
        (2, "2. Installing"),
        (3, "Running widget — fast & <safe>"),
        (4, "Detail 1"),
        (5, "Deeper 1"),
        (2, "Appendix A. Options"),
        (2, "Index"),
    ]


def test_comments_cdata_and_programlisting_hold_no_headings():
    titles = [t for _, t in levels(docbook_xml(["Overview"]))]
    assert not any(t.startswith(("Not", "Nor")) for t in titles)


def test_docbook_without_doctype_needs_its_root_and_two_headings():
    assert levels(docbook_xml(["Overview", "Installing"], doctype=False))[:2] == [
        (0, "The Book"),  # NOTE: without the doctype, &product; is unknown and dropped
        (2, "Preface"),
    ]
    one = '<?xml version="1.0"?>\n<book><title>B</title>\n<chapter><title>Only</title><para>x</para></chapter></book>'
    assert markup_headings(one)[0] != "sgml"
    assert markup_headings(one, ".xml") == (
        "sgml",
        [(one.index("<book>"), 0, "B"), (one.index("<chapter>"), 1, "1. Only")],
    )


def test_docbook_5_namespace_is_evidence_and_refentry_takes_its_refentrytitle():
    text = (
        '<article xmlns="http://docbook.org/ns/docbook" version="5.0">\n<info><title>Tools</title></info>\n'
        "<refentry>\n<refmeta><refentrytitle>widget</refentrytitle><manvolnum>1</manvolnum></refmeta>\n"
        "<refnamediv><refname>widget</refname><refpurpose>makes widgets</refpurpose></refnamediv>\n</refentry>\n"
        "</article>\n"
    )
    assert levels(text) == [(0, "Tools"), (1, "widget")]


def test_a_reference_page_as_the_document_has_its_refsect1_for_units():
    """A man page lifted to DocBook: the ``<refentry>`` is the document (its title the page's
    header, as a man page's ``.TH``, no unit), its synopsis and ``<refsect1>`` sections the units,
    a ``<refsect2>`` a section of one."""
    text = (
        '<?xml version="1.0"?>\n<!DOCTYPE refentry PUBLIC "-//OASIS//DTD DocBook XML V4.4//EN" "x.dtd">\n'
        "<refentry>\n<refmeta><refentrytitle>WIDGET</refentrytitle><manvolnum>1</manvolnum></refmeta>\n"
        "<refnamediv><refname>widget</refname><refpurpose>makes widgets</refpurpose></refnamediv>\n"
        "<refsynopsisdiv id='synopsis'>\n<cmdsynopsis><command>widget</command></cmdsynopsis>\n</refsynopsisdiv>\n"
        + "".join(
            f"<refsect1 id='s{k}'><title>{name}</title>\n<para>{para(k)}</para>\n"
            f"<refsect2><title>More on {name.lower()}</title>\n<para>{para(k + 1)}</para></refsect2>\n</refsect1>\n"
            for k, name in enumerate(["DESCRIPTION", "OPTIONS", "SEE ALSO"])
        )
        + "</refentry>\n"
    )
    assert levels(text) == [
        (1, "Synopsis"),
        (1, "DESCRIPTION"),
        (2, "More on description"),
        (1, "OPTIONS"),
        (2, "More on options"),
        (1, "SEE ALSO"),
        (2, "More on see also"),
    ]


def test_a_title_that_is_the_source_files_name_is_no_title():
    """A converter with no title in its source writes the input file's name (``input.pod``)."""
    text = '<!DOCTYPE article PUBLIC "-//OASIS//DTD DocBook V4.2//EN" "x.dtd">\n<article id="pod"><title>input.pod</title>\n'
    text += "".join(
        f"<section><title>{name}</title>\n<para>{para(k)}</para>\n</section>\n"
        for k, name in enumerate(["NAME", "USAGE"])
    )
    text += "</article>\n"
    assert levels(text) == [(1, "1. NAME"), (1, "2. USAGE")]


def test_commonmark_xml_headings_are_headings_at_their_level():
    """``cmark -t xml``: a ``<heading level="N">`` holding inline elements is a heading at level N."""
    text = '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE document SYSTEM "CommonMark.dtd">\n'
    text += '<document xmlns="http://commonmark.org/xml/1.0">\n'
    text += '  <heading level="1">\n    <text xml:space="preserve">The Widget</text>\n  </heading>\n'
    for k, name in enumerate(["Setup", "Use"]):
        text += f'  <heading level="2">\n    <text xml:space="preserve">{name} of </text>\n    <code xml:space="preserve">widget</code>\n  </heading>\n'
        text += f'  <paragraph>\n    <text xml:space="preserve">{para(k)}</text>\n  </paragraph>\n'
    text += "</document>\n"
    assert levels(text, ".xml") == [(1, "The Widget"), (2, "Setup of widget"), (2, "Use of widget")]


def test_an_html_page_with_h1_and_a_title_is_not_sgml():
    page = (
        "<!DOCTYPE html>\n<html><head><title>My Page</title></head>\n<body>\n"
        + "\n".join(f"<h1>Chapter {c}</h1>\n<section><p>{para(c)}</p></section>" for c in range(3))
        + "\n</body></html>\n"
    )
    assert markup_headings(page)[0] != "sgml"
    fragment = "<title>Stray</title>\n" + "\n".join(
        f"<article>\n<section>\n<h2>Part {c}</h2>\n<p>{para(c)}</p>\n</section>\n</article>" for c in range(3)
    )
    assert sgml_headings(fragment) is None and sgml_headings(fragment, named=True) is None
    sections = "<article>\n" + "\n".join(f"<section>\n{para(c)}\n</section>" for c in range(3)) + "</article>"
    assert sgml_headings(sections) is None  # NOTE: no HTML element is titled by the text after it
    xhtml = '<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>T</title></head>'
    assert (
        sgml_headings(xhtml + "<body><chapter><title>A</title></chapter></body></html>", named=True) is None
    )


def test_a_title_that_carries_its_own_number_or_label_keeps_it():
    text = (
        "<book><title>B</title>\n<part><title>Part One: Basics</title>\n<chapter><title>Chapter 7 Tools</title>"
        "</chapter>\n<chapter><title>2.0 Upgrades</title></chapter></part>\n"
        "<appendix><title>Appendix Z Extras</title></appendix></book>"
    )
    assert [t for _, _, t in sgml_headings(text) or []] == [
        "B",
        "Part One: Basics",
        "Chapter 7 Tools",
        "2.0 Upgrades",
        "Appendix Z Extras",
    ]


def test_an_ignored_marked_section_holds_no_headings_and_an_included_one_does():
    text = (
        "<!doctype linuxdoc system>\n<article>\n<title>T\n<![ IGNORE [\n<sect>Draft<p>\n]]>\n"
        "<![ %final; [\n<sect>Final<p>\n]]>\n<sect>Last<p>\n</article>\n"
    )
    assert [t for _, _, t in sgml_headings(text) or []] == ["T", "1. Final", "2. Last"]


def test_markdown_with_a_few_tags_is_not_sgml():
    text = '# Guide\n\n<p align="center"><img src="logo.png"></p>\n\n' + "\n\n".join(
        f"## Chapter {c}\n\n<chapter>{para(c)}</chapter>" for c in range(3)
    )
    assert sgml_headings(text) is None
    assert markup_headings("<!-- note -->\n" + text)[0] != "sgml"


def test_a_doctype_without_any_heading_is_not_read():
    assert sgml_headings("<!doctype linuxdoc system>\n<article>\n<title>Only a title\n<p>" + para(0)) is None


def test_malformed_input_never_raises():
    hostile = [
        "<!-- never closed <chapter><title>X</title>",
        "<!DOCTYPE book [ <!ENTITY a 'x' ",
        "<book><chapter><title>" + "<emphasis>" * 5000 + "deep",
        "<book>" + "<section><title>s</title>" * 20000,
        '<book><chapter id="unclosed><title>A</title></chapter>' * 3,
        "<book>" + "<" * 100000 + "</>" * 1000 + "&#99999999999;&#xD800;&" * 100,
        "<![CDATA[ never closed <chapter><title>X</title>",
        "<book><programlisting><chapter><title>A</title></chapter><chapter><title>B</title>",
        "<" + "a" * 100000 + " " + 'x="' * 1000,
    ]
    for text in hostile:
        for named in (False, True):
            headings = sgml_headings(text, named=named)
            assert headings is None or all(0 <= lv <= 12 for _, lv, _ in headings)


def test_an_unclosed_programlisting_hides_nothing():
    text = "<book><title>B</title>\n<programlisting>\n<chapter><title>A</title></chapter>\n<chapter><title>C</title>"
    assert [t for _, _, t in sgml_headings(text, named=True) or []] == ["B", "1. A", "2. C"]


def test_titles_render_entities_and_drop_unknown_ones():
    assert rendered("A &amp; B &mdash; &#x41;&#66; &unknown; &lt;x&gt;") == "A & B — AB <x>"
    assert rendered("&product; guide", {"product": "Widget"}) == "Widget guide"


def test_a_docbook_books_chapters_are_its_chapter_elements():
    book = load_book(docbook_xml(["Overview", "Installing"]).encode(), name="book.txt")
    assert [(h.kind, h.title) for h in book.headings if h.kind != "section"] == [
        ("front", "The Widget Book"),
        ("front", "Preface"),
        ("part", "Basics"),
        ("chapter", "Overview"),
        ("chapter", "Installing"),
        ("appendix", "Options"),
        ("back", "Index"),
    ]


def test_outline_command_reports_the_chapters_of_a_docbook_xml_file(tmp_path):
    path = tmp_path / "book.xml"
    path.write_text(docbook_xml(["Overview", "Installing", "Running"]), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "chunking", "outline", str(path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert [line for line in done.stdout.splitlines() if '"kind": "chapter"' in line and "sgml" in line]
    chapters = [t for t in ("Overview", "Installing", "Running") if f'"title": "{t}"' in done.stdout]
    assert chapters == ["Overview", "Installing", "Running"]


def texinfo_xml(chapters: list[str], top: str = "Sample <sc>Widget</sc>") -> str:
    """A Texinfo XML document as ``makeinfo --xml`` (6.8) writes one: a doctype naming the
    TexinfoML DTD, ``<node>`` elements before the sectioning ones, titles in ``<sectiontitle>``."""
    out = [
        '<?xml version="1.0"?>\n<!DOCTYPE texinfo PUBLIC "-//GNU//DTD TexinfoML V6.8//EN" '
        '"http://www.gnu.org/software/texinfo/dtd/6.8/texinfo.dtd">\n<texinfo xml:lang="en">\n'
        '<filename file="widget.xml"></filename>\n<preamble>\\input texinfo\n</preamble>'
        '<setfilename file="widget.info" spaces=" ">widget.info</setfilename>\n'
        '<settitle spaces=" ">The <sc>Widget</sc> Manual</settitle>\n\n'
        '<macro name="W" line=" W">@sc{Widget}\n@chapter Not a heading\n</macro>\n\n'
        '<titlepage endspaces=" ">\n<title spaces=" ">Widget</title>\n</titlepage>\n\n'
        '<node name="Top" spaces=" "><nodename>Top</nodename><nodenext>C0</nodenext></node>\n'
        f'<top spaces=" "><sectiontitle>{top}</sectiontitle>\n\n<para>{para(0)}\n</para>\n</top>\n'
    ]
    for c, name in enumerate(chapters):
        out.append(
            f'<node name="C{c}" spaces=" "><nodename>C{c}</nodename><nodeup>Top</nodeup></node>\n'
            f'<chapter spaces=" "><sectiontitle>{name}</sectiontitle>\n'
            f'<cindex index="cp" spaces=" "><indexterm index="cp" number="{c}">{name}</indexterm></cindex>\n\n'
            f"<para>{body(2)}\n</para>\n"
            '<example endspaces=" ">\n<pre xml:space="preserve">&lt;chapter&gt;&lt;sectiontitle&gt;No'
            "&lt;/sectiontitle&gt;\n</pre></example>\n"
            f'<section spaces=" "><sectiontitle>Using <code>widget</code> {c}</sectiontitle>\n\n'
            f'<para>{para(c + 1)}\n</para>\n<subsection spaces=" "><sectiontitle>Detail {c}</sectiontitle>\n\n'
            f"<para>{para(c + 2)}\n</para>\n</subsection>\n</section>\n</chapter>\n"
        )
    out.append(
        '<node name="Install" spaces=" "><nodename>Install</nodename></node>\n'
        '<appendix spaces=" "><sectiontitle>Installing <sc>Widget</sc></sectiontitle>\n\n'
        f"<para>{para(8)}\n</para>\n</appendix>\n"
        '<node name="Index" spaces=" "><nodename>Index</nodename></node>\n'
        '<unnumbered spaces=" "><sectiontitle>Concept index</sectiontitle>\n\n'
        '<printindex value="cp" line="cp"></printindex>\n\n<contents></contents>\n</unnumbered>\n'
        "<bye></bye>\n</texinfo>\n"
    )
    return "".join(out)


def test_texinfo_xml_sectioning_elements_are_headings_titled_by_their_sectiontitle():
    text = texinfo_xml(["Overview", "Running"])
    markup, headings = markup_headings(text)
    assert markup == "sgml"
    assert [(lv, t) for _, lv, t in headings] == [
        (0, "Sample WIDGET"),  # NOTE: <top>, the manual's title
        (1, "1. Overview"),
        (2, "Using widget 0"),  # NOTE: the inline <code> is text, not a verbatim block
        (3, "Detail 0"),
        (1, "2. Running"),
        (2, "Using widget 1"),
        (3, "Detail 1"),
        (1, "Appendix A. Installing WIDGET"),
        (1, "Concept index"),  # NOTE: an <unnumbered>: no number; no unit for the empty <contents>
    ]
    for offset, _, _ in headings:
        assert text.startswith(
            ("<top", "<chapter", "<section", "<subsection", "<appendix", "<unnumbered"), offset
        )


def test_texinfo_xml_sc_is_set_in_capitals_and_entities_and_accents_render_as_printed():
    title = '<sc>Widget</sc>&textrsquo;s &tex; <accent type="acute" bracketed="off">e</accent>tude &amp; &lt;x&gt;'
    headings = sgml_headings(texinfo_xml([title, "Two"]))
    assert headings is not None and headings[1][2] == "1. WIDGET’s TeX étude & <x>"


def test_texinfo_xml_part_holds_its_chapters_one_level_below_the_title():
    text = (
        texinfo_xml(["Overview"])
        .replace('<node name="C0"', '<part spaces=" "><sectiontitle>Basics</sectiontitle>\n<node name="C0"')
        .replace('<node name="Install"', '</part>\n<node name="Install"')
    )
    assert levels(text) == [
        (0, "Sample WIDGET"),
        (1, "Part I. Basics"),
        (2, "1. Overview"),
        (3, "Using widget 0"),
        (4, "Detail 0"),
        (2, "Appendix A. Installing WIDGET"),
        (2, "Concept index"),
    ]


def test_texinfo_xml_chapheading_and_heading_are_headings_at_the_depth_they_are_printed():
    text = texinfo_xml(["Overview", "Running"]).replace(
        "<section ",
        '<chapheading spaces=" ">Quick start</chapheading>\n<heading spaces=" ">Notes</heading>\n<section ',
        1,
    )
    assert levels(text)[1:5] == [(1, "1. Overview"), (1, "Quick start"), (2, "Notes"), (2, "Using widget 0")]


def test_texinfo_xml_untitled_top_takes_the_settitle():
    assert levels(texinfo_xml(["Overview", "Running"], top=""))[0] == (0, "The WIDGET Manual")


def test_a_footnote_in_a_title_is_dropped_with_its_paragraphs_and_the_title_read_on():
    text = texinfo_xml(["Overview<footnote><para>Since 1.0.</para></footnote> and more", "Running"])
    assert levels(text)[1] == (1, "1. Overview and more")
    docbook = "<book><title>B</title><chapter><title>A<footnote><para>n</para></footnote> b</title></chapter></book>"
    assert [t for _, _, t in sgml_headings(docbook, named=True) or []] == ["B", "1. A b"]


def test_a_text_that_only_mentions_texinfo_xml_is_not_read_as_it():
    """Prose that quotes makeinfo's elements, or a <texinfo> root with a single heading and no
    doctype, is not a Texinfo XML manual."""
    prose = (
        "makeinfo --xml writes <chapter> elements with a <sectiontitle> inside:\n\n"
        '  <chapter spaces=" "><sectiontitle>Overview</sectiontitle>\n  <chapter><sectiontitle>Two</sectiontitle>\n'
    )
    assert sgml_headings(prose) is None and markup_headings(prose)[0] != "sgml"
    lone = (
        "<texinfo>\n<chapter><sectiontitle>Only</sectiontitle>\n<para>"
        + para(0)
        + "</para></chapter>\n</texinfo>"
    )
    assert sgml_headings(lone) is None
    assert levels(lone, ".xml") == [(1, "1. Only")]  # NOTE: named .xml, one heading suffices


def test_a_texinfo_xml_books_chapters_are_its_chapter_elements():
    book = load_book(texinfo_xml(["Overview", "Running"]).encode(), name="manual.xml")
    assert [(h.kind, h.title) for h in book.headings if h.kind != "section"] == [
        ("front", "Sample WIDGET"),
        ("chapter", "Overview"),
        ("chapter", "Running"),
        ("appendix", "Installing WIDGET"),
        ("back", "Concept index"),
    ]


def docutils_xml(sections: list[str]) -> str:
    """A Docutils XML document (``rst2xml``) written as it writes one: no line breaks between
    elements, so each section's start tag follows the previous section's text on its line."""
    head = (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        '<!DOCTYPE document PUBLIC "+//IDN docutils.sourceforge.net//DTD Docutils Generic//EN//XML"'
        ' "http://docutils.sourceforge.net/docs/ref/docutils.dtd">\n'
        '<document ids="the-widget-guide" names="the\\ widget\\ guide" title="The Widget Guide"><title>'
        '<reference name="Widget" refuri="https://widget.example/">Widget</reference> Guide</title>'
        "<docinfo><author>A. Writer</author></docinfo>"
        '<topic classes="contents" ids="contents" names="contents"><title>Contents</title><bullet_list>'
        + "".join(
            f'<list_item><paragraph><reference ids="toc-entry-{k}" refid="s{k}">{name}</reference>'
            "</paragraph></list_item>"
            for k, name in enumerate(sections)
        )
        + "</bullet_list></topic>"
    )
    parts = [head]
    for k, name in enumerate(sections):
        parts.append(
            f'<section ids="s{k}" names="s{k}"><title refid="toc-entry-{k}">{name}</title><paragraph>{para(k)}\n'
            f"{para(k + 1)}</paragraph>"
            f'<section ids="d{k}" names="d{k}"><title>Detail {k}</title><paragraph>{para(k + 2)}</paragraph>'
            "</section></section>"
        )
    return "".join(parts) + "</document>\n"


def test_docutils_xml_title_contents_and_sections_are_its_units():
    text = docutils_xml(["Installing", "Using the widget", "Troubleshooting"])
    assert levels(text, ".xml") == [
        (0, "Widget Guide"),
        (1, "Contents"),
        (1, "Installing"),
        (2, "Detail 0"),
        (1, "Using the widget"),
        (2, "Detail 1"),
        (1, "Troubleshooting"),
        (2, "Detail 2"),
    ]


def test_docutils_xml_reference_inside_a_title_is_its_text_not_a_section():
    text = docutils_xml(["Installing", "Using the widget"]).replace(
        ">Using the widget</title>",
        '>Using <reference refuri="https://w.example/">the widget</reference></title>',
    )
    assert (1, "Using the widget") in levels(text, ".xml")


def test_section_tag_after_the_previous_sections_text_on_its_line_starts_at_the_tag():
    text = docutils_xml(["Installing", "Using the widget", "Troubleshooting"])
    offsets = {title: offset for offset, _, title in markup_headings(text, ".xml")[1]}
    for title in ("Installing", "Using the widget", "Troubleshooting"):
        line_start = text.rfind("\n", 0, offsets[title]) + 1
        assert text[offsets[title] :].startswith("<section"), title
        assert text[line_start : offsets[title]].strip(), "the line holds the previous section's text"


def test_indented_section_tag_still_starts_at_its_line():
    text = docbook_xml(["Installing", "Using the widget"]).replace("<chapter", "  <chapter")
    for offset, _, title in markup_headings(text, ".xml")[1]:
        if "Installing" in title:
            assert offset == 0 or text[offset - 1] == "\n"
