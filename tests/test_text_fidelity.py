"""Text fidelity fixes of issue 25: TeX's spacing accents composed with their letter, and a page
that a repaired PDF gives back empty named in a warning."""

from __future__ import annotations

import re
import unicodedata

import pymupdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunking.normalise import SPACING_ACCENTS_BEFORE, normalise
from chunking.pipeline import run_book
from chunking.policy import Policy
from chunking.readers import read_raw
from chunking.readers.raw import RawPage


def _norm(*texts: str):
    return normalise([RawPage(number=i + 1, label="", text=t) for i, t in enumerate(texts)])


@pytest.mark.parametrize(
    ("raw", "canonical"),
    [
        ("Br\u00a8oker", "Bröker"),  # diaeresis before the letter, as TeX's \accent sets it
        ("Juh\u00b4asz", "Juhász"),
        ("Erd\u02ddos", "Erdős"),
        ("\u02c7Cech", "Čech"),
        ("na\u00a8\u0131ve", "naïve"),  # an accent on TeX's dotless i
        ("Fran\u00b8cois", "François"),  # \c on an x-height letter: the accent comes first
        ("GARC\u00b8ON", "GARÇON"),  # \c on a capital: the letter is drawn first
        ("a\u02dbb", "ąb"),  # \k overlays the ogonek on the letter drawn first
        ("x\u02d8a y\u02d9z x\u02daa x\u00afo Espa\u02dcna x\u02c6e", "xă yż xå xō España xê"),
    ],
)
def test_tex_spacing_accents_compose_with_the_letter_tex_set_them_on(raw, canonical):
    norm = _norm(raw)
    assert norm.text == canonical
    assert norm.counts["accents_composed"] >= 1


def test_a_spacing_tilde_or_circumflex_opening_a_lowercase_word_is_code_not_an_accent():
    code = "irrefutable \u02dcapat and the escape \\\u02c6cntrl"
    norm = _norm(code)
    assert norm.text == code and norm.counts["accents_composed"] == 0
    assert _norm("\u00b4Etienne and \u02c7Cech").text == "Étienne and Čech"


def test_ascii_caret_and_backtick_are_never_accents():
    code = "x^2 + `echo a` ^e `o"
    assert _norm(code).text == code


def _printed_book(*lines: str):
    """A one-page PDF of ``lines`` (Helvetica), read and normalised as the pipeline does."""
    doc = pymupdf.open()
    page = doc.new_page()
    for k, line in enumerate(lines):
        page.insert_text((72, 72 + 16 * k), line, fontsize=11)
    raw = read_raw(doc.tobytes(), "graves.pdf")
    try:
        return normalise(raw.pages)
    finally:
        raw.close()


def test_a_spacing_accent_opening_a_lowercase_word_composes_on_a_printed_page_unless_tilde_or_circumflex():
    # TeX sets ``\\'e`` as the accent, then the letter: a word that opens with an accented
    # letter (``élève``), an accents table's cells (``¨o``, ``¯o``); an acute opening a word of
    # plain text stays (groff's quote), as a tilde or a circumflex does anywhere (code)
    norm = _printed_book("na\u00a8ive, \u00b4el`eve and \u00a8o \u00afo")
    assert "naïve, élève and ö ō" in norm.text
    plain = RawPage(number=1, label="", text="Equivalent to \u00b4in N", synthetic=True)
    assert normalise([plain]).text == "Equivalent to \u00b4in N"


def test_a_spacing_circumflex_opening_a_word_before_a_vowel_composes_on_a_printed_page():
    # TeX's \\^e at a word's start (French être, île); a caret before a name stays (code)
    page = RawPage(number=1, label="", text="peut \u02c6etre, vous \u02c6etes sur l'\u02c6ile; press \u02c6cntrl")
    assert page.typeset  # a PDF's page, laid out by a typesetter
    assert normalise([page]).text == "peut être, vous êtes sur l'île; press \u02c6cntrl"


def test_grave_accent_tex_sets_before_the_letter_composes_on_a_printed_page():
    # TeX's \` accent comes out of MuPDF as U+0060 before the letter: pi`u, pu`o, PI`U, `E
    norm = _printed_book("molto pi`u grande, ci`o che pu`o essere", "SU PI`U RIGHE. `E perci`o fatto e `e cos`i.")
    assert "molto più grande, ciò che può essere" in norm.text
    assert "SU PIÙ RIGHE. È perciò fatto e è così." in norm.text
    assert norm.counts["accents_composed"] == 8


def test_grave_accent_stays_a_backtick_in_code_and_in_plain_text():
    norm = _printed_book("run `echo a` and `ls` here; `o and don`t, `e` too")
    assert "run `echo a` and `ls` here; `o and don`t, `e` too" in norm.text
    txt = normalise([RawPage(number=1, label="", text="molto pi`u grande", synthetic=True)])
    assert txt.text == "molto pi`u grande"
    epub = normalise([RawPage(number=1, label="7", text="molto pi`u grande", source_doc="c1.xhtml")])
    assert epub.text == "molto pi`u grande"  # NOTE: an EPUB page with a print page number is no typeset page


def test_a_spacing_accent_beside_no_letter_or_without_a_precomposed_form_stays():
    norm = _norm("the \u00b4 sign, a trailing o\u00a8, and 1\u00a82")
    assert norm.text == "the \u00b4 sign, a trailing o\u00a8, and 1\u00a82"
    assert norm.counts["accents_composed"] == 0


def test_the_offset_map_follows_text_after_a_composed_accent():
    raw = "Works of Br\u00a8oker and Juh\u00b4asz are cited here."
    norm = _norm(raw)
    mapped = norm.map_offset(0, raw.index("cited"))
    assert norm.text[mapped : mapped + 5] == "cited"


_ACCENTS = sorted(SPACING_ACCENTS_BEFORE) + ["\u00b8", "\u02db"]
_word = st.text(alphabet="abcdeosuzACEOS\u0131", min_size=1, max_size=8)


@st.composite
def _accented(draw):
    """Words, some with a TeX spacing accent inserted at a random place, joined by spaces and
    line breaks."""
    words = draw(st.lists(_word, min_size=1, max_size=60))
    out = []
    for w in words:
        if draw(st.booleans()):
            at = draw(st.integers(0, len(w)))
            w = w[:at] + draw(st.sampled_from(_ACCENTS)) + w[at:]
        out.append(w)
    seps = draw(st.lists(st.sampled_from([" ", " ", "\n", "\n\n"]), min_size=len(out), max_size=len(out)))
    return "".join(w + s for w, s in zip(out, seps)).strip() or "x"


@settings(max_examples=60, deadline=None)
@given(_accented())
def test_chunks_of_a_book_with_composed_accents_are_exact_slices_of_the_canonical_text(text):
    result = run_book(
        text.encode(), Policy(max_tokens=24, overlap_tokens=4, max_pages=3), name="accents.txt", workers=1
    )
    canonical = result.book.text
    assert result.report.ok, result.report.message
    for c in result.chunks:
        assert c.text == canonical[c.char_start : c.char_end]
    # no accent before a letter it has a precomposed form with is left
    for m in re.finditer(f"[{''.join(SPACING_ACCENTS_BEFORE)}]", canonical):
        letter = canonical[m.end() : m.end() + 1].replace("\u0131", "i")
        if not (m.start() and canonical[m.start() - 1].isalpha()) and not letter.isupper():
            continue  # a word-start accent before a lowercase letter stays (code)
        pair = unicodedata.normalize("NFC", letter + SPACING_ACCENTS_BEFORE[m.group(0)])
        assert not letter.isalpha() or len(pair) != 1, (canonical, m.start())


def _repaired_pdf_with_a_destroyed_content_stream() -> bytes:
    """Three pages of text; page 2's content stream is overwritten (same length, so the xref
    offsets still point at objects): MuPDF repairs the file and page 2 comes out empty."""
    doc = pymupdf.open()
    for i in range(3):
        doc.new_page().insert_text((72, 72), f"Page {i + 1} holds some words.", fontsize=11)
    data = doc.tobytes(garbage=0, deflate=False)
    xref = doc[1].get_contents()[0]
    start = re.search(rb"\n%d 0 obj" % xref, data).start() + 1
    end = data.index(b"endobj", start) + len(b"endobj")
    return data[:start] + b"X" * (end - start) + data[end:]


def test_a_page_a_repaired_pdf_gives_back_empty_is_named_in_a_warning():
    book = read_raw(_repaired_pdf_with_a_destroyed_content_stream(), "repaired.pdf")
    assert book.pages[1].text.strip() == "" and "Page 3" in book.pages[2].text
    named = [w for w in book.warnings if "empty after MuPDF repaired" in w]
    assert len(named) == 1 and re.search(r"\bpages 2\)", named[0]), book.warnings


def test_an_undamaged_pdf_with_a_blank_page_gets_no_repair_warning():
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "Some words on the first page.", fontsize=11)
    doc.new_page()
    doc.new_page().insert_text((72, 72), "Some words on the last page.", fontsize=11)
    book = read_raw(doc.tobytes(), "blank.pdf")
    assert not any("repair" in w for w in book.warnings)
