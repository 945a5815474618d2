"""The PDF reader's helper process, parent side: start it, feed it, collect its pages.

A helper is a plain ``python -m chunking.readers.pdf`` child (not multiprocessing, so it never
re-runs the caller's ``__main__``: Streamlit, AppTest) that opens the same PDF and extracts
pages from the last one down while the parent reads from the first one up; they meet in the
middle (``frontier``). It never shares a PyMuPDF object with the parent. This module imports
no PyMuPDF, so the CLI can start a helper (``prestart``) before its own imports and the
vocabulary load; the reader adopts it only for the very bytes it reads (same sha256, same page
count), else it is stopped and the reader goes on alone.

Protocol (all integers big-endian): parent → helper ``_HEADER`` (byte count, first page the
helper may take, 0) then the bytes, or ``PATH_MODE`` then ``_PATH`` and the file path; then one
byte or EOF means "stop". Helper → parent: ``_FRAME`` + payload, first ``_HELLO`` (sha256 of the
bytes + page count), then one frame per page (UTF-8 text, surrogates passed), then ``_DONE``
(MuPDF's message log; ``layer`` is its repair flag).
"""

from __future__ import annotations

import atexit
import os
import select
import struct
import subprocess
import sys
import threading
import time
from typing import IO, TypeGuard
from pathlib import Path

MAX_PAGE_BYTES = 1 << 28
"""Largest page text (UTF-8 bytes) accepted from the helper; anything odd and the parent reads
the pages itself."""
MAX_FILE_BYTES = 1 << 30
"""Largest file a prestarted helper reads: the reader's own limit (``ingest.MAX_BOOK_BYTES``)."""
STOP_TIMEOUT = 60.0
"""Seconds to wait for the helper's last frame after asking it to stop (it finishes one page)."""
HEADER = struct.Struct("!QII")
PATH = struct.Struct("!I")
FRAME = struct.Struct("!IBQ")
HELLO = struct.Struct("!32sI")
PATH_MODE = (1 << 64) - 1
"""Header byte count meaning "a file path follows": the helper reads the file itself."""
DONE = 0xFFFFFFFF
HELLO_INDEX = 0xFFFFFFFE


class Helper:
    """One helper process and the pages it delivered (see the module docstring).

    NOTE: the parent reads the helper's frames on its own thread, between two of its pages
    (``poll``), never on a reader thread: page extraction holds the GIL in MuPDF, and a thread
    woken for every frame made the parent's extraction slower than reading every page alone.
    """

    def __init__(self, source: bytes | str | os.PathLike, first: int = 1) -> None:
        root = str(Path(__file__).resolve().parents[2])
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
        self.first = first
        self.frontier = sys.maxsize  # pages [frontier, count) are done by the helper
        self.digest: bytes | None = None
        self.count = -1
        self.pages: dict[int, tuple[str, bool]] = {}
        self.repaired = False
        self.messages = ""
        self.ok = False
        self._buffer = bytearray()
        self._closed = False  # its output ended (DONE, EOF or nonsense)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "chunking.readers.pdf"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        # NOTE: both are pipes (PIPE above), never None
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._stdin: IO[bytes] = self.proc.stdin
        self._stdout: IO[bytes] = self.proc.stdout
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
            self._closed = True
        elif self.digest is not None and self.first <= index < self.frontier:
            self.pages[index] = (payload.decode("utf-8", "surrogatepass"), bool(layer))
            self.frontier = index
        else:
            self._closed = True

    def serves(self, digest: bytes, count: int) -> bool:
        """True once the helper said it reads these bytes (sha256 ``digest``, ``count`` pages)."""
        return self.digest == digest and self.count == count

    def finish(self, needed: bool) -> None:
        """Stop the helper; wait for its last frame when its pages are ``needed``."""
        if needed:
            try:
                self._stdin.write(b"s")
                self._stdin.close()
            except (OSError, ValueError):
                pass
            deadline = time.monotonic() + STOP_TIMEOUT
            while not self._closed and time.monotonic() < deadline:
                self.poll(timeout=max(0.0, deadline - time.monotonic()))
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
        if not (needed and self.ok):
            self.pages = {}


_prestarted: Helper | None = None


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
    is stopped at exit."""
    global _prestarted
    if _prestarted is not None or not sys.executable:
        return
    try:
        _prestarted = Helper(os.fspath(path))
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
