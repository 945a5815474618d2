"""Dense retrieval's one dependency: an embedding backend, and the offline WordLlama one.

Contract: an ``EmbeddingBackend`` has a ``name`` (part of every cache key: two backends never share
vectors) and ``embed(texts) -> float32 array (len(texts), dim)`` whose rows are L2-normalised, so a
dot product is the cosine similarity. To plug in another model, write a class with those two
members and pass it wherever a backend is taken (``DenseIndex.build``, ``build_index``).

``WordLlamaBackend`` runs PyPI ``wordllama``'s packaged 256-d model with no network: the wheel
ships the weights and the tokenizer, but ``WordLlama.load`` looks for the tokenizer under another
folder than the one the wheel uses and would try to download it. So the packaged tokenizer file is
copied (atomically, ``chunking.atomic``) into a user-writable cache outside the repository
(``chunking.user_cache.cache_root()`` ``/wordllama``) and the model is loaded with
``disable_download=True``. The copy is never trusted: before each load it is read bounded
(``chunking.inputs``: a FIFO or a link to ``/dev/zero`` is refused, never read) and compared
byte for byte with the packaged file, and rewritten when it differs, so a garbage file repairs
itself. When the cache cannot be written, a temp folder holds the copy for the load only and is
removed right after (the tokenizer is read at load time).

Texts are embedded as given, except that lone surrogates (a query with undecodable bytes reaches
``sys.argv`` as ``surrogateescape`` code points) become U+FFFD: the tokenizer takes only
encodable strings, and BM25 treats such a query as text too.

``embed_chunks(chunks, backend)`` is the pure function callers cache per (book, policy, backend).
"""

from __future__ import annotations

import contextlib
import logging
import tempfile
from collections.abc import Iterator, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Protocol

import numpy as np

from ..atomic import atomic_write
from ..errors import OutputError, UnreadableInputError
from ..inputs import read_bounded
from ..models import Chunk
from ..readers.raw import clean
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
    """Make ``cache/tokenizers/`` hold a byte-exact copy of the wheel's tokenizer file (kept when
    it already does, else written atomically) and return ``cache``.

    Raises:
        UnreadableInputError: the installed ``wordllama`` lacks its packaged tokenizer.
        OutputError, OSError: the copy cannot be written there.
    """
    name, packaged = _packaged_tokenizer()
    target = cache / "tokenizers" / name
    if not _holds(target, packaged):
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(target, lambda out: out.write(packaged))
    return cache


def _packaged_tokenizer() -> tuple[str, bytes]:
    """The name and bytes of the tokenizer file inside the installed ``wordllama`` wheel."""
    wordllama = _import_wordllama()
    name = f"{WORDLLAMA_CONFIG}_tokenizer_config.json"
    packaged = Path(wordllama.__file__).parent / "tokenizers" / name
    if not packaged.is_file():
        raise UnreadableInputError(f"wordllama has no packaged tokenizer {name}; reinstall wordllama")
    return name, packaged.read_bytes()


def _holds(path: Path, expected: bytes) -> bool:
    """Whether ``path`` is a regular file with exactly the bytes ``expected`` (read bounded)."""
    try:
        return read_bounded(path, len(expected), str(path), "tokenizer file") == expected
    except UnreadableInputError:
        return False


@contextlib.contextmanager
def _seeded(cache: Path) -> Iterator[Path]:
    """``cache`` seeded for a load; when it cannot be written, a temp folder seeded instead and
    removed when the load is done (never one left behind per run)."""
    try:
        where: Path | None = seed_wordllama_cache(cache)
    except (OSError, OutputError):
        where = None
    if where is not None:
        yield where
        return
    with tempfile.TemporaryDirectory(prefix="book-chunk-inspector-wordllama-") as tmp:
        yield seed_wordllama_cache(Path(tmp))


class WordLlamaBackend:
    """WordLlama's packaged 256-d static embeddings (average of token vectors), loaded offline."""

    name = f"wordllama-{WORDLLAMA_CONFIG}-{WORDLLAMA_DIM}"

    def __init__(self, cache: Path | None = None) -> None:
        WordLlama = _import_wordllama().WordLlama
        with _seeded(cache or cache_root() / "wordllama") as where:
            self._model = WordLlama.load(
                config=WORDLLAMA_CONFIG, cache_dir=where, dim=WORDLLAMA_DIM, disable_download=True
            )

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length float32 vectors of ``texts`` (zero rows for texts without a known token);
        lone surrogates become U+FFFD first (the tokenizer refuses them with a ``TypeError``)."""
        if not texts:
            return np.zeros((0, WORDLLAMA_DIM), dtype=np.float32)
        encodable = [clean(t) for t in texts]
        vectors = np.asarray(self._model.embed(encodable, batch_size=EMBED_BATCH), dtype=np.float32)
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
