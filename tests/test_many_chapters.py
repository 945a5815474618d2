"""tests/many_chapters.py: the generated long book is deterministic and has the shape it promises."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pymupdf
from many_chapters import many_chapters_pdf

from chunking import rules
from chunking.ingest import load_book

SCRIPT = Path(__file__).resolve().parent / "many_chapters.py"


def test_same_arguments_give_the_same_bytes() -> None:
    assert many_chapters_pdf(40, 4, 100) == many_chapters_pdf(40, 4, 100)
    assert many_chapters_pdf(40, 4, 100) != many_chapters_pdf(41, 4, 100)


def test_book_has_parts_above_chapters_an_outline_and_tiny_chapters(tmp_path: Path) -> None:
    path = tmp_path / "many.pdf"
    path.write_bytes(many_chapters_pdf(60, 5, 150))
    with pymupdf.open(path) as doc:
        assert doc.page_count == 150
        assert Counter(level for level, *_ in doc.get_toc()) == {1: 5, 2: 60}
    book = load_book(path)
    assert Counter(h.kind for h in rules.fence_headings(book)) == {"part": 5, "chapter": 60}
    pages = [h.page for h in rules.chapter_headings(book)] + [151]
    lengths = [b - a for a, b in zip(pages, pages[1:])]
    assert min(lengths) == 1 and max(lengths) >= 4  # tiny chapters among long ones


def test_cli_writes_the_book_and_refuses_impossible_sizes(tmp_path: Path) -> None:
    out = tmp_path / "cli.pdf"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(out), "--chapters", "10", "--parts", "2", "--pages", "30"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0 and out.read_bytes() == many_chapters_pdf(10, 2, 30)
    bad = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path / "x.pdf"), "--chapters", "50", "--pages", "20"],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
