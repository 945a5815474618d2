"""inspector.views.pdfview: the chunk's words are found on the PDF page and painted in their colours."""

from __future__ import annotations

import io

import pymupdf
import pytest
from PIL import Image

from chunking.readers.pdfchild import TIMEOUT_ENV
from chunking.readers.pdfpages import page_words
from fanout_pdf import image_flood_pdf
from inspector.views import pdfview

TEXT = "Alpha beta gamma delta\nepsilon zeta eta"


@pytest.fixture
def pdf() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    page.insert_text((20, 40), "Alpha beta gamma delta", fontsize=14)
    page.insert_text((20, 70), "epsilon zeta eta", fontsize=14)
    data = doc.tobytes()
    doc.close()
    return data


def word_rect(pdf: bytes, word: str) -> pymupdf.Rect:
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        return next(pymupdf.Rect(w[:4]) for w in doc[0].get_text("words") if w[4] == word)


def test_highlight_rects_are_the_pdf_words_of_each_span(pdf: bytes) -> None:
    spans = [(6, 29, "chunk"), (6, 10, "overlap")]  # "beta gamma delta\nepsilon", overlap "beta"
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        rects = pdfview.highlight_rects(page_words(doc[0]), TEXT, spans)
    assert rects["overlap"] == [word_rect(pdf, "beta")]
    assert rects["chunk"] == [word_rect(pdf, w) for w in ("gamma", "delta", "epsilon")]


def test_words_changed_by_normalisation_elsewhere_still_align(pdf: bytes) -> None:
    # The canonical text lost "Alpha" (e.g. a removed header): the rest still aligns.
    text = TEXT.removeprefix("Alpha ")
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        rects = pdfview.highlight_rects(page_words(doc[0]), text, [(text.index("zeta"), len(text), "chunk")])
    assert rects["chunk"] == [word_rect(pdf, "zeta"), word_rect(pdf, "eta")]


def test_page_image_paints_overlap_and_chunk_colours(pdf: bytes) -> None:
    zoom = 2.0
    png = pdfview.page_image(pdf, 1, TEXT, [(0, 10, "chunk"), (6, 10, "overlap")], zoom=zoom)
    img = Image.open(io.BytesIO(png)).convert("RGB")
    assert img.size == (600, 400)

    def colours(rect: pymupdf.Rect) -> set:
        box = [int(v * zoom) for v in (rect.x0, rect.y0, rect.x1, rect.y1)]
        return set(img.crop(box).get_flattened_data())

    def tinted(cols: set, rgb: tuple) -> bool:  # 40 % fill over white
        want = [round(255 * (1 - 0.4 * (1 - c))) for c in rgb]
        return any(all(abs(p[k] - want[k]) <= 6 for k in range(3)) for p in cols)

    assert tinted(colours(word_rect(pdf, "beta")), pdfview.HIGHLIGHT_COLOURS["overlap"])
    assert tinted(colours(word_rect(pdf, "Alpha")), pdfview.HIGHLIGHT_COLOURS["chunk"])
    assert all(r == g == b for r, g, b in colours(word_rect(pdf, "zeta")))  # untouched: grey text only


def test_a_rotated_page_is_painted_where_its_words_are_shown(pdf: bytes) -> None:
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    doc[0].set_rotation(90)
    rotated = doc.tobytes()
    zoom = 1.0
    png = pdfview.page_image(rotated, 1, TEXT, [(0, 5, "chunk")], zoom=zoom)
    img = Image.open(io.BytesIO(png)).convert("RGB")
    assert img.size == (200, 300)
    shown = doc[0].search_for("Alpha")[0] * doc[0].rotation_matrix
    box = [int(v) for v in (shown.x0, shown.y0, shown.x1, shown.y1)]
    assert any(len({r, g, b}) > 1 for r, g, b in img.crop(box).get_flattened_data())  # tinted, not grey


def test_a_page_that_draws_for_hours_is_stopped_and_not_drawn(monkeypatch) -> None:
    monkeypatch.setenv(TIMEOUT_ENV, "2")
    flood = image_flood_pdf(2, [1])
    assert pdfview.page_image(flood, 1, "page 1 holds ordinary text", [(0, 4, "chunk")]).startswith(b"\x89PNG")
    with pytest.raises(pdfview.PageNotDrawnError, match="page 2 could not be drawn \\(stopped after 2 s\\)"):
        pdfview.page_image(flood, 2, "", [])
