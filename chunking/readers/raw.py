"""Stage 1 (read): what a format reader hands to normalisation and structure detection.

Readers know their format and nothing else: they return pages of raw text in reading order, the
source's own outline (PDF bookmarks, EPUB nav/NCX) unverified, and warnings. Cross-checking the
outline, removing running headers and building the canonical text happen downstream
(``chunking.normalise``, ``chunking.structure``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..ocr.lines import OcrLine
    from .layout import PageLayout


@dataclass
class RawPage:
    """One page as the reader saw it.

    Attributes:
        number (int): 1-based physical page number.
        label (str): printed page label, ``""`` when none.
        text (str): raw text in reading order (lines separated by ``"\\n"``).
        synthetic (bool): True when the reader cut the page itself (~2,000 chars at paragraph ends).
        source_doc (str): EPUB spine document href, ``""`` otherwise.
        has_text_layer (bool): False for a PDF page that has no extractable text.
        anchors (dict[str, int]): EPUB element ids → offset in ``text`` where that element's
            text starts (used to place ``#fragment`` outline targets mid-page).
        html_headings (list[tuple[int, str, int]]): EPUB: the ``h1``-``h6`` elements whose text
            starts on this page, as (tag level, text, offset in ``text``), in order.
        links (list[tuple[int, str]]): EPUB: links from this page to other spine documents, as
            (offset in ``text``, target href relative to the OPF like ``source_doc``).
        linear (bool): EPUB: False when the page's spine item is marked ``linear="no"``
            (a cover, a translation, a copy): read, but not the book's body.
        ocr (bool): PDF: ``text`` was read by OCR (``chunking.ocr``), not from a text layer.
        ocr_confidence (float): OCR'd page: Tesseract's mean word confidence, 0-100.
        ocr_words (int): OCR'd page: the words OCR found.
        ocr_lines (tuple[OcrLine, ...]): OCR'd page: its text lines with their type size and
            place (``chunking.ocr.lines``), which the layout gives the structure engine in place
            of a text layer's.
        ocr_printout (bool): OCR'd page: taken for a page printed from a text file in one
            monospaced face (``chunking.ocr.printout``), its ``text`` rebuilt as that file's
            lines, blank lines and columns.
        lost (str | None): PDF: why the page's text is missing when reading it was stopped (its
            time or memory limit, ``chunking.readers.pdfchild``), None when it was read. Such a
            page has no text but is not a page without a text layer (``has_text_layer`` stays
            True): OCR and the layout never touch it, as they would run into the same trouble.
    """

    number: int
    label: str
    text: str
    synthetic: bool = False
    source_doc: str = ""
    has_text_layer: bool = True
    anchors: dict[str, int] = field(default_factory=dict)
    html_headings: list[tuple[int, str, int]] = field(default_factory=list)
    links: list[tuple[int, str]] = field(default_factory=list)
    linear: bool = True
    ocr: bool = False
    ocr_confidence: float = 0.0
    ocr_words: int = 0
    ocr_lines: tuple[OcrLine, ...] = ()
    ocr_printout: bool = False
    lost: str | None = None

    @property
    def typeset(self) -> bool:
        """A page a typesetter laid out (a PDF's): not cut by the reader, from no EPUB document.
        Only such text holds a typesetter's glyph readings (TeX's grave accent as a backtick)."""
        return not self.synthetic and not self.source_doc


MAX_PAGES_NAMED = 10
"""Most pages a warning names; the rest are counted."""


def pages_named(items: list[str]) -> str:
    """``3, 7, 9 and 4 more``: at most ``MAX_PAGES_NAMED`` pages (or page notes) of a warning."""
    listed = ", ".join(items[:MAX_PAGES_NAMED])
    return listed + (f" and {len(items) - MAX_PAGES_NAMED} more" if len(items) > MAX_PAGES_NAMED else "")


@dataclass
class OutlineEntry:
    """One entry of the source's own outline, as the source states it (may be wrong).

    Attributes:
        level (int): 1-based nesting level in the source outline.
        title (str): the entry's title, as stored (may carry junk).
        page (int): 1-based physical page of the destination; 0 when unresolved.
        y (float | None): PDF: the destination's distance from the page top in points, if known.
        offset (int | None): EPUB: offset in that page's ``text`` where the target starts.
    """

    level: int
    title: str
    page: int
    y: float | None = None
    offset: int | None = None


@dataclass
class RawBook:
    """Everything a reader found. ``pdf`` is the open ``pymupdf.Document`` for PDFs, else None:
    the reader's own handle (``close`` closes it; ingest does). The structure stage sees only
    ``layout``."""

    format: str
    title: str
    pages: list[RawPage]
    outline: list[OutlineEntry]
    warnings: list[str] = field(default_factory=list)
    pdf: Any = None
    pages_reader: Any = None
    """For a PDF, the file open in its bounded page reader (``chunking.readers.pdfchild.BoundedPdf``),
    which answers the layout's questions; ``close`` closes it."""
    markup: str = ""
    """The markup whose headings make ``outline`` (``markdown``, ``pod``, ``wiki``, ``asciidoc``, ``org``, ``rst``,
    ``sgml``, ``jats``, ``texinfo``, ``latex``, ``lyx``…), ``""`` for a book without one: such an outline is the author's own structure, at exact offsets."""

    @property
    def layout(self) -> PageLayout | None:
        """The typed layout view (fonts, blocks, heights) of a printed book; None without one."""
        if self.pdf is None:
            return None
        from .layout import PdfLayout  # NOTE: imports PyMuPDF; text and EPUB books never need it

        return PdfLayout(
            self.pdf,
            self.pages_reader,
            {p.number - 1: p.ocr_lines for p in self.pages if p.ocr},
            {p.number - 1 for p in self.pages if p.lost is not None},
        )

    def close(self) -> None:
        """Close the document and its page reader (if any). A page whose layout the reader
        stopped (``BoundedPdf.stopped``) is named in one more line of ``warnings``."""
        if self.pages_reader is not None:
            self.pages_reader.close()
            stopped = {
                index: why
                for index, (question, why) in self.pages_reader.stopped.items()
                if question in ("lines", "blocks")
            }
            if stopped:
                listed = pages_named([f"{i + 1} ({why})" for i, why in sorted(stopped.items())])
                self.warnings.append(
                    f"reading the layout (type sizes, positions) of {len(stopped)} pages was stopped"
                    f" (p. {listed}); their headings were judged by their text alone"
                )
            self.pages_reader = None
        if self.pdf is not None:
            self.pdf.close()


_SURROGATE = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"
"""What a lone surrogate becomes: it cannot be encoded as UTF-8, so no writer could export it."""


def clean(text: str) -> str:
    """``text`` with every lone surrogate (from a broken PDF string, ``surrogateescape`` bytes)
    replaced by U+FFFD, so that every later stage can encode it."""
    if text.isascii() or not _SURROGATE.search(text):
        return text
    return _SURROGATE.sub(REPLACEMENT, text)


def sanitise(book: RawBook) -> int:
    """Clean every string a reader hands on (title, page texts and labels, anchors, headings,
    links, outline titles, warnings) in place; return how many strings held lone surrogates.

    NOTE: done once on the reader's output (``chunking.readers.read_raw``) rather than in each
    reader, so that no new reader or new field can forget it.
    """
    changed = 0

    def fix(text: str) -> str:
        nonlocal changed
        out = clean(text)
        changed += out is not text
        return out

    book.title = fix(book.title)
    book.warnings = [fix(w) for w in book.warnings]
    for entry in book.outline:
        entry.title = fix(entry.title)
    for page in book.pages:
        page.text = fix(page.text)
        page.label = fix(page.label)
        page.source_doc = fix(page.source_doc)
        if page.anchors:
            page.anchors = {fix(k): v for k, v in page.anchors.items()}
        page.html_headings = [(level, fix(t), off) for level, t, off in page.html_headings]
        page.links = [(off, fix(t)) for off, t in page.links]
    return changed
