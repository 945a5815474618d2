"""Pandoc's XML (``pandoc -t xml``): its ``<Header level>`` blocks are the headings, titled by
their inlines as the page shows them; nothing inside an escaped code block is one."""

from __future__ import annotations

from chunking.ingest import load_book
from chunking.readers.markup import markup_headings
from chunking.readers.markup_pandocxml import pandoc_xml_headings

BODY = "<Para>" + " ".join(f"word{k}" for k in range(80)) + "</Para>\n"


def _document(meta: str = "<meta />") -> str:
    return (
        "<?xml version='1.0' ?>\n<Pandoc api-version=\"1,23,1,1\">\n" + meta + "\n<blocks>\n"
        '<Header id="widgets" level="1">Widgets</Header>\n'
        + BODY
        + '<RawBlock format="html">&lt;!-- note --&gt;\n</RawBlock><Header id="setup" level="2">Class: <Code>Setup</Code></Header>\n'
        + BODY
        + '<CodeBlock class="xml">&lt;Header level="2"&gt;Not a heading&lt;/Header&gt;</CodeBlock>\n'
        + '<Header id="use" level="2">Using <Emph>the</Emph><SoftBreak />widget<Note><Para>A footnote.</Para></Note></Header>\n'
        + BODY
        + "</blocks>\n</Pandoc>\n"
    )


def test_pandoc_xml_headers_are_headings_at_their_level_titled_as_shown():
    text = _document()
    markup, headings = markup_headings(text, ".xml")
    assert markup == "pandoc-xml"
    assert [(level, title) for _, level, title in headings] == [
        (1, "Widgets"),
        (2, "Class: Setup"),
        (2, "Using the widget"),
    ]
    assert all(text[offset:].startswith("<Header") for offset, _, _ in headings)


def test_the_metadata_title_of_pandoc_xml_is_the_title_level_0():
    meta = '<meta>\n<entry key="title"><MetaInlines>The <Strong>Widget</Strong> Book</MetaInlines></entry>\n</meta>'
    assert pandoc_xml_headings(_document(meta))[0][1:] == (0, "The Widget Book")


def test_a_header_left_open_is_no_heading_and_other_xml_is_not_pandocs():
    text = _document().replace(
        '<Header id="widgets" level="1">Widgets</Header>', '<Header id="widgets" level="1">Widgets'
    )
    assert [title for _, _, title in pandoc_xml_headings(text)] == ["Class: Setup", "Using the widget"]
    assert pandoc_xml_headings("<?xml version='1.0'?>\n<book><Header level=\"1\">x</Header></book>") is None


def test_a_pandoc_xml_books_chapters_are_its_level_2_headers_under_its_one_title():
    book = load_book(_document().encode(), name="widgets.xml")
    top = [(h.kind, h.title) for h in book.headings if h.level == 1]
    assert top == [("front", "Widgets"), ("chapter", "Class: Setup"), ("chapter", "Using the widget")]
