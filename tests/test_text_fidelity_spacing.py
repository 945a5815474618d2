"""Word spaces MuPDF finds only with help (issue 25): a page sets words apart by a gap, no space
glyph, and MuPDF adds the space after a few scripts' characters only."""

from __future__ import annotations

import re

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


def _set_page(lines: list[list[tuple[str, float, float, float]]]) -> bytes:
    """A page of ``lines``, each a list of (text, font size, gap in points before it, rise in
    points above the line's baseline), set glyph run by glyph run in Times, no space glyphs."""
    doc = pymupdf.open()
    page = doc.new_page()
    face = pymupdf.Font("tiro")
    writer = pymupdf.TextWriter(page.rect)
    for n, runs in enumerate(lines):
        x, y = 72.0, 100.0 + 20 * n
        for text, size, gap, rise in runs:
            x += gap
            writer.append((x, y - rise), text, font=face, fontsize=size)
            x += face.text_length(text, fontsize=size)
    writer.write_text(page)
    return doc.tobytes()


def _words(text: str, gap: float, size: float = 12.0) -> list[tuple[str, float, float, float]]:
    return [(w, size, gap if k else 0.0, 0.0) for k, w in enumerate(text.split())]


def test_tight_line_gaps_under_mupdfs_threshold_are_word_spaces_on_a_page_of_tight_lines():
    # ConTeXt shrinks word gaps to 0.13 em on tight lines, under MuPDF's 0.15 em: the line came
    # out as ``whichcouldfollowcompletely``; a gap of 0.13 em dwarfs a letter gap (about 0)
    tight = 0.13 * 12
    text = _canonical(
        _set_page(
            [
                _words("code optimized for use which could follow completely", tight),
                _words("so far so good", tight),
            ]
        )
    )
    assert text == "code optimized for use which could follow completely\nso far so good"


def test_tight_line_rule_leaves_long_words_and_kerned_letters_alone():
    # a long word whose letters touch, and a narrow gap (kerning, 0.05 em), are no word spaces;
    # a page with no tight line has its short glued words left as MuPDF reads them
    assert _canonical(_set_page([_words("internationalization", 0.0)])) == "internationalization"
    assert _canonical(_set_page([_words("abcdefghijklmnop qrs", 0.05 * 12)])) == "abcdefghijklmnopqrs"


def test_script_ends_before_a_full_size_word_so_a_footnote_mark_does_not_glue_to_it():
    # a footnote's mark, raised and smaller, touching the footnote's first word: ``5This``
    text = _canonical(_set_page([[("5", 7.0, 0.0, 4.0), ("This", 10.0, 0.2, 0.0), ("note", 10.0, 2.5, 0.0)]]))
    assert text == "5 This note"
    # a footnote that opens with a web address
    text = _canonical(_set_page([[("3", 7.0, 0.0, 4.0), ("https://example.org", 10.0, 0.2, 0.0)]]))
    assert text == "3 https://example.org"


def _unit_line(number: str, unit: str, gap: float) -> list:
    """A line ``indent <number><unit>``, the unit ``gap`` em after the number."""
    return [("indent", 12.0, 0.0, 0.0), (number, 12.0, 4.0, 0.0), (unit, 12.0, gap * 12, 0.0)]


def test_a_number_and_its_unit_a_thin_space_apart_are_two_words():
    # ``1\\,em``: a thin space (0.12 em), under MuPDF's 0.15 em; a unit set solid stays one word,
    # and so do letters after a number inside a word
    line = _unit_line
    assert _canonical(_set_page([line("1", "em", 0.12)])) == "indent 1 em"
    assert _canonical(_set_page([line("12", "pt", 0.0)])) == "indent 12pt"
    assert _canonical(_set_page([line("x2", "y", 0.12)])) == "indent x2y"


def test_a_decimal_number_and_its_unit_a_thin_space_apart_are_two_words():
    # ``2.7\\,ex``, ``.4\\,ex``: the point is inside the number, which still opens its word
    line = _unit_line
    assert _canonical(_set_page([line("2.7", "ex", 0.12)])) == "indent 2.7 ex"
    assert _canonical(_set_page([line(".4", "ex", 0.12)])) == "indent .4 ex"
    assert _canonical(_set_page([line("0,5", "cm", 0.12)])) == "indent 0,5 cm"
    # set solid, or a version's number after a letter, it stays one word
    assert _canonical(_set_page([line("1.5", "pt", 0.0)])) == "indent 1.5pt"
    assert _canonical(_set_page([line("v1.2", "a", 0.12)])) == "indent v1.2a"


def _faced_line(runs: list[tuple[str, str, float]]) -> bytes:
    """A page of one line of ``runs``, each (text, PyMuPDF font name, gap in em before it) at
    10 pt, no space glyphs: ``cour`` a monospaced face, ``tiro`` a text face, ``tiit`` its
    italic."""
    doc = pymupdf.open()
    page = doc.new_page()
    writer = pymupdf.TextWriter(page.rect)
    x = 72.0
    for text, font, gap in runs:
        face = pymupdf.Font(font)
        x += gap * 10
        writer.append((x, 100), text, font=face, fontsize=10)
        x += face.text_length(text, fontsize=10)
    writer.write_text(page)
    return doc.tobytes()


def test_a_typewriter_word_and_a_prose_word_a_shrunk_space_apart_are_two_words():
    # ``\\hspace sets`` on a line TeX shrank: 0.14 em, under MuPDF's 0.15 em
    runs = [("using", "tiro", 0.0), ("hspace", "cour", 0.33), ("needs", "tiro", 0.14), ("it", "tiro", 0.33)]
    assert _canonical(_faced_line(runs)) == "using hspace needs it"
    # and a prose word before a typewriter word
    runs = [("the", "tiro", 0.0), ("option", "tiro", 0.33), ("draft", "cour", 0.14)]
    assert _canonical(_faced_line(runs)) == "the option draft"


def test_a_tex_control_word_ends_where_the_face_changes_and_the_tight_words_after_it_are_read_apart():
    # ``\\scantokens`` in a monospaced face, then prose on a line TeX shrank, its word gaps
    # 0.13 em, under MuPDF's 0.15 em: the run of letters after the backslash is the control
    # word only up to the change of face
    prose = [(w, "tiro", 0.13) for w in "command was rather useless for this purpose".split()]
    assert _canonical(_faced_line([("\\scantokens", "cour", 0.0), *prose])) == (
        "\\scantokens command was rather useless for this purpose"
    )
    # a control word alone stays one word
    assert _canonical(_faced_line([("see", "tiro", 0.0), ("\\displaywidowpenalty", "cour", 0.33)])) == (
        "see \\displaywidowpenalty"
    )


def test_an_upright_word_and_an_italic_one_a_thin_space_apart_are_two_words():
    # ``\\sin x``: the operator's name upright, the variable italic, a thin space (0.11 em) apart
    runs = [("then", "tiro", 0.0), ("sin", "tiro", 0.33), ("x", "tiit", 0.11), ("and", "tiro", 0.33)]
    assert _canonical(_faced_line(runs)) == "then sin x and"
    # an italic word and upright letters set solid after it stay one word
    assert _canonical(_faced_line([("the", "tiro", 0.0), ("Java", "tiit", 0.33), ("s", "tiro", 0.0)])) == "the Javas"


def test_face_rule_keeps_a_typewriter_word_and_the_letters_set_solid_after_it_one_word():
    # ``\\texttt{file}s``: the plural touches the typewriter word; a kerned gap in one face too
    assert _canonical(_faced_line([("many", "tiro", 0.0), ("file", "cour", 0.33), ("s", "tiro", 0.0)])) == "many files"
    assert _canonical(_faced_line([("many", "tiro", 0.0), ("fil", "tiro", 0.33), ("es", "tiro", 0.14)])) == "many files"


def test_a_footnote_mark_opening_its_line_is_read_apart_from_a_word_of_any_case():
    # the footnote opens with a lowercase word, or one in capitals: ``16assuming``, ``14CTAN``
    text = _canonical(
        _set_page([[("16", 7.0, 0.0, 4.0), ("assuming", 10.0, 0.2, 0.0), ("it", 10.0, 2.5, 0.0)]])
    )
    assert text == "16 assuming it"
    text = _canonical(_set_page([[("14", 7.0, 0.0, 4.0), ("CTAN", 10.0, 0.2, 0.0)]]))
    assert text == "14 CTAN"
    # digits opening a line at the full size are no mark: the word stays whole
    text = _canonical(_set_page([[("3rdparty", 10.0, 0.0, 0.0), ("code", 10.0, 2.5, 0.0)]]))
    assert text == "3rdparty code"


def test_script_rule_keeps_an_index_with_its_symbol_and_a_unit_with_its_number():
    # ``e`` with index ``1`` is one word (the script belongs to what stands before it); ``12pt``
    # set at one size on one baseline is no script at all
    assert _canonical(_set_page([[("e", 10.0, 0.0, 0.0), ("1", 7.0, 0.0, -2.0)]])) == "e1"
    assert _canonical(_set_page([[("12", 10.0, 0.0, 0.0), ("Pt", 10.0, 0.0, 0.0)]])) == "12Pt"


def test_a_script_set_apart_from_its_word_is_a_word_of_its_own():
    # ``exp`` with index ``i`` 0.06 em after the italic ``p``, ``M`` with index ``HAC``: MuPDF
    # reads one word under its 0.15 em (``expi``, ``MHAC``); the page sets the script apart
    text = _canonical(_set_page([[("aexp", 10.0, 0.0, 0.0), ("i", 7.0, 0.6, -1.5), ("then", 10.0, 3.0, 0.0)]]))
    assert text == "aexp i then"
    # (an index lowered 0.12 em: TeX's 0.15 em, its position rounded)
    text = _canonical(_set_page([[("the", 10.0, 0.0, 0.0), ("M", 10.0, 2.5, 0.0), ("HAC", 7.0, 0.5, -1.2)]]))
    assert text == "the M HAC"
    # and a word after a script set apart from it (TeX's space after a script)
    text = _canonical(_set_page([[("with", 10.0, 0.0, 0.0), ("x", 10.0, 2.5, 0.0), ("2", 7.0, 0.0, 3.5),
                                  ("terms", 10.0, 0.5, 0.0)]]))
    assert text == "with x2 terms"


def test_script_apart_rule_keeps_touching_scripts_small_capitals_and_lone_glyphs_whole():
    # an index touching its symbol stays one word with it, as pdftotext reads it
    text = _canonical(_set_page([[("vars", 10.0, 0.0, 0.0), ("var", 10.0, 2.5, 0.0), ("1", 7.0, 0.03, -1.5)]]))
    assert text == "vars var1"
    # faked small capitals change size on one baseline: one word
    text = _canonical(_set_page([[("press", 10.0, 0.0, 0.0), ("R", 10.0, 2.5, 0.0), ("ETURN", 8.0, 0.5, 0.0)]]))
    assert text == "press RETURN"
    # a formula's glyphs set one by one (``d`` and its exponent alone on a line): no run of
    # letters to tell a script's gap from the glyphs' own
    assert _canonical(_set_page([[("d", 10.0, 0.0, 0.0), ("2", 7.0, 0.5, 3.5)]])) == "d2"


def _logo_page(mirrored: bool, before: str = "the ", line_above: str = "") -> bytes:
    """``the XeTeX logo`` (``before`` the logo: ``the ``) with its ``E`` drawn reflected (as the
    logo sets it) or upright, the three parts touching; ``line_above``, if any, a line above."""
    doc = pymupdf.open()
    page = doc.new_page()
    face = pymupdf.Font("tiro")
    y, size = 100.0, 12.0
    if line_above:
        page.insert_text((72, y - 14), line_above, fontname="tiro", fontsize=size)
    page.insert_text((72, y), before + "X", fontname="tiro", fontsize=size)
    x = 72 + face.text_length(before + "X", fontsize=size)
    width = face.text_length("E", fontsize=size)
    pivot = pymupdf.Point(x + width / 2, y)
    morph = (pivot, pymupdf.Matrix(-1, 0, 0, 1, 0, 0)) if mirrored else None
    page.insert_text((x, y), "E", fontname="tiro", fontsize=size, morph=morph)
    page.insert_text((x + width, y), "TEX logo", fontname="tiro", fontsize=size)
    return doc.tobytes()


def test_mirrored_glyph_inside_a_word_is_read_back_into_it():
    # the XeTeX logo's reflected E: MuPDF makes it a line of its own, the word read ``X E TEX``
    assert _canonical(_logo_page(mirrored=True)) == "the XETEX logo"
    assert _canonical(_logo_page(mirrored=False)) == "the XETEX logo"


def test_mirrored_glyph_inside_a_word_that_opens_its_line_is_read_back_into_it():
    # the logo first on its line: its ``X`` is a line alone too, just before the reflected ``E``
    # (``X`` / ``E`` / ``TEX logo``, after a line ending in a letter)
    assert _canonical(_logo_page(mirrored=True, before="", line_above="is set with")).split() == ["is", "set", "with", "XETEX", "logo"]


def _kerned_logo_page(ascent: int) -> bytes:
    """``the XeTeX logo``: its ``E`` reflected, lowered and kerned 0.17 em into the ``X`` and the
    ``T`` on either side (as TeX sets the logo), in a font whose descriptor states the ascender
    ``ascent`` (thousandths of an em) and a descender of almost 0."""
    doc = pymupdf.open()
    page = doc.new_page()
    plain, font, descriptor, stream = (doc.get_new_xref() for _ in range(4))
    doc.update_object(plain, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    doc.update_object(descriptor, f"<< /Type /FontDescriptor /FontName /Helvetica /Flags 32 /FontBBox [0 0 1000 {ascent}]"
                      f" /ItalicAngle 0 /Ascent {ascent} /Descent -2 /CapHeight {ascent} /StemV 80 >>")
    doc.update_object(font, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /FirstChar 69 /LastChar 69"
                      f" /Widths [667] /FontDescriptor {descriptor} 0 R >>")
    doc.xref_set_key(page.xref, "Resources", f"<< /Font << /FH {plain} 0 R /FE {font} 0 R >> >>")
    kern, width, end = 0.17 * 12, 0.667 * 12, 72 + pymupdf.get_text_length("the X", "helv", 12)
    # a reflected glyph is drawn leftwards from its origin: its right edge
    content = f"BT /FH 12 Tf 1 0 0 1 72 700 Tm (the X) Tj /FE 12 Tf -1 0 0 1 {end - kern + width:.2f} 698 Tm (E) Tj"
    content += f" /FH 12 Tf 1 0 0 1 {end - 2 * kern + width:.2f} 700 Tm (TEX logo) Tj ET"
    doc.update_object(stream, "<<>>")
    doc.update_stream(stream, content.encode())
    doc.xref_set_key(page.xref, "Contents", f"{stream} 0 R")
    return doc.tobytes()


def test_mirrored_glyph_whose_font_states_a_short_box_is_read_back_into_its_word_by_its_size():
    # the font's descriptor gives the reflected ``E`` a box half its size (ascender 0.503 em,
    # descender 0): its kerns, 0.17 em, are measured against its size, not that box
    assert _canonical(_kerned_logo_page(503)) == "the XETEX logo"
    assert _canonical(_kerned_logo_page(1000)) == "the XETEX logo"


def test_version_set_a_thin_space_after_a_capitalised_name_is_a_word_of_its_own():
    # the LaTeX2e logo: ``2`` a thin space after ``X``, under MuPDF's threshold; touching
    # glyphs stay one word
    assert _canonical(_set_page([_words("LATEX 2e", 0.13 * 12)])) == "LATEX 2e"
    assert _canonical(_set_page([_words("LATEX 2\u03b5", 0.13 * 12)])) == "LATEX 2\u03b5"
    assert _canonical(_set_page([_words("ISO 8859x", 0.0)])) == "ISO8859x"


def _tracked(words: str, letter_gap: float, word_gap: float, size: float = 12.0) -> list:
    """``words`` set letter by letter, ``letter_gap`` em between letters, ``word_gap`` em between
    words (as ``_set_page`` runs)."""
    runs = []
    for w in words.split():
        for k, letter in enumerate(w):
            gap = letter_gap if k else (word_gap if runs else 0.0)
            runs.append((letter, size, gap * size, 0.0))
    return runs


def test_tracking_letters_set_evenly_apart_are_one_word_and_a_wider_gap_a_word_space():
    # a tracked heading: letters 0.16 em apart (more than MuPDF's 0.15: ``A B S T R A C T``)
    assert _canonical(_set_page([_tracked("ABSTRACT", 0.16, 0.5)])) == "ABSTRACT"
    assert _canonical(_set_page([_tracked("LIST OF FIGURES", 0.16, 0.5)])) == "LIST OF FIGURES"


def test_letter_spaced_capitals_read_apart_here_and_there_are_joined_into_their_words():
    # tracking right at MuPDF's 0.15 em: its letters 0.14 or 0.16 em apart, MuPDF read
    # ``GRA PHIC AL P RACT IC E``; a word space (0.5 em) stays
    gaps = [0.14, 0.14, 0.16, 0.14, 0.14, 0.14, 0.16]
    runs = []
    for w in "GRAPHICAL PRACTICE OF DATA".split():
        for k, letter in enumerate(w):
            gap = gaps[(len(runs) + k) % len(gaps)] if k else (0.5 if runs else 0.0)
            runs.append((letter, 12.0, gap * 12.0, 0.0))
    assert _canonical(_set_page([runs])) == "GRAPHICAL PRACTICE OF DATA"


def test_tracked_capitals_rule_leaves_untracked_capitals_at_word_spaces_apart():
    # capitals whose letters touch: ``A`` and ``IN`` are words, however narrow the word space;
    # tracked capitals (0.12 em) a word space wider than their tracking apart (0.22 em) likewise
    assert _canonical(_set_page([_tracked("IN A WAY OF X", 0.0, 0.16)])) == "IN A WAY OF X"
    assert _canonical(_set_page([_tracked("TABLE OF A KIND", 0.12, 0.22)])) == "TABLE OF A KIND"


def test_tracking_rule_leaves_single_letter_words_at_word_spaces_apart():
    # variables or initials each a word of its own, a word space (0.3 em) apart
    assert _canonical(_set_page([_tracked("x y z w", 0.0, 0.3)])) == "x y z w"


def test_tracking_rule_leaves_single_letters_evenly_apart_across_its_bound_all_apart():
    # a row of keys, each a letter a word space apart (0.26 em, one of them 0.24 em): evenly
    # spaced across the bound, no tracking; joining only the gap under it glued two keys
    gaps = [0.0, 0.26, 0.26, 0.26, 0.24, 0.26, 0.26, 0.26]
    runs = [(letter, 12.0, gap * 12.0, 0.0) for letter, gap in zip("aAeEoOuU", gaps)]
    assert _canonical(_set_page([runs])) == "a A e E o O u U"


_ARABIC = {"a": 0x0627, "b": 0x0644, "c": 0x064E, "d": 0x062D, "e": 0x0645, "f": 0x064F, "g": 0x062F}
"""Times glyphs standing for Arabic letters and marks (``c`` fatha, ``f`` damma: marks of no
width) through the font's ToUnicode map (``_right_to_left_page``)."""


def _right_to_left_page(words: list[str], gap: float) -> bytes:
    """``words`` (of ``_ARABIC``'s keys) set right to left, ``gap`` em apart, as ConTeXt sets
    vowelled Arabic: every glyph in a text object of its own, in logical order, each letter left
    of the one before, a mark at its letter's right edge; the font's map gives the glyphs their
    Arabic letters (MuPDF gives a mark drawn alone no direction, and read the line without its
    word spaces)."""
    doc = pymupdf.open()
    page = doc.new_page()
    face = pymupdf.Font("tiro")
    writer = pymupdf.TextWriter(page.rect)
    writer.append((72, 50), "".join(_ARABIC), font=face, fontsize=12)
    writer.write_text(page)
    (xref, _ext, _kind, _base, name, _enc), *_ = page.get_fonts()
    cmap_xref = int(doc.xref_get_key(xref, "ToUnicode")[1].split()[0])
    cids = {}
    ranges = r"<([0-9a-f]{4})> <([0-9a-f]{4})> <([0-9a-f]{4})>"
    for m in re.finditer(ranges, doc.xref_stream(cmap_xref).decode()):
        low, high, first = (int(x, 16) for x in m.groups())
        cids.update((chr(first + k), low + k) for k in range(high - low + 1))
    pairs = "\n".join(f"<{cids[k]:04x}> <{v:04x}>" for k, v in _ARABIC.items())
    cmap = (
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Adobe-Identity-UCS def"
        f" /CMapType 2 def 1 begincodespacerange <0000> <FFFF> endcodespacerange {len(_ARABIC)} beginbfchar\n"
        f"{pairs}\nendbfchar endcmap CMapName currentdict /CMap defineresource pop end end"
    )
    doc.update_stream(cmap_xref, cmap.encode())
    width = {k: 0 if k in "cf" else round(face.text_length(k, fontsize=1000)) for k in _ARABIC}
    descendant = int(doc.xref_get_key(xref, "DescendantFonts")[1].strip("[]").split()[0])
    doc.xref_set_key(descendant, "W", "[" + " ".join(f"{cids[k]} [{width[k]}]" for k in _ARABIC) + "]")
    x, ops = 400.0, []
    for word in words:
        for k in word:
            x -= width[k] * 12 / 1000
            ops.append(f"BT /{name} 12 Tf 1 0 0 1 {x:.2f} 100 Tm <{cids[k]:04x}> Tj ET")
        x -= gap * 12
    doc.update_stream(page.get_contents()[0], "\n".join(ops).encode())
    return doc.tobytes()


def test_right_to_left_words_a_word_space_apart_are_words_where_mupdf_reads_them_glued():
    # a word ending in a vowel mark: MuPDF saw the line switch direction there and "ignored the
    # jump", so every word of a ConTeXt book's vowelled Arabic lines came out glued
    text = _canonical(_right_to_left_page(["acbf", "dcef", "bca"], 0.3))
    assert text == "\u0627\u064e\u0644\u064f \u062d\u064e\u0645\u064f \u0644\u064e\u0627"


def test_right_to_left_rule_keeps_the_letters_of_one_word_together():
    one_word = "\u0627\u064e\u0644\u064f\u062d\u064e\u0645\u064f"
    assert _canonical(_right_to_left_page(["acbfdcef"], 0.3)) == one_word
    # a narrow gap (kerning, 0.05 em) is no word space
    assert _canonical(_right_to_left_page(["acbf", "dcef"], 0.05)) == one_word


def test_tight_line_rule_reads_runs_of_lowercase_letters_of_any_script():
    # a tight line of accented words, 0.13 em apart: ``préféréeélectricité`` has no run of 16
    # ASCII letters, and its line's words run no longer than the page's others
    tight = 0.13 * 12
    text = _canonical(
        _set_page([_words("la forme préférée électricité du réseau", tight), _words("de la fête", tight)])
    )
    assert text == "la forme préférée électricité du réseau\nde la fête"


def test_tight_line_rule_leaves_a_tracked_lowercase_word_whole():
    # a word tracked 0.12 em, letter by letter: its gaps cut it into single letters, no words
    tracked = _words(" ".join("letterspacedword"), 0.12 * 12)
    assert (
        _canonical(_set_page([tracked, _words("so far so good", 0.13 * 12)]))
        == "letterspacedword\nsofarsogood"
    )


def test_a_gap_between_a_latin_word_and_the_han_or_kana_after_it_is_a_word_space():
    # Japanese and Chinese typesetting set a Latin word apart from the CJK text after it by a
    # glue (pTeX's xkanjiskip, 0.25 em shrunk on a full line to 0.12 em), under MuPDF's 0.15 em:
    # ``layoutを`` glued the name to the kana; the page, and pdftotext, have the boundary
    text = _canonical(
        _faced_line([("\u3053\u308c\u306f", "japan", 0), ("layout", "tiro", 0.2), ("\u3092\u4f7f\u3046", "japan", 0.12)])
    )
    assert text == "\u3053\u308c\u306f layout \u3092\u4f7f\u3046"
    # set solid (no glue), the word and the kana stay as MuPDF reads them
    text = _canonical(_faced_line([("layout", "tiro", 0), ("\u3092\u4f7f\u3046", "japan", 0.0)]))
    assert text == "layout\u3092\u4f7f\u3046"
    # a number inside a CJK label, the glue on both sides, stays with its label: ``第1章``
    text = _canonical(_faced_line([("\u7b2c", "japan", 0), ("1", "tiro", 0.12), ("\u7ae0", "japan", 0.12)]))
    assert text == "\u7b2c1\u7ae0"
    # a word of letters and digits, or a number, in the prose before the kana is a word
    text = _canonical(_faced_line([("box0", "tiro", 0), ("\u306b\u306f", "japan", 0.12)]))
    assert text == "box0 \u306b\u306f"
