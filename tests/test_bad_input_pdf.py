"""Bad PDF input: one clear ``UnreadableInputError`` line, CLI exit 3, never a traceback or a hang."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from chunking.errors import UnreadableInputError
from chunking.ingest import load_book
from pdf_factory import body, make_pdf

ROOT = Path(__file__).resolve().parent.parent


def _good_pdf() -> bytes:
    return make_pdf([[("Chapter 1", 20), ("Start", 20)] + body(20), body(20, 20)])


def _cli_outline(path: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "chunking", "outline", str(path)], capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=60)


CASES = {
    "zero_byte": (lambda: b"", "the file is empty (0 bytes)"),
    "random_bytes": (lambda: os.urandom(1) + bytes(range(256)) * 40, "not a PDF file (no %PDF- header)"),
    "random_after_header": (lambda: b"%PDF-1.7\n" + bytes(range(256)) * 40 + b"\n%%EOF\n", "corrupt PDF"),
    "truncated": (lambda: _good_pdf()[: len(_good_pdf()) // 2], "the PDF is truncated (no %%EOF at the end)"),
    "password": (lambda: make_pdf([body(5)], password="secret"), "the PDF is password-protected"),
    "no_text_layer": (lambda: make_pdf([[], []], image_pages=(0, 1)),
                      "the PDF has no text layer (scanned images?) and "),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_pdf_raises_unreadable_input_with_one_line_naming_the_file(case, tmp_path):
    make, message = CASES[case]
    data = make()
    with pytest.raises(UnreadableInputError) as info:
        load_book(data, name=f"{case}.pdf")
    text = str(info.value)
    assert text.startswith(f"{case}.pdf: ")
    assert message in text
    assert "\n" not in text


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_pdf_cli_exits_3_with_one_stderr_line_and_no_traceback(case, tmp_path):
    make, message = CASES[case]
    path = tmp_path / f"{case}.pdf"
    path.write_bytes(make())
    result = _cli_outline(path)
    assert result.returncode == 3
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"chunking: error: {case}.pdf: ")
    assert message in lines[0]
    assert "Traceback" not in result.stderr


def test_random_bytes_are_refused_quickly():
    data = b"%PDF-1.4\n" + os.urandom(2_000_000) + b"\n%%EOF"
    start = time.perf_counter()
    with pytest.raises(UnreadableInputError):
        load_book(data, name="noise.pdf")
    assert time.perf_counter() - start < 10


def test_some_pages_without_text_layer_are_read_with_a_warning_naming_how_many():
    data = make_pdf([[("Chapter 1", 20), ("Start", 20)] + body(10), [], body(10, 10), []], image_pages=(1, 3))
    book = load_book(data, name="partly-scanned.pdf", ocr="never")
    assert book.diagnostics.pages_without_text_layer == 2
    assert book.diagnostics.empty_pages == 2
    warning = "2 of 4 pages have no text layer (scanned images?); their text is missing"
    assert warning in book.diagnostics.warnings
    assert [p.has_text_layer for p in book.pages] == [True, False, True, False]


def test_blank_page_without_image_is_empty_not_missing_its_text_layer():
    book = load_book(make_pdf([body(10), [], body(10, 10)]), name="blank.pdf")
    assert book.diagnostics.empty_pages == 1
    assert book.diagnostics.pages_without_text_layer == 0
    assert book.diagnostics.warnings == []
