"""Format readers: bytes + file name → ``RawBook``. One module per format."""

from __future__ import annotations

from pathlib import PurePath

from ..errors import UnreadableInputError
from ..rules import BOOK_FORMATS
from .raw import OutlineEntry, RawBook, RawPage, sanitise

SUPPORTED_EXTENSIONS = tuple(BOOK_FORMATS)
"""The file extensions a reader exists for (``chunking.rules.BOOK_FORMATS``)."""

__all__ = ["OutlineEntry", "RawBook", "RawPage", "SUPPORTED_EXTENSIONS", "read_raw"]


def prepare(name: str) -> None:
    """Start in the background what reading the book ``name`` will need (a PDF's page reader,
    ``pdfchild.prestart``), for a command that reads it after its own imports; nothing for the others."""
    if PurePath(name).suffix.lower() == ".pdf":
        from .pdfchild import prestart

        prestart()


def read_raw(
    data: bytes, name: str, ocr: str = "auto", ocr_language: str = "eng", sha256: str | None = None
) -> RawBook:
    """Read a book's bytes with the reader its file extension names.

    Args:
        data (bytes): the whole file.
        name (str): the file name (only its extension and stem are used).
        ocr (str): PDF pages without a usable text layer: ``auto``, ``never`` or ``always``
            (``chunking.ocr``). Defaults to ``auto``.
        ocr_language (str): Tesseract language(s) for them. Defaults to ``eng``.
        sha256 (str | None): the sha256 of ``data`` when the caller has it (a PDF's OCR results
            are cached under it); None: taken where needed.

    Raises:
        UnreadableInputError: empty file, unsupported extension, or the reader refused the file.

    Every string in the result is encodable (``raw.sanitise``: lone surrogates become U+FFFD).
    """
    suffix = PurePath(name).suffix.lower()
    if suffix not in SUPPORTED_EXTENSIONS:
        raise UnreadableInputError(
            f"{name}: unsupported file type {suffix or '(none)'!r}; supported: {', '.join(SUPPORTED_EXTENSIONS)}"
        )
    if not data:
        raise UnreadableInputError(f"{name}: the file is empty (0 bytes)")
    try:
        book = _read(data, name, suffix, ocr, ocr_language, sha256)
    except RecursionError:
        # NOTE: a hostile file can nest (outline, navigation lists) past Python's stack.
        raise UnreadableInputError(f"{name}: the file nests too deeply to read; refused") from None
    if sanitise(book):
        book.warnings.append(
            f"{name}: some strings held invalid characters (lone surrogates); replaced with U+FFFD"
        )
    return book


def _read(data: bytes, name: str, suffix: str, ocr: str, ocr_language: str, sha256: str | None) -> RawBook:
    if suffix == ".pdf":
        from .pdf import read_pdf

        return read_pdf(data, name, ocr, ocr_language, sha256=sha256)
    if suffix == ".epub":
        from .epub import read_epub

        return read_epub(data, name)
    from .text import read_text

    return read_text(data, name)
