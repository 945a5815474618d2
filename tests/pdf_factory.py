"""Small real PDFs built with PyMuPDF for the ingestion tests (no fixtures on disk).

``make_pdf`` lays out each page's lines top to bottom, each with its own font size, so tests
can build running headers (small), chapter headings (large), outlines with destinations
(``doc.set_toc``), page labels and passwords exactly as real books have them.
"""

from __future__ import annotations

import pymupdf

BODY = 10.0
TOP = 60.0
LEFT = 72.0

Line = tuple[str, float]


def body(n: int, start: int = 0, words: str = "plain body text about the topic at hand") -> list[Line]:
    """``n`` distinct body-size lines (distinct so none looks like a running header)."""
    return [(f"Line {start + i} {words} number {start + i}.", BODY) for i in range(n)]


def line_tops(lines: list[Line]) -> list[float]:
    """The top y (points from the page top) where ``make_pdf`` places each line."""
    tops, y = [], TOP
    for _, size in lines:
        tops.append(y)
        y += size * 1.5
    return tops


def make_pdf(
    pages: list[list[Line]],
    *,
    toc: list[tuple[int, str, int, float | None]] | None = None,
    labels: list[dict] | None = None,
    title: str = "",
    password: str | None = None,
    image_pages: tuple[int, ...] = (),
) -> bytes:
    """Build a PDF.

    Args:
        pages: per page, its lines as (text, font size); an empty list makes a blank page.
        toc: outline entries (level, title, 1-based page, top y in points or None).
        labels: ``doc.set_page_labels`` rules.
        title: metadata title.
        password: encrypt with this user password (AES-256).
        image_pages: 0-based pages that get a small image and no text.
    """
    doc = pymupdf.open()
    for index, lines in enumerate(pages):
        page = doc.new_page(width=595, height=842)
        for (text, size), top in zip(lines, line_tops(lines)):
            page.insert_text((LEFT, top + size), text, fontsize=size, fontname="helv")
        if index in image_pages:
            pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 8, 8), False)
            pix.clear_with(200)
            page.insert_image(pymupdf.Rect(100, 100, 200, 200), pixmap=pix)
    if toc:
        items = []
        for level, name, page, top in toc:
            dest = {"kind": pymupdf.LINK_GOTO, "page": page - 1}
            if top is not None:
                # NOTE: set_toc takes the point in page space (origin top-left) and writes the
                # PDF's /XYZ in PDF space itself (842 - top).
                dest["to"] = pymupdf.Point(LEFT, top)
            items.append([level, name, page, dest])
        doc.set_toc(items)
    if labels:
        doc.set_page_labels(labels)
    if title:
        doc.set_metadata({"title": title})
    if password:
        return doc.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw=password,
                           owner_pw=password + "-owner")
    return doc.tobytes()
