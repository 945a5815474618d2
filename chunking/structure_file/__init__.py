"""Structure files: a user's corrections to a book's structure, kept as data beside the book.

A ``<book>.structure.json`` holds operations anchored to the text (page + line text + char offset),
not heading indices, so it still applies when a later engine finds slightly different headings.
The JSON schema is in ``CHUNKING.md`` ("Structure files"). Three modules, one job each:

* ``schema``: the one loader (``load_structure_file``: a path or the bytes of an upload) and the
  one serialiser (``structure_bytes``), validation into ``StructureFile`` / ``Correction`` data,
  refusing a file of another book (``check_book``); every error is a ``StructureFileError`` (exit 3);
* ``apply``: ``apply_corrections(book, corrections)`` → a new ``Book`` that records the
  corrections' digest (``Book.corrections``: it salts the chunk ids, so no caller can forget it;
  pure: no re-read, no re-tokenizing), and the anchors the app shows (``heading_anchor``,
  ``page_lines``);
* ``outputs``: ``engine_structure`` (what ``outline --write-structure`` writes) and the PDF outline
  of ``outline --write-pdf``.
"""

from .apply import apply_corrections, heading_anchor, line_span, page_lines
from .outputs import check_target, engine_structure, save_structure, toc_entries, write_pdf_outline
from .schema import (
    CORRECTION_SOURCE,
    FORMAT,
    MAX_STRUCTURE_FILE_BYTES,
    VERSION,
    Anchor,
    Correction,
    StructureFile,
    StructureFileError,
    check_book,
    corrections_digest,
    load_optional,
    load_structure_file,
    parse_correction,
    parse_structure,
    structure_bytes,
    too_big_to_read,
)

__all__ = [
    "CORRECTION_SOURCE",
    "FORMAT",
    "MAX_STRUCTURE_FILE_BYTES",
    "VERSION",
    "Anchor",
    "Correction",
    "StructureFile",
    "StructureFileError",
    "apply_corrections",
    "check_book",
    "check_target",
    "corrections_digest",
    "engine_structure",
    "heading_anchor",
    "line_span",
    "load_optional",
    "load_structure_file",
    "page_lines",
    "parse_correction",
    "parse_structure",
    "save_structure",
    "structure_bytes",
    "toc_entries",
    "too_big_to_read",
    "write_pdf_outline",
]
