"""App stage (display): a PDF page rendered as an image with a chunk's text highlighted on it.

The canonical text is normalised (headers removed, words de-hyphenated, ligatures expanded), so
it is not the PDF's text byte for byte. We therefore map it onto the page by *aligning words*: the
canonical page text's words against the PDF's words (MuPDF's words, reading order) with
``difflib.SequenceMatcher``; every canonical word that aligns lends its PDF rectangle. Words
that do not align (a de-hyphenated word, a removed header) are simply not painted.

The page's words and pixels come from the bounded page reader (``chunking.readers.pdfchild``):
drawing a page interprets its content, and a page whose text was read in time may still draw for
hours (an image drawn a hundred thousand times); there it is stopped at the page deadline and the
app says so instead of hanging. The highlights are painted here, over the pixels (Pillow).
"""

from __future__ import annotations

import difflib
import io
import re
import unicodedata
from collections.abc import Sequence

import pymupdf
from PIL import Image, ImageDraw

from chunking.errors import PageRefused
from chunking.readers.pdfchild import BoundedPdf, PageLimits

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


class PageNotDrawnError(ValueError):
    """A page the app shows no image of; its message is one line for the app."""


class PageTooLargeError(PageNotDrawnError):
    """A page whose image would exceed ``MAX_RENDER_PIXELS``."""


Word = tuple[float, float, float, float, str]
"""A PDF word: its rectangle on the page as shown (x0, y0, x1, y1, in points) and its text."""


def render_pixels(page: pymupdf.Page, zoom: float) -> float:
    """Pixels of ``page`` rendered at ``zoom`` (its visible rectangle, rotation included)."""
    rect = page.rect
    return abs(rect.width * zoom) * abs(rect.height * zoom)


def _norm(word: str) -> str:
    return unicodedata.normalize("NFKC", word).casefold()


def highlight_rects(
    words: Sequence[Word], page_text: str, spans: Sequence[tuple[int, int, str]]
) -> dict[str, list[pymupdf.Rect]]:
    """Rectangles of the PDF words that carry each highlighted span of the canonical page text.

    Args:
        words (Sequence[Word]): the PDF page's words in reading order
            (``chunking.readers.pdfpages.page_words``).
        page_text (str): that page's canonical text (``book.text[page.char_start:page.char_end]``).
        spans (Sequence[tuple[int, int, str]]): ``[start, end)`` offsets into ``page_text`` with a
            class (``"chunk"`` or ``"overlap"``); a word in both gets the later class.

    Returns:
        dict[str, list[pymupdf.Rect]]: rectangles per class.
    """
    canon = [(m.start(), m.end(), _norm(m.group())) for m in _WORD.finditer(page_text)]
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
        PageNotDrawnError: the page reader stopped the page (the page limits) or MuPDF could
            not draw it.
    """
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:  # NOTE: the page's size only: no content drawn
        page = doc[page_number - 1]
        if render_pixels(page, zoom) > MAX_RENDER_PIXELS:
            raise PageTooLargeError(
                f"page {page_number} is too large to draw "
                f"({page.rect.width:,.0f} × {page.rect.height:,.0f} pt; "
                f"the image would exceed {MAX_RENDER_PIXELS // 1_000_000} megapixels)"
            )
    reader = BoundedPdf(pdf, PageLimits.from_env())
    try:
        words = reader.ask("words", page_number - 1)
        width, height, pixels = reader.ask("picture", page_number - 1, zoom)
    except PageRefused as exc:
        raise PageNotDrawnError(f"page {page_number} could not be drawn ({exc})") from None
    finally:
        reader.close()
    image = Image.frombytes("RGB", (width, height), pixels).convert("RGBA")
    layer = Image.new("RGBA", image.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    alpha = round(255 * palette.HIGHLIGHT_OPACITY)
    for cls, rects in highlight_rects(words, page_text, spans).items():
        rgb = HIGHLIGHT_COLOURS.get(cls, palette.rgb01(palette.UNKNOWN))
        fill = (*(round(255 * c) for c in rgb), alpha)
        for rect in rects:
            draw.rectangle([rect.x0 * zoom, rect.y0 * zoom, rect.x1 * zoom, rect.y1 * zoom], fill=fill)
    out = io.BytesIO()
    Image.alpha_composite(image, layer).convert("RGB").save(out, format="PNG")
    return out.getvalue()
