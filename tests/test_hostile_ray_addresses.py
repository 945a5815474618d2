"""Ray addresses are checked with Ray's own handshake under a timeout (issue 26, item 11).

Generated listeners that are not Ray (silent, an HTTP server, random bytes, a hang-up) are put
at ``--ray-address`` and at ``auto`` (through a session file Ray reads, under a private
``TMPDIR``); the real CLI must end with one line and exit 2 within the handshake timeout, with no
process left behind, also when the CLI itself is killed during the handshake. Nothing here
starts a Ray cluster; ``--engine ray`` needs Ray installed (skipped otherwise).
"""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from chunking.batch.ray_handshake import TIMEOUT_ENV, refuse_foreign_session
from chunking.errors import UsageError
from cli_run import BOOK_TEXT, ROOT, one_error_line

pytest.importorskip("ray")
pytestmark = pytest.mark.usefixtures("ray_machine")  # no other module's local Ray for ``auto`` to find

TIMEOUT_S = 4
"""The handshake timeout these runs set (``$BOOK_CHUNK_INSPECTOR_RAY_HANDSHAKE_S``)."""
SLACK_S = 150
"""What a run may take beyond the timeout: Python, Ray's import in the handshake child and the
batch plan on two cores busy with the rest of the suite (34 s was exceeded under CI load). A hang,
what these tests guard against, is unbounded; this bound only keeps a failure from stalling."""


def _silent(conn: socket.socket) -> None:
    conn.recv(65536)


def _http(conn: socket.socket) -> None:
    conn.recv(65536)
    conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")


def _noise(conn: socket.socket) -> None:
    conn.sendall(random.Random(26).randbytes(4096))
    conn.recv(65536)


def _hang_up(conn: socket.socket) -> None:
    conn.close()


LISTENERS: dict[str, Callable[[socket.socket], None]] = {
    "silent": _silent, "http server": _http, "random bytes": _noise, "hangs up": _hang_up,
}
"""Servers that accept TCP connections and are not Ray."""


def _serve(server: socket.socket, handle: Callable[[socket.socket], None], stop: threading.Event) -> None:
    server.settimeout(0.2)
    while not stop.is_set():
        try:
            conn, _ = server.accept()
        except OSError:
            continue
        conn.settimeout(60)
        try:
            handle(conn)
        except OSError:
            pass


@pytest.fixture(params=list(LISTENERS))
def not_ray(request) -> Iterator[int]:
    """The port of a listener on every interface (Ray swaps 127.0.0.1 for the node's IP)."""
    server = socket.create_server(("0.0.0.0", 0))
    stop = threading.Event()
    thread = threading.Thread(target=_serve, args=(server, LISTENERS[request.param], stop), daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join()
    server.close()


@pytest.fixture
def books(tmp_path) -> Path:
    folder = tmp_path / "books"
    folder.mkdir()
    (folder / "a.txt").write_text(BOOK_TEXT, encoding="utf-8")
    return folder


def ray_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """A private TMPDIR (Ray's session files), the short handshake timeout, no RAY_ADDRESS."""
    tmp = tmp_path / "tmp"
    (tmp / "ray").mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    return {**env, "TMPDIR": str(tmp), TIMEOUT_ENV: str(TIMEOUT_S), **extra}


def batch(books: Path, out: Path, env: dict[str, str], *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "chunking", "chunk", str(books), "-o", str(out),
                             "--engine", "ray", *args], cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def handshake_children(parent: int) -> list[int]:
    """Pids of live handshake processes started by the CLI process ``parent`` (their last
    argument), whether or not ``parent`` still lives."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().decode(errors="replace").split("\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if "chunking.batch.ray_handshake" in argv and str(parent) in argv[-2:] and state != "Z":
            found.append(int(entry.name))
    return found


def finished(run: subprocess.Popen) -> subprocess.CompletedProcess:
    started = time.monotonic()
    out, err = run.communicate(timeout=TIMEOUT_S + SLACK_S)
    assert time.monotonic() - started < TIMEOUT_S + SLACK_S
    return subprocess.CompletedProcess(run.args, run.returncode, out, err)


@pytest.mark.parametrize("how", ["--ray-address", "RAY_ADDRESS", "auto (stale session file)"])
def test_a_listener_that_is_not_ray_is_refused_by_the_handshake_in_one_line(not_ray, books, tmp_path, how):
    address = f"127.0.0.1:{not_ray}"
    env = ray_env(tmp_path)
    args: tuple[str, ...] = ()
    if how == "--ray-address":
        args = ("--ray-address", address)
    elif how == "RAY_ADDRESS":
        env["RAY_ADDRESS"] = address
    else:
        (tmp_path / "tmp" / "ray" / "ray_current_cluster").write_text(address + "\n")
        args = ("--ray-address", "auto")
    run = batch(books, tmp_path / "out", env, *args)
    r = finished(run)
    line = one_error_line(r, UsageError.exit_code)
    assert "--ray-address" in line and ("no Ray answered" in line or "cannot connect" in line), line
    assert not (tmp_path / "out").exists()
    assert handshake_children(run.pid) == []


def test_a_cli_killed_during_the_handshake_leaves_no_process_behind(books, tmp_path):
    server = socket.create_server(("0.0.0.0", 0))  # accepts (the backlog) and never answers
    address = f"127.0.0.1:{server.getsockname()[1]}"
    env = ray_env(tmp_path, **{TIMEOUT_ENV: "600"})
    run = batch(books, tmp_path / "out", env, "--ray-address", address)
    try:
        deadline = time.monotonic() + SLACK_S
        while not handshake_children(run.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        children = handshake_children(run.pid)
        assert children, "the handshake never started"
        run.send_signal(signal.SIGKILL)
        run.wait()
        deadline = time.monotonic() + 10
        while handshake_children(run.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert handshake_children(run.pid) == []
    finally:
        for pid in handshake_children(run.pid):  # NOTE: only if the test failed: our own child
            os.kill(pid, signal.SIGKILL)
        run.kill()
        run.communicate()
        server.close()


def test_a_handshake_timeout_that_is_not_a_number_is_one_line(books, tmp_path):
    r = finished(batch(books, tmp_path / "out", ray_env(tmp_path, **{TIMEOUT_ENV: "soon"}),
                       "--ray-address", "auto"))
    assert TIMEOUT_ENV in one_error_line(r, UsageError.exit_code)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to chown")
def test_auto_refuses_a_ray_session_another_user_owns(tmp_path):
    session = tmp_path / "session_2026-12-06_00-00-00_000000_1"
    session.mkdir()
    refuse_foreign_session("auto", {"session_dir": str(session)})  # ours: accepted
    os.chown(session, os.getuid() + 4242, -1)
    with pytest.raises(UsageError, match=r"another user's \(uid \d+"):
        refuse_foreign_session("auto", {"session_dir": str(session)})
    refuse_foreign_session(f"127.0.0.1:{6379}", {"session_dir": str(session)})  # named on purpose: allowed
