"""What a batch worker needs before its first book, loaded once by the fork server (issue 15).

A local batch's workers fork from one "fork server" process (``workerpool``) that imports this
module first: the whole reading/chunking stack (``STACK``) and the default policy's tiktoken
vocabulary. Every worker then starts with them in memory (shared copy-on-write pages), instead
of each spawned worker importing the package and building the vocabulary again (a fixed cost per
worker that kept two workers from doubling one worker's throughput; figures in bench/BATCH.md).

Safe to fork because nothing here *uses* PyMuPDF (it is imported, never given a document: MuPDF
is not fork-safe once it has opened one) and nothing starts a thread. The fork server is a fresh
interpreter, not a fork of the batch's parent, so whatever the parent did (an app that opened
PDFs, a tqdm thread) never reaches the workers. A module of ``STACK`` that fails to import is
left out: the worker then imports it on its first book, and a real error surfaces there, as that
book's error record.
"""

from __future__ import annotations

import importlib

STACK = (
    "chunking.pipeline",
    "chunking.ingest",
    "chunking.readers.pdf",
    "chunking.readers.epub",
    "chunking.readers.text",
    "chunking.export",
    "chunking.batch",
)
"""Modules a worker imports for its books (``pipeline`` imports its stages lazily, the readers
are imported on a book of their format): imported here once instead of in every worker."""


def warm() -> list[str]:
    """Import ``STACK`` and load the default policy's vocabulary; return what could not load.

    Never raises: the fork server must come up whatever happens here (a worker that misses
    something loads it itself).
    """
    missing = []
    for name in STACK:
        try:
            importlib.import_module(name)
        except Exception:  # NOTE: the worker retries it on its first book, where errors are reported
            missing.append(name)
    try:
        from ..encodings import get_encoding
        from ..policy import Policy

        get_encoding(Policy().encoding)  # NOTE: lru-cached: a worker's get_encoding finds it loaded
    except Exception:
        missing.append("vocabulary")
    return missing


MISSING = warm()
"""What the fork server could not load (normally empty); workers load these on first use."""
