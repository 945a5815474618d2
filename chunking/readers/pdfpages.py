"""PDF page text with MuPDF's own text writer: what the PDF reader (``chunking.readers.pdf``)
reads from every page."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import pymupdf

from .pdfspaces import with_gap_spaces, with_mirrored_glyphs_joined, with_tracking_joined
from .pdftypewriter import with_typewriter_blank_lines

# NOTE: MuPDF's messages are read from its log (``mupdf_warnings``), never printed.
pymupdf.TOOLS.mupdf_display_errors(False)
pymupdf.TOOLS.mupdf_display_warnings(False)

_SURROGATES = re.compile("[\ud800-\udfff]")
"""Code points MuPDF may emit that no valid text holds (an orphaned surrogate in a font's map)."""

_MUPDF_NUL = b"\xc0\x80"
"""How MuPDF's writer encodes U+0000 (modified UTF-8)."""

OVERPRINT_SHARE = 0.2
"""Two lines of the same text whose boxes start within this share of the line's height of each
other (across and down) are one line drawn twice: a shadow or a fake bold prints the same text
again a fraction of a point away (0.3 pt is common); a line that really repeats stands at least
a line's height away."""

MIN_OVERPRINT_CHARS = 2
"""Only lines of at least this many non-space characters are compared (a repeated ``}`` or
bullet is no text worth writing the page again with its boxes)."""


TEXT_FLAGS = pymupdf.TEXTFLAGS_TEXT & ~pymupdf.TEXT_PRESERVE_LIGATURES
"""The structured-text flags of a page's text: ``get_text()``'s, but ligatures expanded by MuPDF.

Why (issue 25): MuPDF adds a word space where the next glyph starts a gap after the last one, but
only after a character of a few scripts (its ``may_add_space``), and a ligature glyph
(U+FB00-FB06) is none of them: ``turned oﬀ by default`` came out ``oﬀby``, a word lost at every
ligature that ends a word (``off``, ``stuff``, ``Dayhoff``). Expanded, the ligature's last
character is a letter and the space is found. The normaliser expands ligatures anyway."""


def page_text(page: pymupdf.Page) -> str:
    """A page's plain text: every text line of MuPDF's structured text, in content order, each
    ended by one newline.

    This is ``page.get_text(flags=TEXT_FLAGS)``'s text (same structured text, same flags)
    written by MuPDF's own C text writer instead of PyMuPDF's per-character Python loop
    (tests/test_reads_match_public_api.py checks they agree). Two deliberate differences, both only on
    lines of unmapped font glyphs (TeX math fonts without a ToUnicode map): no blank lines
    (``get_text`` gives one after a newline glyph) and a line that ends with U+0000 still ends
    with a newline (``get_text`` glues it to the next line). Orphaned surrogates become U+FFFD,
    as in ``get_text``.
    """
    return _written(page, _stext(page))


def _stext(page: pymupdf.Page) -> Any:
    """The page's structured text (MuPDF's), with ``TEXT_FLAGS``."""
    options = pymupdf.mupdf.FzStextOptions()
    options.flags = TEXT_FLAGS
    return pymupdf.mupdf.FzStextPage(page.this, options)


def _written(page: pymupdf.Page, stext: Any, spaced: bool = False) -> str:
    """``stext`` written as text by MuPDF's writer (see ``page_text``); ``spaced``: with the word
    spaces MuPDF leaves out put back (``with_gap_spaces``: after characters of most scripts, on
    tight lines, after a footnote mark), a letter-spaced word read as one
    (``with_tracking_joined``) and a mirrored glyph read back into its word
    (``with_mirrored_glyphs_joined``)."""
    buffer = pymupdf.mupdf.FzBuffer(4096)
    out = pymupdf.mupdf.FzOutput(buffer)
    pymupdf.mupdf.fz_print_stext_page_as_text(out, stext)
    out.fz_close_output()
    raw = pymupdf.mupdf.fz_buffer_extract(buffer).replace(_MUPDF_NUL, b"\x00")
    try:
        text = raw.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:  # bytes MuPDF's writer should never produce: PyMuPDF's own path
        return _without_blank_lines(page.get_text())
    if b"\xed" in raw:  # NOTE: the lead byte of every surrogate's (invalid) UTF-8 form
        text = _SURROGATES.sub("\ufffd", text)
    if spaced:
        text = with_gap_spaces(text, stext)
        text = with_mirrored_glyphs_joined(with_tracking_joined(text, stext), stext)
    return _without_blank_lines(text)


def _without_blank_lines(text: str) -> str:
    """``text`` with every run of line ends made one: MuPDF's writer ends each block with an empty
    line (and a line may hold a newline glyph); a page's text has no blank lines.

    NOTE: ``str.replace`` until no pair is left, not a regex: faster, and a page needs one pass
    unless it holds a newline glyph.
    """
    while "\n\n" in text:
        text = text.replace("\n\n", "\n")
    return text


def without_overprints(text: str, stext: Any) -> str:
    """``text`` (the page's ``page_text``, from ``stext``) with every line drawn again at nearly
    the same place (``OVERPRINT_SHARE``) kept once.

    Why: a shadow or a poor man's bold prints a line twice, a fraction of a point apart; MuPDF
    reads both copies as lines of their own, so the chunk, the index and every search hold the
    text twice (pdftotext reads it once). Only positions tell a copy from a line the book really
    repeats (a table's repeated cell, a refrain), so a page whose text repeats a line has its
    structured text written again with line boxes (MuPDF's JSON writer, from the same
    structured text: no second extraction). Those are the lines of ``text``; when the two do not
    pair up one for one, the text is left as it is rather than guessed at.
    """
    lines = text.split("\n")
    counts = Counter(
        line.strip() for line in lines if len(line.strip().replace(" ", "")) >= MIN_OVERPRINT_CHARS
    )
    if not counts or counts.most_common(1)[0][1] < 2:
        return text
    boxed = _boxed_lines(stext)
    kept_lines = [line for line in lines if line]
    if boxed is None or len(boxed) != len(kept_lines):
        return text
    # NOTE: spaces aside: ``text`` may hold word spaces the JSON writer's lines lack
    # (``with_gap_spaces``); the keys are ``text``'s lines.
    if any(a.replace(" ", "") != b.replace(" ", "") for (a, _), b in zip(boxed, kept_lines)):
        return text
    seen: dict[str, list[tuple[float, float, float]]] = {}
    drop = set()
    for k, ((_, box), line_text) in enumerate(zip(boxed, kept_lines)):
        key = line_text.strip()
        if counts.get(key, 0) < 2:
            continue
        if any(_overprinted(box, other) for other in seen.get(key, ())):
            drop.add(k)
        else:
            seen.setdefault(key, []).append(box)
    if not drop:
        return text
    out, k = [], 0
    for line in lines:
        if line:
            if k not in drop:
                out.append(line)
            k += 1
        else:
            out.append(line)
    return "\n".join(out)


def _boxed_lines(stext: Any) -> list[tuple[str, tuple[float, float, float]]] | None:
    """Every text line of ``stext`` as (text, (left, top, height)), from MuPDF's JSON writer (whole
    points); None when its output cannot be read."""
    buffer = pymupdf.mupdf.FzBuffer(4096)
    out = pymupdf.mupdf.FzOutput(buffer)
    pymupdf.mupdf.fz_print_stext_page_as_json(out, stext, 1.0)
    out.fz_close_output()
    try:
        blocks = json.loads(pymupdf.mupdf.fz_buffer_extract(buffer).decode("utf-8", "replace"))["blocks"]
        return [
            (line["text"], (float(line["bbox"]["x"]), float(line["bbox"]["y"]), float(line["bbox"]["h"])))
            for block in blocks
            if block.get("type") == "text"
            for line in block["lines"]
        ]
    except (ValueError, KeyError, TypeError):
        return None


def _overprinted(box: tuple[float, float, float], other: tuple[float, float, float]) -> bool:
    """Whether two line boxes (left, top, height) start at nearly the same place
    (``OVERPRINT_SHARE`` of the height, at least one point: the JSON writer gives whole points)."""
    reach = max(1.0, OVERPRINT_SHARE * max(box[2], other[2]))
    return abs(box[0] - other[0]) <= reach and abs(box[1] - other[1]) <= reach


def page_content(page: pymupdf.Page) -> tuple[str, bool]:
    """A page's plain text (lines drawn twice at nearly one place kept once,
    ``without_overprints``; a typewritten page's blank lines put back,
    ``with_typewriter_blank_lines``) and whether it has a text layer.

    NOTE: a page without text is "without a text layer" only when it shows something (an image);
    a blank separator page is just empty.
    """
    stext = _stext(page)
    text = without_overprints(_written(page, stext, spaced=True), stext)
    text = with_typewriter_blank_lines(text, stext, page)
    return text, bool(text.strip()) or not page.get_images(full=False)


BOLD_FLAG = 16
"""PyMuPDF's span flag for a bold font (fonts that say "Bold" in their name count too)."""

_DICT_FLAGS = pymupdf.TEXTFLAGS_DICT & ~pymupdf.TEXT_PRESERVE_IMAGES
"""Span extraction without image blocks (their pixel data is never needed)."""


def page_lines(page: pymupdf.Page, top_share: float | None = None) -> list[tuple[str, float, bool, float]]:
    """A page's text lines in reading order as (text, largest size, every span bold, left x); with
    ``top_share`` only those in that top share of the page (a clip makes MuPDF skip the glyphs
    outside it: the top band costs about a quarter of the whole page)."""
    clip = None
    if top_share is not None:
        r = page.rect
        clip = pymupdf.Rect(r.x0, r.y0, r.x1, r.y0 + r.height * top_share)
    out = []
    for block in page.get_text("dict", flags=_DICT_FLAGS, clip=clip)["blocks"]:
        for line in block.get("lines", ()):
            spans = [s for s in line["spans"] if s["text"].strip()]
            if spans:
                out.append(
                    (
                        "".join(s["text"] for s in spans),
                        max(s["size"] for s in spans),
                        all(s["flags"] & BOLD_FLAG or "bold" in s["font"].casefold() for s in spans),
                        line["bbox"][0],
                    )
                )
    return out


def page_blocks(page: pymupdf.Page) -> list[tuple[float, float, str]]:
    """A page's text blocks as (top, bottom, text with lines by ``\\n``), in points from the page top."""
    return [(y0, y1, text) for _x0, y0, _x1, y1, text, *_ in page.get_text("blocks", flags=0)]


def page_image(page: pymupdf.Page, dpi: int) -> tuple[bytes, str]:
    """The page rendered grey at ``dpi`` as a PNM image, and the fingerprint of its pixels
    (``chunking.ocr.fingerprint.pixel_fingerprint``): what OCR needs of a page."""
    from ..ocr.fingerprint import pixel_fingerprint

    pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False)
    return pix.tobytes("pnm"), pixel_fingerprint(pix)


def page_words(page: pymupdf.Page) -> list[tuple[float, float, float, float, str]]:
    """A page's words in reading order as (x0, y0, x1, y1, word), in points on the page as it
    is shown (its rotation applied, like ``page_picture``'s pixels)."""
    turn = page.rotation_matrix
    return [(*tuple(pymupdf.Rect(w[:4]) * turn), w[4]) for w in page.get_text("words")]


def page_picture(page: pymupdf.Page, zoom: float) -> tuple[int, int, bytes]:
    """The page rendered in RGB at ``zoom`` (1 = 72 dpi): width, height and the pixels' bytes."""
    pix = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False)
    return pix.width, pix.height, bytes(pix.samples)
