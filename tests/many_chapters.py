"""A long real PDF with many chapters under parts: the book the inspector must stay readable on.

Real manuals and references have hundreds of chapters grouped in parts, chapters from one page to
dozens, and outlines that put parts at level 1 and chapters at level 2. This builds such a book
with PyMuPDF (through ``pdf_factory.make_pdf``): a part title page before each part's chapters, a
``Chapter N`` heading and a title of varied length at the top of each chapter's first page, body
text that ends part-way down a chapter's last page, tiny one-page chapters of a few lines, folios
in the footer and an outline with destinations. Lengths and titles come from a fixed arithmetic
sequence, so the same arguments always give the same bytes (tests and benches compare runs).

Use from tests or bench (with ``tests/`` on ``sys.path``)::

    from many_chapters import write_many_chapters_book
    path = write_many_chapters_book(tmp_path / "many.pdf")

or from a shell: ``python tests/many_chapters.py OUT.pdf [--chapters N --parts N --pages N]``.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pdf_factory import BODY, Text, make_pdf  # noqa: E402

CHAPTERS = 400
"""Default chapter count: the size at which the issue saw the chapter band become a barcode."""
PARTS = 20
"""Default part count (a part title page precedes each part's chapters)."""
PAGES = 1000
"""Default total page count (part pages included): about 2.4 pages per chapter on average."""
LINES_PER_PAGE = 34
"""Body lines on a full page (10 pt lines, 15 pt pitch, from the top margin to the footer)."""
TINY_LINES = 4
"""Body lines of a tiny chapter (one page, mostly empty: the chapters whose labels never fit)."""
TINY_EVERY = 7
"""Every TINY_EVERY-th chapter is tiny (one short page), so tiny chapters sit among long ones."""
HEADING_SIZE = 20.0
"""Font size of ``Chapter N`` and the chapter title (clearly above body text)."""
PART_SIZE = 26.0
"""Font size of a part's title page lines."""
FOLIO_SIZE = 8.0
"""Font size of the footer folio."""

WORDS = (
    "signals",
    "memory",
    "parsing",
    "storage",
    "networks",
    "kernels",
    "graphs",
    "queries",
    "streams",
    "types",
    "modules",
    "caches",
    "threads",
    "vectors",
    "errors",
    "files",
    "objects",
    "records",
    "schedules",
    "packets",
    "tokens",
    "indexes",
    "locks",
    "buffers",
)
"""Title words, picked in a fixed order (titles from one word to seven, so label widths vary)."""
TOPICS = ("loader", "compiler", "scheduler", "allocator", "planner", "router", "encoder")
"""Body-text topics, so neighbouring lines and pages never repeat exactly (no fake headers)."""


def _roman(n: int) -> str:
    """Roman numeral for a part number (parts are numbered I, II, ... as printed books do)."""
    out = []
    for value, digits in (
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ):
        while n >= value:
            out.append(digits)
            n -= value
    return "".join(out)


def chapter_title(index: int) -> str:
    """Title of chapter ``index`` (0-based): one to seven words, fixed by the index."""
    count = 1 + (index * 5) % 7
    words = [WORDS[(index * 7 + k * 11) % len(WORDS)] for k in range(count)]
    return " ".join(words).capitalize()


def part_title(index: int) -> str:
    """Title of part ``index`` (0-based): two or three words, fixed by the index."""
    count = 2 + index % 2
    return " and ".join(WORDS[(index * 5 + k * 3) % len(WORDS)] for k in range(count)).capitalize()


def chapter_pages(chapters: int, budget: int) -> list[int]:
    """Pages per chapter: every ``TINY_EVERY``-th chapter one page, the others weighted by a fixed
    sequence (1..12), scaled so the lengths sum to ``budget`` (each at least one page)."""
    if budget < chapters:
        raise ValueError(f"{budget} pages cannot hold {chapters} chapters")
    weights = [0 if i % TINY_EVERY == TINY_EVERY - 1 else 1 + (i * 37) % 12 for i in range(chapters)]
    spare = budget - chapters
    total = sum(weights) or 1
    lengths = [1 + (w * spare) // total for w in weights]
    leftover = budget - sum(lengths)
    long_ones = [i for i, w in enumerate(weights) if w] or list(range(chapters))
    for k in range(leftover):
        lengths[long_ones[k % len(long_ones)]] += 1
    return lengths


def _body(chapter: int, page: int, count: int) -> list[tuple[str, float]]:
    topic = TOPICS[(chapter + page) % len(TOPICS)]
    return [
        (
            f"Chapter {chapter + 1} page {page + 1} line {k + 1}: the {topic} handles "
            f"{WORDS[(chapter + k) % len(WORDS)]} before {WORDS[(page + k * 3) % len(WORDS)]}.",
            BODY,
        )
        for k in range(count)
    ]


def many_chapters_pdf(chapters: int = CHAPTERS, parts: int = PARTS, pages: int = PAGES) -> bytes:
    """The book's bytes (deterministic for the same arguments).

    Args:
        chapters (int): chapter count. Defaults to ``CHAPTERS``.
        parts (int): part count (0 for none); chapters are split evenly among parts. Defaults to
            ``PARTS``.
        pages (int): total pages, part title pages included. Defaults to ``PAGES``.

    Raises:
        ValueError: fewer pages than chapters plus part pages, or more parts than chapters.
    """
    if chapters < 1 or parts < 0 or parts > chapters:
        raise ValueError(f"need 1 <= chapters and 0 <= parts <= chapters, got {chapters}, {parts}")
    lengths = chapter_pages(chapters, pages - parts)
    per_part = -(-chapters // parts) if parts else chapters + 1
    layout: list[list] = []
    toc: list[tuple[int, str, int, float | None]] = []
    level = 2 if parts else 1
    for c in range(chapters):
        if parts and c % per_part == 0:
            p = c // per_part
            name = f"Part {_roman(p + 1)} {part_title(p)}"
            layout.append(
                [
                    Text(f"Part {_roman(p + 1)}", PART_SIZE, "hebo", align="center", space_before=200),
                    Text(part_title(p), PART_SIZE, "hebo", align="center"),
                ]
            )
            toc.append((1, name, len(layout), None))
        title = chapter_title(c)
        toc.append((level, f"{c + 1} {title}", len(layout) + 1, None))
        for page in range(lengths[c]):
            tiny = c % TINY_EVERY == TINY_EVERY - 1
            last = page == lengths[c] - 1
            count = TINY_LINES if tiny else LINES_PER_PAGE - (12 + c % 17 if last else 0)
            lines: list = []
            if page == 0:
                lines = [
                    Text(f"Chapter {c + 1}", HEADING_SIZE, "hebo"),
                    Text(title, HEADING_SIZE, "hebo", space_before=4),
                ]
                count = max(2, count - 5)
            lines.extend(_body(c, page, count))
            layout.append(lines)
    data = make_pdf(
        layout,
        toc=toc,
        title="Many Chapters Reference Manual",
        footer=lambda i: [Text(str(i + 1), FOLIO_SIZE, align="center")],
    )
    return _fixed_id(data)


def _fixed_id(data: bytes) -> bytes:
    """``data`` with the trailer's random /ID replaced by a hash of the content before it.

    MuPDF writes a random file identifier on every save, sometimes as hex strings, sometimes as
    literal (binary) strings. Only the trailer follows it, and ``startxref`` points before the
    trailer, so replacing it (its length may change) moves no byte offset the file relies on.
    """
    trailer = data.rfind(b"trailer")
    begin = data.find(b"/ID", trailer)
    close = data.find(b"]>>", begin)
    if trailer < 0 or begin < 0 or close < 0:
        return data
    digest = hashlib.sha256(data[:trailer]).hexdigest().upper()[:32]
    return data[:begin] + f"/ID[<{digest}><{digest}>]".encode() + data[close + 1 :]


def write_many_chapters_book(
    path: str | Path, chapters: int = CHAPTERS, parts: int = PARTS, pages: int = PAGES
) -> Path:
    """Write the book to ``path`` (parents created) and return the path; see ``many_chapters_pdf``."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(many_chapters_pdf(chapters, parts, pages))
    return out


def main(argv: list[str] | None = None) -> int:
    """CLI: write the book to OUT.pdf; exit 2 with one line on stderr on bad arguments."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--chapters", type=int, default=CHAPTERS)
    parser.add_argument("--parts", type=int, default=PARTS)
    parser.add_argument("--pages", type=int, default=PAGES)
    args = parser.parse_args(argv)
    try:
        path = write_many_chapters_book(args.out, args.chapters, args.parts, args.pages)
    except ValueError as exc:
        print(f"many_chapters: {exc}", file=sys.stderr)
        return 2
    print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
