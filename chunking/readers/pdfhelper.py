"""The PDF reader's helper process, parent side: start it, feed it, collect its pages.

A helper is a child process that opens the same PDF and extracts pages from the last one down
while the parent reads from the first one up; they meet in the middle (``frontier``). It never
shares a PyMuPDF object with the parent. The reader's own helpers are plain
``python -m chunking.readers.pdfpages`` children (not multiprocessing, so they never re-run the
caller's ``__main__``: Streamlit, AppTest; safe in a process with threads). The CLI starts its
helper (``prestart``) before its own imports and the vocabulary load, by a fork where that is
safe (``can_fork``); the reader adopts it only for the very bytes it reads (same sha256, same
page count), else it is stopped and the reader goes on alone. This module imports no PyMuPDF.

The frames both sides write: ``chunking.readers.pdfwire``.
"""

from __future__ import annotations

import atexit
import marshal
import os
import select
import signal
import struct
import subprocess
import sys
import threading
import time
import weakref
from pathlib import Path
from typing import IO, Protocol, TypeGuard

from .pdfwire import (
    DONE,
    FRAME,
    HEADER,
    HELLO,
    HELLO_INDEX,
    LAYOUT_LAYER,
    LAYOUT_REQUEST,
    MAX_LAYOUT_PAGES,
    MAX_PAGE_BYTES,
    PAGE,
    PATH,
    PATH_MODE,
)

STOP_TIMEOUT = 60.0
"""Seconds to wait for the helper's last frame after asking it to stop (it finishes one page)."""


class Helper:
    """One helper process and the pages it delivered (see the module docstring).

    NOTE: the parent reads the helper's frames on its own thread, between two of its pages
    (``poll``), never on a reader thread: page extraction holds the GIL in MuPDF, and a thread
    woken for every frame made the parent's extraction slower than reading every page alone.
    """

    def __init__(self, source: bytes | str | os.PathLike, first: int = 1, *, fork: bool = False) -> None:
        self.first = first
        self.frontier = sys.maxsize  # pages [frontier, count) are done by the helper
        self.digest: bytes | None = None
        self.count = -1
        self.pages: dict[int, tuple[str, bool]] = {}
        self.repaired = False
        self.messages = ""
        self.ok = False  # it sent DONE: its pages are complete
        self.layouts: dict[int, bytes] = {}  # page index -> marshalled layout lines (after DONE)
        self.layout_share: float | None = None  # the top share of the layouts asked for
        self._buffer = bytearray()
        self._closed = False  # its output ended (EOF or nonsense)
        self._running = True
        if fork and isinstance(source, (str, os.PathLike)):
            self.proc, self._stdin, self._stdout = _forked_helper()
        else:
            self.proc, self._stdin, self._stdout = _spawned_helper()
        self._fd = self._stdout.fileno()
        self._writer: threading.Thread | None = None
        if isinstance(source, (bytes, bytearray, memoryview)):
            # NOTE: the bytes fill the pipe faster than the child starts; a thread blocked in
            # write() holds no GIL.
            head = HEADER.pack(len(source), first, 0)
            self._writer = threading.Thread(target=self._send, args=(head, source), daemon=True)
            self._writer.start()
        else:
            path = os.fsencode(source)
            self._send(HEADER.pack(PATH_MODE, first, 0) + PATH.pack(len(path)) + path, b"")

    def _send(self, head: bytes, data: bytes) -> None:
        try:
            self._stdin.write(head)
            self._stdin.write(data)
            self._stdin.flush()
        except (OSError, ValueError):
            pass  # the helper is gone: it delivers nothing

    def poll(self, timeout: float | None = 0.0) -> None:
        """Take in the frames the helper has written (waiting up to ``timeout`` s for the first)."""
        while not self._closed:
            ready, _, _ = select.select([self._fd], [], [], timeout)
            if not ready:
                return
            chunk = os.read(self._fd, 1 << 20)
            if not chunk:
                self._closed = True
                return
            self._buffer += chunk
            self._parse()
            timeout = 0.0

    def _parse(self) -> None:
        buf = self._buffer
        while not self._closed and len(buf) >= FRAME.size:
            index, layer, size = FRAME.unpack_from(buf)
            if size > MAX_PAGE_BYTES:
                self._closed = True
                return
            if len(buf) < FRAME.size + size:
                return
            payload = bytes(buf[FRAME.size : FRAME.size + size])
            del buf[: FRAME.size + size]
            try:
                self._take(index, layer, payload)
            except (ValueError, struct.error):
                self._closed = True  # nonsense: the parent reads what is missing

    def _take(self, index: int, layer: int, payload: bytes) -> None:
        if index == HELLO_INDEX:
            self.digest, self.count = HELLO.unpack(payload)
            self.frontier = self.count
        elif index == DONE:
            self.repaired, self.messages, self.ok = bool(layer), payload.decode("utf-8", "replace"), True
        elif self.ok and layer == LAYOUT_LAYER and 0 <= index < self.count:
            self.layouts[index] = payload
        elif not self.ok and self.digest is not None and self.first <= index < self.frontier:
            self.pages[index] = (payload.decode("utf-8", "surrogatepass"), bool(layer))
            self.frontier = index
        else:
            self._closed = True

    def serves(self, digest: bytes, count: int) -> bool:
        """True once the helper said it reads these bytes (sha256 ``digest``, ``count`` pages)."""
        return self.digest == digest and self.count == count

    def finish(self, needed: bool, keep: bool = False) -> None:
        """Stop the helper's page extraction; wait for its last page when its pages are
        ``needed``. With ``keep`` (and its pages complete) it stays running to serve one layout
        request (``request_layouts``) until ``close``."""
        if not self._running:
            return
        if needed:
            try:
                self._stdin.write(b"s")
                if not keep:
                    self._stdin.close()
                else:
                    self._stdin.flush()
            except (OSError, ValueError):
                pass
            deadline = time.monotonic() + STOP_TIMEOUT
            while not self.ok and not self._closed and time.monotonic() < deadline:
                self.poll(timeout=max(0.0, deadline - time.monotonic()))
        if needed and keep and self.ok:
            _kept.add(self)
            return
        self.close(keep_pages=needed)

    def request_layouts(self, pages: list[int], share: float | None) -> None:
        """Ask a kept helper for ``PdfLayout.lines(index, share)`` of ``pages``, in that order."""
        if not self._running or self.layout_share is not None or not pages:
            return
        self.layout_share = share or 0.0
        pages = pages[:MAX_LAYOUT_PAGES]
        request = LAYOUT_REQUEST.pack(self.layout_share, len(pages)) + b"".join(PAGE.pack(i) for i in pages)
        try:
            self._stdin.write(request)
            self._stdin.flush()
        except (OSError, ValueError):
            self.layout_share = None

    def layout_lines(self, index: int, share: float | None) -> list[tuple[str, float, bool, float]] | None:
        """The layout lines the helper sent for page ``index`` at ``share``, else None (not asked,
        not arrived yet, or not readable: the caller reads the page itself)."""
        if self.layout_share is None or (share or 0.0) != self.layout_share:
            return None
        if self._running and index not in self.layouts:
            self.poll()
        payload = self.layouts.get(index)
        if payload is None:
            return None
        try:
            lines = marshal.loads(payload)
        except (ValueError, EOFError, TypeError):
            return None
        ok = isinstance(lines, list) and all(
            isinstance(t, tuple) and len(t) == 4 and isinstance(t[0], str) for t in lines
        )
        return lines if ok else None

    def close(self, keep_pages: bool = False) -> None:
        """Stop the process and close the pipes (``keep_pages``: the pages it delivered stay)."""
        if not self._running:
            return
        self._running = False
        _kept.discard(self)
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        if self._writer is not None:
            self._writer.join()
        for stream in (self._stdin, self._stdout):
            try:
                stream.close()
            except (OSError, ValueError):
                pass
        if not (keep_pages and self.ok):
            self.pages = {}


class _Process(Protocol):
    def poll(self) -> int | None: ...
    def kill(self) -> None: ...
    def wait(self) -> int: ...


def _spawned_helper() -> tuple[_Process, IO[bytes], IO[bytes]]:
    """A fresh ``python -m chunking.readers.pdfpages`` (safe from any process: threads, Streamlit)."""
    root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
    proc = subprocess.Popen(
        [sys.executable, "-m", "chunking.readers.pdfpages"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    assert proc.stdin is not None and proc.stdout is not None  # both are pipes (PIPE above)
    return proc, proc.stdin, proc.stdout


class _Forked:
    """A forked helper's pid, with the three ``Popen`` methods ``Helper`` uses."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None

    def _reap(self, flags: int) -> int | None:
        if self.returncode is None:
            try:
                pid, status = os.waitpid(self.pid, flags)
            except ChildProcessError:  # reaped elsewhere: it is gone all the same
                self.returncode = -signal.SIGKILL
            else:
                if pid:
                    self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def poll(self) -> int | None:
        return self._reap(os.WNOHANG)

    def kill(self) -> None:
        if self.poll() is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def wait(self) -> int:
        code = self._reap(0)
        assert code is not None  # waitpid without WNOHANG returns only once it has ended
        return code


def can_fork() -> bool:
    """Whether this process may fork a helper: Linux, and no other thread (a thread's locks would
    be copied held into the child)."""
    return sys.platform.startswith("linux") and hasattr(os, "fork") and threading.active_count() == 1


def _forked_helper() -> tuple[_Process, IO[bytes], IO[bytes]]:
    """A forked copy of this process serving ``chunking.readers.pdfpages.serve`` (see ``prestart``).

    The child gets the two pipe ends it needs, /dev/null for its stdout and stderr (MuPDF's
    warnings; the parent's stdout may be a pipe someone reads to its end), the default signal
    handlers, and ends with ``os._exit`` (no exit handler, no buffer of the parent's is flushed).
    """
    from .pdfpages import serve  # NOTE: PyMuPDF imported here once, for both processes

    to_child, to_helper = os.pipe()
    from_helper, to_parent = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the helper
        code = 1
        try:
            os.close(to_helper)
            os.close(from_helper)
            for sig in (signal.SIGTERM, signal.SIGINT):
                signal.signal(sig, signal.SIG_DFL)
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (1, 2):
                if fd not in (to_child, to_parent):
                    os.dup2(null, fd)
            serve(to_child, to_parent)
            code = 0
        finally:
            os._exit(code)
    os.close(to_child)
    os.close(to_parent)
    return _Forked(pid), os.fdopen(to_helper, "wb"), os.fdopen(from_helper, "rb")


_prestarted: Helper | None = None
_kept: weakref.WeakSet[Helper] = weakref.WeakSet()
"""Helpers kept running to serve layouts (``Helper.finish(keep=True)``): stopped at exit."""


@atexit.register
def _close_kept() -> None:
    for helper in list(_kept):
        helper.close()


def wants_helper(source: object, workers: int | None) -> TypeGuard[str | os.PathLike]:
    """Whether a run of ``source`` with ``workers`` should start a helper early: a PDF file path
    (bytes are fed to a helper by the reader itself) and not ``--workers 1``. The reader decides
    whether to use it (``chunking.readers.pdf``: page count, same bytes)."""
    return (
        workers != 1 and isinstance(source, (str, os.PathLike)) and os.fspath(source).lower().endswith(".pdf")
    )


def prestart(path: str | os.PathLike) -> None:
    """Start a helper on the PDF at ``path`` now, for the next ``read_pdf`` to adopt (the CLI
    calls it before its imports and the vocabulary load). Never raises; a helper nobody adopts
    is stopped at exit.

    NOTE: where it may (``can_fork``), this process imports PyMuPDF and forks: the helper is
    extracting pages as soon as the import is done, and the second interpreter's start and
    imports (≈ 0.12 s of CPU, while both cores are busy) are never paid. Elsewhere a fresh
    interpreter is spawned.
    """
    global _prestarted
    if _prestarted is not None or not sys.executable:
        return
    try:
        _prestarted = Helper(os.fspath(path), fork=can_fork())
    except (OSError, ValueError):
        _prestarted = None
        return
    atexit.register(_discard)


def adopt() -> Helper | None:
    """The prestarted helper, if any (the caller checks ``serves`` and finishes it)."""
    global _prestarted
    helper, _prestarted = _prestarted, None
    return helper


def _discard() -> None:
    helper = adopt()
    if helper is not None:
        helper.finish(needed=False)
