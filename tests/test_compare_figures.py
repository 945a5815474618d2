"""Comparison figures: their plotly data match the chunk sets they were built from."""

from __future__ import annotations

import json
import re

import pytest
from test_scorecard import CH1, CH2, chunk_at, make_book

from chunking.tokens import tokenize
from inspector.figures.compare import boundary_strips, token_histograms
from inspector.figures import page_positions


@pytest.fixture(scope="module")
def book_and_sets():
    book = make_book(
        [CH1, CH2[:200], CH2[200:]], [("chapter", 1, "Chapter One."), ("chapter", 1, "Chapter Two.")]
    )
    tb = tokenize(book)
    n = tb.n_tokens
    fixed = [
        chunk_at(tb, 0, 0, n // 3),
        chunk_at(tb, 1, n // 3 - 5, 2 * n // 3, 5),
        chunk_at(tb, 2, 2 * n // 3 - 5, n, 5),
    ]
    b = tb.token_at_char(book.headings[1].char_offset)
    chapter = [chunk_at(tb, 0, 0, b), chunk_at(tb, 1, b, n)]
    return book, [("fixed-window", fixed), ("chapter-window", chapter)]


def spec(fig) -> dict:
    return json.loads(fig.to_json())


def test_boundary_strips_one_trace_per_policy_with_one_bar_per_chunk(book_and_sets):
    book, runs = book_and_sets
    data = spec(boundary_strips(book, runs))["data"]
    assert [t["name"] for t in data] == ["fixed-window", "chapter-window", "Chapters"]
    for trace, (_, chunks) in zip(data, runs):
        assert [row[0] for row in trace["customdata"]] == [c.order for c in chunks]
        starts = page_positions(book, [c.char_start for c in chunks])
        assert trace["base"] == pytest.approx([max(s, c.page_start) for s, c in zip(starts, chunks)])


def test_boundary_strips_share_one_page_axis_with_chapter_starts(book_and_sets):
    book, runs = book_and_sets
    fig = spec(boundary_strips(book, runs))
    chapters = fig["data"][-1]
    assert chapters["base"] == pytest.approx(
        page_positions(book, [h.char_offset for h in book.headings]).tolist()
    )
    # the chapter-window strip starts its second chunk exactly where chapter two starts
    assert fig["data"][1]["base"][1] == pytest.approx(chapters["base"][1])
    assert fig["layout"]["xaxis"]["range"] == [1, 4]
    assert fig["layout"]["yaxis"]["ticktext"] == ["chapter-window", "fixed-window", "Chapters"]


def test_neighbouring_chunks_sit_on_alternate_halves_of_a_strip(book_and_sets):
    book, runs = book_and_sets
    ys = spec(boundary_strips(book, runs))["data"][0]["y"]
    assert ys[0] > ys[1] < ys[2] and ys[0] == ys[2]


def test_token_histograms_overlay_every_chunk_size_on_shared_bins(book_and_sets):
    _, runs = book_and_sets
    fig = spec(token_histograms(runs, bin_tokens=25))
    assert fig["layout"]["barmode"] == "overlay"
    assert [t["x"] for t in fig["data"]] == [[c.token_count for c in chunks] for _, chunks in runs]
    assert {json.dumps(t["xbins"], sort_keys=True) for t in fig["data"]} == {
        json.dumps(
            {"end": max(c.token_count for _, cs in runs for c in cs) + 25, "size": 25, "start": 0},
            sort_keys=True,
        )
    }


def test_figures_accept_an_empty_chunk_set(book_and_sets):
    book, _ = book_and_sets
    assert spec(boundary_strips(book, [("none", [])]))["data"][0]["base"] == []
    assert spec(token_histograms([("none", [])]))["data"][0]["x"] == []


def test_book_strings_are_html_escaped_in_strip_text_and_hover():
    title = "<img src=x onerror=alert(1)>"
    book = make_book(
        [f"{title} intro. " * 5, "Chapter Two. Body."],
        [("chapter", 1, title), ("chapter", 1, "Chapter Two.")],
    )
    tb = tokenize(book)
    chunks = [chunk_at(tb, 0, 0, tb.n_tokens)]
    chunks = [chunks[0].__class__(**{**chunks[0].to_dict(), "heading_path": (), "chapter": title})]
    data = spec(boundary_strips(book, [("P1", chunks)]))["data"]
    assert "<img" not in json.dumps(data) and "&lt;img src=x onerror=alert(1)&gt;" in data[-1]["text"][0]
    assert data[0]["customdata"][0][4] == "&lt;img src=x onerror=alert(1)&gt;"


def test_a_policy_keeps_its_colour_by_name_whatever_its_position(book_and_sets):
    book, runs = book_and_sets
    forward = spec(boundary_strips(book, runs))["data"]
    backward = spec(boundary_strips(book, runs[::-1]))["data"]
    colours = {t["name"]: t["marker"]["color"] for t in forward[:2]}
    assert colours == {t["name"]: t["marker"]["color"] for t in backward[:2]}
    assert colours["fixed-window"] != colours["chapter-window"]
    hist = {t["name"]: t["marker"]["color"] for t in spec(token_histograms(runs[::-1]))["data"]}
    assert {name: colour[0] for name, colour in colours.items()} == hist
    # a page's numbering in front of the name does not change the colour (Compare's "P1: ...")
    numbered = [(f"P{k + 1}: {label}", chunks) for k, (label, chunks) in enumerate(runs[::-1])]
    assert spec(token_histograms(numbered))["data"][0]["marker"]["color"] == hist[runs[-1][0]]


def test_chapter_labels_show_only_where_they_fit_and_every_title_is_in_hover():
    from handmade_books import make_book as handmade_book
    from handmade_books import make_chunks

    from inspector.figures import label_fit

    book = handmade_book(
        [f"page {k} " + "x" * 80 for k in range(200)],
        [(p, 0, f"A chapter called number {p}") for p in range(1, 201)],
    )
    runs = [("chapter-window", make_chunks(book, [(0, len(book.text))]))]
    for page_range, some in ((None, False), ((1, 11), True)):
        fig = boundary_strips(book, runs, page_range=page_range, plot_px=900)
        (chapters,) = [t for t in fig.data if t.name == "Chapters"]
        x0, x1 = fig.layout.xaxis.range
        per_page = 900 / (x1 - x0)
        shown = [(b, w, t) for b, w, t in zip(chapters.base, chapters.x, chapters.text) if t]
        assert bool(shown) is some
        for base, width, text in shown:
            assert (label_fit.text_width_px(text) + label_fit.INSIDE_PAD_PX) / per_page <= width
        assert chapters.textangle == 0
        hover = [row[0].split("</b>")[0].removeprefix("<b>") for row in chapters.customdata]
        assert hover == [f"{h.number} {h.title}" for h in book.headings]


# ------------------------------------------------- a long book: the Boundaries map's rows, one rule
@pytest.fixture(scope="module")
def long_book(tmp_path_factory):
    """The generated 400-chapter book (20 parts, 1,000 pages), read for real, with one chunk per
    100,000 characters (the strips are not what these tests look at)."""
    from handmade_books import make_chunks
    from many_chapters import write_many_chapters_book

    from chunking.ingest import load_book

    book = load_book(write_many_chapters_book(tmp_path_factory.mktemp("long") / "many.pdf"))
    n = len(book.text)
    spans = [(a, min(a + 100_000, n)) for a in range(0, n, 100_000)]
    return book, [("P1: chapter-window", make_chunks(book, spans))]


def rows_of(fig) -> dict:
    """The Parts and Chapters traces of ``fig`` (name → trace)."""
    return {t.name: t for t in fig.data if t.name in ("Parts", "Chapters")}


@pytest.mark.parametrize("page_range", [None, (1, 200), (480, 490)])
def test_compare_draws_parts_and_chapters_as_the_boundaries_map_does(long_book, page_range):
    """Same units, labels, fills and range labels as Boundaries at the same range and width: the
    rows come from one function (``boundary.structure_rows``)."""
    from chunking.models import CHAPTER_LEVEL_KINDS
    from inspector.figures import boundaries_figure

    book, runs = long_book
    strips = boundary_strips(book, runs, page_range=page_range, plot_px=900)
    boundaries = boundaries_figure(book, runs[0][1], page_range=page_range, plot_px=900)
    ours, theirs = rows_of(strips), rows_of(boundaries)
    assert list(ours) == ["Parts", "Chapters"] == list(theirs)
    assert strips.data[-1].name == "Chapters"
    for name in ours:
        assert list(ours[name].base) == list(theirs[name].base)
        assert list(ours[name].text) == list(theirs[name].text)
        assert list(ours[name].marker.color) == list(theirs[name].marker.color)
    assert [(a.name, a.text, a.x) for a in strips.layout.annotations] == [
        (a.name, a.text, a.x) for a in boundaries.layout.annotations
    ]
    chapters = [h for h in book.headings if h.kind in CHAPTER_LEVEL_KINDS]
    assert len(ours["Chapters"].base) == len(chapters) == 400  # every chapter keeps its bar and hover
    ticks = list(strips.layout.yaxis.ticktext)
    assert ticks == ["P1: chapter-window", "Chapters", "Parts"]  # bottom to top
    for a in strips.layout.annotations:  # each label sits on its own row of the numeric y axis
        assert ticks[a.y] == (
            "Chapters" if a.name == "Chapters groups" else a.name.removesuffix(" continued")
        )


def test_a_400_chapter_row_is_grouped_into_labelled_bands_on_compare(long_book):
    from inspector.figures import GROUP_MIN_PX, chapter_groups, structure_units

    book, runs = long_book
    fig = boundary_strips(book, runs, plot_px=900)
    chapters = rows_of(fig)["Chapters"]
    assert not any(chapters.text)  # too thin to label one by one
    colours = list(chapters.marker.color)
    bands = [[0]]
    for k in range(1, len(colours)):
        if colours[k] == colours[bands[-1][-1]]:
            bands[-1].append(k)
        else:
            bands.append([k])
    _, units = structure_units(book)
    groups = chapter_groups(units, tuple(fig.layout.xaxis.range), 900)
    assert bands == groups and len(bands) >= 8  # readable bands, not one grey wash or a barcode
    per_page = 900 / (fig.layout.xaxis.range[1] - fig.layout.xaxis.range[0])
    widths = [(units[g[-1]].end - units[g[0]].start) * per_page for g in groups]
    assert min(widths) >= GROUP_MIN_PX - 1e-6
    notes = [a.text for a in fig.layout.annotations if a.name == "Chapters groups"]
    assert len(notes) == len(groups)  # one range label per band, by the chapters' own numbers
    for note, group in zip(notes, groups):
        m = re.match(r"^(?:Ch\. )?(\d+)–(\d+)$", note)
        assert m and m.groups() == (units[group[0]].heading.number, units[group[-1]].heading.number), note
    assert re.match(r"^(?:Ch\. )?1–", notes[0]) and notes[-1].endswith("–400")


def test_zooming_the_compare_strips_to_a_chapter_labels_it_and_back_regroups(long_book):
    """``zoom_strips`` (the page's zoom and "Jump to a chapter start") redraws the rows for the
    new range exactly as a figure built for that range, without touching the strips."""
    from inspector.figures import structure_units
    from inspector.figures.compare import zoom_strips

    book, runs = long_book
    fig = boundary_strips(book, runs, plot_px=900)
    strip = fig.data[0].to_plotly_json()
    _, units = structure_units(book)
    target = units[199]
    for page_range in ((target.heading.page - 2, target.heading.page + 3), None):
        whole = (1, len(book.pages) + 1)
        zoom_strips(fig, book, page_range or whole, plot_px=900)
        built = boundary_strips(book, runs, page_range=page_range or whole, plot_px=900)
        for name, trace in rows_of(built).items():
            assert list(rows_of(fig)[name].text) == list(trace.text)
            assert list(rows_of(fig)[name].marker.color) == list(trace.marker.color)
        assert fig.layout.annotations == built.layout.annotations
        assert fig.layout.shapes == built.layout.shapes  # chapters shaded zoomed in, parts on the whole book
        assert fig.data[0].to_plotly_json() == strip
        groups = [a for a in fig.layout.annotations if a.name == "Chapters groups"]
        if page_range:  # zoomed in: the chapter's own label, no range labels
            assert f"{target.heading.number} {target.heading.title}" in rows_of(fig)["Chapters"].text
            assert groups == []
        else:
            assert len(groups) >= 8
