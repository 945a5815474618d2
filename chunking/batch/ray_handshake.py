"""A Ray address is checked with Ray's own handshake, under a timeout, before the driver uses it.

A TCP connect proves only that something listens: ``ray.init(address=...)`` given a port where
another server listens (or a stale ``auto`` session file naming one) retries for minutes and
ignores SIGTERM meanwhile. ``ray.init`` has no timeout of its own, and nothing public can stop it
from another thread. So the handshake is ``ray.init`` itself, with the driver's settings, in a
child process (``python -m chunking.batch.ray_handshake ADDRESS``) that the parent gives
``HANDSHAKE_TIMEOUT_S`` and then kills, with its whole process group; the child dies with the
parent too (``chunking.lifeline``). Its stderr (Ray's native retry lines) is discarded; it prints
one JSON line: ``{"session_dir": …}`` when connected, or ``{"error": …}``.

``auto`` is resolved by Ray in the child exactly as the driver would resolve it, so it is checked
the same way; and because Ray's ``auto`` also attaches to any Ray it sees running on the machine,
a local session folder owned by another user is refused (``refuse_foreign_session``).
"""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from ..errors import UsageError, one_line, positive_from_env

HANDSHAKE_TIMEOUT_S = 30.0
"""How long Ray's own handshake with ``--ray-address`` may take by default (a real head answers
in 1-3 s here, on two busy cores) before the address counts as not Ray."""

TIMEOUT_ENV = "BOOK_CHUNK_INSPECTOR_RAY_HANDSHAKE_S"
"""Environment variable overriding ``HANDSHAKE_TIMEOUT_S`` (seconds), for a cluster far away."""

AUTO_ADDRESSES = ("auto",)
"""Addresses Ray resolves itself (a session file, a running Ray on this machine)."""


def handshake_timeout() -> float:
    """``$BOOK_CHUNK_INSPECTOR_RAY_HANDSHAKE_S`` when set, else ``HANDSHAKE_TIMEOUT_S``.

    Raises:
        UsageError: the variable is not a positive number of seconds.
    """
    return positive_from_env(TIMEOUT_ENV, HANDSHAKE_TIMEOUT_S)


def handshake(address: str, timeout: float | None = None, hint: str = "") -> dict[str, Any]:
    """Connect to ``address`` with ``ray.init`` in a child process, at most ``timeout`` seconds
    (None: ``handshake_timeout()``; ``hint`` ends the line when Ray refuses the connection).

    Returns:
        dict: what the child reported on success (``session_dir`` may be None: a Ray Client).

    Raises:
        UsageError: no Ray answered in time, or Ray refused the connection (one line each).
    """
    timeout = handshake_timeout() if timeout is None else timeout
    child = subprocess.Popen(
        [sys.executable, "-m", __name__, address, str(os.getpid())],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # NOTE: its own group, so Ray's helpers go with it on a kill
    )
    try:
        out, _ = child.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill(child)
        raise UsageError(
            f"--ray-address {address}: no Ray answered within {timeout:g} s (something other than a "
            "Ray head listens there, or a stale Ray session); give a running head's address "
            f"(host:6379, or ray://host:10001){hint}"
        ) from None
    except BaseException:  # NOTE: Ctrl-C or SIGTERM while waiting: the child must not stay
        _kill(child)
        raise
    return _reply(address, out, hint)


def _kill(child: subprocess.Popen) -> None:
    """SIGKILL the child's process group (``ray.init`` ignores SIGTERM while it retries) and reap it."""
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except OSError:
        pass
    child.wait()


def _reply(address: str, out: bytes, hint: str) -> dict[str, Any]:
    """The child's JSON line, or a one-line ``UsageError`` with the reason Ray gave."""
    lines = out.decode("utf-8", "replace").strip().splitlines()
    try:
        reply = json.loads(lines[-1]) if lines else {}
    except ValueError:
        reply = {}
    if not isinstance(reply, dict) or "error" in reply or "session_dir" not in reply:
        reason = reply.get("error") if isinstance(reply, dict) else None
        raise UsageError(f"--ray-address {address}: cannot connect: {one_line(reason or 'no answer')}{hint}")
    return reply


def refuse_foreign_session(address: str, reply: dict[str, Any]) -> None:
    """Refuse ``auto`` when the Ray it found runs from a session folder on this machine that
    another user owns (Ray's ``auto`` attaches to any Ray it sees running here)."""
    session = reply.get("session_dir")
    if address not in AUTO_ADDRESSES or not session or not hasattr(os, "getuid"):
        return
    try:
        owner = Path(session).stat().st_uid
    except OSError:
        return  # NOTE: not on this machine
    if owner != os.getuid():
        raise UsageError(
            f"--ray-address {address}: the Ray found is another user's (uid {owner}, {session}); "
            "leave out --ray-address to start your own, or give your cluster's address"
        )


def main(argv: list[str]) -> int:
    """The child: connect with the driver's settings, print one JSON line, disconnect."""
    from ..lifeline import die_with_parent

    die_with_parent(int(argv[1]) if len(argv) > 1 else None)
    try:
        import ray

        context = ray.init(
            address=argv[0], log_to_driver=False, logging_level=logging.ERROR, configure_logging=False
        )
        info = getattr(context, "address_info", None) or {}
        reply = {"session_dir": info.get("session_dir") if isinstance(info, dict) else None}
        ray.shutdown()
    except Exception as exc:  # NOTE: every refusal becomes the one line the parent prints
        reason = one_line(exc) or type(exc).__name__
        reply = {"error": reason if len(reason) <= 300 else reason[:299] + "…"}
    print(json.dumps(reply), flush=True)
    return 0 if "error" not in reply else 1


if __name__ == "__main__":
    os._exit(main(sys.argv[1:]))  # NOTE: no interpreter teardown of Ray's threads
