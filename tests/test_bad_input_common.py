"""Bad input of any format: empty files, unsupported types, binary "text". One exact line, fast."""

from __future__ import annotations

import time

import pytest

from chunking.errors import UnreadableInputError
from chunking.readers import read_raw


def refused(data: bytes, name: str) -> str:
    start = time.perf_counter()
    with pytest.raises(UnreadableInputError) as info:
        read_raw(data, name)
    assert time.perf_counter() - start < 1.0
    assert "\n" not in str(info.value)
    return str(info.value)


@pytest.mark.parametrize("name", ["empty.epub", "empty.pdf", "empty.txt", "empty.md"])
def test_zero_byte_file_is_refused(name):
    assert refused(b"", name) == f"{name}: the file is empty (0 bytes)"


@pytest.mark.parametrize(
    ("name", "suffix"), [("report.docx", "'.docx'"), ("README", "'(none)'"), ("x.EPUB3", "'.epub3'")]
)
def test_unsupported_extension_is_refused(name, suffix):
    assert refused(b"PK\x03\x04 whatever", name) == (
        f"{name}: unsupported file type {suffix}; supported: .pdf, .epub, .txt, .md"
    )


def test_binary_bytes_named_txt_are_refused():
    assert refused(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "image.txt") == (
        "image.txt: contains NUL bytes, so it is a binary file, not text"
    )


def test_whitespace_only_text_is_refused():
    assert refused(b" \n\n\t \r\n", "blank.md") == "blank.md: the file holds no text (only whitespace)"


def test_upper_case_extension_is_read():
    assert read_raw(b"hello", "SHOUT.TXT").pages[0].text == "hello"
