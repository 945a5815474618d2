"""The PDF reader's helper protocol: the frames both sides write (``chunking.readers.pdfhelper``).

All integers big-endian. Parent → helper: ``HEADER`` (byte count, first page the helper may
take, 0) then the bytes, or ``PATH_MODE`` then ``PATH`` and the file path; then one byte or EOF
means "stop". Helper → parent: ``FRAME`` + payload, first the ``HELLO_INDEX`` frame (``HELLO``:
sha256 of the bytes + page count), then one frame per page (UTF-8 text, surrogates passed),
then the ``DONE`` frame (MuPDF's message log; ``layer`` is its repair flag).

Then, if the parent kept the helper (``Helper.finish(keep=True)``): parent → helper one
``LAYOUT_REQUEST`` (the share of the page height from the top, and how many ``PAGE`` indices
follow) and the indices; helper → parent one ``LAYOUT_LAYER`` frame per page, in that order
(``PdfLayout.lines`` as ``marshal`` of ``(text, size, bold, x0)`` tuples), until EOF on its input.
"""

from __future__ import annotations

import struct

MAX_PAGE_BYTES = 1 << 28
"""Largest page text (UTF-8 bytes) accepted from the helper; anything odd and the parent reads
the pages itself."""
MAX_FILE_BYTES = 1 << 30
"""Largest file a prestarted helper reads: the reader's own limit (``ingest.MAX_BOOK_BYTES``)."""
HEADER = struct.Struct("!QII")
PATH = struct.Struct("!I")
FRAME = struct.Struct("!IBQ")
HELLO = struct.Struct("!32sI")
PATH_MODE = (1 << 64) - 1
"""Header byte count meaning "a file path follows": the helper reads the file itself."""
DONE = 0xFFFFFFFF
HELLO_INDEX = 0xFFFFFFFE
LAYOUT_REQUEST = struct.Struct("!dI")
PAGE = struct.Struct("!I")
LAYOUT_LAYER = 2
"""``FRAME`` layer of a page's layout lines (after ``DONE``; text frames use 0 and 1)."""
MAX_LAYOUT_PAGES = 1 << 16
"""Most pages one layout request may name (the helper ignores a larger request)."""
