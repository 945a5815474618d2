"""Glyphs a PDF gives no text (issue 25): MuPDF reads a glyph without Unicode as its glyph id,
which for a CID-keyed font is no character (FontAwesome's icons came out as ``æ``, ``Ƥ``)."""

from __future__ import annotations

import re

import pymupdf

from chunking.normalise import normalise
from chunking.readers import read_raw


def _canonical(data: bytes) -> str:
    raw = read_raw(data, "glyphs.pdf")
    try:
        return normalise(raw.pages).text
    finally:
        raw.close()


def _page_with_unmapped(words: list[str], symbol: str, mapping: str | None) -> bytes:
    """One line of ``words`` set in a CID-keyed font (MuPDF writes Times as Type0, Identity-H, with
    a ToUnicode map), each a word space apart; the map's entry for ``symbol``'s glyph made
    ``mapping`` (``"FFFD"``: the PDF says the glyph has no text, as a manual's icon font does
    for its FontAwesome icons) or left out (None: a font specimen's glyph variant)."""
    doc = pymupdf.open()
    page = doc.new_page()
    face = pymupdf.Font("tiro")
    writer = pymupdf.TextWriter(page.rect)
    x = 72.0
    for word in words:
        writer.append((x, 100), word, font=face, fontsize=12)
        x += face.text_length(word, fontsize=12) + 3.0
    writer.write_text(page)
    (xref, _ext, kind, *_), *_ = page.get_fonts()
    assert kind == "Type0"
    cmap_xref = int(doc.xref_get_key(xref, "ToUnicode")[1].split()[0])
    cmap = doc.xref_stream(cmap_xref).decode("latin-1")
    entry = re.search(rf"(<[0-9a-fA-F]{{4}}>) <{ord(symbol):04x}>\n", cmap)
    assert entry is not None
    new = f"{entry.group(1)} <{mapping}>\n" if mapping else ""
    doc.update_stream(cmap_xref, cmap.replace(entry.group(0), new).encode("latin-1"))
    return doc.tobytes()


def test_a_glyph_a_cid_fonts_unicode_map_gives_no_text_is_no_text_not_its_glyph_id():
    # an icon the PDF maps to U+FFFD: MuPDF read its glyph id as a letter (``Ǫ``), a word
    # invented; dropped, and a word space stays where it stood
    text = _canonical(_page_with_unmapped(["Hello", "\u2665", "world", "a\u2665b"], "\u2665", "FFFD"))
    assert text == "Hello world a b"
    # a glyph the map leaves out (a font specimen's variant without Unicode) likewise
    text = _canonical(_page_with_unmapped(["Hello", "\u2665", "world"], "\u2665", None))
    assert text == "Hello world"


def test_glyphs_the_unicode_map_gives_text_are_read_as_before():
    assert (
        _canonical(_page_with_unmapped(["Hello", "\u2665", "world"], "\u2663", "FFFD"))
        == "Hello \u2665 world"
    )
