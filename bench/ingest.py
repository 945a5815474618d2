"""Benchmark: ingestion (read + normalise + structure) against plain text extraction.

Times ``chunking.ingest.load_book`` on the largest sample book and, in the same process and
interleaved with it, plain ``page.get_text()`` over all of its pages; prints the median of each
over ``--runs`` runs (at least 5) and their ratio. Target (issue 2): ratio ≤ 1.5.

Usage: ``python bench/ingest.py [BOOK] [--runs N] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import pymupdf

from chunking.ingest import load_book
from chunking.readers.pdfchild import readers_cpu_s

ROOT = Path(__file__).resolve().parent.parent
TARGET_RATIO = 1.5


def largest_sample_pdf() -> Path:
    """The biggest PDF under ``sample_books/`` (chez-csug.pdf, 523 pages)."""
    return max((ROOT / "sample_books").glob("*.pdf"), key=lambda p: p.stat().st_size)


def plain_text(data: bytes) -> int:
    """Open the PDF and call ``page.get_text()`` on every page; return the characters read."""
    doc = pymupdf.open(stream=data, filetype="pdf")
    total = sum(len(page.get_text()) for page in doc)
    doc.close()
    return total


def _cpu_s() -> float:
    """CPU seconds of this process and of the PDF page readers it keeps (``chunking.readers.
    pdfchild``: pages are read in a bounded child process, whose time this clock does not see)."""
    return time.process_time() + readers_cpu_s()


def measure(path: Path, runs: int) -> dict:
    """Median seconds of plain extraction and of ``load_book`` over ``runs`` interleaved runs."""
    data = path.read_bytes()
    plain, full, plain_cpu, full_cpu = [], [], [], []
    plain_text(data)  # warm-up: imports, font caches
    load_book(data, name=path.name)
    for _ in range(runs):
        t0, c0 = time.perf_counter(), _cpu_s()
        plain_text(data)
        t1, c1 = time.perf_counter(), _cpu_s()
        book = load_book(data, name=path.name)
        t2, c2 = time.perf_counter(), _cpu_s()
        plain.append(t1 - t0)
        full.append(t2 - t1)
        plain_cpu.append(c1 - c0)
        full_cpu.append(c2 - c1)
    p, f = statistics.median(plain), statistics.median(full)
    # NOTE: CPU time is reported too: on a shared machine wall time swings with other load.
    pc, fc = statistics.median(plain_cpu), statistics.median(full_cpu)
    return {
        "book": path.name,
        "pages": book.diagnostics.pages,
        "runs": runs,
        "plain_get_text_s": round(p, 4),
        "load_book_s": round(f, 4),
        "ratio": round(f / p, 3),
        "plain_get_text_cpu_s": round(pc, 4),
        "load_book_cpu_s": round(fc, 4),
        "cpu_ratio": round(fc / pc, 3),
        "target_ratio": TARGET_RATIO,
        "structure_source": book.diagnostics.structure_source,
        "headings": len(book.headings),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("book", nargs="?", type=Path, default=None, help="default: the largest sample PDF")
    parser.add_argument("--runs", type=int, default=7, help="runs per measurement (at least 5)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    result = measure(args.book or largest_sample_pdf(), max(5, args.runs))
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['book']}: {result['pages']} pages, median of {result['runs']} runs")
        print(f"  plain page.get_text(): {result['plain_get_text_s']:.3f} s")
        print(f"  load_book (read + normalise + structure): {result['load_book_s']:.3f} s")
        print(
            f"  ratio: {result['ratio']:.2f}x wall, {result['cpu_ratio']:.2f}x CPU "
            f"(target <= {TARGET_RATIO}x)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
