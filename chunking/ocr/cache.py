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
below (of this ``SCHEMA``), names the key it is filed under and holds the digest of its own content.
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

SCHEMA = 2
"""Version of the entry format; a new one starts a new folder (``ocr/v<SCHEMA>``), so an entry
of an older format is never read as this one (its page is OCR'd again). 2: each line's type
size and box (``lines``), which the structure engine's typography reads."""

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
    body = {k: record[k] for k in ("schema", "key", "tesseract", "text", "confidence", "words", "lines")}
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
    return PageOcr(
        text=record["text"],
        confidence=float(record["confidence"]),
        words=record["words"],
        lines=tuple(
            OcrLine(t, float(size), float(x0), float(y0), float(y1))
            for t, size, x0, y0, y1 in record["lines"]
        ),
    )


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
    if not _valid_lines(record.get("lines"), record["text"]):
        return False
    return record["digest"] == _digest(record)


def _valid_lines(lines: Any, text: str) -> bool:
    """``lines`` is a list of [text, size, x0, y0, y1], finite numbers, positive sizes, and its
    texts are the lines of ``text`` (a record whose two halves disagree is not this page's), or
    empty (lines unknown: the page's typography is blind, never misread)."""
    if not isinstance(lines, list):
        return False
    for line in lines:
        if not isinstance(line, list) or len(line) != 5 or not isinstance(line[0], str):
            return False
        numbers = line[1:]
        if any(
            isinstance(n, bool) or not isinstance(n, (int, float)) or not math.isfinite(n) for n in numbers
        ):
            return False
        if numbers[0] <= 0:
            return False
    return not lines or [line[0] for line in lines] == text.split("\n")


def save(key: str, version: str, result: PageOcr) -> None:
    """Store ``result`` for ``key`` (atomic; a cache that cannot be written is skipped)."""
    record: dict[str, Any] = {
        "schema": SCHEMA,
        "key": key,
        "tesseract": version,
        "text": result.text,
        "confidence": result.confidence,
        "words": result.words,
        "lines": [[ln.text, ln.size, ln.x0, ln.y0, ln.y1] for ln in result.lines],
    }
    record["digest"] = _digest(record)
    data = json.dumps(record, ensure_ascii=False).encode("utf-8")
    try:
        atomic_write(_entry_path(key), lambda fh: fh.write(data))
    except OutputError:
        pass  # NOTE: the cache is an optimisation; the run has its text either way
