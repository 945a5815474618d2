"""PDFs whose chosen pages draw a deep fan-out of form XObjects (issue 26): each XObject draws
the one below it ``width`` times, ``levels`` deep, so one ``Do`` on the page asks for
``width ** levels`` drawings of the leaf. MuPDF interprets every one of them: ten levels of ten
never end in practice. The leaf is a filled square (time only) or a line of text (each copy is
kept by the text extraction: memory grows with time). Every other page holds one line of text.
"""

from __future__ import annotations

from collections.abc import Collection

import pymupdf

SQUARE = b"0 0 1 1 re f"
"""A leaf that costs time only (text extraction does not keep paths)."""

TEXT = b"BT /F1 1 Tf 100 100 Td (abcdefgh) Tj ET"
"""A leaf whose every copy the text extraction keeps: memory grows as long as the page is read."""

_FONT = "<< /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >>"


def page_line(index: int) -> str:
    """The text line of page ``index`` (0-based)."""
    return f"page {index + 1} holds ordinary text"


def fanout_pdf(
    pages: int, bad: Collection[int], levels: int = 10, width: int = 10, leaf: bytes = SQUARE
) -> bytes:
    """A PDF of ``pages`` pages, each with its ``page_line``; the 0-based pages in ``bad`` also
    draw ``width ** levels`` copies of ``leaf`` (one chain of XObjects shared by them)."""
    doc = pymupdf.open()
    for i in range(pages):
        doc.new_page().insert_text((72, 100), page_line(i))
    top = _chain(doc, levels, width, leaf) if bad else 0
    for i in bad:
        page = doc[i]
        kind, value = doc.xref_get_key(page.xref, "Resources")
        holder = int(value.split()[0]) if kind == "xref" else page.xref
        doc.xref_set_key(
            holder, "XObject" if kind == "xref" else "Resources/XObject", f"<< /Fan {top} 0 R >>"
        )
        contents = page.get_contents()[0]
        doc.update_stream(contents, doc.xref_stream(contents) + b"\nq /Fan Do Q\n")
    return doc.tobytes()


def _chain(doc: pymupdf.Document, levels: int, width: int, leaf: bytes) -> int:
    """The xref of the top XObject of the chain; each level's copies are shifted a little, so a
    text leaf's copies are distinct characters on the page."""
    below = 0
    for level in range(levels):
        xref = doc.get_new_xref()
        resources = f"<< /XObject << /X {below} 0 R >> >>" if below else _FONT
        doc.update_object(
            xref, f"<< /Type /XObject /Subtype /Form /BBox [-1000 -1000 2000 2000] /Resources {resources} >>"
        )
        step = 400.0 / width**level
        body = (
            b"".join(b"q 1 0 0 1 %.6f %.6f cm /X Do Q\n" % (j * step, j * step * 1.3) for j in range(width))
            if below
            else leaf
        )
        doc.update_stream(xref, body)
        below = xref
    return below


def image_flood_pdf(pages: int, bad: Collection[int], copies: int = 200_000) -> bytes:
    """A PDF of ``pages`` pages, each with its ``page_line``, except the 0-based pages in ``bad``:
    they hold no text and draw one small image ``copies`` times over the whole page. Their text
    reads in a moment (text extraction skips images), their image takes minutes to draw (each
    copy is scaled to the page): a page that passes the text deadline and would hang a renderer."""
    doc = pymupdf.open()
    pix = pymupdf.Pixmap(pymupdf.csGRAY, pymupdf.IRect(0, 0, 64, 64), False)
    pix.clear_with(128)
    for i in range(pages):
        page = doc.new_page()
        if i not in bad:
            page.insert_text((72, 100), page_line(i))
            continue
        page.insert_image(page.rect, pixmap=pix)
        name = page.get_images()[0][7]
        w, h = page.rect.width, page.rect.height
        doc.update_stream(page.get_contents()[0], f"q {w:g} 0 0 {h:g} 0 0 cm /{name} Do Q\n".encode() * copies)
    return doc.tobytes(deflate=True)
