"""OpenDocument XML and FictionBook sources (``chunking.readers.markup_odf``, ``markup_fb2``,
issue 22): their heading elements are the headings, at their levels. Sources generated here."""

from __future__ import annotations

from chunking.readers.markup import markup_headings

PARA = "Text of the part, long enough to read as a paragraph of the document."


def test_opendocument_text_h_elements_are_headings_at_their_outline_level():
    parts = "".join(
        f'<text:h text:style-name="Heading_20_2" text:outline-level="2"><text:bookmark-start text:name="p{k}" />'
        f'<text:span text:style-name="Source_Text">part{k}()</text:span> &amp; more<text:note><text:note-body>'
        f"<text:p>A note.</text:p></text:note-body></text:note></text:h>\n<text:p>{PARA}</text:p>\n"
        for k in range(2)
    )
    for root in ("office:document-content", "office:document"):
        text = f'<?xml version="1.0" encoding="utf-8" ?>\n<{root} xmlns:office="urn:x" xmlns:text="urn:y">\n'
        text += f'<office:body><office:text>\n<text:h text:outline-level="1">The Widget</text:h>\n<text:p>{PARA}</text:p>\n'
        text += f"{parts}</office:text></office:body>\n</{root}>\n"
        markup, headings = markup_headings(text, ".xml")
        assert markup == "odf"
        assert [(lv, t) for _, lv, t in headings] == [
            (1, "The Widget"),
            (2, "part0() & more"),
            (2, "part1() & more"),
        ]


def test_fictionbook_sections_are_headings_at_their_depth_and_notes_are_none():
    sections = "".join(
        f'<section id="s{k}"><title><p><code>part{k}()</code></p></title><p>{PARA}</p>'
        f"<section><title><p>Detail {k}</p></title><p>{PARA}</p></section></section>"
        for k in range(2)
    )
    text = '<?xml version="1.0" encoding="UTF-8"?>\n<FictionBook xmlns="http://www.gribuser.ru/xml/fictionbook/2.0">'
    text += "<description><title-info><book-title>The Widget</book-title></title-info></description>"
    text += f'<body><title><p /></title><section id="top"><title><p>The Widget</p></title><p>{PARA}</p>{sections}</section></body>'
    text += '<body name="notes"><section id="n1"><title><p>1</p></title><p>A note.</p></section></body></FictionBook>\n'
    markup, headings = markup_headings(text, ".xml")
    assert markup == "fb2"
    assert [(lv, t) for _, lv, t in headings] == [
        (1, "The Widget"),
        (2, "part0()"),
        (3, "Detail 0"),
        (2, "part1()"),
        (3, "Detail 1"),
    ]


def _opendocument(styles: str, front: str) -> str:
    chapters = "".join(
        f'<text:h text:style-name="Heading_20_1" text:outline-level="1">Chapter {k}</text:h>\n'
        f'<text:p text:style-name="Text_20_body">{PARA}</text:p>\n'
        for k in range(3)
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<office:document xmlns:office="urn:x" xmlns:text="urn:y">\n'
        '<office:styles><style:default-style style:family="paragraph"><style:text-properties fo:font-size="12pt"/>'
        '</style:default-style>\n<style:style style:name="Standard" style:family="paragraph"/>\n'
        '<style:style style:name="Text_20_body" style:family="paragraph" style:parent-style-name="Standard">'
        '<style:text-properties fo:font-size="11pt"/></style:style>\n'
        '<style:style style:name="Title" style:family="paragraph" style:parent-style-name="Standard">'
        '<style:text-properties fo:font-size="130%"/></style:style>\n'
        f"{styles}</office:styles>\n<office:body><office:text>\n{front}{chapters}</office:text></office:body>\n"
        "</office:document>\n"
    )


def _large(name: str, size: str) -> str:
    return (
        f'<style:style style:name="{name}" style:family="paragraph" style:parent-style-name="Standard">'
        f'<style:paragraph-properties fo:text-align="center"/><style:text-properties fo:font-size="{size}" '
        'fo:font-weight="bold"/></style:style>\n'
    )


CONTENTS = (
    '<text:table-of-content text:name="Contents1"><text:table-of-content-source>'
    '<text:index-title-template text:style-name="Contents_20_Heading">Table of Contents</text:index-title-template>'
    '</text:table-of-content-source><text:index-body><text:index-title text:name="Contents1_Head">\n'
    '<text:p text:style-name="Contents_20_Heading">Table of Contents</text:p></text:index-title>\n'
    + "".join(
        f'<text:p text:style-name="Contents_20_1">Chapter {k}<text:tab/>{k + 3}</text:p>\n' for k in range(3)
    )
    + "</text:index-body></text:table-of-content>\n"
)


def test_opendocument_title_block_set_large_and_contents_index_title_are_front_headings():
    # NOTE: the title block as centred paragraphs of automatic styles 18pt over a body of 11pt,
    # a logo's paragraph between its two lines; the contents' title inside its index-title
    front = (
        '<text:p text:style-name="P1">User Guide for</text:p>\n<text:p text:style-name="P2"><draw:frame>'
        '<draw:image xlink:href="logo.png"/></draw:frame></text:p>\n<text:p text:style-name="P2">The Widget</text:p>\n'
        '<text:p text:style-name="P3">version 1.0</text:p>\n' + CONTENTS
    )
    text = _opendocument(_large("P1", "18pt") + _large("P2", "18pt") + _large("P3", "12pt"), front)
    markup, headings = markup_headings(text, ".xml")
    assert markup == "odf"
    assert [(lv, t) for _, lv, t in headings] == [
        (0, "User Guide for The Widget"),
        (1, "Table of Contents"),
        (1, "Chapter 0"),
        (1, "Chapter 1"),
        (1, "Chapter 2"),
    ]
    assert text[headings[1][0] :].startswith('<text:p text:style-name="Contents_20_Heading">')


def test_opendocument_title_style_paragraph_is_the_title_and_body_sized_paragraphs_are_none():
    titled = '<text:p text:style-name="Title">The Widget</text:p>\n<text:p text:style-name="P1">A. Author</text:p>\n'
    markup, headings = markup_headings(_opendocument(_large("P1", "14pt"), titled), ".xml")
    assert [t for _, _, t in headings] == ["The Widget", "Chapter 0", "Chapter 1", "Chapter 2"]
    # NOTE: a paragraph a little larger than the body is no title; no index-title, no contents
    plain = '<text:p text:style-name="P1">A. Author</text:p>\n<text:p text:style-name="Text_20_body">Foreword.</text:p>\n'
    markup, headings = markup_headings(_opendocument(_large("P1", "14pt"), plain), ".xml")
    assert [t for _, _, t in headings] == ["Chapter 0", "Chapter 1", "Chapter 2"]
