"""Chapter-aware chunking of books for retrieval, with exact provenance on every chunk.

The pipeline runs one way: ``load_book`` (read → normalise → structure) → ``tokenize`` (once per
encoding) → ``chunk_book`` (cheap; re-run when the policy changes) → ``validate_chunks`` →
``chunking.export``. ``run_book`` does all of it for one file. The contract (fields, ids, rules,
formats) is written down in CHUNKING.md.
"""

from .errors import ChunkingError
from .ingest import load_book
from .models import Book, Chunk, Diagnostics, Heading, Page
from .pipeline import run_book
from .policy import Policy, parse_policy
from .strategies import chunk_book
from .tokens import TokenizedBook, tokenize
from .validate import validate_chunks
from .version import __version__

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
