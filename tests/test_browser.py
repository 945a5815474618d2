# ruff: noqa: F811  (the harness's pytest fixtures are imported, then taken as parameters)
"""The inspector in a real browser (Debian chromium + Playwright): upload through the real file
input, change a policy control, download the JSONL and compare it with the CLI; screenshot every page."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from cli_run import cli
from browser_harness import (  # noqa: F401  (pytest fixtures)
    CHARTS_ON_OPEN,
    ROOT,
    TIMEOUT_MS,
    app_url,
    browser,
    metric,
    metric_value,
    open_app,
    open_page,
    page,
    rerun,
    screenshot,
    upload,
    wait_charts_drawn,
)
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser
SAMPLES = ROOT / "sample_books"
PAGE_TITLES = ["Boundaries", "Overlap", "Chunks", "Export"]


def cli_jsonl(book: Path, out: Path, max_tokens: int) -> bytes:
    done = cli("chunk", book, "-o", out, "--max-tokens", max_tokens, timeout=TIMEOUT_MS / 1000)
    assert done.returncode == 0, done.stderr
    return out.read_bytes()


def set_max_tokens(page: Page, target: int) -> int:
    """Move the Max tokens slider to ``target`` with the keyboard (one press = one 16-token step).

    Each press asks for a rerun; the next press waits until that rerun has ended, so no run that
    finishes late redraws the sidebar with an older value.
    """
    thumb = page.get_by_test_id("stSidebar").get_by_role("slider", name="Max tokens")
    for _ in range(64):
        value = int(thumb.input_value())
        if value == target:
            break
        thumb.focus()
        with rerun(page):
            thumb.press("ArrowLeft" if value > target else "ArrowRight")
    return int(thumb.input_value())


@pytest.mark.parametrize("name", ["debian-policy.epub", "haskell98-report.pdf"])
def test_upload_rechunk_and_download_match_the_cli(
    page: Page, app_url: str, tmp_path: Path, name: str
) -> None:
    open_app(page, app_url)
    upload(page, SAMPLES / name)
    expect(page.get_by_text(name).first).to_be_visible(timeout=TIMEOUT_MS)
    default_jsonl = cli_jsonl(SAMPLES / name, tmp_path / "default.jsonl", 512)
    expect(metric(page, "Chunks").get_by_test_id("stMetricValue")).to_have_text(
        str(len(default_jsonl.splitlines())), timeout=TIMEOUT_MS
    )

    max_tokens = set_max_tokens(page, 256)
    assert max_tokens == 256
    expected = cli_jsonl(SAMPLES / name, tmp_path / "smaller.jsonl", max_tokens)
    expect(metric(page, "Chunks").get_by_test_id("stMetricValue")).to_have_text(
        str(len(expected.splitlines())), timeout=TIMEOUT_MS
    )
    assert metric_value(page, "Chunks") != str(len(default_jsonl.splitlines()))

    open_page(page, app_url, "Export")
    with rerun(page), page.expect_download(timeout=TIMEOUT_MS) as info:
        page.get_by_role("button", name=re.compile(r"^⬇ JSONL$")).click()
    downloaded = tmp_path / info.value.suggested_filename
    info.value.save_as(downloaded)
    assert downloaded.name == Path(name).stem + ".jsonl"
    assert downloaded.read_bytes() == expected


def test_clicking_a_bar_opens_that_chunk(page: Page, app_url: str) -> None:
    open_page(page, app_url, "Boundaries")
    expect(page.get_by_test_id("stHeading").filter(has_text="Chunk 0")).to_be_visible()
    expect(page.locator(".js-plotly-plot .barlayer .point").first).to_be_visible(timeout=TIMEOUT_MS)
    plot = "document.querySelector('.js-plotly-plot')"
    k = page.evaluate(f"{plot}.data.findIndex(t => t.name === 'token_limit')")
    point = page.locator(".js-plotly-plot .barlayer .trace").nth(k).locator(".point").nth(7)
    order = page.evaluate(f"{plot}.data[{k}].customdata[7][0]")
    with rerun(page):
        point.click(force=True)  # force: the bar sits under plotly's drag layer
    heading = page.get_by_test_id("stHeading").filter(has_text=f"Chunk {order}")
    expect(heading).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.get_by_role("spinbutton", name="Chunk", exact=True)).to_have_value(str(order))


def test_screenshot_every_page(page: Page, app_url: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    folder = tmp_path_factory.mktemp("screenshots")
    open_app(page, app_url)
    assert metric_value(page, "Pages") == "113"  # the default sample, r-intro.pdf
    screenshot(page, folder / "0_Home.png")
    # Every page in the sidebar's list, including pages other helpers add after ours.
    titles = page.get_by_test_id("stSidebarNav").get_by_role("link").all_inner_texts()[1:]
    assert titles[:4] == PAGE_TITLES
    for k, title in enumerate(titles, start=1):
        open_page(page, app_url, title)
        if title == "Boundaries":
            # The README's walkthrough: jump to chapter 3's start and open the chunk there.
            page.get_by_test_id("stSelectbox").filter(has_text="Jump to a chapter start").click()
            with rerun(page):
                page.get_by_role("option", name=re.compile(r"^3 ")).click()
            expect(page.get_by_text("Chunks at this chapter start")).to_be_visible()
        if title in PAGE_TITLES:
            expect(
                page.locator(
                    ".js-plotly-plot, [data-testid='stDataFrame'], [data-testid='stDownloadButton']"
                ).first
            ).to_be_visible(timeout=TIMEOUT_MS)
        expect(page.get_by_test_id("stException")).to_have_count(0)
        wait_charts_drawn(page, CHARTS_ON_OPEN.get(title, 0))
        shot = screenshot(page, folder / f"{k}_{title}.png")
        assert shot.stat().st_size > 20_000
        if title == "Boundaries" and os.environ.get("UPDATE_DOCS_SCREENSHOT"):
            # `UPDATE_DOCS_SCREENSHOT=1 make test` refreshes the README's picture; a plain run
            # leaves the checkout clean.
            shutil.copyfile(shot, ROOT / "docs" / "boundaries.png")
    assert len(list(folder.iterdir())) == len(titles) + 1
