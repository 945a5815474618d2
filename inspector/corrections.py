"""App stage (structure corrections): the Structure page's corrections per book, kept in session
state, and the ``<book>.structure.json`` they download as.

Corrections are a dict book sha256 → list of ``chunking.structure_file.Correction`` (in order) under
``st.session_state[CORRECTIONS_KEY]``; ``inspector.cache.current_run`` applies them to the cached
parsed book and salts the policy with their digest, exactly as ``chunk --structure-file`` does.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace

import streamlit as st

from chunking.structure_file import Correction, StructureFile
from inspector.book_picker import BookSource, book_source

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
    ``sha256`` is that of ``structure_file_bytes`` so the manifest names the file the CLI reads."""
    from chunking import __version__

    sf = StructureFile(src.sha256, __version__, tuple(ops), name=f"{src.name}.structure.json")
    return replace(sf, sha256=hashlib.sha256(structure_file_bytes(sf)).hexdigest())


def structure_file_bytes(sf: StructureFile) -> bytes:
    """The JSON the CLI's ``--structure-file`` reads, serialised as ``save_structure`` writes it."""
    return (json.dumps(sf.to_dict(), ensure_ascii=False, indent=1) + "\n").encode("utf-8")
