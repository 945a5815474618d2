"""CLI contract of ``locate``, ``search`` and ``evaluate`` (issue 6): JSON shapes and exit codes."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from chunking.cli import main
from chunking.ingest import load_book
from conftest import sample_book

pytestmark = pytest.mark.slow

BOOK = str(sample_book("r-intro.pdf"))
LOCATE_KEYS = {"found", "score", "char_start", "char_end", "page_start", "page_end", "page_label_start",
               "page_label_end", "chapter", "section", "chunks"}
EVAL_KEYS = {"policy", "retriever", "zone", "n", "k", "hit_at_k", "mrr", "chapter_precision_at_k",
             "chapter_purity", "tokens_per_hit", "iou", "precision", "recall"}
POLICIES = ["--policy", "strategy=fixed-window",
            "--policy", "strategy=chapter-window,max_tokens=256,overlap_tokens=32"]


@pytest.fixture(scope="module")
def text() -> str:
    return load_book(BOOK).text


def run_json(capsys, *argv: str):
    code = main(list(argv))
    out = capsys.readouterr().out
    return code, json.loads(out)


def test_locate_json_reports_the_exact_span_and_chunks_per_policy_and_exits_0(tmp_path, capsys, text):
    start = text.index(" ", 60_000) + 1
    end = text.index(" ", start + 500)
    passage = tmp_path / "p.txt"
    passage.write_text("3 Objects\n" + " ".join(text[start:end].split()))
    code, out = run_json(capsys, "locate", BOOK, "--passage-file", str(passage), "--json", *POLICIES)
    assert code == 0
    assert set(out) == LOCATE_KEYS
    assert out["found"] is True and (out["char_start"], out["char_end"]) == (start, end)
    assert out["page_start"] <= out["page_end"] and out["page_label_start"]
    labels = [c["policy"] for c in out["chunks"]]
    assert labels == ["fixed-window", "chapter-window max_tokens=256 overlap_tokens=32"]
    assert all(set(c) == {"policy", "ids", "straddles", "boundaries"} and c["ids"] for c in out["chunks"])


def test_locate_passage_from_another_book_exits_1_with_found_false(tmp_path, capsys):
    other = load_book(sample_book("lshort.pdf")).text
    passage = tmp_path / "p.txt"
    passage.write_text(other[40_000:40_700])
    code, out = run_json(capsys, "locate", BOOK, "--passage-file", str(passage), "--json")
    assert code == 1
    assert out["found"] is False and out["chunks"] == [] and out["char_start"] == -1


def test_locate_missing_passage_file_is_one_line_usage_error(tmp_path, capsys):
    code = main(["locate", BOOK, "--passage-file", str(tmp_path / "missing.txt")])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "missing.txt" in err


def test_search_returns_the_chunk_holding_a_unique_phrase_first_under_every_policy(capsys, text):
    words = re.findall(r"[a-z]{9,}", text)
    counts = Counter(words)
    rare = next(w for w in words if counts[w] == 1)
    at = re.search(rf"\b{rare}\b", text).start()
    code, out = run_json(capsys, "search", BOOK, f"{rare} explained", "-k", "3", "--json", *POLICIES)
    assert code == 0
    assert len(out) == 2
    for entry in out:
        assert set(entry) == {"policy", "retriever", "hits"}
        top = entry["hits"][0]
        assert set(top) == {"id", "score", "page_start", "page_end", "chapter", "crosses_chapter"}
        assert top["score"] >= max(h["score"] for h in entry["hits"])
    # the top hit's pages hold the phrase
    page = next(p for p in load_book(BOOK).pages if p.char_start <= at < p.char_end).number
    assert all(e["hits"][0]["page_start"] <= page <= e["hits"][0]["page_end"] for e in out)


def test_evaluate_json_is_deterministic_for_a_seed(capsys):
    argv = ["evaluate", BOOK, "-n", "40", "-k", "3", "--seed", "7", "--json", "--retriever", "bm25", *POLICIES]
    code, first = run_json(capsys, *argv)
    _, second = run_json(capsys, *argv)
    assert code == 0 and first == second
    assert [set(row) for row in first] == [EVAL_KEYS] * 4          # 2 policies × (random, boundary)
    assert [row["zone"] for row in first] == ["random", "boundary"] * 2
    for row in first:
        assert row["n"] == 40 and row["k"] == 3
        assert all(0.0 <= row[m] <= 1.0 for m in EVAL_KEYS - {"policy", "retriever", "zone", "n", "k",
                                                              "tokens_per_hit"})


MISSING = "no/such/book.pdf"


@pytest.mark.parametrize("argv", [["evaluate", MISSING, "-n", "0"], ["evaluate", MISSING, "--seed", "-1"],
                                  ["search", MISSING, "x", "-k", "0"], ["search", MISSING, "   "],
                                  ["evaluate", MISSING, "--policy", "strategy=nope"],
                                  ["locate", MISSING, "--passage-file", "-", "--policy", "max_tokens=0"]])
def test_bad_arguments_are_usage_errors_before_reading_the_book(argv, capsys):
    # exit 2, not 3 (unreadable input): the arguments are checked before the missing book is opened
    assert main(argv) == 2
    assert capsys.readouterr().err.startswith("chunking: error:")
