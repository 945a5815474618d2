"""``load_book``: the Book contract (ids, pages, headings, diagnostics, progress) for every input kind."""

from __future__ import annotations

import hashlib

import pytest

from chunking.errors import UnreadableInputError, UsageError
from chunking.ingest import load_book
from chunking.normalise import normalise
from chunking.readers.raw import OutlineEntry, RawBook, RawPage
from chunking.structure import detect_structure
from pdf_factory import body, make_pdf


def _pdf() -> bytes:
    second = [("Chapter 2", 20.0), ("Beta", 20.0)] + body(10, 20) + [("2.1 Details", 12.0)] + body(4, 40)
    return make_pdf([[("Chapter 1", 20.0), ("Alpha", 20.0)] + body(10), second], title="Small Book")


def test_book_id_is_the_first_16_hex_of_the_sha256_of_the_bytes(tmp_path):
    data = _pdf()
    path = tmp_path / "small.pdf"
    path.write_bytes(data)
    from_path, from_bytes = load_book(path), load_book(data, name="small.pdf")
    sha = hashlib.sha256(data).hexdigest()
    assert from_path.sha256 == from_bytes.sha256 == sha
    assert from_path.book_id == sha[:16]
    assert from_path.text == from_bytes.text and from_path.headings == from_bytes.headings
    assert (from_path.source_name, from_path.title, from_path.format) == ("small.pdf", "Small Book", "pdf")


def test_progress_is_reported_from_0_to_1_in_order():
    calls = []
    load_book(_pdf(), name="small.pdf", progress=lambda fraction, message: calls.append((fraction, message)))
    fractions = [f for f, _ in calls]
    assert fractions[0] == 0.0 and fractions[-1] == 1.0 and fractions == sorted(fractions) and len(calls) >= 3


def test_diagnostics_count_pages_structure_source_and_headings_per_level():
    book = load_book(_pdf(), name="small.pdf")
    d = book.diagnostics
    assert (d.pages, d.empty_pages, d.structure_source) == (2, 0, "headings")
    assert d.headings_per_level == {"1": 2, "2": 1}
    assert [(h.level, h.kind, h.number) for h in book.headings] == [(1, "chapter", "1"), (1, "chapter", "2"),
                                                                    (2, "section", "2.1")]


def test_unknown_structure_source_is_a_usage_error_before_reading():
    with pytest.raises(UsageError, match="structure must be one of"):
        load_book(b"", name="x.pdf", structure="magic")


def test_missing_file_and_folder_are_unreadable_input(tmp_path):
    with pytest.raises(UnreadableInputError, match="missing.pdf: no such file"):
        load_book(tmp_path / "missing.pdf")
    with pytest.raises(UnreadableInputError, match="is a folder"):
        load_book(tmp_path)


def test_markdown_headings_are_trusted_with_source_markdown():
    text = b"# Intro\n\nSome text.\n\n## Part One Detail\n\nMore.\n\n# Next\n\nEnd.\n"
    book = load_book(text, name="notes.md")
    assert [(h.level, h.kind, h.title, h.source) for h in book.headings] == [
        (1, "chapter", "Intro", "markdown"), (2, "section", "Part One Detail", "markdown"),
        (1, "chapter", "Next", "markdown")]
    for h in book.headings:
        assert book.text[h.char_offset:].lstrip("# ").startswith(h.title)


def test_epub_style_outline_offsets_place_mid_page_chapters_exactly():
    first = "1. Alpha\nAlpha text one.\nAlpha text two."
    second = "more alpha text\n\n2. Beta\nBeta text."
    raw = RawBook(format="epub", title="E", pages=[
        RawPage(1, "", first, synthetic=True, source_doc="a.xhtml"),
        RawPage(2, "", second, synthetic=True, source_doc="a.xhtml")],
        outline=[OutlineEntry(1, "Alpha", 1, offset=0),
                 OutlineEntry(1, "Beta", 2, offset=second.index("2. Beta"))])
    norm = normalise(raw.pages)
    found = detect_structure(raw, norm, "auto")
    assert found.source == "outline"
    assert [(h.kind, h.number, h.title, h.page) for h in found.headings] == [
        ("chapter", "1", "Alpha", 1), ("chapter", "2", "Beta", 2)]
    assert norm.text[found.headings[1].char_offset:].startswith("2. Beta\nBeta text.")
