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
import struct
import subprocess
import sys
import threading
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
    """One helper process and the pages it delivered (see the module docstring)."""

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
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "chunking.readers.pdf"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        self.thread = threading.Thread(target=self._run, args=(source,), daemon=True)
        self.thread.start()

    def _send(self, source: bytes | str | os.PathLike) -> None:
        stdin = self.proc.stdin
        if isinstance(source, (bytes, bytearray, memoryview)):
            stdin.write(HEADER.pack(len(source), self.first, 0))
            stdin.write(source)
        else:
            path = os.fsencode(source)
            stdin.write(HEADER.pack(PATH_MODE, self.first, 0) + PATH.pack(len(path)) + path)
        stdin.flush()

    def _run(self, source: bytes | str | os.PathLike) -> None:
        try:
            self._send(source)
            read = self.proc.stdout.read
            while True:
                index, layer, size = FRAME.unpack(read(FRAME.size))
                if size > MAX_PAGE_BYTES:
                    return
                payload = read(size)
                if len(payload) != size:
                    return
                if index == HELLO_INDEX:
                    self.digest, count = HELLO.unpack(payload)
                    self.count, self.frontier = count, count
                elif index == DONE:
                    self.repaired, self.messages, self.ok = (
                        bool(layer),
                        payload.decode("utf-8", "replace"),
                        True,
                    )
                    return
                elif self.digest is not None and self.first <= index < self.frontier:
                    self.pages[index] = (payload.decode("utf-8", "surrogatepass"), bool(layer))
                    self.frontier = index
                else:
                    return
        except (OSError, ValueError, struct.error):
            return  # the helper died or spoke nonsense: the parent reads what is missing

    def serves(self, digest: bytes, count: int) -> bool:
        """True once the helper said it reads these bytes (sha256 ``digest``, ``count`` pages)."""
        return self.digest == digest and self.count == count

    def finish(self, needed: bool) -> None:
        """Stop the helper; wait for its last frame when its pages are ``needed``."""
        if needed:
            try:
                self.proc.stdin.write(b"s")
                self.proc.stdin.close()
            except OSError:
                pass
            self.thread.join(timeout=STOP_TIMEOUT)
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self.thread.join()
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        if not (needed and self.ok):
            self.pages = {}


_prestarted: Helper | None = None


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
