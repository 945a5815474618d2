"""Bad input of any format: empty files, unsupported types, binary "text". One exact line, fast."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
import time

import pytest
from test_bad_input_epub import run_cli

from chunking.cli import main
from chunking.errors import UnreadableInputError

HANG_SECONDS = 10
"""A guard against hangs and unbounded work, not a speed test (speed lives in bench/)."""
from chunking.readers import read_raw


def refused(data: bytes, name: str) -> str:
    """The reader's one-line error for ``data`` named ``name`` (checked fast, and that the
    ``outline`` CLI exits 3 with that line on stderr and nothing on stdout)."""
    start = time.perf_counter()
    with pytest.raises(UnreadableInputError) as info:
        read_raw(data, name)
    assert time.perf_counter() - start < HANG_SECONDS
    assert "\n" not in str(info.value)
    assert run_cli(data, name) == (3, "", f"chunking: error: {info.value}\n")
    return str(info.value)


@pytest.mark.parametrize("name", ["empty.epub", "empty.pdf", "empty.txt", "empty.md"])
def test_zero_byte_file_is_refused(name):
    assert refused(b"", name) == f"{name}: the file is empty (0 bytes)"


@pytest.mark.parametrize(
    ("name", "suffix"), [("report.docx", "'.docx'"), ("README", "'(none)'"), ("x.EPUB3", "'.epub3'")]
)
def test_unsupported_extension_is_refused(name, suffix):
    assert refused(b"PK\x03\x04 whatever", name) == (
        f"{name}: unsupported file type {suffix}; supported: .pdf, .epub, .txt, .md, .rst, .org, .tex, .texi, .sgml, .xml, .lyx"
    )


def test_binary_bytes_named_txt_are_refused():
    assert refused(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "image.txt") == (
        "image.txt: contains NUL bytes, so it is a binary file, not text"
    )


def test_whitespace_only_text_is_refused():
    assert refused(b" \n\n\t \r\n", "blank.md") == "blank.md: the file holds no text (only whitespace)"


def test_upper_case_extension_is_read():
    assert read_raw(b"hello", "SHOUT.TXT").pages[0].text == "hello"


def test_missing_file_is_one_line_exit_3(tmp_path):
    code, out, err = run_cli_path(tmp_path / "absent.epub")
    assert (code, out, err) == (3, "", "chunking: error: absent.epub: no such file\n")


def run_cli_path(path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["outline", str(path)])
    return code, out.getvalue(), err.getvalue()


def test_python_m_chunking_outline_on_unsupported_type_exits_3(tmp_path):
    path = tmp_path / "report.docx"
    path.write_bytes(b"PK\x03\x04")
    done = subprocess.run(
        [sys.executable, "-m", "chunking", "outline", str(path)], capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stdout) == (3, "")
    assert done.stderr == (
        "chunking: error: report.docx: unsupported file type '.docx'; supported: .pdf, .epub, .txt, .md, .rst, .org, .tex, .texi, .sgml, .xml, .lyx\n"
    )
