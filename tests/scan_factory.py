"""Generated scanned pages for the OCR tests: known text rendered to an image at 300 dpi
(optionally rotated, noisy, in two columns) and inserted as an image-only page into an
otherwise born-digital PDF. The words are generated, so a test knows exactly what OCR should
read (``word_accuracy``).
"""

from __future__ import annotations

import difflib
import random
import textwrap

import numpy as np
import pymupdf

WIDTH, HEIGHT = 595, 842
"""A4 in points, as ``tests/pdf_factory.py``."""
SCAN_DPI = 300
MARGIN = 72
BODY_SIZE = 12

_WORDS = (
    "the river valley north station engine paper letter garden window market winter summer "
    "morning evening village harbour bridge mountain forest island castle library teacher "
    "doctor farmer painter writer reader traveller measure number figure pattern season "
    "history science language country silver golden bright quiet gentle simple careful "
    "narrow broad early later between under across beyond before after during within "
    "carried opened painted walked wrote found turned moved watched counted gathered "
    "and of to in was with for that from this were which their"
).split()


def sentences(n_words: int, seed: int) -> str:
    """``n_words`` of generated prose (sentences of 8-14 words, capitalised, full stops)."""
    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < n_words:
        length = min(rng.randint(8, 14), n_words - len(out))
        words = [rng.choice(_WORDS) for _ in range(length)]
        words[0] = words[0].capitalize()
        words[-1] += "."
        out.extend(words)
    return " ".join(out)


def _text_page(doc: pymupdf.Document, text: str, *, heading: str = "", columns: int = 1) -> pymupdf.Page:
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    top = MARGIN
    if heading:
        page.insert_text((MARGIN, top + 20), heading, fontsize=20, fontname="tibo")
        top += 44
    width = (WIDTH - 2 * MARGIN - 24 * (columns - 1)) / columns
    words = text.split()
    per_column = -(-len(words) // columns)
    for c in range(columns):
        left = MARGIN + c * (width + 24)
        box = pymupdf.Rect(left, top, left + width, HEIGHT - MARGIN)
        chunk = " ".join(words[c * per_column : (c + 1) * per_column])
        spare = page.insert_textbox(box, chunk, fontsize=BODY_SIZE, fontname="tiro")
        if spare < 0:
            raise ValueError(f"text does not fit the page ({spare:.0f} pt short); give fewer words")
    return page


def scan_image(
    text: str,
    *,
    heading: str = "",
    columns: int = 1,
    rotate: float = 0.0,
    noise: float = 0.0,
    seed: int = 0,
    blurred_from_dpi: int = 0,
) -> pymupdf.Pixmap:
    """A grey 300-dpi image of a page showing ``heading`` and ``text`` (what a scanner gives).

    Args:
        rotate (float): degrees the page is turned on the scanner's glass.
        noise (float): share of pixels flipped to black or white (speckle).
        blurred_from_dpi (int): render at this resolution and enlarge to 300 dpi (a photocopy of
            a fax: OCR reads it with low confidence).
    """
    doc = pymupdf.open()
    page = _text_page(doc, text, heading=heading, columns=columns)
    zoom = (blurred_from_dpi or SCAN_DPI) / 72
    pix = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom).prerotate(rotate), colorspace=pymupdf.csGRAY, alpha=False)
    if blurred_from_dpi:
        scale = SCAN_DPI / blurred_from_dpi
        pix = pymupdf.Pixmap(pix, int(pix.width * scale), int(pix.height * scale), None)
    if noise:
        pixels = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width).copy()
        rng = np.random.default_rng(seed)
        flip = rng.random(pixels.shape) < noise
        pixels[flip] = rng.choice(np.array([0, 255], dtype=np.uint8), size=int(flip.sum()))
        pix = pymupdf.Pixmap(pymupdf.csGRAY, pix.width, pix.height, pixels.tobytes(), False)
    pix.set_dpi(SCAN_DPI, SCAN_DPI)
    return pix


def printout_image(text: str, *, font_size: float = 10.0, pitch: float = 12.0) -> pymupdf.Pixmap:
    """A grey 300-dpi image of a page printed from a text file: each line of ``text`` in
    Courier (one advance for every character, spaces included) at one line ``pitch`` from the
    top margin, so an empty line is a blank line's space and leading spaces an indent."""
    doc = pymupdf.open()
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    for row, line in enumerate(text.split("\n")):
        if line.strip():
            page.insert_text((MARGIN, MARGIN + pitch * (row + 1)), line, fontsize=font_size, fontname="cour")
    zoom = SCAN_DPI / 72
    pix = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), colorspace=pymupdf.csGRAY, alpha=False)
    pix.set_dpi(SCAN_DPI, SCAN_DPI)
    return pix


def wrapped(text: str, width: int, indent: int) -> list[str]:
    """``text`` wrapped to lines of at most ``width`` columns, each ``indent`` columns in."""
    return textwrap.wrap(text, width - indent, initial_indent=" " * indent, subsequent_indent=" " * indent)


def add_scanned_page(doc: pymupdf.Document, pix: pymupdf.Pixmap, *, garbage_layer: str = "") -> pymupdf.Page:
    """Append an image-only page showing ``pix`` full page; ``garbage_layer``: also an invisible
    text layer holding that text (what a bad earlier OCR leaves over a scan)."""
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    page.insert_image(page.rect, pixmap=pix)
    if garbage_layer:
        page.insert_textbox(
            pymupdf.Rect(MARGIN, MARGIN, WIDTH - MARGIN, HEIGHT - MARGIN), garbage_layer, fontsize=10, render_mode=3
        )
    return page


def add_text_page(doc: pymupdf.Document, text: str, *, heading: str = "") -> pymupdf.Page:
    """Append a born-digital page (a real text layer)."""
    return _text_page(doc, text, heading=heading)


def add_invalid_image_page(doc: pymupdf.Document) -> pymupdf.Page:
    """Append a page whose only content is an image whose data is corrupt (the stream says
    Flate but holds junk)."""
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    pix = pymupdf.Pixmap(pymupdf.csGRAY, pymupdf.IRect(0, 0, 64, 64), False)
    pix.clear_with(120)
    xref = page.insert_image(page.rect, pixmap=pix)
    doc.update_stream(xref, b"\x00\xffnot an image at all" * 20, compress=False)
    return page


def word_accuracy(expected: str, got: str) -> float:
    """Share of the expected words OCR read, in order (longest matching blocks of the two word
    sequences, punctuation and case ignored)."""

    def words(text: str) -> list[str]:
        return [w.strip(".,;:!?\"'").lower() for w in text.split() if w.strip(".,;:!?\"'")]

    want, have = words(expected), words(got)
    matcher = difflib.SequenceMatcher(None, want, have, autojunk=False)
    return sum(block.size for block in matcher.get_matching_blocks()) / max(1, len(want))


def save(doc: pymupdf.Document) -> bytes:
    """The document's bytes (images compressed, as a scanner's PDF would be)."""
    return doc.tobytes(garbage=3, deflate=True)


CHAPTER_TITLES = ("The River Valley", "Winter Harbour", "A Quiet Garden", "Northern Stations", "The Silver Market")


def scanned_book(pages_per_chapter: int = 10, chapters: int = 4, turned: bool = True) -> tuple[bytes, list[int]]:
    """A wholly scanned book: ``chapters`` chapters of ``pages_per_chapter`` pages, each opening
    with its title alone (no number, no keyword) set large at the top of its page, so only the
    title's size tells it from the body. With ``turned``, every other page is turned 1-2 degrees
    on the glass (alternately clockwise and back) and speckled, chapter openings included.

    Returns:
        tuple[bytes, list[int]]: the PDF and the 1-based pages the chapters open on.
    """
    doc = pymupdf.open()
    openings = []
    for n in range(chapters * pages_per_chapter):
        heading = CHAPTER_TITLES[n // pages_per_chapter] if n % pages_per_chapter == 0 else ""
        if heading:
            openings.append(n + 1)
        angle = (1.5 if n % 4 == 0 else -1.2) if turned and n % 2 == 0 else 0.0
        noise = 0.01 if turned and n % 2 == 0 else 0.0
        text = sentences(100 if heading else 120, seed=200 + n)
        add_scanned_page(doc, scan_image(text, heading=heading, rotate=angle, noise=noise, seed=n))
    return save(doc), openings
