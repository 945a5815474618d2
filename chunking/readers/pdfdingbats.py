"""A ZapfDingbats font without a Unicode map read as the dingbats it draws (issue 25).

Why: ZapfDingbats (one of the PDF's 14 standard fonts, and URW's free clone ``Dingbats`` that TeX
embeds for its ``\\ding`` symbols) names its glyphs ``a1`` … ``a191``, names in no glyph list
MuPDF reads; a PDF that sets it without a ``ToUnicode`` map gets from MuPDF the glyph's id or a
number taken from its name read as a character: the circled digits ``① ② ③`` came out ``0 1 2``
or ``Ê``, a check mark ``3``, a bullet ``l``, each an invented word (a table of the font's
glyphs, over a hundred on one page). The font's encoding is fixed and public: Adobe's ITC Zapf
Dingbats glyph list gives each of its names a Unicode code point (the Dingbats block was made
from this font), and pdftotext reads it so.

How: where a page's text is set in such a font, the font in the open document is given the
``ToUnicode`` map that this encoding implies (``DINGBATS_RUNS``), and the page is read again; the
other pages that use the font read it right from then on. Only a simple font with neither a map
nor an ``/Encoding`` of its own (its codes are the font's built-in encoding, the standard one)
is changed: a PDF that says what its glyphs mean is taken at its word.
"""

from __future__ import annotations

import re

import pymupdf

DINGBATS_RUNS = (
    (0x21, 0x2701, 4),
    (0x25, 0x260E, 1),
    (0x26, 0x2706, 4),
    (0x2A, 0x261B, 1),
    (0x2B, 0x261E, 1),
    (0x2C, 0x270C, 28),
    (0x48, 0x2605, 1),
    (0x49, 0x2729, 35),
    (0x6C, 0x25CF, 1),
    (0x6D, 0x274D, 1),
    (0x6E, 0x25A0, 1),
    (0x6F, 0x274F, 4),
    (0x73, 0x25B2, 1),
    (0x74, 0x25BC, 1),
    (0x75, 0x25C6, 1),
    (0x76, 0x2756, 1),
    (0x77, 0x25D7, 1),
    (0x78, 0x2758, 7),
    (0x80, 0x2768, 14),
    (0xA1, 0x2761, 7),
    (0xA8, 0x2663, 1),
    (0xA9, 0x2666, 1),
    (0xAA, 0x2665, 1),
    (0xAB, 0x2660, 1),
    (0xAC, 0x2460, 10),
    (0xB6, 0x2776, 31),
    (0xD5, 0x2192, 1),
    (0xD6, 0x2194, 2),
    (0xD8, 0x2798, 24),
    (0xF1, 0x27B1, 14),
)
"""ZapfDingbats' built-in encoding as Unicode, as runs (first code, its code point, how many
codes in a row map to code points in a row): each code's glyph name in the font's metrics
(Adobe's ``ZapfDingbats.afm``: code 0x21 is ``a1``, 0xAC ``a120``) looked up in Adobe's ITC Zapf
Dingbats glyph list (``a1`` is U+2701 ✁, ``a120`` U+2460 ①). Code 0x20 is the space."""

_DINGBATS_FAMILY = re.compile(r"dingbats|d050000l", re.IGNORECASE)
"""A font family MuPDF names for a ZapfDingbats font (its HTML writer's name: the font's name cut
at ``-``): Adobe's ``ZapfDingbats``, URW's clone ``Dingbats`` or ``D050000L``."""

_DINGBATS_BASE = re.compile(
    r"^/?(?:[A-Z]{6}\+)?(?:ITC-?)?(?:Zapf-?)?Dingbats(?:-Regular)?$|^/?(?:[A-Z]{6}\+)?D050000L$"
)
"""A PDF font's ``/BaseFont`` (a subset's six-letter tag aside) that names ZapfDingbats or its
URW clone, and no other font whose name holds the word (``Wingdings``, ``ZapfChancery``)."""


def sets_dingbats(fonts: set[str]) -> bool:
    """Whether any of a page's font families (``pdfstyles.Styles.fonts``) is a ZapfDingbats
    font: the cheap test before the page's font resources are read."""
    return any(_DINGBATS_FAMILY.search(family) for family in fonts)


def dingbats_mapped(page: pymupdf.Page) -> bool:
    """Give each ZapfDingbats font of ``page`` that has neither a ``ToUnicode`` map nor an
    ``/Encoding`` the map of its built-in encoding (``DINGBATS_RUNS``), in the open document
    (never in the file); whether any font was given one (the page must then be read again)."""
    doc = page.parent
    changed = False
    for xref, _ext, kind, base, *_ in page.get_fonts():
        if kind != "Type1" or not _DINGBATS_BASE.match(base):
            continue
        if (
            doc.xref_get_key(xref, "ToUnicode")[0] != "null"
            or doc.xref_get_key(xref, "Encoding")[0] != "null"
        ):
            continue
        cmap = doc.get_new_xref()
        doc.update_object(cmap, "<<>>")
        doc.update_stream(cmap, _to_unicode_cmap())
        doc.xref_set_key(xref, "ToUnicode", f"{cmap} 0 R")
        changed = True
    return changed


def _to_unicode_cmap() -> bytes:
    """``DINGBATS_RUNS`` as a ``ToUnicode`` CMap (one-byte codes, one ``bfrange`` per run)."""
    ranges = "\n".join(f"<{c:02X}> <{c + n - 1:02X}> <{u:04X}>" for c, u, n in DINGBATS_RUNS)
    return (
        "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
        "/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n"
        "1 begincodespacerange\n<00> <FF>\nendcodespacerange\n"
        f"{len(DINGBATS_RUNS)} beginbfrange\n{ranges}\nendbfrange\n"
        "endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n"
    ).encode("ascii")
