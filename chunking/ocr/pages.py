"""OCR of a PDF's pages that have no usable text layer: pick the pages, take the cached result
(from the file's book record, else by the page's fingerprint: ``chunking.ocr.cache``) or render the page at ``DPI`` and run Tesseract, put the text in
place of the page's.

Runs before normalisation (``chunking.readers.pdf``): an OCR'd page is a page like any other
from there on (furniture, dehyphenation, structure, chunks, exports), marked ``ocr``.

Parallel pages: up to ``chunking.cores.resolve_workers`` Tesseract processes at once, each with
one thread (``chunking.ocr.engine``), fed from this process: pages are rendered in order by the
bounded page reader that holds the file (``chunking.readers.pdfchild.BoundedPdf``: a page that
would draw for hours is stopped at the page deadline and named), while earlier pages are read,
and at most two images per worker wait (a 300-dpi page is 9 MB of pixels). NOTE: threads that
wait on Tesseract child processes, not a ``multiprocessing`` pool: the work is in the children
anyway, and it works inside a batch worker (one worker there: the batch already fills the
cores). An interrupted run kills its children.
"""

from __future__ import annotations

from concurrent.futures import ALL_COMPLETED, FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from ..cores import resolve_workers
from ..errors import PageRefused
from ..readers.raw import RawPage, pages_named
from . import cache
from .fingerprint import RENDERER, page_fingerprint
from .lines import snap_sizes
from .printout import printout_texts
from .engine import (
    DEBIAN_PACKAGE,
    Children,
    OcrFailed,
    PageOcr,
    check_always,
    language_package,
    missing_languages,
    recognise,
    tesseract_path,
    tesseract_version,
)
from .quality import is_garbage

DPI = 300
"""Resolution pages are rendered at for OCR (Tesseract's own recommendation for body text)."""

LOW_CONFIDENCE = 60.0
"""Pages whose mean word confidence is below this are named in a warning: clean 300-dpi print
reads at 90 or more; below 60 most words are doubtful (a poor scan, the wrong language, a
picture read as text)."""

PARALLEL_FROM = 2
"""Pages to OCR from which automatic mode runs one Tesseract per core."""

_QUEUED_PER_WORKER = 2


@dataclass
class OcrOutcome:
    """What OCR did to a book's pages (their texts are replaced in place).

    Attributes:
        warnings (list[str]): one line per kind of trouble, pages named.
        empty_reason (str): why a book left with no text at all has none (the reader's error).
    """

    warnings: list[str] = field(default_factory=list)
    empty_reason: str = "OCR found no text in it"


def wanted(page: RawPage, mode: str) -> bool:
    """Whether ``mode`` OCRs ``page``: ``always`` every page; ``auto`` a page without a text
    layer or whose text layer is garbage (``chunking.ocr.quality``); ``never`` none. Never a
    page whose reading was stopped (``RawPage.lost``): rendering it would run into the same
    trouble, here, without a limit."""
    if page.lost is not None:
        return False
    if mode == "always":
        return True
    return mode == "auto" and (not page.has_text_layer or is_garbage(page.text))


def ocr_pages(
    doc: Any,
    reader: Any,
    pages: list[RawPage],
    mode: str,
    language: str,
    sha256: str,
    workers: int | None = None,
) -> OcrOutcome:
    """OCR the pages ``mode`` asks for and replace their text (``RawPage.ocr`` marks them).

    Args:
        doc (pymupdf.Document): the open document the pages come from (for their fingerprints,
            which interpret no page content).
        reader (BoundedPdf): the same file open in the bounded page reader, which renders the
            pages (``chunking.readers.pdfchild``: a page that would draw for hours is stopped).
        pages (list[RawPage]): its pages, in order (changed in place).
        mode (str): ``auto``, ``never`` or ``always`` (``Policy.ocr``).
        language (str): Tesseract language(s), ``eng`` or ``eng+deu`` (``Policy.ocr_language``).
        sha256 (str): the file's sha256 (hex), under which its book record is filed.
        workers (int | None): Tesseract processes at once; None: one per core when there are
            ``PARALLEL_FROM`` pages or more.

    Returns:
        OcrOutcome: the warnings, and why a book left without text has none.

    Raises:
        UsageError: ``always`` where Tesseract or the language's data is missing (exit 2).
    """
    check_always(mode, language)
    if mode == "never":
        without = [p for p in pages if not p.has_text_layer]
        return OcrOutcome(
            _no_text_layer(pages, without, "; their text is missing"), "OCR is off (--ocr never)"
        )
    targets = [i for i, page in enumerate(pages) if wanted(page, mode)]
    outcome = OcrOutcome()
    if not targets:
        return outcome
    path = tesseract_path()
    reason = ""
    if path is None:
        reason = f"Tesseract is not installed (Debian package {DEBIAN_PACKAGE})"
    elif missing := missing_languages(path, language):
        reason = f"Tesseract has no data for language {'+'.join(missing)} (Debian package {language_package(missing)})"
    version = tesseract_version(path) if path is not None and not reason else None
    book = cache.book_key(sha256, RENDERER, language, DPI)
    known = cache.load_book(book, version)
    run = _Run(doc, reader, language, path if version is not None else None, version, known)
    results, failures, unread = run.all(targets, resolve_workers(workers, len(targets), PARALLEL_FROM))
    if version is not None and any(known.get(i) != r for i, r in results.items()):
        cache.save_book(book, version, {**known, **results})
    found = {i: r for i, r in results.items() if r.words}
    # NOTE: snapped over the whole book, every time (cache hits included): one type size must
    # be one size on every page for the structure engine's comparisons.
    snapped = snap_sizes([list(r.lines) for r in found.values()])
    # NOTE: a printout's pages (a text file printed in one monospaced face) read as the text
    # file: blank lines and columns back (``chunking.ocr.printout``), decided on every run from
    # the lines' geometry, like the sizes.
    printed = printout_texts(snapped)
    for (i, result), lines, text in zip(found.items(), snapped, printed):
        page = pages[i]
        page.text, page.ocr, page.ocr_confidence, page.ocr_words, page.ocr_lines = (
            result.text if text is None else text,
            True,
            result.confidence,
            result.words,
            tuple(lines),
        )
        page.ocr_printout = text is not None
    if unread:
        outcome.empty_reason = reason
    outcome.warnings = _warnings(pages, targets, results, failures, unread, reason)
    return outcome


def _warnings(
    pages: list[RawPage],
    targets: list[int],
    results: dict[int, PageOcr],
    failures: dict[int, str],
    unread: list[int],
    reason: str,
) -> list[str]:
    """One line per kind of trouble: pages not read (and why), pages OCR found no word on,
    pages OCR failed on, pages of low confidence."""
    found = {i: r for i, r in results.items() if r.words}
    unread_tail = f" and were not read: {reason}; their text is missing"
    warnings = _no_text_layer(pages, [pages[i] for i in unread], unread_tail, usable=True)
    empty = [pages[i] for i in targets if i in results and i not in found and not pages[i].has_text_layer]
    warnings += _no_text_layer(pages, empty, " and OCR found no text on them (pictures or blank scans?)")
    if failures:
        listed = pages_named([f"{pages[i].number} ({why})" for i, why in sorted(failures.items())])
        warnings.append(f"OCR failed on {len(failures)} pages ({listed}); their text is missing")
    low = [pages[i] for i in sorted(found) if found[i].confidence < LOW_CONFIDENCE]
    if low:
        listed = pages_named([f"{p.number} ({p.ocr_confidence:g})" for p in low])
        warnings.append(
            f"OCR confidence is low on {len(low)} pages (mean word confidence below {LOW_CONFIDENCE:g}: "
            f"p. {listed}); check their text"
        )
    return warnings


def _no_text_layer(pages: list[RawPage], which: list[RawPage], tail: str, usable: bool = False) -> list[str]:
    """``N of M pages have no (usable) text layer (scanned images?)`` + ``tail``; none for no page."""
    if not which:
        return []
    layer = "no usable text layer" if usable else "no text layer"
    return [f"{len(which)} of {len(pages)} pages have {layer} (scanned images?){tail}"]


class _Run:
    """One book's OCR: look up (``known``: the book record's pages, then by fingerprint),
    render, and (with ``path``) run Tesseract on the misses."""

    def __init__(
        self,
        doc: Any,
        reader: Any,
        language: str,
        path: str | None,
        version: str | None,
        known: dict[int, PageOcr],
    ) -> None:
        self.doc, self.reader, self.language, self.path, self.version = doc, reader, language, path, version
        self.known = known
        self.results: dict[int, PageOcr] = {}
        self.failures: dict[int, str] = {}
        self.unread: list[int] = []
        self._pending: dict[Future[PageOcr], tuple[int, str]] = {}

    def all(self, targets: list[int], workers: int) -> tuple[dict[int, PageOcr], dict[int, str], list[int]]:
        children = Children()
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="ocr") as pool:
            try:
                for index in targets:
                    self._one(pool, children, index)
                    if len(self._pending) >= _QUEUED_PER_WORKER * workers:
                        self._collect(FIRST_COMPLETED)
                self._collect(None)
            except BaseException:
                for future in self._pending:
                    future.cancel()
                children.kill_all()
                raise
        return self.results, self.failures, self.unread

    def _one(self, pool: ThreadPoolExecutor, children: Children, index: int) -> None:
        if (recorded := self.known.get(index)) is not None:
            self.results[index] = recorded
            return
        fingerprint = page_fingerprint(self.doc, index)
        image = None
        if fingerprint is None:  # NOTE: objects too many to walk: the pixels say what it shows
            if (rendered := self._render(index)) is None:
                return
            image, fingerprint = rendered
        key = cache.page_key(fingerprint, self.language, DPI)
        hit = cache.load(key, self.version)
        if hit is not None:
            self.results[index] = hit
        elif self.path is None:
            self.unread.append(index)
        elif image is not None or (image := self._image(index)) is not None:
            future = pool.submit(recognise, image, self.path, self.language, DPI, children)
            self._pending[future] = (index, key)

    def _image(self, index: int) -> bytes | None:
        rendered = self._render(index)
        return rendered[0] if rendered is not None else None

    def _render(self, index: int) -> tuple[bytes, str] | None:
        """Page ``index`` as a grey ``DPI`` PNM image and its pixels' fingerprint, rendered by
        the bounded page reader; None (a failed page) when it was stopped or MuPDF cannot."""
        try:
            return self.reader.ask("image", index, DPI)
        except PageRefused as exc:
            self.failures[index] = f"cannot render: {' '.join(str(exc).split())[:80]}"
            return None

    def _collect(self, when: str | None) -> None:
        done, _ = wait(self._pending, return_when=when or ALL_COMPLETED)
        for future in done:
            index, key = self._pending.pop(future)
            try:
                result = future.result()
            except OcrFailed as exc:
                self.failures[index] = str(exc)
                continue
            self.results[index] = result
            assert self.version is not None  # NOTE: only runs with an installed Tesseract
            cache.save(key, self.version, result)
