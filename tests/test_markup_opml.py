"""OPML outlines (``chunking.readers.markup_opml``, issue 22): the head's title and the body's
nested ``<outline text>`` elements are the headings. Sources generated here."""

from __future__ import annotations

from chunking.readers.markup import markup_headings

NOTE = "A paragraph under the heading, long enough to be text.&#10;&#10;And a second one &amp; more."


def test_opml_outlines_are_headings_at_their_nesting_depth():
    body = "".join(
        f'<outline text="Part {k} &amp; more" _note="{NOTE}">\n'
        f'  <outline text="Detail {k}" _note="{NOTE}" />\n'
        f'  <outline text="Aside {k}" _note="{NOTE} &gt; quoted">\n    <outline text="Deep {k}" />\n  </outline>\n'
        "</outline>\n"
        for k in range(2)
    )
    text = '<?xml version="1.0" encoding="UTF-8"?>\n<opml version="2.0">\n  <head>\n    <title>The Widget</title>\n'
    text += f"  </head>\n  <body>\n{body}  </body>\n</opml>\n"
    markup, headings = markup_headings(text, ".xml")
    assert markup == "opml"
    assert [(lv, t) for _, lv, t in headings][:6] == [
        (0, "The Widget"),
        (1, "Part 0 & more"),
        (2, "Detail 0"),
        (2, "Aside 0"),
        (3, "Deep 0"),
        (1, "Part 1 & more"),
    ]
    assert text[headings[1][0] :].startswith('<outline text="Part 0')


def test_an_xml_file_of_another_root_is_no_opml():
    text = '<?xml version="1.0"?>\n<outlines><outline text="A"/><outline text="B"/></outlines>\n'
    assert markup_headings(text, ".xml")[0] != "opml"
