"""The PDF reader's helper protocol: the frames both sides write (``chunking.readers.pdfhelper``).

All integers big-endian. Parent → helper: ``HEADER`` (byte count, first page the helper may
take, 0) then the bytes, or ``PATH_MODE`` then ``PATH`` and the file path; then one byte or EOF
means "stop". Helper → parent: ``FRAME`` + payload, first the ``HELLO_INDEX`` frame (``HELLO``:
sha256 of the bytes + page count), then one frame per page (UTF-8 text, surrogates passed),
then the ``DONE`` frame (MuPDF's message log; ``layer`` is its repair flag).
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
