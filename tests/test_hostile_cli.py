"""Hostile command lines, input files and output paths (issue 12, items 1, 5, 10, 11, 12, 14).

Every test generates its input (a small TXT book, a FIFO, a sparse file, a tampered export) and
runs the real CLI in a subprocess, then asserts the clean outcome: the documented exit code,
exactly one stderr line, no traceback, no temp or partial file, the book unchanged.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from chunking.errors import MAX_WARNINGS_PRINTED, print_warnings
from chunking.ingest import MAX_BOOK_BYTES
from conftest import ROOT

BOOK_TEXT = ("Chapter 1\n\nThe first chapter has some words in it. " * 20 + "\n\n"
             "Chapter 2\n\nThe second chapter has more words. " * 20 + "\n")


def cli(*args: str, timeout: float = 120, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "chunking", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, **kwargs)


def one_error_line(r: subprocess.CompletedProcess, code: int) -> str:
    """The run exited with ``code`` and printed exactly one stderr line, no traceback."""
    lines = r.stderr.strip().splitlines()
    assert r.returncode == code, r.stderr
    assert "Traceback" not in r.stderr and len(lines) == 1, r.stderr
    return lines[0]


@pytest.fixture
def book(tmp_path) -> Path:
    path = tmp_path / "book.txt"
    path.write_text(BOOK_TEXT, encoding="utf-8")
    return path


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# Item 1 ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["same path", "symlink", "hard link"])
def test_output_that_is_the_book_is_refused(book, tmp_path, how):
    out = book
    if how == "symlink":
        out = tmp_path / "link.jsonl"
        out.symlink_to(book)
    elif how == "hard link":
        out = tmp_path / "hard.jsonl"
        os.link(book, out)
    before = sorted(p.name for p in tmp_path.iterdir())
    line = one_error_line(cli("chunk", str(book), "-o", str(out)), 2)
    assert "book itself" in line
    assert book.read_text(encoding="utf-8") == BOOK_TEXT
    assert sorted(p.name for p in tmp_path.iterdir()) == before


# Item 5 ----------------------------------------------------------------------------------------


def test_chunk_prints_reader_warnings_and_keeps_them_in_the_manifest(tmp_path):
    # Not UTF-8 (a latin-1 byte), and a file name with a terminal escape: the warning quotes it.
    path = tmp_path / "caf\x1b[31m.txt"
    path.write_bytes(BOOK_TEXT.encode() + "Caf\xe9 au lait.\n".encode("latin-1"))
    out = tmp_path / "out.jsonl"
    r = cli("chunk", str(path), "-o", str(out))
    assert r.returncode == 0, r.stderr
    warned = [line for line in r.stderr.splitlines() if line.startswith("chunking: warning: ")]
    manifest = json.loads((tmp_path / "out.jsonl.manifest.json").read_text(encoding="utf-8"))
    kept = manifest["diagnostics"]["warnings"]
    assert kept and len(warned) == len(kept)
    assert "\x1b" not in r.stderr and "\\x1b" in warned[0]
    r = cli("chunk", str(path))  # stdout mode prints them too
    assert r.returncode == 0 and "chunking: warning: " in r.stderr


def test_many_warnings_are_capped_with_a_count_line(tmp_path):
    log = tmp_path / "stderr.txt"
    with log.open("w") as fh:
        print_warnings([f"w{i}\nsecond line" for i in range(MAX_WARNINGS_PRINTED + 7)], where="manifest",
                       stream=fh)
    lines = log.read_text().splitlines()
    assert len(lines) == MAX_WARNINGS_PRINTED + 1
    assert lines[0] == "chunking: warning: w0 second line"
    assert "7 more warnings" in lines[-1]


# Item 10 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", ["parent is a file", "a folder", "empty", "a device"])
def test_unwritable_output_paths_are_refused_before_work(book, tmp_path, case):
    # The device is a private /dev/full node (root may mknod): were the check ever lost, the
    # rename would replace this node, not the machine's /dev/full.
    device = tmp_path / "full"
    os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
    out = {"parent is a file": str(book / "x.jsonl"), "a folder": str(tmp_path), "empty": "",
           "a device": str(device)}[case]
    one_error_line(cli("chunk", str(book), "-o", out), 2)
    assert device.is_char_device()
    assert leftovers(tmp_path) == [] and book.read_text(encoding="utf-8") == BOOK_TEXT


def test_permission_denied_output_is_one_line_exit_5(book):
    # Root ignores file modes; sysfs refuses to create files even for root (EACCES).
    line = one_error_line(cli("chunk", str(book), "-o", "/sys/chunks.jsonl"), 5)
    assert "/sys/chunks.jsonl" in line and "Permission denied" in line


def test_full_disk_on_stdout_is_one_line_exit_5(book):
    with open("/dev/full", "wb") as full:
        r = subprocess.run([sys.executable, "-m", "chunking", "chunk", str(book)], cwd=ROOT, stdout=full,
                           stderr=subprocess.PIPE, text=True, timeout=120)
    line = one_error_line(r, 5)
    assert "No space left on device" in line


def _small_file_limit() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # so that write() fails with EFBIG instead
    resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))


def test_file_size_limit_is_one_line_exit_5_and_no_temp_file(book, tmp_path):
    out = tmp_path / "out" / "chunks.jsonl"
    line = one_error_line(cli("chunk", str(book), "-o", str(out), preexec_fn=_small_file_limit), 5)
    assert "File too large" in line and str(out) in line
    assert sorted(p.name for p in out.parent.iterdir()) == []


def test_an_unexpected_error_is_one_internal_error_line(tmp_path, book):
    # Fault injection in a subprocess: a bug anywhere must still end in one line and exit 70.
    code = ("import sys, chunking.commands.outline as o\n"
            "def bug(*a, **k):\n    raise RuntimeError('boom\\nsecond line')\n"
            "o.load_book = bug\n"
            "from chunking.cli import main\n"
            f"sys.exit(main(['outline', {str(book)!r}]))\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    line = one_error_line(r, 70)
    assert line.startswith("chunking: internal error: RuntimeError: boom second line") and "report" in line


# Item 11 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero", "/dev/urandom", "symlink to /dev/zero"])
def test_only_regular_files_are_read(tmp_path, kind):
    path = tmp_path / "book.txt"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind.startswith("symlink"):
        path.symlink_to("/dev/zero")
    else:
        path = Path(kind)
    line = one_error_line(cli("chunk", str(path), timeout=20), 3)
    assert "not a regular file" in line


def test_a_book_over_the_size_limit_is_refused_unread(tmp_path):
    path = tmp_path / "huge.txt"
    with path.open("wb") as fh:  # sparse: no disk used, but st_size is over the limit
        fh.truncate(MAX_BOOK_BYTES + 1)
    line = one_error_line(cli("chunk", str(path), timeout=20), 3)
    assert "limit" in line


# Item 12 ---------------------------------------------------------------------------------------


def _big_book(path: Path) -> None:
    words = ["alpha", "beta", "gamma", "delta", "theory", "model", "data", "value"]
    para = " ".join(words[(i * 7) % len(words)] for i in range(80))
    path.write_text("\n\n".join(f"{para} {i}" for i in range(30_000)), encoding="utf-8")


def test_sigterm_mid_write_exits_143_and_leaves_no_temp_file(tmp_path):
    book = tmp_path / "big.txt"
    _big_book(book)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    for _attempt in range(3):
        for p in out_dir.iterdir():
            p.unlink()
        proc = subprocess.Popen([sys.executable, "-m", "chunking", "chunk", str(book), "-o",
                                 str(out_dir / "big.jsonl")], cwd=ROOT, stderr=subprocess.PIPE, text=True)
        caught = False
        while proc.poll() is None:
            if any(n.startswith(".big.jsonl.") for n in os.listdir(out_dir)):
                proc.send_signal(signal.SIGSTOP)  # hold it mid-write while we look
                caught = any(n.startswith(".big.jsonl.") for n in os.listdir(out_dir))
                proc.send_signal(signal.SIGTERM)
                proc.send_signal(signal.SIGCONT)
                break
            time.sleep(0.0005)
        _, err = proc.communicate(timeout=120)
        if caught:
            break
    assert caught, "the temp file was never seen; the write finished too fast"
    assert proc.returncode == 143, err
    assert "Traceback" not in err and err.strip().splitlines() == ["chunking: terminated (SIGTERM)"]
    # no temp file, and the outputs all or nothing: a signal held over the final pair of renames
    # arrives after them, leaving the complete pair
    assert sorted(os.listdir(out_dir)) in ([], ["big.jsonl", "big.jsonl.manifest.json"])


def test_stale_temp_files_of_the_same_output_are_tidied(book, tmp_path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = [f".out.jsonl.{dead.pid}.abcd_123.tmp", ".out.jsonl.k2j4h5g6.tmp",
             f".out.jsonl.manifest.json.{dead.pid}.zz99yy88.tmp"]
    kept = [f".out.jsonl.{os.getpid()}.abcd_123.tmp",  # a live process's: still being written
            ".other.jsonl.k2j4h5g6.tmp", ".out.jsonl.notatemp", "out.jsonl.k2j4h5g6.tmp"]
    for name in stale + kept:
        (tmp_path / name).write_text("partial")
    r = cli("chunk", str(book), "-o", str(tmp_path / "out.jsonl"))
    assert r.returncode == 0, r.stderr
    names = set(os.listdir(tmp_path))
    assert not names & set(stale)
    assert set(kept) <= names and {"out.jsonl", "out.jsonl.manifest.json"} <= names


# Item 14 ---------------------------------------------------------------------------------------


@pytest.fixture
def export(book, tmp_path):
    out = tmp_path / "good.jsonl"
    assert cli("chunk", str(book), "-o", str(out)).returncode == 0
    assert cli("validate", str(out)).returncode == 0
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    manifest = json.loads((tmp_path / "good.jsonl.manifest.json").read_text(encoding="utf-8"))
    return tmp_path, records, manifest


def _write_export(d: Path, name: str, records: list, manifest: dict) -> Path:
    path = d / f"{name}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    (d / f"{name}.jsonl.manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return path


@pytest.mark.parametrize("field, value", [
    ("book.path", 5), ("book.path", ["a", "b"]), ("book.source_name", {"x": 1}), ("book.sha256", 12),
    ("policy.max_tokens", "512"), ("policy.strategy", ["chapter-window"]),
])
def test_validate_refuses_a_manifest_field_of_the_wrong_type(export, field, value):
    d, records, manifest = export
    part, key = field.split(".")
    manifest[part][key] = value
    line = one_error_line(cli("validate", str(_write_export(d, "bad", records, manifest))), 3)
    assert key in line


@pytest.mark.parametrize("field, value", [("order", 1.7), ("order", 0.0), ("token_end", True),
                                          ("text", 5), ("heading_path", {"a": 1})])
def test_validate_refuses_a_chunk_field_of_the_wrong_type(export, field, value):
    d, records, manifest = export
    records[0][field] = value
    line = one_error_line(cli("validate", str(_write_export(d, "bad", records, manifest))), 3)
    assert field in line


def test_a_signal_while_the_outputs_are_renamed_leaves_the_complete_pair(tmp_path):
    """SIGTERM held over the rename of the chunk file and its manifest: both land, then the run
    ends with 143 (never a new chunk file beside an old manifest)."""
    import chunking.export as export
    from chunking.cli import Terminated, _on_sigterm

    out = tmp_path / "o.jsonl"
    previous = signal.signal(signal.SIGTERM, _on_sigterm)
    real_replace = os.replace
    calls = []

    def replace_and_signal(src, dst):  # the signal comes between the two renames
        real_replace(src, dst)
        calls.append(dst)
        if len(calls) == 1:
            os.kill(os.getpid(), signal.SIGTERM)

    try:
        export.os.replace = replace_and_signal
        try:
            export.write_outputs([], {"book": {}}, out, "jsonl")
        except Terminated:
            pass
        else:
            raise AssertionError("the held SIGTERM was never delivered")
    finally:
        export.os.replace = real_replace
        signal.signal(signal.SIGTERM, previous)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.jsonl", "o.jsonl.manifest.json"]
