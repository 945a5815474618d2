"""Structure files, written: the engine's structure as a file to edit, and as a PDF outline.

``engine_structure(book)`` → the dict ``outline --write-structure`` writes (the engine's headings
with their anchors, and no corrections); ``write_pdf_outline`` writes the final structure as the
bookmarks of a copy of the PDF (``outline --write-pdf``), never over the input.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..atomic import atomic_write
from ..errors import OutputError
from ..models import Book
from ..targets import Named, check_output
from ..version import __version__
from .apply import heading_anchor
from .schema import FORMAT, VERSION, StructureFile, StructureFileError, structure_bytes, too_big_to_read


def engine_structure(book: Book) -> dict[str, Any]:
    """The structure file ``outline --write-structure`` writes: the engine's headings, each with
    the anchor a correction would use (copy it into a ``remove``/``set``/``move``), and no
    corrections. ``headings`` is a record for people; only ``corrections`` change anything."""

    headings = []
    for h in book.headings:
        a = heading_anchor(book, h)
        headings.append(
            {
                **a.to_dict(),
                "kind": h.kind,
                "level": h.level,
                "title": h.title,
                "number": h.number,
                "page_label": h.page_label,
                "source": h.source,
                "confidence": h.confidence,
            }
        )
    return {
        "format": FORMAT,
        "version": VERSION,
        "book_sha256": book.sha256,
        "engine_version": __version__,
        "book": book.source_name,
        "headings": headings,
        "corrections": [],
    }


def check_target(
    out: str | os.PathLike, book: str | os.PathLike, option: str, inputs: Sequence[Named] = ()
) -> Path:
    """Refuse an output of ``option`` that cannot be written or is an input of the run: the book
    or any of ``inputs`` (``chunking.targets.check_output``: same path, symlink or hard link)."""
    return check_output(option, out, [("the book", book), *inputs])


def save_structure(obj: StructureFile | dict[str, Any], out: str | os.PathLike) -> None:
    """Write a structure file (``structure_bytes``) atomically (temp file + rename; nothing left on
    failure).

    Raises:
        OutputError: the file would be larger than ``--structure-file`` reads (nothing written),
            or it cannot be written.
    """

    data = structure_bytes(obj)
    refused = too_big_to_read(data)
    if refused:
        raise OutputError(f"{out}: {refused}; nothing written")
    atomic_write(Path(out), lambda fh: fh.write(data))


def toc_entries(book: Book) -> list[list[Any]]:
    """The headings as a PyMuPDF outline ``[[level, title, page], …]``: levels made valid for
    ``set_toc`` (the first is 1, each at most one deeper than the one before)."""
    out: list[list[Any]] = []
    prev = 0
    for h in book.headings:
        level = max(1, min(h.level, prev + 1))
        title = " ".join(f"{h.number} {h.title}".split()) if h.number else " ".join(h.title.split())
        out.append([level, title or "Untitled", h.page])
        prev = level
    return out


def write_pdf_outline(book_path: str | os.PathLike, book: Book, out: str | os.PathLike) -> int:
    """Write a copy of the PDF at ``book_path`` whose outline is ``book``'s headings, atomically.

    The pages are copied untouched (only the outline changes), and so is the file's encryption:
    a PDF with an owner password and permissions keeps both (``PDF_ENCRYPT_KEEP``; PyMuPDF's
    default would write the copy decrypted, its restrictions silently gone). Returns the entries
    written.

    Raises:
        StructureFileError: the file changed since it was read, or PyMuPDF refuses it.
        OutputError: ``out`` cannot be written (no temp file is left).
    """
    import pymupdf

    with open(book_path, "rb") as fh:
        data = fh.read()
    if hashlib.sha256(data).hexdigest() != book.sha256:
        raise StructureFileError(f"{book_path}: the book changed while it was read; run again")
    entries = toc_entries(book)
    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
        try:
            doc.set_toc(entries)
            payload = doc.tobytes(encryption=pymupdf.mupdf.PDF_ENCRYPT_KEEP)
        finally:
            doc.close()
    except (RuntimeError, ValueError) as exc:
        raise StructureFileError(f"{book_path}: PyMuPDF cannot write its outline: {exc}") from None
    atomic_write(Path(out), lambda fh: fh.write(payload))
    return len(entries)
