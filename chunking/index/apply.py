"""One index run: a chunk file and its manifest applied to a store.

The plan is ``chunking.analysis.diff.diff_chunks`` from the chunks the store holds to the run's
chunks (the plan ``chunking diff`` prints, when the store was built from the older file): kept ids
stay, added ids are inserted, deleted ids removed, in one LanceDB commit. Vectors come from the
model's cache (``Store.cached_vectors``, by the sha256 of the embedded text), so an added chunk
whose text the store has embedded before with that model is *re-keyed* (its cached vector is
stored under the new id); only text never seen is embedded, in batches, each batch cached as it
is done. Steps, each a commit: cache the new vectors → write the chunk table → write the record.
A run stopped at any point leaves the last commit of each table; running it again finishes the
job and embeds nothing the stopped run already cached.

Another book than the store's record is refused unless ``replace_book`` (a new edition of the
same book): its chunks go into a table of their own, the record then names it and the old table
is dropped; the vector cache is shared, so unchanged text is still not embedded again.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

import numpy as np

from ..analysis.diff import Run, diff_chunks
from ..errors import UsageError
from ..models import Chunk
from ..retrieval.breadcrumb import embedding_texts
from ..retrieval.embeddings import EmbeddingBackend
from .store import BookRecord, Store, chunk_table_name, embed_key, text_key

EMBED_CHUNK = 256
"""Texts embedded (and cached, one commit) per step: the most a stopped run loses."""

Progress = Callable[[int], None]
"""Called with how many texts were just embedded."""


@dataclass(frozen=True)
class IndexSummary:
    """What one index run did.

    Attributes:
        table (str): the chunk table written.
        kept (int): ids the store already held and still holds.
        added (int): ids inserted.
        deleted (int): ids removed.
        rekeyed (int): added chunks whose vector came from the cache (text embedded before).
        embedded (int): texts embedded by this run.
        updated (int): kept rows rewritten (their links or their embedded text changed).
        seconds (float): wall time of the run.
    """

    table: str
    kept: int
    added: int
    deleted: int
    rekeyed: int
    embedded: int
    updated: int
    seconds: float

    def line(self) -> str:
        """The summary line ``index`` prints."""
        return (
            f"kept {self.kept}, added {self.added}, deleted {self.deleted}, re-keyed {self.rekeyed}, "
            f"embedded {self.embedded}, updated {self.updated} in {self.seconds:.2f} s"
        )


def book_of(run: Run) -> dict:
    """The manifest's ``book`` record of ``run``."""
    return run.manifest["book"]


def check_same_book(record: BookRecord | None, run: Run, replace_book: bool) -> None:
    """Refuse a run of another book than the store's, unless ``replace_book``.

    Raises:
        UsageError: the store was built from another book (its sha256 differs).
    """
    if record is None or replace_book or record.sha256 == run.book_sha256:
        return
    title = str(book_of(run).get("title") or "")
    raise UsageError(
        f"the store holds {record.title!r} (sha256 {record.sha256[:12]}…), not {title!r} "
        f"(sha256 {run.book_sha256[:12]}…); pass --replace-book if this is a new edition of it, "
        "or use another --store"
    )


def reuse_counts(
    known: Collection[str], chunks: Sequence[Chunk], texts: Sequence[str], added: Collection[str]
) -> tuple[int, int]:
    """What indexing ``chunks`` (embedding ``texts``) costs when the texts whose keys are in
    ``known`` were embedded before: ``(texts to embed, added chunks re-keyed)``. The Compare page
    shows it for a store built from another policy's chunks (``known``: their texts)."""
    keys = [text_key(t) for t in texts]
    return len({k for k in keys if k not in known}), sum(
        c.id in added and k in known for c, k in zip(chunks, keys)
    )


def vectors_for(
    store: Store,
    backend: EmbeddingBackend,
    texts: Sequence[str],
    progress: Progress | None = None,
    on_plan: Progress | None = None,
    batch: int = EMBED_CHUNK,
) -> tuple[np.ndarray, set[str], int]:
    """The vectors of ``texts`` (in order), embedding only those not in the cache.

    ``on_plan`` is told how many texts will be embedded, before the first; ``progress`` how many
    each step embedded.

    Returns:
        tuple[np.ndarray, set[str], int]: the vectors, the text keys that were cached before
        this call, and how many texts were embedded.
    """
    cache = store.cached_vectors(backend.name)
    before = set(cache)
    keys = [text_key(t) for t in texts]
    todo = list(dict.fromkeys(k for k in keys if k not in cache))
    text_of = dict(zip(keys, texts))
    if on_plan is not None:
        on_plan(len(todo))
    for i in range(0, len(todo), batch):
        step = todo[i : i + batch]
        vectors = backend.embed([text_of[k] for k in step])
        store.cache_vectors(backend.name, step, vectors)
        cache.update(zip(step, vectors))
        if progress is not None:
            progress(len(step))
    if not keys:
        return np.zeros((0, 0), dtype=np.float32), before, 0
    return np.stack([cache[k] for k in keys]).astype(np.float32), before, len(todo)


def index_run(
    run: Run,
    store: Store,
    backend: EmbeddingBackend,
    *,
    embed_prefix: str = "none",
    replace_book: bool = False,
    progress: Progress | None = None,
    on_plan: Progress | None = None,
    batch: int = EMBED_CHUNK,
) -> IndexSummary:
    """Apply ``run`` to ``store`` (see the module docstring).

    Args:
        run (Run): the chunk file and its manifest (``chunking.analysis.diff.read_run``).
        store (Store): the open store.
        backend (EmbeddingBackend): the embedding model (``chunking.retrieval.embeddings``).
        embed_prefix (str): ``chunking.retrieval.breadcrumb.EMBED_PREFIXES``. Defaults to ``none``.
        replace_book (bool): accept a run of another book (a new edition). Defaults to False.
        progress (Callable[[int], None] | None): told how many texts each step embedded.
        on_plan (Callable[[int], None] | None): told how many texts will be embedded, first.
        batch (int): texts embedded and cached per step. Defaults to ``EMBED_CHUNK``.

    Raises:
        UsageError: another book than the store's, without ``replace_book``; a book without
            chunks.
    """
    started = time.perf_counter()
    record = store.record()
    check_same_book(record, run, replace_book)
    chunks: list[Chunk] = run.chunks
    if not chunks:
        raise UsageError(f"{run.path.name}: no chunks to index")
    book = book_of(run)
    table = chunk_table_name(str(book.get("id") or run.book_sha256[:16]))
    same_table = record is not None and record.table == table and store.has_table(table)
    rebuild = not same_table or record is None or record.model != backend.name
    old: list[Chunk] = [] if rebuild else store.chunks(table)[0]
    plan = diff_chunks(old, chunks)
    texts = embedding_texts(chunks, str(book.get("title") or ""), embed_prefix)
    vectors, cached_before, embedded = vectors_for(store, backend, texts, progress, on_plan, batch)
    _, rekeyed = reuse_counts(cached_before, chunks, texts, set(plan.add))
    keys = [embed_key(backend.name, t) for t in texts]
    written = store.write_chunks(table, chunks, keys, vectors, replace=rebuild)
    store.write_record(
        BookRecord(
            table=table,
            book_id=str(book.get("id") or ""),
            sha256=run.book_sha256,
            title=str(book.get("title") or ""),
            model=backend.name,
            embed_prefix=embed_prefix,
            manifest=run.manifest,
            chunk_file=str(run.path),
        )
    )
    if record is not None and record.table != table:
        store.drop_table(record.table)
    return IndexSummary(
        table=table,
        kept=len(plan.keep),
        added=len(plan.add),
        deleted=len(plan.delete),
        rekeyed=rekeyed,
        embedded=embedded,
        updated=written["updated"],
        seconds=time.perf_counter() - started,
    )
