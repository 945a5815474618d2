"""Benchmark: what the bounded page reader (issue 26, ``chunking.readers.pdfchild``) costs.

Times ``chunking.readers.read_raw`` (wall clock, and CPU time of this process plus its page
readers: the pages are read in a child process, whose CPU time this process's clock does not see) on the largest sample book, on a 300-page book of the
development corpus when it is in the user cache, on a one-page PDF (the fixed cost of a read:
the child's start) and on a hostile 200-page PDF whose every tenth page draws ten levels of ten
form XObjects (``tests/fanout_pdf.py``), with a 2 s page deadline. Prints the median of
``--runs`` runs of each (the one-page PDF: 20 runs per run).

Usage: ``python bench/page_limits.py [--runs N] [--no-hostile] [--json]``; ``--no-hostile`` for a
tree without page limits, where the hostile PDF never ends.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import pymupdf

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from fanout_pdf import fanout_pdf  # noqa: E402

from chunking.readers import read_raw  # noqa: E402

CORPUS = Path(os.path.expanduser("~/.cache/book-chunk-inspector/corpus"))
CORPUS_BOOK = "doxygen-manual.pdf"
"""336 pages."""

HOSTILE_DEADLINE_S = "2"


def _cpu_s() -> float:
    """CPU seconds of this process and of the page readers it keeps (none before issue 26): the
    pages are read there, where this process's clock does not see."""
    try:
        from chunking.readers.pdfchild import readers_cpu_s
    except ImportError:
        return time.process_time()
    return time.process_time() + readers_cpu_s()


def _median_read(data: bytes, name: str, runs: int, repeat: int = 1) -> tuple[float, float, int, int]:
    """Median wall and CPU seconds of ``repeat`` reads over ``runs`` runs, pages and warnings
    of the last read."""
    times, cpu = [], []
    book = read_raw(data, name)  # warm-up: imports, the fork server
    for _ in range(runs):
        t0, c0 = time.perf_counter(), _cpu_s()
        for _ in range(repeat):
            book = read_raw(data, name)
        times.append((time.perf_counter() - t0) / repeat)
        cpu.append((_cpu_s() - c0) / repeat)
        book.close()
    return statistics.median(times), statistics.median(cpu), len(book.pages), len(book.warnings)


def one_page() -> bytes:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 100), "one page")
    return doc.tobytes()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-hostile", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    largest = max((ROOT / "sample_books").glob("*.pdf"), key=lambda p: p.stat().st_size)
    cases = [(largest.name, largest.read_bytes(), 1)]
    if (CORPUS / CORPUS_BOOK).is_file():
        cases.append((CORPUS_BOOK, (CORPUS / CORPUS_BOOK).read_bytes(), 1))
    cases.append(("one-page.pdf", one_page(), 20))
    rows = []
    for name, data, repeat in cases:
        seconds, cpu, pages, warnings = _median_read(data, name, args.runs, repeat)
        rows.append(
            {
                "book": name,
                "pages": pages,
                "seconds": round(seconds, 4),
                "cpu_s": round(cpu, 4),
                "warnings": warnings,
            }
        )
    if not args.no_hostile:
        os.environ["BOOK_CHUNK_INSPECTOR_PDF_PAGE_TIMEOUT_S"] = HOSTILE_DEADLINE_S
        data = fanout_pdf(200, range(9, 200, 10))
        t0 = time.perf_counter()
        book = read_raw(data, "hostile.pdf")
        rows.append(
            {
                "book": "hostile.pdf (20 of 200 pages: 10 levels x 10 XObjects, 2 s deadline)",
                "pages": len(book.pages),
                "seconds": round(time.perf_counter() - t0, 2),
                "warnings": len(book.warnings),
                "lost": sum(1 for p in book.pages if getattr(p, "lost", None)),
            }
        )
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        for row in rows:
            print(", ".join(f"{k}: {v}" for k, v in row.items()))


if __name__ == "__main__":
    main()
