"""Rules of a single-book run on several cores (issue 15): the output never depends on how many
workers ran it. Pages extracted by a helper process, tokens encoded on threads and chunks
re-encoded on threads give what one core gives, byte for byte."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunking.encodings import get_encoding
from chunking.policy import Policy
from chunking.readers import read_raw
from chunking.strategies import chunk_book
from chunking.tokens import SAFE_SPLIT_ENCODINGS, _is_safe, tokenize
from chunking.validate import validate_chunks
from pdf_factory import body, make_pdf
from synthetic_books import make_book
from text_pieces import texts

ROOT = Path(__file__).resolve().parent.parent
_TEXT = texts(60)


@pytest.mark.parametrize("encoding", sorted(SAFE_SPLIT_ENCODINGS))
@settings(max_examples=300, deadline=None)
@given(text=_TEXT)
def test_a_text_cut_at_a_safe_newline_encodes_to_the_same_tokens(encoding, text):
    enc = get_encoding(encoding)
    whole = enc.encode_ordinary(text)
    for p in range(len(text) + 1):
        if _is_safe(text, p):
            assert enc.encode_ordinary(text[:p]) + enc.encode_ordinary(text[p:]) == whole, p


@settings(max_examples=40, deadline=None)
@given(
    pages=st.lists(_TEXT, min_size=1, max_size=6),
    workers=st.integers(2, 4),
    encoding=st.sampled_from(["cl100k_base", "o200k_base"]),
)
def test_tokens_encoded_on_threads_equal_one_thread(pages, workers, encoding):
    book = make_book(pages, [(0, 0, "chapter", "c")] if pages[0] else [])
    one, many = tokenize(book, encoding, workers=1), tokenize(book, encoding, workers=workers)
    for name in ("tokens", "char_starts", "legal"):
        assert np.array_equal(getattr(one, name), getattr(many, name)), name
    assert all(np.array_equal(one.fence_tokens[k], many.fence_tokens[k]) for k in one.fence_tokens)


def test_validation_on_threads_reports_what_one_thread_reports():
    book = make_book([" ".join(["word"] * 900) + "\n" + " ".join(["more"] * 900) for _ in range(4)])
    tb, policy = tokenize(book), Policy()
    chunks = chunk_book(tb, policy)
    assert validate_chunks(chunks, tb, policy, workers=1) == validate_chunks(chunks, tb, policy, workers=2)
    from dataclasses import replace

    broken = list(chunks)
    broken[3] = replace(broken[3], text=broken[3].text + " extra")
    one = validate_chunks(broken, tb, policy, workers=1)
    assert not one.ok and one == validate_chunks(broken, tb, policy, workers=2)


def _pdf(n: int) -> bytes:
    """A real ``n``-page PDF with chapters, a blank page and an image-only page."""
    pages = [
        [(f"Chapter {i}", 20.0), *body(30, start=i * 30)] if i % 10 == 0 else body(40, start=i * 40)
        for i in range(n)
    ]
    pages[5] = []
    return make_pdf(pages, image_pages=(7,), toc=[(1, f"Chapter {i}", i + 1, None) for i in range(0, n, 10)])


def test_pages_extracted_by_a_helper_process_equal_one_process(tmp_path):
    data = _pdf(90)
    one = read_raw(data, "b.pdf", workers=1)
    two = read_raw(data, "b.pdf", workers=2)
    try:
        assert [(p.number, p.label, p.text, p.has_text_layer) for p in one.pages] == [
            (p.number, p.label, p.text, p.has_text_layer) for p in two.pages
        ]
        assert one.warnings == two.warnings and one.title == two.title
    finally:
        one.pdf.close()
        two.pdf.close()


def test_cli_output_with_default_workers_is_byte_identical_to_one_worker(tmp_path):
    book = tmp_path / "book.pdf"
    from chunking.readers.pdf import PARALLEL_MIN_PAGES

    assert 160 >= PARALLEL_MIN_PAGES  # so the default run reads with the helper process
    book.write_bytes(_pdf(160))
    outs = []
    for k, args in enumerate(([], ["--workers", "1"], ["--workers", "2"])):
        out = tmp_path / f"run{k}" / "out.jsonl"
        out.parent.mkdir()
        subprocess.run(
            [sys.executable, "-m", "chunking", "chunk", str(book), "-o", str(out), *args],
            check=True,
            cwd=ROOT,
            capture_output=True,
        )
        outs.append((out.read_bytes(), out.with_suffix(".manifest.json").read_bytes()))
    assert outs[0][0] and outs[0] == outs[1] == outs[2]


def _collect(helper, down_to: int) -> None:
    import time

    deadline = time.monotonic() + 60
    while (helper.count < 0 or helper.frontier > down_to) and time.monotonic() < deadline:
        helper.poll(timeout=0.05)
    helper.finish(needed=True)


def test_the_helper_process_delivers_the_pages_it_read_from_the_end():
    import hashlib

    import pymupdf

    from chunking.readers.pdfhelper import Helper

    data = _pdf(60)
    helper = Helper(data)
    _collect(helper, 50)
    doc = pymupdf.open(stream=data, filetype="pdf")
    assert helper.ok and helper.serves(hashlib.sha256(data).digest(), 60)
    assert len(helper.pages) >= 10 and min(helper.pages) >= 1
    assert sorted(helper.pages) == list(range(min(helper.pages), 60))
    for index, (text, _) in helper.pages.items():
        assert text == doc[index].get_text()


def test_a_prestarted_helper_serves_only_the_bytes_it_read(tmp_path):
    import hashlib

    from chunking.readers import pdfhelper

    path = tmp_path / "b.pdf"
    path.write_bytes(_pdf(40))
    helper = pdfhelper.Helper(path)  # reads the file itself, as the CLI's prestarted one does
    _collect(helper, 30)
    assert helper.ok and helper.serves(hashlib.sha256(path.read_bytes()).digest(), 40)
    assert not helper.serves(hashlib.sha256(b"other bytes").digest(), 40)
    # The reader adopts a prestarted helper and reads the same pages as alone, for its bytes or others.
    for data in (path.read_bytes(), _pdf(45)):
        pdfhelper.prestart(path)
        two = read_raw(data, "b.pdf", workers=2)
        one = read_raw(data, "b.pdf", workers=1)
        assert pdfhelper.adopt() is None
        assert [p.text for p in two.pages] == [p.text for p in one.pages]
        one.pdf.close()
        two.pdf.close()


def test_helper_file_limit_is_the_readers():
    from chunking.ingest import MAX_BOOK_BYTES
    from chunking.readers.pdfwire import MAX_FILE_BYTES

    assert MAX_FILE_BYTES == MAX_BOOK_BYTES


def test_a_damaged_page_in_the_helpers_half_gives_the_same_pages_and_warnings():
    import re

    import pymupdf

    doc = pymupdf.open()
    for i in range(60):
        doc.new_page().insert_text((72, 72), f"Page {i + 1} holds some words.", fontsize=11)
    data = doc.tobytes(garbage=0, deflate=False)
    xref = doc[50].xref
    start = re.search(rb"\n%d 0 obj" % xref, data).start() + 1
    end = data.index(b"endobj", start) + len(b"endobj")
    data = data[:start] + b"X" * (end - start) + data[end:]  # page 51 destroyed, offsets kept
    one, two = read_raw(data, "d.pdf", workers=1), read_raw(data, "d.pdf", workers=2)
    try:
        assert [p.text for p in one.pages] == [p.text for p in two.pages]
        assert one.warnings == two.warnings and any("51" in w for w in two.warnings)
    finally:
        one.pdf.close()
        two.pdf.close()


def test_the_helpers_output_never_waits_for_the_parent_to_read():
    import os
    import threading

    from chunking.readers.pdfpages import _Sink

    read_end, write_end = os.pipe()
    frames = [bytes([i]) * 10_000 for i in range(100)]  # 1 MB: many times a pipe's buffer
    sink = _Sink(write_end)
    sender = threading.Thread(target=lambda: [sink.send(f) for f in frames], daemon=True)
    sender.start()
    sender.join(timeout=30)
    assert not sender.is_alive()  # nobody read the pipe, and every frame was taken
    received = bytearray()
    reader = threading.Thread(
        target=lambda: [received.extend(b) for b in iter(lambda: os.read(read_end, 1 << 16), b"")], daemon=True
    )
    reader.start()
    sink.close()
    os.close(write_end)
    reader.join(timeout=30)
    os.close(read_end)
    assert bytes(received) == b"".join(frames)  # all of it, in order


_FORKED_RUN = """
import hashlib, sys
from chunking.readers import pdfhelper
from chunking.readers import read_raw
path = sys.argv[1]
assert pdfhelper.can_fork()
pdfhelper.prestart(path)
helper = pdfhelper._prestarted
assert type(helper.proc).__name__ == "_Forked", type(helper.proc)
data = open(path, "rb").read()
two = read_raw(data, "b.pdf", workers=2)
one = read_raw(data, "b.pdf", workers=1)
assert pdfhelper.adopt() is None and helper.proc.poll() is not None  # adopted, stopped, reaped
assert len(helper.pages) >= 1, "the forked helper delivered no page"
assert [p.text for p in two.pages] == [p.text for p in one.pages]
assert [p.has_text_layer for p in two.pages] == [p.has_text_layer for p in one.pages]
print("ok")
"""


def test_a_forked_helper_reads_the_pages_one_process_reads(tmp_path):
    # NOTE: in a fresh interpreter: the test process itself may run threads (xdist), where
    # forking is refused (can_fork).
    path = tmp_path / "b.pdf"
    path.write_bytes(_pdf(400))
    done = subprocess.run(
        [sys.executable, "-c", _FORKED_RUN, str(path)], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_no_helper_is_forked_while_another_thread_runs():
    import threading

    from chunking.readers.pdfhelper import can_fork

    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert not can_fork()
    finally:
        release.set()
        other.join()


def _kept_helper_book(tmp_path):
    """A book read with a prestarted helper (so it surely read pages) kept for layouts."""
    from chunking.readers import pdfhelper

    path = tmp_path / "b.pdf"
    path.write_bytes(_pdf(300))
    pdfhelper.prestart(path)
    _collect_some(pdfhelper._prestarted)
    return read_raw(path.read_bytes(), "b.pdf", workers=2, keep_helper=True)


def _collect_some(helper) -> None:
    import time

    deadline = time.monotonic() + 60
    while len(helper.pages) < 20 and time.monotonic() < deadline:
        helper.poll(timeout=0.05)


def test_layouts_read_ahead_by_the_helper_equal_the_layouts_read_here(tmp_path):
    from chunking.readers.layout import PdfLayout
    from chunking.structure.typography import TOP_BAND

    raw = _kept_helper_book(tmp_path)
    try:
        assert raw.helper is not None  # 200 pages: the helper read some, and was kept
        pages = list(range(0, 300, 7))
        raw.prefetch_layouts(pages, TOP_BAND)
        local = PdfLayout(raw.pdf)
        ahead = raw.layout
        import time

        deadline = time.monotonic() + 60
        while len(raw.helper.layouts) < len(pages) and time.monotonic() < deadline:
            raw.helper.poll(timeout=0.05)
        assert len(raw.helper.layouts) == len(pages)
        for index in pages:
            assert raw.helper.layout_lines(index, TOP_BAND) is not None
            assert ahead.lines(index, TOP_BAND) == local.lines(index, TOP_BAND), index
            assert raw.helper.layout_lines(index, None) is None  # only the share asked for
        helper = raw.helper
    finally:
        raw.close()
    assert helper.proc.poll() is not None  # closing the book stopped the helper


def test_a_layout_the_helper_garbled_is_read_here_instead(tmp_path):
    from chunking.readers.pdfhelper import Helper

    raw = _kept_helper_book(tmp_path)
    try:
        helper: Helper = raw.helper
        helper.request_layouts([3], 0.4)
        helper.layouts[3] = b"\x00not marshal"
        assert helper.layout_lines(3, 0.4) is None
        import marshal

        helper.layouts[3] = marshal.dumps([("text", 1.0, "not a flag")])
        assert helper.layout_lines(3, 0.4) is None
    finally:
        raw.close()
