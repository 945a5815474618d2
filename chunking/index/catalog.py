"""What a store offers a reader that holds a book of its own (the app's Retrieval page): its chunk
tables, and the one chosen, checked against that book before anything is searched.

Why: ``search --store`` trusts the store, since it has no other book. A reader with a book open
does not: its hits must open on that book's chunks, so a store of another book, a folder that is no
store, an empty or damaged store, or a table the record does not name (left by a run that stopped
before its last commit, ``chunking.index.apply``) is refused here with one line that says what to
do, the same for every screen. Nothing here draws anything.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import UnreadableInputError, UsageError, one_line
from .query import StoredBook, read_store
from .store import SCHEME, Store


def parse_store(text: str) -> Path:
    """The folder of ``lancedb:DIR`` or of a bare ``DIR`` (the only store kind, so the scheme may
    be left out when typed by hand).

    Raises:
        UsageError: nothing given, or another scheme (``pinecone:…``).
    """
    spec = text.strip()
    if not spec:
        raise UsageError("give the store folder (lancedb:DIR)")
    scheme, sep, rest = spec.partition(":")
    if sep and scheme != SCHEME[:-1] and len(scheme) > 1 and scheme.isalnum():
        # NOTE: a one-letter scheme is a Windows drive (C:\stores), not a store kind
        raise UsageError(f"only LanceDB stores can be read: lancedb:DIR; got {one_line(spec)[:80]!r}")
    return Path(rest if scheme == SCHEME[:-1] and sep else spec).expanduser()


@dataclass(frozen=True)
class StoreTable:
    """One chunk table of a store.

    Attributes:
        name (str): the table (``chunks_<book id>``).
        rows (int): its chunks.
        current (bool): the store's record names it (the last finished run wrote it).
        title (str): the record's book title when ``current``, else ``""``.
    """

    name: str
    rows: int
    current: bool
    title: str = ""

    def label(self) -> str:
        """How a picker names it."""
        what = f"{self.title or 'untitled'}" if self.current else "unfinished: no record names it"
        return f"{self.name} · {self.rows} chunks · {what}"


def open_store(path: Path) -> tuple[Store, list[StoreTable]]:
    """Open the store at ``path`` and list its chunk tables, the record's first.

    Raises:
        UsageError: ``path`` is a file.
        UnreadableInputError: no store there, a damaged one, or one without any chunk table.
    """
    store = Store(path, create=False)
    record = store.record()
    tables = [
        StoreTable(
            name,
            store.rows(name),
            record is not None and record.table == name,
            record.title if record is not None and record.table == name else "",
        )
        for name in store.chunk_tables()
    ]
    if not tables:
        raise UnreadableInputError(f"{path}: the store holds no book yet (run 'chunking index')")
    return store, sorted(tables, key=lambda t: not t.current)


def stored_book_for(store: Store, table: str, sha256: str) -> StoredBook:
    """The store's book read back, when ``table`` is the one its record names and the book is the
    file ``sha256`` (the reader's book).

    Raises:
        UsageError: ``table`` is not the record's (an unfinished run), or another book's store.
        UnreadableInputError: the store cannot be read back.
    """
    stored = read_store(store)
    record = stored.record
    if table != record.table:
        raise UsageError(
            f"table {table} is not the store's finished index (that is {record.table}): a run "
            "stopped before its last step left it; run 'chunking index' again to finish"
        )
    if record.sha256 != sha256:
        raise UsageError(
            f"this store indexes another book: {one_line(record.title)[:80]!r} (sha256 "
            f"{record.sha256[:12]}…), not the open book (sha256 {sha256[:12]}…); open that book, "
            "or choose its store"
        )
    return stored
