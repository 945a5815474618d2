# ruff: noqa: F811  (the harness's pytest fixtures are imported, then taken as parameters)
"""Long-book labels on the Boundaries map in a real browser (Debian chromium + Playwright), on the
generated 400-chapter book (``many_chapters``: 20 parts, 1,000 pages) uploaded through the real
uploader. One test per rule of issue 24's "long books readable":

* a Chapters row too dense to label chapter by chapter is cut into bands of consecutive chapters,
  one fill per band, each band labelled with its range (``Ch. 12–24`` or, where that does not fit,
  ``12–24``);
* those range labels do not overlap each other and each sits on its own band;
* zooming to one chapter with the page's "Jump to a chapter start" box shows that chapter's own
  label (number and title) at full size, and no range labels;
* parts read ``Part I`` … everywhere, never a bare ``III``;
* the Compare page's strips carry the same Parts and Chapters rows (one rule,
  ``inspector.figures.boundary.structure_rows``): bands with range labels on the whole book, the
  chapter's own label once zoomed with Compare's own "Jump to a chapter start". Its screenshot is
  ``tests/output/screenshots/400-chapters_compare_{whole_book,chapter}.png``.

Every check reads the page: the figure the browser holds (the plotly div's ``data`` and
``layout``) and the SVG text chromium drew from it. The tests wait for that state (the figure
showing the expected page range, every label drawn where the current layout puts it), never for
a time, so a busy machine only makes them slower.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser_harness import (  # noqa: F401  (pytest fixtures)
    ROOT,
    TIMEOUT_MS,
    app_url,
    browser,
    open_app,
    open_page,
    page,
    rerun,
    screenshot,
    upload,
    wait_charts_drawn,
)
from many_chapters import CHAPTERS, PAGES, chapter_title, write_many_chapters_book
from playwright.sync_api import Page, expect

from inspector.figures import label_fit
from inspector.figures.boundary import CHAPTERS_ROW, GROUPS_NOTE, PARTS_ROW

pytestmark = pytest.mark.browser

ZOOM_CHAPTER = 200
"""The chapter the zoom test jumps to (a chapter of several pages, not one of the tiny ones)."""
MIN_BANDS = 5
"""Fewest bands expected on the whole 400-chapter book at a 1500 px window (it draws about 15)."""
RANGE = re.compile(r"^(?:Ch\. )?(\d+)–(\d+)$")
"""A band's range label: ``Ch. 12–24`` or ``12–24``."""
PART = re.compile(r"^Part [IVXLCDM]+(?:: .+)?$")
"""A part's label: ``Part III`` or ``Part III: Title`` (possibly shortened with an ellipsis)."""
NUMERAL = re.compile(r"^[IVXLCDM]+\b")
"""A label that starts with a bare roman numeral: what the issue saw ("III")."""
PLACE_PX = 4
"""How far (px) a drawn annotation may sit from where the figure's layout puts it."""

_DRAWN_JS = """([[loMax, hiMin, spanMax], place, [partsRow, chaptersRow]]) => {
    const gd = document.querySelector('[data-testid="stMain"] .js-plotly-plot');
    if (!gd || !gd._fullLayout || !gd.data || !gd._fullLayout.xaxis) return null;
    const fl = gd._fullLayout, box = gd.getBoundingClientRect();
    const axis = (ref, name) => fl[(ref || name).replace(name, name + 'axis')];  // 'x2' → xaxis2
    const [lo, hi] = fl.xaxis.range;
    if (!(lo <= loMax && hi >= hiMin && hi - lo <= spanMax)) return null;  // not the wanted view yet
    const rect = e => { const r = e.getBoundingClientRect();
                        return {x0: r.left, x1: r.right, y0: r.top, y1: r.bottom}; };
    const notes = [];
    for (let i = 0; i < (fl.annotations || []).length; i++) {
        const a = fl.annotations[i];
        const el = gd.querySelector(`g.annotation[data-index="${i}"] text.annotation-text`);
        if (!el || el.textContent !== new DOMParser().parseFromString(a.text, 'text/html')
                .documentElement.textContent) return null;  // not drawn (yet)
        const xa = axis(a.xref, 'x'), r = rect(el);
        const at = box.left + xa._offset + xa.l2p(a.x) + (a.xshift || 0);
        const edge = a.xanchor === 'left' ? r.x0 : (r.x0 + r.x1) / 2;
        if (r.x1 <= r.x0 || Math.abs(edge - at) > (a.xanchor === 'left' ? 2 * place : place))
            return null;  // drawn for another layout (a resize is under way)
        notes.push({name: a.name, text: el.textContent, ...r});
    }
    const rows = {};
    for (const t of gd.data) {
        if (t.name !== partsRow && t.name !== chaptersRow) continue;
        const xa = axis(t.xaxis, 'x'), ya = axis(t.yaxis, 'y');  // x2/y2 under a minimap
        rows[t.name] = {
            text: Array.from(t.text), base: Array.from(t.base), x: Array.from(t.x),
            colour: Array.isArray(t.marker.color) ? Array.from(t.marker.color) : null,
            hover: t.customdata.map(r => r[0]),
            // px extent of each bar on screen (for "a label sits on its band")
            px: Array.from(t.base).map((b, k) => [box.left + xa._offset + xa.l2p(b),
                                                 box.left + xa._offset + xa.l2p(b + t.x[k])]),
            y: box.top + ya._offset + ya.l2p(ya.d2c(t.y[0])),  // a category (Boundaries) or a number (Compare)
        };
    }
    const labelled = Object.values(rows).reduce((n, r) => n + r.text.filter(s => s).length, 0);
    const bars = Array.from(gd.querySelectorAll('.cartesianlayer .barlayer text'))
        .filter(e => e.textContent)
        .map(e => ({text: e.textContent, size: parseFloat(getComputedStyle(e).fontSize),
                    scale: (e.getAttribute('transform') || '').includes('scale'), ...rect(e)}));
    if (bars.length !== labelled) return null;  // bar labels not all drawn (yet)
    return {range: [lo, hi], notes, rows, bars};
}"""
"""What the Boundaries figure in the page shows, once it shows the wanted x range (``[lo, hi]``
with ``lo <= loMax``, ``hi >= hiMin``, ``hi - lo <= spanMax``) and chromium has drawn every
annotation where the current layout puts it and every bar label: the annotations (layout name,
drawn text, box), the Parts and Chapters traces (labels, bars, fills, hover, px extents, row
centre) and the drawn bar labels (text, font px, whether plotly scaled it, box)."""


def drawn(page: Page, lo_max: float, hi_min: float, span_max: float) -> dict:
    """Wait until the Boundaries figure shows the wanted range, fully drawn; return its state."""
    want = [[lo_max, hi_min, span_max], PLACE_PX, [PARTS_ROW, CHAPTERS_ROW]]
    handle = page.wait_for_function(_DRAWN_JS, arg=want, timeout=TIMEOUT_MS)
    return handle.json_value()


@pytest.fixture(scope="module")
def long_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_many_chapters_book(tmp_path_factory.mktemp("long-book") / "many-chapters.pdf")


def open_boundaries(page: Page, app_url: str, book: Path) -> dict:
    """Upload ``book``, open Boundaries and return the whole-book figure's drawn state."""
    open_app(page, app_url)
    upload(page, book)
    expect(page.locator(".current-book-facts").first).to_contain_text(book.name, timeout=TIMEOUT_MS)
    open_page(page, app_url, "Boundaries")
    expect(page.locator(".current-book-facts").first).to_contain_text(f"{PAGES} pages", timeout=TIMEOUT_MS)
    return drawn(page, 1, PAGES, 2 * PAGES)


def jump_to_chapter(page: Page, number: int) -> int:
    """Choose chapter ``number`` in "Jump to a chapter start" (typed, as a user filters the box);
    return the page it starts on, as the box names it."""
    page.get_by_test_id("stSelectbox").filter(has_text="Jump to a chapter start").click()
    page.keyboard.type(f"{number} ")
    option = page.get_by_role("option", name=re.compile(rf"^{number} .*\(page \d+\)$"))
    start = int(re.search(r"\(page (\d+)\)$", option.inner_text().strip()).group(1))
    with rerun(page):
        option.click()
    return start


def bands(row: dict) -> list[list[int]]:
    """The Chapters row's bands: runs of consecutive bars of one fill (bar indices)."""
    colours = row["colour"] or [None] * len(row["base"])
    runs: list[list[int]] = []
    for k, c in enumerate(colours):
        if runs and colours[runs[-1][-1]] == c:
            runs[-1].append(k)
        else:
            runs.append([k])
    return runs


def chapter_number(hover: str) -> int:
    """A chapter's number, from its hover (``<b>12 Title</b>…``)."""
    return int(re.match(r"<b>(\d+)\b", hover).group(1))


def test_a_dense_chapters_row_is_grouped_into_bands_with_range_labels(
    page: Page, app_url: str, long_book: Path
) -> None:
    state = open_boundaries(page, app_url, long_book)
    row = state["rows"][CHAPTERS_ROW]
    assert len(row["base"]) == CHAPTERS  # every chapter keeps its own bar (and hover)
    assert not any(row["text"])  # too thin to label one by one
    runs = bands(row)
    assert len(runs) >= MIN_BANDS, f"{len(runs)} bands: the row is one wash"
    assert all(len(run) >= 2 for run in runs), [len(run) for run in runs]  # bands, not a barcode
    labels = [n["text"] for n in state["notes"] if n["name"] == GROUPS_NOTE]
    assert len(labels) == len(runs), labels  # one range label per band
    for label, run in zip(labels, runs):
        m = RANGE.match(label)
        assert m, label
        first, last = chapter_number(row["hover"][run[0]]), chapter_number(row["hover"][run[-1]])
        assert (int(m.group(1)), int(m.group(2))) == (first, last), (label, first, last)
    assert RANGE.match(labels[0]).group(1) == "1" and RANGE.match(labels[-1]).group(2) == str(CHAPTERS)


def test_chapter_band_labels_do_not_overlap_and_sit_on_their_band(
    page: Page, app_url: str, long_book: Path
) -> None:
    state = open_boundaries(page, app_url, long_book)
    row = state["rows"][CHAPTERS_ROW]
    notes = [n for n in state["notes"] if n["name"] == GROUPS_NOTE]
    assert len(notes) >= MIN_BANDS, [n["text"] for n in notes]
    assert label_fit.overlapping([(n["x0"], n["x1"]) for n in notes]) == [], [n["text"] for n in notes]
    for note, run in zip(notes, bands(row)):
        left, right = row["px"][run[0]][0], row["px"][run[-1]][1]
        assert left - 1 <= note["x0"] and note["x1"] <= right + 1, (note, left, right)  # on its band
        assert note["y0"] <= row["y"] <= note["y1"], (note, row["y"])  # in the Chapters row


def test_zooming_to_a_chapter_shows_that_chapters_own_label(
    page: Page, app_url: str, long_book: Path
) -> None:
    open_boundaries(page, app_url, long_book)
    start = jump_to_chapter(page, ZOOM_CHAPTER)
    own = f"{ZOOM_CHAPTER} {chapter_title(ZOOM_CHAPTER - 1)}"
    main_plot = page.get_by_test_id("stMain").locator(".js-plotly-plot .cartesianlayer .barlayer text")
    expect(main_plot.filter(has_text=re.compile(rf"^{ZOOM_CHAPTER}\b"))).to_have_text(own, timeout=TIMEOUT_MS)
    state = drawn(page, start, start + 1, 10)
    assert [n for n in state["notes"] if n["name"] == GROUPS_NOTE] == []  # no range labels zoomed in
    label = next(b for b in state["bars"] if b["text"] == own)
    assert label["size"] == label_fit.LABEL_FONT_PX and not label["scale"], label  # full size
    chapters = state["rows"][CHAPTERS_ROW]
    assert label["y0"] <= chapters["y"] <= label["y1"]  # drawn in the Chapters row
    shown = [b for b in state["bars"] if b["y0"] <= chapters["y"] <= b["y1"]]
    assert label_fit.overlapping([(b["x0"], b["x1"]) for b in shown]) == [], shown


def test_parts_are_labelled_part_and_numeral_never_a_bare_numeral(
    page: Page, app_url: str, long_book: Path
) -> None:
    state = open_boundaries(page, app_url, long_book)
    parts = state["rows"][PARTS_ROW]
    declared = [t for t in parts["text"] if t]
    drawn_parts = [b["text"] for b in state["bars"] if b["y0"] <= parts["y"] <= b["y1"]]
    assert len(drawn_parts) >= 3 and drawn_parts == declared, (drawn_parts, declared)
    assert all(PART.match(t) for t in drawn_parts), drawn_parts
    # zoomed into a chapter, the part it sits in is named at the left edge, the same way
    start = jump_to_chapter(page, ZOOM_CHAPTER)
    state = drawn(page, start, start + 1, 10)
    names = [n["text"] for n in state["notes"] if n["name"] == f"{PARTS_ROW} continued"]
    row_y = state["rows"][PARTS_ROW]["y"]
    names += [b["text"] for b in state["bars"] if b["y0"] <= row_y <= b["y1"]]
    assert names and all(PART.match(t) for t in names), names
    assert not any(NUMERAL.match(t) for t in drawn_parts + names)


def test_compare_groups_a_dense_chapters_row_as_boundaries_does_and_zooms_to_a_chapter(
    page: Page, app_url: str, long_book: Path
) -> None:
    open_app(page, app_url)
    upload(page, long_book)
    expect(page.locator(".current-book-facts").first).to_contain_text(long_book.name, timeout=TIMEOUT_MS)
    open_page(page, app_url, "Compare")
    wait_charts_drawn(page, 2)  # the strips, then the histograms
    state = drawn(page, 1, PAGES, 2 * PAGES)
    row = state["rows"][CHAPTERS_ROW]
    assert len(row["base"]) == CHAPTERS and not any(row["text"])
    runs = bands(row)
    assert len(runs) >= MIN_BANDS and all(len(run) >= 2 for run in runs), [len(run) for run in runs]
    notes = [n for n in state["notes"] if n["name"] == GROUPS_NOTE]
    assert len(notes) == len(runs), [n["text"] for n in notes]
    assert label_fit.overlapping([(n["x0"], n["x1"]) for n in notes]) == []
    for note, run in zip(notes, runs):
        m = RANGE.match(note["text"])
        assert m, note["text"]
        first, last = chapter_number(row["hover"][run[0]]), chapter_number(row["hover"][run[-1]])
        assert (int(m.group(1)), int(m.group(2))) == (first, last), (note["text"], first, last)
        assert note["y0"] <= row["y"] <= note["y1"]  # in Compare's Chapters row
    parts = [b["text"] for b in state["bars"] if b["y0"] <= state["rows"][PARTS_ROW]["y"] <= b["y1"]]
    assert parts and all(PART.match(t) for t in parts), parts
    shots = ROOT / "tests" / "output" / "screenshots"
    print(f"\nscreenshot: {screenshot(page, shots / '400-chapters_compare_whole_book.png')}")

    start = jump_to_chapter(page, ZOOM_CHAPTER)
    state = drawn(page, start, start + 1, 10)
    own = f"{ZOOM_CHAPTER} {chapter_title(ZOOM_CHAPTER - 1)}"
    chapters = state["rows"][CHAPTERS_ROW]
    assert own in [b["text"] for b in state["bars"] if b["y0"] <= chapters["y"] <= b["y1"]]
    assert [n for n in state["notes"] if n["name"] == GROUPS_NOTE] == []
    wait_charts_drawn(page, 2)
    print(f"screenshot: {screenshot(page, shots / '400-chapters_compare_chapter.png')}")
