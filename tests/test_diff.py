"""Upsert plan (chunking.analysis.diff, ``chunking diff``): a run against itself is all "keep", the
plan of two chunk sets matches a hand-computed case, and runs of different books are refused."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from chunking.analysis.diff import Move, diff_chunks
from chunking.export import read_chunks
from chunking.models import Chunk

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "sample_books" / "r-intro.pdf"
OTHER = ROOT / "sample_books" / "haskell98-report.pdf"


def chunk(cid: str, order: int, tokens: tuple[int, int], chars: tuple[int, int]) -> Chunk:
    return Chunk(cid, "b", order, "x" * (chars[1] - chars[0]), "", "", (), 1, 1, "", "",
                 tokens[0], tokens[1], tokens[1] - tokens[0], chars[0], chars[1], 0, "token_limit")


def test_plan_of_two_chunk_sets_matches_a_hand_computed_case():
    old = [chunk("a", 0, (0, 10), (0, 50)), chunk("b", 1, (10, 20), (50, 100)),
           chunk("c", 2, (20, 30), (100, 150)), chunk("d", 3, (30, 45), (150, 220))]
    new = [chunk("a", 0, (0, 10), (0, 50)), chunk("x", 1, (10, 20), (50, 100)),
           chunk("y", 2, (24, 37), (120, 180)), chunk("z", 3, (37, 45), (180, 220))]
    plan = diff_chunks(old, new)
    assert plan.keep == ["a"]
    assert plan.add == ["x", "y", "z"]
    assert plan.delete == ["b", "c", "d"]
    assert plan.same_text == [("b", "x")]          # same span, new id: its vector can be copied
    # old starts {0, 10, 20, 30}, new starts {0, 10, 24, 37}: 20 -> 24 (+4); 30 is 6 from 24
    # and 7 from 37 -> 24 (-6)
    assert plan.boundaries_kept == 2
    assert plan.moved == [Move(20, 24, 4), Move(30, 24, -6)]
    assert plan.churn == pytest.approx(6 / 7)       # 3 added + 3 deleted of 7 distinct ids


def test_a_moved_boundary_halfway_between_two_goes_to_the_earlier():
    old = [chunk("a", 0, (0, 15), (0, 10)), chunk("b", 1, (15, 30), (10, 20))]
    new = [chunk("p", 0, (0, 10), (0, 5)), chunk("q", 1, (10, 20), (5, 15)), chunk("r", 2, (20, 30), (15, 20))]
    assert diff_chunks(old, new).moved == [Move(15, 10, -5)]


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "chunking", *args], capture_output=True, text=True,
                          timeout=180, cwd=ROOT)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    d = tmp_path_factory.mktemp("diff")
    out = {}
    for name, book, extra in [("chapter", BOOK, []), ("fixed", BOOK, ["--strategy", "fixed-window"]),
                              ("other", OTHER, [])]:
        path = d / f"{name}.jsonl"
        done = cli("chunk", str(book), "-o", str(path), *extra)
        assert done.returncode == 0, done.stderr
        out[name] = path
    return out


def test_diff_of_a_run_against_itself_is_all_keep(runs):
    done = cli("diff", str(runs["chapter"]), str(runs["chapter"]), "--json")
    assert done.returncode == 0, done.stderr
    plan = json.loads(done.stdout)
    ids = [c.id for c in read_chunks(runs["chapter"])[0]]
    assert plan["keep"] == ids and plan["add"] == [] and plan["delete"] == []
    assert plan["moved"] == [] and plan["summary"]["churn"] == 0.0


def test_diff_of_two_policies_lists_every_id_once(runs):
    done = cli("diff", str(runs["chapter"]), str(runs["fixed"]), "--json")
    assert done.returncode == 0, done.stderr
    plan = json.loads(done.stdout)
    old = {c.id for c in read_chunks(runs["chapter"])[0]}
    new = {c.id for c in read_chunks(runs["fixed"])[0]}
    assert set(plan["keep"]) == old & new
    assert set(plan["add"]) == new - old and set(plan["delete"]) == old - new
    assert plan["summary"]["boundaries_moved"] == len(plan["moved"]) > 0
    text = cli("diff", str(runs["chapter"]), str(runs["fixed"]))
    assert text.returncode == 0 and "churn" in text.stdout


def test_diff_refuses_runs_of_different_books_with_one_line_exit_2(runs):
    done = cli("diff", str(runs["chapter"]), str(runs["other"]))
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "different books" in done.stderr


def test_diff_without_a_manifest_is_unreadable_input_exit_3(runs, tmp_path):
    lone = tmp_path / "lone.jsonl"
    lone.write_bytes(runs["chapter"].read_bytes())
    done = cli("diff", str(lone), str(runs["chapter"]))
    assert done.returncode == 3 and "manifest" in done.stderr


def compare_page_upsert_summary():
    """The Compare page with two policies (chapter-window, fixed-window): the app and its upsert
    plan's summary as ``{name: value}``."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.run()
    at.switch_page("pages/5_Compare.py").run()
    at.radio(key="cmp_count").set_value(2).run()
    assert not at.exception, [e.value for e in at.exception]
    (summary,) = [e.value for e in at.dataframe if list(e.value.columns) == ["", "value"]]
    return at, dict(zip(summary[""], summary["value"]))


@pytest.mark.usefixtures("fresh_streamlit_caches")
def test_compare_page_shows_the_upsert_plan_of_p1_against_the_target():
    from chunking.policy import Policy
    from chunking.strategies import chunk_book
    from chunking.tokens import tokenize
    from chunking.ingest import load_book

    at, facts = compare_page_upsert_summary()
    tokenized = tokenize(load_book(BOOK))
    p1 = chunk_book(tokenized, Policy(strategy="chapter-window"))
    p2 = chunk_book(tokenized, Policy(strategy="fixed-window"))
    expected = diff_chunks(p1, p2).summary()
    assert facts["add"] == str(expected["add"]) and facts["delete"] == str(expected["delete"])
    assert facts["boundaries moved"] == str(expected["boundaries_moved"])
    assert at.get("download_button")
