"""How applying structure-file corrections scales (issue 26, item 2): a scaling ratio, not a time.

A generated Markdown book of ``n`` headings gets ``n`` corrections of every kind (``set`` by exact
offset, ``set`` whose offset drifted so the line text must be matched, ``remove``, ``add`` on a body
line, ``move`` to a body line), and ``apply_corrections`` is timed (CPU, median of ``--runs``) at
``n`` and ``4n``. Linear work gives a ratio near 4, n log n a little more, quadratic work 16. Prints
one Markdown block for ``bench/STRUCTURE.md``-style notes.

Usage: ``python bench/corrections.py [--n 25000] [--runs 3]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

from chunking.ingest import load_book
from chunking.structure_file import Anchor, Correction, apply_corrections, heading_anchor, page_lines


def markdown_book(n: int) -> bytes:
    """``n`` level-2 headings, each followed by one body paragraph of two lines."""
    parts = [
        f"## Part {i} of the book\n\nBody text {i} opens the part.\nA second line {i} closes it.\n"
        for i in range(n)
    ]
    return "\n".join(parts).encode()


def corrections(book) -> list[Correction]:
    """One correction per heading, cycling through the five kinds of work."""
    out: list[Correction] = []
    ends = [h.char_offset for h in book.headings[1:]] + [len(book.text)]
    for i, (h, end) in enumerate(zip(book.headings, ends)):
        a = heading_anchor(book, h)
        kind = i % 5
        if kind == 0:
            out.append(Correction("set", a, None, (("title", f"Renamed {i}"),)))
        elif kind == 1:  # the offset drifted: found by its line text on the page
            out.append(
                Correction("set", Anchor(a.page, a.line_text, a.char_offset + 3), None, (("level", 3),))
            )
        elif kind == 2:
            out.append(Correction("remove", a))
        else:
            body = [(o, t) for o, t in page_lines(book, h.page) if h.char_offset < o < end]
            if not body:
                continue
            offset, text = body[0] if kind == 3 else body[-1]
            target = Anchor(h.page, text, offset)
            if kind == 3:
                out.append(Correction("add", target, None, (("kind", "section"), ("level", 3))))
            else:
                out.append(Correction("move", a, target))
    return out


def cpu_seconds(n: int, runs: int) -> tuple[float, int]:
    book = load_book(markdown_book(n), name="generated.md")
    ops = corrections(book)
    times = []
    for _ in range(runs):
        start = time.process_time()
        apply_corrections(book, ops, name="generated.structure.json")
        times.append(time.process_time() - start)
    return statistics.median(times), len(ops)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=25_000, help="headings of the smaller book")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    small, small_ops = cpu_seconds(args.n, args.runs)
    large, large_ops = cpu_seconds(4 * args.n, args.runs)
    print(f"- {small_ops} corrections on {args.n} headings: {small:.2f} s CPU")
    print(f"- {large_ops} corrections on {4 * args.n} headings: {large:.2f} s CPU")
    print(f"- scaling ratio (4x the work): {large / small:.1f} (linear 4, quadratic 16)")


if __name__ == "__main__":
    main()
