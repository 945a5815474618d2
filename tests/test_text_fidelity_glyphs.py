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


def _page_with_dingbats(codes: bytes, to_unicode: str = "") -> bytes:
    """A line ``Marks:`` in Helvetica, then ``codes`` in the standard font ZapfDingbats (not
    embedded; no ToUnicode map, or ``to_unicode``'s bfchar entries as one), each a space apart."""
    doc = pymupdf.open()
    page = doc.new_page()
    keys = ""
    if to_unicode:
        cmap = doc.get_new_xref()
        doc.update_object(cmap, "<<>>")
        doc.update_stream(
            cmap,
            (
                "/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Custom def "
                "1 begincodespacerange <00> <FF> endcodespacerange "
                f"{to_unicode.count('> <')} beginbfchar {to_unicode} endbfchar endcmap "
                "CMapName currentdict /CMap defineresource pop end end"
            ).encode(),
        )
        keys = f"/ToUnicode {cmap} 0 R "
    dingbats = doc.get_new_xref()
    doc.update_object(dingbats, f"<< /Type /Font /Subtype /Type1 /BaseFont /ZapfDingbats {keys}>>")
    helvetica = doc.get_new_xref()
    doc.update_object(helvetica, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    doc.xref_set_key(page.xref, "Resources", f"<< /Font << /FZ {dingbats} 0 R /FH {helvetica} 0 R >> >>")
    marks = "".join(f"{c:02X}20" for c in codes)
    content = doc.get_new_xref()
    doc.update_object(content, "<<>>")
    doc.update_stream(content, f"BT /FH 12 Tf 72 700 Td (Marks:) Tj /FZ 12 Tf 50 0 Td <{marks}> Tj ET".encode())
    doc.xref_set_key(page.xref, "Contents", f"{content} 0 R")
    return doc.tobytes()


def test_a_zapfdingbats_font_without_a_unicode_map_reads_as_the_dingbats_it_draws():
    # circled digits, a check mark, a bullet, an arrow: MuPDF read them as ``Ê``, ``3``, control
    # characters (words invented); the font's own encoding names ① ② ③ ✔ ● ➤
    text = _canonical(_page_with_dingbats(bytes([0xAC, 0xAD, 0xAE, 0x34, 0x6C, 0xE4])))
    assert text.split() == ["Marks:", "\u2460", "\u2461", "\u2462", "\u2714", "\u25cf", "\u27a4"]


def test_a_zapfdingbats_font_with_its_own_unicode_map_is_read_by_that_map():
    text = _canonical(_page_with_dingbats(bytes([0xAC, 0xAD]), "<AC> <0031> <AD> <0032>"))
    assert text.split() == ["Marks:", "1", "2"]
