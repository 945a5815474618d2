"""Dense retrieval's one dependency: an embedding backend, and the offline WordLlama one.

Contract: an ``EmbeddingBackend`` has a ``name`` (part of every cache key: two backends never share
vectors) and ``embed(texts) -> float32 array (len(texts), dim)`` whose rows are L2-normalised, so a
dot product is the cosine similarity. To plug in another model, write a class with those two
members and pass it wherever a backend is taken (``DenseIndex.build``, ``build_index``).

``WordLlamaBackend`` runs PyPI ``wordllama``'s packaged 256-d model with no network: the wheel
ships the weights and the tokenizer, but ``WordLlama.load`` looks for the tokenizer under another
folder than the one the wheel uses and would try to download it. So the packaged tokenizer file is
copied (atomically, ``chunking.atomic``) into a user-writable cache outside the repository
(``chunking.user_cache.cache_root()`` ``/wordllama``; a temp dir when that is not writable) and the model is loaded with ``disable_download=True``.

``embed_chunks(chunks, backend)`` is the pure function callers cache per (book, policy, backend).
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Protocol

import numpy as np

from ..atomic import atomic_write
from ..errors import UnreadableInputError
from ..models import Chunk
from ..user_cache import cache_root

WORDLLAMA_CONFIG = "l2_supercat"
"""The model WordLlama ships inside its wheel (weights and tokenizer)."""

WORDLLAMA_DIM = 256
"""Embedding size of the packaged WordLlama weights."""

EMBED_BATCH = 64
"""Texts per WordLlama batch (its default; the batch is padded to its longest text)."""


class EmbeddingBackend(Protocol):
    """What dense retrieval needs of a model: a stable name and normalised vectors."""

    name: str

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Float32 ``(len(texts), dim)``, each row of unit length (a zero row for empty text)."""
        ...


def _writable_dir(path: Path) -> Path:
    """``path`` created if needed; a private temp dir when it cannot be created or written."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        if os.access(path, os.W_OK | os.X_OK):
            return path
    except OSError:
        pass
    return Path(tempfile.mkdtemp(prefix="book-chunk-inspector-wordllama-"))


def _import_wordllama():
    """``import wordllama`` without its side effect on logging.

    # NOTE: wordllama calls ``logging.basicConfig(level=INFO)`` at import, which would put a stderr
    # handler on the root logger and let every library's debug/info lines into the CLI's stderr;
    # the root logger's handlers and level are restored after the import.
    """
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        import wordllama
    finally:
        for h in list(root.handlers):
            if h not in handlers:
                root.removeHandler(h)
        root.setLevel(level)
    return wordllama


def seed_wordllama_cache(cache: Path) -> Path:
    """Copy the wheel's tokenizer file into ``cache/tokenizers/`` (atomically) and return ``cache``.

    Raises:
        UnreadableInputError: the installed ``wordllama`` lacks its packaged tokenizer.
    """
    wordllama = _import_wordllama()
    name = f"{WORDLLAMA_CONFIG}_tokenizer_config.json"
    packaged = Path(wordllama.__file__).parent / "tokenizers" / name
    if not packaged.is_file():
        raise UnreadableInputError(f"wordllama has no packaged tokenizer {name}; reinstall wordllama")
    target_dir = cache / "tokenizers"
    target_dir.mkdir(parents=True, exist_ok=True)
    target = target_dir / name
    if not target.is_file() or target.stat().st_size != packaged.stat().st_size:
        with packaged.open("rb") as src:
            atomic_write(target, lambda out: shutil.copyfileobj(src, out))
    return cache


class WordLlamaBackend:
    """WordLlama's packaged 256-d static embeddings (average of token vectors), loaded offline."""

    name = f"wordllama-{WORDLLAMA_CONFIG}-{WORDLLAMA_DIM}"

    def __init__(self, cache: Path | None = None) -> None:
        WordLlama = _import_wordllama().WordLlama
        where = seed_wordllama_cache(_writable_dir(cache or cache_root() / "wordllama"))
        self._model = WordLlama.load(
            config=WORDLLAMA_CONFIG, cache_dir=where, dim=WORDLLAMA_DIM, disable_download=True
        )

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length float32 vectors of ``texts`` (zero rows for texts without a known token)."""
        if not texts:
            return np.zeros((0, WORDLLAMA_DIM), dtype=np.float32)
        vectors = np.asarray(self._model.embed(list(texts), batch_size=EMBED_BATCH), dtype=np.float32)
        return normalise_rows(vectors)


def normalise_rows(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length; an all-zero (or non-finite) row stays zero."""
    vectors = np.nan_to_num(vectors.astype(np.float32, copy=False))
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return np.divide(vectors, norms, out=np.zeros_like(vectors), where=norms > 0)


@lru_cache(maxsize=1)
def default_backend() -> WordLlamaBackend:
    """The process-wide WordLlama backend (loaded once)."""
    return WordLlamaBackend()


def embed_chunks(chunks: Sequence[Chunk], backend: EmbeddingBackend) -> np.ndarray:
    """The unit vectors of ``chunks``' texts, in order: cache it per (book, policy, backend.name)."""
    return backend.embed([c.text for c in chunks])
