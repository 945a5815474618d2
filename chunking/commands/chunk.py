"""``python -m chunking chunk BOOK [-o OUT] [--format …] [policy options]``: chunk and export.

One book: read → tokenize → chunk → validate, then write OUT (JSONL on stdout when ``-o`` is
absent) and ``<OUT name>.manifest.json`` atomically. A folder: batch mode (``chunking.batch``),
one output and manifest per book under ``-o``. Exit 0 ok, 2 usage/policy error, an output that
is an input of the run (the book or the structure file, also via a link), a
folder or a device, or too many chunks (nothing written), 3
unreadable book, 4 the chunks break a rule (files are written, the manifest's ``validation``
says which rule), 5 the output cannot be written (no file left). ``--exclude-matter`` names
what it left out on one stderr line (``chunking: left out 3 contents and index chunks (812 tokens)``). Reader and structure warnings
go to stderr (``chunking: warning: …``, at most ``MAX_WARNINGS_PRINTED``) and into the manifest.
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path

from ..errors import OutputError, UsageError, ValidationFailure, print_warnings
from ..ocr.engine import check_always
from ..policy import Policy


def run(
    *,
    book: str,
    out: str | None,
    format: str | None,
    workers: int | None,
    structure: str,
    strategy: str,
    max_tokens: int,
    overlap_tokens: int,
    target_pages: int,
    max_pages: int,
    max_chunks: int,
    fence: str,
    encoding: str,
    snap: str,
    min_section_tokens: int,
    exclude_matter: str = "",
    min_chunk_tokens: int = 0,
    ocr: str = "auto",
    ocr_language: str = "eng",
    prefix_in_budget: bool = False,
    structure_file: str | None = None,
    engine: str = "local",
    ray_address: str | None = None,
    dataset: str | None = None,
) -> int:
    """Chunk one book (or a folder of books) and write the chunks and manifest.

    Args:
        book (str): a book file, or a folder of books (batch mode).
        out (str | None): output file (folder in batch mode); stdout (JSONL) when None.
        format (str | None): ``jsonl``, ``csv``, ``parquet`` or ``langchain``; default from
            ``out``'s extension, else ``jsonl``.
        workers (int | None): batch mode: parallel processes; one book: its cores (1: one core;
            default: all of them when the book is big enough).
        structure, strategy, max_tokens, overlap_tokens, target_pages, max_pages, max_chunks,
            fence, encoding, snap, min_section_tokens, exclude_matter: the ``Policy`` fields.
            fence, encoding, snap, min_section_tokens, min_chunk_tokens: the ``Policy`` fields.
            fence, encoding, snap, min_section_tokens, ocr, ocr_language: the ``Policy`` fields
            (``--ocr always`` without Tesseract is refused before any book is read);
            prefix_in_budget: the breadcrumb embedded before a chunk counts against max_tokens.
        structure_file (str | None): corrections to apply (``chunking.structure_file``); their
            digest salts the ids and the manifest records them. Batch mode takes
            ``<book>.structure.json`` beside each book instead.
        engine, ray_address, dataset: batch mode: ``local`` processes or ``ray``
            (``chunking.batch.ray_engine``: a cluster's address, a Parquet dataset of all chunks).

    Returns:
        int: 0 when every rule holds.

    Raises:
        PolicyError, UsageError, ChunkLimitError: exit 2 (validated before the book is read).
        UnreadableInputError: exit 3.
        ValidationFailure: exit 4, after the files were written.
    """
    policy = Policy(
        strategy=strategy,
        max_tokens=max_tokens,
        overlap_tokens=overlap_tokens,
        target_pages=target_pages,
        max_pages=max_pages,
        max_chunks=max_chunks,
        fence=fence,
        encoding=encoding,
        structure=structure,
        snap=snap,
        min_section_tokens=min_section_tokens,
        exclude_matter=exclude_matter,
        min_chunk_tokens=min_chunk_tokens,
        ocr=ocr,
        ocr_language=ocr_language,
        prefix_in_budget=prefix_in_budget,
    )
    check_always(policy.ocr, policy.ocr_language)
    if Path(book).is_dir():
        if structure_file is not None:
            raise UsageError(
                "--structure-file is for one book; batch mode picks up <book>.structure.json beside each book"
            )
        return _batch(book, out, format, workers, policy, engine, ray_address, dataset)
    if engine != "local" or ray_address is not None or dataset is not None:
        raise UsageError(
            "--engine ray, --ray-address and --dataset are for batch mode: give a folder as BOOK"
        )
    if workers is not None and workers < 1:
        raise UsageError(f"--workers must be 1 or more; got {workers}")
    from ..readers import prepare

    prepare(book)
    from ..export import check_output_path, format_for_path, tidy_stale_temps, write_chunks, write_outputs

    fmt = format_for_path(out, format)
    if out is None and fmt == "parquet":
        raise UsageError(
            "--format parquet needs -o OUT (Parquet is binary; stdout takes jsonl, csv or langchain)"
        )
    if out is not None:
        check_output_path(out, book, [("the structure file", structure_file)])
        tidy_stale_temps(out)
    from ..pipeline import run_book

    # NOTE: the imported modules' objects are moved out of the cyclic collector's generations
    # (``gc.freeze``, as the app does after its imports): its collections during the run then walk
    # the run's own objects only, and still collect every cycle the run makes.
    gc.freeze()
    sf = None
    if structure_file is not None:  # NOTE: corrections' modules load only for a run that has some
        from ..structure_file import load_optional

        sf = load_optional(structure_file)
    result = run_book(book, policy, structure_file=sf, workers=workers)
    warnings = result.book.diagnostics.warnings
    if result.excluded.matters:
        print(f"chunking: {result.excluded.message()}", file=sys.stderr)
    if out is None:
        print_warnings(warnings, where="run with -o to keep them all in the manifest")
        try:
            write_chunks(result.chunks, sys.stdout.buffer, fmt)
            sys.stdout.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(f"cannot write to stdout: {exc.strerror or type(exc).__name__}") from None
    else:
        print_warnings(warnings, where="all of them are in the manifest's diagnostics.warnings")
        manifest = write_outputs(result.chunks, result.manifest, out, fmt)
        print(
            f"wrote {len(result.chunks)} chunks ({result.tokenized.n_tokens} tokens) to {out}; "
            f"manifest {manifest}",
            file=sys.stderr,
        )
    if not result.report.ok:
        raise ValidationFailure(result.report.message)
    return 0


def _batch(
    book_dir: str,
    out: str | None,
    fmt: str | None,
    workers: int | None,
    policy: Policy,
    engine: str = "local",
    ray_address: str | None = None,
    dataset: str | None = None,
) -> int:
    """Hand a folder to the batch runner (imported only here: single books never need it)."""
    if out is None or not out.strip():
        raise UsageError("batch mode (BOOK is a folder) needs -o OUTDIR")
    if Path(out).exists() and not Path(out).is_dir():
        raise UsageError(f"-o {out}: not a folder (batch mode writes one file per book into -o OUTDIR)")
    from ..export import format_for_path

    try:
        from ..batch import run_batch
    except ModuleNotFoundError as exc:
        if exc.name != "chunking.batch":
            raise
        raise UsageError(f"{book_dir} is a folder, and batch mode is not available in this version") from None
    if engine == "ray":
        from ..batch.ray_engine import run_batch_ray

        return run_batch_ray(book_dir, out, policy, format_for_path(None, fmt), workers, ray_address, dataset)
    if ray_address is not None or dataset is not None:
        raise UsageError("--ray-address and --dataset need --engine ray")
    return run_batch(book_dir, out, policy, format_for_path(None, fmt), workers)
