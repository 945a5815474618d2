"""Issue 27: ``validate`` checks each chunk's links and headings (rule 8): ``prev_id`` / ``next_id``
name the neighbours in reading order, ``section_id`` the span of the section in force at the
chunk's start, ``heading_path``, ``chapter`` and ``section`` the headings there. Real exports
(JSONL, CSV, Parquet) are read back with pandas / pyarrow, one field broken, written back in the
same format, and ``validate`` must fail with exit 4 and one line naming rule 8 and the field."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from test_index import write_book

from chunking.cli import main
from conftest import SAMPLES

FORMATS = ("jsonl", "csv", "parquet")


@pytest.fixture(scope="module")
def exports(tmp_path_factory):
    """The same book chunked once per format (chapters with sections), and its chunk records."""
    d = tmp_path_factory.mktemp("links")
    book = d / "book.md"
    write_book(book)
    for fmt in FORMATS:
        assert (
            main(["chunk", str(book), "-o", str(d / f"good.{fmt}"), "--max-tokens", "200", "--overlap", "20"])
            == 0
        )
    records = [json.loads(line) for line in (d / "good.jsonl").read_text().splitlines()]
    return d, records


def read_back(path: Path) -> list[dict]:
    """The records of an export as pandas / pyarrow read them (every CSV cell as its text)."""
    if path.suffix == ".parquet":
        return pq.read_table(path).to_pylist()
    if path.suffix == ".csv":
        return pd.read_csv(path, dtype=str, keep_default_na=False).to_dict("records")
    return [json.loads(line) for line in path.read_text().splitlines()]


def write_back(path: Path, like: Path, rows: list[dict]) -> Path:
    """``rows`` written in ``like``'s format (pyarrow keeps its schema), its manifest beside them."""
    if path.suffix == ".parquet":
        pq.write_table(pa.Table.from_pylist(rows, schema=pq.read_schema(like)), path)
    elif path.suffix == ".csv":
        pd.DataFrame(rows).to_csv(path, index=False)
    else:
        path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    shutil.copy(f"{like}.manifest.json", f"{path}.manifest.json")
    return path


def heading_path(row: dict) -> list[str]:
    value = row["heading_path"]
    return json.loads(value) if isinstance(value, str) else list(value)


def set_heading_path(row: dict, value: list[str]) -> None:
    row["heading_path"] = json.dumps(value) if isinstance(row["heading_path"], str) else value


def in_a_section(records: list[dict]) -> int:
    """A chunk (not the first or last) that starts inside a section of a chapter."""
    return next(i for i, r in enumerate(records[1:-1], start=1) if r["section"])


def break_one(case: str, rows: list[dict], i: int) -> str:
    """Break one field of chunk ``i`` in ``rows``; return the field's name."""
    row = rows[i]
    if case == "prev_id names the chunk before the previous":
        row["prev_id"] = rows[i - 2]["id"] if i > 1 else rows[i + 1]["id"]
        return "prev_id"
    if case == "next_id is empty in mid-book":
        row["next_id"] = ""
        return "next_id"
    if case == "section_id names another section":
        row["section_id"] = next(
            r["section_id"]
            for r in rows
            if r["section_id"] != row["section_id"] and r["section"] != row["section"]
        )
        return "section_id"
    if case == "section_id names the whole chapter":
        # the chapter's own span holds the chunk's start, but is not the section in force there
        row["section_id"] = next(
            r["section_id"] for r in rows if r["chapter"] == row["chapter"] and not r["section"]
        )
        return "section_id"
    if case == "section_id is not a span":
        row["section_id"] = "section two"
        return "section_id"
    if case == "heading_path of another chapter":
        set_heading_path(row, heading_path(rows[0]))
        return "heading_path"
    if case == "chapter of another chapter":
        row["chapter"] = rows[0]["chapter"]
        return "chapter"
    if case == "section left empty":
        row["section"] = ""
        return "section"
    raise AssertionError(case)


CASES = (
    "prev_id names the chunk before the previous",
    "next_id is empty in mid-book",
    "section_id names another section",
    "section_id names the whole chapter",
    "section_id is not a span",
    "heading_path of another chapter",
    "chapter of another chapter",
    "section left empty",
)


@pytest.mark.parametrize("fmt", FORMATS)
def test_rule_8_holds_for_a_good_export_in_every_format(exports, fmt, capsys):
    d, _ = exports
    path = write_back(d / f"same.{fmt}", d / f"good.{fmt}", read_back(d / f"good.{fmt}"))
    assert main(["validate", str(path)]) == 0
    assert "rules 1-8 hold" in capsys.readouterr().out


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("case", CASES)
def test_rule_8_a_broken_link_or_heading_is_exit_4_naming_the_field(exports, fmt, case, capsys):
    d, records = exports
    good = d / f"good.{fmt}"
    rows = read_back(good)
    i = in_a_section(records)
    field = break_one(case, rows, i)
    path = write_back(d / f"broken.{fmt}", good, rows)
    capsys.readouterr()
    assert main(["validate", str(path)]) == 4
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert f"rule 8 fails at chunk {i}: {field} " in err, err


def test_rule_8_checks_only_headings_in_a_file_written_before_links(exports, capsys):
    d, _ = exports
    rows = read_back(d / "good.jsonl")
    for r in rows:
        r["prev_id"] = r["next_id"] = r["section_id"] = ""
    assert main(["validate", str(write_back(d / "old.jsonl", d / "good.jsonl", rows))]) == 0
    rows[3]["chapter"] = "Another"
    assert main(["validate", str(write_back(d / "old.jsonl", d / "good.jsonl", rows))]) == 4
    assert "rule 8 fails at chunk 3: chapter " in capsys.readouterr().err


@pytest.mark.slow
def test_rule_8_a_left_out_neighbour_is_a_link_to_a_chunk_not_in_the_file(tmp_path, capsys):
    shutil.copy(SAMPLES / "r-intro.pdf", tmp_path / "r-intro.pdf")
    out = tmp_path / "kept.jsonl"
    assert (
        main(["chunk", str(tmp_path / "r-intro.pdf"), "-o", str(out), "--exclude-matter", "front,contents"])
        == 0
    )
    rows = read_back(out)
    assert rows[0]["order"] > 0 and rows[0]["prev_id"]  # its previous chunk was left out
    assert main(["validate", str(out)]) == 0
    rows[0]["prev_id"] = ""
    capsys.readouterr()
    assert main(["validate", str(write_back(tmp_path / "broken.jsonl", out, rows))]) == 4
    assert (
        "rule 8 fails at chunk 0: prev_id is empty, but the previous chunk (left out) exists"
        in capsys.readouterr().err
    )
