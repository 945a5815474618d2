"""Hostile or damaged text (issue 12, items 7 and 8): titles and labels are capped in the metadata
only, and normalisation joins hyphenated words without moving punctuation or losing a glyph."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from pdf_factory import make_pdf

from chunking.ingest import MAX_LABEL_CHARS, MAX_TITLE_CHARS, load_book
from chunking.normalise import normalise
from chunking.readers.raw import RawPage

MAIN = Path(__file__).resolve().parents[1]


def _pages(*texts: str, synthetic: bool = False) -> list[RawPage]:
    return [RawPage(number=i + 1, label="", text=t, synthetic=synthetic) for i, t in enumerate(texts)]


def _para(i: int) -> str:
    return f"Paragraph {i} tells the reader something new about the subject at hand, at length."


# --- item 7: caps on titles and labels ----------------------------------------------------------

def test_a_one_megabyte_heading_is_capped_in_every_chunk_but_kept_whole_in_the_text(tmp_path):
    huge = "Giant " * 175_000  # ~1 MB heading line
    body = "\n\n".join(_para(i) for i in range(30))
    book = tmp_path / "huge.md"
    book.write_text(f"# {huge.strip()}\n\n{body}\n\n# Second\n\n{body}\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    done = subprocess.run([sys.executable, "-m", "chunking", "chunk", str(book), "-o", str(out)],
                          cwd=MAIN, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    chunks = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    for chunk in chunks:
        assert len(chunk["chapter"]) <= MAX_TITLE_CHARS and len(chunk["section"]) <= MAX_TITLE_CHARS
        assert all(len(title) <= MAX_TITLE_CHARS for title in chunk["heading_path"])
    assert chunks[0]["chapter"].endswith("…")
    assert out.stat().st_size < 20 * book.stat().st_size  # was: the heading copied into every chunk
    text = "".join(c["text"] for c in chunks)
    assert text.count("Giant") >= 175_000 - 10  # the canonical text keeps every character
    manifest = json.loads(next(tmp_path.glob("*.manifest.json")).read_text(encoding="utf-8"))
    assert manifest["diagnostics"]["titles_capped"] >= 1
    assert any("shortened" in w for w in manifest["diagnostics"]["warnings"])


def test_a_huge_page_label_is_capped_and_counted():
    lines = [f"Line {i} of page {{}} carries some ordinary words." for i in range(8)]
    pages = [[(line.format(p), 10.0) for line in lines] for p in range(3)]
    data = make_pdf(pages, labels=[{"startpage": 0, "prefix": "L" * 5000, "style": "D", "firstpagenum": 1}])
    book = load_book(data, name="labels.pdf")
    assert all(len(p.label) <= MAX_LABEL_CHARS and p.label.endswith("…") for p in book.pages)
    assert book.diagnostics.labels_capped == 3
    assert any("page labels" in w for w in book.diagnostics.warnings)
    assert all(len(h.page_label) <= MAX_LABEL_CHARS for h in book.headings)


# --- item 8: normalisation damage ---------------------------------------------------------------

def test_dehyphenation_moves_the_trailing_punctuation_with_the_word():
    norm = normalise(_pages("We use them respectively here.\nThe values re-\nspectively. Then more."))
    assert "values respectively.\nThen more." in norm.text
    assert "respectively\n." not in norm.text


def test_fragments_that_are_no_words_are_joined_even_if_the_word_occurs_nowhere_else():
    norm = normalise(_pages("The errors are ho-\nmoscedastic here.\nOur affil-\niates agree."))
    assert "homoscedastic\nhere." in norm.text and "affiliates\nagree." in norm.text
    assert norm.counts["dehyphenated"] == 2


def test_compounds_of_words_and_known_hyphenated_forms_keep_their_hyphen():
    text = ("A long-term plan is well known to be non linear.\n"
            "It is a long-\nterm view and a well-\nknown fact, non-\nlinear too.")
    norm = normalise(_pages(text))
    assert "long-\nterm view" in norm.text and "well-\nknown" in norm.text and "non-\nlinear" in norm.text
    assert norm.counts["dehyphenated"] == 0


def test_a_word_hyphenated_across_a_page_break_is_joined_and_offsets_stay_consistent():
    raw = ["First page text runs to the end and then the hyphen-", "ated word ends here. More text."]
    norm = normalise(_pages(*raw))
    assert "the hyphenated\nword ends" in norm.text
    first, second = norm.pages
    assert norm.text[first.char_start:first.char_end].endswith("hyphenated")
    assert norm.text[second.char_start:second.char_end] == "word ends here. More text."
    assert first.char_end < second.char_start
    mapped = norm.map_offset(1, raw[1].index("More"))
    assert norm.text[mapped:mapped + 4] == "More"
    for lines in norm.lines:
        for offset, line in lines:
            assert norm.text[offset:offset + len(line)] == line


def test_a_synthetic_page_break_is_not_a_hyphenation_point():
    norm = normalise(_pages("A list item ends with hyphen-", "ated word.", synthetic=True))
    assert "hyphen-\nated" in norm.text


def test_c_with_a_combining_enclosing_circle_becomes_the_copyright_sign():
    norm = normalise(_pages("Copyright c\u20dd 2024 and R\u20dd mark.\nNext line."))
    assert norm.text == "Copyright © 2024 and ® mark.\nNext line."
    assert norm.text[norm.map_offset(0, len("Copyright c\u20dd 2024 and "))] == "®"
