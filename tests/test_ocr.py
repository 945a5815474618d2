"""OCR of pages without a usable text layer, with the real Tesseract (issue 25).

Every scanned page is generated (``tests/scan_factory.py``): known words rendered to a 300-dpi
image, so a test can measure what OCR read. Tesseract runs for real; "without Tesseract" is a
``PATH`` that does not hold it, as on a machine where it is not installed. Each test has its own
OCR cache (``BOOK_CHUNK_INSPECTOR_CACHE``) unless it tests the cache itself.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path

import pymupdf
import pytest

from chunking.errors import PolicyError, UsageError
from chunking.export import read_chunks, write_outputs
from chunking.ingest import load_book
from chunking.ocr import cache
from chunking.ocr.engine import image_file
from chunking.pipeline import run_book
from chunking.policy import Policy
from chunking.user_cache import CACHE_ENV
from conftest import ROOT
from scan_factory import (
    add_invalid_image_page,
    add_scanned_page,
    add_text_page,
    save,
    scan_image,
    sentences,
    word_accuracy,
)

pytestmark = pytest.mark.skipif(
    shutil.which("tesseract") is None, reason="Tesseract is not installed (make tesseract)"
)

CLEAN = sentences(260, seed=1)
SKEWED = sentences(320, seed=2)
BORN_DIGITAL = sentences(200, seed=0)


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    """Every test starts with an empty OCR cache of its own."""
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture(scope="module")
def mixed_pdf() -> bytes:
    """A born-digital chapter page, a clean scan, a rotated noisy two-column scan."""
    doc = pymupdf.open()
    add_text_page(doc, BORN_DIGITAL, heading="Chapter 1 Beginnings")
    add_scanned_page(doc, scan_image(CLEAN))
    add_scanned_page(doc, scan_image(SKEWED, columns=2, rotate=1.5, noise=0.02, seed=4))
    return save(doc)


@pytest.fixture(scope="module")
def mixed_run(mixed_pdf, tmp_path_factory):
    """``run_book`` on ``mixed_pdf`` once for the module (OCR is about a second a page)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(CACHE_ENV, str(tmp_path_factory.mktemp("module-cache")))
        return run_book(mixed_pdf, Policy(max_tokens=128, overlap_tokens=0), name="mixed.pdf")


def _page_text(book, number: int) -> str:
    page = book.pages[number - 1]
    return book.text[page.char_start : page.char_end]


def _cli(args: list[str], cache_dir: Path, path: str | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), **{CACHE_ENV: str(cache_dir)})
    if path is not None:
        env["PATH"] = path
    return subprocess.run(
        [sys.executable, "-m", "chunking", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=300,
    )


def _no_tesseract_path(tmp_path: Path) -> str:
    """A ``PATH`` without Tesseract (an empty folder): the machine of a user who never installed it."""
    empty = tmp_path / "bin-without-tesseract"
    empty.mkdir(exist_ok=True)
    return str(empty)


def test_scanned_page_in_a_born_digital_pdf_is_read_at_word_accuracy_97(mixed_run):
    book = mixed_run.book
    assert [p.ocr for p in book.pages] == [False, True, True]
    assert word_accuracy(CLEAN, _page_text(book, 2)) >= 0.97
    assert word_accuracy(BORN_DIGITAL, _page_text(book, 1)) == 1.0


def test_rotated_noisy_two_column_scan_is_read_at_word_accuracy_90(mixed_run):
    assert word_accuracy(SKEWED, _page_text(mixed_run.book, 3)) >= 0.90


def test_every_chunk_says_whether_its_text_came_from_ocr(mixed_run):
    chunks = mixed_run.chunks
    assert {c.ocr for c in chunks} == {True, False}
    for c in chunks:
        assert c.ocr == (c.page_end >= 2)
    assert mixed_run.report.ok, mixed_run.report.message


def test_manifest_lists_ocr_pages_with_mean_word_confidence(mixed_run):
    pages = mixed_run.manifest["diagnostics"]["ocr_pages"]
    assert [p["page"] for p in pages] == [2, 3]
    assert all(80 <= p["mean_confidence"] <= 100 and p["words"] > 200 for p in pages)
    assert mixed_run.book.diagnostics.warnings == []


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet", "langchain"])
def test_ocr_field_survives_every_export_format(mixed_run, tmp_path, fmt):
    out = tmp_path / f"mixed.{'langchain.jsonl' if fmt == 'langchain' else fmt}"
    write_outputs(mixed_run.chunks, mixed_run.manifest, out, fmt)
    back, _ = read_chunks(out)
    assert [c.ocr for c in back] == [c.ocr for c in mixed_run.chunks]
    assert back == mixed_run.chunks


def test_garbage_text_layer_over_a_scan_is_replaced_by_ocr_text():
    junk = " ".join(["xQzTrk", "pLkmnv", "bRtWqz", "mnGhtk"] * 60)
    text = sentences(200, seed=5)
    doc = pymupdf.open()
    add_text_page(doc, BORN_DIGITAL, heading="Chapter 1 Beginnings")
    add_scanned_page(doc, scan_image(text), garbage_layer=junk)
    data = save(doc)
    book = load_book(data, name="junk-layer.pdf")
    assert book.pages[1].ocr and book.pages[1].has_text_layer
    assert word_accuracy(text, _page_text(book, 2)) >= 0.97
    assert "xQzTrk" not in book.text
    kept = load_book(data, name="junk-layer.pdf", ocr="never")
    assert "xQzTrk" in kept.text and not kept.pages[1].ocr


def test_a_layer_of_glyph_ids_is_replaced_by_ocr_text():
    """A TrueType font embedded without a Unicode map reads as its glyph ids: every character 29
    code points down (``the`` reads ``WKH``, a space U+0003). Its letters keep a case pattern but
    stand mostly for consonants: the layer is garbage and the page is read by OCR."""
    text = sentences(200, seed=6)
    ids = "".join(chr(ord(ch) - 29) if " " <= ch <= "~" else ch for ch in text)
    doc = pymupdf.open()
    add_text_page(doc, BORN_DIGITAL, heading="Chapter 1 Beginnings")
    add_scanned_page(doc, scan_image(text), garbage_layer=ids)
    book = load_book(save(doc), name="glyph-ids.pdf")
    assert [p.ocr for p in book.pages] == [False, True]
    assert word_accuracy(text, _page_text(book, 2)) >= 0.97


def test_invalid_image_page_is_one_warning_and_the_other_pages_are_read():
    doc = pymupdf.open()
    add_text_page(doc, BORN_DIGITAL, heading="Chapter 1 Beginnings")
    add_invalid_image_page(doc)
    add_scanned_page(doc, scan_image(CLEAN))
    book = load_book(save(doc), name="bad-image.pdf")
    assert [p.ocr for p in book.pages] == [False, False, True]
    assert _page_text(book, 2) == ""
    assert word_accuracy(CLEAN, _page_text(book, 3)) >= 0.97
    about_page_2 = [w for w in book.diagnostics.warnings if "1 of 3 pages" in w or "OCR failed" in w]
    assert len(about_page_2) == 1, book.diagnostics.warnings


def test_low_confidence_pages_are_named_in_one_warning():
    doc = pymupdf.open()
    add_text_page(doc, BORN_DIGITAL, heading="Chapter 1 Beginnings")
    add_scanned_page(doc, scan_image(sentences(150, seed=7), blurred_from_dpi=36))
    book = load_book(save(doc), name="blurred.pdf")
    low = [w for w in book.diagnostics.warnings if w.startswith("OCR confidence is low")]
    confidence = book.diagnostics.ocr_pages[0]["mean_confidence"]
    assert confidence < 60
    assert low == [
        f"OCR confidence is low on 1 pages (mean word confidence below 60: p. 2 ({confidence:g})); check their text"
    ]


def _rechunk_without_tesseract(pdf: bytes, tmp_path: Path, between=lambda cache_dir: None) -> None:
    """Chunk ``pdf`` twice through the CLI, the second time without Tesseract on ``PATH``
    (only the cache can give the scanned pages their text), ``between`` run on the cache in
    between; the two outputs must be the same bytes, with no warning."""
    book = tmp_path / "mixed.pdf"
    book.write_bytes(pdf)
    cache_dir = tmp_path / "shared-cache"
    first = _cli(["chunk", str(book), "-o", str(tmp_path / "first.jsonl")], cache_dir)
    assert first.returncode == 0, first.stderr
    between(cache_dir)
    second = _cli(
        ["chunk", str(book), "-o", str(tmp_path / "second.jsonl")], cache_dir, _no_tesseract_path(tmp_path)
    )
    assert second.returncode == 0, second.stderr
    assert "warning" not in second.stderr
    assert (tmp_path / "second.jsonl").read_bytes() == (tmp_path / "first.jsonl").read_bytes()


def test_rechunk_reads_ocr_from_the_cache_without_running_tesseract(mixed_pdf, tmp_path):
    _rechunk_without_tesseract(mixed_pdf, tmp_path)


def _page_entries() -> list[Path]:
    return sorted(e for e in cache.cache_dir().rglob("*.json") if "books" not in e.parts)


def _book_records() -> list[Path]:
    return sorted((cache.cache_dir() / "books").rglob("*.json"))


def test_bad_cache_entries_are_ignored_and_rewritten(mixed_pdf, own_cache, tmp_path):
    good = load_book(mixed_pdf, name="mixed.pdf")
    entries, books = _page_entries(), _book_records()
    assert len(entries) == 2 and len(books) == 1
    record = json.loads(entries[0].read_text())
    record["text"] = "words an attacker put there"  # digest no longer matches
    entries[0].write_text(json.dumps(record))
    entries[1].write_bytes(b"\x00not json" * 10)
    books[0].write_bytes(books[0].read_bytes().replace(b'"words": ', b'"words": 1'))
    assert load_book(mixed_pdf, name="mixed.pdf").text == good.text
    assert all(cache.load(e.stem, None) is not None for e in entries)
    assert len(cache.load_book(books[0].stem, None)) == 2
    assert "attacker" not in entries[0].read_text()


def test_the_book_record_alone_gives_a_rechunk_of_the_same_bytes_its_ocr_text(mixed_pdf, tmp_path):
    def drop_page_entries(cache_dir: Path) -> None:
        for entry in (cache_dir / "ocr").rglob("*.json"):
            if "books" not in entry.parts:
                entry.unlink()

    _rechunk_without_tesseract(mixed_pdf, tmp_path, drop_page_entries)


def test_other_bytes_of_the_same_pages_find_their_ocr_by_page_fingerprint(mixed_pdf, own_cache):
    first = load_book(mixed_pdf, name="mixed.pdf")
    doc = pymupdf.open(stream=mixed_pdf, filetype="pdf")
    doc.set_metadata({"title": "The same pages, saved again"})
    other = doc.tobytes(garbage=1)
    assert other != mixed_pdf
    records = _book_records()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PATH", "")  # NOTE: no Tesseract: only the page entries can give the scans text
        again = load_book(other, name="again.pdf")
    assert [p.ocr for p in again.pages] == [False, True, True]
    assert again.text == first.text
    assert _book_records() == records  # NOTE: without Tesseract no record is written


def test_tampered_cache_entry_is_not_used_without_tesseract(mixed_pdf, tmp_path):
    book = tmp_path / "mixed.pdf"
    book.write_bytes(mixed_pdf)
    cache_dir = tmp_path / "c"
    assert _cli(["outline", str(book)], cache_dir).returncode == 0
    for entry in (cache_dir / "ocr").rglob("*.json"):
        entry.write_bytes(entry.read_bytes().replace(b'"words": ', b'"words": 1'))
    result = _cli(["outline", str(book)], cache_dir, _no_tesseract_path(tmp_path))
    assert result.returncode == 0
    assert "not installed" in result.stderr


def test_ocr_always_without_tesseract_is_a_usage_error_exit_2(mixed_pdf, tmp_path):
    book = tmp_path / "mixed.pdf"
    book.write_bytes(mixed_pdf)
    for command in (["chunk", str(book), "-o", str(tmp_path / "out.jsonl")], ["outline", str(book)]):
        result = _cli([*command, "--ocr", "always"], tmp_path / "c", _no_tesseract_path(tmp_path))
        assert result.returncode == 2
        assert result.stderr.splitlines() == [
            "chunking: error: --ocr always needs Tesseract, which is not installed (Debian package tesseract-ocr)"
        ]
    assert not (tmp_path / "out.jsonl").exists()


def test_ocr_auto_without_tesseract_warns_once_naming_the_package(mixed_pdf, tmp_path):
    book = tmp_path / "mixed.pdf"
    book.write_bytes(mixed_pdf)
    out = tmp_path / "out.jsonl"
    result = _cli(["chunk", str(book), "-o", str(out)], tmp_path / "c", _no_tesseract_path(tmp_path))
    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if line.startswith("chunking: warning:")]
    assert warnings == [
        "chunking: warning: 2 of 3 pages have no usable text layer (scanned images?) and were not read: "
        "Tesseract is not installed (Debian package tesseract-ocr); their text is missing"
    ]
    chunks, _ = read_chunks(out)
    assert chunks and not any(c.ocr for c in chunks)


def test_wholly_scanned_40_page_book_is_read_whole_and_chunked(tmp_path):
    doc = pymupdf.open()
    texts = []
    for n in range(40):
        texts.append(sentences(120, seed=100 + n))
        heading = f"Chapter {n // 10 + 1}" if n % 10 == 0 else ""
        add_scanned_page(doc, scan_image(texts[-1], heading=heading))
    result = run_book(save(doc), Policy(), name="scanned-book.pdf")
    book = result.book
    assert all(p.ocr for p in book.pages)
    assert [p["page"] for p in book.diagnostics.ocr_pages] == list(range(1, 41))
    assert word_accuracy(" ".join(texts), book.text) >= 0.97
    assert result.chunks and all(c.ocr for c in result.chunks)
    assert result.report.ok, result.report.message
    # NOTE: ``Chapter N`` set large over untitled text: found by the size OCR measured
    assert [(h.number, h.title, h.page) for h in book.headings if h.kind == "chapter"] == [
        ("1", "", 1),
        ("2", "", 11),
        ("3", "", 21),
        ("4", "", 31),
    ]


def test_ocr_language_outside_tesseract_names_is_refused_before_reading(tmp_path):
    with pytest.raises(PolicyError, match="ocr_language"):
        Policy(ocr_language="eng -c tessedit_write_images=1")
    result = _cli(["outline", str(tmp_path / "missing.pdf"), "--ocr-language", "../../etc"], tmp_path / "c")
    assert result.returncode == 2
    assert "ocr_language" in result.stderr and len(result.stderr.splitlines()) == 1


def test_ocr_always_with_a_language_tesseract_lacks_is_a_usage_error(mixed_pdf):
    with pytest.raises(UsageError, match="tesseract-ocr-zzz"):
        load_book(mixed_pdf, name="mixed.pdf", ocr="always", ocr_language="zzz")


def test_a_scanned_page_copied_into_another_pdf_is_read_from_the_cache(mixed_pdf, tmp_path, monkeypatch):
    first = load_book(mixed_pdf, name="mixed.pdf")
    source = pymupdf.open(stream=mixed_pdf, filetype="pdf")
    other = pymupdf.open()
    add_text_page(other, sentences(150, seed=9), heading="Chapter 1 Elsewhere")
    other.insert_pdf(source, from_page=1, to_page=1)  # new object numbers, same page
    monkeypatch.setenv("PATH", _no_tesseract_path(tmp_path))
    copied = load_book(save(other), name="other.pdf")
    assert copied.pages[1].ocr and copied.diagnostics.warnings == []
    assert _page_text(copied, 2) == _page_text(first, 2)


def test_batch_mode_reads_scanned_pages_by_ocr_with_the_policys_language(mixed_pdf, tmp_path):
    books = tmp_path / "books"
    books.mkdir()
    (books / "mixed.pdf").write_bytes(mixed_pdf)
    out = tmp_path / "out"
    result = _cli(
        ["chunk", str(books), "-o", str(out), "--ocr", "auto", "--ocr-language", "eng", "--workers", "1"],
        tmp_path / "c",
    )
    assert result.returncode == 0, result.stderr
    manifest = json.loads((out / "mixed.pdf.jsonl.manifest.json").read_text())
    assert (manifest["policy"]["ocr"], manifest["policy"]["ocr_language"]) == ("auto", "eng")
    assert [p["page"] for p in manifest["diagnostics"]["ocr_pages"]] == [2, 3]
    chunks, _ = read_chunks(out / "mixed.pdf.jsonl")
    assert any(c.ocr for c in chunks) and word_accuracy(CLEAN, "".join(c.text for c in chunks)) > 0.9


def _tesseract_children(pid: int) -> list[int]:
    """The ``tesseract`` processes process ``pid`` started (read from /proc)."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            children = (task / "children").read_text().split()
        except OSError:
            continue
        for child in children:
            try:
                if Path(f"/proc/{child}/comm").read_text().strip() == "tesseract":
                    found.append(int(child))
            except OSError:
                continue
    return found


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc to see child processes")
def test_tesseract_reads_the_page_image_from_a_file_not_a_pipe():
    """A 9 MB image fed through a pipe by ``communicate`` (4 KB a write, the GIL taken back for
    each) stalled while this process rendered the next pages (bench/OCR.md): stdin is a file."""
    image = b"P5\n2 1\n255\n\x00\xff"
    with image_file(image) as fh:
        assert stat.S_ISREG(os.fstat(fh.fileno()).st_mode)
        assert fh.tell() == 0
        assert fh.read() == image


def test_sigterm_during_ocr_kills_every_tesseract_child(tmp_path):
    doc = pymupdf.open()
    for n in range(6):
        add_scanned_page(doc, scan_image(sentences(300, seed=50 + n)))
    book = tmp_path / "scans.pdf"
    book.write_bytes(save(doc))
    env = dict(os.environ, PYTHONPATH=str(ROOT), **{CACHE_ENV: str(tmp_path / "c")})
    proc = subprocess.Popen(
        [sys.executable, "-m", "chunking", "chunk", str(book), "-o", str(tmp_path / "o.jsonl")],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        children: list[int] = []
        while not children and proc.poll() is None:  # NOTE: polls until a Tesseract runs
            children = _tesseract_children(proc.pid)
            time.sleep(0.02)
        assert children, "the run ended before any Tesseract started"
        proc.terminate()
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 143 and err.strip().splitlines()[-1] == "chunking: terminated (SIGTERM)"
    assert all(not Path(f"/proc/{pid}").exists() for pid in children)
    assert not (tmp_path / "o.jsonl").exists()
