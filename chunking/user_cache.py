"""Where this package keeps user-level caches: outside the repository, one root for all of them.

``$BOOK_CHUNK_INSPECTOR_CACHE`` when set, else the platform's user cache folder for
``book-chunk-inspector`` (``platformdirs.user_cache_path``: ``$XDG_CACHE_HOME/book-chunk-inspector``,
by default ``~/.cache/book-chunk-inspector`` on Linux). Users: the WordLlama tokenizer copy
(``chunking.retrieval.embeddings``), the vocabulary snapshots (``chunking.encodings``) and the
structure bench's books (``bench/corpus.py``). Every cache below it is derived data that can be
deleted at any time.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "book-chunk-inspector"
"""The cache folder's name under the platform's user cache folder."""

CACHE_ENV = "BOOK_CHUNK_INSPECTOR_CACHE"
"""Environment variable naming the cache root (default: ``platformdirs``' user cache folder)."""


def cache_root() -> Path:
    """Where this package keeps user-level caches (outside the repository), read on every call so
    a changed ``$BOOK_CHUNK_INSPECTOR_CACHE`` or ``$XDG_CACHE_HOME`` takes effect."""
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env).expanduser()
    return platformdirs.user_cache_path(APP_NAME, appauthor=False)
