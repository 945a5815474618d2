"""The single-book targets (issues 15, 23): the CLI end to end against the bare floor, as ratios in one run.

The floor is a process that imports only PyMuPDF and tiktoken, runs ``page.get_text()`` over all
pages and ``encode_ordinary`` on the joined text (``FLOOR``): the least any tool that extracts
and tokenizes a PDF must do. Against it, in the same run and interleaved (floor, default,
``--workers 1``, floor, …, so a shared machine's load falls on all alike):

* ``python -m chunking chunk BOOK -o out.jsonl`` with the default workers (target ≤ 1.0×);
* the same with ``--workers 1`` (target ≤ 1.25×);
* the outputs (chunks and manifest) of the two are compared byte for byte;
* peak RSS of each process (``ru_maxrss``): the default CLI's ÷ the floor's (target ≤ 1.15×).

Each ratio is the minimum over ``--pairs`` (≥ 5) pairs of consecutive runs (wall time), so a
pair spoiled by another process's burst does not count; the medians are printed beside it.
Books: the largest sample book and the synthetic 2,000-page book (``bench/synthetic.py``).
Writes its table into ``bench/RESULTS.md`` between the ``bench:floor`` markers.

Usage: ``python bench/floor.py [--book PATH …] [--pairs N] [--no-write]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from procenv import child_env
from synthetic import cached_book

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "RESULTS.md"
MARK_START, MARK_END = "<!-- bench:floor -->", "<!-- /bench:floor -->"
TARGETS = {"default": 1.0, "workers1": 1.25}
"""Issue 23: CLI ÷ floor, default workers and ``--workers 1``."""
TARGET_RSS = 1.15
"""Issue 23: the default CLI's peak RSS ÷ the floor process's."""

FLOOR = """
import sys
import pymupdf, tiktoken
enc = tiktoken.get_encoding("cl100k_base")
doc = pymupdf.open(sys.argv[1])
text = "\\n".join(page.get_text() for page in doc)
enc.encode_ordinary(text)
"""
"""The floor process: PyMuPDF and tiktoken only, extraction and encoding only."""


def timed(cmd: list[str]) -> tuple[float, float, float]:
    """Wall and CPU seconds (user + system, its waited-for children included) and peak RSS (MiB)
    of one process, which must exit 0."""
    with tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=err, env=child_env())
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode:
            err.seek(0)
            raise RuntimeError(
                f"exit {proc.returncode}: {' '.join(cmd)}\n{err.read().decode(errors='replace')}"
            )
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def bench_book(book: Path, pairs: int, work: Path) -> dict:
    """Interleaved runs of the floor and both CLI modes; ratios per pair; output identity."""
    py = sys.executable
    outs = {"default": work / "default" / "out.jsonl", "workers1": work / "workers1" / "out.jsonl"}
    for out in outs.values():
        out.parent.mkdir(parents=True, exist_ok=True)
    cmds = {
        "floor": [py, "-c", FLOOR, str(book)],
        "default": [py, "-m", "chunking", "chunk", str(book), "-o", str(outs["default"])],
        "workers1": [py, "-m", "chunking", "chunk", str(book), "-o", str(outs["workers1"]), "--workers", "1"],
    }
    for cmd in cmds.values():  # warm the page cache and tiktoken's vocabulary cache
        timed(cmd)
    times: dict[str, list[float]] = {k: [] for k in cmds}
    cpu: dict[str, list[float]] = {k: [] for k in cmds}
    rss: dict[str, list[float]] = {k: [] for k in cmds}
    for _ in range(pairs):
        for name, cmd in cmds.items():
            wall, used, peak = timed(cmd)
            times[name].append(wall)
            cpu[name].append(used)
            rss[name].append(peak)
    identical = all(
        outs["default"].with_suffix(suffix).read_bytes() == outs["workers1"].with_suffix(suffix).read_bytes()
        for suffix in (".jsonl", ".manifest.json")
    )
    ratios = {
        mode: min(t / f for t, f in zip(times[mode], times["floor"])) for mode in ("default", "workers1")
    }
    cpu_ratios = {
        mode: min(t / f for t, f in zip(cpu[mode], cpu["floor"])) for mode in ("default", "workers1")
    }
    return {
        "book": book,
        "times": times,
        "cpu": cpu,
        "ratios": ratios,
        "cpu_ratios": cpu_ratios,
        "rss": {k: max(v) for k, v in rss.items()},
        "identical": identical,
    }


def table(results: list[dict], pairs: int) -> str:
    lines = [
        f"## Single book against the bare floor (`python bench/floor.py`, {time.strftime('%Y-%m-%d %H:%M')} UTC)",
        "",
        f"Wall time, {pairs} interleaved rounds (floor, default, `--workers 1`); ratio = minimum over"
        " the rounds of CLI ÷ floor of the same round; medians beside it. Floor: a process importing only"
        " PyMuPDF + tiktoken, `get_text()` over all pages, `encode_ordinary` of the joined text."
        f" Peak RSS: the maximum over the rounds (`ru_maxrss`); load average at the end {os.getloadavg()[0]:.1f}.",
        "",
        "| book | floor s (median) | default s | `--workers 1` s | default ÷ floor | `--workers 1` ÷ floor"
        " | CPU s: floor / default / `--workers 1` (median) | CPU ÷ floor: default / `--workers 1`"
        " | peak RSS MiB: floor / default / `--workers 1` | RSS ÷ floor (default) | outputs identical |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in results:
        med = {k: statistics.median(v) for k, v in r["times"].items()}
        cmed = {k: statistics.median(v) for k, v in r["cpu"].items()}
        ok = {m: "✓" if r["ratios"][m] <= TARGETS[m] else "✗" for m in TARGETS}
        rss_ratio = r["rss"]["default"] / r["rss"]["floor"]
        lines.append(
            f"| {r['book'].name} | {med['floor']:.2f} | {med['default']:.2f} | {med['workers1']:.2f} | "
            f"{r['ratios']['default']:.2f}× {ok['default']} (≤ {TARGETS['default']}) | "
            f"{r['ratios']['workers1']:.2f}× {ok['workers1']} (≤ {TARGETS['workers1']}) | "
            f"{cmed['floor']:.2f} / {cmed['default']:.2f} / {cmed['workers1']:.2f} | "
            f"{r['cpu_ratios']['default']:.2f}× / {r['cpu_ratios']['workers1']:.2f}× | "
            f"{r['rss']['floor']:.0f} / {r['rss']['default']:.0f} / {r['rss']['workers1']:.0f} | "
            f"{rss_ratio:.2f}× {'✓' if rss_ratio <= TARGET_RSS else '✗'} (≤ {TARGET_RSS}) | "
            f"{'yes' if r['identical'] else '**NO**'} |"
        )
    return "\n".join(lines) + "\n"


def write_results(block: str) -> None:
    text = RESULTS.read_text(encoding="utf-8")
    new = f"{MARK_START}\n{block}{MARK_END}"
    if MARK_START in text and MARK_END in text:
        head, rest = text.split(MARK_START, 1)
        text = head + new + rest.split(MARK_END, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + new + "\n"
    RESULTS.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--book", action="append", type=Path, help="a book (repeatable)")
    parser.add_argument("--pairs", type=int, default=6, help="interleaved rounds (≥ 5)")
    parser.add_argument("--no-write", action="store_true", help="print only; leave RESULTS.md alone")
    args = parser.parse_args(argv)
    cache = Path(tempfile.gettempdir()) / "book-chunk-bench"  # bench/run.py's cache too
    cache.mkdir(parents=True, exist_ok=True)
    books = args.book or [ROOT / "sample_books" / "chez-csug.pdf", cached_book(cache)]
    with tempfile.TemporaryDirectory() as tmp:
        results = []
        for i, b in enumerate(books):
            results.append(bench_book(b, max(5, args.pairs), Path(tmp) / str(i)))
            print(table(results[-1:], max(5, args.pairs)), flush=True)
    block = table(results, max(5, args.pairs))
    print(block)
    if not args.no_write:
        write_results(block)
    return 0 if all(r["identical"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
