"""Word spaces MuPDF finds only with help (issue 25): a page sets words apart by a gap, no space
glyph, and MuPDF adds the space after a few scripts' characters only."""

from __future__ import annotations

import pymupdf

from chunking.normalise import normalise
from chunking.readers import read_raw


def _gapped_page(words: list[str], gap: float = 3.0, font: str = "tiro") -> bytes:
    """One line of ``words`` in Times (MuPDF's own, with its ligature glyphs), each placed by
    position ``gap`` points after the last: no space glyph, as TeX sets a line."""
    doc = pymupdf.open()
    page = doc.new_page()
    face = pymupdf.Font(font)
    writer = pymupdf.TextWriter(page.rect)
    x = 72.0
    for word in words:
        writer.append((x, 100), word, font=face, fontsize=12)
        x += face.text_length(word, fontsize=12) + gap
    writer.write_text(page)
    return doc.tobytes()


def _canonical(data: bytes) -> str:
    raw = read_raw(data, "gaps.pdf")
    try:
        return normalise(raw.pages).text
    finally:
        raw.close()


def test_ligature_expanded_by_mupdf_keeps_the_word_space_after_it():
    # ``ﬀ`` ending a word: MuPDF adds no space after a ligature glyph, so ``oﬀby`` was one word
    text = _canonical(
        _gapped_page(["turned", "o\ufb00", "by", "default,", "a", "\ufb01le", "and", "e\ufb03cient"])
    )
    assert text == "turned off by default, a file and efficient"


def test_gap_after_a_character_mupdf_adds_no_space_after_is_a_word_space():
    # MuPDF adds spaces after Latin, Greek, ... only: ``⟨language⟩ is`` came out ``⟨language⟩is``
    text = _canonical(_gapped_page(["called", "\u27e8language\u27e9", "is", "x", "\u2208", "A"]))
    assert text == "called \u27e8language\u27e9 is x \u2208 A"


def test_no_space_where_the_glyphs_touch_or_between_two_cjk_characters():
    assert _canonical(_gapped_page(["and\u27e8glued\u27e9", "x\u2208A"])) == "and\u27e8glued\u27e9 x\u2208A"
    # CJK sets no word spaces: a gap between two of its characters is justification
    assert (
        _canonical(_gapped_page(["\u4e2d", "\u6587", "\u7ea6", "500"], font="china-s"))
        == "\u4e2d\u6587\u7ea6 500"
    )
