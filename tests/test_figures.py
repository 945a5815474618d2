"""inspector.figures: every figure's data equals what the chunks and the book say."""

from __future__ import annotations

import json

import numpy as np
import pytest
from handmade_books import four_page_book, make_book, make_chunks

from chunking.models import END_REASONS, Book, Chunk
from inspector import figures


def chunk_traces(fig) -> list:
    """The chunk bar traces (one per end reason), not the chapter row or its bands."""
    return [t for t in fig.data if t.name in END_REASONS]


@pytest.fixture
def book() -> Book:
    return four_page_book()


def test_page_positions_floor_is_the_physical_page(book: Book) -> None:
    chars = [0, 99, 101, 200, 202, 252, 301]
    pos = figures.page_positions(book, chars)
    assert [int(p) for p in pos] == [1, 1, 2, 2, 4, 4, 4]
    assert pos[0] == 1.0 and 4.49 < pos[5] < 4.51


def test_boundary_bars_sit_on_their_chunks_pages_and_carry_their_order(book: Book) -> None:
    chunks = make_chunks(book, [(0, 120), (90, 200), (202, 252), (252, 302)],
                         chapters=["One", "One", "One", "Two"],
                         reasons=["token_limit"] * 2 + ["fence", "book_end"])
    fig = figures.boundaries_figure(book, chunks)
    bars = chunk_traces(fig)
    assert {t.name for t in bars} == {"token_limit", "fence", "book_end"}
    seen = {}
    for t in bars:
        for base, length, row in zip(t.base, t.x, t.customdata):
            seen[row[0]] = (base, base + length)
    assert sorted(seen) == [c.order for c in chunks]
    for c in chunks:
        base, end = seen[c.order]
        assert int(base) == c.page_start and int(end) == c.page_end


def test_overlapping_neighbours_get_different_lanes(book: Book) -> None:
    chunks = make_chunks(book, [(0, 120), (90, 200), (190, 302)])
    lanes = figures.chunk_lanes(chunks)
    assert lanes[0] != lanes[1] and lanes[1] != lanes[2]
    fig = figures.boundaries_figure(book, chunks)
    rows = {row[0]: y for t in chunk_traces(fig) for y, row in zip(t.y, t.customdata)}
    assert rows[0] != rows[1] and rows[1] != rows[2]


def test_chapter_bands_start_at_each_chapter_heading(book: Book) -> None:
    fig = figures.boundaries_figure(book, make_chunks(book, [(0, 302)]))
    (chap,) = [t for t in fig.data if t.name == "Chapters"]
    assert [int(b) for b in chap.base] == [h.page for h in book.headings]
    assert list(chap.text) == ["1 One", "2 Two"]
    assert chap.base[1] == pytest.approx(4.5)


def test_chapter_bands_shade_every_other_unit_across_all_rows(book: Book) -> None:
    chunks = make_chunks(book, [(0, 120), (90, 200), (190, 302)])
    fig = figures.boundaries_figure(book, chunks)
    (chap,) = [t for t in fig.data if t.name == "Chapters"]
    (bands,) = [t for t in fig.data if t.name == "chapter bands"]
    assert list(bands.base) == list(chap.base[::2]) and list(bands.x) == list(chap.x[::2])
    rows = list(fig.layout.yaxis.categoryarray)
    assert rows[-1] == "Chapters" and len(rows) == 1 + len(set(figures.chunk_lanes(chunks)))
    # placed on the top row and stretched down: the band covers category positions -0.5 … top + 0.5
    top = len(rows) - 1
    assert (top + bands.offset, top + bands.offset + bands.width) == (-0.5, top + 0.5)
    assert bands.hoverinfo == "skip" and not fig.layout.shapes
    assert fig.data[0] is bands  # drawn first, under the chunk bars


def test_chunk_hover_names_id_pages_tokens_chapter_section_and_end_reason(book: Book) -> None:
    chunks = make_chunks(book, [(0, 120), (202, 302)], chapters=["One", "Two"],
                         reasons=["token_limit", "book_end"])
    fig = figures.boundaries_figure(book, chunks)
    hover = {row[0]: list(row) for t in chunk_traces(fig) for row in t.customdata}
    for c in chunks:
        assert hover[c.order] == [c.order, c.id[:12], hover[c.order][2], c.token_count, c.chapter, "–",
                                  c.end_reason]
    assert hover[0][2] == "1 (p. 11) – 2 (p. 12)" and hover[1][2] == "4 (p. 14)"
    for t in chunk_traces(fig):
        assert [f"%{{customdata[{k}]}}" in t.hovertemplate for k in range(7)] == [True] * 7


def test_selected_chunk_alone_is_outlined(book: Book) -> None:
    chunks = make_chunks(book, [(0, 120), (90, 200), (202, 302)], reasons=["token_limit"] * 2 + ["book_end"])
    fig = figures.boundaries_figure(book, chunks, selected=1)
    widths = {row[0]: (t.marker.line.width if isinstance(t.marker.line.width, (int, float))
                       else t.marker.line.width[k]) for t in chunk_traces(fig) for k, row in enumerate(t.customdata)}
    assert widths == {0: 0, 1: 3, 2: 0}


def test_boundaries_zoom_sets_the_page_range(book: Book) -> None:
    fig = figures.boundaries_figure(book, make_chunks(book, [(0, 302)]), page_range=(2, 3))
    assert list(fig.layout.xaxis.range) == [2, 3]


def brute_force_shared(chunks: list[Chunk]) -> np.ndarray:
    n = len(chunks)
    m = np.zeros((n, n), dtype=np.int64)
    for i in range(n):
        for j in range(n):
            if i != j:
                a, b = chunks[i], chunks[j]
                m[i, j] = max(0, min(a.token_end, b.token_end) - max(a.token_start, b.token_start))
    return m


def test_heatmap_values_equal_shared_tokens_from_token_spans(book: Book) -> None:
    chunks = make_chunks(book, [(0, 60), (40, 120), (100, 200), (150, 230), (202, 302)])
    fig = figures.overlap_heatmap(chunks)
    z = np.array(json.loads(fig.to_json())["data"][0]["z"])
    assert (z == brute_force_shared(chunks)).all()


def test_heatmap_bins_sum_shared_tokens_when_large() -> None:
    text_pages = ["x" * 1000] * 3
    book = make_book(text_pages, [(1, 0, "One")])
    spans = [(s, min(s + 30, len(book.text))) for s in range(0, len(book.text) - 30, 20)]
    chunks = make_chunks(book, spans)
    om = figures.overlap_matrix(chunks, max_cells=20)
    assert om.values.shape[0] <= 20 and om.bin_size == -(-len(chunks) // 20)
    full = brute_force_shared(chunks)
    k = om.bin_size
    for a in range(om.values.shape[0]):
        for b in range(om.values.shape[0]):
            assert om.values[a, b] == full[a * k:(a + 1) * k, b * k:(b + 1) * k].sum()


def test_heatmap_marks_where_the_chapter_changes(book: Book) -> None:
    chunks = make_chunks(book, [(0, 120), (90, 252), (252, 302)], chapters=["One", "One", "Two"])
    fig = figures.overlap_heatmap(chunks)
    assert figures.chapter_changes(chunks) == [2]
    assert len(fig.layout.shapes) == 2 and fig.layout.shapes[0].x0 == 1.5


def test_coverage_grid_shows_lost_single_and_double_coverage(book: Book) -> None:
    # chars 0-49 once, 40-49 twice; 50-99 lost; page 2 once; page 4 none.
    chunks = make_chunks(book, [(0, 50), (40, 50), (101, 201)])
    grid = figures.coverage_grid(book, chunks, columns=10)
    assert grid.shape == (4, 10)
    assert list(grid[0]) == [1, 1, 1, 1, 2, 0, 0, 0, 0, 0]
    assert (grid[1] == 1).all()
    assert np.isnan(grid[2]).all()  # empty page
    assert (grid[3] == 0).all()


def test_coverage_figure_marks_chapter_starts(book: Book) -> None:
    fig = figures.coverage_figure(book, make_chunks(book, [(0, 302)]), columns=10)
    heat, marks = fig.data
    assert heat.type == "heatmap" and marks.name == "chapter starts"
    assert list(marks.y) == [1, 4] and list(marks.x) == pytest.approx([0, 5])


def test_book_strings_in_figures_are_escaped_for_plotlys_html_subset() -> None:
    book = make_book(["a" * 100], [(1, 0, '<a href="javascript:alert(1)">x</a>')])
    chunks = make_chunks(book, [(0, 100)], chapters=["<b>bold</b>"])
    fig = figures.boundaries_figure(book, chunks)
    (chap,) = [t for t in fig.data if t.name == "Chapters"]
    assert chap.text[0] == '1 &lt;a href=&quot;javascript:alert(1)&quot;&gt;x&lt;/a&gt;'
    (bar,) = chunk_traces(fig)
    assert bar.customdata[0][4] == "&lt;b&gt;bold&lt;/b&gt;"
    assert "<a" not in chap.customdata[0][0]
    marks = figures.coverage_figure(book, chunks).data[1]
    assert "<a" not in marks.text[0]
