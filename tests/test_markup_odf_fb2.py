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
