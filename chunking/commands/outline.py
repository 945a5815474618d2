"""``python -m chunking outline BOOK [--structure …] [--explain]``: print the structure.

Prints one JSON object per heading, in book order, with the keys ``level``, ``kind``, ``title``,
``number``, ``page`` (1-based physical page), ``page_label``, ``char_offset``, ``source``,
``evidence`` (``[signal, where]`` pairs) and ``confidence``. With ``--explain`` it prints, for
people instead, each heading with the evidence of every signal that supports it, then the
signal counts, the disagreements between signals and the candidates that were rejected.
Warnings from reading (pages without a text layer, pages read by OCR with low confidence,
outline entries dropped) go to stderr, one line each, at most ``MAX_WARNINGS_PRINTED`` and a count.
``--ocr``/``--ocr-language`` read PDF pages without a usable text layer with Tesseract, as for
``chunk`` (``--ocr always`` without Tesseract: exit 2).
Exit 0; an unreadable book exits 3 through ``chunking.cli``.

``--structure-file F`` prints the structure after F's corrections (a bad F or one written for
another book: exit 3). ``--write-structure F`` writes the engine's headings with their anchors
and the corrections given (none without ``--structure-file``) as a structure file to edit by
hand; ``--write-pdf OUT`` writes a copy of a PDF book whose outline is the final structure. Both
write atomically and refuse any input of the run (the book, the structure file; also through a
symlink or hard link) and each other as their output (exit 2, nothing written).
"""

from __future__ import annotations

import json
import sys
from typing import TextIO

from ..errors import UsageError, print_warnings
from ..ingest import load_book
from ..models import Book
from ..ocr.engine import check_always
from ..policy import check_ocr
from ..targets import check_outputs
from ..structure_file import (
    apply_corrections,
    check_book,
    engine_structure,
    load_optional,
    save_structure,
    write_pdf_outline,
)

EXPLAIN_REJECTED = 40
"""``--explain`` lists at most this many rejected candidates (the manifest keeps more)."""


def run(
    *,
    book: str,
    structure: str = "auto",
    explain: bool = False,
    structure_file: str | None = None,
    write_structure: str | None = None,
    write_pdf: str | None = None,
    ocr: str = "auto",
    ocr_language: str = "eng",
) -> int:
    """Read ``book`` and print its headings as JSON lines, or explained with ``explain``.

    Args:
        book (str): path of a PDF, EPUB, TXT or MD file.
        structure (str): ``auto``, ``outline``, ``headings`` or ``none``. Defaults to ``auto``.
        explain (bool): print the evidence per heading for people. Defaults to False.
        structure_file (str | None): corrections to apply first. Defaults to None.
        write_structure (str | None): write a structure file there. Defaults to None.
        write_pdf (str | None): write the PDF with the final structure as its outline. Defaults to None.
        ocr (str): ``auto``, ``never`` or ``always``: PDF pages read by OCR (``Policy.ocr``).
        ocr_language (str): Tesseract language(s). Defaults to ``eng``.

    Returns:
        int: 0.

    Raises:
        UnreadableInputError: the book cannot be read (the CLI prints it and exits 3).
    """
    check_outputs(
        [("--write-structure", write_structure), ("--write-pdf", write_pdf)],
        [("the book", book), ("the structure file", structure_file)],
    )
    check_ocr(ocr, ocr_language)
    check_always(ocr, ocr_language)
    sf = load_optional(structure_file)
    engine = load_book(book, structure=structure, ocr=ocr, ocr_language=ocr_language)
    if write_pdf is not None and engine.format != "pdf":
        raise UsageError(
            f"--write-pdf: {engine.source_name} is a {engine.format.upper()} book; only a PDF "
            "has an outline to write"
        )
    result = engine
    if sf is not None:
        check_book(sf, engine)
        result = apply_corrections(engine, sf)
    if write_structure is not None:
        obj = engine_structure(engine)
        obj["corrections"] = [c.to_dict() for c in sf.corrections] if sf else []
        save_structure(obj, write_structure)
        print(
            f"wrote {len(engine.headings)} headings and {len(obj['corrections'])} corrections to "
            f"{write_structure}",
            file=sys.stderr,
        )
    if write_pdf is not None:
        n = write_pdf_outline(book, result, write_pdf)
        print(f"wrote {write_pdf} with {n} outline entries", file=sys.stderr)
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
        out.write(
            f"{indent}L{h.level} {h.kind}{number} {json.dumps(h.title, ensure_ascii=False)} "
            f"p. {h.page}{label}, confidence {h.confidence:.2f}\n"
        )
        for signal, where in h.evidence:
            out.write(f"{indent}    {signal}: {where}\n")
    out.write(
        "\nchapter-level headings per signal: "
        + (", ".join(f"{k} {v}" for k, v in d.structure_signals.items()) or "none")
        + "\n"
    )
    out.write(f"disagreements: {len(d.structure_disagreements) + d.structure_disagreements_omitted}\n")
    for disagreement in d.structure_disagreements:
        out.write(f"  {disagreement.message}\n")
    if d.structure_disagreements_omitted:
        out.write(f"  … and {d.structure_disagreements_omitted} more\n")
    rejected = len(d.structure_rejected) + d.structure_rejected_omitted
    out.write(f"rejected candidates: {rejected}\n")
    for candidate in d.structure_rejected[:EXPLAIN_REJECTED]:
        out.write(f"  {candidate.message}\n")
    if len(d.structure_rejected) > EXPLAIN_REJECTED:
        out.write(f"  … {len(d.structure_rejected) - EXPLAIN_REJECTED} more in the manifest\n")
    if d.structure_rejected_omitted:
        out.write(f"  … and {d.structure_rejected_omitted} more not kept\n")
