"""The whole run for one book: read → tokenize → chunk → validate → manifest.

``run_book(source, policy)`` is what the CLI, the batch runner and the bench call; the app calls
the stages itself so that it can cache the tokenized book and re-chunk on every slider move.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .matter import Exclusion, exclude
from .models import Book, Chunk
from .policy import Policy
from .strategies import chunk_book
from .tokens import TokenizedBook, tokenize
from .validate import ValidationReport, validate_chunks

Progress = Callable[[float, str], None]


@dataclass(frozen=True)
class RunResult:
    """Everything one run produced.

    Attributes:
        book (Book): the book as read.
        tokenized (TokenizedBook): its token stream for the policy's encoding.
        chunks (list[Chunk]): the chunks, without those of ``policy.exclude_matter``.
        report (ValidationReport): rules 1–7 re-checked on the chunks.
        manifest (dict[str, Any]): the manifest (``chunking.export.build_manifest``).
        excluded (Exclusion): the chunks and tokens ``policy.exclude_matter`` left out.
    """

    book: Book
    tokenized: TokenizedBook
    chunks: list[Chunk]
    report: ValidationReport
    manifest: dict[str, Any]
    excluded: Exclusion = Exclusion()


def run_book(
    source: str | os.PathLike | bytes,
    policy: Policy,
    *,
    name: str | None = None,
    progress: Progress | None = None,
    structure_file: Any = None,
    workers: int | None = None,
) -> RunResult:
    """Read, tokenize, chunk and validate one book.

    Args:
        source (str | os.PathLike | bytes): a book file path or its bytes.
        policy (Policy): the validated policy (``policy.structure`` picks the structure source).
        name (str | None): file name for ``bytes`` input (decides the format). Defaults to None.
        progress (Callable[[float, str], None] | None): called with a fraction in [0, 1] and a
            stage message. Defaults to None.
        structure_file (StructureFile | None): corrections to apply (``load_book``); the book
            records their digest, which salts the chunk ids. Defaults to None.
        workers (int | None): threads for this one book (``chunking.cores``): encoding and the
            validator's re-encoding; 1 keeps all on this thread; None (default) uses every core
            when the book is big enough. The result is the same.

    Returns:
        RunResult: book, tokenized book, chunks, validation report and manifest.

    Raises:
        UnreadableInputError: the book cannot be read.
        ChunkLimitError: the book needs more than ``policy.max_chunks`` chunks.
        PolicyError: the encoding is not available.
    """
    from .export import build_manifest
    from .ingest import load_book

    def report_progress(fraction: float, message: str) -> None:
        if progress is not None:
            progress(fraction, message)

    # Reading is the slow stage: it gets 0–70 % of the bar.
    book = load_book(
        source,
        name=name,
        structure_file=structure_file,
        **policy.read_options(),
        progress=(lambda f, m: report_progress(0.7 * f, m)) if progress else None,
    )
    report_progress(0.7, "tokenizing")
    tokenized = tokenize(book, policy.encoding, workers=workers)
    report_progress(0.8, "chunking")
    chunks, excluded = exclude(chunk_book(tokenized, policy), policy.exclude_matter)
    report_progress(0.85, "validating")
    report = validate_chunks(chunks, tokenized, policy, workers=workers)
    path = None if isinstance(source, (bytes, bytearray)) else source
    manifest = build_manifest(
        tokenized, policy, chunks, report, source_path=path, structure_file=structure_file, excluded=excluded
    )
    report_progress(1.0, "done")
    return RunResult(book, tokenized, chunks, report, manifest, excluded)
