"""The LanceDB store behind ``index`` and ``search --store``: its tables and the record of its book.

Why LanceDB: embedded (a folder, no server), every write is a new table version committed at
once, so a killed run leaves the last committed version; nothing here needs a lock file or a
journal of its own.

A store ``lancedb:DIR`` holds one book's index at a time (the book of the run that built it):

* ``books``: one row, the record of that book: its chunk table, ``book.id`` and ``sha256``, title,
  the embedding model and prefix mode, and the manifest of the run the store was built from.
  It is written last in a run, so it never names a table that is not complete.
* ``chunks_<book id>``: a table per book, one row per chunk: every chunk field
  (``chunking.models.CHUNK_FIELDS``), ``embed_key`` (what was embedded, ``embed_key``),
  ``row_key`` (a digest of the whole row but the vector, to tell a changed row) and ``vector``.
  A new edition (``--replace-book``) gets its own table; the old one is dropped once the record
  names the new one.
* ``vectors_<model digest>``: the vector cache of one embedding model: ``key`` (sha256 of the
  embedded text) and ``vector``. It outlives chunk ids, policies and editions.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ChunkingError, OutputError, UnreadableInputError, UsageError, one_line
from ..models import CHUNK_FIELDS, Chunk

SCHEME = "lancedb:"
"""The only store kind: ``lancedb:DIR``."""

BOOKS_TABLE = "books"
RECORD_KEY = "book"
"""The key of the one row of ``books``."""


def store_path(spec: str) -> Path:
    """``DIR`` of ``lancedb:DIR``.

    Raises:
        UsageError: another scheme or no folder.
    """
    if not spec.startswith(SCHEME) or not spec[len(SCHEME) :].strip():
        raise UsageError(f"--store must be lancedb:DIR (a folder); got {one_line(spec)[:80]!r}")
    return Path(spec[len(SCHEME) :])


def text_key(text: str) -> str:
    """The cache key of an embedded text: its sha256."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def embed_key(model: str, text: str) -> str:
    """What a chunk row's vector is the embedding of: the model and the embedded text."""
    return hashlib.sha256(f"{model}\0{text_key(text)}".encode()).hexdigest()[:32]


def row_key(chunk: Chunk, key: str) -> str:
    """A digest of a chunk row but its vector: equal for an unchanged row (links included)."""
    record = json.dumps([chunk.to_dict(), key], ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(record.encode("utf-8")).hexdigest()[:32]


@dataclass(frozen=True)
class BookRecord:
    """What a store holds (the row of ``books``).

    Attributes:
        table (str): the chunk table.
        book_id (str): the manifest's ``book.id``.
        sha256 (str): the manifest's ``book.sha256``.
        title (str): the book's title.
        model (str): the embedding backend's ``name``.
        embed_prefix (str): ``chunking.retrieval.breadcrumb.EMBED_PREFIXES``.
        manifest (dict[str, Any]): the manifest of the run the store was built from.
        chunk_file (str): the chunk file that run was read from.
    """

    table: str
    book_id: str
    sha256: str
    title: str
    model: str
    embed_prefix: str
    manifest: dict[str, Any]
    chunk_file: str

    def row(self) -> dict[str, Any]:
        out = {k: getattr(self, k) for k in self.__dataclass_fields__ if k != "manifest"}
        return dict(out, key=RECORD_KEY, manifest=json.dumps(self.manifest, ensure_ascii=False))


CHUNK_TABLE_PREFIX = "chunks_"


def chunk_table_name(book_id: str) -> str:
    """The chunk table of the book ``book_id``."""
    return f"{CHUNK_TABLE_PREFIX}{book_id}"


def _vector_type(dim: int):
    import pyarrow as pa

    return pa.list_(pa.float32(), dim)


def _store_error(path: Path, exc: Exception) -> UnreadableInputError:
    # NOTE: Lance's messages quote the Rust source file and the bytes read; the first 160
    # characters name the failure, the rest would only flood a terminal line or the app.
    reason = one_line(f"{type(exc).__name__}: {exc}")[:160]
    return UnreadableInputError(f"{path}: not a readable LanceDB store: {reason}")


class Store:
    """An open store (see the module docstring).

    Every failure of LanceDB is one of the CLI's errors: reading, an unreadable store (exit 3);
    writing, a store that cannot be written (exit 5: permissions, a full disk, a file where a
    table's folder belongs). A write that fails leaves the table at its last commit.
    """

    def __init__(self, path: Path, *, create: bool) -> None:
        """Open (``create``: or make) the store at ``path``.

        Raises:
            UnreadableInputError: ``create`` is False and there is no store at ``path``.
            OutputError: ``create`` is True and the folder cannot be made.
        """
        self.path = path
        if path.exists() and not path.is_dir():
            raise UsageError(f"--store {path}: not a folder")
        if not create and not (path / f"{BOOKS_TABLE}.lance").is_dir():
            raise UnreadableInputError(f"{path}: no store here (build one with 'chunking index')")
        if create:
            try:
                path.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise OutputError(f"--store {path}: cannot create the folder: {exc.strerror}") from None
        import lancedb

        self.db = lancedb.connect(str(path))

    @contextmanager
    def _writing(self, what: str) -> Iterator[None]:
        """Turn a failed LanceDB write into one ``OutputError`` line naming the store and ``what``."""
        try:
            yield
        except ChunkingError:
            raise
        except Exception as exc:  # NOTE: Lance raises OSError, ValueError or its RuntimeError
            reason = one_line(f"{type(exc).__name__}: {exc}")[:160]
            raise OutputError(f"{self.path}: cannot write {what} to the store: {reason}") from None

    def _names(self) -> set[str]:
        try:
            return set(self.db.list_tables().tables)
        except Exception as exc:  # NOTE: LanceDB raises ValueError, OSError or its own errors
            raise _store_error(self.path, exc) from None

    def _open(self, name: str):
        try:
            return self.db.open_table(name)
        except Exception as exc:  # NOTE: LanceDB raises ValueError, OSError or its own errors
            raise _store_error(self.path, exc) from None

    def _arrow(self, name: str):
        """Table ``name`` read whole; a damaged data file is an unreadable store, not a crash."""
        table = self._open(name)
        try:
            return table.to_arrow()
        except Exception as exc:  # NOTE: a truncated data file raises Lance's RuntimeError here
            raise _store_error(self.path, exc) from None

    def chunk_tables(self) -> list[str]:
        """The chunk tables the store holds (``chunks_<book id>``), sorted."""
        return sorted(n for n in self._names() if n.startswith(CHUNK_TABLE_PREFIX))

    def version(self, name: str) -> int:
        """Table ``name``'s current version: it changes with every commit (a reader's cache key)."""
        table = self._open(name)
        try:
            return int(table.version)
        except Exception as exc:
            raise _store_error(self.path, exc) from None

    def rows(self, name: str) -> int:
        """How many rows table ``name`` holds."""
        table = self._open(name)
        try:
            return int(table.count_rows())
        except Exception as exc:
            raise _store_error(self.path, exc) from None

    def record(self) -> BookRecord | None:
        """What the store holds, or None for a new store."""
        if BOOKS_TABLE not in self._names():
            return None
        rows = self._arrow(BOOKS_TABLE).to_pylist()
        if not rows:
            return None
        try:
            row = rows[0]
            fields = {k: row[k] for k in BookRecord.__dataclass_fields__ if k != "manifest"}
            return BookRecord(**fields, manifest=json.loads(row["manifest"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise _store_error(self.path, exc) from None

    def write_record(self, record: BookRecord) -> None:
        """Make ``record`` the store's record (one commit)."""
        import pyarrow as pa

        data = pa.Table.from_pylist([record.row()])
        exists = BOOKS_TABLE in self._names()
        with self._writing("the book's record"):
            if exists:
                self._open(BOOKS_TABLE).merge_insert(
                    "key"
                ).when_matched_update_all().when_not_matched_insert_all().execute(data)
            else:
                self.db.create_table(BOOKS_TABLE, data)

    def has_table(self, name: str) -> bool:
        return name in self._names()

    def drop_table(self, name: str) -> None:
        if name in self._names():
            with self._writing(f"(drop) table {name}"):
                self.db.drop_table(name)

    def chunks(self, name: str) -> tuple[list[Chunk], dict[str, str]]:
        """The chunks of table ``name`` in order, and each id's ``row_key``."""
        from ..export import _chunk_from_record

        try:
            table = self._arrow(name).drop_columns(["vector"])
            rows = sorted(table.to_pylist(), key=lambda r: r["order"])
            return [_chunk_from_record(r) for r in rows], {r["id"]: r["row_key"] for r in rows}
        except (KeyError, TypeError, ValueError) as exc:  # NOTE: a table not written by ``index``
            raise _store_error(self.path, exc) from None

    def chunk_table(self, name: str):
        """The LanceDB table ``name`` (for queries)."""
        return self._open(name)

    def write_chunks(
        self,
        name: str,
        chunks: Sequence[Chunk],
        keys: Sequence[str],
        vectors: np.ndarray,
        *,
        replace: bool,
    ) -> dict[str, int]:
        """Make table ``name`` hold exactly ``chunks`` (one commit).

        ``replace`` writes the table anew; otherwise one ``merge_insert`` applies the plan: rows
        of ids not in ``chunks`` are deleted, new ids inserted, and a kept id's row rewritten
        only when its ``row_key`` changed (its links or its vector's text).

        Returns:
            dict[str, int]: ``updated``: kept rows rewritten.
        """
        data = self._chunk_rows(chunks, keys, vectors)
        exists = name in self._names()
        if replace or not exists:
            with self._writing(f"the chunks (table {name})"):
                self.db.create_table(name, data, mode="overwrite" if exists else "create")
            return {"updated": 0}
        table = self._open(name)
        with self._writing(f"the chunks (table {name})"):
            result = (
                table.merge_insert("id")
                .when_matched_update_all(where="target.row_key != source.row_key")
                .when_not_matched_insert_all()
                .when_not_matched_by_source_delete()
                .execute(data)
            )
        return {"updated": int(result.num_updated_rows)}

    def _chunk_rows(self, chunks: Sequence[Chunk], keys: Sequence[str], vectors: np.ndarray):
        import pyarrow as pa

        from ..export import _parquet_schema

        schema = _parquet_schema()
        columns: dict[str, Any] = {f: [getattr(c, f) for c in chunks] for f in CHUNK_FIELDS}
        columns["heading_path"] = [list(c.heading_path) for c in chunks]
        table = pa.table(columns, schema=schema)
        table = table.append_column("embed_key", pa.array(list(keys), pa.string()))
        table = table.append_column(
            "row_key", pa.array([row_key(c, k) for c, k in zip(chunks, keys)], pa.string())
        )
        flat = pa.array(np.ascontiguousarray(vectors, dtype=np.float32).reshape(-1))
        return table.append_column("vector", pa.FixedSizeListArray.from_arrays(flat, vectors.shape[1]))

    @staticmethod
    def vector_table_name(model: str) -> str:
        return "vectors_" + hashlib.sha256(model.encode("utf-8")).hexdigest()[:16]

    def cached_vectors(self, model: str) -> dict[str, np.ndarray]:
        """Every vector cached for ``model``, by text key."""
        name = self.vector_table_name(model)
        if name not in self._names():
            return {}
        table = self._arrow(name)
        if not table.num_rows:
            return {}
        vectors = table.column("vector").combine_chunks().flatten().to_numpy().reshape(table.num_rows, -1)
        return dict(zip(table.column("key").to_pylist(), vectors))

    def cache_vectors(self, model: str, keys: Iterable[str], vectors: np.ndarray) -> None:
        """Add ``vectors`` (rows, in ``keys`` order) to ``model``'s cache (one commit)."""
        import pyarrow as pa

        keys = list(keys)
        if not keys:
            return
        flat = pa.array(np.ascontiguousarray(vectors, dtype=np.float32).reshape(-1))
        data = pa.table(
            {
                "key": pa.array(keys, pa.string()),
                "vector": pa.FixedSizeListArray.from_arrays(flat, vectors.shape[1]),
            }
        )
        name = self.vector_table_name(model)
        exists = name in self._names()
        table = self._open(name) if exists else None
        with self._writing(f"vectors (table {name})"):
            if table is not None:
                table.add(data)
            else:
                self.db.create_table(name, data)
