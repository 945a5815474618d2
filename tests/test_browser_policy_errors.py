# ruff: noqa: F811  (the harness's pytest fixtures are imported, then taken as parameters)
"""Policy errors never break a page (issue 24), in a real chromium.

The path that used to crash Boundaries: jump to a chapter, set max pages below target pages (the
page blanked), fix it, change the policy again (a ``TypeError`` replaced the whole page). Now the
error is shown next to the inputs, the last valid view stays, and the chapter jump and zoom survive
the error and the fix. Every step waits on the page's own state (a value shown), never on time.
"""

from __future__ import annotations

import re

import pytest
from browser_harness import (  # noqa: F401  (pytest fixtures)
    TIMEOUT_MS,
    app_url,
    browser,
    open_page,
    page,
    rerun,
)
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def _set_number(page: Page, label: str, value: int) -> None:
    box = page.get_by_test_id("stSidebar").get_by_role("spinbutton", name=label, exact=True)
    with rerun(page):
        box.fill(str(value))
        box.press("Enter")
    expect(box).to_have_value(str(value))


def _zoom(page: Page) -> tuple[str, str]:
    slider = page.get_by_test_id("stMain").get_by_test_id("stSlider").filter(has_text="Zoom to pages")
    thumbs = slider.get_by_role("slider")
    return thumbs.nth(0).get_attribute("aria-valuenow"), thumbs.nth(1).get_attribute("aria-valuenow")


def test_an_invalid_policy_keeps_the_boundaries_view_and_its_chapter_jump(page: Page, app_url: str) -> None:
    open_page(page, app_url, "Boundaries")
    jump = page.get_by_test_id("stSelectbox").filter(has_text="Jump to a chapter start")
    jump.click()
    with rerun(page):
        page.get_by_role("option", name=re.compile(r"^3 ")).click()
    expect(page.get_by_text("Chunks at this chapter start")).to_be_visible()
    chapter = jump.inner_text()
    zoom = _zoom(page)
    assert zoom != ("1", "113")

    _set_number(page, "Max pages", 1)  # below target pages (2)
    sidebar_error = page.get_by_test_id("stSidebar").get_by_test_id("stAlert").filter(has_text="max_pages")
    expect(sidebar_error).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.get_by_text("Chunks at this chapter start")).to_be_visible()  # the last valid view
    expect(page.locator(".js-plotly-plot").first).to_be_visible()

    _set_number(page, "Max pages", 3)
    expect(sidebar_error).to_have_count(0, timeout=TIMEOUT_MS)
    page.get_by_test_id("stSidebar").get_by_test_id("stSelectbox").filter(has_text="Strategy").click()
    with rerun(page):
        page.get_by_role("option", name="fixed-window").click()
    expect(page.get_by_test_id("stException")).to_have_count(0)
    expect(page.get_by_text("Chunks at this chapter start")).to_be_visible(timeout=TIMEOUT_MS)
    assert jump.inner_text() == chapter
    assert _zoom(page) == zoom
    expect(page.get_by_test_id("stException")).to_have_count(0)
