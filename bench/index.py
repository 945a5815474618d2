"""Issue 27: re-indexing a book after a structure correction inside one chapter.

Chunks a book (default policy), indexes it into a fresh LanceDB store (``chunking.index``), then
corrects its structure with a structure file (the longest chapter split in two by a chapter
heading added halfway through it; the ids of every chunk change, since corrections salt them, but
only that chapter's texts do) and indexes the corrected
run into the same store. Counts the texts the real embedding model is asked for (a counting
wrapper through the plug-in interface) and checks they are exactly the chunks whose text changed;
times both runs in this process (model loaded, imports done), medians of ``--runs``.

Target: the re-index takes at most 0.2x the first index's time.

Usage: ``python bench/index.py [--book PATH] [--runs N]`` (default: the largest sample book).
Prints a Markdown table for bench/INDEX.md.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from chunking.analysis.diff import read_run
from chunking.cli import main
from chunking.index.apply import index_run
from chunking.index.store import Store
from chunking.ingest import load_book
from chunking.retrieval.embeddings import default_backend
from chunking.rules import chapter_headings

ROOT = Path(__file__).resolve().parent.parent
TARGET = 0.2
"""Issue 27: re-index after a structure correction ≤ this share of the first index's time."""


class Counting:
    """The real backend, counting the texts it embeds."""

    def __init__(self, inner) -> None:
        self.inner, self.name, self.count = inner, inner.name, 0

    def embed(self, texts):
        self.count += len(texts)
        return self.inner.embed(texts)


def correction(book_path: Path, work: Path) -> Path:
    """A structure file splitting the longest chapter in two: a chapter heading added at a line
    start halfway through it (a fence, so only that chapter's chunks are cut anew)."""
    book = load_book(book_path)
    chapters = chapter_headings(book)
    ends = [h.char_offset for h in chapters[1:]] + [len(book.text)]
    chapter, end = max(zip(chapters, ends), key=lambda p: p[1] - p[0].char_offset)
    at = book.text.index("\n", (chapter.char_offset + end) // 2) + 1
    line = book.text[at : book.text.find("\n", at)]
    page = next(p.number for p in book.pages if p.char_start <= at < max(p.char_end, p.char_start + 1))
    op = {
        "op": "add",
        "page": page,
        "line_text": line,
        "char_offset": at,
        "kind": "chapter",
        "level": chapter.level,
        "title": "Split chapter",
    }
    path = work / "correction.structure.json"
    path.write_text(
        json.dumps(
            {
                "format": "book-chunk-inspector/structure",
                "version": 1,
                "book_sha256": book.sha256,
                "corrections": [op],
            }
        )
    )
    return path


def chunk(book: Path, out: Path, *options: str) -> Path:
    if main(["chunk", str(book), "-o", str(out), *options]) != 0:
        raise SystemExit(f"chunking {book} failed")
    return out


def measure(book: Path, runs: int) -> dict:
    work = Path(tempfile.mkdtemp(prefix="bench-index-"))
    try:
        first = read_run(chunk(book, work / "first.jsonl"))
        fixed = read_run(chunk(book, work / "fixed.jsonl", "--structure-file", str(correction(book, work))))
        backend = default_backend()
        backend.embed(["warm up"])
        changed = len({c.text for c in fixed.chunks} - {c.text for c in first.chunks})
        first_s, again_s = [], []
        for i in range(runs):
            store = Store(work / f"store{i}", create=True)
            counted = Counting(backend)
            t0 = time.perf_counter()
            index_run(first, store, counted)
            first_s.append(time.perf_counter() - t0)
            first_embedded = counted.count
            counted = Counting(backend)
            t0 = time.perf_counter()
            b = index_run(fixed, Store(work / f"store{i}", create=True), counted)
            again_s.append(time.perf_counter() - t0)
            if counted.count != changed or b.embedded != changed:
                raise SystemExit(f"re-index embedded {counted.count} texts; {changed} changed")
        return {
            "book": book.name,
            "chunks": len(first.chunks),
            "first_s": statistics.median(first_s),
            "first_embedded": first_embedded,
            "again_s": statistics.median(again_s),
            "summary": b,
            "changed": changed,
        }
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main_(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--book", type=Path, default=None)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args(argv)
    book = args.book or max((ROOT / "sample_books").glob("*.pdf"), key=lambda p: p.stat().st_size)
    r = measure(book, args.runs)
    s = r["summary"]
    ratio = r["again_s"] / r["first_s"]
    print(
        "| book | chunks | first index (s) | embedded | re-index (s) | kept / added / deleted | re-keyed | embedded (changed text) | ratio | target |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    print(
        f"| {r['book']} | {r['chunks']} | {r['first_s']:.3f} | {r['first_embedded']} | {r['again_s']:.3f} | "
        f"{s.kept} / {s.added} / {s.deleted} | {s.rekeyed} | {s.embedded} ({r['changed']}) | "
        f"{ratio:.2f}x | ≤ {TARGET}x {'ok' if ratio <= TARGET else 'MISSED'} |"
    )
    return 0 if ratio <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main_())
