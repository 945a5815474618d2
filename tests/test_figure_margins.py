"""Fixed figure margins (plotly's automatic margins off, so a figure is drawn in one pass): the
margins computed for the Boundaries and Compare figures still hold what sits in them."""

from __future__ import annotations

import pytest
from handmade_books import four_page_book, make_book, make_chunks

from inspector.figures.boundary import (
    MARGIN_TOP_PX,
    MINIMAP_AXIS_PX,
    MINIMAP_MIN_PAGES,
    MINIMAP_THICKNESS,
    TICK_CHAR_PX,
    boundaries_figure,
)
from inspector.figures.compare import boundary_strips, token_histograms


@pytest.fixture(scope="module")
def long_book():
    pages = ["text of the page. " * 20] * (MINIMAP_MIN_PAGES + 30)
    return make_book(pages, [(p, 0, f"Chapter at {p}") for p in range(1, len(pages), 10)])


def test_margins_are_fixed_so_plotly_draws_each_figure_once(long_book) -> None:
    chunks = make_chunks(long_book, [(0, len(long_book.text))])
    book = four_page_book()
    figs = [
        boundaries_figure(long_book, chunks),
        boundaries_figure(book, make_chunks(book, [(0, 302)])),
        boundary_strips(book, [("P1: a", make_chunks(book, [(0, 302)]))]),
        token_histograms([("P1: a", make_chunks(book, [(0, 302)]))]),
    ]
    assert [f.layout.margin.autoexpand for f in figs] == [False] * len(figs)
    assert all(f.layout.margin.t >= MARGIN_TOP_PX and f.layout.legend.y > 1 for f in figs)


def test_the_left_margin_holds_the_longest_policy_label() -> None:
    book = four_page_book()
    chunks = make_chunks(book, [(0, 302)])
    for label in ("P1: section", "P2: fixed-window max_tokens=256 overlap_tokens=32 snap=sentence"):
        fig = boundary_strips(book, [(label, chunks)])
        assert fig.layout.margin.l >= len(label) * TICK_CHAR_PX


def test_the_minimap_and_the_axis_under_it_fit_in_the_bottom_margin(long_book) -> None:
    fig = boundaries_figure(long_book, make_chunks(long_book, [(0, len(long_book.text))]))
    assert fig.layout.xaxis.rangeslider.visible
    m = fig.layout.margin
    plot_height = fig.layout.height - m.t - m.b
    assert m.b >= MINIMAP_AXIS_PX + MINIMAP_THICKNESS * plot_height
