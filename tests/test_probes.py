"""Evaluation probes (chunking.retrieval.probes) and the new metrics: boundary-zone probes really
lie within N tokens of a chapter start, draws are deterministic, and MRR, chapter purity and
tokens per hit follow their definitions on a hand-computed case."""

from __future__ import annotations

from pathlib import Path

import pytest

from chunking.ingest import load_book
from chunking.retrieval.evaluate import evaluate_chunks
from chunking.retrieval.probes import Probe, boundary_probes, in_boundary_zone, sample_probes
from chunking.retrieval.search import ChunkIndex
from chunking.rules import fence_offsets
from chunking.tokens import tokenize

from test_evaluate import CH1, CH2, chunk, two_chapter_book

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def tokenized():
    return tokenize(load_book(ROOT / "sample_books" / "lshort.pdf"))


@pytest.mark.parametrize("zone", [64, 256])
def test_boundary_probes_lie_within_n_tokens_of_a_chapter_start(tokenized, zone):
    fences = sorted({tokenized.token_at_char(f) for f in fence_offsets(tokenized.book, "chapter") if f > 0})
    probes = boundary_probes(tokenized, 100, seed=1, zone_tokens=zone)
    assert probes and all(p.zone == "boundary" for p in probes)
    for p in probes:
        # measured here, independently: the nearest fence on either side within `zone` tokens
        after = [f for f in fences if f <= p.token_start and p.token_end <= f + zone]
        before = [f for f in fences if f - zone <= p.token_start and p.token_end <= f]
        assert after or before, (p.token_start, p.token_end)
    # random probes mostly lie outside the zones (they are not the same draw)
    random = sample_probes(tokenized, 100, seed=1)
    outside = [p for p in random if not in_boundary_zone(p.token_start, p.token_end, fences, zone)]
    assert len(outside) > len(random) // 2


def test_boundary_probes_are_deterministic_for_a_seed(tokenized):
    assert boundary_probes(tokenized, 30, seed=2) == boundary_probes(tokenized, 30, seed=2)
    assert boundary_probes(tokenized, 30, seed=2) != boundary_probes(tokenized, 30, seed=3)


def test_zone_test_on_hand_made_fences():
    fences = [100, 500]
    assert in_boundary_zone(100, 150, fences, 50)      # first 50 tokens after 100
    assert not in_boundary_zone(100, 151, fences, 50)
    assert in_boundary_zone(450, 500, fences, 50)      # last 50 tokens before 500
    assert not in_boundary_zone(449, 500, fences, 50)
    assert not in_boundary_zone(495, 505, fences, 50)  # straddles the fence: in neither chapter


def test_mrr_purity_and_tokens_per_hit_on_a_hand_computed_case():
    book = two_chapter_book()
    s2 = len(CH1) + 1
    chunks = [chunk(book, 0, (0, len(CH1)), (0, 40)),
              chunk(book, 1, (s2, s2 + CH2.index(" Omega")), (30, 80)),
              chunk(book, 2, (s2 + CH2.index("Omega"), len(book.text)), (80, 100))]
    # A: in chapter two (tokens [40, 100)), held by chunk 1; B: not whole in any chunk
    a = Probe(s2 + 5, s2 + 16, 50, 60, 2, "yankee xray", 40, 100)
    b = Probe(CH1.index("Kiwi"), s2 + 2, 35, 45, 1, "kiwi omega", 0, 40)
    score = evaluate_chunks([a, b], ChunkIndex.build(book, chunks), k=2, label="p")
    assert score.mrr == pytest.approx((1 / 1 + 0) / 2)
    # A retrieves chunk 1 (50 tokens, 40 of them in [40, 100)); B retrieves chunks 0 and 2
    # (40 + 20 tokens, 40 of them in [0, 40)): (40 + 40) / (50 + 60)
    assert score.chapter_purity == pytest.approx(80 / 110)
    assert score.tokens_per_hit == pytest.approx(110 / 1)
    assert score.retriever == "bm25"
