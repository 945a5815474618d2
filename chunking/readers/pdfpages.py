"""PDF page text with MuPDF's own text writer: what the PDF reader (``chunking.readers.pdf``)
reads from every page."""

from __future__ import annotations

import re

import pymupdf

# NOTE: MuPDF's messages are read from its log (``mupdf_warnings``), never printed.
pymupdf.TOOLS.mupdf_display_errors(False)
pymupdf.TOOLS.mupdf_display_warnings(False)

_SURROGATES = re.compile("[\ud800-\udfff]")
"""Code points MuPDF may emit that no valid text holds (an orphaned surrogate in a font's map)."""

_MUPDF_NUL = b"\xc0\x80"
"""How MuPDF's writer encodes U+0000 (modified UTF-8)."""


def page_text(page: pymupdf.Page) -> str:
    """A page's plain text: every text line of MuPDF's structured text, in content order, each
    ended by one newline.

    This is ``page.get_text()``'s text (same structured text, same flags ``TEXTFLAGS_TEXT``)
    written by MuPDF's own C text writer instead of PyMuPDF's per-character Python loop
    (tests/test_reads_match_public_api.py checks they agree). Two deliberate differences, both only on
    lines of unmapped font glyphs (TeX math fonts without a ToUnicode map): no blank lines
    (``get_text`` gives one after a newline glyph) and a line that ends with U+0000 still ends
    with a newline (``get_text`` glues it to the next line). Orphaned surrogates become U+FFFD,
    as in ``get_text``.
    """
    options = pymupdf.mupdf.FzStextOptions()
    options.flags = pymupdf.TEXTFLAGS_TEXT
    stext = pymupdf.mupdf.FzStextPage(page.this, options)
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


def page_content(page: pymupdf.Page) -> tuple[str, bool]:
    """A page's plain text and whether it has a text layer.

    NOTE: a page without text is "without a text layer" only when it shows something (an image);
    a blank separator page is just empty.
    """
    text = page_text(page)
    return text, bool(text.strip()) or not page.get_images(full=False)
