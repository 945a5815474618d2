"""The Compare page under Streamlit's AppTest: its scorecard, strips, diff and histograms are what
the core computes for the current book and the chosen policies; a bad policy is one named error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from chunking.analysis.compare import boundary_diff, policy_label, scorecard_rows
from chunking.ingest import load_book
from chunking.models import STRATEGIES
from chunking.policy import Policy
from chunking.analysis.scorecard import scorecard
from chunking.strategies import chunk_book
from chunking.tokens import tokenize

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("fresh_streamlit_caches")]

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
PAGE = "pages/5_Compare.py"
DEFAULT = ROOT / "sample_books" / "r-intro.pdf"


@pytest.fixture(scope="module")
def tokenized():
    return tokenize(load_book(DEFAULT))


def compare_page() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=90)
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def rerun(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def scorecard_frame(at: AppTest):
    return next(e.value for e in at.dataframe if "chunks" in e.value.index)


def charts(at: AppTest) -> list[dict]:
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")]


def expected_rows(tokenized, policies):
    cards = [scorecard(chunk_book(tokenized, p), tokenized, p) for p in policies]
    return scorecard_rows(cards, mark=" ★")


def test_default_page_scores_the_three_strategies_as_the_core_does(tokenized):
    at = compare_page()
    policies = [Policy(strategy=s) for s in STRATEGIES]
    frame = scorecard_frame(at)
    assert list(frame.columns) == [f"P{i}: {s}" for i, s in enumerate(STRATEGIES, 1)]
    assert [(k, list(frame.loc[k])) for k in frame.index] == expected_rows(tokenized, policies)
    assert frame.loc["chapter_crossing_chunks", "P1: chapter-window"] == "0 ★"
    assert not at.warning  # every chunk set keeps rules 1-7


def test_changing_a_policy_in_the_page_body_rescores_its_column(tokenized):
    at = compare_page()
    at.number_input(key="cmp_max_tokens_1").set_value(256)
    at.number_input(key="cmp_overlap_1").set_value(32)
    rerun(at)
    frame = scorecard_frame(at)
    fixed = Policy(strategy="fixed-window", max_tokens=256, overlap_tokens=32)
    assert frame.columns[1] == f"P2: {policy_label(fixed)}"
    assert frame.loc["chunks"].iloc[1] == str(len(chunk_book(tokenized, fixed)))


def test_two_policies_show_two_columns_and_one_diff_row(tokenized):
    at = compare_page()
    at.radio(key="cmp_count").set_value(2)
    rerun(at)
    assert len(scorecard_frame(at).columns) == 2
    diff = next(e.value for e in at.dataframe if "moved" in e.value.columns)
    policies = [Policy(), Policy(strategy="fixed-window")]
    a, b = (chunk_book(tokenized, p) for p in policies)
    assert list(diff.index) == ["P2: fixed-window"]
    assert diff.iloc[0].to_dict() == pytest.approx(boundary_diff(a, b, 256).summary())


def test_strips_and_histograms_hold_every_chunk_of_every_policy(tokenized):
    at = compare_page()
    strips, hist = charts(at)
    chunks = [chunk_book(tokenized, Policy(strategy=s)) for s in STRATEGIES]
    for trace, cs in zip(strips["data"], chunks):
        assert [row[0] for row in trace["customdata"]] == [c.order for c in cs]
    assert strips["data"][-1]["name"] == "Chapters"
    assert [t["x"] for t in hist["data"]] == [[c.token_count for c in cs] for cs in chunks]


def test_invalid_policy_shows_one_error_naming_the_field_and_keeps_the_page():
    at = compare_page()
    at.text_input(key="cmp_extra_2").set_value("min_section_tokens=99999")
    rerun(at)
    assert [e.value for e in at.error] == [
        "P3: policy field 'min_section_tokens' must be between 0 and max_tokens (512); got 99999"
    ]
    assert len(charts(at)) == 2  # the page stays, P3 with its last valid policy
    assert any(c.value.startswith("P3 shows its last valid policy") for c in at.caption)


@pytest.mark.parametrize(
    "name", ["chez-csug.pdf", "debian-policy.epub", "haskell98-report.pdf", "lshort.pdf"]
)
def test_compare_page_works_on_every_sample_book(name):
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.selectbox(key="home_sample").set_value(name).run()
    at.switch_page(PAGE).run()
    assert not at.exception and not at.error, [e.value for e in [*at.exception, *at.error]]
    tb = tokenize(load_book(ROOT / "sample_books" / name))
    counts = [str(len(chunk_book(tb, Policy(strategy=s)))) for s in STRATEGIES]
    assert list(scorecard_frame(at).loc["chunks"]) == counts
    assert len(charts(at)) == 2


def test_page_slider_runs_over_the_books_pages_only():
    at = compare_page()
    n_pages = len(load_book(DEFAULT).pages)
    slider = at.slider(key="cmp_pages")
    assert (slider.min, slider.max) == (1, n_pages) and slider.value == (1, n_pages)
    strips, _ = charts(at)
    assert strips["layout"]["xaxis"]["range"] == [1, n_pages + 1]  # the last page drawn whole
    slider.set_value((10, 20))
    rerun(at)
    assert charts(at)[0]["layout"]["xaxis"]["range"] == [10, 21]


def test_compare_strips_jump_to_a_chapter_with_the_boundaries_control():
    from chunking import rules

    book = load_book(DEFAULT)
    fences = rules.fence_headings(book)
    k = next(i for i, h in enumerate(fences) if h.kind == "chapter" and h.number == "3")
    at = compare_page()
    box = at.selectbox(key="cmp_chapter")
    assert box.label == "Jump to a chapter start"  # the control Boundaries has
    box.set_value(k)
    rerun(at)
    page = fences[k].page
    assert at.slider(key="cmp_pages").value == (max(1, page - 2), page + 2)
    assert charts(at)[0]["layout"]["xaxis"]["range"] == [max(1, page - 2), page + 3]


def test_each_policy_reports_its_chunk_count_when_done(tokenized):
    at = compare_page()
    done = [c.value for c in at.caption if c.value.startswith("✓")]
    assert done == [
        f"✓ {len(chunk_book(tokenized, Policy(strategy=s)))} chunks in " + d.split(" in ")[1]
        for s, d in zip(STRATEGIES, done)
    ]


def test_the_compare_page_names_the_current_book_in_its_header():
    at = compare_page()
    header = next(e.proto.body for e in at.get("html") if "current-book" in e.proto.body)
    assert "r-intro.pdf (bundled sample)" in header
