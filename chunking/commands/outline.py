"""``python -m chunking outline BOOK [--structure …] [--explain]``: print the structure.

Prints one JSON object per heading, in book order, with the keys ``level``, ``kind``, ``title``,
``number``, ``page`` (1-based physical page), ``page_label``, ``char_offset``, ``source``,
``evidence`` (``[signal, where]`` pairs) and ``confidence``. With ``--explain`` it prints, for
people instead, each heading with the evidence of every signal that supports it, then the
signal counts, the disagreements between signals and the candidates that were rejected.
Warnings from reading (pages without a text layer, outline entries dropped) go to stderr, one
line each, at most ``MAX_WARNINGS_PRINTED`` and a count.
Exit 0; an unreadable book exits 3 through ``chunking.cli``.
"""

from __future__ import annotations

import json
import sys
from typing import TextIO

from ..errors import print_warnings
from ..ingest import load_book
from ..models import Book

EXPLAIN_REJECTED = 40
"""``--explain`` lists at most this many rejected candidates (the manifest keeps more)."""


def run(*, book: str, structure: str = "auto", explain: bool = False) -> int:
    """Read ``book`` and print its headings as JSON lines, or explained with ``explain``.

    Args:
        book (str): path of a PDF, EPUB, TXT or MD file.
        structure (str): ``auto``, ``outline``, ``headings`` or ``none``. Defaults to ``auto``.
        explain (bool): print the evidence per heading for people. Defaults to False.

    Returns:
        int: 0.

    Raises:
        UnreadableInputError: the book cannot be read (the CLI prints it and exits 3).
    """
    result = load_book(book, structure=structure)
    print_warnings(result.diagnostics.warnings, where="`chunk -o` keeps them all in the manifest")
    out = sys.stdout
    if explain:
        write_explanation(result, out)
    else:
        for heading in result.headings:
            out.write(json.dumps(heading.to_dict(), ensure_ascii=False) + "\n")
    out.flush()
    return 0


def write_explanation(book: Book, out: TextIO) -> None:
    """Each heading with its evidence, then signal counts, disagreements and rejected candidates."""
    d = book.diagnostics
    out.write(f"{book.source_name}: {len(book.headings)} headings from {d.structure_source}\n")
    for h in book.headings:
        label = f" (printed {h.page_label})" if h.page_label else ""
        number = f" {h.number}" if h.number else ""
        indent = "  " * (h.level - 1)
        out.write(f"{indent}L{h.level} {h.kind}{number} {json.dumps(h.title, ensure_ascii=False)} "
                  f"p. {h.page}{label}, confidence {h.confidence:.2f}\n")
        for signal, where in h.evidence:
            out.write(f"{indent}    {signal}: {where}\n")
    out.write("\nchapter-level headings per signal: "
              + (", ".join(f"{k} {v}" for k, v in d.structure_signals.items()) or "none") + "\n")
    out.write(f"disagreements: {len(d.structure_disagreements)}\n")
    for line in d.structure_disagreements:
        out.write(f"  {line}\n")
    out.write(f"rejected candidates: {len(d.structure_rejected)}\n")
    for line in d.structure_rejected[:EXPLAIN_REJECTED]:
        out.write(f"  {line}\n")
    if len(d.structure_rejected) > EXPLAIN_REJECTED:
        out.write(f"  … {len(d.structure_rejected) - EXPLAIN_REJECTED} more in the manifest\n")
