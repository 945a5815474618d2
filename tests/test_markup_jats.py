"""JATS journal articles and BITS books (issue 22): their sections, back matter and book parts,
titled as a renderer prints them, are the document's headings at levels of their nesting; a text
is read as JATS/BITS only by its own marks (doctype, root and first child). All sources are
generated here."""

from __future__ import annotations

from chunking.ingest import load_book
from chunking.readers.markup import markup_headings
from chunking.readers.markup_jats import jats_headings
from chunking.readers.markup_sgml import sgml_headings
from test_markup_headings import body, para

JATS_DOCTYPE = (
    '<?xml version="1.0" encoding="utf-8"?>\n'
    '<!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96) Journal Archiving and Interchange DTD v1.2 20190208//EN"\n'
    '  "JATS-archivearticle1.dtd">\n'
)
BITS_DOCTYPE = (
    '<?xml version="1.0" encoding="utf-8"?>\n'
    '<!DOCTYPE book PUBLIC "-//NLM//DTD BITS Book Interchange DTD v2.0 20151225//EN" "BITS-book2.dtd">\n'
)


def levels(text: str, suffix: str = "") -> list[tuple[int, str]]:
    markup, headings = markup_headings(text, suffix)
    assert markup == "jats"
    return [(level, title) for _, level, title in headings]


def article(sections: str, back: str = "", doctype: bool = True, title: str = "Widgets in the Wild") -> str:
    """A JATS article as a journal's typesetter writes one: journal and article metadata in
    ``<front>``, ``sections`` in ``<body>``, ``back`` in ``<back>``."""
    head = JATS_DOCTYPE if doctype else '<?xml version="1.0"?>\n'
    return (
        f'{head}<article xmlns:xlink="http://www.w3.org/1999/xlink" article-type="research-article">\n'
        "<front>\n<journal-meta>\n<journal-id>jw</journal-id>\n<journal-title-group>\n"
        "<journal-title>Journal of Widgets</journal-title>\n</journal-title-group>\n</journal-meta>\n"
        '<article-meta>\n<article-id pub-id-type="doi">10.1/x</article-id>\n'
        "<article-categories><subj-group><subject>Research</subject></subj-group></article-categories>\n"
        f"<title-group>\n<article-title>{title}</article-title>\n</title-group>\n"
        f"<abstract>\n<p>{para(0)}</p>\n</abstract>\n</article-meta>\n</front>\n"
        f"<body>\n{sections}</body>\n<back>\n{back}</back>\n</article>\n"
    )


def sec(title: str, inner: str = "", label: str = "", i: int = 1) -> str:
    lab = f"<label>{label}</label>" if label else ""
    return f'<sec id="s{i}">\n  {lab}<title>{title}</title>\n  <p>{para(i)}</p>\n{inner}</sec>\n'


def test_jats_sections_nest_to_levels_under_the_article_title():
    text = article(sec("Introduction") + sec("Methods", sec("Sampling", sec("Field work"))) + sec("Results"))
    assert levels(text) == [
        (0, "Widgets in the Wild"),
        (1, "Abstract"),  # NOTE: <abstract> in <article-meta>, the name renderers print
        (1, "Introduction"),
        (1, "Methods"),
        (2, "Sampling"),
        (3, "Field work"),
        (1, "Results"),
    ]
    for offset, _, _ in markup_headings(text)[1]:
        assert text[offset - 1] == "\n" and text[offset:].lstrip().startswith(("<article", "<abstract", "<sec"))


def test_a_sec_label_is_printed_before_its_title():
    text = article(sec("Methods", sec("Sampling", label="2.1"), label="2") + sec("Results", label="3."))
    assert levels(text)[2:] == [(1, "2 Methods"), (2, "2.1 Sampling"), (1, "3. Results")]


def test_back_matter_units_take_their_titles_or_the_names_renderers_print():
    back = (
        f"<ack>\n<p>{para(5)}</p>\n</ack>\n"
        "<glossary><title>Abbreviations</title><def-list><def-item><term>W</term><def><p>widget</p></def></def-item></def-list></glossary>\n"
        "<notes notes-type=\"data\"><sec><title>Data availability</title><p>On request.</p></sec></notes>\n"
        '<fn-group><fn id="f1"><label>1</label><p>A note.</p></fn></fn-group>\n'
        '<ref-list><ref id="r1"><mixed-citation>A. Writer (2001).</mixed-citation></ref></ref-list>\n'
    )
    assert levels(article(sec("Introduction"), back))[2:] == [
        (1, "Introduction"),
        (1, "Acknowledgments"),
        (1, "Abbreviations"),
        (1, "Notes"),  # NOTE: untitled <notes> in <back>, its own section below it
        (2, "Data availability"),
        (1, "References"),  # NOTE: no unit for the untitled <fn-group>: its notes go by their marks
    ]


def test_an_untitled_list_inside_a_titled_section_is_not_a_second_unit():
    back = '<sec><title>Bibliography</title>\n<ref-list><ref id="r1"><mixed-citation>X.</mixed-citation></ref></ref-list>\n</sec>\n'
    assert levels(article(sec("Introduction"), back))[-1] == (1, "Bibliography")


def test_appendices_are_printed_with_their_word_and_letter():
    back = (
        "<app-group>\n"
        f"<app id=\"a1\"><label>A</label><title>Proofs</title><p>{para(6)}</p>{sec('Lemma 1', label='A.1')}</app>\n"
        f"<app id=\"a2\"><title>Data</title><p>{para(7)}</p></app>\n"
        f"<app id=\"a3\"><label>Appendix C</label><title>Code</title><p>{para(8)}</p></app>\n"
        f"<app id=\"a4\"><label>Supplement 1</label><title>Tables</title><p>{para(9)}</p></app>\n"
        "</app-group>\n"
    )
    assert levels(article(sec("Introduction"), back))[3:] == [
        (1, "Appendix A. Proofs"),
        (2, "A.1 Lemma 1"),
        (1, "Appendix B. Data"),  # NOTE: unlabelled: lettered in order, as the word says what it is
        (1, "Appendix C Code"),  # NOTE: a label that names it is printed as it is
        (1, "Supplement 1 Tables"),
    ]
    titled_group = back.replace("<app-group>\n", "<app-group><title>Appendices</title>\n")
    assert levels(article(sec("Introduction"), titled_group))[3:5] == [(1, "Appendices"), (2, "Appendix A. Proofs")]


def bits_book(parts: list[tuple[str, list[str]]]) -> str:
    """A BITS book: metadata, a preface and contents in ``<front-matter>``, ``parts`` of
    chapters in ``<book-body>``, an appendix, references and an index in ``<book-back>``."""
    out = [
        BITS_DOCTYPE + "<book>\n<collection-meta><title-group><title>Widget Series</title></title-group></collection-meta>\n"
        "<book-meta>\n<book-title-group>\n<book-title>The Widget Book</book-title>\n</book-title-group>\n</book-meta>\n"
        "<front-matter>\n<toc><title-group><title>Contents</title></title-group><toc-entry><title>x</title></toc-entry></toc>\n"
        f"<preface><named-book-part-body><p>{para(0)}</p></named-book-part-body></preface>\n</front-matter>\n<book-body>\n"
    ]
    c = 0
    for p, (part, chapters) in enumerate(parts):
        out.append(f'<book-part book-part-type="part" id="p{p}">\n<book-part-meta><title-group><title>{part}</title></title-group></book-part-meta>\n<body>\n')
        for chapter in chapters:
            c += 1
            out.append(
                f'<book-part book-part-type="chapter" id="c{c}">\n<book-part-meta>\n<title-group>\n'
                f"<label>{c}</label>\n<title>{chapter}</title>\n</title-group>\n</book-part-meta>\n<body>\n"
                f"{sec('Background', i=c)}{sec('Details', i=c + 1)}</body>\n"
                f"<back><ref-list><ref id=\"r{c}\"><mixed-citation>Y.</mixed-citation></ref></ref-list></back>\n</book-part>\n"
            )
        out.append("</body>\n</book-part>\n")
    out.append(
        "</book-body>\n<book-back>\n"
        f'<book-app id="ap1"><book-part-meta><title-group><title>Tables</title></title-group></book-part-meta><body><p>{para(9)}</p></body></book-app>\n'
        "<index><index-title-group><title>Index</title></index-title-group><index-entry><term>widget</term></index-entry></index>\n"
        "</book-back>\n</book>\n"
    )
    return "".join(out)


def test_a_bits_book_has_its_parts_at_level_one_and_chapters_below():
    assert levels(bits_book([("Basics", ["Overview", "Installing"]), ("Use", ["Running"])])) == [
        (0, "The Widget Book"),  # NOTE: the <book-title>, not the series' title
        (2, "Contents"),  # NOTE: outside the parts, one level down, as DocBook's reader does
        (2, "Preface"),
        (1, "Part I. Basics"),
        (2, "1 Overview"),
        (3, "Background"),
        (3, "Details"),
        (3, "References"),  # NOTE: the chapter's own untitled <ref-list> in its <back>
        (2, "2 Installing"),
        (3, "Background"),
        (3, "Details"),
        (3, "References"),
        (1, "Part II. Use"),
        (2, "3 Running"),
        (3, "Background"),
        (3, "Details"),
        (3, "References"),
        (2, "Appendix A. Tables"),
        (2, "Index"),
    ]


def test_a_bits_books_chapters_and_parts_reach_the_structure_stage():
    book = load_book(bits_book([("Basics", ["Overview", "Installing"]), ("Use", ["Running"])]).encode(), name="b.xml")
    assert [(h.kind, h.title) for h in book.headings if h.kind != "section"] == [
        ("front", "The Widget Book"),
        ("front", "Contents"),
        ("front", "Preface"),
        ("part", "Basics"),
        ("chapter", "Overview"),
        ("chapter", "Installing"),
        ("part", "Use"),
        ("chapter", "Running"),
        ("appendix", "Tables"),
        ("back", "Index"),
    ]


def test_a_jats_articles_top_sections_are_its_chapters():
    text = article(sec("Introduction", label="1") + sec("Methods", sec("Sampling", label="2.1"), label="2") + sec("Results", label="3"))
    book = load_book(text.encode(), name="paper.xml")
    assert [(h.kind, h.title, h.level) for h in book.headings] == [
        ("front", "Widgets in the Wild", 1),
        ("front", "Abstract", 1),
        ("chapter", "Introduction", 1),
        ("chapter", "Methods", 1),
        ("section", "Sampling", 2),
        ("chapter", "Results", 1),
    ]


def test_a_title_keeps_its_inline_text_and_drops_its_footnote():
    title = (
        'The <italic>widget</italic> &amp; <bold>gadget</bold><xref ref-type="fn" rid="f1">*</xref>'
        '<fn id="f1"><label>*</label><p>First shown in 2001.</p></fn> of '
        '<inline-formula><alternatives><mml:math><mml:mi>n</mml:mi></mml:math><tex-math>$n$</tex-math></alternatives></inline-formula>'
        '<break/>parts, after <xref ref-type="bibr" rid="r1">Smith</xref> &#8212; <sc>Nasa</sc>'
    )
    assert levels(article(sec(title) + sec("Results")))[2] == (1, "The widget & gadget of n parts, after Smith — Nasa")
    assert levels(article(sec("Results") + sec("Two"), title="On <italic>Widgets</italic>"))[0] == (0, "On Widgets")


def test_a_sec_inside_a_figure_box_or_footnote_is_no_unit():
    boxed = "<boxed-text><sec><title>Box 1</title><p>x</p></sec></boxed-text>\n<fig><caption><title>Figure one</title></caption></fig>\n"
    assert [t for _, t in levels(article(sec("Introduction", boxed) + sec("Results")))] == [
        "Widgets in the Wild",
        "Abstract",
        "Introduction",
        "Results",
    ]


def test_an_untitled_sec_adds_no_unit_and_no_level():
    text = article(sec("Introduction", '<sec id="e"><title></title><sec><title>Inner</title><p>x</p></sec></sec>\n'))
    assert levels(text)[2:] == [(1, "Introduction"), (2, "Inner")]


def test_jats_is_known_by_its_root_and_first_child_without_a_doctype():
    assert levels(article(sec("Introduction") + sec("Results"), doctype=False))[0] == (0, "Widgets in the Wild")
    bare_book = bits_book([("Basics", ["Overview"])]).replace(BITS_DOCTYPE, "")
    assert levels(bare_book)[0] == (0, "The Widget Book")
    stray = "<doc>\n" + sec("Introduction") + sec("Results") + "</doc>\n"
    assert jats_headings(stray) is None and markup_headings(stray, ".xml")[0] != "jats"  # NOTE: never by name


def test_an_html_or_docbook_article_is_not_read_as_jats():
    html_ish = (
        "<article>\n<header><h1>My Post</h1></header>\n"
        + "".join(f"<section>\n<h2>Part {c}</h2>\n<sec><title>T{c}</title></sec>\n<p>{para(c)}</p>\n</section>\n" for c in range(3))
        + "</article>\n"
    )
    assert jats_headings(html_ish) is None and markup_headings(html_ish, ".xml")[0] != "jats"
    page = "<!DOCTYPE html>\n<article><front><body>" + sec("Intro") + sec("Two") + "</body></front></article>"
    assert jats_headings(page) is None
    docbook = "<article><info><title>DB</title></info>\n<sect1><title>One</title></sect1>\n<sect1><title>Two</title></sect1>\n</article>"
    assert jats_headings(docbook) is None
    assert markup_headings(docbook)[0] == "sgml" and sgml_headings(docbook) is not None


def test_a_jats_doctype_without_any_unit_is_not_read():
    assert jats_headings(article("<p>" + body(2) + "</p>\n").replace("<abstract>", "<trans-title-group>").replace("</abstract>", "</trans-title-group>")) is None


def test_malformed_or_truncated_jats_never_raises():
    whole = article(sec("Introduction", sec("Inner")) + sec("Results"), "<ack><p>x</p></ack>")
    hostile = [
        whole[: len(whole) // 2],
        whole[: whole.index("<title>Inner") + 10],
        JATS_DOCTYPE + "<article><front>" + "<sec><title>s</title>" * 20000,
        JATS_DOCTYPE + "<article><body>" + "<sec>" + "<title-group>" * 50000 + "<title>x</title>" * 5000,
        JATS_DOCTYPE + "<article><body><sec><title>" + "<italic>" * 5000 + "deep",
        JATS_DOCTYPE + "<article><body>" + "</sec></article></body>" * 1000 + "<sec><title>A</title>" + "<" * 10000,
        "<book><book-meta>" + "<book-part book-part-type='part'><book-part-meta><title-group><title>P</title>" * 3000,
        JATS_DOCTYPE + "<article><body><sec><label>1</label><title>A &#99999999999; &#xD800; &unknown; <fn>",
        "<article><front>" + "<" + "a" * 100000,
    ]
    for text in hostile:
        headings = jats_headings(text)
        assert headings is None or all(0 <= lv <= 12 for _, lv, _ in headings)
        markup_headings(text, ".xml")
    truncated = jats_headings(whole[: whole.index("<title>Inner") + 12])
    assert truncated is not None and [t for _, _, t in truncated][-2:] == ["Introduction", "Inner"]


def test_a_sub_article_is_a_unit_titled_by_its_own_article_title():
    sub = (
        '<sub-article article-type="reply" id="sa1">\n<front-stub><title-group><article-title>Author reply</article-title>'
        f"</title-group></front-stub>\n<body>\n{sec('Point one')}</body>\n</sub-article>\n"
    )
    text = article(sec("Introduction") + sec("Results")).replace("</article>\n", sub + "</article>\n")
    assert levels(text)[-2:] == [(1, "Author reply"), (2, "Point one")]
