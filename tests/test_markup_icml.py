"""ICML stories (``chunking.readers.markup_icml``, issue 22): paragraphs in a numbered heading
style are the headings, titled by their content. Sources generated here."""

from __future__ import annotations

from chunking.readers.markup import markup_headings


def _paragraph(style: str, *pieces: str) -> str:
    ranges = "".join(
        f'  <CharacterStyleRange AppliedCharacterStyle="$ID/NormalCharacterStyle">\n    <Content>{p}</Content>\n  </CharacterStyleRange>\n'
        for p in pieces
    )
    return f'<ParagraphStyleRange AppliedParagraphStyle="ParagraphStyle/{style}">\n{ranges}</ParagraphStyleRange>\n<Br />\n'


def test_icml_paragraphs_in_a_heading_style_are_headings_at_its_number():
    body = _paragraph("Header1", "The Widget")
    for k, name in enumerate(["Setup", "Use"]):
        body += _paragraph("Header2", f"{name} of ", "widget &amp; co")
        body += _paragraph("Paragraph", f"Text of part {k}, long enough to read as a paragraph of the story.")
        body += _paragraph("Header3", f"Detail {k}")
    text = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<?aid style="50" type="snippet" ?>\n'
    text += f'<Document DOMVersion="8.0" Self="doc">\n<Story Self="story">\n{body}</Story>\n</Document>\n'
    markup, headings = markup_headings(text, ".xml")
    assert markup == "icml"
    assert [(lv, t) for _, lv, t in headings] == [
        (1, "The Widget"),
        (2, "Setup of widget & co"),
        (3, "Detail 0"),
        (2, "Use of widget & co"),
        (3, "Detail 1"),
    ]
    assert text[headings[1][0] :].startswith("<ParagraphStyleRange")
