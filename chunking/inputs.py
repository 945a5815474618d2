"""Input files read safely: a regular file only, bounded in size, one clear line on failure.

Every file the package reads whole (a book, a structure file) goes through ``read_bounded``: a
FIFO would block the reader forever and ``/dev/zero`` never ends, so the path is ``stat``-ed
first (opening a FIFO blocks until a writer comes), and at most ``limit + 1`` bytes are read
(the file may grow after the ``stat``).
"""

from __future__ import annotations

import os
import stat

from .errors import UnreadableInputError


def read_bounded(
    path: str | os.PathLike,
    limit: int,
    label: str,
    what: str,
    error: type[UnreadableInputError] = UnreadableInputError,
) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    Args:
        path (str | os.PathLike): the file.
        limit (int): most bytes accepted.
        label (str): how messages name the file.
        what (str): what the file should be, for messages (``"book file"``).
        error (type[UnreadableInputError]): the exception raised (a subclass for its own exit).

    Raises:
        UnreadableInputError: (``error``) missing, a folder, not a regular file, unreadable or
            larger than ``limit``: one line naming ``label`` and the reason.
    """
    too_big = f"{label}: larger than the {limit >> 20} MiB limit"
    try:
        info = os.stat(path)
        if stat.S_ISDIR(info.st_mode):
            raise error(f"{label}: is a folder, not a {what}")
        if not stat.S_ISREG(info.st_mode):
            raise error(f"{label}: not a regular file (a device, FIFO or socket); give a {what}")
        if info.st_size > limit:
            raise error(f"{label}: {info.st_size} bytes, larger than the {limit >> 20} MiB limit")
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)
    except FileNotFoundError:
        raise error(f"{label}: no such file") from None
    except PermissionError:
        raise error(f"{label}: permission denied") from None
    except IsADirectoryError:
        raise error(f"{label}: is a folder, not a {what}") from None
    except OSError as exc:
        raise error(f"{label}: cannot be read: {exc.strerror or type(exc).__name__}") from None
    if len(data) > limit:
        raise error(too_big)
    return data
