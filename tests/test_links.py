"""Issue 27: every export format carries each chunk's links (``prev_id``, ``next_id``,
``section_id``, ``heading_path``), read back with pandas and pyarrow, and they are right: the
neighbours' ids, and the span of the innermost heading in force at the chunk's first character."""

from __future__ import annotations

import io
import json

import pandas as pd
import pyarrow.parquet as pq
import pytest

from chunking.export import read_chunks, render
from chunking.links import section_span
from chunking.pipeline import run_book
from chunking.policy import Policy
from tests.test_index import write_book


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    book = tmp_path_factory.mktemp("links") / "book.md"
    write_book(book)
    return run_book(book, Policy(max_tokens=200, overlap_tokens=20), workers=1)


def records(chunks, fmt: str) -> list[dict]:
    data = io.BytesIO(render(chunks, fmt))
    if fmt == "parquet":
        return pq.read_table(data).to_pylist()
    if fmt == "csv":
        frame = pd.read_csv(data, keep_default_na=False)
        return [dict(r, heading_path=json.loads(r["heading_path"])) for r in frame.to_dict("records")]
    frame = pd.read_json(data, lines=True)
    rows = frame.to_dict("records")
    return [dict(r["metadata"], text=r["page_content"]) for r in rows] if fmt == "langchain" else rows


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet", "langchain"])
def test_links_are_in_every_export_format_and_point_at_the_neighbours_and_the_section(result, fmt):
    rows = records(result.chunks, fmt)
    assert len(rows) == len(result.chunks) > 5
    text = result.book.text
    headings = sorted(result.book.headings, key=lambda h: h.char_offset)
    for i, r in enumerate(rows):
        assert r["prev_id"] == (rows[i - 1]["id"] if i else "")
        assert r["next_id"] == (rows[i + 1]["id"] if i + 1 < len(rows) else "")
        start, end = section_span(r["section_id"])
        assert r["section_id"].startswith(f"{result.book.book_id}:")
        first = r["char_start"] + len(r["text"]) - len(r["text"].lstrip())
        assert start <= first < end
        opened = [h for h in headings if h.char_offset <= first]
        if opened:
            innermost = opened[-1]
            assert start == innermost.char_offset and list(r["heading_path"])[-1] == innermost.title
            later = [h for h in headings if h.char_offset > start and h.level <= innermost.level]
            assert end == (later[0].char_offset if later else len(text))
        else:
            assert (start, list(r["heading_path"])) == (0, [])


def test_links_survive_read_back_and_older_files_read_with_empty_links(result, tmp_path):
    path = tmp_path / "c.jsonl"
    path.write_bytes(render(result.chunks, "jsonl"))
    assert read_chunks(path)[0] == result.chunks
    old = tmp_path / "old.jsonl"
    lines = []
    for c in result.chunks:
        rec = c.to_dict()
        for f in ("prev_id", "next_id", "section_id"):
            rec.pop(f)
        lines.append(json.dumps(rec))
    old.write_text("\n".join(lines) + "\n", encoding="utf-8")
    back, _ = read_chunks(old)
    assert [c.text for c in back] == [c.text for c in result.chunks]
    assert {c.section_id for c in back} == {""}
