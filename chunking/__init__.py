"""Chapter-aware chunking of books for retrieval, with exact provenance on every chunk.

The pipeline runs one way: ``load_book`` (read → normalise → structure) → ``tokenize`` (once per
encoding) → ``chunk_book`` (cheap; re-run when the policy changes) → ``validate_chunks`` →
``chunking.export``. ``run_book`` does all of it for one file. The contract (fields, ids, rules,
formats) is written down in CHUNKING.md.

The names below are imported on first use (PEP 562): ``import chunking.cli`` or a worker process
then loads only the modules it needs, not numpy, tiktoken and the whole engine.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "Book": "models",
    "Chunk": "models",
    "ChunkingError": "errors",
    "Diagnostics": "models",
    "Heading": "models",
    "Page": "models",
    "Policy": "policy",
    "TokenizedBook": "tokens",
    "chunk_book": "strategies",
    "load_book": "ingest",
    "parse_policy": "policy",
    "run_book": "pipeline",
    "tokenize": "tokens",
    "validate_chunks": "validate",
    "__version__": "version",  # the one version literal (pyproject.toml reads it too)
}
"""Public name → the submodule that defines it."""

__all__ = [
    "Book",
    "Chunk",
    "ChunkingError",
    "Diagnostics",
    "Heading",
    "Page",
    "Policy",
    "TokenizedBook",
    "__version__",
    "chunk_book",
    "load_book",
    "parse_policy",
    "run_book",
    "tokenize",
    "validate_chunks",
]

if TYPE_CHECKING:
    from .errors import ChunkingError
    from .ingest import load_book
    from .models import Book, Chunk, Diagnostics, Heading, Page
    from .pipeline import run_book
    from .policy import Policy, parse_policy
    from .strategies import chunk_book
    from .tokens import TokenizedBook, tokenize
    from .validate import validate_chunks
    from .version import __version__


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'chunking' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])
