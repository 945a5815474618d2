"""Text and Markdown reader: decoding without silent loss, paragraph-end pages, ATX headings."""

from __future__ import annotations

import contextlib
import io
import json

import pytest

from chunking.cli import main
from chunking.errors import UnreadableInputError
from chunking.readers import read_raw
from chunking.readers.text import PAGE_CHARS, cut_pages, markdown_headings


def para(i: int, words: int = 50) -> str:
    return f"Paragraph {i} " + " ".join(f"w{i}.{j}" for j in range(words)) + "."


def test_pages_are_cut_at_paragraph_ends_and_lose_no_paragraph():
    paras = [para(i, 20 + (i * 7) % 60) for i in range(80)]
    book = read_raw("\n\n".join(paras).encode(), "notes.txt")
    assert book.format == "txt" and book.title == "notes" and book.outline == []
    assert all(p.synthetic and p.label == "" and p.source_doc == "" for p in book.pages)
    assert "\n\n".join(p.text for p in book.pages).split("\n\n") == paras
    assert all(PAGE_CHARS // 2 <= len(p.text) <= PAGE_CHARS * 3 // 2 for p in book.pages[:-1])
    assert [p.number for p in book.pages] == list(range(1, len(book.pages) + 1))


def test_a_paragraph_longer_than_a_page_is_cut_at_a_line_end_then_a_space():
    lines = "\n".join(para(i, 12) for i in range(60))
    spans = cut_pages(lines)
    assert all(lines[e] == "\n" for _, e in spans[:-1])
    words = " ".join(f"word{i}" for i in range(2000))
    spans = cut_pages(words)
    assert all(words[e] == " " for _, e in spans[:-1])
    assert " ".join(words[s:e] for s, e in spans) == words


def test_text_without_any_break_is_cut_hard_and_kept_whole():
    blob = "x" * 5001
    spans = cut_pages(blob)
    assert [e - s for s, e in spans] == [PAGE_CHARS, PAGE_CHARS, 1001]
    assert "".join(blob[s:e] for s, e in spans) == blob


def test_markdown_atx_headings_become_outline_entries_at_exact_offsets():
    body = "\n\n".join(para(i) for i in range(12))
    md = f"# Guide\n\nIntro.\n\n## Install ##\n\n{body}\n\n   ### Deep dive\n\nEnd.\n"
    book = read_raw(md.encode(), "guide.md")
    assert book.format == "md"
    got = [(e.level, e.title, book.pages[e.page - 1].text[e.offset :].split("\n")[0]) for e in book.outline]
    assert got == [
        (1, "Guide", "# Guide"),
        (2, "Install", "## Install ##"),
        (3, "Deep dive", "### Deep dive"),
    ]
    assert book.outline[-1].page > 1


def test_headings_inside_fenced_code_are_not_headings():
    md = (
        "# Real\n\n```bash\n# comment, not a heading\n```\n\n~~~~\n# no\n~~~\n# still inside\n~~~~\n"
        "#notaheading\n#\n\n## Real too\n"
    )
    assert [(level, title) for _, level, title in markdown_headings(md)] == [(1, "Real"), (2, "Real too")]


def test_txt_files_have_no_markdown_outline():
    assert read_raw(b"# Looks like a heading\n\ntext", "plain.txt").outline == []


def test_utf8_bom_and_crlf_are_read_cleanly():
    book = read_raw("\ufeffCaf\u00e9 line one\r\nline two\r\n\r\nnext\rpara".encode(), "bom.txt")
    assert book.pages[0].text == "Caf\u00e9 line one\nline two\n\nnext\npara"
    assert book.warnings == []


def test_utf16_with_bom_is_decoded():
    book = read_raw("\u00c9t\u00e9 \u2014 summer".encode("utf-16"), "u16.txt")
    assert book.pages[0].text == "\u00c9t\u00e9 \u2014 summer"


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_bom_is_decoded_with_a_warning_not_refused_as_binary(encoding):
    text = "\u00c9t\u00e9 \u2014 summer reading, chapter one.\n" * 20
    book = read_raw(text.encode(encoding), "u16.txt")
    read = "".join(p.text for p in book.pages)
    assert read.startswith("\u00c9t\u00e9 \u2014 summer") and read.count("chapter one.") == 20
    assert any("without a byte order mark" in w for w in book.warnings)


@pytest.mark.parametrize(
    "data",
    [
        b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 8,  # NULs on both sides: a binary
        "odd length".encode("utf-16-le") + b"A",
        "text with a \x00 NUL character in it".encode("utf-16-le"),
    ],
)
def test_nul_bytes_that_are_no_utf16_text_are_still_a_binary_file(data):
    with pytest.raises(UnreadableInputError, match="binary file"):
        read_raw(data, "x.txt")


def test_invalid_utf8_falls_back_to_cp1252_with_a_warning():
    data = "smart \u201cquotes\u201d and caf\u00e9".encode("cp1252")
    book = read_raw(data, "old.txt")
    assert book.pages[0].text == "smart \u201cquotes\u201d and caf\u00e9"
    assert book.warnings == ["old.txt: not valid UTF-8 (first bad byte at offset 6); decoded as cp1252"]


def test_bytes_cp1252_cannot_map_become_replacement_characters_and_are_counted():
    data = b"ok \x81\x8d\x90 end"
    book = read_raw(data, "odd.txt")
    assert book.pages[0].text == "ok \ufffd\ufffd\ufffd end"
    assert book.warnings == ["odd.txt: not valid UTF-8 (first bad byte at offset 3); decoded as cp1252"
                             " with 3 undefined byte(s) replaced by U+FFFD"]


def test_outline_cli_lists_markdown_headings_at_the_readers_pages(tmp_path):
    body = "\n\n".join(para(i) for i in range(40))
    md = f"# Guide\n\nIntro.\n\n## Install\n\n{body}\n\n## Usage\n\n{body}\n\n# Reference\n\nEnd.\n"
    path = tmp_path / "guide.md"
    path.write_text(md)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["outline", str(path)]) == 0
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    raw = read_raw(md.encode(), "guide.md")
    assert [(r["level"], r["title"], r["page"]) for r in rows] == [
        (e.level, e.title, e.page) for e in raw.outline
    ]
    assert raw.outline[-1].page > raw.outline[2].page > raw.outline[1].page == 1


def test_a_heading_is_not_left_alone_at_the_bottom_of_a_page():
    body = [para(i, 20) for i in range(14)]  # about 1,900 characters
    assert PAGE_CHARS // 2 < len("\n\n".join(body)) < PAGE_CHARS - 40
    text = "\n\n".join([*body, "3.1. Scope of the next part", para(99, 200)])
    heading = text.index("3.1. Scope")
    first, second = cut_pages(text)[:2]
    assert first == (0, heading - 2), "the page ends before the heading, not after it"
    assert second[0] == heading


def test_a_page_keeps_the_indentation_of_its_first_line():
    """Only blank lines lie between pages: an indented first line (a contents sub-entry, a list
    item) stays indented, so the plain-text structure can read its depth."""
    text = "\n\n".join("    " + para(i, 8) for i in range(300))
    spans = cut_pages(text)
    assert len(spans) > 2
    for start, _ in spans:
        assert (start == 0 or text[start - 1] == "\n") and text.startswith("    P", start)
    assert " ".join(text[s:e] for s, e in spans).split() == text.split()
