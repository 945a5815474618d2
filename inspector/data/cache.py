"""App stage (caches): the current book parsed, tokenized and chunked once, shared by every page.

* Parsing is cached per (sha256, ``Policy.read_key``: the structure source and the OCR settings)
  in a small process-wide store, with a progress bar;
  the read runs on the store's thread, so a page run stopped midway (the user switched page)
  does not lose it;
  a book that cannot be read is remembered too, so every page shows the same escaped one-line
  error (and stops) until another book is chosen, without reading the file again.
* Tokenizing is cached per (sha256, read key, corrections digest, encoding); chunking, scoring,
  validation and exports per (sha256, corrections digest, policy): the corrected book
  (``Book.corrections``) salts its own chunk ids, as in the CLI. Moving a policy slider only re-chunks, and the
  Compare page's policies reuse the same cached tokenized book and chunk sets as every other page.
* Cached functions never read widgets.
"""

from __future__ import annotations

import gc
import threading
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor, wait
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, NoReturn

import streamlit as st

from inspector import flow

from chunking import export
from chunking.analysis.scorecard import scorecard
from chunking.errors import ChunkingError, ChunkLimitError
from chunking.ingest import load_book
from chunking.matter import Exclusion, exclude
from chunking.models import Book, Chunk
from chunking.policy import Policy
from chunking.rules import EXPORT_FORMATS
from chunking.strategies import chunk_book
from chunking.structure_file import Correction, StructureFileError, apply_corrections, corrections_digest
from chunking.tokens import TokenizedBook, retokenize, tokenize
from chunking.validate import ValidationReport, validate_chunks
from inspector.data.book_picker import BookSource, book_source
from inspector.data.corrections import corrections, structure_file_of
from inspector.data.sidebar import chunk_limit_fallback, chunked
from inspector.safe import md

STORE_SIZE = 6
"""Parsed books kept per process (a 500-page PDF's ``Book`` is a few MB)."""
READ_THREADS = 2
"""Books read at once per process (a second session's upload need not wait for the first's)."""
READ_POLL_S = 0.1
"""How often a page waiting for a read redraws its progress bar."""


class _BookStore:
    """A small LRU of parsed books keyed by (sha256, structure), shared by every session, the
    one-line errors of books that could not be read, and the reads still running.

    # NOTE: not ``st.cache_data`` around ``load_book``: the progress bar must be drawn by the
    caller, and a cached function may not touch elements created outside it (Streamlit would
    replay them on every hit). ``st.cache_resource`` holds this store instead, so
    ``st.cache_resource.clear()`` still empties it.

    A read runs on a thread of its own (``read``), not in the page's script: a rerun (the user
    switches page while a big upload is read) stops the script at its next Streamlit call, and a
    read done in the script was lost with it, so the next page read the book again. Now the next
    page finds the same read still running, or its book in the store.
    """

    def __init__(self, size: int = STORE_SIZE) -> None:
        self._items: OrderedDict[tuple[str, str], Book] = OrderedDict()
        self.errors: dict[tuple[str, str], str] = {}
        self._size = size
        self._lock = threading.Lock()
        self._reads: dict[tuple[str, str], Future[Book]] = {}
        self._progress: dict[tuple[str, str], tuple[float, str]] = {}
        self._pool = ThreadPoolExecutor(max_workers=READ_THREADS, thread_name_prefix="book-read")

    def get(self, key: tuple[str, str]) -> Book | None:
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
            return self._items.get(key)

    def put(self, key: tuple[str, str], book: Book) -> None:
        with self._lock:
            self._items[key] = book
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def read(
        self, key: tuple[str, str], load: Callable[[Callable[[float, str], None]], Book], name: str
    ) -> Future[Book]:
        """The read of ``key``: the one already running, or ``load(report)`` started on the
        store's thread. When it ends, its book goes into the store (or its one-line error into
        ``errors``) whether or not a page still waits for it."""
        with self._lock:
            running = self._reads.get(key)
            if running is not None:
                return running

            def report(frac: float, msg: str) -> None:
                self._progress[key] = (frac, msg)

            def work() -> Book:
                try:
                    book = load(report)
                except Exception as exc:  # noqa: BLE001  (see _read_error)
                    self.errors[key] = _read_error(name, exc)
                    raise
                else:
                    self.put(key, book)
                    return book
                finally:
                    with self._lock:
                        self._reads.pop(key, None)
                        self._progress.pop(key, None)

            self._progress[key] = (0.0, f"reading {name}")
            future = self._reads[key] = self._pool.submit(work)
            return future

    def progress(self, key: tuple[str, str]) -> tuple[float, str]:
        """The last (fraction, stage) a running read of ``key`` reported."""
        return self._progress.get(key, (0.0, ""))


@st.cache_resource(show_spinner=False)
def _book_store() -> _BookStore:
    return _BookStore()


@st.cache_resource(show_spinner=False)
def _freeze_imported_objects() -> int:
    """Exempt the objects alive now (the imported modules: Streamlit, plotly, pandas, pyarrow, the
    project; ≈ 150,000) from Python's cyclic garbage collector, once per process.

    # NOTE: Streamlit runs a full ``gc.collect()`` after every script run (its
    ``runner.postScriptGC``); walking the imports' objects cost every slider step and page switch
    (figures in bench/RESULTS.md), holding the GIL while the last deltas wait to be sent. Frozen
    objects are still freed by reference counting; only cycles among them would stay (the
    imports make none worth collecting). Called before the first book is read.
    """
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


def _read_error(name: str, exc: Exception) -> str:
    """The reader's one-line message (a reader bug is still one line, never a traceback)."""
    if isinstance(exc, ChunkingError):
        return str(exc).splitlines()[0] if str(exc) else f"{name}: could not be read"
    return f"{name}: could not be read ({type(exc).__name__}: {exc})".splitlines()[0]


def show_unreadable(src: BookSource, message: str) -> NoReturn:
    """Stop the page on a book that could not be read: the escaped error names it (every page)."""
    kind = "bundled sample" if src.is_sample else "upload"
    # NOTE: one container: the Book page draws this in the summary's ``st.empty`` slot.
    with st.container():
        st.error(md(message))
        st.caption(
            f"The current book ({kind}) could not be read. Pick a sample or upload another book "
            "on the Book page; every page shows this error until then."
        )
    flow.stop()


def current_book(policy: Policy | None = None) -> Book:
    """Parse the current book once per (file sha256, ``policy.read_key()``), with a progress bar.

    Args:
        policy (Policy | None): the policy whose structure source and OCR settings the book is
            read with; defaults to the sidebar's.

    Returns:
        Book: the parsed book. An unreadable book shows the reader's one-line error and stops.
    """
    src = book_source()
    if policy is None:
        policy = st.session_state.get("policy", Policy())
    key = (src.sha256, policy.read_key())
    options = policy.read_options()
    _freeze_imported_objects()
    store = _book_store()
    if key in store.errors:
        show_unreadable(src, store.errors[key])
    book = store.get(key)
    if book is None:
        future = store.read(
            key,
            lambda report: load_book(src.data, name=src.name, progress=report, **options),
            src.name,
        )
        bar = st.progress(0.0, text=f"Reading {md(src.name)}…")
        while not future.done():
            # NOTE: a rerun stops this loop at ``bar.progress``; the read itself goes on.
            frac, msg = store.progress(key)
            bar.progress(min(max(frac, 0.0), 1.0), text=md(msg) if msg else None)
            wait([future], timeout=READ_POLL_S)
        bar.empty()
        if future.exception() is not None:
            show_unreadable(src, store.errors[key])
        book = future.result()
    return book


@st.cache_resource(show_spinner="Tokenizing…", max_entries=8)
def _tokenized(sha256: str, structure: str, digest: str, encoding: str, _book: Book) -> TokenizedBook:
    # NOTE: ``digest`` (the corrections') is part of the key: corrections move the fences the
    # token stream is cut at, so a corrected book has its own tokens.
    return tokenize(_book, encoding)


@st.cache_resource(show_spinner=False, max_entries=8)
def _retokenized(
    sha256: str, structure: str, digest: str, encoding: str, _base: TokenizedBook, _book: Book
) -> TokenizedBook:
    # NOTE: a correction moves fences only: the uncorrected book's tokens are kept and just the
    # pieces between changed heading cuts are encoded again (equal to tokenize(_book)).
    return retokenize(_base, _book)


def tokenized_run(src_sha256: str, book: Book, corrected: Book, policy: Policy) -> TokenizedBook:
    """The token stream of ``corrected`` (``book`` with the current corrections, or ``book``).

    The uncorrected stream is tokenized once per book, structure and encoding; every corrected
    version is derived from it (``chunking.tokens.retokenize``), so a correction never
    re-tokenizes the book.
    """
    base = _tokenized(src_sha256, policy.read_key(), "", policy.encoding, book)
    if corrected is book:
        return base
    return _retokenized(
        src_sha256, policy.read_key(), corrected.corrections, policy.encoding, base, corrected
    )


def corrected_book(book: Book, ops: tuple[Correction, ...], structure: str) -> Book:
    """``book`` with ``ops`` applied (pure, cached per sha256, read key and digest).

    ``structure`` is the read key the book was read with (``Policy.read_key``).

    Raises:
        StructureFileError: a correction does not apply to this structure.
    """
    if not ops:
        return book
    key = (book.sha256, f"{structure}#{corrections_digest(ops)}")
    out = _book_store().get(key)
    if out is None:
        # NOTE: named like the downloaded file, so the evidence notes equal the CLI's.
        out = apply_corrections(book, ops, name=f"{book.source_name}.structure.json")
        _book_store().put(key, out)
    return out


PolicyItems = tuple[tuple[str, Any], ...]
CHUNK_SETS = 64
"""Chunk sets (book × policy) kept per process."""


def policy_items(policy: Policy) -> PolicyItems:
    """A hashable cache key of every field of ``policy``."""
    return tuple((f.name, getattr(policy, f.name)) for f in fields(Policy))


def _policy_of(items: PolicyItems) -> Policy:
    return Policy(**dict(items))


@st.cache_resource(show_spinner=False, max_entries=CHUNK_SETS)
def _chunks(sha256: str, digest: str, items: PolicyItems, _tokenized: TokenizedBook) -> list[Chunk]:
    # NOTE: ``st.cache_resource``, not ``st.cache_data``: a hit returns the cached list itself
    # instead of unpickling a copy on every hit. Chunks are
    # frozen; the list is read-only by convention (every page and figure only reads it).
    return chunk_book(_tokenized, _policy_of(items))


@st.cache_resource(show_spinner=False, max_entries=CHUNK_SETS)
def _output(
    sha256: str, digest: str, items: PolicyItems, _chunks: list[Chunk]
) -> tuple[list[Chunk], Exclusion]:
    return exclude(_chunks, _policy_of(items).exclude_matter)


@st.cache_resource(show_spinner="Validating…", max_entries=16)
def _report(
    sha256: str, digest: str, items: PolicyItems, _tokenized: TokenizedBook, _chunks: list[Chunk]
) -> ValidationReport:
    return validate_chunks(_chunks, _tokenized, _policy_of(items))


@st.cache_data(show_spinner=False, max_entries=64)
def _score(
    sha256: str, digest: str, items: PolicyItems, _tokenized: TokenizedBook, _chunks: list[Chunk]
) -> dict[str, Any]:
    return scorecard(_chunks, _tokenized, _policy_of(items))


@st.cache_data(show_spinner="Exporting…", max_entries=32)
def _rendered(sha256: str, digest: str, items: PolicyItems, fmt: str, _chunks: list[Chunk]) -> bytes:
    return export.render(_chunks, fmt)


@dataclass(frozen=True)
class AppRun:
    """A book chunked under one policy, as the app shows it.

    Attributes:
        source (BookSource): the file the book was read from.
        book (Book): the parsed book (structure corrections applied; ``book.corrections`` their
            digest, which salts the chunk ids).
        tokenized (TokenizedBook): its canonical token stream for ``policy.encoding``.
        policy (Policy): the policy the chunks were cut with.
        chunks (list[Chunk]): every chunk, in order (the figures draw them all; ``chunks[k]`` has
            ``order`` k).
        structure_ops (tuple[Correction, ...]): the corrections applied.
    """

    source: BookSource
    book: Book
    tokenized: TokenizedBook
    policy: Policy
    chunks: list[Chunk]
    structure_ops: tuple[Correction, ...] = ()

    @property
    def _items(self) -> PolicyItems:
        return policy_items(self.policy)

    @property
    def key(self) -> tuple[str, PolicyItems]:
        """Which chunk set of the file this is, for cache keys: the corrections digest of the
        book (``Book.corrections``) and every policy field."""
        return self.book.corrections, self._items

    @property
    def score(self) -> dict[str, Any]:
        """``chunking.analysis.scorecard.scorecard`` of the chunks (cached per book and policy)."""
        return _score(self.source.sha256, self.book.corrections, self._items, self.tokenized, self.chunks)

    @property
    def output(self) -> list[Chunk]:
        """The chunks exported: ``chunks`` without those of ``policy.exclude_matter``."""
        return _output(self.source.sha256, self.book.corrections, self._items, self.chunks)[0]

    @property
    def excluded(self) -> Exclusion:
        """What ``policy.exclude_matter`` left out of ``output``."""
        return _output(self.source.sha256, self.book.corrections, self._items, self.chunks)[1]

    @property
    def report(self) -> ValidationReport:
        """Validation of the exported chunks (rules 1–8); cached, computed only when a page asks."""
        return _report(self.source.sha256, self.book.corrections, self._items, self.tokenized, self.output)

    def manifest(self, fmt: str) -> dict[str, Any]:
        """The manifest the CLI writes next to ``<book stem>.<fmt>`` for the same book and policy."""
        sf = structure_file_of(self.source, self.structure_ops) if self.structure_ops else None
        base = export.build_manifest(
            self.tokenized,
            self.policy,
            self.output,
            self.report,
            source_path=self.source.path,
            structure_file=sf,
            excluded=self.excluded,
        )
        return export.manifest_for_output(base, None, fmt, name=self.export_name(fmt))

    def manifest_bytes(self, fmt: str) -> bytes:
        """``manifest(fmt)`` serialised exactly as ``chunking.export.write_outputs`` writes it."""
        return export.manifest_text(self.manifest(fmt)).encode("utf-8")

    def export_name(self, fmt: str) -> str:
        """File name of the export: the book's stem plus the format's extension
        (``chunking.rules.EXPORT_FORMATS``, as batch mode names its files)."""
        return Path(self.source.name).stem + EXPORT_FORMATS[fmt]

    def export_bytes(self, fmt: str) -> bytes:
        """The chunk file in ``fmt`` (``chunking.export.render``; cached per book, policy, format)."""
        return _rendered(self.source.sha256, self.book.corrections, self._items, fmt, self.output)


def current_run(policy: Policy, progress: Callable[[str], None] | None = None) -> AppRun:
    """Chunk the current book under ``policy``: parse and tokenize are cached, only chunking reruns.

    Args:
        policy (Policy): usually ``sidebar_policy()``'s result.
        progress (Callable[[str], None] | None): told each step ("tokenizing", "chunking") before it
            runs, so a page can show per-policy progress. Defaults to None.

    Returns:
        AppRun: book, tokenized book and chunks. Too many chunks under the sidebar's policy: the
        run of the last sidebar policy that chunked, with the error under the sidebar
        (``sidebar.chunk_limit_fallback``); other chunking errors show ``st.error`` and stop the page.
    """
    src = book_source()
    uncorrected = book = current_book(policy)
    ops = corrections(src.sha256)
    try:
        book = corrected_book(book, ops, policy.read_key())
    except StructureFileError as exc:
        # NOTE: only a change of structure source can get here (the Structure page applies each
        # correction before keeping it); the book is shown uncorrected, and the page says so.
        st.error(md(f"Structure corrections not applied ({exc}); undo or clear them on the Structure page."))
        ops = ()
    if progress:
        progress("tokenizing")
    tokenized = tokenized_run(src.sha256, uncorrected, book, policy)
    if progress:
        progress("chunking")
    try:
        chunks = _chunks(src.sha256, book.corrections, policy_items(policy), tokenized)
    except ChunkLimitError as exc:
        fallback = chunk_limit_fallback(exc, policy)
        if fallback is None:
            st.error(str(exc))  # NOTE: the policy's limit, no book data
            flow.stop()
        return current_run(fallback, progress)
    except ChunkingError as exc:
        st.error(str(exc))
        flow.stop()
    chunked(policy)
    return AppRun(source=src, book=book, tokenized=tokenized, policy=policy, chunks=chunks, structure_ops=ops)
