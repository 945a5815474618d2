"""Benchmark input: a deterministic N-page synthetic book (default 2,000 pages) as a real PDF.

The scale case of ``bench/run.py`` (issue 7): a book about four times the largest sample book,
built only from the bundled sample books' own text so it reads like a technical book (prose, code,
tables) and costs what a real book costs to extract, normalise and tokenize. It has the structure
the pipeline looks for, so ingestion does its full work:

* a PDF outline with 100 chapters (level 1) of two sections each (level 2);
* each chapter opens on a new page with a large ``Chapter N`` / title heading;
* running headers (``Chapter N. Title``) and page-number footers on every other page.

Contract: the same ``pages`` and the same sample books give byte-identical PDF bytes (no dates,
fixed document id), so timings and chunk outputs of different runs are comparable.

Usage: ``python bench/synthetic.py OUT.pdf [--pages N]``.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import itertools
import json
import re
import textwrap
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pymupdf

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_books"
SOURCE_BOOKS = ("chez-csug", "haskell98-report", "lshort", "r-intro")
"""The PDFs whose text fills the synthetic pages, in this order (cycled)."""

DEFAULT_PAGES = 2000
PAGES_PER_CHAPTER = 20
LINES_PER_PAGE = 44
WRAP = 90
# NOTE: US Letter, 1-inch margins, Helvetica 9.5 pt on 14 pt leading: 44 lines of up to 90
# characters fit the text box, about 2,300 characters a page, close to the sample books' density.
PAGE_W, PAGE_H, MARGIN = 612, 792, 72
BODY_SIZE, LEADING = 9.5, 14
GENERATOR_VERSION = "2"
"""Bumped whenever the bytes this module writes change (it keys the bench's cache of books)."""
_LINE_END_HYPHEN = re.compile(r"(?<=[a-z])-\n(?=[a-z])")


def _latin1(text: str) -> str:
    """Fold text to what the PDF base-14 Helvetica can show (its WinAnsi encoding ⊂ Latin-1).

    # NOTE: characters outside Latin-1 are decomposed (NFKD) and dropped when still outside, so
    # the extracted text is exactly what was written and the book stays deterministic.
    """
    out = []
    for ch in text:
        if ord(ch) < 256:
            out.append(ch)
            continue
        out.extend(c for c in unicodedata.normalize("NFKD", ch) if ord(c) < 256)
    return "".join(out)


@functools.lru_cache(maxsize=None)
def source_paragraphs(books: tuple[str, ...] = SOURCE_BOOKS) -> tuple[str, ...]:
    """The sample books' body text as paragraphs, without page numbers and running headers.

    Cached: reading the four books is most of the cost of a small synthetic book.

    Returns:
        tuple[str, ...]: non-empty paragraphs, in book order, folded to Latin-1 with single spaces.
    """
    paragraphs: list[str] = []
    for name in books:
        with pymupdf.open(SAMPLES / f"{name}.pdf") as doc:
            for page in doc:
                for block in page.get_text("blocks", sort=False):
                    # NOTE: the source's own line-end hyphens are undone here; left in, they would
                    # land mid-line ("affil- iates") once the text is re-wrapped.
                    text = _latin1(" ".join(_LINE_END_HYPHEN.sub("", block[4]).split()))
                    # NOTE: short blocks are page numbers, running headers and labels: they would
                    # repeat as noise on synthetic pages that already have their own.
                    if len(text) >= 40 and not text.startswith("<image:"):
                        paragraphs.append(text)
    if not paragraphs:
        raise RuntimeError(f"no text found in the sample books under {SAMPLES}")
    return tuple(paragraphs)


def chapter_titles(books: tuple[str, ...] = SOURCE_BOOKS) -> list[str]:
    """Chapter and section titles of the sample books (from ``sample_books/reference``)."""
    titles: list[str] = []
    for name in books:
        ref = json.loads((SAMPLES / "reference" / f"{name}.json").read_text())
        titles.extend(_latin1(e["title"]) for e in ref["entries"] if e.get("title"))
    return [re.sub(r"\s+", " ", t).strip() for t in titles if t.strip()]


def _lines(paragraphs: tuple[str, ...]) -> Iterator[str]:
    """Wrapped body lines forever (the paragraphs cycle), a blank line between paragraphs."""
    for para in itertools.cycle(paragraphs):
        yield from textwrap.wrap(para, WRAP, break_long_words=True, break_on_hyphens=False)
        yield ""


def build_pdf(pages: int = DEFAULT_PAGES) -> bytes:
    """Build the synthetic book and return its PDF bytes.

    Args:
        pages (int): number of pages (at least 1); chapters start every ``PAGES_PER_CHAPTER``.

    Returns:
        bytes: a PDF whose bytes depend only on ``pages`` and the sample books.

    Raises:
        ValueError: ``pages`` is below 1.
    """
    if pages < 1:
        raise ValueError(f"pages must be at least 1, got {pages}")
    titles = itertools.cycle(chapter_titles())
    lines = _lines(source_paragraphs())
    doc = pymupdf.open()
    toc: list[list] = []
    chapter = 0
    chapter_title = ""
    for number in range(1, pages + 1):
        page = doc.new_page(width=PAGE_W, height=PAGE_H)
        y = MARGIN
        body_lines = LINES_PER_PAGE
        if (number - 1) % PAGES_PER_CHAPTER == 0:
            chapter += 1
            chapter_title = next(titles)
            page.insert_text((MARGIN, y + 10), f"Chapter {chapter}", fontname="hebo", fontsize=14)
            page.insert_text((MARGIN, y + 40), chapter_title, fontname="hebo", fontsize=22)
            toc.append([1, f"Chapter {chapter}. {chapter_title}", number])
            y += 72
            body_lines -= 5
        else:
            page.insert_text((MARGIN, 48), f"Chapter {chapter}. {chapter_title}", fontname="helv", fontsize=8)
        body = [next(lines) for _ in range(body_lines)]
        section = _section_on(number)
        if section:
            # NOTE: a section starts a third of the way down the page, so its heading is mid-page.
            cut = body_lines // 3
            y = _insert_lines(page, y, body[:cut])
            title = f"{chapter}.{section} {next(titles)}"
            page.insert_text((MARGIN, y + LEADING * 1.5), title, fontname="hebo", fontsize=12)
            toc.append(
                [
                    2,
                    title,
                    number,
                    {
                        "kind": pymupdf.LINK_GOTO,
                        "page": number - 1,
                        "to": pymupdf.Point(MARGIN, y),
                        "zoom": 0,
                    },
                ]
            )
            y += LEADING * 1.5
            body = body[cut:-1]
        _insert_lines(page, y, body)
        # NOTE: the footer is written last, so text extraction finds it at the end of the page.
        page.insert_text((PAGE_W / 2, PAGE_H - 40), str(number), fontname="helv", fontsize=8)
    doc.set_toc(toc)
    doc.set_metadata(
        {
            "title": f"Synthetic Sample-Book Compendium ({pages} pages)",
            "producer": "bench/synthetic.py",
            "creator": "bench/synthetic.py",
            "creationDate": "",
            "modDate": "",
        }
    )
    data = doc.tobytes(garbage=3, deflate=True, no_new_id=True)
    doc.close()
    return data


def _insert_lines(page: pymupdf.Page, y: float, lines: list[str]) -> float:
    """Write body lines below ``y`` in one call (one call per line is 15x slower); return the new y."""
    if lines:
        page.insert_text(
            (MARGIN, y + LEADING), lines, fontname="helv", fontsize=BODY_SIZE, lineheight=LEADING / BODY_SIZE
        )
    return y + LEADING * len(lines)


def _section_on(page_number: int) -> int:
    """Section number (1 or 2) that starts on this page, 0 when none: pages 6 and 14 of a chapter."""
    offset = (page_number - 1) % PAGES_PER_CHAPTER
    return {5: 1, 13: 2}.get(offset, 0)


def write_book(path: str | Path, pages: int = DEFAULT_PAGES) -> Path:
    """Write the synthetic book to ``path`` atomically; return the path.

    Args:
        path (str | Path): target file (``.pdf``); its folder is created.
        pages (int): number of pages.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(build_pdf(pages))
    tmp.replace(path)
    return path


def cached_book(cache_dir: str | Path, pages: int = DEFAULT_PAGES) -> Path:
    """The synthetic book of ``pages`` pages in ``cache_dir``, written on first use.

    The file name carries the page count, the generator version and a digest of the sample books,
    so a stale cache is never used.
    """
    digest = hashlib.sha256()
    for name in SOURCE_BOOKS:
        digest.update((SAMPLES / f"{name}.pdf").read_bytes())
    name = f"synthetic-{pages}p-v{GENERATOR_VERSION}-{digest.hexdigest()[:12]}.pdf"
    path = Path(cache_dir) / name
    return path if path.exists() else write_book(path, pages)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="PDF file to write")
    parser.add_argument("--pages", type=int, default=DEFAULT_PAGES)
    args = parser.parse_args()
    path = write_book(args.out, args.pages)
    print(f"{path}: {args.pages} pages, {path.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
