"""``python -m chunking chunk``: every sample book, every format, the manifest, exit codes,
atomic writes and one-line errors."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pandas as pd
import pyarrow.parquet as pq
import pytest

from chunking.cli import main
from chunking.export import FORMATS, read_chunks
from chunking.models import CHUNK_FIELDS
from conftest import ROOT, SAMPLES

BOOKS = ["chez-csug.pdf", "haskell98-report.pdf", "lshort.pdf", "r-intro.pdf", "debian-policy.epub"]
EXT = {"jsonl": "jsonl", "csv": "csv", "parquet": "parquet", "langchain": "jsonl"}


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "chunking", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


@pytest.mark.slow
@pytest.mark.parametrize("book", BOOKS)
def test_every_sample_book_chunks_validly_and_reads_back(book, tmp_path):
    out = tmp_path / f"{book}.jsonl"
    assert main(["chunk", str(SAMPLES / book), "-o", str(out)]) == 0
    manifest = json.loads((tmp_path / f"{book}.jsonl.manifest.json").read_text())
    assert manifest["validation"]["ok"] is True, manifest["validation"]
    assert manifest["book"]["pages"] >= 10 and manifest["book"]["sha256"]
    df = pd.read_json(out, lines=True)
    assert list(df.columns) == list(CHUNK_FIELDS) and len(df) == manifest["chunk_count"]
    assert df["token_count"].max() <= 512 and (df["page_end"] - df["page_start"]).max() <= 2
    assert manifest["structure"]["headings"] > 0 and df["chapter"].astype(bool).mean() > 0.5


@pytest.mark.slow
@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_option_writes_a_loadable_file(fmt, tmp_path):
    out = tmp_path / f"r-intro.{EXT[fmt]}"
    assert main(["chunk", str(SAMPLES / "r-intro.pdf"), "-o", str(out), "--format", fmt,
                 "--max-tokens", "300", "--overlap", "50"]) == 0
    manifest = json.loads((tmp_path / f"{out.name}.manifest.json").read_text())
    assert manifest["output"] == {"file": out.name, "format": fmt}
    assert manifest["policy"]["max_tokens"] == 300 and manifest["profile"].startswith("chapter-window-v1")
    if fmt == "parquet":
        assert pq.read_table(out).column_names == list(CHUNK_FIELDS)
    elif fmt == "csv":
        assert list(pd.read_csv(out).columns) == list(CHUNK_FIELDS)
    else:
        pd.read_json(out, lines=True)
    chunks, detected = read_chunks(out)
    assert detected == fmt and len(chunks) == manifest["chunk_count"]


@pytest.mark.slow
def test_stdout_gets_jsonl_and_runs_are_byte_identical():
    a = cli("chunk", "sample_books/haskell98-report.pdf", "--strategy", "fixed-window")
    b = cli("chunk", "sample_books/haskell98-report.pdf", "--strategy", "fixed-window")
    assert a.returncode == 0 and a.stdout == b.stdout and a.stdout
    rows = pd.read_json(io.StringIO(a.stdout), lines=True)
    assert list(rows.columns) == list(CHUNK_FIELDS)


@pytest.mark.slow
def test_every_strategy_and_fence_option_validates(tmp_path):
    for i, extra in enumerate([["--fence", "section"], ["--snap", "sentence"], ["--strategy", "fixed-window"],
                               ["--encoding", "o200k_base", "--max-pages", "2"]]):
        out = tmp_path / f"o{i}.jsonl"
        assert main(["chunk", str(SAMPLES / "lshort.pdf"), "-o", str(out), *extra]) == 0
        assert json.loads((tmp_path / f"o{i}.jsonl.manifest.json").read_text())["validation"]["ok"]


def test_policy_error_exits_2_with_one_line_naming_the_field(tmp_path):
    r = cli("chunk", "sample_books/lshort.pdf", "-o", str(tmp_path / "x.jsonl"), "--max-tokens", "100",
            "--overlap", "100")
    assert r.returncode == 2 and "overlap_tokens" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert "Traceback" not in r.stderr and list(tmp_path.iterdir()) == []


def test_unreadable_book_exits_3(tmp_path):
    bad = tmp_path / "broken.pdf"
    bad.write_bytes(b"%PDF-1.4 this is not a pdf")
    r = cli("chunk", str(bad), "-o", str(tmp_path / "x.jsonl"))
    assert r.returncode == 3 and len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
    assert not (tmp_path / "x.jsonl").exists()


@pytest.mark.slow
def test_too_many_chunks_exits_2_and_writes_nothing(tmp_path):
    r = cli("chunk", "sample_books/r-intro.pdf", "-o", str(tmp_path / "x.jsonl"), "--max-chunks", "5")
    assert r.returncode == 2 and "max_chunks is 5" in r.stderr and "needs" in r.stderr
    assert list(tmp_path.iterdir()) == []


def test_parquet_to_stdout_is_a_usage_error():
    assert main(["chunk", str(SAMPLES / "lshort.pdf"), "--format", "parquet"]) == 2


def test_folder_without_out_is_a_usage_error(tmp_path):
    assert main(["chunk", str(tmp_path)]) == 2


def test_workers_below_one_for_a_single_book_is_a_usage_error(tmp_path):
    # issue 15: --workers N is a single book's cores too; 0 or less is refused before reading
    assert main(["chunk", str(SAMPLES / "lshort.pdf"), "-o", str(tmp_path / "x.jsonl"), "--workers", "0"]) == 2
    assert not (tmp_path / "x.jsonl").exists()
