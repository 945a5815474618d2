"""Hostile input on the surfaces added after the first campaign (issue 26): structure files,
``--write-pdf``/``--write-structure``, ``diff``/``validate`` manifests, caches, the batch fork
server, Ray addresses.

Every test generates its input (a small TXT or PDF book, a structure file, a FIFO, a link to
``/dev/zero``, deep JSON) and runs the real CLI in a subprocess, then asserts the clean outcome:
the documented exit code, exactly one stderr line, no traceback, nothing overwritten.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from cli_run import BOOK_TEXT, cli, one_error_line
from pdf_factory import body, make_pdf


def structure_file(book_bytes: bytes, corrections: list | None = None, **extra) -> dict:
    return {"format": "book-chunk-inspector/structure", "version": 1,
            "book_sha256": hashlib.sha256(book_bytes).hexdigest(), "engine_version": "test",
            "corrections": corrections or [], **extra}


@pytest.fixture
def txt_book(tmp_path) -> Path:
    path = tmp_path / "book.txt"
    path.write_text(BOOK_TEXT, encoding="utf-8")
    return path


@pytest.fixture
def pdf_book(tmp_path) -> Path:
    pages = [[(f"Chapter {i + 1}", 20.0)] + body(20, i * 50) for i in range(3)]
    path = tmp_path / "book.pdf"
    path.write_bytes(make_pdf(pages, toc=[(1, f"Chapter {i + 1}", i + 1, None) for i in range(3)]))
    return path


def _alias(target: Path, how: str) -> Path:
    """``target`` itself, or a new symlink or hard link to it beside it."""
    if how == "same path":
        return target
    alias = target.with_name(f"{how.replace(' ', '-')}-{target.name}")
    if how == "symlink":
        alias.symlink_to(target)
    else:
        os.link(target, alias)
    return alias


# Outputs are compared with every input of the run ---------------------------------------------


@pytest.mark.parametrize("how", ["same path", "symlink", "hard link"])
@pytest.mark.parametrize("command", ["chunk -o", "outline --write-pdf", "outline --write-structure"])
def test_an_output_that_is_the_structure_file_is_refused(pdf_book, tmp_path, command, how):
    sf = tmp_path / "s.json"
    sf.write_text(json.dumps(structure_file(pdf_book.read_bytes())), encoding="utf-8")
    before = sf.read_bytes()
    out = _alias(sf, how)
    name, option = command.split()
    line = one_error_line(cli(name, pdf_book, "--structure-file", sf, option, out), 2)
    assert "structure file itself" in line
    assert sf.read_bytes() == before
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp") or p.name.endswith(".manifest.json")]


def test_the_manifest_of_an_output_that_is_the_structure_file_is_refused(txt_book, tmp_path):
    # -o out.jsonl writes out.jsonl.manifest.json too: that file is an output of the run as well.
    sf = tmp_path / "out.jsonl.manifest.json"
    sf.write_text(json.dumps(structure_file(txt_book.read_bytes())), encoding="utf-8")
    before = sf.read_bytes()
    line = one_error_line(cli("chunk", txt_book, "--structure-file", sf, "-o", tmp_path / "out.jsonl"), 2)
    assert "structure file itself" in line and sf.read_bytes() == before
    assert not (tmp_path / "out.jsonl").exists()


def test_two_outputs_of_one_run_that_are_one_file_are_refused(pdf_book, tmp_path):
    first = tmp_path / "a.out"
    first.write_bytes(b"")
    link = _alias(first, "hard link")
    line = one_error_line(cli("outline", pdf_book, "--write-pdf", first, "--write-structure", link), 2)
    assert "same file" in line and first.read_bytes() == b""


def test_a_batch_output_that_is_its_structure_file_fails_only_that_book(tmp_path):
    books = tmp_path / "books"
    out = tmp_path / "out"
    books.mkdir()
    out.mkdir()
    for name in ("a.txt", "b.txt"):
        (books / name).write_text(BOOK_TEXT, encoding="utf-8")
    sf = books / "a.txt.structure.json"
    sf.write_text(json.dumps(structure_file(BOOK_TEXT.encode())), encoding="utf-8")
    before = sf.read_bytes()
    (out / "a.txt.jsonl").symlink_to(sf)
    r = cli("chunk", books, "-o", out, "--workers", "1")
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    assert [line for line in r.stderr.splitlines() if line.startswith("chunking: failed: ")] == [
        next(line for line in r.stderr.splitlines() if "a.txt" in line and "structure file itself" in line)]
    assert sf.read_bytes() == before and (out / "b.txt.jsonl.manifest.json").is_file()
