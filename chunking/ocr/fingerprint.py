"""A page's fingerprint: the sha256 of everything that decides its image, without rendering it.

The OCR cache (``chunking.ocr.cache``) is keyed by what a page shows. Rendering the page at 300
dpi to hash its pixels costs about 0.1 s a page, which a re-chunk of a scanned book would pay
on every page; the page's own objects say the same for about a millisecond: its content
streams, every object its resources and annotations reach (the scanned image's bytes, fonts,
forms), its boxes and rotation, and the renderer's version. Objects are hashed by content,
references replaced by the hash of what they point to (a Merkle hash), so the fingerprint does
not depend on object numbers: the same page copied into another PDF has the same fingerprint.

A page whose objects cannot be walked within ``MAX_OBJECTS`` (a hostile file) has no
fingerprint (None); the caller then hashes its rendered pixels instead.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

import pymupdf

MAX_OBJECTS = 5_000
"""Most objects one page's walk visits."""

RENDERER = f"mupdf {pymupdf.VersionBind}"
"""The renderer whose pixels OCR reads: part of every cache key (another version may draw a
page otherwise)."""

_REF = re.compile(rb"(\d+) (\d+) R")
_PARENT = re.compile(rb"/Parent\s+\d+\s+\d+\s+R")
_ROOT_KEYS = ("Contents", "Resources", "Annots")
_INHERITED = ("Resources",)


class _TooBig(Exception):
    pass


def page_fingerprint(doc: pymupdf.Document, index: int) -> str | None:
    """The fingerprint of page ``index`` (0-based), or None when it cannot be taken."""
    page = doc[index]
    parts = [
        f"{RENDERER}; rotation {page.rotation}; mediabox {tuple(page.mediabox)}; "
        f"cropbox {tuple(page.cropbox)}".encode()
    ]
    memo: dict[int, bytes] = {}
    try:
        for key in _ROOT_KEYS:
            kind, value = _key(doc, page.xref, key, inherit=key in _INHERITED)
            parts.append(key.encode() + b"=" + _resolve(doc, (kind + " " + value).encode(), memo))
    except (_TooBig, RuntimeError, ValueError):
        return None
    return hashlib.sha256(b"\n".join(parts)).hexdigest()


def pixel_fingerprint(pix: pymupdf.Pixmap) -> str:
    """The fingerprint of a rendered page: the sha256 of its size and pixels."""
    digest = hashlib.sha256(f"pixels {pix.width}x{pix.height}x{pix.n}:".encode())
    digest.update(pix.samples_mv)
    return digest.hexdigest()


def _key(doc: pymupdf.Document, xref: int, key: str, inherit: bool) -> tuple[str, str]:
    """``doc.xref_get_key``, looking up the page tree for an inheritable key."""
    seen = 0
    while True:
        kind, value = doc.xref_get_key(xref, key)
        if kind != "null" or not inherit:
            return kind, value
        parent_kind, parent = doc.xref_get_key(xref, "Parent")
        seen += 1
        if parent_kind != "xref" or seen > 64:
            return kind, value
        xref = int(parent.split()[0])


def _resolve(doc: pymupdf.Document, text: bytes, memo: dict[int, bytes]) -> bytes:
    """``text`` (an object's source) with every reference replaced by its target's hash."""
    text = _PARENT.sub(b"/Parent", text)
    return _REF.sub(lambda m: b"#" + _object_hash(doc, int(m.group(1)), memo), text)


def _object_hash(doc: pymupdf.Document, xref: int, memo: dict[int, bytes]) -> bytes:
    known = memo.get(xref)
    if known is not None:
        return known
    if len(memo) >= MAX_OBJECTS:
        raise _TooBig
    memo[xref] = b"cycle"  # NOTE: a reference back into the walk (invalid, but possible)
    digest = hashlib.sha256()
    if 0 < xref < doc.xref_length():
        digest.update(_resolve(doc, doc.xref_object(xref, compressed=True).encode(), memo))
        if doc.xref_is_stream(xref):
            raw: Any = doc.xref_stream_raw(xref)
            digest.update(b"stream" + (raw or b""))
    memo[xref] = digest.hexdigest().encode()
    return memo[xref]
