"""The structure stage sees a typed layout view of the book, never the reader's open PDF."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pymupdf
import pytest

from chunking.readers.layout import PdfLayout
from chunking.readers.pdfchild import BoundedPdf, PageLimits
from chunking.readers.pdf import read_pdf

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def layout() -> Iterator[PdfLayout]:
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=600)
    page.insert_text((50, 60), "Chapter One", fontsize=20, fontname="hebo")
    page.insert_text((80, 100), "plain body text", fontsize=10)
    page.insert_text((50, 500), "low on the page", fontsize=10)
    data = doc.tobytes()
    layout = PdfLayout(pymupdf.open(stream=data, filetype="pdf"), BoundedPdf(data, PageLimits()))
    yield layout
    layout.close()


def test_layout_lines_carry_size_weight_and_left_edge(layout: PdfLayout):
    lines = layout.lines(0)
    assert [ln.text for ln in lines] == ["Chapter One", "plain body text", "low on the page"]
    assert [round(ln.size) for ln in lines] == [20, 10, 10]
    assert [ln.bold for ln in lines] == [True, False, False]
    assert lines[1].x0 == pytest.approx(80, abs=1)


def test_a_top_share_reads_only_the_top_of_the_page(layout: PdfLayout):
    assert [ln.text for ln in layout.lines(0, top_share=0.4)] == ["Chapter One", "plain body text"]


def test_blocks_and_heights_are_in_points_from_the_page_top(layout: PdfLayout):
    tops = {b.text.strip(): b.y0 for b in layout.blocks(0)}
    assert tops["Chapter One"] < tops["plain body text"] < tops["low on the page"]
    assert layout.page_height(0) == 600 and layout.page_count == 1


def test_a_pdf_reader_offers_a_layout_and_other_formats_none():
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "text")
    raw = read_pdf(doc.tobytes(), "x.pdf")
    try:
        assert raw.layout is not None and raw.layout.page_count == 1
    finally:
        raw.close()


def test_the_structure_stage_never_touches_pymupdf_or_the_readers_document():
    found = []
    for path in sorted((ROOT / "chunking" / "structure").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                found += [f"{path.name}:{node.lineno} imports {n}" for n in names if n.split(".")[0] == "pymupdf"]
            if isinstance(node, ast.Attribute) and node.attr == "pdf":
                found.append(f"{path.name}:{node.lineno} reads .pdf")
    assert found == []
