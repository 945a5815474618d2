"""``python -m chunking outline BOOK``: one JSON object per heading, book order, exit 0."""

from __future__ import annotations

import json

from chunking.cli import main
from pdf_factory import body, make_pdf

KEYS = {"level", "kind", "title", "number", "page", "page_label", "char_offset", "source", "evidence",
        "confidence"}


def _book(tmp_path):
    pages = [[("Chapter 1", 20.0), ("Alpha", 20.0)] + body(10),
             body(5, 50) + [("Chapter 2", 20.0), ("Beta", 20.0)] + body(5, 60)]
    labels = [{"startpage": 0, "prefix": "", "style": "D", "firstpagenum": 7}]
    path = tmp_path / "book.pdf"
    path.write_bytes(make_pdf(pages, labels=labels))
    return path


def test_outline_prints_one_json_object_per_heading_in_book_order(tmp_path, capsys):
    assert main(["outline", str(_book(tmp_path))]) == 0
    out = capsys.readouterr()
    rows = [json.loads(line) for line in out.out.splitlines()]
    assert all(set(row) == KEYS for row in rows)
    assert [(r["level"], r["kind"], r["title"], r["page"], r["page_label"], r["source"]) for r in rows] == [
        (1, "chapter", "Alpha", 1, "7", "headings"), (1, "chapter", "Beta", 2, "8", "headings")]
    assert rows[0]["char_offset"] == 0 < rows[1]["char_offset"]
    assert out.err == ""


def test_outline_structure_none_prints_nothing_and_exits_0(tmp_path, capsys):
    assert main(["outline", str(_book(tmp_path)), "--structure", "none"]) == 0
    assert capsys.readouterr().out == ""


def test_outline_prints_reader_warnings_to_stderr_one_line_each(tmp_path, capsys):
    path = tmp_path / "scanned.pdf"
    path.write_bytes(make_pdf([[("Chapter 1", 20.0), ("Alpha", 20.0)] + body(10), []], image_pages=(1,)))
    assert main(["outline", str(path), "--ocr", "never"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err == ["chunking: warning: 1 of 2 pages have no text layer (scanned images?); "
                   "their text is missing"]


def test_outline_on_a_missing_file_exits_3_with_one_line(tmp_path, capsys):
    assert main(["outline", str(tmp_path / "nope.pdf")]) == 3
    assert capsys.readouterr().err.splitlines() == ["chunking: error: nope.pdf: no such file"]


def test_outline_rejects_an_unknown_structure_source_as_usage_error(tmp_path, capsys):
    assert main(["outline", str(_book(tmp_path)), "--structure", "magic"]) == 2
    assert len(capsys.readouterr().err.splitlines()) == 1


def test_explain_lists_every_supporting_signal_under_its_heading(tmp_path, capsys):
    assert main(["outline", str(_book(tmp_path)), "--explain"]) == 0
    out = capsys.readouterr().out
    block = out.split('L1 chapter 2 "Beta"')[1].split("\n\n")[0]
    assert "keyword: p. 2: 'Chapter 2'" in block
    assert "typography: p. 2: 20.0 pt, body 10.0 pt" in block
    assert "numbering: 2 of 2 in the chapter sequence 1..2" in block
    assert "chapter-level headings per signal: keyword 2, numbering 2, typography 2" in out


def test_explain_lists_an_outline_entry_the_text_does_not_confirm_as_a_disagreement(tmp_path, capsys):
    pages = [[("Chapter 1", 20.0), ("Alpha", 20.0)] + body(10), [("Chapter 2", 20.0), ("Beta", 20.0)] + body(10, 50),
             body(12, 90)]
    toc = [(1, "Alpha", 1, None), (1, "Beta", 2, None), (1, "Gamma", 3, 100.0)]
    path = tmp_path / "book.pdf"
    path.write_bytes(make_pdf(pages, toc=toc))
    assert main(["outline", str(path), "--explain"]) == 0
    out = capsys.readouterr().out
    assert "disagreements: 1\n  the outline: back 'Gamma' on p. 3 is not confirmed by the text" in out
