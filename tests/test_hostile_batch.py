"""Issue 12, item 13: a batch worker killed by the OS costs only the book it was chunking.

The batch runs as a real subprocess (``python -m chunking chunk DIR -o OUT --workers 2``); the
test plays the out-of-memory killer and sends SIGKILL to the worker that chunks the one large
book, found through ``/proc`` (no psutil) by what it read (``/proc/<pid>/io``: it read the
large book, the other worker only small ones) while the other worker still has small books
to chunk.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from test_batch import _markdown_book

ROOT = Path(__file__).resolve().parent.parent
SMALL = [f"small{k:02d}.md" for k in range(16)]
LARGE = "a-large.md"
"""Sorts first, so the pool hands it to a worker before any small book."""
DEADLINE_S = 120.0


def _kids(pid: int) -> list[int]:
    kids = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids += [int(k) for k in (task / "children").read_text().split()]
        except OSError:
            continue
    return kids


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _children(pid: int) -> list[int]:
    """Worker processes of ``pid``: spawned children, or the children of its fork server (never
    multiprocessing's resource tracker, nor the fork server itself)."""
    workers = []
    for kid in _kids(pid):
        cmd = _cmdline(kid)
        if b"spawn_main" in cmd:
            workers.append(kid)
        elif b"multiprocessing.forkserver" in cmd:
            workers += _kids(kid)
    return workers


def _bytes_read(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/io").read_text().splitlines():
            if line.startswith("rchar:"):
                return int(line.split()[1])
    except OSError:
        pass
    return -1


def _chunk(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "chunking", "chunk", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=DEADLINE_S,
    )


def test_a_killed_worker_fails_only_its_book_and_the_others_are_written(tmp_path: Path) -> None:
    books, out = tmp_path / "books", tmp_path / "out"
    books.mkdir()
    large = _markdown_book("Large", 100, 600)  # ~27 MB: several seconds of work
    (books / LARGE).write_text(large, encoding="utf-8")
    for k, name in enumerate(SMALL):  # ~1.3 MB each: the other worker is still busy when we kill
        (books / name).write_text(_markdown_book(f"Small{k}", 30, 100), encoding="utf-8")

    batch = subprocess.Popen(
        [sys.executable, "-m", "chunking", "chunk", str(books), "-o", str(out), "--workers", "2"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        victim, start = None, time.monotonic()
        while victim is None and time.monotonic() - start < DEADLINE_S and batch.poll() is None:
            workers = _children(batch.pid)
            done = list(out.glob("small*.manifest.json")) if out.is_dir() else []
            read = {pid: _bytes_read(pid) for pid in workers}
            # The large book's worker has read it whole; the other worker has read at most a few
            # small books (both read the same modules on import). Wait until a small book is
            # written, so both workers are surely at work.
            if done and len(workers) == 2 and max(read.values()) - min(read.values()) > len(large) // 2:
                victim = max(read, key=read.__getitem__)
            time.sleep(0.05)
        assert victim is not None, ("the large book's worker was never seen", read, done, batch.poll())
        assert not (out / f"{LARGE}.jsonl.manifest.json").exists()
        written_before = len(list(out.glob("small*.manifest.json")))
        assert written_before < len(SMALL), "the small books finished before the kill: test is void"
        os.kill(victim, signal.SIGKILL)
        _, err = batch.communicate(timeout=DEADLINE_S)
    finally:
        if batch.poll() is None:
            batch.kill()
            batch.wait()

    assert batch.returncode == 1, err  # a failed book (batch.py: mixed or worker death = 1)
    assert "Traceback" not in err
    failures = [line for line in err.splitlines() if line.startswith("chunking: failed:")]
    assert failures == [
        f"chunking: failed: {LARGE}: the worker process was killed by SIGKILL "
        "(the system's out-of-memory killer sends it)"
    ], err
    assert f"{len(SMALL)} written, 0 skipped (already done), 1 failed" in err
    assert not (out / f"{LARGE}.jsonl").exists() and not (out / f"{LARGE}.jsonl.manifest.json").exists()
    assert not [p for p in out.iterdir() if p.name.startswith(".")]  # no temp file left behind

    # Every small book is written, byte for byte what a single-book run writes.
    single = tmp_path / "single"
    for name in SMALL[:3]:
        target = single / f"{name}.jsonl"
        assert _chunk(str((books / name).resolve()), "-o", str(target)).returncode == 0
        assert target.read_bytes() == (out / f"{name}.jsonl").read_bytes()
        manifest = f"{name}.jsonl.manifest.json"
        assert (single / manifest).read_bytes() == (out / manifest).read_bytes()
    assert all((out / f"{name}.jsonl.manifest.json").is_file() for name in SMALL)
