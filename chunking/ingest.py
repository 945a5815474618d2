"""Stages 1-3 together: a book file → ``Book`` (read, normalise, find structure).

Contract: ``load_book(source, name=…, structure=…, progress=…)`` accepts a path or the file's
bytes, reads it with the reader its extension names (``chunking.readers.read_raw``), builds the
canonical text (``chunking.normalise``), finds the structure (``chunking.structure``) and fills
``Diagnostics``. ``book_id`` is the first 16 hex digits of the sha256 of the bytes, so the same
file always gets the same id. Bad input raises ``UnreadableInputError`` with one line.
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any

from .errors import UnreadableInputError, UsageError
from .inputs import read_bounded
from .models import MAX_LISTED, STRUCTURE_SOURCES, Book, Diagnostics, Disagreement, Heading, Page, Rejected
from .normalise import normalise
from .policy import check_ocr
from .readers import read_raw
from .readers.raw import clean
from .titles import safe_title
from .structure import detect_structure

if TYPE_CHECKING:  # NOTE: corrections are rare; their modules load only when a run has some
    from .structure_file import StructureFile

Progress = Callable[[float, str], None]


MAX_BOOK_BYTES = 1 << 30
"""Largest book file read (1 GiB): more is refused before it fills memory."""


def _read_source(source: str | os.PathLike | bytes, name: str | None) -> tuple[bytes, str]:
    """The book's bytes: a regular file only (a FIFO would block, ``/dev/zero`` never ends),
    at most ``MAX_BOOK_BYTES``; anything else is one ``UnreadableInputError`` line."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        if len(source) > MAX_BOOK_BYTES:
            raise UnreadableInputError(f"{name or 'book'}: larger than the {MAX_BOOK_BYTES >> 20} MiB limit")
        return bytes(source), name or "book"
    label = name or Path(source).name
    data = read_bounded(source, MAX_BOOK_BYTES, label, "book file")
    return data, label


MAX_TITLE_CHARS = 300
"""Longest book or heading title kept in metadata (every chunk carries its chapter, section and
heading path: a 1 MB heading line would be copied into every chunk); longer ones end in "…"."""
MAX_NOTE_CHARS = 500
"""Longest evidence or diagnostics line kept: they quote titles and candidate lines."""
MAX_LABEL_CHARS = 40
"""Longest page label kept (labels are printed page numbers, "xiv" or "A-12"); longer ones end in "…"."""


def _cap(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _cap_metadata(
    title: str, headings: tuple[Heading, ...], pages: tuple[Page, ...]
) -> tuple[str, tuple[Heading, ...], tuple[Page, ...], int, int]:
    """Cap the book title, heading titles and page labels (metadata only: ``Book.text`` keeps
    every character); return them with the number of titles and of labels capped."""
    titles = labels = 0
    # NOTE: the readers' titles (PDF bookmarks, EPUB navigation, heading lines) are made safe here,
    # by the rule structure files and the app's form use too (chunking.titles)
    capped_title = _cap(safe_title(title), MAX_TITLE_CHARS)
    titles += len(title) > MAX_TITLE_CHARS
    if any(len(p.label) > MAX_LABEL_CHARS for p in pages):
        labels = sum(1 for p in pages if len(p.label) > MAX_LABEL_CHARS)
        pages = tuple(replace(p, label=_cap(p.label, MAX_LABEL_CHARS)) for p in pages)
    out: list[Heading] = []
    for h in headings:
        new_title, new_label = _cap(safe_title(h.title), MAX_TITLE_CHARS), _cap(h.page_label, MAX_LABEL_CHARS)
        evidence = tuple((signal, _cap(safe_title(where), MAX_NOTE_CHARS)) for signal, where in h.evidence)
        if new_title != h.title or new_label != h.page_label or evidence != h.evidence:
            titles += len(h.title) > MAX_TITLE_CHARS
            h = replace(h, title=new_title, page_label=new_label, evidence=evidence)
        out.append(h)
    return capped_title, tuple(out), pages, titles, labels


def _capped(records: Sequence[Disagreement | Rejected]) -> tuple[list[Any], int]:
    """The first ``MAX_LISTED`` records, their quoted text and message capped, and how many more."""
    out: list[Any] = []
    for r in records[:MAX_LISTED]:
        message = _cap(r.message, MAX_NOTE_CHARS)
        if isinstance(r, Disagreement):
            out.append(replace(r, message=message, title=_cap(r.title, MAX_TITLE_CHARS)))
        else:
            out.append(replace(r, message=message, line=_cap(r.line, MAX_TITLE_CHARS)))
    return out, max(0, len(records) - MAX_LISTED)


def load_book(
    source: str | os.PathLike | bytes,
    *,
    name: str | None = None,
    structure: str = "auto",
    progress: Progress | None = None,
    structure_file: StructureFile | None = None,
    ocr: str = "auto",
    ocr_language: str = "eng",
) -> Book:
    """Read a PDF, EPUB, TXT or MD book into the canonical ``Book``.

    Args:
        source (str | os.PathLike | bytes): a file path, or the file's bytes (then ``name``
            should carry the file name: its extension picks the reader).
        name (str | None): file name for messages, the reader choice and ``Book.source_name``.
            Defaults to the path's name, or ``"book"`` for bytes.
        structure (str): ``auto``, ``outline``, ``headings`` or ``none``. Defaults to ``auto``.
        progress (Callable[[float, str], None] | None): called with (fraction done, stage) a few
            times. Defaults to None.
        structure_file (StructureFile | None): corrections to apply to the structure found
            (``chunking.structure_file``); refused when written for other bytes. Defaults to None.
        ocr (str): PDF pages to read by OCR: ``auto`` (those without a usable text layer),
            ``never`` or ``always`` (``Policy.ocr``). Defaults to ``auto``.
        ocr_language (str): Tesseract language(s) (``Policy.ocr_language``). Defaults to ``eng``.

    Returns:
        Book: canonical text, pages, headings in book order and diagnostics.

    Raises:
        UnreadableInputError: the file is missing, empty, unsupported, corrupt, encrypted or unsafe.
        UsageError: ``structure`` is not one of ``STRUCTURE_SOURCES``, or ``ocr="always"``
            where Tesseract is not installed.
        StructureFileError: ``structure_file`` is for another book or a correction does not apply.
    """
    if structure not in STRUCTURE_SOURCES:
        raise UsageError(f"structure must be one of {', '.join(STRUCTURE_SOURCES)}; got {structure!r}")
    check_ocr(ocr, ocr_language)
    report = progress or (lambda fraction, message: None)
    data, label = _read_source(source, name)
    report(0.0, f"reading {label}")
    sha = hashlib.sha256(data).hexdigest()
    raw = read_raw(data, label, ocr, ocr_language, sha)
    try:
        report(0.6, "normalising text")
        norm = normalise(raw.pages)
        report(0.8, "finding structure")
        found = detect_structure(raw, norm, structure)
    finally:
        raw.close()
    title, headings, pages, titles_capped, labels_capped = _cap_metadata(
        raw.title or PurePath(label).stem, found.headings, norm.pages
    )
    caps = []
    if titles_capped:
        caps.append(
            f"{titles_capped} titles longer than {MAX_TITLE_CHARS} characters were shortened"
            " in the metadata (the text keeps them whole)"
        )
    if labels_capped:
        caps.append(f"{labels_capped} page labels longer than {MAX_LABEL_CHARS} characters were shortened")
    per_level = Counter(str(h.level) for h in headings)
    disagreements, disagreements_omitted = _capped(found.disagreements)
    rejected, rejected_omitted = _capped(found.rejected)
    diagnostics = Diagnostics(
        pages=len(norm.pages),
        empty_pages=sum(1 for p in norm.pages if p.char_start == p.char_end),
        pages_without_text_layer=sum(1 for p in norm.pages if not p.has_text_layer),
        removed_header_lines=norm.counts["header_lines"],
        removed_footer_lines=norm.counts["footer_lines"],
        removed_page_numbers=norm.counts["page_numbers"],
        dehyphenated_words=norm.counts["dehyphenated"],
        ligatures_expanded=norm.counts["ligatures"],
        accents_composed=norm.counts["accents_composed"],
        encoding_repaired_lines=norm.counts["encoding_repaired"],
        control_chars_removed=norm.counts["control_chars"],
        page_labels=norm.page_labels,
        page_labels_inferred=norm.inferred_labels,
        structure_source=found.source,
        outline_entries=found.outline_entries,
        outline_entries_dropped=found.outline_dropped,
        outline_entries_repaired=found.outline_repaired,
        headings_per_level=dict(sorted(per_level.items())),
        structure_signals=dict(found.signal_counts),
        structure_disagreements=disagreements,
        structure_disagreements_omitted=disagreements_omitted,
        structure_rejected=rejected,
        structure_rejected_omitted=rejected_omitted,
        titles_capped=titles_capped,
        labels_capped=labels_capped,
        ocr_pages=[
            {"page": p.number, "mean_confidence": p.ocr_confidence, "words": p.ocr_words}
            for p in raw.pages
            if p.ocr
        ],
        warnings=[
            _cap(clean(w), MAX_NOTE_CHARS) for w in [*raw.warnings, *norm.warnings, *found.warnings, *caps]
        ],
    )
    book = Book(
        book_id=sha[:16],
        sha256=sha,
        title=title,
        format=raw.format,
        text=norm.text,
        pages=pages,
        headings=headings,
        diagnostics=diagnostics,
        source_name=label,
    )
    if structure_file is not None:
        # NOTE: the one place corrections meet the pipeline; the app calls apply_corrections itself.
        from .structure_file import apply_corrections, check_book

        check_book(structure_file, book)
        book = apply_corrections(book, structure_file)
    report(1.0, "done")
    return book
