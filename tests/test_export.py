"""Export: four formats with exactly the chunk fields, read back by pandas/pyarrow and by
``read_chunks``; deterministic bytes; atomic writes; the manifest's keys."""

from __future__ import annotations

import io
import json

import pandas as pd
import pyarrow.parquet as pq
import pytest

from chunking.errors import UnreadableInputError, UsageError
from chunking.export import (FORMATS, build_manifest, format_for_path, manifest_path, read_chunks, render,
                             write_chunks, write_outputs)
from chunking.models import CHUNK_FIELDS
from chunking.policy import Policy
from chunking.strategies import chunk_book
from chunking.tokens import tokenize
from chunking.validate import validate_chunks
from synthetic_books import make_book, words

POLICY = Policy(max_tokens=40, overlap_tokens=8)


@pytest.fixture(scope="module")
def run():
    pages = ["Part I\n" + words(30), "Chapter «Ünïcode» 😀\n" + words(60, "naïve"), 'quotes "a,b"\n' + words(20)]
    book = make_book(pages, [(0, 0, "part", "I"), (1, 0, "chapter", "«Ünïcode» 😀")], labels=["i", "1", "2"])
    tb = tokenize(book)
    chunks = chunk_book(tb, POLICY)
    return tb, chunks, validate_chunks(chunks, tb, POLICY)


def test_jsonl_has_exactly_the_chunk_fields(run):
    _, chunks, _ = run
    df = pd.read_json(io.BytesIO(render(chunks, "jsonl")), lines=True)
    assert list(df.columns) == list(CHUNK_FIELDS)
    assert df["text"].tolist() == [c.text for c in chunks]
    assert df["heading_path"].tolist() == [list(c.heading_path) for c in chunks]


def test_csv_has_the_same_columns_and_heading_path_as_json(run):
    _, chunks, _ = run
    df = pd.read_csv(io.BytesIO(render(chunks, "csv")), keep_default_na=False)
    assert list(df.columns) == list(CHUNK_FIELDS)
    assert [json.loads(v) for v in df["heading_path"]] == [list(c.heading_path) for c in chunks]
    assert df["text"].tolist() == [c.text for c in chunks]


def test_parquet_has_the_same_columns_and_types(run):
    _, chunks, _ = run
    table = pq.read_table(io.BytesIO(render(chunks, "parquet")))
    assert table.column_names == list(CHUNK_FIELDS)
    rows = table.to_pylist()
    assert rows == [c.to_dict() for c in chunks]


def test_langchain_is_page_content_plus_metadata(run):
    _, chunks, _ = run
    lines = render(chunks, "langchain").decode().splitlines()
    docs = [json.loads(line) for line in lines]
    assert [set(d) for d in docs] == [{"page_content", "metadata"}] * len(chunks)
    assert docs[1]["page_content"] == chunks[1].text
    assert set(docs[1]["metadata"]) == set(CHUNK_FIELDS) - {"text"}


@pytest.mark.parametrize("fmt", FORMATS)
def test_render_is_deterministic(run, fmt):
    _, chunks, _ = run
    assert render(chunks, fmt) == render(list(chunks), fmt)


@pytest.mark.parametrize("fmt,ext", [("jsonl", "jsonl"), ("csv", "csv"), ("parquet", "parquet"), ("langchain", "jsonl")])
def test_write_then_read_back_round_trips(run, tmp_path, fmt, ext):
    tb, chunks, report = run
    out = tmp_path / f"book.{ext}"
    manifest = build_manifest(tb, POLICY, chunks, report, source_path="x/book.txt")
    mpath = write_outputs(chunks, manifest, out, fmt)
    assert mpath == tmp_path / f"book.{ext}.manifest.json" == manifest_path(out)
    back, detected = read_chunks(out)
    assert back == chunks and detected == fmt
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([out.name, mpath.name])  # no temp files


class _WriteSizes(io.BytesIO):
    """A real in-memory binary file that also remembers the size of every write."""

    def __init__(self):
        super().__init__()
        self.sizes: list[int] = []

    def write(self, b):
        self.sizes.append(len(b))
        return super().write(b)


@pytest.mark.parametrize("fmt", FORMATS)
def test_streamed_bytes_are_the_rendered_bytes_and_text_formats_go_record_by_record(run, tmp_path, fmt):
    tb, chunks, report = run
    expected = render(chunks, fmt)
    fh = _WriteSizes()
    write_chunks(chunks, fh, fmt)
    assert fh.getvalue() == expected
    out = tmp_path / f"book.{fmt}"
    write_outputs(chunks, build_manifest(tb, POLICY, chunks, report), out, fmt)
    assert out.read_bytes() == expected
    if fmt != "parquet":  # never one whole-file write: memory stays one record, whatever the book
        assert len(chunks) > 2 and max(fh.sizes) < len(expected) / 2


def test_manifest_records_book_policy_tokens_structure_and_validation(run, tmp_path):
    tb, chunks, report = run
    m = build_manifest(tb, POLICY, chunks, report, source_path=tmp_path / "b.txt")
    assert set(m) >= {"book", "policy", "profile", "encoding", "package_version", "total_tokens", "chunk_count",
                      "structure", "diagnostics", "validation"}
    assert m["book"]["id"] == tb.book.book_id and m["book"]["sha256"] == tb.book.sha256
    assert m["book"]["pages"] == 3 and m["book"]["path"] == str(tmp_path / "b.txt")
    assert m["policy"] == POLICY.to_dict() and m["profile"] == POLICY.profile()
    assert m["total_tokens"] == tb.n_tokens and m["chunk_count"] == len(chunks)
    assert m["structure"]["headings"] == 2 and m["validation"]["ok"] is True
    json.dumps(m)  # JSON-ready


def test_failed_write_leaves_no_file(run, tmp_path):
    tb, chunks, report = run
    out = tmp_path / "x.jsonl"
    with pytest.raises(UsageError):
        write_outputs(chunks, build_manifest(tb, POLICY, chunks, report), out, "xml")
    assert list(tmp_path.iterdir()) == []


def test_format_comes_from_the_flag_then_the_extension():
    assert format_for_path("a.parquet", None) == "parquet"
    assert format_for_path("a.csv", "langchain") == "langchain"
    assert format_for_path(None, None) == "jsonl"
    with pytest.raises(UsageError, match="--format"):
        format_for_path("a.csv", "xml")


def test_read_chunks_rejects_malformed_files(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x"}\n')
    with pytest.raises(UnreadableInputError, match="lacks field"):
        read_chunks(bad)
    (tmp_path / "bad.parquet").write_bytes(b"not parquet")
    with pytest.raises(UnreadableInputError, match="cannot read"):
        read_chunks(tmp_path / "bad.parquet")
    with pytest.raises(UnreadableInputError, match="no such"):
        read_chunks(tmp_path / "missing.csv")


@pytest.mark.parametrize("bad_line", ['{"broken": ', "not json at all", "\ufffe{}"])
def test_a_bad_jsonl_record_is_named_by_its_line_in_the_file(run, tmp_path, bad_line):
    tb, chunks, report = run
    out = tmp_path / "x.jsonl"
    write_outputs(chunks, build_manifest(tb, POLICY, chunks, report), out, "jsonl")
    lines = out.read_text(encoding="utf-8").splitlines()
    out.write_text("\n".join(lines) + "\n\n" + bad_line + "\n", encoding="utf-8")  # after a blank line
    with pytest.raises(UnreadableInputError, match=rf"line {len(lines) + 2}\b"):
        read_chunks(out)
