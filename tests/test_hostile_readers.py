"""Hostile input to the readers (issue 12, items 2, 3, 4, 6, 9): never lose text silently, never
crash on a string. Every input is generated here: real EPUB zips, real PDFs, real CLI runs."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pymupdf
import pytest
from test_epub_reader import build_epub, xhtml

from chunking.errors import UnreadableInputError
from chunking.readers import read_raw

MAIN = Path(__file__).resolve().parents[1]


def run_chunk(book: Path, out: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "chunking", "chunk", str(book), "-o", str(out), *extra],
                          cwd=MAIN, capture_output=True, text=True, timeout=120)


def stored_epub(body: str) -> bytes:
    """An EPUB whose one chapter is stored uncompressed (a huge text node passes the ratio check)."""
    template = build_epub({"c1.xhtml": xhtml("<p>x</p>")})
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(template)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            data = xhtml(body).encode() if info.filename.endswith("c1.xhtml") else src.read(info)
            stored = info.filename in ("mimetype", "OEBPS/c1.xhtml")
            method = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
            dst.writestr(info.filename, data, compress_type=method)
    return out.getvalue()


def all_text(data: bytes, name: str) -> str:
    return "\n".join(page.text for page in read_raw(data, name).pages)


# --- item 2: libxml2 limits ---------------------------------------------------------------------

def test_epub_text_node_past_libxml2_limit_is_read_whole():
    words = "word " * 2_050_000  # 10.25 M characters: past libxml2's 10 M text-node limit
    text = all_text(stored_epub(f"<p>{words}THE LAST SENTENCE.</p><p>After it.</p>"), "huge.epub")
    assert "THE LAST SENTENCE." in text and text.rstrip().endswith("After it.")
    assert text.count("word") == 2_050_000


def test_epub_pre_block_past_libxml2_limit_is_read_whole():
    code = "x = compute(y)\n" * 700_000  # 10.5 M characters of verbatim text
    text = all_text(stored_epub(f"<pre>{code}LAST LINE</pre><p>After it.</p>"), "pre.epub")
    assert text.count("compute") == 700_000 and "LAST LINE" in text


def test_epub_nesting_deeper_than_256_is_read_whole():
    depth = 400
    body = "<div>" * depth + "deep text" + "</div>" * depth + "<p>After the nest.</p>"
    text = all_text(build_epub({"c1.xhtml": xhtml(body)}), "deep.epub")
    assert "deep text" in text and "After the nest." in text


def test_epub_nesting_past_the_parser_limit_is_refused_not_cut():
    depth = 3000
    body = "<div>" * depth + "deep text" + "</div>" * depth + "<p>After the nest.</p>"
    with pytest.raises(UnreadableInputError, match="limits"):
        read_raw(build_epub({"c1.xhtml": xhtml(body)}), "deeper.epub")


# --- item 3: cp1252 with an undefined byte ------------------------------------------------------

@pytest.mark.parametrize("undefined", [0x81, 0x8D, 0x8F, 0x90, 0x9D])
def test_cp1252_text_with_an_undefined_byte_keeps_quotes_dashes_and_euro(undefined):
    text = "\u201cQuoted\u201d \u2013 costs \u20ac5 \u2014 it\u2019s fine.\n\nSecond paragraph here.\n"
    data = text.encode("cp1252").replace(b"fine", b"fi" + bytes([undefined]) + b"ne")
    book = read_raw(data, "old.txt")
    got = book.pages[0].text
    for char in "\u201c\u201d\u2013\u20ac\u2014\u2019":
        assert char in got
    assert "fi\ufffdne" in got
    assert any("U+FFFD" in w and "cp1252" in w for w in book.warnings)


# --- item 4: damaged PDF page object ------------------------------------------------------------

def damaged_pdf() -> bytes:
    doc = pymupdf.open()
    for i in range(3):
        doc.new_page().insert_text((72, 72), f"Page {i + 1} holds some words.", fontsize=11)
    data = doc.tobytes(garbage=0, deflate=False)
    xref = doc[1].xref
    start = re.search(rb"\n%d 0 obj" % xref, data).start() + 1
    end = data.index(b"endobj", start) + len(b"endobj")
    return data[:start] + b"X" * (end - start) + data[end:]  # same length: offsets stay valid


def test_pdf_with_a_destroyed_page_object_warns_about_the_page():
    book = read_raw(damaged_pdf(), "damaged.pdf")
    assert book.pages[1].text.strip() == ""
    assert any("damaged" in w and "2" in w and "could not be read" in w for w in book.warnings)
    assert any("repair" in w for w in book.warnings)


# --- item 6: EPUB without text ------------------------------------------------------------------

def test_epub_without_text_is_refused_like_pdf_and_txt(tmp_path):
    book = tmp_path / "empty.epub"
    book.write_bytes(build_epub({"c1.xhtml": xhtml("<p>   </p><div/>")}))
    out = tmp_path / "out.jsonl"
    result = run_chunk(book, out)
    assert result.returncode == 3, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "no text" in result.stderr
    assert "Traceback" not in result.stderr
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["empty.epub"]


# --- item 9: lone surrogates --------------------------------------------------------------------

def surrogate_pdf() -> bytes:
    """A PDF whose metadata title and outline title are UTF-16 strings with a lone surrogate."""
    doc = pymupdf.open()
    for i in range(2):
        doc.new_page().insert_text((72, 72), f"Chapter {i + 1} body text with words.", fontsize=11)
    doc.set_metadata({"title": "placeholder"})
    doc.set_toc([[1, "placeholder", 1], [1, "second", 2]])
    info = int(doc.xref_get_key(-1, "Info")[1].split()[0])
    doc.xref_set_key(info, "Title", "<FEFF0041DC00>")  # "A" + lone low surrogate
    outlines = int(doc.xref_get_key(doc.pdf_catalog(), "Outlines")[1].split()[0])
    first = int(doc.xref_get_key(outlines, "First")[1].split()[0])
    doc.xref_set_key(first, "Title", "<FEFF0043D800>")  # "C" + lone high surrogate
    return doc.tobytes()


def test_lone_surrogates_from_a_reader_become_replacement_characters():
    book = read_raw(surrogate_pdf(), "s.pdf")
    strings = [book.title] + [e.title for e in book.outline] + book.warnings
    assert all(s.encode("utf-8") for s in strings)
    assert book.outline[0].title.startswith("C") and "\ufffd" in book.outline[0].title
    assert any("surrogate" in w for w in book.warnings)


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_lone_surrogates_in_pdf_strings_export_cleanly(tmp_path, fmt):
    book = tmp_path / "s.pdf"
    book.write_bytes(surrogate_pdf())
    out = tmp_path / f"out.{fmt}"
    result = run_chunk(book, out)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    manifests = [p for p in tmp_path.iterdir() if "manifest" in p.name]
    assert out.exists() and manifests, sorted(p.name for p in tmp_path.iterdir())
    manifest = json.loads(manifests[0].read_text(encoding="utf-8"))
    assert "\\udc" not in json.dumps(manifest) and "\\ud8" not in json.dumps(manifest)

