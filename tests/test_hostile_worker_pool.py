"""A batch survives its worker pool's fork server dying, and its workers die with it (issue 26, item 7).

The batch runs as a real subprocess (``python -m chunking chunk DIR -o OUT --workers 2``) on
generated Markdown books. The test kills the workers' fork server (found through ``/proc``) at
generated moments: as soon as it exists, and after some books are written. Every book must still
be written, exit 0, no traceback. Then the batch itself is killed with SIGKILL while its workers
chunk a large book: the workers and the fork server must be gone within seconds, not after the
book.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from test_batch import _markdown_book
from test_hostile_batch import ROOT, _children, _cmdline, _kids

DEADLINE_S = 120.0
GONE_S = 10.0
"""How soon a worker must end after the batch that started it is killed."""


def _books(folder: Path, n: int, seed: int) -> None:
    rng = random.Random(seed)
    folder.mkdir(parents=True)
    for k in range(n):
        text = _markdown_book(f"Book{k}", rng.randint(20, 40), rng.randint(80, 150))
        (folder / f"b{k:02d}.md").write_text(text, encoding="utf-8")


def _batch(books: Path, out: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "chunking", "chunk", str(books), "-o", str(out), "--workers", "2"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _fork_server(pid: int) -> int | None:
    return next((k for k in _kids(pid) if b"multiprocessing.forkserver" in _cmdline(k)), None)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


@pytest.mark.parametrize("written_before_kill", [0, 1, 3])
def test_the_fork_servers_death_costs_no_book(tmp_path, written_before_kill):
    books, out = tmp_path / "books", tmp_path / "out"
    _books(books, 6, seed=written_before_kill)
    batch = _batch(books, out)
    try:
        server, start = None, time.monotonic()
        while time.monotonic() - start < DEADLINE_S and batch.poll() is None:
            server = server or _fork_server(batch.pid)
            done = len(list(out.glob("*.manifest.json"))) if out.is_dir() else 0
            if server is not None and done >= written_before_kill:
                break
            time.sleep(0.01)
        assert server is not None, "the fork server was never seen"
        os.kill(server, signal.SIGKILL)
        _, err = batch.communicate(timeout=DEADLINE_S)
    finally:
        if batch.poll() is None:
            batch.kill()
            batch.wait()
    assert batch.returncode == 0, err
    assert "Traceback" not in err and "Error" not in err, err
    assert "6 written, 0 skipped (already done), 0 failed" in err
    assert len(list(out.glob("*.md.jsonl.manifest.json"))) == 6
    assert not [p for p in out.iterdir() if p.name.startswith(".")]  # no temp file left behind


def test_workers_die_with_a_batch_killed_in_the_middle_of_a_book(tmp_path):
    books, out = tmp_path / "books", tmp_path / "out"
    books.mkdir()
    for name in ("a-large.md", "b-large.md"):  # ~27 MB each: several seconds of work per worker
        (books / name).write_text(_markdown_book(name, 100, 600), encoding="utf-8")
    batch = _batch(books, out)
    workers: list[int] = []
    try:
        start = time.monotonic()
        while len(workers) < 2 and time.monotonic() - start < DEADLINE_S and batch.poll() is None:
            workers = _children(batch.pid)
            time.sleep(0.05)
        assert len(workers) == 2, "the workers were never seen"
        time.sleep(0.5)  # both are inside their book now
        server = _fork_server(batch.pid)
        batch.send_signal(signal.SIGKILL)
        batch.wait()
        deadline = time.monotonic() + GONE_S
        left = [p for p in [*workers, server] if p is not None and _alive(p)]
        while left and time.monotonic() < deadline:
            time.sleep(0.1)
            left = [p for p in left if _alive(p)]
        assert left == [], "processes outlived the batch that started them"
    finally:
        for pid in workers:  # NOTE: only when the test failed: our own grandchildren
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        if batch.poll() is None:
            batch.kill()
            batch.wait()
