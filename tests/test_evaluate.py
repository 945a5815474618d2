"""Self-retrieval evaluation (chunking.retrieval.evaluate): metrics on a hand-computed case, determinism."""

from __future__ import annotations

import pytest

from chunking.retrieval.evaluate import (DROP_SHARE, Probe, chapter_share, evaluate_chunks, make_query, sample_probes,
                               span_metrics)
from chunking.models import Book, Chunk, Diagnostics, Heading, Page
from chunking.retrieval.search import ChunkIndex
from chunking.tokens import tokenize

CH1 = "Alpha beta gamma delta. Kiwi mango papaya."
CH2 = "Zulu yankee xray whiskey. Omega sigma tau."


def two_chapter_book() -> Book:
    text = CH1 + "\n" + CH2
    s2 = len(CH1) + 1
    pages = (Page(1, "1", 0, len(CH1)), Page(2, "2", s2, len(text)))
    headings = (Heading(1, "chapter", "One", "1", 1, "1", 0, "headings"),
                Heading(1, "chapter", "Two", "2", 2, "2", s2, "headings"))
    return Book("b", "s", "t", "txt", text, pages, headings, Diagnostics(), "x.txt")


def chunk(book: Book, order: int, chars: tuple[int, int], tokens: tuple[int, int]) -> Chunk:
    s, e = chars
    return Chunk(f"c{order}", "b", order, book.text[s:e], "", "", (), 1, 1, "", "",
                 tokens[0], tokens[1], tokens[1] - tokens[0], s, e, 0, "token_limit")


def test_span_metrics_follow_chroma_definitions_on_a_hand_computed_case():
    # evidence [10, 20); chunks [0, 15), [12, 30), [40, 50): intersection = [10, 20) = 10 tokens,
    # retrieved tokens counted per chunk = 15 + 18 + 10 = 43, nothing of the evidence missed.
    precision, recall, iou = span_metrics((10, 20), [(0, 15), (12, 30), (40, 50)])
    assert precision == pytest.approx(10 / 43)
    assert recall == 1.0
    assert iou == pytest.approx(10 / 43)
    # half the evidence retrieved: I = 5, unused = 5 → IoU = 5 / (10 + 5)
    assert span_metrics((10, 20), [(15, 25)]) == pytest.approx((0.5, 0.5, 1 / 3))


def test_chapter_share_credits_a_straddling_chunk_with_the_part_inside_the_chapter():
    book = two_chapter_book()
    s2 = len(CH1) + 1
    inside = chunk(book, 0, (0, 10), (0, 3))
    straddling = chunk(book, 1, (s2 - 10, s2 + 30), (5, 15))   # 10 chars in chapter one, 30 in two
    bounds = [0, s2]
    assert chapter_share(1, [inside, straddling], bounds) == pytest.approx((1 + 10 / 40) / 2)
    assert chapter_share(2, [straddling], bounds) == pytest.approx(30 / 40)
    assert chapter_share(1, [], bounds) == 0.0


def test_span_metrics_are_zero_when_nothing_is_retrieved():
    assert span_metrics((10, 20), []) == (0.0, 0.0, 0.0)


def test_evaluate_chunks_averages_hit_chapter_precision_and_token_metrics():
    book = two_chapter_book()
    s2 = len(CH1) + 1
    chunks = [chunk(book, 0, (0, len(CH1)), (0, 40)),
              chunk(book, 1, (s2, s2 + CH2.index(" Omega")), (30, 80)),
              chunk(book, 2, (s2 + CH2.index("Omega"), len(book.text)), (80, 100))]
    # A: inside chunk 1, chapter two; only chunk 1 holds its words.
    a = Probe(s2 + 5, s2 + 16, 50, 60, 2, "yankee xray")
    # B: runs from chapter one's "Kiwi" past chunk 0's end; words in chunks 0 and 2 (chapter two).
    b = Probe(CH1.index("Kiwi"), s2 + 2, 35, 45, 1, "kiwi omega")
    score = evaluate_chunks([a, b], ChunkIndex.build(book, chunks), k=2, label="p")
    assert (score.policy, score.n, score.k) == ("p", 2, 2)
    assert score.hit_at_k == 0.5                                  # A hit, B not whole in a chunk
    assert score.chapter_precision_at_k == pytest.approx((1 + 0.5) / 2)
    # A: I = 10 of chunk 1's 50 tokens; B: I = 5 of 40 + 20 retrieved tokens, 5 of 10 missed
    assert score.precision == pytest.approx((10 / 50 + 5 / 60) / 2)
    assert score.recall == pytest.approx((1 + 0.5) / 2)
    assert score.iou == pytest.approx((10 / 50 + 5 / 65) / 2)


def synthetic_book(n_sentences: int = 80) -> Book:
    words = ["river", "stone", "garden", "window", "engine", "lantern", "harbor", "meadow", "signal",
             "copper", "forest", "candle", "bridge", "letter", "valley", "mirror"]
    sentences = [" ".join(words[(i * 7 + j * 3) % len(words)] for j in range(10 + i % 5)).capitalize() + "."
                 for i in range(n_sentences)]
    text = " ".join(sentences)
    return Book("b", "s", "t", "txt", text, (Page(1, "", 0, len(text)),), (), Diagnostics(), "s.txt")


def test_sampling_is_deterministic_for_a_seed_and_changes_with_it():
    tokenized = tokenize(synthetic_book())
    first = sample_probes(tokenized, 20, seed=3)
    assert first == sample_probes(tokenized, 20, seed=3)
    assert first != sample_probes(tokenized, 20, seed=4)
    assert len(first) == 20 and first == sorted(first, key=lambda p: p.char_start)


def test_probe_spans_are_whole_sentences_and_their_tokens():
    tokenized = tokenize(synthetic_book())
    text = tokenized.book.text
    for p in sample_probes(tokenized, 10, seed=0):
        assert text[p.char_start].isupper() and text[p.char_end - 1] == "."
        assert tokenized.char_starts[p.token_start] <= p.char_start < tokenized.char_starts[p.token_start + 1]
        assert tokenized.char_starts[p.token_end - 1] < p.char_end <= tokenized.char_starts[p.token_end]


def test_a_sentence_query_does_not_depend_on_how_many_sentences_are_drawn():
    tokenized = tokenize(synthetic_book())
    small = {p.char_start: p.query for p in sample_probes(tokenized, 10, seed=1)}
    large = {p.char_start: p.query for p in sample_probes(tokenized, 40, seed=1)}
    shared = small.keys() & large.keys()
    assert shared and all(small[c] == large[c] for c in shared)


def test_query_drops_stop_words_and_a_share_of_the_rest_keeping_order():
    sentence = "The engine of the boat turns the copper shaft and the brass wheel quickly."
    content = ["engine", "boat", "turns", "copper", "shaft", "brass", "wheel", "quickly"]
    query = make_query(sentence, seed=0, key=7).split()
    assert query == [w for w in content if w in query]              # a subsequence, in order
    assert len(query) == len(content) - int(len(content) * DROP_SHARE)
    assert make_query(sentence, seed=0, key=7) == " ".join(query)   # deterministic


def test_evaluate_book_index_reports_entries_parsed_and_mapped_and_scores_per_retriever():
    import json
    import subprocess
    import sys
    from pathlib import Path

    from chunking.ingest import load_book
    from chunking.retrieval.book_index import parse_book_index

    root = Path(__file__).resolve().parent.parent
    book = root / "sample_books" / "r-intro.pdf"
    out = subprocess.run([sys.executable, "-m", "chunking", "evaluate", str(book), "--book-index", "--json",
                          "--retriever", "bm25", "--retriever", "hybrid", "--policy", "strategy=section"],
                         capture_output=True, text=True, timeout=180, cwd=root)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    parsed = parse_book_index(load_book(book))
    assert report["entries_parsed"] == len(parsed.entries) and report["entries_mapped"] == len(parsed.mapped)
    assert [(r["policy"], r["retriever"]) for r in report["scores"]] == [("section", "bm25"), ("section", "hybrid")]
    assert all(0 < r["recall_at_k"] <= 1 and 0 < r["ndcg_at_10"] <= 1 for r in report["scores"])
