"""App stage (book choice): which book is current — a bundled sample or an upload — and its picker.

The current book lives in ``st.session_state["book_source"]`` so every page shows the same book.
A failed upload stays the current book (its error is shown on every page by ``inspector.data.cache``)
instead of silently falling back to a sample, and the two inputs agree: while an upload is the
current book the sample box names no sample, and choosing a sample empties the uploader.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from chunking.rules import BOOK_FORMATS

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_DIR = ROOT / "sample_books"
DEFAULT_SAMPLE = "r-intro.pdf"
"""Shown on first start: a real PDF with an outline (the README's walkthrough uses it)."""

UPLOAD_TYPES = tuple(ext.lstrip(".") for ext in BOOK_FORMATS)
"""File types the uploader accepts (the readers', ``chunking.rules.BOOK_FORMATS``)."""

SOURCE_KEY = "book_source"
"""Session-state key of the current ``BookSource``."""
SAMPLE_KEY = "home_sample"
"""Widget key of the sample box (tests set it by this key)."""
UPLOAD_KEY = "home_upload"
"""Widget key of the first uploader; after a sample replaces an upload the key gets a suffix, which
gives Streamlit a fresh, empty uploader (a file uploader's value cannot be set)."""
_UPLOAD_GEN = "home_upload_generation"


@dataclass(frozen=True)
class BookSource:
    """The bytes of the current book, their sha256, the file name and (bundled samples) the path
    the CLI would read them from, so the app's manifest names the same ``book.path``."""

    name: str
    data: bytes
    sha256: str
    path: str | None = None

    @classmethod
    def of(cls, name: str, data: bytes, path: Path | None = None) -> "BookSource":
        return cls(
            name=name, data=data, sha256=hashlib.sha256(data).hexdigest(), path=str(path) if path else None
        )

    @classmethod
    def sample(cls, name: str) -> "BookSource":
        """A bundled sample book by file name."""
        return cls.of(name, (SAMPLE_DIR / name).read_bytes(), SAMPLE_DIR / name)

    @property
    def is_sample(self) -> bool:
        """True for a bundled sample (it has a path), False for an upload."""
        return self.path is not None


def sample_names() -> list[str]:
    """The bundled sample books (file names), the default one first.

    The folder's ``README.md`` (the samples' provenance) is Markdown, a readable format, but no book.
    """
    names = sorted(
        p.name
        for p in SAMPLE_DIR.iterdir()
        if p.is_file() and p.suffix.lower().lstrip(".") in UPLOAD_TYPES and p.stem.upper() != "README"
    )
    return sorted(names, key=lambda n: n != DEFAULT_SAMPLE)


def book_source() -> BookSource:
    """The current book's bytes (the default sample until the user picks another)."""
    if SOURCE_KEY not in st.session_state:
        st.session_state[SOURCE_KEY] = BookSource.sample(DEFAULT_SAMPLE)
    return st.session_state[SOURCE_KEY]


def upload_key() -> str:
    """The uploader's current widget key (``UPLOAD_KEY`` until a sample replaced an upload)."""
    gen = st.session_state.get(_UPLOAD_GEN, 0)
    return UPLOAD_KEY if gen == 0 else f"{UPLOAD_KEY}_{gen}"


def _pick_sample() -> None:
    name = st.session_state.get(SAMPLE_KEY)
    if name is None:
        return
    if not book_source().is_sample:  # an upload was current: empty the uploader so both agree
        st.session_state[_UPLOAD_GEN] = st.session_state.get(_UPLOAD_GEN, 0) + 1
    st.session_state[SOURCE_KEY] = BookSource.sample(name)


def _pick_upload(key: str) -> None:
    upload = st.session_state.get(key)
    if upload is None:  # the user removed the upload: back to the default sample
        st.session_state[SOURCE_KEY] = BookSource.sample(st.session_state.get(SAMPLE_KEY) or DEFAULT_SAMPLE)
    else:
        st.session_state[SOURCE_KEY] = BookSource.of(upload.name, upload.getvalue())


def choose_book() -> None:
    """Render the book picker (a bundled sample or an upload) and remember the choice.

    # NOTE: the sample box takes its value from session state only (no ``index``), set here from
    the current book on every run: passing a default as well would log Streamlit's "default value
    and Session State" warning, and the box must name no sample while an upload is current.
    """
    current = book_source()
    names = sample_names()
    st.session_state[SAMPLE_KEY] = current.name if current.is_sample and current.name in names else None
    left, right = st.columns(2)
    left.selectbox(
        "Sample book",
        names,
        key=SAMPLE_KEY,
        on_change=_pick_sample,
        placeholder="An uploaded book is in use (the uploader on the right); pick a sample to switch",
        help="Books bundled with the project, with verified chapter starts.",
    )
    key = upload_key()
    right.file_uploader(
        "…or upload a book",
        type=list(UPLOAD_TYPES),
        key=key,
        on_change=_pick_upload,
        args=(key,),
        help="PDF, EPUB, plain text or Markdown.",
    )
