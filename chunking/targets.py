"""Output paths checked before any work: writable, and never one of the run's own inputs.

The one rule every command that writes follows (``chunk -o`` and its manifest, batch outputs,
``outline --write-structure`` and ``--write-pdf``): an output must not be empty, a folder, an
existing non-regular file (``/dev/full``: the rename would replace the device) or below a file;
and it must not be *any* input of the run (the book, the structure file, a manifest), whether by
the same path, a symlink or a hard link (same device and inode, ``os.path.samefile``'s test), nor
another output of the same run. Refusals are ``UsageError`` lines (exit 2) and come before
anything is read or written, so nothing is overwritten.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from pathlib import Path

from .errors import UsageError

Named = tuple[str, "str | os.PathLike[str] | None"]
"""``(what it is, path)``: ``("the book", "a.pdf")``, ``("the structure file", "a.json")``."""


def _identity(path: str | os.PathLike[str]) -> tuple[int, int] | None:
    """``(st_dev, st_ino)`` of the file ``path`` names (through symlinks), None when absent."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return info.st_dev, info.st_ino


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """True when ``a`` and ``b`` are one file: the same absolute path, or the same device and
    inode (a symlink or a hard link to it)."""
    if os.path.abspath(a) == os.path.abspath(b):
        return True
    ia = _identity(a)
    return ia is not None and ia == _identity(b)


def check_output(
    option: str,
    out: str | os.PathLike[str],
    inputs: Sequence[Named] = (),
    *,
    shown: str | os.PathLike[str] | None = None,
) -> Path:
    """Refuse an output ``out`` of ``option`` that cannot or must not be written.

    Args:
        option (str): how messages name the option (``-o``, ``--write-pdf``).
        out (str | os.PathLike): the path to be written.
        inputs (Sequence[Named]): every file the run reads, ``(what, path)``; a None path is skipped.
        shown (str | os.PathLike | None): the path the user gave, when ``out`` is derived from it
            (the manifest of ``-o OUT``). Defaults to ``out``.

    Returns:
        Path: ``out``.

    Raises:
        UsageError: one line naming the option, the path and the reason (exit 2).
    """
    if not str(out).strip():
        raise UsageError(f"{option}: the output path is empty")
    target = Path(out)
    derived = shown is not None and str(shown) != str(out)
    given = f"{option} {shown}: {target}" if derived else f"{option} {target}:"
    try:
        info: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        info = None
    except NotADirectoryError:
        raise UsageError(f"{given} a parent folder is a file, not a folder") from None
    except OSError as exc:
        raise UsageError(f"{given} cannot use it: {exc.strerror}") from None
    if info is not None:
        if stat.S_ISDIR(info.st_mode):
            raise UsageError(f"{given} is a folder; give a file name")
        if not stat.S_ISREG(info.st_mode):
            raise UsageError(f"{given} is not a regular file (a device, FIFO or socket)")
    for what, path in inputs:
        if path is not None and str(path).strip() and same_file(target, path):
            raise UsageError(f"{given} is {what} itself ({path}); writing it would destroy {what}")
    for parent in target.parents:
        if parent.exists():
            if not parent.is_dir():
                raise UsageError(f"{given} {parent} is a file, not a folder")
            break
    return target


def check_outputs(outputs: Sequence[Named], inputs: Sequence[Named]) -> None:
    """``check_output`` for each ``(option, path)`` of ``outputs`` (None paths skipped), and no
    two outputs the same file.

    Raises:
        UsageError: the first refusal (exit 2).
    """
    given = [(option, path) for option, path in outputs if path is not None]
    for option, path in given:
        check_output(option, path, inputs)
    for i, (option, path) in enumerate(given):
        for other, other_path in given[:i]:
            if same_file(path, other_path):
                raise UsageError(f"{other} and {option} name the same file ({path})")
