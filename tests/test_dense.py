"""Dense retrieval (chunking.retrieval.embeddings, hybrid.DenseIndex): offline WordLlama vectors,
a paraphrase finds its sentence's chunk, and the backend is a pluggable interface."""

from __future__ import annotations

import logging
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from chunking.ingest import load_book
from chunking.policy import Policy
from chunking.retrieval.embeddings import WordLlamaBackend, default_backend, embed_chunks
from chunking.retrieval.hybrid import DenseIndex, build_index
from chunking.retrieval.search import word_set
from chunking.strategies import chunk_book
from chunking.tokens import tokenize

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "sample_books" / "r-intro.pdf"
SENTENCE = "Note that if x has missing values, y will be shorter than x."
PARAPHRASE = "dropping absent entries makes the result vector shorter"
"""Written by hand: one word ("shorter") in common with the sentence."""
TOP = 3
"""The paraphrase's chunk must be among the first TOP dense hits."""


@pytest.fixture(scope="module")
def run():
    book = load_book(BOOK)
    chunks = chunk_book(tokenize(book), Policy())
    return book, chunks


def test_dense_search_finds_a_paraphrased_sentences_chunk(run):
    book, chunks = run
    m = re.search(r"\s+".join(map(re.escape, SENTENCE.split())), book.text)
    assert m, "the sentence is in the book"
    holding = {c.order for c in chunks if c.char_start <= m.start() and m.end() <= c.char_end}
    assert len(word_set(PARAPHRASE) & word_set(SENTENCE)) <= 1
    hits = build_index("dense", book, chunks).search(PARAPHRASE, TOP)
    assert holding & {h.order for h in hits}


def test_vectors_are_unit_length_and_offline(tmp_path):
    backend = WordLlamaBackend(cache=tmp_path / "wl")
    v = backend.embed(["a sentence about vectors", "another one", ""])
    assert v.shape == (3, 256) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v[:2], axis=1), 1.0, atol=1e-5)
    assert not v[2].any()
    # the seeded cache lies where it was asked to, outside the repository
    assert list((tmp_path / "wl" / "tokenizers").iterdir())


def test_importing_wordllama_leaves_logging_alone():
    before = list(logging.getLogger().handlers)
    default_backend()
    assert logging.getLogger().handlers == before


def test_a_user_backend_plugs_in_and_its_ranking_is_used(run):
    book, chunks = run

    class Letters:
        """A toy backend: letter counts, normalised (a stand-in for a user's own model)."""

        name = "letters"

        def embed(self, texts):
            out = np.zeros((len(texts), 26), dtype=np.float32)
            for i, t in enumerate(texts):
                for ch in t.lower():
                    if "a" <= ch <= "z":
                        out[i, ord(ch) - 97] += 1
            norms = np.linalg.norm(out, axis=1, keepdims=True)
            return np.divide(out, norms, out=np.zeros_like(out), where=norms > 0)

    backend = Letters()
    index = DenseIndex.build(book, chunks[:20], backend)
    docs, scores = index.top_k([chunks[7].text], 1)
    assert docs[0].tolist() == [7] and scores[0][0] == pytest.approx(1.0, abs=1e-5)
    assert np.array_equal(index.vectors, embed_chunks(chunks[:20], backend))


def test_search_cli_dense_prints_hits_and_nothing_on_stderr():
    out = subprocess.run([sys.executable, "-m", "chunking", "search", str(BOOK), PARAPHRASE,
                          "--retriever", "dense", "-k", "2", "--json"],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""
    import json
    (record,) = json.loads(out.stdout)
    assert record["retriever"] == "dense" and len(record["hits"]) == 2


def test_unknown_retriever_is_a_usage_error():
    out = subprocess.run([sys.executable, "-m", "chunking", "search", str(BOOK), "x", "--retriever", "nope"],
                         capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1
