"""App stage (display): a PDF page rendered as an image with a chunk's text highlighted on it.

The canonical text is normalised (headers removed, words de-hyphenated, ligatures expanded), so
it is not the PDF's text byte for byte. We therefore map it onto the page by *aligning words*: the
canonical page text's words against the PDF's words (``page.get_text("words")``, reading order)
with ``difflib.SequenceMatcher``; every canonical word that aligns lends its PDF rectangle. Words
that do not align (a de-hyphenated word, a removed header) are simply not painted.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Sequence

import pymupdf

from .. import palette

HIGHLIGHT_COLOURS = {"chunk": palette.rgb01(palette.CHUNK), "overlap": palette.rgb01(palette.OVERLAP)}
"""Fill colours (RGB 0–1, from ``inspector.palette``): the chunk's own text, text shared with a
neighbour (the overlap colour of the text view)."""

MAX_RENDER_PIXELS = 25_000_000
"""Largest page image drawn (width × height in pixels, ~75 MB of RGB): an A0 poster at the default
zoom fits; a crafted giant MediaBox (up to 14,400 pt a side, more in broken files) would need
gigabytes, and MuPDF refuses it with "Overly large image"."""

_WORD = re.compile(r"\S+")


LOST_PAGE = "its text extraction was stopped (the book's warnings say why), so it is not drawn either"
"""What the app shows in place of the image of a page whose reading was stopped (``Page.lost``):
drawing it would interpret the same content, in the app's process, without a limit."""


class PageTooLargeError(ValueError):
    """A page whose image would exceed ``MAX_RENDER_PIXELS``; its message is one line for the app."""


def render_pixels(page: pymupdf.Page, zoom: float) -> float:
    """Pixels of ``page`` rendered at ``zoom`` (its visible rectangle, rotation included)."""
    rect = page.rect
    return abs(rect.width * zoom) * abs(rect.height * zoom)


def _norm(word: str) -> str:
    return unicodedata.normalize("NFKC", word).casefold()


def highlight_rects(
    page: pymupdf.Page, page_text: str, spans: Sequence[tuple[int, int, str]]
) -> dict[str, list[pymupdf.Rect]]:
    """Rectangles of the PDF words that carry each highlighted span of the canonical page text.

    Args:
        page (pymupdf.Page): the PDF page.
        page_text (str): that page's canonical text (``book.text[page.char_start:page.char_end]``).
        spans (Sequence[tuple[int, int, str]]): ``[start, end)`` offsets into ``page_text`` with a
            class (``"chunk"`` or ``"overlap"``); a word in both gets the later class.

    Returns:
        dict[str, list[pymupdf.Rect]]: rectangles per class.
    """
    canon = [(m.start(), m.end(), _norm(m.group())) for m in _WORD.finditer(page_text)]
    words = page.get_text("words")
    matcher = difflib.SequenceMatcher(
        None, [w for _, _, w in canon], [_norm(w[4]) for w in words], autojunk=False
    )
    rects: dict[str, list[pymupdf.Rect]] = {cls: [] for _, _, cls in spans}
    for a, b, size in matcher.get_matching_blocks():
        for k in range(size):
            start, end, _ = canon[a + k]
            cls = None
            for s, e, name in spans:
                if start < e and s < end:
                    cls = name
            if cls is not None:
                rects[cls].append(pymupdf.Rect(words[b + k][:4]))
    return rects


def page_image(
    pdf: bytes, page_number: int, page_text: str, spans: Sequence[tuple[int, int, str]], *, zoom: float = 1.4
) -> bytes:
    """Render one PDF page as PNG with the spans painted in ``HIGHLIGHT_COLOURS``.

    Args:
        pdf (bytes): the PDF file.
        page_number (int): 1-based physical page.
        page_text (str): the page's canonical text.
        spans (Sequence[tuple[int, int, str]]): see ``highlight_rects``.
        zoom (float): render scale (1 = 72 dpi). Defaults to 1.4.

    Returns:
        bytes: PNG image.

    Raises:
        PageTooLargeError: the image would exceed ``MAX_RENDER_PIXELS``; nothing is drawn.
    """
    # NOTE: a fresh document per call: drawing changes the page, and the caller caches the PNG.
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        page = doc[page_number - 1]
        if render_pixels(page, zoom) > MAX_RENDER_PIXELS:
            raise PageTooLargeError(
                f"page {page_number} is too large to draw "
                f"({page.rect.width:,.0f} × {page.rect.height:,.0f} pt; "
                f"the image would exceed {MAX_RENDER_PIXELS // 1_000_000} megapixels)"
            )
        for cls, rects in highlight_rects(page, page_text, spans).items():
            for rect in rects:
                page.draw_rect(
                    rect,
                    color=None,
                    fill=HIGHLIGHT_COLOURS.get(cls, palette.rgb01(palette.UNKNOWN)),
                    fill_opacity=palette.HIGHLIGHT_OPACITY,
                    overlay=True,
                )
        return page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom)).tobytes("png")
