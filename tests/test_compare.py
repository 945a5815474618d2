"""Comparison library: boundary diff, better-value marks, policy labels and multi-policy runs."""

from __future__ import annotations

import pytest
from test_scorecard import CH1, CH2, chunk_at, make_book

from chunking.analysis.compare import better_marks, boundaries, boundary_diff, policy_label, run_policies
from chunking.policy import Policy
from chunking.analysis.scorecard import SCORE_DIRECTIONS, scorecard
from chunking.strategies import chunk_book
from chunking.tokens import tokenize


@pytest.fixture(scope="module")
def tb():
    return tokenize(make_book([CH1, CH2], [("chapter", 1, "Chapter One."), ("chapter", 1, "Chapter Two.")]))


def cut(tb, starts: list[int]):
    """Chunks starting at ``starts`` (no overlap), the last one running to the book's end."""
    ends = [*starts[1:], tb.n_tokens]
    return [chunk_at(tb, i, a, b) for i, (a, b) in enumerate(zip(starts, ends))]


def test_boundary_diff_sorts_boundaries_into_unchanged_moved_added_removed(tb):
    base = cut(tb, [0, 50, 100, 200, 300])
    other = cut(tb, [0, 50, 110, 160, 290, 330])
    diff = boundary_diff(base, other, tolerance=20)
    assert diff.unchanged == 1  # 50
    assert diff.moved == [(100, 110, 10), (300, 290, -10)]
    assert diff.added == [160, 330]
    assert diff.removed == [200]
    assert diff.summary() == {
        "unchanged": 1,
        "moved": 2,
        "added": 2,
        "removed": 1,
        "mean_move_tokens": 10.0,
        "max_move_tokens": 10,
    }


def test_boundary_beyond_tolerance_is_removed_and_added_not_moved(tb):
    diff = boundary_diff(cut(tb, [0, 100]), cut(tb, [0, 160]), tolerance=50)
    assert (diff.moved, diff.added, diff.removed) == ([], [160], [100])


def test_each_boundary_is_matched_at_most_once(tb):
    # 100 is the nearest base boundary of both 95 and 104; only its own nearest (104) pairs with it.
    diff = boundary_diff(cut(tb, [0, 100]), cut(tb, [0, 95, 104]), tolerance=20)
    assert diff.moved == [(100, 104, 4)] and diff.added == [95] and diff.removed == []


def test_identical_chunk_sets_have_no_differences(tb):
    chunks = cut(tb, [0, 40, 90])
    diff = boundary_diff(chunks, chunks, tolerance=10)
    assert (diff.unchanged, diff.moved, diff.added, diff.removed) == (2, [], [], [])
    assert boundaries(chunks) == [40, 90]


def test_overlapping_windows_count_their_starts_as_boundaries(tb):
    chunks = [chunk_at(tb, 0, 0, 60), chunk_at(tb, 1, 50, 120, 10), chunk_at(tb, 2, 110, tb.n_tokens, 10)]
    assert boundaries(chunks) == [50, 110]


def test_better_marks_follow_each_rows_direction_and_skip_ties_and_none():
    cards = [
        {"chunks": 10, "tokens_cv": 0.2, "pk": None, "chapter_crossing_chunks": 0, "tokens_p5": 100.0},
        {"chunks": 12, "tokens_cv": 0.1, "pk": 0.3, "chapter_crossing_chunks": 0, "tokens_p5": 140.0},
        {"chunks": 9, "tokens_cv": 0.1, "pk": 0.2, "chapter_crossing_chunks": 0, "tokens_p5": 120.0},
    ]
    marks = better_marks(cards)
    assert set(marks) == set(SCORE_DIRECTIONS)
    assert marks["tokens_cv"] == [1, 2]  # lower is better, ties share the mark
    assert marks["tokens_p5"] == [1]  # higher is better
    assert marks["chunks"] == []  # no direction
    assert marks["pk"] == []  # a missing value marks nothing
    assert marks["chapter_crossing_chunks"] == []  # all equal


def test_policy_label_names_strategy_and_changed_fields_only():
    assert policy_label(Policy()) == "chapter-window"
    assert (
        policy_label(Policy(strategy="fixed-window", max_tokens=256, overlap_tokens=20))
        == "fixed-window max_tokens=256 overlap_tokens=20"
    )


def test_run_policies_scores_each_policy_on_one_reading_of_the_book(tmp_path):
    path = tmp_path / "book.md"
    path.write_text("# One\n\n" + CH1 + "\n\n# Two\n\n" + CH2 + "\n")
    policies = [
        Policy(strategy="fixed-window", max_tokens=64, overlap_tokens=8),
        Policy(max_tokens=64, overlap_tokens=8),
        Policy(strategy="section", max_tokens=64, overlap_tokens=8, encoding="o200k_base"),
    ]
    runs = run_policies(str(path), policies)
    assert [r.policy for r in runs] == policies
    assert runs[0].tokenized is runs[1].tokenized is not runs[2].tokenized
    for r in runs:
        assert r.chunks == chunk_book(r.tokenized, r.policy)
        assert r.scorecard == scorecard(r.chunks, r.tokenized, r.policy)
        assert r.report.chunks == len(r.chunks)
    assert runs[2].tokenized.encoding == "o200k_base"
