"""``python -m chunking compare``: JSON and table output, policy parsing, errors and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from test_scorecard import CH1, CH2

from chunking.cli import main
from chunking.analysis.compare import run_policies
from chunking.policy import Policy, parse_policy
from chunking.analysis.scorecard import SCORE_DIRECTIONS

REQUIRED = {
    "chunks",
    "chapter_crossing_chunks",
    "cross_chapter_overlap_tokens",
    "uncovered_tokens",
    "inflation",
    "tokens_p50",
    "tokens_max",
    "mid_sentence_share",
    "pk",
    "windowdiff",
}
FIXED = "strategy=fixed-window,max_tokens=64,overlap_tokens=12"
CHAPTER = "strategy=chapter-window,max_tokens=64,overlap_tokens=12"


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    path = tmp_path_factory.mktemp("compare") / "book.md"
    path.write_text("# One\n\n" + CH1 + "\n\n# Two\n\n" + CH2 + "\n")
    return str(path)


def test_json_is_one_object_per_policy_with_every_policy_field_and_the_scorecard(book, capsys):
    assert main(["compare", book, "--policy", FIXED, "--policy", CHAPTER, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [set(o) for o in out] == [{"policy", "scorecard"}] * 2
    assert out[0]["policy"] == parse_policy(FIXED).to_dict()
    assert (
        out[1]["policy"] == Policy(max_tokens=64, overlap_tokens=12).to_dict()
    )  # unnamed fields keep defaults
    for o in out:
        assert REQUIRED <= set(o["scorecard"]) and list(o["scorecard"]) == list(SCORE_DIRECTIONS)


def test_json_scorecards_are_the_librarys_scorecards(book, capsys):
    main(["compare", book, "--policy", FIXED, "--policy", CHAPTER, "--json"])
    out = json.loads(capsys.readouterr().out)
    runs = run_policies(book, [parse_policy(FIXED), parse_policy(CHAPTER)])
    assert [o["scorecard"] for o in out] == [json.loads(json.dumps(r.scorecard)) for r in runs]
    # the baseline crosses the chapter start, the chapter-aware windows never do
    assert out[0]["scorecard"]["chapter_crossing_chunks"] >= 1
    assert out[1]["scorecard"]["chapter_crossing_chunks"] == 0
    assert out[1]["scorecard"]["cross_chapter_overlap_tokens"] == 0


def test_table_has_a_legend_a_row_per_score_and_marks_the_better_value(book, capsys):
    assert main(["compare", book, "--policy", FIXED, "--policy", CHAPTER]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "P1: fixed-window max_tokens=64 overlap_tokens=12"
    assert lines[1] == "P2: chapter-window max_tokens=64 overlap_tokens=12"
    rows = {
        line.split()[0]: line.split()[1:]
        for line in lines[3:]
        if line and line.split()[0] in SCORE_DIRECTIONS
    }
    assert set(rows) == set(SCORE_DIRECTIONS)
    assert rows["chapter_crossing_chunks"][1] == "0*" and not rows["chapter_crossing_chunks"][0].endswith("*")
    assert not any(cell.endswith("*") for cell in rows["chunks"])


def test_without_policies_the_three_strategies_are_compared_at_defaults(book, capsys):
    assert main(["compare", book, "--json"]) == 0  # every strategy keeps rules 1-7
    out = json.loads(capsys.readouterr().out)
    assert [o["policy"] for o in out] == [
        Policy(strategy=s).to_dict() for s in ("chapter-window", "fixed-window", "section")
    ]


def test_bad_policy_exits_2_naming_the_field_before_the_book_is_read(tmp_path, capsys):
    assert (
        main(["compare", str(tmp_path / "missing.pdf"), "--policy", "max_tokens=10,overlap_tokens=50"]) == 2
    )
    err = capsys.readouterr().err
    assert "'overlap_tokens'" in err and err.count("\n") == 1
    assert main(["compare", str(tmp_path / "missing.pdf"), "--policy", "colour=blue"]) == 2
    assert "unknown policy field 'colour'" in capsys.readouterr().err


def test_unreadable_book_exits_3_with_one_line_and_no_traceback(tmp_path):
    bad = tmp_path / "broken.pdf"
    bad.write_bytes(b"%PDF-1.4 not really")
    proc = subprocess.run(
        [sys.executable, "-m", "chunking", "compare", str(bad), "--policy", FIXED],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 3
    assert proc.stderr.startswith("chunking: error:") and proc.stderr.count("\n") == 1
    assert "Traceback" not in proc.stderr
