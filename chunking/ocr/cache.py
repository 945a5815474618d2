"""OCR results cached per page image, so that a re-chunk never runs Tesseract again.

Key: the page's fingerprint (``chunking.ocr.fingerprint``: the sha256 of its image's bytes and
everything else it draws, or of its rendered pixels) with the OCR settings that change the
result: language and dpi. The Tesseract version is recorded in the entry and checked
on read, not hashed into the key: an entry made by another version is stale where Tesseract is
installed (and is OCR'd again, then rewritten), but is still the page's text where Tesseract is
not (better than losing the page). Entries live under the user cache
(``chunking.user_cache.cache_root() / "ocr"``), one small JSON file each.

Entries are untrusted input (another process, a full disk or a user may have left anything
there): an entry is used only when it is a regular file of at most ``MAX_ENTRY_BYTES`` (read by
``chunking.inputs.load_json``: never a FIFO or device, JSON depth bounded), parses as the schema
below, names the key it is filed under and holds the digest of its own content.
Anything else is ignored and rewritten. Writes are atomic (``chunking.atomic``); a cache that
cannot be written (read-only, full) only costs the next run its time, never this run its text.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from ..atomic import atomic_write
from ..errors import OutputError, UnreadableInputError
from ..inputs import load_json
from ..user_cache import cache_root
from .engine import PageOcr

SCHEMA = 1
"""Version of the entry format; a new one starts a new folder (``ocr/v<SCHEMA>``)."""

MAX_ENTRY_BYTES = 1 << 20
"""Largest entry read (1 MiB; a dense page's text is about 5 KB)."""


def cache_dir() -> Path:
    """Where entries are kept (read on every call: the cache root may change)."""
    return cache_root() / "ocr" / f"v{SCHEMA}"


def page_key(fingerprint: str, language: str, dpi: int) -> str:
    """The cache key of one page (its fingerprint) under the OCR settings."""
    return hashlib.sha256(f"{fingerprint}:{language}:{dpi}".encode()).hexdigest()


def _entry_path(key: str) -> Path:
    return cache_dir() / key[:2] / f"{key}.json"


def _digest(record: dict[str, Any]) -> str:
    body = {k: record[k] for k in ("schema", "key", "tesseract", "text", "confidence", "words")}
    return hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def load(key: str, version: str | None) -> PageOcr | None:
    """The cached result for ``key``, or None when there is none usable.

    Args:
        key (str): from ``page_key``.
        version (str | None): the installed Tesseract's version; None when it is not installed
            (then an entry of any version is used).
    """
    path = _entry_path(key)
    try:
        # NOTE: the one bounded reader: a FIFO swapped in after a stat would block a plain open,
        # and JSON nested 100,000 deep would end the run in a RecursionError.
        record = load_json(path, MAX_ENTRY_BYTES, str(path), "OCR cache entry")
    except UnreadableInputError:
        return None
    if not _valid(record, key):
        return None
    if version is not None and record["tesseract"] != version:
        return None
    return PageOcr(text=record["text"], confidence=float(record["confidence"]), words=record["words"])


def _valid(record: Any, key: str) -> bool:
    if not isinstance(record, dict) or record.get("schema") != SCHEMA or record.get("key") != key:
        return False
    kinds: dict[str, type | tuple[type, ...]] = {
        "tesseract": str,
        "text": str,
        "confidence": (int, float),
        "words": int,
        "digest": str,
    }
    if any(not isinstance(record.get(k), t) or isinstance(record.get(k), bool) for k, t in kinds.items()):
        return False
    if not 0 <= record["confidence"] <= 100 or record["words"] < 0:
        return False
    return record["digest"] == _digest(record)


def save(key: str, version: str, result: PageOcr) -> None:
    """Store ``result`` for ``key`` (atomic; a cache that cannot be written is skipped)."""
    record: dict[str, Any] = {
        "schema": SCHEMA,
        "key": key,
        "tesseract": version,
        "text": result.text,
        "confidence": result.confidence,
        "words": result.words,
    }
    record["digest"] = _digest(record)
    data = json.dumps(record, ensure_ascii=False).encode("utf-8")
    try:
        atomic_write(_entry_path(key), lambda fh: fh.write(data))
    except OutputError:
        pass  # NOTE: the cache is an optimisation; the run has its text either way
