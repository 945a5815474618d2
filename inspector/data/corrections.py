"""App stage (structure corrections): the Structure page's corrections per book, kept in session
state, and the ``<book>.structure.json`` they download as.

Corrections are a dict book sha256 → list of ``chunking.structure_file.Correction`` (in order) under
``st.session_state[CORRECTIONS_KEY]``; ``inspector.data.cache.current_run`` applies them to the cached
parsed book, which then records their digest and salts its own chunk ids, exactly as
``chunk --structure-file`` does. Files are read and written only by ``chunking.structure_file``'s
one loader (``load_structure_file``) and one serialiser (``structure_bytes``).
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

import streamlit as st

from chunking.structure_file import Correction, StructureFile, structure_bytes
from inspector.data.book_picker import BookSource, book_source

CORRECTIONS_KEY = "structure_corrections"
"""Session-state key of the corrections: book sha256 → list of ``Correction`` (in order)."""


def corrections(sha256: str | None = None) -> tuple[Correction, ...]:
    """The current book's corrections (or those of the book with ``sha256``), in order."""
    sha256 = sha256 or book_source().sha256
    return tuple(st.session_state.get(CORRECTIONS_KEY, {}).get(sha256, ()))


def set_corrections(new: tuple[Correction, ...] | list[Correction], sha256: str | None = None) -> None:
    """Replace the current book's corrections; the next run re-chunks with them."""
    sha256 = sha256 or book_source().sha256
    store = dict(st.session_state.get(CORRECTIONS_KEY, {}))
    store[sha256] = list(new)
    st.session_state[CORRECTIONS_KEY] = store


def structure_file_of(src: BookSource, ops: tuple[Correction, ...]) -> StructureFile:
    """The structure file of ``ops`` for ``src`` as the Structure page downloads it; its
    ``sha256`` is that of its bytes (``structure_bytes``) so the manifest names the file the CLI
    reads."""
    from chunking import __version__

    sf = StructureFile(src.sha256, __version__, tuple(ops), name=f"{src.name}.structure.json")
    return replace(sf, sha256=hashlib.sha256(structure_bytes(sf)).hexdigest())
