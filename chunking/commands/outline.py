"""``python -m chunking outline BOOK [--structure auto|outline|headings|none]``: print the structure.

Prints one JSON object per heading, in book order, with the keys ``level``, ``kind``, ``title``,
``number``, ``page`` (1-based physical page), ``page_label``, ``char_offset`` and ``source``.
Warnings from reading (pages without a text layer, outline entries dropped) go to stderr, one
line each. Exit 0; an unreadable book exits 3 through ``chunking.cli``.
"""

from __future__ import annotations

import json
import sys

from ..ingest import load_book


def run(*, book: str, structure: str = "auto") -> int:
    """Read ``book`` and print its headings as JSON lines.

    Args:
        book (str): path of a PDF, EPUB, TXT or MD file.
        structure (str): ``auto``, ``outline``, ``headings`` or ``none``. Defaults to ``auto``.

    Returns:
        int: 0.

    Raises:
        UnreadableInputError: the book cannot be read (the CLI prints it and exits 3).
    """
    result = load_book(book, structure=structure)
    for warning in result.diagnostics.warnings:
        print(f"chunking: warning: {warning}", file=sys.stderr)
    out = sys.stdout
    for heading in result.headings:
        out.write(json.dumps(heading.to_dict(), ensure_ascii=False) + "\n")
    out.flush()
    return 0
