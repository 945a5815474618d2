"""Spawned workers start clean whatever the parent's ``__main__`` is (issue 11's test-order bug).

Streamlit (and its AppTest) make the app script the process's ``__main__``; a "spawn" child
re-imports that module before it runs its task. These tests give the parent a ``__main__`` script
that leaves a marker and dies when run, then run real worker processes.
"""

from __future__ import annotations

import os
import sys
import types
from pathlib import Path

import pytest

from chunking.workerpool import TaskRaised, WorkerDied, imap_unordered
from chunking.rules import to_roman


@pytest.fixture
def hostile_main(tmp_path: Path):
    marker = tmp_path / "main-was-run"
    script = tmp_path / "app_script.py"
    script.write_text(f"open({str(marker)!r}, 'w').close()\nraise SystemExit('the app ran in a worker')\n")
    main = types.ModuleType("__main__")
    main.__file__ = str(script)
    saved = sys.modules["__main__"]
    sys.modules["__main__"] = main
    try:
        yield marker
    finally:
        sys.modules["__main__"] = saved


def test_spawned_workers_never_run_the_parents_main_script(hostile_main: Path):
    results = dict(imap_unordered(to_roman, [(14,), (9,), (2026,)], workers=2))
    assert results == {0: "xiv", 1: "ix", 2: "mmxxvi"}
    assert not hostile_main.exists()


def test_the_parents_main_module_is_back_after_workers_started(hostile_main: Path):
    before = sys.modules["__main__"]
    list(imap_unordered(to_roman, [(1,)], workers=1))
    assert sys.modules["__main__"] is before


def test_a_task_that_raises_is_reported_as_raised_not_as_a_dead_worker():
    results = dict(imap_unordered(to_roman, [("x",)], workers=1))
    assert isinstance(results[0], TaskRaised) and not isinstance(results[0], WorkerDied)


def what_a_fresh_worker_has() -> tuple[bool, int, bool]:
    """Run in a worker before any book: is the stack imported, the vocabulary loaded, and was the
    worker forked from a server rather than from the caller?"""
    import os

    from chunking.encodings import get_encoding

    return "chunking.readers.pdf" in sys.modules, get_encoding.cache_info().currsize, os.getppid()


PROBE = """
import os, sys
sys.path.insert(0, sys.argv[1])
from chunking.batch import WORKER_PRELOAD
from chunking.workerpool import imap_unordered
from test_workerpool import what_a_fresh_worker_has
for _, (stack, vocabularies, ppid) in imap_unordered(what_a_fresh_worker_has, [()] * 2, 2, WORKER_PRELOAD):
    print(stack, vocabularies, ppid != os.getpid())
"""


def test_batch_workers_start_with_the_stack_and_the_vocabulary_already_loaded():
    # NOTE: a fresh process: the fork server is one per process and keeps the modules of its start.
    import subprocess

    here = str(Path(__file__).resolve().parent)
    run = subprocess.run([sys.executable, "-c", PROBE, here], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split("\n")[:2] == ["True 1 True", "True 1 True"], run.stdout


def test_a_temp_folder_too_deep_for_the_fork_servers_socket_still_reads_a_pdf(tmp_path: Path):
    """multiprocessing puts the fork server's Unix socket under ``$TMPDIR``; a path past the
    socket limit made every worker start fail ("AF_UNIX path too long"), so no PDF could be read.
    Workers then start by spawn."""
    import subprocess

    import pymupdf

    deep = tmp_path / ("t" * 100)
    deep.mkdir()
    book = tmp_path / "b.pdf"
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "Chapter 1. Alpha\nSome words of the first chapter.")
    doc.save(book)
    env = {**os.environ, "TMPDIR": str(deep)}
    run = subprocess.run([sys.executable, "-m", "chunking", "outline", str(book)], capture_output=True,
                         text=True, timeout=120, env=env)
    assert run.returncode == 0, run.stderr
    assert not list(deep.iterdir())
