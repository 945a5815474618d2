"""The app marks pages read by OCR: a row of them on the boundary map, a note in chunk detail;
the sidebar's OCR mode is part of how the book is read (issue 25). Real Tesseract."""

from __future__ import annotations

import json
import shutil

import pymupdf
import pytest
from streamlit.testing.v1 import AppTest

from chunking.user_cache import CACHE_ENV
from conftest import ROOT
from inspector.figures.boundary import OCR_ROW, OCR_TRACE
from scan_factory import add_scanned_page, add_text_page, save, scan_image, sentences

pytestmark = [
    pytest.mark.usefixtures("fresh_streamlit_caches"),
    pytest.mark.skipif(shutil.which("tesseract") is None, reason="Tesseract is not installed (make tesseract)"),
]

APP = str(ROOT / "app.py")
BOUNDARIES = "pages/1_Boundaries.py"


@pytest.fixture(scope="module")
def half_scanned() -> tuple[str, bytes, str]:
    doc = pymupdf.open()
    add_text_page(doc, sentences(200, seed=0), heading="Chapter 1 Beginnings")
    add_scanned_page(doc, scan_image(sentences(260, seed=1)))
    return ("half-scanned.pdf", save(doc), "application/pdf")


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))


def _boundaries(upload: tuple[str, bytes, str]) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.file_uploader(key="home_upload").set_value(upload)
    at.run()
    at.switch_page(BOUNDARIES)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _figure(at: AppTest) -> dict:
    (el,) = [e for e in at.get("plotly_chart") if "bnd_fig" in e.proto.id]
    return json.loads(el.proto.spec)


def test_boundary_map_marks_the_pages_read_by_ocr(half_scanned):
    at = _boundaries(half_scanned)
    (ocr,) = [t for t in _figure(at)["data"] if t["name"] == OCR_TRACE]
    assert ocr["y"] == [OCR_ROW] and ocr["base"] == [2.0] and ocr["x"] == [1.0]
    assert "p. 2 (" in ocr["customdata"][0][0]


def test_chunk_detail_says_its_text_came_from_ocr(half_scanned):
    at = _boundaries(half_scanned)
    last = at.number_input(key="bnd_chunk")
    last.set_value(int(last.proto.max)).run()  # the last chunk: it holds page 2
    meta = at.dataframe[0].value
    assert dict(zip(meta["field"], meta["value"]))["ocr"] == "True"
    assert any("Text from OCR:" in e.proto.body and "p. 2 (mean word confidence" in e.proto.body
               for e in at.get("html"))


def test_sidebar_ocr_never_reads_the_book_again_without_ocr(half_scanned):
    at = _boundaries(half_scanned)
    at.selectbox(key="policy_ocr").set_value("never").run()
    assert not at.exception
    assert not [t for t in _figure(at)["data"] if t["name"] == OCR_TRACE]
    meta = at.dataframe[0].value
    assert dict(zip(meta["field"], meta["value"]))["ocr"] == "False"
