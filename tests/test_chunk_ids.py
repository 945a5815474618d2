"""Retrieval debugging by chunk id (issue 24): the one lookup rule the CLI and the app share
(``chunking.retrieval.chunk_ids``), the chunk edges marked inside a located passage
(``chunking.retrieval.locate.boundaries_inside``) and ``locate --chunk-id``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunking.cli import main
from chunking.ingest import load_book
from chunking.policy import Policy
from chunking.retrieval.chunk_ids import MIN_ID_PREFIX, chunks_with_id, id_query
from chunking.retrieval.locate import boundaries_inside
from chunking.strategies import chunk_book
from chunking.tokens import tokenize

BOOK = Path(__file__).resolve().parent.parent / "sample_books" / "r-intro.pdf"


@pytest.fixture(scope="module")
def chunks():
    return chunk_book(tokenize(load_book(BOOK)), Policy())


DECORATIONS = st.sampled_from(['{}', '"{}"', "'{}'", "[{}]", "id: {}", "ID={}", '{{"id": "{}"}}',
                               "chunk_id={},", "  {}\n", "`{}`."])


@settings(max_examples=60, deadline=None)
@given(decoration=DECORATIONS, upper=st.booleans(), keep=st.integers(MIN_ID_PREFIX, 32))
def test_an_id_pasted_with_quotes_labels_or_case_names_its_chunk(chunks, decoration, upper, keep):
    wanted = chunks[len(chunks) // 3]
    raw = wanted.id[:keep].upper() if upper else wanted.id[:keep]
    found = chunks_with_id(chunks, decoration.format(raw))
    assert wanted in found and all(c.id.startswith(wanted.id[:keep]) for c in found)


def test_a_full_id_names_exactly_one_chunk(chunks):
    assert all(chunks_with_id(chunks, c.id) == [c] for c in chunks)


@pytest.mark.parametrize("text", ["hello world", "deadbee", "0123456789abcdef0123456789abcdef0",
                                  "the function lm() fits a model", "12345678 apples"])
def test_prose_short_or_overlong_hex_is_not_an_id(text):
    assert id_query(text) is None


def test_an_id_of_another_policy_matches_nothing(chunks):
    other = chunk_book(tokenize(load_book(BOOK)), Policy(max_tokens=256))
    assert chunks_with_id(chunks, other[3].id) == []


def test_boundaries_inside_a_span_are_every_chunk_edge_strictly_inside_it_in_order(chunks):
    a, b = chunks[10], chunks[11]
    lo, hi = min(a.char_end, b.char_start) - 20, max(a.char_end, b.char_start) + 20
    marks = boundaries_inside(chunks, lo, hi)
    edges = [(m.char, m.edge, m.order) for m in marks]
    assert (a.char_end, "end", 10) in edges and (b.char_start, "start", 11) in edges
    inside = {(x, e, c.order) for c in chunks for x, e in ((c.char_start, "start"), (c.char_end, "end"))
              if lo < x < hi}
    assert set(edges) == inside and len(edges) == len(inside)
    assert [m.char for m in marks] == sorted(m.char for m in marks)
    assert boundaries_inside(chunks, a.char_start, a.char_start + 1) == []


def test_locate_chunk_id_prints_the_chunk_per_policy_and_exits_0(chunks, capsys):
    wanted = chunks[5]
    code = main(["locate", str(BOOK), "--chunk-id", f'"{wanted.id[:12]}"', "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["query"] == wanted.id[:12]
    (record,) = out["chunks"]
    assert (record["id"], record["order"], record["text"]) == (wanted.id, 5, wanted.text)


def test_locate_chunk_id_of_no_chunk_exits_1(capsys):
    assert main(["locate", str(BOOK), "--chunk-id", "deadbeef00c0ffee"]) == 1
    assert "no chunk has id deadbeef00c0ffee" in capsys.readouterr().out


def test_locate_chunk_id_that_is_no_id_is_a_usage_error(capsys):
    assert main(["locate", str(BOOK), "--chunk-id", "chapter three"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "is not a chunk id" in err[0]


def test_locate_needs_a_passage_file_or_a_chunk_id(capsys):
    assert main(["locate", str(BOOK)]) == 2
    assert "--passage-file" in capsys.readouterr().err
