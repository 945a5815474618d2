# ruff: noqa: F811  (the harness's pytest fixtures are imported, then taken as parameters)
"""The Retrieval page in a real browser (Debian chromium via Playwright): paste a passage, search
with the three retrievers side by side, run the evaluation (progress bar, probes and the printed
index) — the values the core computes appear on screen."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from browser_harness import TIMEOUT_MS, app_url, browser, open_page, page, rerun  # noqa: F401
from chunking.ingest import load_book
from chunking.retrieval.locate import SearchSpace, locate

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT / "sample_books" / "r-intro.pdf"


@pytest.fixture(scope="module")
def passage() -> tuple[str, int, int]:
    text = load_book(DEFAULT).text
    start = text.index(" ", 120_000) + 1
    end = text.index(" ", start + 300)
    return "4.2 Some heading\n" + " ".join(text[start:end].split()), start, end


def test_locate_search_and_evaluate_in_the_browser(page, app_url, passage):  # noqa: F811
    text, start, end = passage
    open_page(page, app_url, "Retrieval")
    main = page.get_by_test_id("stMain")

    _paste(page, text)
    expect(main.get_by_text("Found in this book.")).to_be_visible(timeout=TIMEOUT_MS)
    loc = locate(SearchSpace.build(load_book(DEFAULT)), text)
    assert (loc.char_start, loc.char_end) == (start, end)
    expect(main.get_by_test_id("stDataFrame").first).to_be_visible(timeout=TIMEOUT_MS)
    expect(main.locator("mark.hit").first).to_be_visible(timeout=TIMEOUT_MS)

    page.get_by_role("tab", name="Search", exact=True).click()
    with rerun(page):
        main.get_by_role("textbox", name="Query", exact=True).fill("generalized linear models")
        main.get_by_role("textbox", name="Query", exact=True).press("Enter")
    tabs = main.get_by_role(
        "tabpanel", name="Search", exact=True
    )  # the Locate tab's text is in the page too, hidden
    expect(tabs.get_by_text("fixed-window", exact=True)).to_be_visible(timeout=TIMEOUT_MS)
    expect(tabs.get_by_text("section", exact=True)).to_be_visible(timeout=TIMEOUT_MS)
    for kind in ("bm25", "dense", "hybrid"):  # the three retrievers side by side
        expect(tabs.get_by_text(kind, exact=True).first).to_be_visible(timeout=TIMEOUT_MS)
    # 3 policies × 3 retrievers (the Locate tab's tables are in the page too, hidden)
    expect(tabs.locator('[data-testid="stDataFrame"]:visible')).to_have_count(9, timeout=TIMEOUT_MS)
    tabs.get_by_test_id("stExpander").first.click()
    expect(main.locator("mark.hit").filter(has_text="linear").first).to_be_visible(timeout=TIMEOUT_MS)

    page.get_by_role("tab", name="Evaluate").click()
    expect(main.get_by_text("This is a proxy", exact=False)).to_be_visible(timeout=TIMEOUT_MS)
    with rerun(page):
        main.get_by_role("spinbutton", name="Sentences (n)", exact=True).fill("20")
        main.get_by_role("spinbutton", name="Sentences (n)", exact=True).press("Enter")
    with rerun(page):
        main.get_by_role("button", name="Run evaluation").click()
    expect(main.get_by_text("n = 20 sentences drawn", exact=False)).to_be_visible(timeout=TIMEOUT_MS)
    expect(main.locator(".js-plotly-plot").first).to_be_visible(timeout=TIMEOUT_MS)
    # the progress bar ran to its end; the printed index was read and scored
    expect(main.get_by_test_id("stProgress").get_by_text("Evaluation done.")).to_be_visible(
        timeout=TIMEOUT_MS
    )
    expect(main.get_by_text("entries parsed", exact=False)).to_be_visible(timeout=TIMEOUT_MS)
    expect(main.get_by_text("The book's printed index as relevance judgments")).to_be_visible(
        timeout=TIMEOUT_MS
    )


@pytest.fixture(scope="module")
def default_chunks():
    from chunking.policy import Policy
    from chunking.strategies import chunk_book
    from chunking.tokens import tokenize

    return chunk_book(tokenize(load_book(DEFAULT)), Policy())


def _paste(page, text: str) -> None:
    box = page.get_by_test_id("stMain").get_by_role("textbox", name="Passage or chunk id", exact=True)
    with rerun(page):
        box.fill(text)
        box.press("Control+Enter")


def test_a_pasted_chunk_id_shows_the_chunk_and_opens_it_on_boundaries(page, app_url, default_chunks):  # noqa: F811
    wanted = default_chunks[9]
    open_page(page, app_url, "Retrieval")
    main = page.get_by_test_id("stMain")
    _paste(page, f'"id": "{wanted.id}"')
    expect(main.get_by_text(f"Chunk id {wanted.id}: 1 chunk(s) found.")).to_be_visible(timeout=TIMEOUT_MS)
    expect(main.get_by_test_id("stHeading").filter(has_text="chunk 9")).to_be_visible(timeout=TIMEOUT_MS)
    with rerun(page):
        main.get_by_role("button", name="Open chunk 9 on Boundaries").click()
    page.wait_for_url(re.compile("Boundaries"), timeout=TIMEOUT_MS)
    expect(page.get_by_test_id("stHeading").filter(has_text="Chunk 9")).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.get_by_role("spinbutton", name="Chunk", exact=True)).to_have_value("9")
    expect(page.get_by_test_id("stCode").filter(has_text=wanted.id)).to_be_visible(timeout=TIMEOUT_MS)


def test_chunk_boundaries_inside_a_pasted_passage_are_marked(page, app_url, default_chunks):  # noqa: F811
    text = load_book(DEFAULT).text
    edge = default_chunks[20].char_end
    start, end = text.index(" ", edge - 300) + 1, text.index(" ", edge + 300)
    open_page(page, app_url, "Retrieval")
    main = page.get_by_test_id("stMain")
    _paste(page, " ".join(text[start:end].split()))
    expect(main.get_by_text("Found in this book.")).to_be_visible(timeout=TIMEOUT_MS)
    mark = main.locator("span.bci-bound-end", has_text="◂20┃")
    expect(mark.first).to_be_visible(timeout=TIMEOUT_MS)  # the first policy's block: chapter-window
    assert mark.first.get_attribute("title") == "chunk 20 ends here"
