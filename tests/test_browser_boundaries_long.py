"""Boundaries on a long book in a real chromium: clicking a chunk bar opens that chunk.

On a book long enough for the minimap, the map's bars live on the second axis pair (x2/y2,
``inspector.figures.boundary_minimap``), so plotly's click → selection → ``on_select`` path differs from
the short sample's. The test clicks where the browser drew the bar (from the figure's own axes,
``d2p``), as a user does, after zooming to a chapter start with the page's own picker.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_harness import (  # noqa: F401  (pytest fixtures)
    TIMEOUT_MS,
    app_url,
    browser,
    open_app,
    open_page,
    page,
    rerun,
    upload,
)
from many_chapters import write_many_chapters_book
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

MIN_BAR_PX = 24
"""Only a bar at least this wide on screen is clicked (a click lands well inside it)."""

_BAR_JS = """([plot, reasons, skip, minPx]) => {
    const full = plot._fullLayout, box = plot.getBoundingClientRect();
    for (const t of plot.data) {
        if (!reasons.includes(t.name)) continue;
        const xa = full[(t.xaxis || 'x').replace('x', 'xaxis')], ya = full[(t.yaxis || 'y').replace('y', 'yaxis')];
        const [lo, hi] = xa.range;
        for (let i = 0; i < t.base.length; i++) {
            const a = Math.max(t.base[i], lo), b = Math.min(t.base[i] + t.x[i], hi);
            if (t.customdata[i][0] === skip || xa.d2p(b) - xa.d2p(a) < minPx) continue;
            return {order: t.customdata[i][0], axis: t.xaxis || 'x',
                    x: box.left + xa._offset + xa.d2p((a + b) / 2), y: box.top + ya._offset + ya.d2p(t.y[i])};
        }
    }
    return null;
}"""
"""The first visible chunk bar (not chunk ``skip``) wide enough to click: its order, x axis and
the point on screen at its middle."""


def test_clicking_a_bar_of_a_long_book_opens_that_chunk(page: Page, app_url: str, tmp_path: Path) -> None:  # noqa: F811
    from chunking.models import END_REASONS

    book = write_many_chapters_book(tmp_path / "many-chapters.pdf")
    open_app(page, app_url)
    upload(page, book)
    expect(page.locator(".current-book-facts").first).to_contain_text(book.name, timeout=TIMEOUT_MS)
    open_page(page, app_url, "Boundaries")
    page.get_by_test_id("stSelectbox").filter(has_text="Jump to a chapter start").click()
    with rerun(page):
        page.get_by_role("option").nth(2).click()
    heading = page.get_by_test_id("stHeading").filter(has_text="Chunk ")
    expect(heading.first).to_be_visible(timeout=TIMEOUT_MS)
    shown = int(heading.first.inner_text().split()[1].rstrip(":"))
    plot = page.locator(".js-plotly-plot").first
    page.wait_for_function(
        "() => { const p = document.querySelector('.js-plotly-plot'); return p && p._fullLayout"
        " && p._fullLayout.xaxis.rangeslider && p._fullLayout.xaxis.rangeslider.visible; }",
        timeout=TIMEOUT_MS,
    )
    bar = plot.evaluate(
        "(plot, args) => (" + _BAR_JS + ")([plot, ...args])", [list(END_REASONS), shown, MIN_BAR_PX]
    )
    assert bar is not None and bar["axis"] == "x2", bar  # the map's bars sit on the second axis
    with rerun(page):
        page.mouse.click(bar["x"], bar["y"])
    expect(page.get_by_test_id("stHeading").filter(has_text=f"Chunk {bar['order']}").first).to_be_visible(
        timeout=TIMEOUT_MS
    )
    expect(page.get_by_role("spinbutton", name="Chunk", exact=True)).to_have_value(str(bar["order"]))
