"""Files written whole or not at all: temp file next to the target, then a rename.

Every file the package writes (chunk files, manifests, structure files, PDFs) goes through here:
``write_temp`` finishes a temp file ``.<name>.<pid>.<8 chars>.tmp`` beside the target (with the
process umask's mode, not ``mkstemp``'s 0600), ``replace_all`` renames one or more finished temp
files over their targets with SIGINT/SIGTERM held so a signal never splits a pair, and
``tidy_temps`` removes the temp files a killed run left (never a live process's).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

from .errors import OutputError

TEMP_SUFFIX = ".tmp"
"""Temp files are ``.<name>.<pid>.<random>.tmp`` next to the output, renamed over it when whole."""


def _temp_pattern(name: str) -> re.Pattern[str]:
    """The names ``write_temp`` gives the temp files of ``name`` (``mkstemp``'s 8 random
    characters; the pid is absent in files left by versions before it was added)."""
    return re.compile(re.escape(f".{name}.") + r"(?:(?P<pid>[0-9]+)\.)?[a-z0-9_]{8}" + re.escape(TEMP_SUFFIX))


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: alive, someone else's
        return True
    return True


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Hold SIGINT and SIGTERM for a few steps that must not be split (create a temp file and
    remember its name; rename a pair of finished files): a signal that comes meanwhile is
    recorded and raised again right after, to the handler in force.

    NOTE: at the Python level, not with ``pthread_sigmask``: Python runs its handlers in the main
    thread whichever thread the OS delivered the signal to, so a per-thread mask holds nothing
    in a process with other threads. Handlers can only be changed in the main thread; elsewhere
    nothing is held.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pending: list[int] = []

    def hold(signum: int, frame: Any) -> None:
        pending.append(signum)

    previous = {}
    for sig in (signal.SIGINT, signal.SIGTERM):
        handler = signal.getsignal(sig)
        if handler is not None:  # None: set outside Python, cannot be restored
            previous[sig] = signal.signal(sig, hold)
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        for signum in dict.fromkeys(pending):
            signal.raise_signal(signum)


def write_temp(path: Path, write: Callable[[BinaryIO], object]) -> str:
    """Write through ``write(fh)`` into a temp file next to ``path`` and return its name.

    Any failure (an ``OSError``, Ctrl-C, SIGTERM) removes the temp file; an ``OSError`` becomes
    one ``OutputError`` line naming the path and the reason.
    """
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with _signals_held():  # NOTE: a signal between creating the file and naming it would leak it
            fd, tmp = tempfile.mkstemp(
                dir=path.parent, prefix=f".{path.name}.{os.getpid()}.", suffix=TEMP_SUFFIX
            )
        os.fchmod(fd, 0o666 & ~_umask())  # mkstemp makes 0600; an output gets the usual mode
        with os.fdopen(fd, "wb") as fh:
            write(fh)
        return tmp
    except BaseException as exc:
        unlink_quietly(tmp)
        if isinstance(exc, OSError):
            raise OutputError(f"cannot write {path}: {exc.strerror or type(exc).__name__}") from None
        raise


def unlink_quietly(name: str | None) -> None:
    if name is not None:
        try:
            os.unlink(name)
        except OSError:
            pass


def replace_all(pairs: list[tuple[str, Path]]) -> None:
    """Rename finished temp files over their targets, all or none split by a signal."""
    try:
        with _signals_held():
            for tmp, path in pairs:
                os.replace(tmp, path)
    except OSError as exc:
        for tmp, _ in pairs:
            unlink_quietly(tmp)
        raise OutputError(f"cannot write {pairs[0][1]}: {exc.strerror or type(exc).__name__}") from None


def atomic_write(path: Path, write: Callable[[BinaryIO], object]) -> None:
    """Write through ``write(fh)`` into a temp file next to ``path``, then rename it over ``path``."""
    replace_all([(write_temp(path, write), path)])


def tidy_temps(paths: list[Path]) -> list[Path]:
    """Remove the temp files of ``paths`` (files of one folder) that a killed run left.

    Only names this module makes are touched: ``.<name>.<pid>.<8 chars>.tmp`` whose process is
    gone, and the older ``.<name>.<8 chars>.tmp`` without a pid. A live run's temp file is kept.

    Returns:
        list[Path]: the files removed.
    """
    if not paths:
        return []
    out = paths[0]
    patterns = [_temp_pattern(p.name) for p in paths]
    removed: list[Path] = []
    try:
        entries = list(os.scandir(out.parent if str(out.parent) else "."))
    except OSError:
        return removed
    for entry in entries:
        m = next((m for p in patterns if (m := p.fullmatch(entry.name))), None)
        if m is None or not entry.is_file(follow_symlinks=False):
            continue
        if m["pid"] is not None and (int(m["pid"]) == os.getpid() or _pid_alive(int(m["pid"]))):
            continue
        try:
            os.unlink(entry.path)
            removed.append(Path(entry.path))
        except OSError:
            pass
    return removed
