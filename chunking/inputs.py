"""Input files read safely: a regular file only, bounded in size, one clear line on failure.

Every file the package reads whole (a book, a structure file, a manifest, a chunk file, a cache)
goes through ``read_bounded``: a FIFO would block the reader forever and ``/dev/zero`` never
ends, so the file is opened without blocking (``O_NONBLOCK``: opening a FIFO does not wait for a
writer), the *opened* file is ``fstat``-ed (no window in which the path could be swapped), and at
most ``limit + 1`` bytes are read (the file may grow after the ``fstat``).

JSON from such a file goes through ``load_json``: the bracket depth is counted first, without
recursion (``json_depth``), so 100,000 nested ``[`` are refused with one line instead of a
``RecursionError`` from the decoder or from whatever walks the result.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import stat
from typing import Any

from .errors import ChunkingError, UnreadableInputError

MAX_JSON_DEPTH = 64
"""Deepest nesting of arrays and objects accepted in a JSON input (ours need fewer than 8)."""

MAX_MANIFEST_BYTES = 64 << 20
"""Largest manifest read (``diff``, ``validate``, batch's resume check): one holds every correction
of a structure file (16 MiB at most) besides the run's warnings and headings."""

MAX_CHUNK_FILE_BYTES = 2 << 30
"""Largest chunk file read back (twice the 1 GiB book limit: chunks overlap)."""


def read_bounded(
    path: str | os.PathLike,
    limit: int,
    label: str,
    what: str,
    error: type[ChunkingError] = UnreadableInputError,
) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    Args:
        path (str | os.PathLike): the file.
        limit (int): most bytes accepted.
        label (str): how messages name the file.
        what (str): what the file should be, for messages (``"book file"``).
        error (type[ChunkingError]): the exception raised (a subclass for its own exit).

    Raises:
        UnreadableInputError: (``error``) missing, a folder, not a regular file, unreadable or
            larger than ``limit``: one line naming ``label`` and the reason.
    """
    try:
        data = _read_regular(path, limit, label, what, error)
    except FileNotFoundError:
        raise error(f"{label}: no such file") from None
    except PermissionError:
        raise error(f"{label}: permission denied") from None
    except IsADirectoryError:
        raise error(f"{label}: is a folder, not a {what}") from None
    except OSError as exc:
        raise error(f"{label}: cannot be read: {exc.strerror or type(exc).__name__}") from None
    if len(data) > limit:
        raise error(f"{label}: larger than the {_mib(limit)} limit")
    return data


def _read_regular(
    path: str | os.PathLike, limit: int, label: str, what: str, error: type[ChunkingError]
) -> bytes:
    """At most ``limit + 1`` bytes of ``path``, opened without blocking and checked by ``fstat``."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise error(f"{label}: is a folder, not a {what}")
        if not stat.S_ISREG(info.st_mode):
            raise error(f"{label}: not a regular file (a device, FIFO or socket); give a {what}")
        if info.st_size > limit:
            raise error(f"{label}: {info.st_size} bytes, larger than the {_mib(limit)} limit")
        os.set_blocking(fd, True)
        with open(fd, "rb", closefd=False) as fh:
            return fh.read(limit + 1)
    finally:
        os.close(fd)


def _mib(limit: int) -> str:
    """``16 MiB`` (or ``512 KiB`` for a small limit), for messages."""
    return f"{limit >> 20} MiB" if limit >= 1 << 20 else f"{max(1, limit >> 10)} KiB"


_JSON_TOKENS = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')
"""A JSON string (skipped whole: brackets inside it do not count) or one bracket."""
_DEPTH_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def json_depth(data: bytes) -> int:
    """The deepest nesting of arrays and objects in JSON text ``data`` (JSONL: of its deepest
    line), counted with a regular expression and a running sum, never by recursion."""
    steps = (_DEPTH_STEP.get(m.group()[0], 0) for m in _JSON_TOKENS.finditer(data))
    return max(itertools.accumulate(steps, initial=0))


def parse_json(
    data: bytes,
    label: str,
    error: type[ChunkingError] = UnreadableInputError,
    *,
    max_depth: int = MAX_JSON_DEPTH,
) -> Any:
    """``data`` (UTF-8 JSON) decoded, after its depth is checked (``json_depth``).

    Raises:
        UnreadableInputError: (``error``) not UTF-8, not JSON, or nested deeper than ``max_depth``.
    """
    if json_depth(data) > max_depth:
        raise error(f"{label}: not valid JSON (nested deeper than {max_depth} levels)")
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise error(f"{label}: not valid JSON (not UTF-8 text)") from None
    except (ValueError, RecursionError) as exc:
        raise error(f"{label}: not valid JSON ({one_reason(exc)})") from None


def one_reason(exc: Exception) -> str:
    """A decoder's message without its position noise beyond one line."""
    return " ".join(str(exc).split())[:120] or type(exc).__name__


def load_json(
    path: str | os.PathLike,
    limit: int,
    label: str,
    what: str,
    error: type[ChunkingError] = UnreadableInputError,
    *,
    max_depth: int = MAX_JSON_DEPTH,
) -> Any:
    """The JSON in the regular file ``path``: ``read_bounded`` then ``parse_json``."""
    return parse_json(read_bounded(path, limit, label, what, error), label, error, max_depth=max_depth)
