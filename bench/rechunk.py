"""Core speed targets of issue 3, measured as ratios in one run (medians of ``--runs``).

* re-chunk: ``chunk_book`` on an already tokenized book, per policy, ÷ tiktoken
  ``encode_ordinary`` of the same canonical text (target ≤ 0.2, issue 15; was 0.4);
* a structure correction (issue 13): ``retokenize`` after removing one heading and adding one
  mid-chapter, ÷ encode, beside a full ``tokenize`` of the corrected book (the same result);
* CLI end to end: ``python -m chunking chunk BOOK -o OUT`` ÷ the floor, a process with the same
  imports that only runs PyMuPDF ``get_text()`` over all pages and ``encode_ordinary`` of the
  result (target ≤ 1.5). Both are whole processes, so interpreter start and imports count on
  both sides;
* for information: ``tokenize``, ``validate_chunks`` and JSONL ``render`` ÷ encode, and why the
  chunker cuts only at safe boundaries: how many naive 512/120 token windows (cut anywhere) would
  re-encode to more than 512 tokens, against how many of the chunker's windows needed its
  re-encoding fallback.

Usage: ``python bench/rechunk.py [--book PATH] [--runs N]`` (default: the largest sample book).
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from chunking.encodings import get_encoding
from chunking.export import render
from chunking.ingest import load_book
from chunking.policy import Policy
from chunking.strategies import chunk_book
from chunking.strategies.common import is_cut
from chunking.tokens import retokenize, token_byte_lengths, tokenize
from chunking.validate import validate_chunks

ROOT = Path(__file__).resolve().parent.parent

POLICIES = {
    "chapter-window 512/120": Policy(),
    "fixed-window 512/120": Policy(strategy="fixed-window"),
    "section fence 256/50": Policy(fence="section", max_tokens=256, overlap_tokens=50),
    "snap sentence": Policy(snap="sentence"),
}
"""Re-chunk policies timed against the same tokenized book."""
RECHUNK_TARGET = 0.2
"""Issue 15: re-chunking a tokenized book costs at most this share of tiktoken's encode."""


def corrected(book):
    """The book with its middle heading removed and a section heading added at a line start
    inside another chapter: a structure correction that keeps the text."""
    heads = list(book.headings)
    if len(heads) < 3:
        return book
    gone = heads.pop(len(heads) // 2)
    a, b = heads[0].char_offset, heads[1].char_offset
    at = book.text.find("\n", (a + b) // 2, b)
    if at < 0:
        at = (a + b) // 2
    heads.append(dataclasses.replace(gone, kind="section", level=gone.level + 1, char_offset=at + 1))
    return dataclasses.replace(book, headings=tuple(sorted(heads, key=lambda h: h.char_offset)))


FLOOR = """
import sys, time
import pymupdf, tiktoken, numpy
import chunking.cli, chunking.pipeline, chunking.export
from chunking.encodings import get_encoding
enc = get_encoding("cl100k_base")
doc = pymupdf.open(sys.argv[1])
text = "\\n".join(page.get_text() for page in doc)
enc.encode_ordinary(text)
"""
"""The floor process: the CLI's imports, then extraction and encoding only."""


def median_time(fn: Callable[[], object], runs: int) -> float:
    """Median wall time of ``fn`` over ``runs`` calls (after one warm-up call)."""
    fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def process_time(args: list[str], runs: int) -> float:
    """Median wall time of a whole ``python`` process (after one warm-up run)."""

    def once() -> None:
        subprocess.run(
            [sys.executable, *args],
            cwd=ROOT,
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    return median_time(once, runs)


def rule1_edges(tb, chunks) -> str:
    """Naive windows over the limit after re-encoding vs. chunks whose edges are not safe cuts."""
    enc = get_encoding(tb.encoding)
    cs, text = tb.char_starts, tb.book.text
    starts = range(0, max(tb.n_tokens - 512, 0), 392)
    over = sum(len(enc.encode_ordinary(text[cs[a] : cs[a + 512]])) > 512 for a in starts)
    unsafe = sum(not (is_cut(tb, c.token_start) and is_cut(tb, c.token_end)) for c in chunks)
    return (
        f"naive 512/120 windows re-encoding to > 512 tokens: {over} of {len(starts)}; "
        f"chunks with an edge that is not a safe cut (re-encoded by the chunker): {unsafe} of {len(chunks)}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--book", default=str(ROOT / "sample_books" / "chez-csug.pdf"))
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)

    enc = get_encoding("cl100k_base")
    token_byte_lengths("cl100k_base")
    book = load_book(args.book)
    tb = tokenize(book)
    encode = median_time(lambda: enc.encode_ordinary(book.text), args.runs)
    rows: list[tuple[str, float, float, str]] = [("tiktoken encode_ordinary (reference)", encode, 1.0, "")]
    rows.append(
        (
            "tokenize, one thread (offsets, pages, fences)",
            median_time(lambda: tokenize(book, workers=1), args.runs),
            0.0,
            "",
        )
    )
    rows.append(("tokenize, default workers", median_time(lambda: tokenize(book), args.runs), 0.0, ""))
    fixed = corrected(book)
    assert all((retokenize(tb, fixed).tokens == tokenize(fixed).tokens).all() for _ in range(1)), (
        "retokenize differs from tokenize"
    )
    rows.append(
        (
            "a structure correction: retokenize (1 heading removed, 1 added)",
            median_time(lambda: retokenize(tb, fixed), args.runs),
            0.0,
            "",
        )
    )
    rows.append(
        (
            "the same correction by a full tokenize",
            median_time(lambda: tokenize(fixed), args.runs),
            0.0,
            "",
        )
    )
    chunks = []
    for label, policy in POLICIES.items():
        t = median_time(lambda p=policy: chunk_book(tb, p), args.runs)
        rows.append((f"re-chunk {label}", t, 0.0, f"<= {RECHUNK_TARGET}"))
        chunks.append((policy, chunk_book(tb, policy)))
    policy, default_chunks = chunks[0]
    rows.append(
        (
            "validate_chunks (rule 1 from the stream where provable, else re-encoded)",
            median_time(lambda: validate_chunks(default_chunks, tb, policy), args.runs),
            0.0,
            "",
        )
    )
    rows.append(("render jsonl", median_time(lambda: render(default_chunks, "jsonl"), args.runs), 0.0, ""))
    rows = [(name, t, t / encode, target) for name, t, _, target in rows]

    with tempfile.TemporaryDirectory() as tmp:
        floor = process_time(["-c", FLOOR, args.book], args.runs)
        cli = process_time(
            ["-m", "chunking", "chunk", args.book, "-o", str(Path(tmp) / "out.jsonl")], args.runs
        )

    print(
        f"book: {Path(args.book).name}, {len(book.pages)} pages, {len(book.text):,} chars, "
        f"{tb.n_tokens:,} tokens; median of {args.runs} runs\n"
    )
    print("| step | seconds | ÷ encode | target |")
    print("|---|---:|---:|---|")
    for name, t, ratio, target in rows:
        verdict = "" if not target else (" ✓" if ratio <= RECHUNK_TARGET else " ✗")
        print(f"| {name} | {t:.4f} | {ratio:.3f} | {target}{verdict} |")
    ratio = cli / floor
    print("\n| process | seconds | ÷ floor | target |")
    print("|---|---:|---:|---|")
    print(f"| floor: same imports + get_text() + encode_ordinary | {floor:.3f} | 1.000 | |")
    print(
        f"| python -m chunking chunk BOOK -o OUT | {cli:.3f} | {ratio:.3f} | <= 1.5{' ✓' if ratio <= 1.5 else ' ✗'} |"
    )
    print(f"\nrule 1 at slice edges: {rule1_edges(tb, default_chunks)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
