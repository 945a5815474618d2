"""OCR results cached per page image, so that a re-chunk never runs Tesseract again.

Two kinds of entry. A **book record** holds every OCR'd page of one file, filed under the
file's sha256 (with the settings and the renderer's version): a re-chunk of the same bytes reads
one file and hashes nothing more (the file's digest is the book id, already taken). A **page
entry** holds one page, filed under the page's fingerprint: a page met again in other bytes (the
book re-saved, a page copied into another PDF) is still never OCR'd twice. A page missing from
the book record (a page that failed last time, an ``--ocr always`` run after an ``auto`` one)
is looked up by its fingerprint; the book record is rewritten with every page known after the run.

Page key: the page's fingerprint (``chunking.ocr.fingerprint``: the sha256 of its image's bytes and
everything else it draws, or of its rendered pixels) with the OCR settings that change the
result: language and dpi. The Tesseract version is recorded in the entry and checked
on read, not hashed into the key: an entry made by another version is stale where Tesseract is
installed (and is OCR'd again, then rewritten), but is still the page's text where Tesseract is
not (better than losing the page); a book record's version is checked the same way. Entries
live under the user cache (``chunking.user_cache.cache_root() / "ocr"``), one JSON file each.

Entries are untrusted input (another process, a full disk or a user may have left anything
there): an entry is used only when it is a regular file of at most ``MAX_ENTRY_BYTES`` (read by
``chunking.inputs.load_json``: never a FIFO or device, JSON depth bounded), parses as the schema
below (of this ``SCHEMA``), names the key it is filed under and holds the digest of its own content
(a book record: at most ``MAX_BOOK_BYTES``, and every page in it valid, or none is used).
Anything else is ignored and rewritten. Writes are atomic (``chunking.atomic``); a cache that
cannot be written (read-only, full) only costs the next run its time, never this run its text.
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path
from typing import Any

from ..atomic import atomic_write
from ..errors import OutputError, UnreadableInputError
from ..inputs import load_json
from ..user_cache import cache_root
from .engine import PageOcr
from .lines import OcrLine

SCHEMA = 3
"""Version of the entry format; a new one starts a new folder (``ocr/v<SCHEMA>``), so an entry
of an older format is never read as this one (its page is OCR'd again). 2: each line's type
size and box (``lines``), which the structure engine's typography reads. 3: each line's
words' left and right edges and bottoms (``OcrLine.words``), which tell a monospaced
printout (``chunking.ocr.printout``)."""

MAX_ENTRY_BYTES = 1 << 20
"""Largest page entry read (1 MiB; a dense page's text is about 5 KB)."""

MAX_BOOK_BYTES = 64 << 20
"""Largest book record read or written (64 MiB: a few thousand dense pages, with their lines);
a book whose record would be larger keeps only its page entries."""

_FIELDS = ("text", "confidence", "words", "lines")


def cache_dir() -> Path:
    """Where entries are kept (read on every call: the cache root may change)."""
    return cache_root() / "ocr" / f"v{SCHEMA}"


def page_key(fingerprint: str, language: str, dpi: int) -> str:
    """The cache key of one page (its fingerprint) under the OCR settings."""
    return hashlib.sha256(f"{fingerprint}:{language}:{dpi}".encode()).hexdigest()


def book_key(sha256: str, renderer: str, language: str, dpi: int) -> str:
    """The key of one file's book record: its bytes' sha256, the renderer that draws its pages
    (``chunking.ocr.fingerprint.RENDERER``) and the OCR settings."""
    return hashlib.sha256(f"book {sha256}:{renderer}:{language}:{dpi}".encode()).hexdigest()


def _entry_path(key: str) -> Path:
    return cache_dir() / key[:2] / f"{key}.json"


def _book_path(key: str) -> Path:
    return cache_dir() / "books" / key[:2] / f"{key}.json"


def _digest(record: dict[str, Any], fields: tuple[str, ...]) -> str:
    body = {k: record[k] for k in ("schema", "key", "tesseract", *fields)}
    return hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def load(key: str, version: str | None) -> PageOcr | None:
    """The cached result for ``key``, or None when there is none usable.

    Args:
        key (str): from ``page_key``.
        version (str | None): the installed Tesseract's version; None when it is not installed
            (then an entry of any version is used).
    """
    record = _record(_entry_path(key), MAX_ENTRY_BYTES, key, version, _FIELDS, "OCR cache entry")
    if record is None or not _valid_result(record):
        return None
    return _result(record)


def load_book(key: str, version: str | None) -> dict[int, PageOcr]:
    """The pages of the book record ``key`` (0-based index: result); empty when there is no
    usable record (arguments as ``load``)."""
    record = _record(_book_path(key), MAX_BOOK_BYTES, key, version, ("pages",), "OCR book record")
    if record is None or not isinstance(record["pages"], list):
        return {}
    pages: dict[int, PageOcr] = {}
    for page in record["pages"]:
        if not isinstance(page, dict) or not _valid_result(page):
            return {}
        index = page.get("index")
        if not isinstance(index, int) or isinstance(index, bool) or index < 0 or index in pages:
            return {}
        pages[index] = _result(page)
    return pages


def _record(
    path: Path, limit: int, key: str, version: str | None, fields: tuple[str, ...], what: str
) -> dict[str, Any] | None:
    """The entry at ``path`` when it is this schema's, filed under ``key``, of a usable
    Tesseract ``version`` and its digest holds; else None."""
    try:
        # NOTE: the one bounded reader: a FIFO swapped in after a stat would block a plain open,
        # and JSON nested 100,000 deep would end the run in a RecursionError.
        record = load_json(path, limit, str(path), what)
    except UnreadableInputError:
        return None
    if not isinstance(record, dict) or record.get("schema") != SCHEMA or record.get("key") != key:
        return None
    if not isinstance(record.get("tesseract"), str) or not isinstance(record.get("digest"), str):
        return None
    if any(f not in record for f in fields) or record["digest"] != _digest(record, fields):
        return None
    if version is not None and record["tesseract"] != version:
        return None
    return record


def _valid_result(record: dict[str, Any]) -> bool:
    """The fields of one page's result have their types and ranges."""
    kinds: dict[str, type | tuple[type, ...]] = {"text": str, "confidence": (int, float), "words": int}
    if any(not isinstance(record.get(k), t) or isinstance(record.get(k), bool) for k, t in kinds.items()):
        return False
    if not 0 <= record["confidence"] <= 100 or record["words"] < 0:
        return False
    return _valid_lines(record.get("lines"), record["text"])


def _result(record: dict[str, Any]) -> PageOcr:
    return PageOcr(
        text=record["text"],
        confidence=float(record["confidence"]),
        words=record["words"],
        lines=tuple(
            OcrLine(
                t,
                float(size),
                float(x0),
                float(y0),
                float(y1),
                tuple((float(left), float(right), float(bottom)) for left, right, bottom in words),
            )
            for t, size, x0, y0, y1, words in record["lines"]
        ),
    )


def _valid_lines(lines: Any, text: str) -> bool:
    """``lines`` is a list of [text, size, x0, y0, y1, words], finite numbers, positive sizes,
    ``words`` a list of [left, right, bottom], one per word of the text or none,
    and its texts are the lines of ``text`` (a record whose two halves disagree is not this
    page's), or empty (lines unknown: the page's typography is blind, never misread)."""
    if not isinstance(lines, list):
        return False
    for line in lines:
        if not isinstance(line, list) or len(line) != 6 or not isinstance(line[0], str):
            return False
        words = line[5]
        if not isinstance(words, list) or (words and len(words) != len(line[0].split(" "))):
            return False
        if any(not isinstance(word, list) or len(word) != 3 for word in words):
            return False
        numbers = [*line[1:5], *(n for word in words for n in word)]
        if any(
            isinstance(n, bool) or not isinstance(n, (int, float)) or not math.isfinite(n) for n in numbers
        ):
            return False
        if numbers[0] <= 0:
            return False
    return not lines or [line[0] for line in lines] == text.split("\n")


def _fields(result: PageOcr) -> dict[str, Any]:
    return {
        "text": result.text,
        "confidence": result.confidence,
        "words": result.words,
        "lines": [
            [ln.text, ln.size, ln.x0, ln.y0, ln.y1, [list(w) for w in ln.words]] for ln in result.lines
        ],
    }


def save(key: str, version: str, result: PageOcr) -> None:
    """Store ``result`` for ``key`` (atomic; a cache that cannot be written is skipped)."""
    record: dict[str, Any] = {"schema": SCHEMA, "key": key, "tesseract": version, **_fields(result)}
    record["digest"] = _digest(record, _FIELDS)
    _write(_entry_path(key), json.dumps(record, ensure_ascii=False).encode("utf-8"))


def save_book(key: str, version: str, pages: dict[int, PageOcr]) -> None:
    """Store the book record ``key``: ``pages`` (0-based index: result); skipped when it would
    be larger than ``MAX_BOOK_BYTES`` (its pages' own entries still serve it)."""
    listed = [{"index": i, **_fields(result)} for i, result in sorted(pages.items())]
    record: dict[str, Any] = {"schema": SCHEMA, "key": key, "tesseract": version, "pages": listed}
    record["digest"] = _digest(record, ("pages",))
    data = json.dumps(record, ensure_ascii=False).encode("utf-8")
    if len(data) <= MAX_BOOK_BYTES:
        _write(_book_path(key), data)


def _write(path: Path, data: bytes) -> None:
    try:
        atomic_write(path, lambda fh: fh.write(data))
    except OutputError:
        pass  # NOTE: the cache is an optimisation; the run has its text either way
