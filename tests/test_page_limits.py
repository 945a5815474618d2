"""Every PDF page is read under a time and a memory limit, in a child that dies with its caller
(issue 26, defect 1; ``chunking.readers.pdfchild``).

The hostile pages are generated (``fanout_pdf``): ten levels of ten form XObjects, each drawing
the one below, never end; with a text leaf, memory grows as long as the page is read. The limits
are given small (a 2 s deadline, a 100 MB budget), so the tests end quickly whatever the machine;
no test times anything. Runs of the real CLI go through subprocesses with a generous timeout.
"""

from __future__ import annotations

import gc
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pymupdf
import pytest

from cli_run import ROOT, cli
from fanout_pdf import TEXT, fanout_pdf, image_flood_pdf, page_line
from test_hostile_batch import _children
from test_hostile_worker_pool import _alive, _fork_server

from chunking.errors import UsageError
from chunking.ingest import load_book
from chunking.ocr import pages as ocr_pages
from chunking.readers.pdf import read_pdf
from chunking.errors import PageRefused
from chunking.readers.pdfchild import MEMORY_ENV, TIMEOUT_ENV, BoundedPdf, PageLimits, extract_pages
from chunking.readers.pdfpages import page_content
from chunking.readers.raw import RawPage
from chunking.user_cache import CACHE_ENV

FAST = PageLimits(timeout_s=2.0)
WAIT_S = 120.0
"""The most any state below may take to come about (two busy cores): a hang fails, not waits."""

BAD = [2, 5]
"""0-based pages that never end."""


@pytest.fixture(scope="module")
def fan() -> bytes:
    return fanout_pdf(8, BAD)


def _lost(book) -> list[int]:
    return [p.number for p in book.pages if p.lost is not None]


def test_pages_that_never_end_are_stopped_named_once_and_the_others_read_as_in_process(fan):
    book = read_pdf(fan, "fan.pdf", limits=FAST)
    assert _lost(book) == [3, 6]
    doc = pymupdf.open(stream=fan, filetype="pdf")
    for page in book.pages:
        if page.lost is None:
            assert (page.text, page.has_text_layer) == page_content(doc[page.number - 1])
            assert page.text == page_line(page.number - 1) + "\n"
        else:
            assert page.text == "" and page.has_text_layer  # NOTE: lost, not "without a text layer"
            assert "stopped after 2 s" in page.lost
    named = [w for w in book.warnings if "text extraction" in w]
    assert len(named) == 1 and "2 pages (after 2 s: 3, 6)" in named[0] and "missing" in named[0]
    book.close()


def test_a_lost_page_is_never_ocrd_nor_probed_for_fonts(fan, monkeypatch):
    monkeypatch.setenv(TIMEOUT_ENV, "2")
    asked: list[int] = []
    real_all = ocr_pages._Run.all

    def spy_all(self, targets, workers):
        asked.extend(targets)
        return real_all(self, targets, workers)

    real_get_text = pymupdf.Page.get_text

    def guarded_get_text(page, *args, **kwargs):
        assert page.number not in BAD, f"page {page.number + 1} was interpreted in the caller"
        return real_get_text(page, *args, **kwargs)

    monkeypatch.setattr(ocr_pages._Run, "all", spy_all)
    monkeypatch.setattr(pymupdf.Page, "get_text", guarded_get_text)
    book = load_book(fan, name="fan.pdf")
    assert not set(asked) & set(BAD)
    assert [p.number for p in book.pages if not p.has_text_layer] == []
    assert [p.number for p in book.pages if p.ocr] == []
    assert [p.number for p in book.pages if p.lost] == [
        b + 1 for b in BAD
    ]  # NOTE: the app draws no image of them
    assert any("text extraction" in w for w in book.diagnostics.warnings)
    lost = RawPage(number=1, label="", text="", has_text_layer=False, lost="stopped after 2 s")
    assert not ocr_pages.wanted(lost, "auto") and not ocr_pages.wanted(lost, "always")


def test_a_page_that_grows_without_limit_is_stopped_at_the_memory_limit():
    data = fanout_pdf(4, [1], leaf=TEXT)
    book = read_pdf(data, "grows.pdf", limits=PageLimits(timeout_s=600.0, memory_mb=100.0))
    assert _lost(book) == [2]
    assert "memory limit (100 MB)" in book.pages[1].lost
    assert [p.text for p in book.pages if p.lost is None] == [page_line(i) + "\n" for i in (0, 2, 3)]
    assert any(w.startswith("page 2: text extraction stopped at the memory limit") for w in book.warnings)


def test_after_max_stopped_pages_the_rest_is_not_read_and_named_in_the_same_warning():
    data = fanout_pdf(9, [1, 3])
    book = read_pdf(data, "many.pdf", limits=PageLimits(timeout_s=1.0, max_stopped=2))
    assert _lost(book) == [2, 4, 5, 6, 7, 8, 9]
    assert book.pages[2].text == page_line(2) + "\n"
    (warning,) = [w for w in book.warnings if "text extraction" in w]
    assert "pages 5-9 were not read" in warning


def test_a_reader_that_dies_has_its_page_tried_once_more_then_the_page_is_named(fan):
    """Each reader is killed from outside (as the system's out-of-memory killer would) once it is
    stuck on a page: the page is tried once more in a new reader, then stopped."""
    done: list = []
    thread = threading.Thread(target=lambda: done.append(read_pdf(fan, "fan.pdf", limits=PageLimits(600.0))))
    thread.start()
    seen: dict[int, float] = {}
    killed: list[int] = []
    deadline = time.monotonic() + WAIT_S
    while thread.is_alive() and time.monotonic() < deadline:
        for pid in _children(os.getpid()):
            seen.setdefault(pid, _cpu_s(pid))
            if pid not in killed and _cpu_s(pid) - seen[pid] > 1.0:  # NOTE: busy since seen: stuck
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
        time.sleep(0.05)
    thread.join(1.0)
    (book,) = done
    assert len(killed) == 4  # pages 3 and 6, twice each
    for number in (3, 6):
        assert "stopped: the worker process was killed by SIGKILL" in book.pages[number - 1].lost
    assert [p.text for p in book.pages if p.lost is None] == [page_line(i) + "\n" for i in (0, 1, 3, 4, 6, 7)]


@pytest.fixture(scope="module")
def flood() -> bytes:
    return image_flood_pdf(3, [1])


def test_a_question_about_a_page_that_never_ends_is_stopped_and_the_next_one_opens_the_file_again(flood):
    reader = extract_pages(flood, 3, "flood.pdf", FAST).document
    assert reader is not None
    try:
        with pytest.raises(PageRefused, match="stopped after 2 s"):
            reader.ask("image", 1, 300)
        with pytest.raises(PageRefused, match="stopped after 2 s"):  # NOTE: refused at once, never drawn again
            reader.ask("image", 1, 300)
        assert reader.stopped == {1: ("image", "stopped after 2 s")}
        assert [line[0] for line in reader.ask("lines", 2)] == [page_line(2)]
        image, fingerprint = reader.ask("image", 0, 30)
        assert image.startswith(b"P5") and len(fingerprint) == 64
    finally:
        reader.close()


def test_after_max_stopped_questions_every_question_is_refused():
    data = image_flood_pdf(4, [0, 1])
    reader = BoundedPdf(data, PageLimits(timeout_s=1.0, max_stopped=2))
    try:
        for index in (0, 1):
            with pytest.raises(PageRefused, match="stopped after 1 s"):
                reader.ask("image", index, 300)
        with pytest.raises(PageRefused, match="2 stopped pages"):
            reader.ask("lines", 2)
    finally:
        reader.close()


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="Tesseract is not installed (make tesseract)")
def test_ocr_of_a_page_whose_text_reads_at_once_but_whose_image_never_ends_is_stopped_and_named(
    flood, monkeypatch, tmp_path
):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    book = read_pdf(flood, "flood.pdf", limits=FAST)
    try:
        assert [p.lost for p in book.pages] == [None, None, None]  # NOTE: its text came back in time
        assert [p.text for p in book.pages] == [page_line(0) + "\n", "", page_line(2) + "\n"]
        (failed,) = [w for w in book.warnings if w.startswith("OCR failed")]
        assert "2 (cannot render: stopped after 2 s)" in failed
    finally:
        book.close()


def test_a_book_dropped_unclosed_ends_the_reader_that_holds_its_file():
    data = fanout_pdf(2, [])
    read_pdf(data, "first.pdf").close()  # NOTE: leaves one idle reader, which the next read takes
    before = set(_children(os.getpid()))
    book = read_pdf(data, "second.pdf")
    (holder,) = book.pages_reader._held  # the idle reader, holding this book's file
    assert holder.process.pid in before
    del book
    gc.collect()
    assert not holder.process.is_alive()


@pytest.mark.parametrize("name", [TIMEOUT_ENV, MEMORY_ENV])
@pytest.mark.parametrize("value", ["soon", "0", "-3", "inf"])
def test_a_limit_in_the_environment_that_is_not_a_positive_number_is_a_usage_error(monkeypatch, name, value):
    monkeypatch.setenv(name, value)
    with pytest.raises(UsageError, match=name):
        PageLimits.from_env()


def test_the_cli_warns_exits_0_and_leaves_no_temp_file(fan, tmp_path):
    book, temp = tmp_path / "fan.pdf", tmp_path / "tmp"
    book.write_bytes(fan)
    temp.mkdir()
    out = tmp_path / "fan.jsonl"
    r = cli(
        "chunk", book, "-o", out, timeout=WAIT_S, env={**os.environ, TIMEOUT_ENV: "2", "TMPDIR": str(temp)}
    )
    assert r.returncode == 0, r.stderr
    warned = [line for line in r.stderr.splitlines() if "text extraction" in line]
    assert (
        len(warned) == 1 and warned[0].startswith("chunking: warning: ") and "(after 2 s: 3, 6)" in warned[0]
    ), r.stderr
    manifest = json.loads(Path(f"{out}.manifest.json").read_text())
    assert any("text extraction" in w for w in manifest["diagnostics"]["warnings"])
    assert "Traceback" not in r.stderr
    assert list(temp.iterdir()) == []


@pytest.fixture
def short_tmp() -> Iterator[Path]:
    """A temp folder short enough for the fork server's socket (pytest's own may be too deep:
    workers then start by spawn and no socket folder is made)."""
    folder = Path(tempfile.mkdtemp(prefix="bci-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _stuck(env_timeout: str, tmp_path: Path, fan: bytes, temp: Path | None = None) -> tuple[subprocess.Popen, int]:
    """A CLI run stuck on a bad page, and its page reader's pid (busy: seconds of CPU)."""
    book = tmp_path / "fan.pdf"
    book.write_bytes(fan)
    if temp is None:
        temp = tmp_path / "tmp"
        temp.mkdir()  # NOTE: the run's own temp folder: what it leaves behind is checked here
    run = subprocess.Popen(
        [sys.executable, "-m", "chunking", "chunk", str(book), "-o", str(tmp_path / "out.jsonl")],
        cwd=ROOT,
        env={**os.environ, TIMEOUT_ENV: env_timeout, "TMPDIR": str(temp)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline and run.poll() is None:
        busy = [pid for pid in _children(run.pid) if _cpu_s(pid) > 1.0]  # NOTE: a fresh reader: stuck
        if busy:
            return run, busy[0]
        time.sleep(0.05)
    run.kill()
    raise AssertionError(f"no page reader got stuck: {run.communicate()[1]}")


def _cpu_s(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _gone(pids: list[int]) -> list[int]:
    """The pids of ``pids`` still alive when they are all gone or ``WAIT_S`` has passed."""
    deadline = time.monotonic() + WAIT_S
    left = [p for p in pids if _alive(p)]
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = [p for p in left if _alive(p)]
    return left


def test_a_page_reader_dies_with_a_cli_killed_by_sigkill_and_leaves_no_temp_folder(fan, tmp_path, short_tmp):
    run, reader = _stuck("600", tmp_path, fan, short_tmp)
    server = _fork_server(run.pid)
    try:
        assert [p.name[:5] for p in short_tmp.iterdir()] == ["pymp-"]  # the fork server's socket
        run.send_signal(signal.SIGKILL)
        run.wait()
        assert _gone([p for p in (reader, server) if p is not None]) == []
        assert list(short_tmp.iterdir()) == []  # NOTE: removed by the fork server as it ends
    finally:
        if _alive(reader):  # NOTE: only when the test failed: our own grandchild
            os.kill(reader, signal.SIGKILL)


def test_sigterm_ends_a_cli_stuck_on_a_page_and_its_reader(fan, tmp_path):
    run, reader = _stuck("600", tmp_path, fan)
    try:
        run.send_signal(signal.SIGTERM)
        _, err = run.communicate(timeout=WAIT_S)
        assert run.returncode == 143, err
        assert err.strip().splitlines()[-1] == "chunking: terminated (SIGTERM)", err
        assert _gone([reader]) == []
        assert list((tmp_path / "tmp").iterdir()) == []  # no temp file left
    finally:
        if _alive(reader):
            os.kill(reader, signal.SIGKILL)
        if run.poll() is None:
            run.kill()


NESTED = """
import sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from chunking.batch import WORKER_PRELOAD
from chunking.ingest import load_book
from chunking.workerpool import imap_unordered
from test_page_limits import pages_of
list(imap_unordered(pages_of, [(sys.argv[2],)] * 2, 2, WORKER_PRELOAD))
deadline = time.monotonic() + 60
while time.monotonic() < deadline and len(list(Path(sys.argv[3]).glob("pymp-*/listener-*"))) > 1:
    time.sleep(0.05)  # NOTE: until the workers' own fork servers have ended (and cleaned up)
print(pages_of(sys.argv[2]), len(list(Path(sys.argv[3]).glob("pymp-*/listener-*"))))
"""


def pages_of(path: str) -> int:
    return len(load_book(Path(path).read_bytes(), name="b.pdf").pages)


def test_a_workers_own_fork_server_leaves_its_callers_socket_folder_alone(tmp_path, short_tmp):
    """A batch worker that reads a PDF starts a fork server of its own, whose socket goes into
    the caller's folder; as it ends it removes its socket only: the caller reads PDFs on."""
    book = tmp_path / "b.pdf"
    book.write_bytes(fanout_pdf(3, []))
    env = {**os.environ, "TMPDIR": str(short_tmp)}
    run = subprocess.run([sys.executable, "-c", NESTED, str(Path(__file__).parent), str(book), str(short_tmp)],
                         capture_output=True, text=True, timeout=WAIT_S, env=env, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["3", "1"]  # read in the caller; its own server's socket is left
    assert list(short_tmp.iterdir()) == []  # NOTE: and the caller's clean exit removed the folder
