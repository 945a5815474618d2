"""Every small untrusted file goes through one bounded reader (issue 26, items 5 and 6).

Structure files, the manifests ``diff`` and ``validate`` read, chunk files read back and passage
files: a FIFO, a device or a link to ``/dev/zero`` is refused with one line (never a hang or an
endless read), deep JSON is refused without a ``RecursionError``, and a chunk file with no
records is an error, not "0 chunks". Inputs are generated; the real CLI runs in a subprocess.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from chunking.errors import UnreadableInputError
from cli_run import BOOK_TEXT, cli, one_error_line
from chunking.inputs import MAX_CHUNK_FILE_BYTES, MAX_MANIFEST_BYTES, json_depth, parse_json, read_bounded

def hostile(path: Path, kind: str) -> Path:
    """Put a hostile thing at ``path``: a FIFO, a link to /dev/zero, or JSON 100,000 levels deep."""
    if path.exists():
        path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "link to /dev/zero":
        path.symlink_to("/dev/zero")
    elif kind == "deep json":
        path.write_bytes(b"[" * 100_000 + b"]" * 100_000)
    return path


@pytest.fixture(scope="module")
def export(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("export")
    book = d / "book.txt"
    book.write_text(BOOK_TEXT, encoding="utf-8")
    assert cli("chunk", book, "-o", d / "good.jsonl").returncode == 0
    return d


def _copy_export(export: Path, d: Path, name: str) -> Path:
    out = d / f"{name}.jsonl"
    out.write_bytes((export / "good.jsonl").read_bytes())
    (d / f"{name}.jsonl.manifest.json").write_bytes((export / "good.jsonl.manifest.json").read_bytes())
    return out


KINDS = ["fifo", "link to /dev/zero", "deep json"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("command", ["diff", "validate"])
def test_a_hostile_manifest_is_refused_with_one_line(export, tmp_path, command, kind):
    chunks = _copy_export(export, tmp_path, "run")
    hostile(tmp_path / "run.jsonl.manifest.json", kind)
    args = ("diff", export / "good.jsonl", chunks) if command == "diff" else ("validate", chunks)
    line = one_error_line(cli(*args, timeout=30), 3)
    assert "run.jsonl.manifest.json" in line
    assert ("nested deeper" in line) if kind == "deep json" else ("not a regular file" in line)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("command", ["diff", "validate"])
def test_a_hostile_chunk_file_is_refused_with_one_line(export, tmp_path, command, kind):
    chunks = _copy_export(export, tmp_path, "run")
    hostile(chunks, kind)
    args = ("diff", export / "good.jsonl", chunks) if command == "diff" else ("validate", chunks)
    line = one_error_line(cli(*args, timeout=30), 3)
    assert "run.jsonl" in line


@pytest.mark.parametrize("kind", KINDS)
def test_a_hostile_structure_file_is_refused_with_one_line(export, tmp_path, kind):
    sf = hostile(tmp_path / "s.json", kind)
    line = one_error_line(cli("outline", export / "book.txt", "--structure-file", sf, timeout=30), 3)
    assert "s.json" in line


@pytest.mark.parametrize("kind", ["fifo", "link to /dev/zero"])
def test_a_hostile_passage_file_is_refused_with_one_line(export, tmp_path, kind):
    passage = hostile(tmp_path / "passage.txt", kind)
    line = one_error_line(cli("locate", export / "book.txt", "--passage-file", passage, timeout=30), 2)
    assert "not a regular file" in line


def test_a_jsonl_of_blank_lines_is_no_chunks_an_error(export, tmp_path):
    chunks = _copy_export(export, tmp_path, "run")
    with chunks.open("wb") as fh:
        for _ in range(32):
            fh.write(b"\n" * (1 << 20))
    line = one_error_line(cli("validate", chunks, timeout=30), 3)
    assert "no chunk records" in line


@pytest.mark.parametrize("name, limit", [("run.jsonl", MAX_CHUNK_FILE_BYTES),
                                         ("run.jsonl.manifest.json", MAX_MANIFEST_BYTES)])
def test_a_file_over_its_read_limit_is_refused_unread(export, tmp_path, name, limit):
    _copy_export(export, tmp_path, "run")
    with (tmp_path / name).open("r+b") as fh:  # sparse: st_size over the limit, no disk used
        fh.truncate(limit + 1)
    line = one_error_line(cli("validate", tmp_path / "run.jsonl", timeout=30), 3)
    assert "limit" in line and name in line


def test_a_file_that_grows_past_the_limit_while_read_is_refused(tmp_path):
    path = tmp_path / "x.json"
    path.write_bytes(b"0" * 100)
    with pytest.raises(UnreadableInputError, match="limit"):
        read_bounded(path, 99, "x.json", "manifest")
    assert read_bounded(path, 100, "x.json", "manifest") == b"0" * 100


def _reference_depth(value) -> int:
    if isinstance(value, list):
        return 1 + max((_reference_depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((_reference_depth(v) for v in value.values()), default=0)
    return 0


def _random_json(rng: random.Random, depth: int):
    roll = rng.random()
    if depth > 12 or roll < 0.3:
        return rng.choice([1, "a]b[{", '"}q\\', None, "\\\\]]"])
    items = [_random_json(rng, depth + 1) for _ in range(rng.randrange(0, 4))]
    if roll < 0.65:
        return items
    return {f"k{i}[{{": v for i, v in enumerate(items)}


def test_json_depth_counts_brackets_outside_strings_like_a_recursive_walk():
    rng = random.Random(26)
    for _ in range(300):
        value = _random_json(rng, 0)
        assert json_depth(json.dumps(value).encode()) == _reference_depth(value)


@pytest.mark.parametrize("data", [b"[" * 100_000, b"{\"a\":" * 100_000, b"[" * 1_000_000 + b"]" * 1_000_000])
def test_deep_json_is_refused_without_recursion(data):
    with pytest.raises(UnreadableInputError, match="nested deeper"):
        parse_json(data, "x.json")
