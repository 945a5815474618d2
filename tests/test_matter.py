"""The ``matter`` field (issue 25 part 3): every chunk says whether it is front matter, the
contents, body, back matter or the index; ``--exclude-matter`` leaves some out, says how much,
and the output still validates; every export carries the field."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from book_layouts import make_book
from streamlit.testing.v1 import AppTest

from chunking.export import read_chunks, render
from chunking.matter import MATTERS, covered_tokens, exclude
from chunking.pipeline import run_book
from chunking.policy import Policy, parse_policy
from chunking.validate import validate_chunks

ROOT = Path(__file__).resolve().parents[1]
EXPECTED = {"front": "front", "back": "back", "appendix": "back", "chapter": "body", "part": "body"}


def _expected(kind: str, title: str) -> str:
    return {"Contents": "contents", "Index": "index"}.get(title, EXPECTED[kind])


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """A generated book with a title page, a printed contents page, chapters, appendices, a
    bibliography and an index; its truth says on which page each unit starts."""
    pdf, truth = make_book(contents=True, outline="right", seed=3, furniture="chapter_header", appendices=2)
    path = tmp_path_factory.mktemp("matter") / "book.pdf"
    path.write_bytes(pdf)
    return path, truth


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "chunking", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)


def test_every_chunk_takes_the_matter_of_the_unit_its_text_starts_in(generated):
    path, truth = generated
    chunks = run_book(str(path), Policy(max_tokens=200, overlap_tokens=20), workers=1).chunks
    starts = sorted((s.page, _expected(s.kind, s.title)) for s in truth.starts)
    for c in chunks:
        before = [m for page, m in starts if page <= c.page_start]
        assert c.matter == (before[-1] if before else "front"), (c.order, c.chapter, c.page_start)
    assert {c.matter for c in chunks} == set(MATTERS)


@pytest.mark.parametrize("strategy", ["chapter-window", "fixed-window", "section"])
def test_excluding_contents_and_index_counts_what_went_and_the_rest_still_validates(generated, strategy):
    path, _ = generated
    policy = Policy(strategy=strategy, max_tokens=120, overlap_tokens=30)
    full = run_book(str(path), policy, workers=1).chunks
    result = run_book(str(path), policy.with_(exclude_matter="contents,index"), workers=1)
    gone = [c for c in full if c.matter in ("contents", "index")]
    assert gone and result.excluded.chunks == len(gone)
    assert result.excluded.tokens == covered_tokens(full) - covered_tokens(result.chunks) > 0
    assert result.chunks == [c for c in full if c.matter not in ("contents", "index")]  # same ids, orders
    assert result.report.ok, result.report.message
    assert result.manifest["excluded"] == {"matter": ["contents", "index"], "chunks": len(gone),
                                           "tokens": result.excluded.tokens}
    assert result.manifest["chunk_count"] == len(result.chunks)


def test_validate_refuses_a_body_chunk_dropped_from_an_output_that_excludes_matter(generated):
    path, _ = generated
    policy = Policy(max_tokens=120, overlap_tokens=0, exclude_matter="contents,index")
    result = run_book(str(path), policy, workers=1)
    body = [i for i, c in enumerate(result.chunks) if c.matter == "body"]
    dropped = result.chunks[: body[3]] + result.chunks[body[3] + 1 :]
    report = validate_chunks(dropped, result.tokenized, policy)
    assert (report.ok, report.rule) == (False, 5), report.message


def test_validate_refuses_a_chunk_of_excluded_matter_or_a_false_matter(generated):
    path, _ = generated
    policy = Policy(max_tokens=120, overlap_tokens=0)
    result = run_book(str(path), policy, workers=1)
    kept, _ = exclude(result.chunks, "index")
    index_chunk = next(c for c in result.chunks if c.matter == "index")
    with_index = sorted([*kept, index_chunk], key=lambda c: c.order)
    strict = policy.with_(exclude_matter="index")
    report = validate_chunks(with_index, result.tokenized, strict)
    assert (report.ok, report.rule) == (False, 6) and "excludes" in report.message
    from dataclasses import replace

    lying = [replace(c, matter="body") if c is index_chunk else c for c in result.chunks]
    report = validate_chunks(lying, result.tokenized, policy)
    assert (report.ok, report.rule, report.chunk_order) == (False, 6, index_chunk.order)


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet", "langchain"])
def test_cli_exclude_matter_says_what_went_in_one_line_and_validate_passes(generated, tmp_path, fmt):
    path, _ = generated
    ext = {"jsonl": ".jsonl", "csv": ".csv", "parquet": ".parquet", "langchain": ".langchain.jsonl"}[fmt]
    out = tmp_path / f"chunks{ext}"
    done = _cli("chunk", str(path), "-o", str(out), "--exclude-matter", "index,contents", "--workers", "1")
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stderr.splitlines() if "left out" in line]
    full = run_book(str(path), Policy(), workers=1).chunks
    gone = [c for c in full if c.matter in ("contents", "index")]
    left = covered_tokens(full) - covered_tokens([c for c in full if c not in gone])
    assert lines == [f"chunking: left out {len(gone)} contents and index chunks ({left} tokens)"]
    chunks, _ = read_chunks(out)
    assert chunks and not {c.matter for c in chunks} & {"contents", "index"}
    checked = _cli("validate", str(out))
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_no_exclude_matter_keeps_every_chunk_and_says_nothing(generated, tmp_path):
    path, _ = generated
    done = _cli("chunk", str(path), "-o", str(tmp_path / "all.jsonl"), "--workers", "1")
    assert done.returncode == 0 and "left out" not in done.stderr
    chunks, _ = read_chunks(tmp_path / "all.jsonl")
    assert [c.order for c in chunks] == list(range(len(chunks)))
    assert {"contents", "index"} <= {c.matter for c in chunks}


def test_an_unknown_matter_is_a_usage_error_in_one_line(generated, tmp_path):
    path, _ = generated
    done = _cli("chunk", str(path), "-o", str(tmp_path / "x.jsonl"), "--exclude-matter", "contents,glossary")
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "glossary" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "x.jsonl").exists()


def test_a_policy_spec_names_matters_with_plus_and_the_policy_holds_them_in_one_form():
    assert parse_policy("max_tokens=300,exclude_matter=index+contents").exclude_matter == "contents,index"
    from chunking.errors import PolicyError

    with pytest.raises(PolicyError, match="exclude_matter"):
        Policy(exclude_matter="index,contents")


def test_exports_read_back_with_pandas_and_pyarrow_hold_matter(generated):
    path, _ = generated
    chunks = run_book(str(path), Policy(), workers=1).chunks
    matters = [c.matter for c in chunks]
    assert list(pd.read_json(io.BytesIO(render(chunks, "jsonl")), lines=True)["matter"]) == matters
    assert list(pd.read_csv(io.BytesIO(render(chunks, "csv")))["matter"]) == matters
    table = pq.read_table(io.BytesIO(render(chunks, "parquet")))
    assert str(table.schema.field("matter").type) == "string" and table.column("matter").to_pylist() == matters
    docs = [json.loads(line) for line in render(chunks, "langchain").decode().splitlines()]
    assert [d["metadata"]["matter"] for d in docs] == matters


def test_a_chunk_file_written_before_matter_existed_still_reads_and_validates(generated, tmp_path):
    path, _ = generated
    out = tmp_path / "old.jsonl"
    assert _cli("chunk", str(path), "-o", str(out), "--workers", "1").returncode == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    out.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "matter"}) + "\n" for r in records))
    chunks, _ = read_chunks(out)
    assert {c.matter for c in chunks} == {""}
    assert _cli("validate", str(out)).returncode == 0


def test_batch_exclude_matter_says_in_one_line_what_went_from_all_books(generated, tmp_path):
    path, _ = generated
    books = tmp_path / "books"
    books.mkdir()
    for name in ("a.pdf", "b.pdf"):
        (books / name).write_bytes(path.read_bytes())
    done = _cli("chunk", str(books), "-o", str(tmp_path / "out"), "--exclude-matter", "contents,index",
                "--workers", "1")
    assert done.returncode == 0, done.stderr
    one = run_book(str(path), Policy(exclude_matter="contents,index"), workers=1).excluded
    lines = [line for line in done.stderr.splitlines() if "left out" in line]
    assert lines == [f"chunking: left out {2 * one.chunks} contents and index chunks ({2 * one.tokens} tokens)"
                     " from 2 books written"]
    for name in ("a.pdf", "b.pdf"):
        checked = _cli("validate", str(tmp_path / "out" / f"{name}.jsonl"))
        assert checked.returncode == 0, checked.stdout + checked.stderr


@pytest.mark.usefixtures("fresh_streamlit_caches")
def test_app_sidebar_exclude_matter_leaves_chunks_out_of_the_table_and_export_with_a_caption():
    book = ROOT / "sample_books" / "r-intro.pdf"
    full = run_book(str(book), Policy(), workers=1).chunks
    kept = [c for c in full if c.matter != "index"]
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.switch_page("pages/3_Chunks.py").run()
    at.multiselect(key="policy_exclude_matter").set_value(["index"]).run()
    assert not at.exception, [e.value for e in at.exception]
    shown = {m.label: m.value for m in at.metric}["Chunks shown"]
    assert shown == f"{len(kept)} of {len(kept)}"
    assert "index" not in set(at.dataframe[0].value["matter"])
    captions = [c.value for c in at.caption if "left out" in c.value]
    assert captions and re.search(rf"left out {len(full) - len(kept)} index chunks \(\d+ tokens\)", captions[0])
    at.switch_page("pages/4_Export.py").run()
    assert not at.exception and at.success and f"{len(kept)} chunks" in at.success[0].value
