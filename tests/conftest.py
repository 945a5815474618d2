"""Shared fixtures: paths to the bundled sample books and their reference structure."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_books"
REFERENCE = SAMPLES / "reference"


def sample_book(name: str) -> Path:
    return SAMPLES / name


def reference(name: str) -> dict:
    """The verified structure of a sample book (copied from shared/reference/sample-books)."""
    return json.loads((REFERENCE / f"{name}.json").read_text())


@pytest.fixture(scope="session")
def sample_paths() -> dict[str, Path]:
    return {p.stem: p for p in sorted(SAMPLES.iterdir()) if p.suffix in (".pdf", ".epub")}


@pytest.fixture
def fresh_streamlit_caches() -> None:
    """Clear Streamlit's process-wide caches, so AppTests never see each other's books."""
    import streamlit as st

    st.cache_data.clear()
    st.cache_resource.clear()


