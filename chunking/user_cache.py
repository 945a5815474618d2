"""Where this package keeps user-level caches: outside the repository, one root for all of them.

``$BOOK_CHUNK_INSPECTOR_CACHE`` when set, else ``~/.cache/book-chunk-inspector``. Users: the
WordLlama tokenizer copy (``chunking.retrieval.embeddings``) and the vocabulary snapshots
(``chunking.encodings``). Every cache below it is derived data that can be deleted at any time.
"""

from __future__ import annotations

import os
from pathlib import Path

CACHE_ENV = "BOOK_CHUNK_INSPECTOR_CACHE"
"""Environment variable naming the cache root (default ``~/.cache/book-chunk-inspector``)."""


def cache_root() -> Path:
    """Where this package keeps user-level caches (outside the repository)."""
    env = os.environ.get(CACHE_ENV)
    return Path(env).expanduser() if env else Path.home() / ".cache" / "book-chunk-inspector"
