"""The fork server's own clean-up: the folder of its socket goes when the fork server does.

``multiprocessing`` makes a folder (``$TMPDIR/pymp-XXXXXXXX``) for the fork server's socket in
the *caller*, and only the caller's clean exit removes it. A caller killed by ``kill -9`` never
exits cleanly, so the folder (with a dead socket in it) stayed behind after every such kill. The
fork server outlives its caller by a moment (it ends when the caller's end of its "alive" pipe
closes, with a normal interpreter exit), so it removes the folder itself, and no process
depends on it by then.

This module is imported only by the fork server (``workerpool.worker_context`` puts it first in
the server's preload list). At import the server's listening socket is already open in this
process: its path is read from the process's own sockets (``/proc/self/fd``, Linux; elsewhere
nothing is found and nothing is removed). At exit the server removes its socket, then the folder
if that left it empty and it is one ``multiprocessing`` made (its name starts with ``pymp-``).
Only if empty: a worker that starts workers of its own (a batch worker reading a PDF) starts a
fork server of its own, whose socket ``multiprocessing`` puts in the *caller's* folder (a worker
inherits its caller's temp folder); that server ends with its worker, while the caller and its
own server still use the folder. Workers forked from a server inherit the exit handler but end
with ``os._exit``, which runs none.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import socket
from pathlib import Path

FOLDER_PREFIX = "pymp-"
"""How ``multiprocessing`` names the temp folder it makes for its sockets."""


def own_sockets() -> list[Path]:
    """The Unix sockets this process has open whose folder is a ``pymp-`` one (Linux ``/proc``)."""
    try:
        fds = os.listdir("/proc/self/fd")
    except OSError:
        return []
    found = []
    for fd in fds:
        try:
            sock = socket.socket(fileno=os.dup(int(fd)))
        except (OSError, ValueError):
            continue
        with sock:
            try:
                name = sock.getsockname() if sock.family == socket.AF_UNIX else ""
            except OSError:
                continue
        path = Path(name) if isinstance(name, str) and name else None
        if path is not None and path.parent.name.startswith(FOLDER_PREFIX) and path not in found:
            found.append(path)
    return found


def _remove(sockets: list[Path]) -> None:
    """Remove ``sockets``, then each one's folder where that left it empty."""
    for path in sockets:
        with contextlib.suppress(OSError):
            path.unlink()
        with contextlib.suppress(OSError):
            path.parent.rmdir()


atexit.register(_remove, own_sockets())
