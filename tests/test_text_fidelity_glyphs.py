"""Glyphs a PDF gives no text (issue 25): MuPDF reads a glyph without Unicode as its glyph id,
which for a CID-keyed font is no character (FontAwesome's icons came out as ``æ``, ``Ƥ``); and
replacement text (``/ActualText``) MuPDF cannot lay over its glyphs: one of several words drawn
with gaps for its spaces, or one enclosing another, broke its line apart."""

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


def test_a_glyph_a_cid_fonts_map_leaves_out_is_no_text_by_a_one_byte_id_where_the_page_sets_no_other_font():
    # ``¥`` is Times' glyph 0x64: MuPDF read the variant the map leaves out as ``d``, a word
    # invented (a font specimen's glyph variants as ``ý``, ``û``, ``ÿ``); the page sets only
    # CID-keyed fonts with a map, so no id there is a simple font's code
    text = _canonical(_page_with_unmapped(["Hello", "\u00a5", "world", "a\u00a5b"], "\u00a5", None))
    assert text == "Hello world a b"
    # beside a simple font's text, a one-byte id may be that font's code: read as before
    doc = pymupdf.open(stream=_page_with_unmapped(["Hello", "\u00a5", "world"], "\u00a5", None))
    doc[0].insert_text((72, 200), "Plain line", fontname="helv", fontsize=12)
    assert _canonical(doc.tobytes()) == "Hello d world\nPlain line"


def test_glyphs_the_unicode_map_gives_text_are_read_as_before():
    assert (
        _canonical(_page_with_unmapped(["Hello", "\u2665", "world"], "\u2663", "FFFD"))
        == "Hello \u2665 world"
    )


def _page_with_dingbats(codes: bytes, to_unicode: str = "") -> bytes:
    """A line ``Marks:`` in Helvetica, then ``codes`` in the standard font ZapfDingbats (not
    embedded; no ToUnicode map, or ``to_unicode``'s bfchar entries as one), each a space apart."""
    doc = pymupdf.open()
    doc.new_page()
    keys = ""
    if to_unicode:
        keys = f"/ToUnicode {_bfchar_cmap(doc, to_unicode)} 0 R "
    dingbats = doc.get_new_xref()
    doc.update_object(dingbats, f"<< /Type /Font /Subtype /Type1 /BaseFont /ZapfDingbats {keys}>>")
    marks = "".join(f"{c:02X}20" for c in codes)
    return _page_with_content(doc, f"BT /FH 12 Tf 72 700 Td (Marks:) Tj /FZ 12 Tf 50 0 Td <{marks}> Tj ET", FZ=dingbats)


def _bfchar_cmap(doc: pymupdf.Document, to_unicode: str) -> int:
    """A ``ToUnicode`` CMap of one-byte codes holding ``to_unicode``'s bfchar entries, its xref."""
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
    return cmap


def _page_with_content(doc: pymupdf.Document, content: str, **fonts: int) -> bytes:
    """``doc``'s one page with ``content`` as its content stream, its fonts Helvetica (``/FH``,
    WinAnsi) and ``fonts`` (resource name: the font's xref), as a PDF's bytes."""
    page = doc[0]
    helvetica = doc.get_new_xref()
    doc.update_object(helvetica, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    names = " ".join(f"/{name} {xref} 0 R" for name, xref in {**fonts, "FH": helvetica}.items())
    doc.xref_set_key(page.xref, "Resources", f"<< /Font << {names} >> >>")
    stream = doc.get_new_xref()
    doc.update_object(stream, "<<>>")
    doc.update_stream(stream, content.encode())
    doc.xref_set_key(page.xref, "Contents", f"{stream} 0 R")
    return doc.tobytes()


def test_a_zapfdingbats_font_without_a_unicode_map_reads_as_the_dingbats_it_draws():
    # circled digits, a check mark, a bullet, an arrow: MuPDF read them as ``Ê``, ``3``, control
    # characters (words invented); the font's own encoding names ① ② ③ ✔ ● ➤
    text = _canonical(_page_with_dingbats(bytes([0xAC, 0xAD, 0xAE, 0x34, 0x6C, 0xE4])))
    assert text.split() == ["Marks:", "\u2460", "\u2461", "\u2462", "\u2714", "\u25cf", "\u27a4"]


def test_a_zapfdingbats_font_with_its_own_unicode_map_is_read_by_that_map():
    text = _canonical(_page_with_dingbats(bytes([0xAC, 0xAD]), "<AC> <0031> <AD> <0032>"))
    assert text.split() == ["Marks:", "1", "2"]


def _page_with_symbols(to_unicode: str, inner: str = "color") -> bytes:
    """``see ⟨color⟩ here``: ``inner`` in Helvetica between two brackets of an embedded Type 1
    font whose program puts ``angbracketleft`` and ``angbracketright`` at ``h`` and ``i`` (its
    built-in encoding, a math symbol font's), re-encoded by a ``/Differences`` array at 0x22 and
    0x23, with ``to_unicode``'s bfchar entries as its ``ToUnicode`` map."""
    doc = pymupdf.open()
    doc.new_page()
    program, descriptor, font = (doc.get_new_xref() for _ in range(3))
    clear = (
        b"%!PS-AdobeFont-1.0: Symbols 1.0\n/FontName /Symbols def\n/Encoding 256 array\n"
        b"0 1 255 {1 index exch /.notdef put} for\ndup 104 /angbracketleft put\n"
        b"dup 105 /angbracketright put\nreadonly def\ncurrentfile eexec\n"
    )
    doc.update_object(program, f"<< /Length1 {len(clear)} /Length2 0 /Length3 0 >>")
    doc.update_stream(program, clear)
    doc.update_object(
        descriptor,
        "<< /Type /FontDescriptor /FontName /Symbols /Flags 4 /FontBBox [0 0 1000 1000] /ItalicAngle 0"
        f" /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 /FontFile {program} 0 R >>",
    )
    cmap = _bfchar_cmap(doc, to_unicode)
    doc.update_object(
        font,
        "<< /Type /Font /Subtype /Type1 /BaseFont /Symbols /FirstChar 34 /LastChar 35 /Widths [389 389]"
        " /Encoding << /Type /Encoding /Differences [34 /angbracketleft /angbracketright] >>"
        f" /ToUnicode {cmap} 0 R /FontDescriptor {descriptor} 0 R >>",
    )
    content = f"BT /FH 12 Tf 72 700 Td (see ) Tj /FS 12 Tf (\\042) Tj /FH 12 Tf ({inner}) Tj /FS 12 Tf (\\043) Tj"
    return _page_with_content(doc, content + " /FH 12 Tf ( here) Tj ET", FS=font)


def test_a_unicode_map_giving_glyphs_their_codes_in_the_font_is_read_by_the_glyphs_names():
    # the map says ``h`` and ``i``, the glyphs' codes in the font program's own encoding; the
    # page draws the angle brackets its re-encoding names
    assert _canonical(_page_with_symbols("<22> <0068> <23> <0069>")) == "see \u27e8color\u27e9 here"


def test_a_unicode_map_agreeing_with_no_builtin_code_is_read_by_that_map():
    assert _canonical(_page_with_symbols("<22> <005B> <23> <005D>")) == "see [color] here"


def _page(body: str) -> bytes:
    """One page whose text object (in Helvetica, ``/FH``) holds ``body``."""
    doc = pymupdf.open()
    doc.new_page()
    return _page_with_content(doc, f"BT /FH 11 Tf 72 700 Td {body} ET")


def test_a_replacement_of_several_words_that_repeats_its_glyphs_is_read_as_drawn():
    # the words drawn with gaps for spaces (kerning, no space glyph), the replacement with spaces:
    # MuPDF laid each letter after the first space on the glyph before its own
    words = "(Open)-280(Software)-280(Foundation)-280(of)-280(Readers)"
    replacement = "/Span << /ActualText (Open Software Foundation of Readers) >> BDC"
    text = _canonical(_page(f"(OSF ) Tj {replacement} [{words}] TJ EMC"))
    assert text.split() == ["OSF", "Open", "Software", "Foundation", "of", "Readers"]


def test_a_replacement_enclosing_another_keeps_the_inner_one_and_reads_the_rest_as_drawn():
    # an acronym list's entry: the expansion replaces the whole entry, the acronym (drawn in
    # small capitals, read ``ag``) replaced by its capitals inside it
    body = (
        "/Span << /ActualText (Comit\\351 G\\351n\\351ral) >> BDC "
        "/Span << /ActualText (CG) >> BDC (cg) Tj EMC "
        "[( )-200(Comit\\351)-280(G\\351n\\351ral)] TJ EMC"
    )
    assert _canonical(_page(body)).split() == ["CG", "Comité", "Général"]


def test_a_replacement_that_differs_from_its_glyphs_stays():
    # a copy icon (drawn ``COPY``) replaced by the command it copies, printed above it too
    body = (
        "[(make)-280(all)-280(install)] TJ 0 -20 Td (see the icon ) Tj "
        "/Span << /ActualText (make all install) >> BDC (COPY) Tj EMC"
    )
    assert _canonical(_page(body)).split() == [
        "make",
        "all",
        "install",
        "see",
        "the",
        "icon",
        "make",
        "all",
        "install",
    ]


def _page_in_cid_truetype(text: str, keep_cmap: bool = True) -> bytes:
    """``text`` set in a TrueType font embedded as a CID font (``Type0``, ``Identity-H``, its
    glyphs its CIDs) whose ``ToUnicode`` map is taken out, as a text-to-PDF converter writes
    it: only the glyph ids are left to read, and the font program's own ``cmap``; with
    ``keep_cmap`` False the program is subset, which drops its ``cmap``."""
    doc = pymupdf.open()
    page = doc.new_page()
    writer = pymupdf.TextWriter(page.rect)
    writer.append((72, 100), text, font=pymupdf.Font("cjk"), fontsize=12)
    writer.write_text(page)
    if not keep_cmap:
        doc.subset_fonts()
    (xref, ext, kind, *_), *_ = page.get_fonts()
    assert (ext, kind) == ("ttf", "Type0")
    doc.xref_set_key(xref, "ToUnicode", "null")
    return doc.tobytes(garbage=3, deflate=True)


def test_a_truetype_cid_font_without_a_unicode_map_is_read_by_its_programs_own_character_map():
    # MuPDF read the glyph ids: ``)FMMP\x01XPSME`` for ``Hello world``
    assert _canonical(_page_in_cid_truetype("Hello world 中文")) == "Hello world 中文"
    # a program without a ``cmap`` says nothing of its glyphs: left as MuPDF reads it
    assert "Hello" not in _canonical(_page_in_cid_truetype("Hello world", keep_cmap=False))


def test_a_truetype_cid_font_named_by_a_tag_alone_is_given_its_programs_name_with_its_map():
    # a converter's tag says nothing of the face (a monospaced one is told by its name)
    from chunking.readers.pdfcidfonts import identity_fonts_mapped

    doc = pymupdf.open("pdf", _page_in_cid_truetype("Hello"))
    (xref, *_), *_ = doc[0].get_fonts()
    doc.xref_set_key(xref, "BaseFont", "/QXTRB")
    assert identity_fonts_mapped(doc[0])
    assert doc.xref_get_key(xref, "BaseFont")[1] == "/QXTRB+DroidSansFallbackRegular"


def _page_mapped(text: str, maps: dict[str, str]) -> bytes:
    """One line of ``text`` in Times as a CID-keyed font (Type0, Identity-H), its Unicode map
    giving each glyph of ``maps`` the characters of its value instead (``"0627 0644"``: alef,
    lam): a glyph that stands for several letters, a ligature."""
    doc = pymupdf.open()
    page = doc.new_page()
    face = pymupdf.Font("tiro")
    writer = pymupdf.TextWriter(page.rect)
    writer.append((72, 100), text, font=face, fontsize=20)
    writer.write_text(page)
    (xref, _ext, kind, *_), *_ = page.get_fonts()
    assert kind == "Type0"
    cmap_xref = int(doc.xref_get_key(xref, "ToUnicode")[1].split()[0])
    cmap = doc.xref_stream(cmap_xref).decode("latin-1")
    entries = "".join(f"<{face.has_glyph(ord(c)):04x}> <{value.replace(' ', '')}>\n" for c, value in maps.items())
    doc.update_stream(cmap_xref, cmap.replace("endbfchar", entries + "endbfchar", 1).encode("latin-1"))
    return doc.tobytes()


def test_a_right_to_left_ligature_is_read_in_its_maps_order_not_backwards():
    # from the left: beh, the ligature of Allah (its map: alef, lam, lam, heh), noon; read right
    # to left: noon, alef lam lam heh, beh. MuPDF put the ligature's last three letters (of no
    # width, at its box's end) before its alef: ``نهللاب``
    arabic = {"x": "0628", "y": "0627 0644 0644 0647", "z": "0646"}
    assert _canonical(_page_mapped("xyz", arabic)) == "\u0646\u0627\u0644\u0644\u0647\u0628"
    # a left-to-right glyph of two letters stays as it was read
    assert _canonical(_page_mapped("xy", {"x": "0066", "y": "0066 0069"})) == "ffi"
