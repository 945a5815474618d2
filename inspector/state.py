"""App stage: the shared sidebar (the whole policy) and the cached loaders every page uses.

Contract for page authors (``app.py`` and every ``pages/*.py``)::

    policy = state.sidebar_policy()      # renders the sidebar; st.error + st.stop on a bad policy
    run = state.current_run(policy)      # cached: parse by file hash, tokenize by (hash, encoding)
    state.show_fig(fig, key="mypage_fig")

* The current book is chosen on the home page (``choose_book``) and kept in
  ``st.session_state["book_source"]`` so every page shows the same book; before any choice it is
  ``DEFAULT_SAMPLE``.
* Parsing is cached per (sha256, structure), tokenizing per (sha256, structure, corrections digest,
  encoding); moving a policy slider only re-chunks (cached per policy too). Cached functions never
  read widgets.
* Structure corrections (the Structure page) live in ``st.session_state[CORRECTIONS_KEY]``, a dict
  book sha256 → list of ``chunking.structure_file.Correction``. ``current_run`` applies them to the
  cached parsed book with the pure ``apply_corrections`` (no re-read) and salts the policy with
  ``corrections_digest`` exactly as ``chunk --structure-file`` does, so every page sees the
  corrected structure and the chunk ids equal the CLI's.
* Sidebar widget keys are ``policy_<Policy field>``; their values live in session state, so the
  policy survives page switches (and a test or page can set one by key).
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

import streamlit as st

from chunking import export
from chunking.errors import ChunkingError, PolicyError
from chunking.ingest import load_book
from chunking.models import FENCES, SNAPS, STRATEGIES, STRUCTURE_SOURCES, Book, Chunk
from chunking.policy import Policy
from chunking.analysis.scorecard import scorecard
from chunking.strategies import chunk_book
from chunking.structure_file import (
    Correction,
    StructureFile,
    StructureFileError,
    apply_corrections,
    corrections_digest,
)
from chunking.tokens import TokenizedBook, tokenize
from chunking.validate import ValidationReport, validate_chunks
from inspector.safe import md

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_DIR = ROOT / "sample_books"
DEFAULT_SAMPLE = "r-intro.pdf"
"""Shown on first start: a real PDF with an outline that reads in well under a second."""

UPLOAD_TYPES = ("pdf", "epub", "txt", "md")

ENCODINGS = ("cl100k_base", "o200k_base")
"""Only the vocabularies ``chunking.encodings`` ships for offline use; others would need a network."""

PLOTLY_CONFIG = {
    "displaylogo": False,
    "modeBarButtonsToRemove": ["lasso2d", "autoScale2d"],
    "toImageButtonOptions": {"format": "png", "scale": 2},
}

_HELP = {
    "strategy": "chapter-window: token windows that never cross a chapter (the fence). "
    "fixed-window: the same windows over the whole book, ignoring structure. "
    "section: one chunk per section, small ones merged, large ones split.",
    "max_tokens": "Hard limit of tokens per chunk (tiktoken, the encoding below).",
    "overlap_tokens": "Tokens each chunk repeats from the previous one so context is not cut; "
    "never carried across a fence. Must be below max tokens.",
    "target_pages": "Soft page target: a window spanning this many pages may end at a page "
    "break if it keeps at least half of max tokens.",
    "max_pages": "Hard limit of pages one chunk may span (at least target pages).",
    "fence": "Structure level where chunks are always cut and overlap stops: chapters, or also "
    "sections. Parts always fence.",
    "structure": "Where chapters come from: auto (the outline where it holds up, else headings "
    "found in the text), outline (bookmarks / EPUB nav only), headings (text only) "
    "or none (no structure).",
    "encoding": "tiktoken encoding used to count tokens (cl100k_base: GPT-4; o200k_base: GPT-4o).",
    "snap": "End token-limited windows at the last sentence or paragraph end in their last third.",
    "min_section_tokens": "Section strategy only: sections below this merge with neighbours "
    "(0 = max tokens / 4).",
    "max_chunks": "More chunks than this is an error and nothing is exported.",
}


# ----------------------------------------------------------------------------------- sidebar
def sidebar_policy() -> Policy:
    """Render the shared policy sidebar and return the validated policy.

    Every field of ``Policy`` has a widget with a help text. An invalid combination (for example
    overlap ≥ max tokens) shows ``st.error`` with the message naming the field and stops the page.

    Returns:
        Policy: the policy the widgets describe.
    """
    sb = st.sidebar
    sb.header("Policy")
    # NOTE: the widgets take their values from session state, set once from the Policy defaults;
    # re-assigning each value on every run keeps it when the user switches pages (Streamlit drops
    # the state of widgets a page does not render, but keeps values set through session state).
    for f in fields(Policy):
        key = f"policy_{f.name}"
        st.session_state[key] = st.session_state[key] if key in st.session_state else f.default
    values: dict[str, Any] = {
        "strategy": sb.selectbox("Strategy", STRATEGIES, key="policy_strategy", help=_HELP["strategy"]),
        "max_tokens": sb.slider(
            "Max tokens", 32, 4096, step=16, key="policy_max_tokens", help=_HELP["max_tokens"]
        ),
        "overlap_tokens": sb.slider(
            "Overlap tokens", 0, 1024, step=8, key="policy_overlap_tokens", help=_HELP["overlap_tokens"]
        ),
        "target_pages": sb.number_input(
            "Target pages", 1, 100, key="policy_target_pages", help=_HELP["target_pages"]
        ),
        "max_pages": sb.number_input("Max pages", 1, 200, key="policy_max_pages", help=_HELP["max_pages"]),
        "fence": sb.selectbox("Fence level", FENCES, key="policy_fence", help=_HELP["fence"]),
        "structure": sb.selectbox(
            "Structure source", STRUCTURE_SOURCES, key="policy_structure", help=_HELP["structure"]
        ),
        "encoding": sb.selectbox("Encoding", ENCODINGS, key="policy_encoding", help=_HELP["encoding"]),
        "snap": sb.selectbox("Snap", SNAPS, key="policy_snap", help=_HELP["snap"]),
        "min_section_tokens": sb.number_input(
            "Min section tokens", 0, 4096, key="policy_min_section_tokens", help=_HELP["min_section_tokens"]
        ),
        "max_chunks": sb.number_input(
            "Max chunks", 1, 10_000_000, key="policy_max_chunks", help=_HELP["max_chunks"]
        ),
    }
    try:
        policy = Policy(**{k: int(v) if isinstance(v, float) else v for k, v in values.items()})
    except PolicyError as exc:
        st.error(f"Invalid policy: {exc}")
        st.stop()
    st.session_state["policy"] = policy
    return policy


# ----------------------------------------------------------------------------- book choice
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


def sample_names() -> list[str]:
    """The bundled sample books (file names), the default one first."""
    names = sorted(p.name for p in SAMPLE_DIR.iterdir() if p.suffix.lower().lstrip(".") in UPLOAD_TYPES)
    return sorted(names, key=lambda n: n != DEFAULT_SAMPLE)


def book_source() -> BookSource:
    """The current book's bytes (the default sample until the user picks another)."""
    if "book_source" not in st.session_state:
        st.session_state["book_source"] = BookSource.sample(DEFAULT_SAMPLE)
    return st.session_state["book_source"]


def _pick_sample() -> None:
    st.session_state["book_source"] = BookSource.sample(st.session_state["home_sample"])


def _pick_upload() -> None:
    upload = st.session_state.get("home_upload")
    if upload is None:  # the user removed the upload: back to the chosen sample
        _pick_sample()
    else:
        st.session_state["book_source"] = BookSource.of(upload.name, upload.getvalue())


def choose_book() -> None:
    """Render the book picker (a bundled sample or an upload) and remember the choice."""
    current = book_source()
    names = sample_names()
    left, right = st.columns(2)
    left.selectbox(
        "Sample book",
        names,
        index=names.index(current.name) if current.name in names else 0,
        key="home_sample",
        on_change=_pick_sample,
        help="Books bundled with the project, with verified chapter starts.",
    )
    right.file_uploader(
        "…or upload a book",
        type=list(UPLOAD_TYPES),
        key="home_upload",
        on_change=_pick_upload,
        help="PDF, EPUB, plain text or Markdown.",
    )


# ------------------------------------------------------------------------------- loaders
class _BookStore:
    """A small LRU of parsed books keyed by (sha256, structure), shared by every session.

    # NOTE: not ``st.cache_data`` around ``load_book``: the progress bar must be drawn by the
    caller, and a cached function may not touch elements created outside it (Streamlit would
    replay them on every hit). ``st.cache_resource`` holds this store instead, so
    ``st.cache_resource.clear()`` still empties it.
    """

    def __init__(self, size: int = 6) -> None:
        self._items: OrderedDict[tuple[str, str], Book] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

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


@st.cache_resource(show_spinner=False)
def _book_store() -> _BookStore:
    return _BookStore()


def current_book(structure: str | None = None) -> Book:
    """Parse the current book once per (file sha256, structure), with a progress bar.

    Args:
        structure (str | None): structure source; defaults to the sidebar policy's.

    Returns:
        Book: the parsed book. An unreadable book shows the reader's one-line error and stops.
    """
    src = book_source()
    if structure is None:
        structure = st.session_state.get("policy", Policy()).structure
    key = (src.sha256, structure)
    book = _book_store().get(key)
    if book is None:
        bar = st.progress(0.0, text=f"Reading {md(src.name)}…")

        def report(frac: float, msg: str) -> None:
            bar.progress(min(max(frac, 0.0), 1.0), text=md(msg))

        try:
            book = load_book(src.data, name=src.name, structure=structure, progress=report)
        except Exception as exc:  # noqa: BLE001
            # NOTE: readers raise UnreadableInputError with a one-line message; anything else is a
            # reader bug, still shown as one line (never a traceback). The book reverts to the
            # chosen sample so the other pages keep working.
            bar.empty()
            message = (
                str(exc)
                if isinstance(exc, ChunkingError)
                else f"{src.name}: could not be read ({type(exc).__name__}: {exc})".splitlines()[0]
            )
            fallback = st.session_state.get("home_sample", DEFAULT_SAMPLE)
            st.session_state["book_source"] = BookSource.sample(fallback)
            st.error(md(message))  # NOTE: quotes book data (file name, zip entries, hrefs)
            st.stop()
        bar.empty()
        _book_store().put(key, book)
    return book


@st.cache_resource(show_spinner="Tokenizing…", max_entries=8)
def _tokenized(sha256: str, structure: str, digest: str, encoding: str, _book: Book) -> TokenizedBook:
    # NOTE: ``digest`` (the corrections') is part of the key: corrections move the fences the
    # token stream is cut at, so a corrected book has its own tokens.
    return tokenize(_book, encoding)


# --------------------------------------------------------------------------- corrections
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


def structure_file_of(src: "BookSource", ops: tuple[Correction, ...]) -> StructureFile:
    """The structure file of ``ops`` for ``src`` as the Structure page downloads it; its
    ``sha256`` is that of ``structure_file_bytes`` so the manifest names the file the CLI reads."""
    from chunking import __version__

    sf = StructureFile(src.sha256, __version__, tuple(ops), name=f"{src.name}.structure.json")
    return replace(sf, sha256=hashlib.sha256(structure_file_bytes(sf)).hexdigest())


def structure_file_bytes(sf: StructureFile) -> bytes:
    """The JSON the CLI's ``--structure-file`` reads, serialised as ``save_structure`` writes it."""
    return (json.dumps(sf.to_dict(), ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def corrected_book(book: Book, ops: tuple[Correction, ...], structure: str) -> Book:
    """``book`` with ``ops`` applied (pure, cached per sha256, structure and digest).

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


def _policy_of(items: tuple[tuple[str, Any], ...]) -> Policy:
    return Policy(**dict(items))


@st.cache_data(show_spinner=False, max_entries=64)
def _chunks(sha256: str, policy_items: tuple[tuple[str, Any], ...], _tokenized: TokenizedBook) -> list[Chunk]:
    return chunk_book(_tokenized, _policy_of(policy_items))


@st.cache_resource(show_spinner="Validating…", max_entries=16)
def _report(
    sha256: str, policy_items: tuple[tuple[str, Any], ...], _tokenized: TokenizedBook, _chunks: list[Chunk]
) -> ValidationReport:
    return validate_chunks(_chunks, _tokenized, _policy_of(policy_items))


@st.cache_data(show_spinner=False, max_entries=64)
def _score(
    sha256: str, policy_items: tuple[tuple[str, Any], ...], _tokenized: TokenizedBook, _chunks: list[Chunk]
) -> dict[str, Any]:
    return scorecard(_chunks, _tokenized, _policy_of(policy_items))


@st.cache_data(show_spinner="Exporting…", max_entries=32)
def _rendered(
    sha256: str, policy_items: tuple[tuple[str, Any], ...], fmt: str, _chunks: list[Chunk]
) -> bytes:
    return export.render(_chunks, fmt)


@dataclass(frozen=True)
class AppRun:
    """A book chunked under one policy, as the app shows it.

    Attributes:
        source (BookSource): the file the book was read from.
        book (Book): the parsed book.
        tokenized (TokenizedBook): its canonical token stream for ``policy.encoding``.
        policy (Policy): the policy the chunks were cut with.
        chunks (list[Chunk]): the chunks, in order.
    """

    source: BookSource
    book: Book
    tokenized: TokenizedBook
    policy: Policy
    chunks: list[Chunk]
    structure_ops: tuple[Correction, ...] = ()

    @property
    def _items(self) -> tuple[tuple[str, Any], ...]:
        return tuple((f.name, getattr(self.policy, f.name)) for f in fields(Policy))

    @property
    def score(self) -> dict[str, Any]:
        """``chunking.analysis.scorecard.scorecard`` of the chunks (cached per book and policy)."""
        return _score(self.source.sha256, self._items, self.tokenized, self.chunks)

    @property
    def report(self) -> ValidationReport:
        """Validation of the chunks (rules 1–7); cached, computed only when a page asks."""
        return _report(self.source.sha256, self._items, self.tokenized, self.chunks)

    def manifest(self, fmt: str) -> dict[str, Any]:
        """The manifest the CLI writes next to ``<book stem>.<fmt>`` for the same book and policy."""
        sf = structure_file_of(self.source, self.structure_ops) if self.structure_ops else None
        base = export.build_manifest(
            self.tokenized,
            self.policy,
            self.chunks,
            self.report,
            source_path=self.source.path,
            structure_file=sf,
        )
        return dict(base, output={"file": self.export_name(fmt), "format": fmt})

    def manifest_bytes(self, fmt: str) -> bytes:
        """``manifest(fmt)`` serialised exactly as ``chunking.export.write_outputs`` writes it."""
        return (json.dumps(self.manifest(fmt), ensure_ascii=False, indent=2) + "\n").encode("utf-8")

    def export_name(self, fmt: str) -> str:
        """File name of the export: the book's stem plus the format's extension."""
        ext = {"jsonl": "jsonl", "csv": "csv", "parquet": "parquet", "langchain": "langchain.jsonl"}[fmt]
        return f"{Path(self.source.name).stem}.{ext}"

    def export_bytes(self, fmt: str) -> bytes:
        """The chunk file in ``fmt`` (``chunking.export.render``; cached per book, policy, format)."""
        return _rendered(self.source.sha256, self._items, fmt, self.chunks)


def current_run(policy: Policy) -> AppRun:
    """Chunk the current book under ``policy``: parse and tokenize are cached, only chunking reruns.

    Args:
        policy (Policy): usually ``sidebar_policy()``'s result.

    Returns:
        AppRun: book, tokenized book and chunks. Chunking errors (e.g. ``max_chunks``) show
        ``st.error`` and stop the page.
    """
    src = book_source()
    book = current_book(policy.structure)
    ops = corrections(src.sha256)
    try:
        book = corrected_book(book, ops, policy.structure)
    except StructureFileError as exc:
        # NOTE: only a change of structure source can get here (the Structure page applies each
        # correction before keeping it); the book is shown uncorrected, and the page says so.
        st.error(md(f"Structure corrections not applied ({exc}); undo or clear them on the Structure page."))
        ops = ()
    policy = policy.with_(corrections=corrections_digest(ops))
    tokenized = _tokenized(src.sha256, policy.structure, policy.corrections, policy.encoding, book)
    items = tuple((f.name, getattr(policy, f.name)) for f in fields(Policy))
    try:
        chunks = _chunks(src.sha256, items, tokenized)
    except ChunkingError as exc:
        st.error(str(exc))
        st.stop()
    return AppRun(source=src, book=book, tokenized=tokenized, policy=policy, chunks=chunks, structure_ops=ops)


# ------------------------------------------------------------------------------- display
def show_fig(fig: Any, *, key: str, select: bool = False) -> Any:
    """Show a plotly figure with the shared config; optionally return the user's point selection.

    Args:
        fig (plotly.graph_objects.Figure): from ``inspector.figures``.
        key (str): unique widget key (prefix it with the page's name).
        select (bool): rerun on click/box selection and return the selection state.
            Defaults to False.

    Returns:
        The ``PlotlyState`` selection when ``select`` is true, else the element.
    """
    if select:
        return st.plotly_chart(
            fig, key=key, config=PLOTLY_CONFIG, on_select="rerun", selection_mode=("points",)
        )
    return st.plotly_chart(fig, key=key, config=PLOTLY_CONFIG)
