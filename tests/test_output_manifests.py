"""One manifest per output file (issue 24): ``-o x.jsonl`` and ``-o x.parquet`` each keep their own
``<file>.manifest.json``; ``validate`` and ``diff`` find it, and still read the name earlier versions
wrote (``<stem>.manifest.json``) when it names that output. Batch mode prints each book's warnings
under its name, as a single-book run prints them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from chunking.export import find_manifest, legacy_manifest_path, manifest_path

ROOT = Path(__file__).resolve().parents[1]
BOOK_TEXT = ("Chapter 1\n\nThe first chapter has some words in it. " * 20 + "\n\n"
             "Chapter 2\n\nThe second chapter has more words. " * 20 + "\n")


def cli(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "chunking", *map(str, args)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


def test_two_formats_of_one_book_keep_two_manifests_each_describing_its_own_file(tmp_path):
    book = tmp_path / "book.txt"
    book.write_text(BOOK_TEXT, encoding="utf-8")
    for ext in ("jsonl", "parquet"):
        r = cli("chunk", book, "-o", tmp_path / f"x.{ext}", "--max-tokens", "64", "--overlap", "8")
        assert r.returncode == 0, r.stderr
        assert f"manifest {tmp_path / f'x.{ext}.manifest.json'}" in r.stderr
    jsonl = json.loads((tmp_path / "x.jsonl.manifest.json").read_text())
    parquet = json.loads((tmp_path / "x.parquet.manifest.json").read_text())
    assert jsonl["output"] == {"file": "x.jsonl", "format": "jsonl"}
    assert parquet["output"] == {"file": "x.parquet", "format": "parquet"}
    assert not (tmp_path / "x.manifest.json").exists()
    for ext in ("jsonl", "parquet"):
        r = cli("validate", tmp_path / f"x.{ext}")
        assert r.returncode == 0 and "valid" in r.stdout, r.stderr
    r = cli("diff", tmp_path / "x.jsonl", tmp_path / "x.parquet", "--json")
    assert r.returncode == 0, r.stderr


def test_validate_and_diff_still_read_a_manifest_under_the_legacy_name(tmp_path):
    book = tmp_path / "book.txt"
    book.write_text(BOOK_TEXT, encoding="utf-8")
    out = tmp_path / "old.jsonl"
    assert cli("chunk", book, "-o", out, "--max-tokens", "64", "--overlap", "8").returncode == 0
    manifest_path(out).rename(legacy_manifest_path(out))  # as an earlier version named it
    assert find_manifest(out) == tmp_path / "old.manifest.json"
    r = cli("validate", out)
    assert r.returncode == 0, r.stderr
    assert cli("diff", out, out).returncode == 0


def test_a_legacy_manifest_that_names_another_output_is_not_taken_for_this_one(tmp_path):
    book = tmp_path / "book.txt"
    book.write_text(BOOK_TEXT, encoding="utf-8")
    for ext in ("jsonl", "parquet"):
        assert cli("chunk", book, "-o", tmp_path / f"x.{ext}").returncode == 0
    # the legacy layout: one x.manifest.json, written last by the Parquet run
    manifest_path(tmp_path / "x.parquet").rename(tmp_path / "x.manifest.json")
    manifest_path(tmp_path / "x.jsonl").unlink()
    assert find_manifest(tmp_path / "x.parquet") == tmp_path / "x.manifest.json"
    assert find_manifest(tmp_path / "x.jsonl") == tmp_path / "x.jsonl.manifest.json"
    r = cli("validate", tmp_path / "x.jsonl")
    assert r.returncode == 3 and "x.jsonl.manifest.json" in r.stderr and "Traceback" not in r.stderr


def test_batch_prints_each_books_warnings_under_its_name_as_a_single_run_does(tmp_path):
    books = tmp_path / "books"
    (books / "sub").mkdir(parents=True)
    latin1 = BOOK_TEXT.encode() + "Caf\xe9 au lait.\n".encode("latin-1")  # not UTF-8: a reader warning
    (books / "sub" / "cafe.txt").write_bytes(latin1)
    (books / "clean.txt").write_text(BOOK_TEXT, encoding="utf-8")
    single = cli("chunk", books / "sub" / "cafe.txt", "-o", tmp_path / "one.jsonl")
    assert single.returncode == 0, single.stderr
    single_lines = [line.removeprefix("chunking: warning: ") for line in single.stderr.splitlines()
                    if line.startswith("chunking: warning: ")]
    assert single_lines
    r = cli("chunk", books, "-o", tmp_path / "out", "--workers", "1")
    assert r.returncode == 0, r.stderr
    batch_lines = [line for line in r.stderr.splitlines() if line.startswith("chunking: warning: ")]
    assert batch_lines == [f"chunking: warning: sub/cafe.txt: {line}" for line in single_lines]
