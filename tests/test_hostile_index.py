"""Issue 27: ``chunking index`` against hostile stores and inputs, each ending in one line on
stderr and its documented exit code (CHUNKING.md, *Exit codes*), never a traceback, and never a
store left half-written: a store folder that is a file or cannot be written, a file where a
table's folder belongs, a FIFO manifest, another book's store, a table ``index`` did not write,
and a run stopped by Ctrl-C or SIGTERM (then run again to the end). Real LanceDB in a temp
folder, the real WordLlama model."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import lancedb
import pyarrow as pa
import pytest
from test_index import write_book

from chunking.analysis.diff import read_run
from chunking.cli import Terminated, main
from chunking.index.query import read_store
from chunking.index.store import Store
from chunking.retrieval.embeddings import default_backend
from conftest import ROOT


@pytest.fixture(scope="module")
def run_file(tmp_path_factory):
    d = tmp_path_factory.mktemp("hostile-index")
    write_book(d / "book.md")
    assert (
        main(
            ["chunk", str(d / "book.md"), "-o", str(d / "a.jsonl"), "--max-tokens", "200", "--overlap", "20"]
        )
        == 0
    )
    return d / "a.jsonl"


def index(run, store, capsys, *extra: str) -> tuple[int, str]:
    """``index`` in this process: its exit code and its stderr (checked to be one line)."""
    capsys.readouterr()
    code = main(["index", str(run), "--store", f"lancedb:{store}", *extra])
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) <= 1 and "Traceback" not in err, err
    return code, err


def test_index_into_a_store_folder_that_is_a_file_is_exit_2(run_file, tmp_path, capsys):
    (tmp_path / "store").write_text("a file, not a folder")
    code, err = index(run_file, tmp_path / "store", capsys)
    assert code == 2 and "not a folder" in err
    assert (tmp_path / "store").read_text() == "a file, not a folder"


def test_index_into_a_store_under_a_file_is_exit_5(run_file, tmp_path, capsys):
    (tmp_path / "file").write_text("x")
    code, err = index(run_file, tmp_path / "file" / "store", capsys)
    assert code == 5 and "cannot create the folder" in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder")
def test_index_into_an_unwritable_store_folder_is_exit_5(run_file, tmp_path, capsys):
    store = tmp_path / "store"
    store.mkdir()
    store.chmod(0o555)
    try:
        code, err = index(run_file, store, capsys)
    finally:
        store.chmod(0o755)
    assert code == 5 and "cannot write" in err and str(store) in err


def test_a_file_where_a_table_folder_belongs_is_exit_5_and_nothing_is_recorded(run_file, tmp_path, capsys):
    store = tmp_path / "store"
    store.mkdir()
    blocker = store / f"{Store.vector_table_name(default_backend().name)}.lance"
    blocker.write_text("in the way")
    code, err = index(run_file, store, capsys)
    assert code == 5 and "cannot write vectors" in err
    assert "books" not in lancedb.connect(str(store)).list_tables().tables  # no record of a half run


def test_a_fifo_manifest_is_exit_3_without_blocking(run_file, tmp_path):
    run = tmp_path / "a.jsonl"
    shutil.copy(run_file, run)
    os.mkfifo(tmp_path / "a.jsonl.manifest.json")
    r = subprocess.run(
        [sys.executable, "-m", "chunking", "index", str(run), "--store", f"lancedb:{tmp_path / 'store'}"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert r.returncode == 3 and len(r.stderr.strip().splitlines()) == 1 and "FIFO" in r.stderr
    assert not (tmp_path / "store").exists()


def test_another_books_store_is_exit_2_and_left_as_it_was(run_file, tmp_path, capsys):
    other_book = tmp_path / "other.md"
    write_book(other_book, seed=3)
    other = tmp_path / "other.jsonl"
    assert main(["chunk", str(other_book), "-o", str(other), "--max-tokens", "200", "--overlap", "20"]) == 0
    store = tmp_path / "store"
    assert index(other, store, capsys)[0] == 0
    db = lancedb.connect(str(store))
    before = {name: db.open_table(name).version for name in db.list_tables().tables}
    code, err = index(run_file, store, capsys)
    assert code == 2 and "--replace-book" in err
    assert {name: db.open_table(name).version for name in db.list_tables().tables} == before


def test_a_chunk_table_index_did_not_write_is_exit_3(run_file, tmp_path, capsys):
    store = tmp_path / "store"
    assert index(run_file, store, capsys)[0] == 0
    table = read_store(Store(store, create=False)).record.table
    db = lancedb.connect(str(store))
    db.create_table(table, pa.table({"id": ["x"], "order": [0], "note": ["not a chunk"]}), mode="overwrite")
    code, err = index(run_file, store, capsys)
    assert code == 3 and "not a readable LanceDB store" in err


class StoppingBackend:
    """The real model, stopped (as Ctrl-C or SIGTERM stop a run) when it is asked a second time."""

    def __init__(self, stop: BaseException) -> None:
        self.inner = default_backend()
        self.name = self.inner.name
        self.stop = stop
        self.texts: list[str] = []

    def embed(self, texts):
        if self.texts:
            raise self.stop
        self.texts.extend(texts)
        return self.inner.embed(texts)


@pytest.mark.parametrize(
    "stop, code, line",
    [(KeyboardInterrupt(), 130, "interrupted"), (Terminated(), 143, "terminated (SIGTERM)")],
)
def test_a_stopped_index_run_is_one_line_and_a_rerun_finishes(
    tmp_path, capsys, monkeypatch, stop, code, line
):
    write_book(tmp_path / "big.md", long_words=24000)
    run = tmp_path / "big.jsonl"
    assert (
        main(["chunk", str(tmp_path / "big.md"), "-o", str(run), "--max-tokens", "64", "--overlap", "0"]) == 0
    )
    texts = {c.text for c in read_run(run).chunks}
    assert len(texts) > 2 * 256  # three embedding steps: the stop comes after the first
    backend = StoppingBackend(stop)
    monkeypatch.setattr("chunking.commands.index.default_backend", lambda: backend)
    assert index(run, tmp_path / "store", capsys) == (code, f"chunking: {line}")
    assert "books" not in lancedb.connect(str(tmp_path / "store")).list_tables().tables  # no record yet
    monkeypatch.undo()
    capsys.readouterr()
    assert main(["index", str(run), "--store", f"lancedb:{tmp_path / 'store'}", "--json"]) == 0
    import json

    summary = json.loads(capsys.readouterr().out)
    assert summary["embedded"] == len(texts) - len(backend.texts) == len(texts) - 256
    stored = read_store(Store(tmp_path / "store", create=False))
    assert [c.id for c in stored.chunks] == [c.id for c in read_run(run).chunks]
