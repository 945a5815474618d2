"""Benchmark: one page image into a child's stdin, through a pipe fed by ``communicate`` or from
an unnamed in-memory file (``chunking.ocr.engine.image_file``), with this process idle and while
another thread renders pages and measures ink as ``chunking.ocr.pages`` does (issue 25).

The child is ``cat > /dev/null``: only the feeding is timed (spawn included). Prints medians.

Usage: ``python bench/ocr_feed.py [--feeds N]``.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import pymupdf

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from scan_factory import add_scanned_page, save, scan_image, sentences  # noqa: E402

from chunking.ocr.engine import image_file  # noqa: E402
from chunking.ocr.lines import Ink  # noqa: E402
from chunking.ocr.pages import DPI  # noqa: E402

CHILD = ["sh", "-c", "cat > /dev/null"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--feeds", type=int, default=5)
    args = parser.parse_args(argv)
    doc = pymupdf.open()
    for n in range(2):
        add_scanned_page(doc, scan_image(sentences(220, seed=n)))
    doc = pymupdf.open(stream=save(doc), filetype="pdf")
    image = doc[0].get_pixmap(dpi=DPI, colorspace=pymupdf.csGRAY, alpha=False).tobytes("pnm")
    busy, stop = threading.Event(), threading.Event()

    def other_work() -> None:
        while not stop.is_set():
            if busy.is_set():
                doc[1].get_pixmap(dpi=DPI, colorspace=pymupdf.csGRAY, alpha=False)
                Ink(image)
            else:
                time.sleep(0.01)

    def pipe() -> None:
        subprocess.run(CHILD, input=image, capture_output=True, check=True)

    def memory_file() -> None:
        with image_file(image) as stdin:
            subprocess.run(CHILD, stdin=stdin, capture_output=True, check=True)

    threading.Thread(target=other_work, daemon=True).start()
    for label, on in (("idle", False), ("rendering", True)):
        (busy.set if on else busy.clear)()
        for name, feed in (("pipe (communicate)", pipe), ("in-memory file", memory_file)):
            times = []
            for _ in range(args.feeds):
                t0 = time.perf_counter()
                feed()
                times.append(time.perf_counter() - t0)
            print(
                f"{label:9s} {name:18s} median {statistics.median(times) * 1000:5.0f} ms, max {max(times) * 1000:5.0f} ms"
            )
    stop.set()
    return 0


if __name__ == "__main__":
    sys.exit(main())
