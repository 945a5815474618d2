"""Child processes die with their parent.

A helper process this package starts (a worker, a handshake probe) must never outlive the CLI that
started it: after ``kill -9`` of the CLI nothing else would ever stop it, and a stuck one keeps a
core or grows without limit. On Linux the kernel does it: ``prctl(PR_SET_PDEATHSIG, SIGKILL)``
in the child (through ``ctypes``: no dependency) sends it SIGKILL when its parent dies. Elsewhere,
or when ``prctl`` is unavailable, a daemon thread polls the parent's pid and ends the process
once it changes (the child was re-parented: its parent is gone).
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1
"""``prctl`` option (linux/prctl.h): the signal a process gets when its parent thread dies."""

POLL_S = 0.5
"""How often the fallback thread looks at the parent's pid."""


def die_with_parent(parent: int | None = None) -> None:
    """End this process when its parent ends; call it first thing in a child process.

    Args:
        parent (int | None): the parent's pid as the parent knew it (passed down by it), to catch
            a parent that died before this call; None: the current parent.
    """
    parent = os.getppid() if parent is None else parent
    if not _kernel_lifeline():
        threading.Thread(target=_watch, args=(parent,), name="lifeline", daemon=True).start()
    if os.getppid() != parent:  # NOTE: died before the lifeline was in place
        os._exit(1)


def _kernel_lifeline() -> bool:
    """``prctl(PR_SET_PDEATHSIG, SIGKILL)`` on Linux; False when it cannot be set."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch(parent: int) -> None:
    """Exit at once when the parent pid changes (the fallback where ``prctl`` is missing)."""
    while os.getppid() == parent:
        time.sleep(POLL_S)
    os._exit(1)
