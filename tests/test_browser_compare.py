"""The Compare page in a real browser (Debian chromium via Playwright): the strips hold one bar per
chunk of each policy as the core cuts them (read from the figure the browser drew, its plotly
data, not from SVG internals), and changing a policy in the page body redraws it."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_harness import TIMEOUT_MS, app_url, browser, open_page, page, rerun, screenshot  # noqa: F401
from playwright.sync_api import expect

from chunking.ingest import load_book
from chunking.models import STRATEGIES
from chunking.policy import Policy
from chunking.strategies import chunk_book
from chunking.tokens import tokenize

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT / "sample_books" / "r-intro.pdf"


@pytest.fixture(scope="module")
def tokenized():
    return tokenize(load_book(DEFAULT))


def strip_orders(page, label: str):  # noqa: F811  (the page fixture, passed in)
    """The chunk orders the strips figure holds for the policy ``label`` (its trace's customdata)."""
    strips = page.get_by_test_id("stMain").locator(".js-plotly-plot").first
    return strips.evaluate(
        "(plot, name) => { const t = plot.data.find(t => t.name === name); "
        "return t ? t.customdata.map(row => row[0]) : null; }",
        label,
    )


def expect_strip(page, label: str, chunks) -> None:  # noqa: F811
    """Wait until the strip of ``label`` holds exactly ``chunks``' orders, in order."""
    want = [c.order for c in chunks]
    page.wait_for_function(
        "([want, name]) => { const plot = document.querySelector('[data-testid=stMain] .js-plotly-plot');"
        " const t = plot && plot.data && plot.data.find(t => t.name === name);"
        " return !!t && JSON.stringify(t.customdata.map(r => r[0])) === JSON.stringify(want); }",
        arg=[want, label],
        timeout=TIMEOUT_MS,
    )
    assert strip_orders(page, label) == want


def test_compare_page_draws_each_policy_and_redraws_a_changed_one(page, app_url, tokenized, tmp_path):  # noqa: F811
    open_page(page, app_url, "Compare")
    main = page.get_by_test_id("stMain")
    expect(main.locator(".js-plotly-plot")).to_have_count(2, timeout=TIMEOUT_MS)
    legend = main.locator(".js-plotly-plot").first.locator("text.legendtext")
    expect(legend).to_have_text([f"P{i}: {s}" for i, s in enumerate(STRATEGIES, 1)])
    for i, strategy in enumerate(STRATEGIES, 1):
        expect_strip(page, f"P{i}: {strategy}", chunk_book(tokenized, Policy(strategy=strategy)))
    # the scorecard and the boundary diff (the upsert plan's tables follow them)
    expect(main.get_by_test_id("stDataFrame").nth(1)).to_be_visible()
    screenshot(page, tmp_path / "compare-default.png")

    box = main.get_by_role("spinbutton", name="Max tokens").nth(1)
    with rerun(page):
        box.fill("256")
        box.press("Enter")
    expect(legend.nth(1)).to_have_text("P2: fixed-window max_tokens=256", timeout=TIMEOUT_MS)
    expect_strip(
        page,
        "P2: fixed-window max_tokens=256",
        chunk_book(tokenized, Policy(strategy="fixed-window", max_tokens=256)),
    )
    screenshot(page, tmp_path / "compare-changed.png")
    assert (tmp_path / "compare-changed.png").stat().st_size > 10_000
