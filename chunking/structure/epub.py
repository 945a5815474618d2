"""Stage 3 (structure), EPUB: chapters from the nav/NCX, the spine and the documents' HTML headings.

Contract: ``epub_structure(raw, norm, mode, generic)`` returns the ``StructureResult`` of an EPUB.
``generic`` is the format-independent detector (``chunking.structure``'s outline check + text
headings), which this module may call for the parts it does not decide itself.
"""

from __future__ import annotations

from collections.abc import Callable

from ..normalise import NormalisedBook
from ..readers.raw import RawBook
from .result import StructureResult

Generic = Callable[[RawBook, NormalisedBook, str], StructureResult]


def epub_structure(raw: RawBook, norm: NormalisedBook, mode: str, generic: Generic) -> StructureResult:
    """The structure of an EPUB (today: the generic detector)."""
    return generic(raw, norm, mode)
