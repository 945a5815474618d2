"""Stage 1 (read), PDF: bytes → ``RawBook`` with PyMuPDF.

Contract: pages come back in physical order with their printed label and plain text in the
PDF's content order, one line per MuPDF text line (``pdfpages.page_text``: MuPDF's own text writer; not
``sort=True``, which is much slower and did not change the reading order of the sample books'
single-column pages). The outline is returned as the PDF states it, unverified, with each destination's distance from the page top so structure
detection can place mid-page starts. Every refusal is one ``UnreadableInputError`` line naming
the file; nothing here can hang on hostile bytes (the header is checked before MuPDF parses).

Page text is read in a child process with a deadline and a memory limit per page
(``pdfchild``): a page that exceeds either is stopped, named in one warning and marked
``RawPage.lost``, and the rest of the book is read. The child keeps the file open afterwards
(``RawBook.pages_reader``) for every later question that interprets a page's content (OCR's
page images, the layout's lines and blocks), under the same limits. This process opens the
document too, for the labels, the outline and the page sizes, which interpret no page content.
"""

from __future__ import annotations

import hashlib
import math
import re
from pathlib import PurePath

import pymupdf

from ..errors import UnreadableInputError
from ..rules import to_roman
from .pdfchild import BoundedPdf, Extracted, PageLimits, extract_pages
from .raw import OutlineEntry, RawBook, RawPage, pages_named

_PDF_MAGIC = b"%PDF-"
_HEADER_WINDOW = 1024
"""The PDF header must start within the first KiB (the PDF spec's tolerance for leading junk)."""

_EOF_WINDOW = 4096
"""A complete PDF ends with ``%%EOF`` near the end; this much trailing junk is tolerated."""

_FILENAME_TITLE = re.compile(r"\.(?:dvi|tex|pdf|docx?|odt|ps|indd|qxd)$|^(?:untitled|microsoft word)", re.I)


def read_pdf(
    data: bytes,
    name: str,
    ocr: str = "auto",
    ocr_language: str = "eng",
    limits: PageLimits | None = None,
    sha256: str | None = None,
) -> RawBook:
    """Read a PDF's pages, labels, outline and title; OCR the pages without a usable text layer.

    Args:
        data (bytes): the whole file.
        name (str): the file name, used in messages and as the fallback title.
        ocr (str): ``auto``, ``never`` or ``always`` (``chunking.ocr.ocr_pages``). Defaults to ``auto``.
        ocr_language (str): Tesseract language(s). Defaults to ``eng``.
        limits (PageLimits | None): time and memory per page (``pdfchild``); None: the defaults,
            or the environment's (``PageLimits.from_env``).
        sha256 (str | None): the sha256 of ``data`` when the caller has it (``load_book`` does:
            it is the book id); None: taken here. OCR's book record is filed under it.

    Returns:
        RawBook: format ``"pdf"``; ``pdf`` holds the open document and ``pages_reader`` the
        same file open in the bounded page reader, so structure detection can probe font sizes
        on the few lines that could be headings (``RawBook.close`` closes both).

    Raises:
        UnreadableInputError: not a PDF, corrupt, truncated, password-protected, no pages, or no
            text on any page (no text layer, and OCR found none or could not run).
        UsageError: ``ocr="always"`` where Tesseract or the language's data is missing; a page
            limit in the environment is not a positive number.
    """
    if _PDF_MAGIC not in data[:_HEADER_WINDOW]:
        raise UnreadableInputError(f"{name}: not a PDF file (no %PDF- header)")
    # NOTE: MuPDF silently rebuilds a truncated file from what is left, dropping the pages it
    # cannot find. Losing pages silently breaks provenance, so a missing %%EOF is refused.
    if b"%%EOF" not in data[-_EOF_WINDOW:]:
        raise UnreadableInputError(
            f"{name}: the PDF is truncated (no %%EOF at the end); re-download or re-export it"
        )
    pymupdf.TOOLS.mupdf_warnings(reset=True)
    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
    except Exception as exc:  # MuPDF raises its own FileDataError/RuntimeError variants
        raise UnreadableInputError(f"{name}: corrupt PDF ({_one_line(exc)})") from None
    if doc.needs_pass:
        raise UnreadableInputError(
            f"{name}: the PDF is password-protected; remove the password and try again"
        )
    if doc.page_count == 0:
        raise UnreadableInputError(f"{name}: the PDF has no pages")
    limits = limits or PageLimits.from_env()
    try:
        extracted = extract_pages(data, doc.page_count, name, limits)
    except UnreadableInputError:
        raise
    except Exception as exc:  # PageError
        raise UnreadableInputError(f"{name}: corrupt PDF ({_one_line(exc)})") from None
    reader = extracted.document
    assert reader is not None  # NOTE: extract_pages always leaves the file open in a reader
    try:
        sha256 = sha256 or hashlib.sha256(data).hexdigest()
        return _finish(doc, reader, extracted, name, ocr, ocr_language, limits, sha256)
    except BaseException:
        reader.close()
        doc.close()
        raise


def _finish(
    doc: pymupdf.Document,
    reader: BoundedPdf,
    extracted: Extracted,
    name: str,
    ocr: str,
    ocr_language: str,
    limits: PageLimits,
    sha256: str,
) -> RawBook:
    """The rest of ``read_pdf`` once the pages' text is read: labels, outline, warnings, OCR."""
    try:
        pages = _read_pages(doc, extracted)
        outline = _read_outline(doc)
    except Exception as exc:  # MuPDF on the outline
        raise UnreadableInputError(f"{name}: corrupt PDF ({_one_line(exc)})") from None
    messages = pymupdf.TOOLS.mupdf_warnings(reset=True)
    warnings = _damage(doc, pages, "\n".join([messages, *extracted.messages]), extracted.repaired)
    if not outline and _has_outline(doc):
        warnings.append(
            "the PDF's outline (bookmarks) could not be read (a loop or a broken entry in it);"
            " structure comes from the text"
        )
    lost = extracted.warning(limits)
    if lost:
        warnings.append(lost)
    from ..ocr.pages import ocr_pages  # NOTE: after the checks: a refused file never looks for Tesseract

    outcome = ocr_pages(doc, reader, pages, ocr, ocr_language, sha256)
    warnings.extend(outcome.warnings)
    if all(not p.text.strip() for p in pages):
        if lost:
            raise UnreadableInputError(f"{name}: no text could be read: {lost}")
        raise UnreadableInputError(
            f"{name}: the PDF has no text layer (scanned images?) and {outcome.empty_reason}"
        )
    return RawBook(
        format="pdf",
        title=_title(doc, name),
        pages=pages,
        outline=outline,
        warnings=warnings,
        pdf=doc,
        pages_reader=reader,
    )


def _damage(doc: pymupdf.Document, pages: list[RawPage], messages: str, repaired: bool = False) -> list[str]:
    """Warnings for a damaged file: MuPDF repaired it (``repaired``: while reading pages, in
    the child), or a page object is not a page.

    NOTE: MuPDF rebuilds a broken cross-reference table and shows a page whose object is
    destroyed as an empty page, without raising; only its message log (and ``is_repaired``)
    tells. Such a page's text is lost, so it is named, not passed off as a blank page. A page
    stopped by the page limits (``RawPage.lost``) has its own warning.
    """
    warnings: list[str] = []
    repaired = repaired or doc.is_repaired or "repair" in messages
    if repaired:
        warnings.append("the PDF is damaged (MuPDF had to repair it); some text may be missing")
    empty = [p.number for p in pages if not p.text.strip() and p.lost is None]
    broken = [n for n in empty if not _is_page_object(doc, n - 1)]
    if broken:
        warnings.append(
            f"{len(broken)} pages could not be read (damaged page objects: "
            f"{pages_named([str(n) for n in broken])}); their text is missing"
        )
    # NOTE: a page object can survive while its content stream is destroyed: after the repair it
    # is an empty page like a blank verso, and nothing tells the two apart. Both are named.
    emptied = [n for n in empty if n not in set(broken)] if repaired else []
    if emptied:
        warnings.append(
            f"{len(emptied)} pages came out empty after MuPDF repaired the file (pages {pages_named([str(n) for n in emptied])});"
            " blank in the original, or their text is missing"
        )
    return warnings


def _has_outline(doc: pymupdf.Document) -> bool:
    """Whether the catalog names an outline with a first entry. MuPDF gives no outline at all,
    and no message, when one entry of it is broken so that the walk would loop."""
    try:
        kind, value = doc.xref_get_key(doc.pdf_catalog(), "Outlines")
        if kind != "xref":
            return False
        return doc.xref_get_key(int(value.split()[0]), "First")[0] == "xref"
    except Exception:  # noqa: BLE001 - a catalog MuPDF cannot read has no outline to speak of
        return False


def _is_page_object(doc: pymupdf.Document, index: int) -> bool:
    try:
        return doc.xref_get_key(doc.page_xref(index), "Type") == ("name", "/Page")
    except Exception:  # noqa: BLE001 - MuPDF cannot even find the object: not a readable page
        return False


def _labels(doc: pymupdf.Document) -> list[str]:
    """Every page's printed label, ``""`` when the PDF defines none.

    From the document's label rules, read once (``Document.get_page_labels``; ``page.get_label()``
    would re-read the label tree for every page), each applied as the PDF specification says
    (``label_for``).
    """
    rules = sorted(doc.get_page_labels() or [], key=lambda r: r.get("startpage", 0))
    if not rules:
        return [""] * doc.page_count
    if any(rule.get("prefix") for rule in rules) and not _has_prefixes(doc):
        # NOTE: PyMuPDF 1.28 reads ``/Type /PageLabel`` in a rule as the prefix ``ageLabel`` (its
        # rule parser finds ``/P`` inside ``/PageLabel``); the rules name no prefix at all
        rules = [{**rule, "prefix": ""} for rule in rules]
    out, k = [], -1
    for index in range(doc.page_count):
        while k + 1 < len(rules) and rules[k + 1].get("startpage", 0) <= index:
            k += 1
        out.append(label_for(rules[k], index) if k >= 0 else "")
    return out


_PREFIX_KEY = re.compile(rb"/P\s*[(<]")
"""A page-label rule's ``/P`` key with its string (never the ``/PageLabel`` of ``/Type``)."""

_KIDS_MAX = 64
"""Label-tree nodes read at most when looking for a prefix (a tree of many kids is rare)."""


def _has_prefixes(doc: pymupdf.Document) -> bool:
    """Whether any page-label rule of the PDF's label tree (its root and kids) has a ``/P`` key."""
    try:
        kind, value = doc.xref_get_key(doc.pdf_catalog(), "PageLabels")
        if kind == "xref":
            pending = [int(value.split()[0])]
            texts = []
        else:
            pending, texts = [], [value]
        while pending and len(texts) < _KIDS_MAX:
            xref = pending.pop()
            text = doc.xref_object(xref, compressed=True)
            texts.append(text)
            if "/Kids" in text:
                pending += [
                    int(x) for x in re.findall(r"(\d+) 0 R", text.split("/Kids", 1)[1].split("]", 1)[0])
                ]
        return any(_PREFIX_KEY.search(t.encode("latin-1", "replace")) for t in texts)
    except Exception:  # noqa: BLE001 - a damaged label tree: keep what PyMuPDF read
        return True


def label_for(rule: dict, index: int) -> str:
    """The label of page ``index`` (0-based) under one page-label rule (``startpage``, ``prefix``,
    ``style``, ``firstpagenum``): the prefix, then the number in the rule's style (``D`` arabic,
    ``r``/``R`` roman, ``a``/``A`` letters: A to Z, then AA to ZZ, … as ISO 32000 defines them);
    a rule without a style gives the prefix alone."""
    number = index - rule.get("startpage", 0) + max(1, int(rule.get("firstpagenum") or 1))
    style = rule.get("style") or ""
    if style == "D":
        text = str(number)
    elif style in ("r", "R"):
        text = to_roman(number) if style == "r" else to_roman(number).upper()
    elif style in ("a", "A"):
        letter = chr(ord("a") + (number - 1) % 26) * ((number - 1) // 26 + 1)
        text = letter if style == "a" else letter.upper()
    else:
        text = ""
    return (rule.get("prefix") or "") + text


def _read_pages(doc: pymupdf.Document, extracted: Extracted) -> list[RawPage]:
    """Every page: number, printed label, text, whether it has a text layer, and why its text
    is missing when the page limits stopped it (``extracted``: ``pdfchild``)."""
    labels = _labels(doc)
    return [
        RawPage(
            number=index + 1,
            label=labels[index],
            text=text,
            has_text_layer=has_layer,
            lost=extracted.lost.get(index),
        )
        for index, (text, has_layer) in enumerate(extracted.pages)
    ]


def _read_outline(doc: pymupdf.Document) -> list[OutlineEntry]:
    """The outline as stored: level, title, 1-based page (0 when unresolved) and the
    destination's distance from the page top.

    NOTE: ``doc.get_toc(simple=False)`` converts the whole named-destination tree into Python
    first (every hyperref label and citation of a LaTeX book) and gives a named destination's
    point in PDF space but an explicit one's in MuPDF's; ``Document.resolve_link`` on each entry's
    URI gives page and y in MuPDF page space (origin top-left) for both. The walk uses PyMuPDF's
    ``Outline`` (``next``/``down`` are None at the ends); only the first entry needs the MuPDF
    bindings' documented null test (``this.m_internal``): for a PDF without an outline PyMuPDF
    returns an ``Outline`` around a null pointer, whose ``is_external`` would crash.
    """
    entries: list[OutlineEntry] = []
    first = doc.outline
    stack = [(first, 1)] if first is not None and first.this.m_internal else []
    while stack:
        item, level = stack.pop()
        if item is None:
            continue
        stack.append((item.next, level))
        stack.append((item.down, level + 1))  # children first: the outline's reading order
        page, y = 0, None
        if not item.is_external and item.uri:
            index, _, top = doc.resolve_link(item.uri)
            if index >= 0:
                page = index + 1
                height = doc.page_cropbox(index).height
                y = max(0.0, min(height, float(top))) if math.isfinite(top) else None
        entries.append(OutlineEntry(level=level, title=item.title or " ", page=page, y=y))
    return entries


def _title(doc: pymupdf.Document, name: str) -> str:
    title = " ".join(((doc.metadata or {}).get("title") or "").split())
    if not title or _FILENAME_TITLE.search(title):
        return PurePath(name).stem
    return title


def _one_line(exc: Exception) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:200]
