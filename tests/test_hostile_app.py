"""Issue 12, items 15-17: the app never renders book data as markup and never crashes on a
hostile page. Every input is generated here: a real EPUB zip, real PDFs written by pymupdf."""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path

import pymupdf
import pytest
from streamlit.testing.v1 import AppTest

from chunking.errors import UnreadableInputError
from chunking.ingest import load_book
from inspector.views import pdfview
from inspector.safe import MARKDOWN_SPECIAL, md

pytestmark = pytest.mark.usefixtures("fresh_streamlit_caches")

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
IMAGE = "![x](http://example.invalid/p.png)"
LINK = "[click](http://example.invalid)"
LABEL = 'p<b>X<br><span style="color:red">'
"""A page-label prefix plotly would render: bold, a line break and coloured text (no "(": pymupdf's
``set_page_labels`` writes the prefix into a PDF string unescaped)."""


def _upload(name: str, data: bytes, mime: str, page: str | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.file_uploader(key="home_upload").set_value((name, data, mime)).run()
    if page:
        at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _epub_naming_a_missing_opf(opf_path: str) -> bytes:
    """A real EPUB zip whose container.xml points at ``opf_path``, which the archive lacks."""
    container = ('<?xml version="1.0"?><container version="1.0" '
                 'xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>'
                 f'<rootfile full-path="{opf_path}" media-type="application/oebps-package+xml"/>'
                 '</rootfiles></container>')
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip")
        zf.writestr("META-INF/container.xml", container)
    return buf.getvalue()


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def _live_markdown(body: str) -> list[str]:
    """Markdown constructs in ``body`` that would render: images, links, bare URLs, raw tags."""
    return re.findall(r"(?<!\\)!(?<!\\)\[|(?<!\\)\]\(|https?:/|(?<!\\)<[a-z]", body)


# ---------------------------------------------------------------------------- item 15
def test_markdown_escape_keeps_every_character_and_renders_literally() -> None:
    text = f"{IMAGE} {LINK} <b>*_`#|~$</b> a@b.c www.example.invalid :red[x]\n# heading"
    escaped = md(text)
    assert _unescape(escaped) == text.replace("\n", " ")
    assert "\n" not in escaped and not _live_markdown(escaped)
    for ch in MARKDOWN_SPECIAL:
        assert f"\\{ch}" in md(ch)


def test_reader_error_quoting_book_data_is_escaped_in_the_error_box() -> None:
    opf = f"{IMAGE} {LINK}.opf"
    at = _upload("crafted.epub", _epub_naming_a_missing_opf(opf), "application/epub+zip")
    assert len(at.error) == 1
    body = at.error[0].proto.body
    with pytest.raises(UnreadableInputError) as reader:
        load_book(_epub_naming_a_missing_opf(opf), name="crafted.epub")
    assert "![x](" in str(reader.value) and "[click](" in str(reader.value)  # the reader quotes the book
    assert _unescape(body) == str(reader.value), body  # the box shows the whole message...
    assert not _live_markdown(body), body  # ...as text: no image, no link
    assert "\\!\\[x\\]\\(http\\:" in body and "\\[click\\]\\(http\\:" in body


def test_uploaded_file_name_is_escaped_in_the_error_box() -> None:
    at = _upload(f"{LINK}.pdf", b"%PDF-1.7\n%garbage", "application/pdf")
    assert len(at.error) == 1
    body = at.error[0].proto.body
    assert not _live_markdown(body) and "\\[click\\]" in body, body


# ---------------------------------------------------------------------------- item 16
def _pdf_with_hostile_page_labels() -> bytes:
    doc = pymupdf.open()
    for k in range(3):
        page = doc.new_page(width=420, height=595)
        page.insert_text((60, 80), f"Chapter {k + 1}", fontsize=20)
        for line in range(12):
            page.insert_text((60, 120 + 18 * line), f"Body text of chapter {k + 1}, line {line}, words.",
                             fontsize=11)
    doc.set_toc([[1, f"Chapter {k + 1}", k + 1] for k in range(3)])
    doc.set_page_labels([{"startpage": 0, "prefix": LABEL, "style": "D", "firstpagenum": 1}])
    return doc.tobytes()


def test_page_labels_are_html_escaped_in_every_boundaries_figure_string() -> None:
    at = _upload("labels.pdf", _pdf_with_hostile_page_labels(), "application/pdf", "pages/1_Boundaries.py")
    (chart,) = at.get("plotly_chart")
    spec = json.loads(chart.proto.spec)
    strings = json.dumps([{k: t.get(k) for k in ("customdata", "text", "hovertemplate")}
                          for t in spec["data"]])
    assert "&lt;b&gt;X&lt;br&gt;&lt;span" in strings  # the label is there, escaped
    assert "<b>X" not in strings and "<span" not in strings and "<br><span" not in strings


def test_page_label_in_the_page_image_caption_is_escaped() -> None:
    at = _upload("labels.pdf", _pdf_with_hostile_page_labels(), "application/pdf", "pages/1_Boundaries.py")
    captions = [c for e in at.get("image") for img in e.proto.imgs for c in [img.caption]]
    assert captions and all("\\<b\\>X" in c and "<b>" not in c for c in captions), captions


# ---------------------------------------------------------------------------- item 17
def _pdf_with_a_giant_page() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=14400, height=14400)  # the PDF 1.7 maximum, 200 inches a side
    page.insert_text((72, 72), "Chapter 1", fontsize=20)
    for line in range(10):
        page.insert_text((72, 120 + 18 * line), f"Some body text on a giant page, line {line}.", fontsize=11)
    return doc.tobytes()


def test_giant_mediabox_is_refused_by_the_page_renderer_with_a_message() -> None:
    with pytest.raises(pdfview.PageTooLargeError, match="too large to draw"):
        pdfview.page_image(_pdf_with_a_giant_page(), 1, "Chapter 1", [(0, 7, "chunk")])


def test_giant_mediabox_shows_a_message_on_boundaries_instead_of_crashing() -> None:
    at = _upload("giant.pdf", _pdf_with_a_giant_page(), "application/pdf", "pages/1_Boundaries.py")
    assert not at.error, [e.value for e in at.error]
    messages = [e.value for e in at.info]
    assert any("page 1" in m and "too large to draw" in m for m in messages), messages
    assert not at.get("image")
