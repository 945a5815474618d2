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




@pytest.fixture(scope="module")
def ray_machine(tmp_path_factory):
    """One test module at a time may start or look for a local Ray on this machine.

    Ray's ``auto`` address finds any live cluster of this user through its processes, whatever its
    session folder; a test that expects ``auto`` to find none (or only its own) must not run while
    another xdist worker has a local Ray up. The lock file sits in this session's temp root, shared
    by its workers."""
    import fcntl
    import os

    base = tmp_path_factory.getbasetemp()
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    with open(root / "ray-machine.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield
