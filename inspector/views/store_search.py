"""App stage (retrieval view): the Retrieval page's "Search a store" tab — query a store built by
``chunking index`` as ``chunking search --store`` does, and open each hit on Boundaries.

Why a tab of its own: the other tabs chunk the open book under the sidebar's policies; a store
holds the chunks of one run, cut with the policy its manifest records. So its hits open on
Boundaries under that policy (every sidebar field follows), and only when the app, chunking the
open book under that policy, has a chunk of the hit's id (other structure corrections give other
ids). Every check of the store and its book is ``chunking.index.catalog``'s; every refusal is one
escaped ``st.error`` (titles and paths are book and user data, and ``st.error`` renders Markdown).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import streamlit as st

from chunking.errors import ChunkingError
from chunking.index.catalog import StoreTable, open_store, parse_store, stored_book_for
from chunking.index.query import StoredBook, store_index
from chunking.index.store import BOOKS_TABLE, Store
from chunking.models import RETRIEVERS, Chunk
from chunking.policy import Policy
from chunking.retrieval.embeddings import default_backend
from chunking.retrieval.search import RankedIndex, SearchHit
from inspector.data import state
from inspector.data.state import AppRun
from inspector.safe import md
from inspector.views.retrieval import hit_html, hits_table

BOUNDARIES = "pages/1_Boundaries.py"


@st.cache_resource(show_spinner="Reading the store…", max_entries=4)
def _stored(path: str, table: str, sha256: str, versions: tuple[int, ...]) -> StoredBook:
    # NOTE: ``versions`` (of the record and the chunk table) keys the cache: a re-index commits
    # new versions, so the page never shows or searches a store as it was before.
    return stored_book_for(Store(Path(path), create=False), table, sha256)


@st.cache_resource(show_spinner="Indexing the store's chunks…", max_entries=8)
def _searcher(path: str, table: str, sha256: str, kind: str, versions: tuple[int, ...]) -> RankedIndex:
    stored = _stored(path, table, sha256, versions)
    return store_index(kind, stored, Store(Path(path), create=False), default_backend())


def store_policy(stored: StoredBook) -> Policy | None:
    """The policy the store's chunks were cut with (its manifest's), or None if unreadable."""
    meta = stored.record.manifest.get("policy")
    try:
        return Policy(**{k: v for k, v in meta.items() if k != "corrections"})  # type: ignore[union-attr]
    except (AttributeError, TypeError, ChunkingError):
        return None


def _open_on_boundaries(policy: Policy, order: int, pages: tuple[int, int]) -> None:
    """Button callback: every sidebar field to the store's policy, Boundaries to the chunk."""
    for name, value in policy.to_dict().items():
        st.session_state[f"policy_{name}"] = (
            [m for m in value.split(",") if m] if name == "exclude_matter" else value
        )
    st.session_state["bnd_chunk"] = order
    st.session_state["bnd_chapter"] = None
    st.session_state["bnd_range"] = pages


def _hit_chunks(stored: StoredBook) -> tuple[Policy | None, dict[str, Chunk], int]:
    """The store's policy, the app's chunks of the open book under it by id, and its page count."""
    policy = store_policy(stored)
    if policy is None:
        return None, {}, 2
    run = state.current_run(policy)
    return policy, {c.id: c for c in run.chunks}, max(len(run.book.pages), 2)


def _show_hits(hits: list[SearchHit], stored: StoredBook, kind: str) -> None:
    st.dataframe(hits_table(hits), hide_index=True, key=f"retrieval_store_hits_{kind}")
    policy, by_id, n_pages = _hit_chunks(stored)
    if policy is None:
        st.caption(
            "The store's manifest records no policy this version reads: hits cannot open on Boundaries."
        )
    for h in hits:
        with st.expander(f"#{h.rank} · chunk {h.order} · {h.id} · score {h.score:.3f}"):
            c = by_id.get(h.id)
            if policy is not None and c is not None:
                pages = (max(1, c.page_start - 1), min(n_pages, max(c.page_end + 1, c.page_start)))
                if st.button(
                    f"Open chunk {c.order} on Boundaries",
                    key=f"retrieval_store_open_{h.rank}",
                    on_click=_open_on_boundaries,
                    args=(policy, c.order, pages),
                    help="Shows this chunk on Boundaries under the store's policy (the sidebar follows).",
                ):
                    st.switch_page(BOUNDARIES)
            elif policy is not None:
                st.caption(
                    "The open book, chunked under the store's policy, has no chunk of this id "
                    "(other structure corrections give other ids)."
                )
            st.html(hit_html(h))


def _pick_table(tables: list[StoreTable]) -> str:
    labels = {t.name: t.label() for t in tables}
    chosen: Any = st.selectbox(
        "Book table", list(labels), format_func=labels.__getitem__, key="retrieval_store_table",
        help="The store's chunk tables; the first is the one its record names (the last finished run).",
    )  # fmt: skip
    return str(chosen)


def store_tab(run: AppRun) -> None:
    """Store folder → table → query, k and retriever → the hits, each with its chunk id and a
    button that opens the chunk on Boundaries."""
    spec = st.text_input(
        "Store folder",
        key="retrieval_store",
        placeholder="lancedb:/path/to/store (built by: chunking index RUN.jsonl --store lancedb:DIR)",
    )
    if not spec.strip():
        st.caption("Give a store built by 'chunking index' from a chunk file of this book.")
        return
    try:
        store, tables = open_store(parse_store(spec))
        table = _pick_table(tables)
        versions = (store.version(BOOKS_TABLE), store.version(table))
        stored = _stored(str(store.path), table, run.source.sha256, versions)
    except ChunkingError as exc:
        st.error(md(exc))
        return
    record = stored.record
    st.caption(
        md(
            f"{record.title or 'untitled'}: {len(stored.chunks)} chunks of {record.manifest.get('profile', '?')}, "
            f"embedded with {record.model} (prefix {record.embed_prefix}) from {record.chunk_file}"
        )
    )
    left, mid, right = st.columns([4, 1, 1])
    query = left.text_input("Query", key="retrieval_store_query", placeholder="a question or keywords")
    k = int(mid.number_input("k", 1, 50, 5, key="retrieval_store_k"))
    kind = str(
        right.selectbox("Retriever", RETRIEVERS, index=RETRIEVERS.index("hybrid"), key="retrieval_store_kind")
    )
    if not query.strip():
        return
    try:
        hits = _searcher(str(store.path), table, run.source.sha256, kind, versions).search(query, k)
    except ChunkingError as exc:
        st.error(md(exc))
        return
    if not hits:
        st.info("No stored chunk matches the query.")
        return
    _show_hits(hits, stored, kind)
