"""UTF-8 read as a single-byte encoding is decoded again (``chunking.normalise.mojibake``)."""

from __future__ import annotations

import pymupdf
import pytest

from chunking.ingest import load_book
from chunking.normalise import normalise
from chunking.readers.raw import RawPage


def _norm(*texts: str):
    return normalise([RawPage(number=i + 1, label="", text=t) for i, t in enumerate(texts)])


def _latin1(text: str, encoding: str = "cp1252") -> str:
    """``text`` as it reads after its UTF-8 bytes were decoded as Windows-1252 (or Latin-1)."""
    return text.encode("utf-8").decode(encoding)


@pytest.mark.parametrize(
    ("sound", "encoding"),
    [
        ("Copyright © 2010 Zoë Müller", "cp1252"),
        ("don’t — an ‘aside’ … €5", "cp1252"),
        ("Größe, naïve, Ñandú, œuvre", "cp1252"),
        ("Zoë’s “notes” — here", "latin-1"),  # C1 controls inside, read before they are removed
    ],
)
def test_utf8_read_as_a_single_byte_encoding_is_decoded_again(sound, encoding):
    broken = _latin1(sound, encoding)
    assert broken != sound
    norm = _norm(broken)
    assert norm.text == sound
    assert norm.counts["encoding_repaired"] == 1
    assert any("decoded again" in w for w in norm.warnings)


def test_a_no_break_space_whose_byte_became_a_space_is_repaired():
    # the no-break space's two bytes C2 A0 printed as 'Â' and a plain space
    norm = _norm("Chapter\u00c2 2.\u00c2 Installing")
    assert norm.text == "Chapter\u00a02.\u00a0Installing"


def test_sound_text_with_lookalike_pairs_is_left_alone():
    sound = "«café» à Noël, l'Ã de la table Ãb, ÂGE DE PIERRE, Ñandú, 1 ½ cups, Δ ℝ"
    norm = _norm(sound)
    assert norm.text == sound
    assert norm.counts["encoding_repaired"] == 0
    assert norm.warnings == []


def test_only_the_broken_lines_of_a_page_are_repaired():
    norm = _norm("été sans faute\n" + _latin1("été deux fois") + "\nplain line")
    assert norm.text == "été sans faute\nété deux fois\nplain line"
    assert norm.counts["encoding_repaired"] == 1


def test_the_offset_map_follows_text_after_a_repaired_sequence():
    raw = _latin1("Zoë’s notes on “résumé” are cited here.", "latin-1")
    norm = _norm(raw)
    mapped = norm.map_offset(0, raw.index("cited"))
    assert norm.text[mapped : mapped + 5] == "cited"


def test_headings_broken_by_the_encoding_are_numbered_chapters_of_a_text_book():
    body = "\n\n".join(
        "A paragraph about the subject at hand, long enough to be body text." for _ in range(3)
    )
    titles = ["Overview", "Installing", "Configuration"]
    text = "".join(f"Chapter\u00a0{n}.\u00a0{t}\n\n{body}\n\n" for n, t in enumerate(titles, 1))
    book = load_book(_latin1(text).encode(), name="x.txt")
    chapters = [(h.number, h.title) for h in book.headings if h.kind == "chapter"]
    assert chapters == [(str(n), t) for n, t in enumerate(titles, 1)]


def test_a_printed_page_of_broken_text_reads_as_its_sound_text():
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), _latin1("Zoë and the café"), fontsize=11)
    book = load_book(doc.tobytes(), name="x.pdf")
    assert "Zoë and the café" in book.text
    assert book.diagnostics.encoding_repaired_lines == 1


def test_utf8_read_by_the_postscript_standard_encoding_is_decoded_again():
    """A base font's standard encoding reads C2 as an acute and A9 as a straight quote, Latin-1
    where it names no glyph (E2, 80, 9C): a no-break space, a copyright sign and quotes."""
    norm = _norm(
        "Chapter\u00b4\u00a01.\u00b4\u00a0Overview\nCopyright \u00b4' 2013 \u00e2\u0080\u009cquoted\u00e2\u0080\u009d"
    )
    assert norm.text == "Chapter\u00a01.\u00a0Overview\nCopyright \u00a9 2013 \u201cquoted\u201d"
    assert norm.counts["encoding_repaired"] == 2


def test_sound_text_with_standard_encoding_lookalikes_is_left_alone():
    sound = (
        "He paused \u2014\u201cyes,\u201d he said; the acute \u00b4 and the caron \u02c7 alone, it's fine\n"
        "turned round to us and said\u2014\u201cClam or cod?\u201d\nwould it?\u2014'where moth and rust"
    )
    norm = _norm(sound)
    assert norm.text == sound
    assert norm.counts["encoding_repaired"] == 0


def test_a_printed_heading_read_by_the_standard_encoding_is_a_numbered_chapter():
    """A UTF-8 text file shown through a base font without an encoding of its own, as a
    PostScript printer does: its no-break spaces read as an acute and a no-break space, hiding
    ``Chapter N.``'s number until the line is decoded again."""
    body = ["A paragraph about the subject at hand, long enough to be body text."] * 3
    doc = pymupdf.open()
    for n, title in enumerate(["Overview", "Installing", "Configuration"], 1):
        page = doc.new_page()
        lines = [f"Chapter\u00a0{n}.\u00a0{title}", "", *body, "", *body]
        font = doc.get_new_xref()
        doc.update_object(font, "<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>")
        doc.xref_set_key(page.xref, "Resources", f"<< /Font << /F1 {font} 0 R >> >>")
        content = doc.get_new_xref()
        doc.update_object(content, "<< >>")
        doc.update_stream(
            content,
            b"".join(
                b"BT /F1 10 Tf 72 %d Td (%s) Tj ET\n" % (770 - 12 * k, line.encode("utf-8"))
                for k, line in enumerate(lines)
            ),
        )
        doc.xref_set_key(page.xref, "Contents", f"{content} 0 R")
    book = load_book(doc.tobytes(), name="x.pdf")
    chapters = [(h.number, h.title) for h in book.headings if h.kind == "chapter"]
    assert chapters == [("1", "Overview"), ("2", "Installing"), ("3", "Configuration")]
