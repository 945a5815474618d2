"""The app's book reads outlive the page run that started them (``inspector.data.cache._BookStore``).

A page run stops at its next Streamlit call when the user switches page; the read it started must
go on, land in the store, and be joined (never started again) by the next page. Real PDFs from
``tests/pdf_factory.py`` are read by the real ``load_book``; the tests only hold a read back
(an event) to play the user's page switch in the middle of it.
"""

from __future__ import annotations

import threading

import pytest
from pdf_factory import body, make_pdf

from chunking.ingest import load_book
from inspector.data.cache import _BookStore

KEY = ("sha", "auto")
NAME = "book.pdf"
WAIT_S = 30


@pytest.fixture
def pdf() -> bytes:
    return make_pdf([[("Chapter 1 Start", 18), *body(20)], body(30)])


class HeldRead:
    """``load_book`` of ``data``, held back until ``release`` is set; counts its calls."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.release = threading.Event()
        self.calls = 0

    def __call__(self, report):
        self.calls += 1
        assert self.release.wait(WAIT_S)
        return load_book(self.data, name=NAME, progress=report)


def test_a_read_left_by_a_stopped_page_still_lands_in_the_store(pdf: bytes) -> None:
    store, load = _BookStore(), HeldRead(pdf)
    started = store.read(KEY, load, NAME)  # the page that started it stops waiting here
    assert store.get(KEY) is None
    load.release.set()
    book = started.result(WAIT_S)
    assert store.get(KEY) is book and book.text == load_book(pdf, name=NAME).text


def test_the_next_page_joins_a_running_read_instead_of_reading_again(pdf: bytes) -> None:
    store, load = _BookStore(), HeldRead(pdf)
    first = store.read(KEY, load, NAME)
    second = store.read(KEY, load, NAME)
    load.release.set()
    assert second is first and first.result(WAIT_S) is second.result(WAIT_S)
    assert load.calls == 1


def test_a_failed_read_leaves_its_one_line_error_for_every_page() -> None:
    store = _BookStore()
    future = store.read(KEY, lambda report: load_book(b"%PDF-1.7 not a pdf", name=NAME), NAME)
    with pytest.raises(Exception):
        future.result(WAIT_S)
    assert NAME in store.errors[KEY] and "\n" not in store.errors[KEY]
    assert store.get(KEY) is None
