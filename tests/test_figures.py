"""inspector.figures: every figure's data equals what the chunks and the book say, and its layout
stays readable (labels that fit and never overlap, bounded heights, categorical legends)."""

from __future__ import annotations

import html
import json

import numpy as np
import pytest
from handmade_books import four_page_book, make_book, make_chunks
from many_chapters import write_many_chapters_book

from chunking import rules
from chunking.analysis.scorecard import scorecard
from chunking.ingest import load_book
from chunking.models import END_REASONS, Book, Chunk
from chunking.policy import Policy
from chunking.strategies import chunk_book
from chunking.tokens import tokenize
from inspector import figures, palette
from inspector.figures import label_fit
from inspector.figures.boundary_minimap import (
    BAND_BOTTOM,
    BAND_TOP,
    DENSITY_TOP,
    MINIMAP_BINS,
    MINIMAP_PREFIX,
    map_yaxis,
)


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
    chunks = make_chunks(
        book,
        [(0, 120), (90, 200), (202, 252), (252, 302)],
        chapters=["One", "One", "One", "Two"],
        reasons=["token_limit"] * 2 + ["fence", "book_end"],
    )
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


def test_chapter_bands_shade_every_other_chapter_across_all_rows(book: Book) -> None:
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
    chunks = make_chunks(
        book, [(0, 120), (202, 302)], chapters=["One", "Two"], reasons=["token_limit", "book_end"]
    )
    fig = figures.boundaries_figure(book, chunks)
    hover = {row[0]: list(row) for t in chunk_traces(fig) for row in t.customdata}
    for c in chunks:
        assert hover[c.order] == [
            c.order,
            c.id[:12],
            hover[c.order][2],
            c.token_count,
            c.chapter,
            "–",
            c.end_reason,
            "",  # no text from OCR: no OCR line
        ]
    assert hover[0][2] == "1 (p. 11) – 2 (p. 12)" and hover[1][2] == "4 (p. 14)"
    for t in chunk_traces(fig):
        assert [f"%{{customdata[{k}]}}" in t.hovertemplate for k in range(8)] == [True] * 8


def test_selected_chunk_alone_is_outlined_on_a_trace_outside_the_legend(book: Book) -> None:
    chunks = make_chunks(book, [(0, 120), (90, 200), (202, 302)], reasons=["token_limit"] * 2 + ["book_end"])
    fig = figures.boundaries_figure(book, chunks, selected=1)
    (outline,) = [t for t in fig.data if t.name == figures.SELECTED_TRACE]
    assert [row[0] for row in outline.customdata] == [1] and outline.marker.line.width == 3
    assert outline.showlegend is False
    assert list(outline.base) == [
        b for t in chunk_traces(fig) for b, row in zip(t.base, t.customdata) if row[0] == 1
    ]


def test_no_legend_entry_wears_the_selection_outline(book: Book) -> None:
    chunks = make_chunks(book, [(0, 120), (90, 200), (202, 302)], reasons=["token_limit"] * 2 + ["book_end"])
    for selected in (0, 1, 2):
        fig = figures.boundaries_figure(book, chunks, selected=selected)
        legend = [t for t in fig.data if t.showlegend is not False]
        assert {t.name for t in legend} == {"token_limit", "book_end"}
        assert all(t.marker.line.width == 0 for t in legend)  # a scalar: the swatch has no outline


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


# ------------------------------------------------------------------ a long book with parts
@pytest.fixture(scope="module")
def many(tmp_path_factory):
    """The generated 400-chapter book (parts above chapters, tiny chapters), read for real, and
    its tokens, cut by chapter-window and by fixed-window."""
    path = write_many_chapters_book(tmp_path_factory.mktemp("many") / "many.pdf")
    book = load_book(path)
    tokenized = tokenize(book)
    policies = {s: Policy(strategy=s) for s in ("chapter-window", "fixed-window")}
    return book, tokenized, {s: (p, chunk_book(tokenized, p)) for s, p in policies.items()}


def shown_label_extents(fig, row: str, plot_px: float) -> list[tuple[float, float, float]]:
    """(left, right, end of its room) in pages of every label the figure draws on ``row``: a bar's
    label starts at its base (inside, anchored at the start), a continued unit's annotation at
    the visible range's left edge; each is as wide as its estimated text plus plotly's padding."""
    (trace,) = [t for t in fig.data if t.name == row]
    x0, x1 = fig.layout.xaxis.range
    per_page = plot_px / (x1 - x0)

    def width(text: str) -> float:
        return (label_fit.text_width_px(html.unescape(text)) + label_fit.INSIDE_PAD_PX) / per_page

    out = [
        (base, base + width(text), min(base + size, x1))
        for base, size, text in zip(trace.base, trace.x, trace.text)
        if text
    ]
    for note in fig.layout.annotations:
        if note.name == f"{row} continued":
            (room,) = [min(b + w, x1) for b, w in zip(trace.base, trace.x) if b < note.x < b + w]
            out.append((note.x, note.x + width(note.text), room))
    return out


@pytest.mark.parametrize("page_range", [None, (1, 60), (200, 230), (400, 412)])
def test_shown_chapter_and_part_labels_fit_their_bars_and_never_overlap(many, page_range) -> None:
    book, _, runs = many
    fig = figures.boundaries_figure(book, runs["chapter-window"][1], page_range=page_range, plot_px=900)
    shown = 0
    for row in ("Parts", "Chapters"):
        extents = shown_label_extents(fig, row, 900)
        assert all(right <= end + 1e-9 for _, right, end in extents), row  # inside its own bar
        assert all(left >= fig.layout.xaxis.range[0] - 1e-9 for left, _, _ in extents), row
        assert label_fit.overlapping([(a, b) for a, b, _ in extents]) == [], row
        shown += len(extents)
    assert shown > 0  # at every zoom something is labelled (parts at least)


def test_a_zoomed_view_names_the_part_it_sits_in(many) -> None:
    book, _, runs = many
    parts, _ = figures.structure_units(book)
    inside = parts[3]
    x0 = (inside.start + inside.end) / 2
    fig = figures.boundaries_figure(book, runs["chapter-window"][1], page_range=(x0, x0 + 10))
    (note,) = [a for a in fig.layout.annotations if a.name == "Parts continued"]
    assert note.x == x0 and note.text.startswith(f"Part {inside.heading.number}")


def test_zooming_in_labels_more_chapters(many) -> None:
    book, _, runs = many
    chunks = runs["chapter-window"][1]
    counts = [
        sum(
            bool(t)
            for t in next(
                t for t in figures.boundaries_figure(book, chunks, page_range=r).data if t.name == "Chapters"
            ).text
        )
        for r in [None, (1, 200), (1, 40)]
    ]
    assert counts[0] < counts[1] < counts[2]


def test_parts_sit_in_a_row_above_chapters_and_chapters_end_where_a_part_starts(many) -> None:
    book, _, runs = many
    fig = figures.boundaries_figure(book, runs["chapter-window"][1])
    rows = list(map_yaxis(fig).categoryarray)[::-1]  # top first
    assert rows[:2] == ["Parts", "Chapters"] and rows[2] == "Lane 1"
    parts, chapters = figures.structure_units(book)
    assert [u.heading.kind for u in parts] == ["part"] * len([h for h in book.headings if h.kind == "part"])
    assert len(chapters) == len(rules.chapter_headings(book))
    part_starts = {u.start for u in parts}
    for a, b in zip(chapters, chapters[1:]):
        nxt = min([s for s in part_starts if a.start < s <= b.start], default=b.start)
        assert a.end == pytest.approx(nxt)


def test_every_unit_keeps_its_full_title_in_hover(many) -> None:
    book, _, runs = many
    fig = figures.boundaries_figure(book, runs["chapter-window"][1])
    (chap,) = [t for t in fig.data if t.name == "Chapters"]
    titles = [f"{h.number} {h.title}" for h in rules.chapter_headings(book)]
    assert [row[0].split("</b>")[0].removeprefix("<b>") for row in chap.customdata] == titles


def test_a_long_book_gets_a_minimap_of_the_whole_book_and_a_short_one_none(many, book: Book) -> None:
    long_book, _, runs = many
    fig = figures.boundaries_figure(long_book, runs["chapter-window"][1], page_range=(100, 150))
    slider = fig.layout.xaxis.rangeslider
    assert slider.visible and list(slider.range) == [1, len(long_book.pages) + 1]
    assert list(fig.layout.xaxis.range) == [100, 150]  # the window the minimap shows
    short = figures.boundaries_figure(book, make_chunks(book, [(0, 302)]))
    assert not short.layout.xaxis.rangeslider.visible


def test_the_minimap_draws_light_traces_and_never_the_chunk_bars_again(many) -> None:
    # plotly's range slider redraws every trace on its x axis: only the minimap's may be there
    book, _, runs = many
    chunks = runs["chapter-window"][1]
    fig = figures.boundaries_figure(book, chunks, page_range=(100, 150), selected=chunks[3].order)
    on_x = [t for t in fig.data if (t.xaxis or "x") == "x"]
    assert on_x and all(t.type == "scatter" and t.name.startswith(MINIMAP_PREFIX) for t in on_x)
    assert sum(len(t.x) for t in on_x) <= MINIMAP_BINS + 2 * len(book.headings) + 8  # not per chunk
    rest = [t for t in fig.data if t not in on_x]
    assert {t.xaxis for t in rest} == {"x2"} and sum(
        len(chunk_traces(fig)[k].x) for k in range(len(chunk_traces(fig)))
    ) == len(chunks)
    assert fig.layout.xaxis2.matches == "x" and fig.layout.xaxis2.overlaying == "x"
    # the map's rows sit on their own y axis; the minimap's y shows nothing in the main plot
    assert {t.yaxis for t in rest} == {"y2"} and list(map_yaxis(fig).categoryarray)[-1] == "Parts"
    lo, hi = fig.layout.yaxis.range
    assert all(not lo <= y <= hi for t in on_x for y in t.y)
    assert tuple(fig.layout.xaxis.rangeslider.yaxis.range) == (0, 1)
    notes = fig.layout.annotations  # a continued part's label sits on the map's rows too
    assert (
        notes
        and {n.yref for n in notes} == {"y2"}
        and {n.y for n in notes} <= set(map_yaxis(fig).categoryarray)
    )


def test_the_minimap_band_alternates_at_unit_starts_and_density_peaks_at_the_densest_bin(many) -> None:
    book, _, runs = many
    chunks = runs["fixed-window"][1]
    fig = figures.boundaries_figure(book, chunks)
    (band,) = [t for t in fig.data if t.name == MINIMAP_PREFIX + "band"]
    parts, chapters = figures.structure_units(book)
    starts = list(band.x[1:-1])  # one level's units: chapters, or parts when chapters are too thin
    assert starts in ([u.start for u in parts], [u.start for u in chapters])
    shaded = starts
    assert list(band.y[1:-1]) == [BAND_TOP if k % 2 == 0 else BAND_BOTTOM for k in range(len(shaded))]
    (density,) = [t for t in fig.data if t.name == MINIMAP_PREFIX + "chunk starts"]
    assert max(density.y) == DENSITY_TOP and min(density.y) >= 0 and len(density.x) <= MINIMAP_BINS + 1


def test_a_dense_chapters_row_is_grouped_into_labelled_bands_that_never_overlap(many) -> None:
    book, _, runs = many
    _, chapters = figures.structure_units(book)
    fig = figures.boundaries_figure(book, runs["chapter-window"][1], plot_px=900)
    (chap,) = [t for t in fig.data if t.name == "Chapters"]
    assert len(chap.base) == len(chapters) and all(h for h in chap.customdata)  # every chapter keeps its hover
    notes = [a for a in fig.layout.annotations if a.name == "Chapters groups"]
    assert len(notes) >= 8 and all(a.text for a in notes)  # the 400-chapter row is no unlabelled wash
    groups = figures.chapter_groups(chapters, tuple(fig.layout.xaxis.range), 900)
    assert [k for g in groups for k in g] == list(range(len(chapters)))  # every chapter in one group, in order
    px = 900 / (fig.layout.xaxis.range[1] - fig.layout.xaxis.range[0])
    extents = [(a.x - label_fit.text_width_px(a.text) / 2 / px, a.x + label_fit.text_width_px(a.text) / 2 / px)
               for a in notes]
    assert not label_fit.overlapping(extents)
    first = chapters[groups[0][0]].heading.number or "#1"
    assert notes[0].text.startswith(f"Ch. {first}–") or notes[0].text.startswith(f"{first}–")


def test_part_labels_come_from_the_structures_titles_and_never_shrink_to_a_bare_number() -> None:
    from chunking.models import Heading

    def part(number: str, title: str) -> Heading:
        return Heading(level=1, kind="part", title=title, number=number, page=1, page_label="", char_offset=0,
                       source="outline")

    assert figures.boundary.label_variants(part("III", "Methods")) == ["Part III: Methods", "Part III"]
    assert figures.boundary.label_variants(part("I", "Part I Foundations")) == ["Part I Foundations", "Part I"]
    for h in (part("III", "Methods"), part("", "Appendices")):
        assert h.number not in figures.boundary.label_variants(h)[1:] or not h.number
        assert label_fit.fit_label(figures.boundary.label_variants(h), 30) in ("", "Part III")


def test_dense_chapters_are_not_shaded_into_a_barcode(many) -> None:
    book, _, runs = many
    parts, _ = figures.structure_units(book)
    fig = figures.boundaries_figure(book, runs["chapter-window"][1], plot_px=900)
    (bands,) = [t for t in fig.data if t.name == "chapter bands"]
    assert list(bands.base) == [u.start for u in parts[::2]]  # chapters ~2 px wide: parts shaded
    (chap,) = [t for t in fig.data if t.name == "Chapters"]
    # not alternating greys 2 px apart: runs of one fill (a group of chapters) at least 56 px wide
    runs_px, start = [], 0
    colours = list(chap.marker.color)
    for k in range(1, len(colours) + 1):
        if k == len(colours) or colours[k] != colours[start]:
            runs_px.append((chap.base[k - 1] + chap.x[k - 1] - chap.base[start]) * 900 / (fig.layout.xaxis.range[1] - 1))
            start = k
    assert len(runs_px) > 1 and min(runs_px) >= figures.GROUP_MIN_PX - 1e-6
    zoomed = figures.boundaries_figure(book, runs["chapter-window"][1], page_range=(1, 30), plot_px=900)
    (bands,) = [t for t in zoomed.data if t.name == "chapter bands"]
    assert len(bands.base) > len(parts)  # zoomed in, chapters are wide enough to shade
    (chap,) = [t for t in zoomed.data if t.name == "Chapters"]
    assert len(set(chap.marker.color)) == 2  # and to tell apart by alternating fills


# ------------------------------------------------------------------------ label fitting
def test_fit_label_takes_the_longest_variant_that_fits() -> None:
    full, number = "12 A rather long chapter title", "12"
    wide = label_fit.text_width_px(full) + label_fit.INSIDE_PAD_PX
    assert label_fit.fit_label([full, number], wide) == full
    short = label_fit.fit_label([full, number], wide / 2)
    assert short.endswith(label_fit.ELLIPSIS) and full.startswith(short[:-1])
    assert label_fit.text_width_px(short) + label_fit.INSIDE_PAD_PX <= wide / 2
    assert (
        label_fit.fit_label([full, number], label_fit.text_width_px("12") + label_fit.INSIDE_PAD_PX) == "12"
    )
    assert label_fit.fit_label([full, number], 3) == ""


def test_overlapping_finds_every_overlap_even_behind_a_long_interval() -> None:
    assert label_fit.overlapping([(0, 10), (2, 3), (5, 6)]) == [(0, 1), (0, 2)]
    assert label_fit.overlapping([(0, 1), (1, 2)]) == []


# ----------------------------------------------------------------- overlap per boundary
def test_overlap_per_boundary_is_the_shared_tokens_split_by_the_fence_rule(many) -> None:
    book, tokenized, runs = many
    policy, chunks = runs["fixed-window"]
    fig = figures.overlap_per_boundary_figure(book, chunks)
    traces = {t.name: t for t in fig.data}
    fences = rules.fence_offsets(book)
    for name, want_across in (("inside a chapter", False), ("across a chapter boundary", True)):
        for order, shared in zip((row[0] for row in traces[name].customdata), traces[name].y):
            prev, cur = chunks[order - 1], chunks[order]
            assert shared == min(prev.token_end, cur.token_end) - cur.token_start > 0
            joint = (min(prev.char_start, cur.char_start), max(prev.char_end, cur.char_end))
            assert rules.crosses_fence(book.text, *joint, fences) is want_across
    score = scorecard(chunks, tokenized, policy)
    assert sum(traces["across a chapter boundary"].y) == score["cross_chapter_overlap_tokens"] > 0
    n = sum(len(t.y) for t in fig.data)
    assert n == len(chunks) - 1  # one mark per boundary


def test_chapter_window_overlap_never_crosses_a_chapter(many) -> None:
    book, _, runs = many
    fig = figures.overlap_per_boundary_figure(book, runs["chapter-window"][1])
    traces = {t.name: t for t in fig.data}
    assert len(traces["across a chapter boundary"].y) == 0 and len(traces["inside a chapter"].y) > 0
    assert "page" in fig.layout.xaxis.title.text and "token" in fig.layout.yaxis.title.text


# ------------------------------------------------------------------------ banded matrix
def test_banded_matrix_holds_shared_tokens_near_the_diagonal_only(book: Book) -> None:
    chunks = make_chunks(book, [(0, 60), (40, 120), (100, 200), (150, 230), (202, 302)])
    m = figures.banded_matrix(chunks, band=2)
    full = brute_force_shared(chunks)
    for i in range(len(chunks)):
        for j in range(len(chunks)):
            if 0 < abs(i - j) <= 2:
                assert m[i, j] == full[i, j]
            else:
                assert np.isnan(m[i, j])


def test_banded_figure_marks_pairs_that_span_a_chapter(book: Book) -> None:
    # chapter Two starts at offset 252: chunks 0-1 and 1-2 overlap inside One; 2-3 share text in
    # One, but chunk 3 runs on into Two, so their pair spans the boundary.
    chunks = make_chunks(book, [(0, 120), (100, 240), (230, 250), (240, 302)])
    fig = figures.banded_overlap_figure(book, chunks, band=2)
    heat, marks, _ = fig.data
    z = np.array(json.loads(fig.to_json())["data"][0]["z"], dtype=float)
    assert np.array_equal(z, figures.banded_matrix(chunks, 2), equal_nan=True)
    assert marks.name == "across a chapter boundary"
    assert sorted(zip(marks.y, marks.x)) == [(2, 3), (3, 2)]


def test_banded_figure_marks_the_chunk_where_each_chapter_starts(book: Book) -> None:
    # chapter One starts at 0 (chunk 0), chapter Two at offset 252 (inside chunk 3)
    chunks = make_chunks(book, [(0, 120), (100, 240), (230, 250), (240, 302)])
    fig = figures.banded_overlap_figure(book, chunks, band=2)
    (starts,) = [t for t in fig.data if t.name == "chapter starts"]
    titles = {h.char_offset: h.title for h in book.headings}
    assert list(starts.x) == list(starts.y) == [0, 3]
    assert list(starts.customdata) == [titles[0], titles[252]]
    # dotted lines before chunk 3, across the whole matrix, both ways (none before the first chunk)
    lines = {(s.x0, s.x1, s.y0, s.y1) for s in fig.layout.shapes}
    assert lines == {(2.5, 2.5, -0.5, 3.5), (-0.5, 3.5, 2.5, 2.5)}
    # a range that starts after chapter One's start marks only what starts inside it
    later = figures.banded_overlap_figure(book, chunks[1:], band=2)
    (starts,) = [t for t in later.data if t.name == "chapter starts"]
    assert list(starts.x) == [3]


# ------------------------------------------------------------------------- coverage map
def test_coverage_legend_is_three_categories_not_a_gradient(book: Book) -> None:
    fig = figures.coverage_figure(book, make_chunks(book, [(0, 50), (40, 50), (101, 201)]), columns=10)
    heat = fig.data[0]
    assert heat.showscale is False
    legend = [t for t in fig.data if t.type == "scatter" and t.showlegend is not False]
    assert [t.name for t in legend] == ["lost (in no chunk)", "in one chunk", "overlapped (2+ chunks)"]
    # each category value 0, 1, 2 is drawn in its legend colour exactly (grouped rows of a long
    # book grade from 1 to 2 between "in one chunk" and "overlapped")
    scale = [(float(v), c) for v, c in heat.colorscale]
    lo, hi = heat.zmin, heat.zmax
    for value, entry in enumerate(legend):
        at = (value - lo) / (hi - lo)
        colours = {c0 if c0 == c1 else c0 if at == v0 else c1 if at == v1 else "a mix"
                   for (v0, c0), (v1, c1) in zip(scale, scale[1:]) if v0 <= at <= v1}
        assert colours == {entry.marker.color}


def test_coverage_x_axis_says_its_unit(book: Book) -> None:
    fig = figures.coverage_figure(book, make_chunks(book, [(0, 302)]), columns=10)
    assert "%" in fig.layout.xaxis.title.text and list(fig.layout.xaxis.range) == [0, 100]


def test_coverage_height_is_bounded_on_a_2000_page_book() -> None:
    pages = [f"page {k} " + "x" * 60 for k in range(2000)]
    long_book = make_book(pages, [(p, 0, f"Chapter at {p}") for p in range(1, 2001, 5)])
    chunks = make_chunks(
        long_book, [(0, len(long_book.text) // 2), (len(long_book.text) // 2 - 10, len(long_book.text))]
    )
    fig = figures.coverage_figure(long_book, chunks)
    assert fig.layout.height <= 1200
    assert len(fig.data[0].z) <= figures.MAX_COVERAGE_ROWS
    assert "rows of" in fig.layout.yaxis.title.text  # rows are groups of pages, and it says so
    # the one overlapped page shows in its grouped row as a share, between "once" and "overlapped"
    shares = [v for row in fig.data[0].z for v in row if v is not None and 1 < v < 2]
    assert shares and "pages overlapped" in str(fig.data[0].customdata)
    stops = [tuple(stop) for stop in fig.data[0].colorscale]
    assert (0.5, palette.ONCE) in stops and (5 / 6, palette.OVERLAP) in stops  # a gradient between


def test_grouped_coverage_rows_never_hide_loss_and_colour_cells_by_their_overlap_share() -> None:
    grid = np.array([[1, 2, 1, 2], [0, 1, 1, 2], [np.nan, 1, 2, 1], [2, np.nan, np.nan, np.nan]], dtype=float)
    out = figures.group_rows(grid, 3)
    assert out[0][0] == 0  # loss wins
    assert out[0][1:].tolist() == [1 + 1 / 3, 1 + 1 / 3, 1 + 2 / 3]  # 1 + share of pages overlapped
    assert out[1][0] == 2 and np.isnan(out[1][1:]).all()


def test_a_long_book_with_some_overlap_everywhere_is_not_drawn_as_all_one_chunk() -> None:
    # every 7th page overlaps: a majority rule would paint every grouped row "in one chunk"
    grid = np.ones((700, 4))
    grid[::7] = 2
    out = figures.group_rows(grid, 7)
    assert np.allclose(out, 1 + 1 / 7)


def test_coverage_chapter_labels_sit_off_the_data_and_never_overlap(many) -> None:
    book, _, runs = many
    fig = figures.coverage_figure(book, runs["chapter-window"][1])
    notes = fig.layout.annotations
    assert notes and all(a.xref == "paper" and a.x >= 1 and a.xanchor == "left" for a in notes)
    assert fig.layout.margin.r >= max(label_fit.text_width_px(html.unescape(a.text)) for a in notes)
    height = figures.coverage_plot_px(fig.layout.height)
    rows = fig.data[0].y
    pitch = height / len(rows)
    first, size = rows[0], rows[1] - rows[0]
    centres = [((a.y - first) / size + 0.5) * pitch for a in notes]
    half = 15 / 2  # a line box at the label font size in chromium
    assert label_fit.overlapping([(c - half, c + half) for c in centres]) == []


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
    (marks,) = [t for t in fig.data if t.name == "chapter starts"]
    assert list(marks.y) == [1, 4] and list(marks.x) == pytest.approx([0, 50])


def test_book_strings_in_figures_are_escaped_for_plotlys_html_subset() -> None:
    book = make_book(["a" * 100], [(1, 0, '<a href="javascript:alert(1)">x</a>')])
    chunks = make_chunks(book, [(0, 100)], chapters=["<b>bold</b>"])
    fig = figures.boundaries_figure(book, chunks)
    (chap,) = [t for t in fig.data if t.name == "Chapters"]
    assert chap.text[0] == "1 &lt;a href=&quot;javascript:alert(1)&quot;&gt;x&lt;/a&gt;"
    assert "<a" not in chap.customdata[0][0] and "&lt;a href=" in chap.customdata[0][0]
    (bar,) = chunk_traces(fig)
    assert bar.customdata[0][4] == "&lt;b&gt;bold&lt;/b&gt;"
    cover = figures.coverage_figure(book, chunks)
    (marks,) = [t for t in cover.data if t.name == "chapter starts"]
    assert "<a" not in marks.customdata[0][0]
    assert all("<a" not in a.text for a in cover.layout.annotations)
    ovl = figures.overlap_per_boundary_figure(
        book, make_chunks(book, [(0, 60), (40, 100)], chapters=["<b>x", "y"])
    )
    assert all("<b>x" not in row[1] for t in ovl.data for row in t.customdata)
