"""``python -m chunking validate CHUNKS [--manifest M] [--book B]``: re-check exported chunks (rules 1–8).

The manifest (default ``<CHUNKS name>.manifest.json``) names the policy and the book (path and
sha256); the book is read again (from ``--book`` when given: a book that moved since; else the
manifest's path, else its file name next to the manifest), tokenized, and the chunks are
checked against it with ``chunking.validate``. The book's sha256 must match in every case. The
structure corrections the manifest records (``structure.file.ops``) are applied again, and the
corrected book salts the ids the chunks must have; a manifest whose recorded digest
(``corrections``, ``structure.file.digest``) is not that of its ops fails rule 7: its ids cannot
be those of its corrections. Exit 0 valid, 4 invalid (one line naming the rule and the chunk; rule 8: a broken link), 3
when the chunks, the manifest or the book cannot be read or the book has changed, and when a
manifest or chunk field has the wrong type (a number or a list where a path belongs, a policy
value of the wrong type, a float ``order``): a malformed file, named in one line, never a
traceback.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from ..errors import PolicyError, UnreadableInputError, ValidationFailure
from ..export import find_manifest, read_chunks
from ..inputs import MAX_MANIFEST_BYTES, load_json
from ..policy import Policy


def _load_manifest(path: Path) -> dict[str, Any]:
    if not os.path.lexists(path):
        raise UnreadableInputError(f"{path}: no manifest (give it with --manifest)")
    manifest = load_json(path, MAX_MANIFEST_BYTES, str(path), "manifest")
    if (
        not isinstance(manifest, dict)
        or not isinstance(manifest.get("policy"), dict)
        or not isinstance(manifest.get("book"), dict)
    ):
        raise UnreadableInputError(f"{path}: manifest lacks 'policy' or 'book'")
    book = manifest["book"]
    for key in _BOOK_STRINGS:
        if book.get(key) is not None and not isinstance(book[key], str):
            raise UnreadableInputError(
                f"{path}: manifest field book.{key} must be a string, not a {type(book[key]).__name__}"
            )
    return manifest


_BOOK_STRINGS = ("path", "source_name", "sha256")
"""``book`` fields of the manifest that must be strings (or absent) before they are used."""


def _policy(meta: dict[str, Any], manifest_file: Path) -> Policy:
    """The manifest's policy; any field of the wrong type or value is a malformed manifest (exit 3).

    ``policy.corrections`` (the digest, kept in the policy before ``Book.corrections``) is left
    out: ``_claimed`` reads it."""
    try:
        return Policy(**{k: v for k, v in meta["policy"].items() if k != "corrections"})
    except TypeError as exc:
        raise UnreadableInputError(
            f"{manifest_file}: its policy does not match this version: {exc}"
        ) from None
    except PolicyError as exc:
        raise UnreadableInputError(f"{manifest_file}: its policy is malformed: {exc}") from None


def _book_path(manifest: dict[str, Any], manifest_file: Path, given: str | None = None) -> Path:
    """The book to check against: ``given`` (``--book``), else the manifest's recorded path, else
    its path relative to the manifest's folder (a book and its outputs moved together), else its
    file name next to the manifest."""
    if given is not None:
        if not Path(given).is_file():
            raise UnreadableInputError(f"{given}: no such book file (--book)")
        return Path(given)
    book = manifest["book"]
    candidates = [Path(book["path"])] if book.get("path") else []
    if isinstance(book.get("relative_path"), str):
        candidates.append(manifest_file.parent / book["relative_path"])
    if book.get("source_name"):
        candidates.append(manifest_file.parent / book["source_name"])
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    raise UnreadableInputError(
        f"{manifest_file}: the book it names ({book.get('path') or book.get('source_name')}) "
        f"is not there; the chunks cannot be checked without it"
    )


def _record(meta: dict[str, Any]) -> Any:
    """``structure.file`` of the manifest (the structure file applied), or None."""
    return (meta.get("structure") or {}).get("file") if isinstance(meta.get("structure"), dict) else None


def _corrected(book, meta: dict[str, Any], manifest_file: Path):
    """The book with the structure corrections the manifest records (``structure.file.ops``)."""
    from ..structure_file import apply_corrections, parse_correction

    record = _record(meta)
    if not record:
        return book
    ops = record.get("ops") if isinstance(record, dict) else None
    if not isinstance(ops, list):
        raise UnreadableInputError(f"{manifest_file}: structure.file.ops must be a list of corrections")
    name = f"{manifest_file} structure.file.ops"
    corrections = tuple(parse_correction(op, i, name) for i, op in enumerate(ops))
    return apply_corrections(book, corrections, name=name)


def _claimed(meta: dict[str, Any], manifest_file: Path, actual: str) -> str | None:
    """The corrections digest the manifest claims its ids were salted with: ``corrections``
    (older manifests: ``policy.corrections``) and ``structure.file.digest``; the first that is
    not ``actual`` (the digest of its ops), else ``actual``; None when it claims none."""
    record = _record(meta)
    claims = [
        meta["corrections"] if "corrections" in meta else meta["policy"].get("corrections"),
        record.get("digest") if isinstance(record, dict) else None,
    ]
    claims = [c for c in claims if c is not None]
    for claim in claims:
        if not isinstance(claim, str):
            raise UnreadableInputError(f"{manifest_file}: a corrections digest must be a string")
    return next((c for c in claims if c != actual), actual if claims else None)


def run(*, chunks: str, manifest: str | None, book: str | None = None) -> int:
    """Validate an exported chunk file against its book and policy.

    Args:
        chunks (str): the chunk file (``.jsonl``, ``.csv``, ``.parquet``; LangChain JSONL too).
        manifest (str | None): the manifest; default ``<chunks name>.manifest.json`` (or the legacy ``<chunks stem>.manifest.json``, ``find_manifest``).
        book (str | None): the book's file, when it moved since the chunks were written.

    Returns:
        int: 0 when rules 1–8 hold.

    Raises:
        UnreadableInputError: chunks, manifest or book unreadable, or the book changed (exit 3).
        UnreadableInputError: also a manifest or chunk field of the wrong type (exit 3).
        ValidationFailure: a rule is broken (exit 4).
    """
    from ..ingest import _read_source, load_book
    from ..tokens import tokenize
    from ..validate import validate_chunks

    manifest_file = Path(manifest) if manifest else find_manifest(chunks)
    meta = _load_manifest(manifest_file)
    policy = _policy(meta, manifest_file)
    chunk_list, _ = read_chunks(chunks)
    book_file = _book_path(meta, manifest_file, book)
    data, _ = _read_source(book_file, None)
    if hashlib.sha256(data).hexdigest() != meta["book"].get("sha256"):
        raise UnreadableInputError(
            f"{book_file}: the book changed since the chunks were written (sha256 differs)"
        )
    loaded = _corrected(load_book(data, name=book_file.name, **policy.read_options()), meta, manifest_file)
    claimed = _claimed(meta, manifest_file, loaded.corrections)
    report = validate_chunks(chunk_list, tokenize(loaded, policy.encoding), policy, corrections=claimed)
    if not report.ok:
        raise ValidationFailure(f"{chunks}: {report.message}")
    print(f"{chunks}: valid: {report.message}")
    return 0
