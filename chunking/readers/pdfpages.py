"""PDF page text with MuPDF's own text writer, and the reader's helper process that extracts it.

``page_text`` is what the PDF reader (``chunking.readers.pdf``) reads from every page, in this
process or in a helper (``serve``: ``python -m chunking.readers.pdfpages``, or a fork of the CLI;
``chunking.readers.pdfhelper`` is the parent side), so both sides extract pages the same way.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import re
import select
import sys
from collections.abc import Callable

import pymupdf

from .layout import PdfLayout
from .pdfwire import (
    DONE,
    FRAME,
    HEADER,
    HELLO,
    HELLO_INDEX,
    LAYOUT_LAYER,
    LAYOUT_REQUEST,
    MAX_FILE_BYTES,
    MAX_LAYOUT_PAGES,
    PAGE,
    PATH,
    PATH_MODE,
)

_SURROGATES = re.compile("[\ud800-\udfff]")
"""Code points MuPDF may emit that no valid text holds (an orphaned surrogate in a font's map)."""

_MUPDF_NUL = b"\xc0\x80"
"""How MuPDF's writer encodes U+0000 (modified UTF-8)."""


def page_text(page: pymupdf.Page) -> str:
    """A page's plain text: every text line of MuPDF's structured text, in content order, each
    ended by one newline.

    This is ``page.get_text()``'s text (same structured text, same flags ``TEXTFLAGS_TEXT``)
    written by MuPDF's own C text writer instead of PyMuPDF's per-character loop, which costs
    a third of all extraction (0.12 s of 0.37 s on a 523-page book; tests/test_private_apis.py
    checks they agree). Two deliberate differences, both only on lines of unmapped font glyphs
    (TeX math fonts without a ToUnicode map): no blank lines (``get_text`` gives one after a
    newline glyph) and a line that ends with U+0000 still ends with a newline (``get_text``
    glues it to the next line). Orphaned surrogates become U+FFFD, as in ``get_text``.
    """
    options = pymupdf.mupdf.FzStextOptions()
    options.flags = pymupdf.TEXTFLAGS_TEXT
    stext = pymupdf.mupdf.FzStextPage(page.this, options)
    buffer = pymupdf.mupdf.FzBuffer(4096)
    out = pymupdf.mupdf.FzOutput(buffer)
    pymupdf.mupdf.fz_print_stext_page_as_text(out, stext)
    out.fz_close_output()
    raw = pymupdf.mupdf.fz_buffer_extract(buffer).replace(_MUPDF_NUL, b"\x00")
    try:
        text = raw.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:  # bytes MuPDF's writer should never produce: PyMuPDF's own path
        return _without_blank_lines(page.get_text())
    if b"\xed" in raw:  # NOTE: the lead byte of every surrogate's (invalid) UTF-8 form
        text = _SURROGATES.sub("\ufffd", text)
    return _without_blank_lines(text)


def _without_blank_lines(text: str) -> str:
    """``text`` with every run of line ends made one: MuPDF's writer ends each block with an empty
    line (and a line may hold a newline glyph); a page's text has no blank lines.

    NOTE: ``str.replace`` until no pair is left, not a regex: twice as fast, and a page needs one
    pass unless it holds a newline glyph.
    """
    while "\n\n" in text:
        text = text.replace("\n\n", "\n")
    return text


def page_content(page: pymupdf.Page) -> tuple[str, bool]:
    """A page's plain text and whether it has a text layer.

    NOTE: a page without text is "without a text layer" only when it shows something (an image);
    a blank separator page is just empty.
    """
    text = page_text(page)
    return text, bool(text.strip()) or not page.get_images(full=False)


def serve(stdin: int, out: int) -> None:
    """The helper process (``chunking.readers.pdfhelper``): read the request from file descriptor
    ``stdin``, extract pages downwards until told to stop, write frames to ``out``."""

    def read(n: int) -> bytes:
        chunks, got = [], 0
        while got < n:
            part = os.read(stdin, min(n - got, 1 << 20))
            if not part:
                raise EOFError
            chunks.append(part)
            got += len(part)
        return b"".join(chunks)

    size, first, _ = HEADER.unpack(read(HEADER.size))
    if size == PATH_MODE:
        (length,) = PATH.unpack(read(PATH.size))
        path = os.fsdecode(read(length))
        if os.stat(path).st_size > MAX_FILE_BYTES:
            return  # the reader refuses it anyway
        with open(path, "rb") as fh:
            data = fh.read()
    else:
        data = read(size)
    pymupdf.TOOLS.mupdf_warnings(reset=True)
    doc = pymupdf.open(stream=data, filetype="pdf")
    count = doc.page_count
    hello = HELLO.pack(hashlib.sha256(data).digest(), count)
    sink = _Sink(out)
    sink.send(FRAME.pack(HELLO_INDEX, 0, len(hello)) + hello)
    try:
        for index in range(count - 1, first - 1, -1):
            if select.select([stdin], [], [], 0)[0]:
                break  # the parent reached this page: stop
            text, layer = page_content(doc[index])
            payload = text.encode("utf-8", "surrogatepass")
            sink.send(FRAME.pack(index, layer, len(payload)) + payload)
    except Exception:  # noqa: BLE001 - the parent reads this page itself and reports it
        pass
    log = pymupdf.TOOLS.mupdf_warnings(reset=True).encode("utf-8", "replace")
    sink.send(FRAME.pack(DONE, bool(doc.is_repaired), len(log)) + log)
    sink.flush()  # the parent waits for DONE: it must be written before this waits in turn
    try:
        read(1)  # the parent's stop byte (sent whether or not the loop above saw it)
        _serve_layouts(doc, stdin, sink, read)
    except EOFError:
        pass  # the parent wants nothing more
    sink.close()


def _serve_layouts(doc: pymupdf.Document, stdin: int, sink: _Sink, read: Callable[[int], bytes]) -> None:
    """Answer one layout request (``pdfwire``): each page's ``PdfLayout.lines``, in order, until
    the parent closes its end (it then needs no more)."""
    share, n = LAYOUT_REQUEST.unpack(read(LAYOUT_REQUEST.size))
    if n > MAX_LAYOUT_PAGES:
        return
    pages = [PAGE.unpack(read(PAGE.size))[0] for _ in range(n)]
    layout = PdfLayout(doc)
    for index in pages:
        if select.select([stdin], [], [], 0)[0] or not 0 <= index < doc.page_count:
            return
        try:
            lines = layout.lines(index, share or None)
        except Exception:  # noqa: BLE001 - the parent reads that page's layout itself
            continue
        payload = marshal.dumps([(ln.text, ln.size, ln.bold, ln.x0) for ln in lines])
        sink.send(FRAME.pack(index, LAYOUT_LAYER, len(payload)) + payload)


class _Sink:
    """The helper's output: frames are written as far as the pipe takes them, the rest is kept
    and written later, so the helper never waits for the parent to read.

    NOTE: the parent reads frames only between its own pages, and not at all while it imports and
    loads the vocabulary (~0.2 s): a blocking pipe (64 KiB) stopped the helper after about 17
    pages of a 500-page book, so it started reading pages no earlier than the parent.
    """

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.pending = bytearray()
        os.set_blocking(fd, False)

    def send(self, frame: bytes) -> None:
        self.pending += frame
        self._drain()

    def _drain(self) -> None:
        while self.pending:
            try:
                written = os.write(self.fd, self.pending)
            except BlockingIOError:
                return
            del self.pending[:written]

    def flush(self) -> None:
        """Write everything still kept, waiting for the parent to read (it is reading)."""
        os.set_blocking(self.fd, True)
        self._drain()
        os.set_blocking(self.fd, False)

    def close(self) -> None:
        """Write everything still kept (blocking now: the parent reads until the last frame)."""
        os.set_blocking(self.fd, True)
        self._drain()


if __name__ == "__main__":
    serve(sys.stdin.fileno(), sys.stdout.fileno())
