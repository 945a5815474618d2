"""A TrueType CID font without a Unicode map read by its own character map (issue 25).

Why: a CID-keyed font with the ``Identity-H`` (or ``-V``) encoding names each glyph by its id in
the font program; only a ``ToUnicode`` map says which character a glyph is. A converter that
embeds a TrueType font this way and writes no such map (a text-to-PDF filter setting a whole
manual in one monospaced font) leaves MuPDF nothing but the glyph ids, which it gives as
characters: in a font whose glyphs stand in the Macintosh standard order, ``a`` is glyph 68 and
comes out ``D``, the space is glyph 3, a control character, and every word of the book is
shifted letter by letter (``PDQXDO`` for ``manual``), a garbage layer the book is then
OCR'd for. pdftotext reads the same ids.

The font program itself still says what its glyphs are: a TrueType font carries a ``cmap``
table from characters to glyph ids, which read backwards gives each glyph its character.

How: where a page's text holds a control character (a glyph id under 32 read as a character, as
the space's is in most TrueType fonts), each font of the page that is a ``Type0`` font with an
``Identity`` encoding and no ``ToUnicode`` map, over a ``CIDFontType2`` whose glyphs are its
CIDs (no ``CIDToGIDMap``, or ``/Identity``), with an embedded TrueType program that has a
``cmap``, gets in the open document (never in the file) the ``ToUnicode`` map that table
implies, and the page is read again; the document's other pages that use the font read it
right from then on. A font the PDF names otherwise than its program (a converter's tag,
``/QXTRB``) is given, with the map, the name its program carries (``DejaVu Sans Mono``): a monospaced face is told by its name
(``pdftypewriter``), and a text-to-PDF converter's pages are typewritten. A glyph several characters map to is given the lowest (the space, not the
no-break space); one only a private-use code point maps to (a symbol font's ``cmap``) is left
without text. A font whose program has no ``cmap`` (a subset that dropped it) is left as it is.
"""

from __future__ import annotations

import re

import pymupdf

from .pdfbuiltin import give_to_unicode

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f]")
"""A control character in a page's text: a glyph id under 32 that MuPDF gave as a character."""

_IDENTITY = ("/Identity-H", "/Identity-V")

_PRIVATE_USE = range(0xE000, 0xF900)

_PER_BLOCK = 100
"""Entries per ``beginbfchar`` block (a CMap's limit)."""


def shows_glyph_ids(text: str) -> bool:
    """Whether a page's text holds a control character: the cheap test before its fonts are read."""
    return _CONTROL.search(text) is not None


def identity_fonts_mapped(page: pymupdf.Page) -> bool:
    """Give each TrueType CID font of ``page`` that has an ``Identity`` encoding and no
    ``ToUnicode`` map the map its program's ``cmap`` implies, in the open document (never in
    the file); whether any font was given one (the page must then be read again)."""
    doc = page.parent
    changed = False
    for xref, ext, kind, *_ in page.get_fonts():
        if not unmapped_identity_truetype(doc, xref, ext, kind):
            continue
        characters = glyph_characters(doc, xref)
        if not characters:
            continue
        _named_by_program(doc, xref)
        give_to_unicode(doc, xref, to_unicode_cmap(characters))
        changed = True
    return changed


def _named_by_program(doc: pymupdf.Document, xref: int) -> None:
    """Give the font at ``xref`` (and its CID font) the name its program carries where the PDF
    names it by something else (a converter's tag, ``/QXTRB``): what tells a monospaced face by
    its name (``pdftypewriter.MONOSPACED_NAME``) is the program's own name (``DejaVu Sans
    Mono``), which the tag lacks. The PDF's name is kept before it, as a subset's tag."""
    base = doc.xref_get_key(xref, "BaseFont")[1]
    try:
        name = re.sub(r"[^A-Za-z0-9-]", "", pymupdf.Font(fontbuffer=doc.extract_font(xref)[3]).name)
    except (RuntimeError, ValueError):
        return
    tag = re.sub(r"[^A-Za-z0-9-]", "", base)
    if not name or name.casefold() in tag.casefold():
        return
    descendant = re.match(r"\[?\s*(\d+) 0 R", doc.xref_get_key(xref, "DescendantFonts")[1])
    for font in (xref, int(descendant.group(1))) if descendant else (xref,):
        doc.xref_set_key(font, "BaseFont", f"/{tag}+{name}" if tag else f"/{name}")


def unmapped_identity_truetype(doc: pymupdf.Document, xref: int, ext: str, kind: str) -> bool:
    """Whether the font at ``xref`` (``ext`` and ``kind`` as ``Page.get_fonts`` gives them) is a
    ``Type0`` font with an ``Identity`` encoding and no ``ToUnicode`` map over a
    ``CIDFontType2`` whose glyphs are its CIDs, with an embedded TrueType program."""
    if kind != "Type0" or ext != "ttf":
        return False
    if (
        doc.xref_get_key(xref, "Encoding")[1] not in _IDENTITY
        or doc.xref_get_key(xref, "ToUnicode")[0] != "null"
    ):
        return False
    descendant = re.match(r"\[?\s*(\d+) 0 R", doc.xref_get_key(xref, "DescendantFonts")[1])
    if descendant is None:
        return False
    cid_font = int(descendant.group(1))
    return doc.xref_get_key(cid_font, "Subtype")[1] == "/CIDFontType2" and doc.xref_get_key(
        cid_font, "CIDToGIDMap"
    )[1] in ("null", "/Identity")


def glyph_characters(doc: pymupdf.Document, xref: int) -> dict[int, int]:
    """Each glyph id of the font's embedded TrueType program and the lowest code point its
    ``cmap`` maps to it (private-use code points aside); empty where it has no ``cmap``."""
    try:
        program = doc.extract_font(xref)[3]
        font = pymupdf.Font(fontbuffer=program) if program else None
    except (RuntimeError, ValueError):
        return {}
    if font is None:
        return {}
    characters: dict[int, int] = {}
    for code in sorted(font.valid_codepoints()):
        if code in _PRIVATE_USE:
            continue
        glyph = font.has_glyph(code)
        if glyph and glyph not in characters:
            characters[glyph] = code
    return characters


def to_unicode_cmap(characters: dict[int, int]) -> bytes:
    """A ``ToUnicode`` CMap of two-byte codes giving each glyph id its code point."""
    entries = [
        f"<{glyph:04X}> <{chr(code).encode('utf-16-be').hex().upper()}>"
        for glyph, code in sorted(characters.items())
        if glyph <= 0xFFFF
    ]
    blocks = "".join(
        f"{len(block)} beginbfchar\n" + "\n".join(block) + "\nendbfchar\n"
        for block in (entries[k : k + _PER_BLOCK] for k in range(0, len(entries), _PER_BLOCK))
    )
    return (
        "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
        "/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n"
        "1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n"
        f"{blocks}endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n"
    ).encode("ascii")
