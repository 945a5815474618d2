"""Corrections cost O(log n) each, so a structure file within its limits never blocks for minutes
(issue 26, item 2).

Times are for ``bench/corrections.py`` (a scaling ratio); here the work is counted: how many line
comparisons (``apply._score`` calls, seen with ``sys.setprofile``, nothing replaced) the
operations make, per operation, as the book and the file grow.
"""

from __future__ import annotations

import contextlib
import sys
from dataclasses import replace

import pytest

from chunking.ingest import load_book
from chunking.structure_file import Anchor, Correction, StructureFileError, apply_corrections, heading_anchor
from chunking.structure_file import apply as apply_module


def markdown_book(n: int):
    parts = [f"## Part {i} of the book\n\nBody text {i} opens the part.\n" for i in range(n)]
    return load_book("\n".join(parts).encode(), name="generated.md")


@contextlib.contextmanager
def counted_comparisons():
    """Counts the times a line is compared with an anchor (``apply._score`` calls) inside."""
    code = apply_module._score.__code__
    seen = [0]

    def profile(frame, event, arg):
        seen[0] += event == "call" and frame.f_code is code

    sys.setprofile(profile)
    try:
        yield seen
    finally:
        sys.setprofile(None)


def comparisons(book, ops) -> tuple[int, object]:
    """How many times ``apply_corrections`` compares a line with an anchor, and its result."""
    with counted_comparisons() as seen:
        result = apply_corrections(book, ops, name="s.json")
    return seen[0], result


def drifted_sets(book) -> list[Correction]:
    """A ``set`` per heading whose offset is 3 characters off: found by its line text."""
    return [Correction("set", Anchor(a.page, a.line_text, a.char_offset + 3), None, (("level", 3),))
            for a in (heading_anchor(book, h) for h in book.headings)]


def test_an_operation_at_an_exact_offset_compares_no_line():
    book = markdown_book(500)
    ops = [Correction("set", heading_anchor(book, h), None, (("title", f"T{i}"),))
           for i, h in enumerate(book.headings)]
    count, result = comparisons(book, ops)
    assert count == 0 and [h.title for h in result.headings] == [f"T{i}" for i in range(500)]


@pytest.mark.parametrize("n", [300, 3000])
def test_a_drifted_anchor_costs_a_few_comparisons_however_many_headings_the_book_has(n):
    book = markdown_book(n)
    count, result = comparisons(book, drifted_sets(book))
    assert all(h.level == 3 for h in result.headings) and len(result.headings) == n
    assert count <= 4 * n  # the nearest candidates only, not the page nor the book


def test_a_line_that_matches_nothing_is_scored_against_at_most_the_nearest_candidates():
    book = load_book(("# Title\n\n" + "word " * 2000 + "\n").encode(), name="one-line.md")
    first = book.headings[0]
    many = tuple(replace(first, char_offset=first.char_offset + 5 * k) for k in range(3 * apply_module.MAX_CANDIDATES))
    book = replace(book, headings=many)  # 768 headings on one page: more than the cap
    assert {h.page for h in many} == {first.page}
    op = Correction("remove", Anchor(first.page, "nothing like any line here", first.char_offset + 1))
    with counted_comparisons() as seen, pytest.raises(StructureFileError, match="no heading on page"):
        apply_corrections(book, [op], name="s.json")
    assert 0 < seen[0] <= 2 * apply_module.MAX_CANDIDATES
