"""Structure files, the schema: a ``<book>.structure.json`` parsed and validated into data.

``load_structure_file(path or bytes)`` / ``parse_structure(obj, name)`` → ``StructureFile``
(validated: unknown keys, unknown op or kind, wrong types → one ``StructureFileError`` line naming
the op); ``structure_bytes`` is the one serialiser; ``check_book(sf, book)`` refuses a file written
for other bytes (sha256 differs). The JSON schema is in ``CHUNKING.md`` ("Structure files").
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from typing import Any


from ..errors import UnreadableInputError
from ..inputs import parse_json, read_bounded
from ..models import HEADING_KINDS, Book
from ..titles import MAX_TEXT_FIELD, safe_title
from ..version import __version__

FORMAT = "book-chunk-inspector/structure"
"""The ``format`` value every structure file carries."""
VERSION = 1
"""The schema version this package reads and writes."""
MAX_STRUCTURE_FILE_BYTES = 16 << 20
"""Largest structure file read (16 MiB, ~100,000 corrections); more is refused unread."""
MAX_CORRECTIONS = 100_000
"""Most corrections one file may hold."""
MAX_LEVEL = 9
"""Deepest heading level a correction may set."""
MATCH_MIN_SCORE = 80.0
"""rapidfuzz ratio (0-100) above which a line counts as the anchor's ``line_text``."""
CORRECTION_SOURCE = "correction"
"""``Heading.source`` of a heading a correction added; its evidence signal too."""

OPS = ("add", "remove", "move", "set")
"""The correction operations."""
_ANCHOR_KEYS = ("page", "line_text", "char_offset")
_TEXT_FIELDS = ("title", "number")
_FIELDS = ("kind", "level", "title", "number")
_KEYS = {
    "add": {"op", *_ANCHOR_KEYS, *_FIELDS},
    "remove": {"op", *_ANCHOR_KEYS},
    "move": {"op", "from", "to"},
    "set": {"op", *_ANCHOR_KEYS, *_FIELDS},
}
_REQUIRED = {
    "add": {"op", *_ANCHOR_KEYS, "kind", "level"},
    "remove": {"op", *_ANCHOR_KEYS},
    "move": {"op", "from", "to"},
    "set": {"op", *_ANCHOR_KEYS},
}
_TOP_KEYS = {"format", "version", "book_sha256", "engine_version", "book", "headings", "corrections"}


class StructureFileError(UnreadableInputError):
    """A structure file cannot be used: malformed, for another book, or a correction that does
    not apply (exit 3). The message names the file and the operation (index and op)."""


@dataclass(frozen=True)
class Anchor:
    """Where a correction points: a page, the text of a line on it, and a char offset.

    ``line_text`` is made safe on construction (``chunking.titles.safe_title``, cut at
    ``MAX_TEXT_FIELD``), whoever builds the anchor: the file's parser, the app, ``heading_anchor``."""

    page: int
    line_text: str
    char_offset: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "line_text", safe_title(self.line_text, MAX_TEXT_FIELD))

    def to_dict(self) -> dict[str, Any]:
        return {"page": self.page, "line_text": self.line_text, "char_offset": self.char_offset}


@dataclass(frozen=True)
class Correction:
    """One operation. ``anchor`` is the heading (remove, set, move's ``from``) or the line (add);
    ``to`` is move's target line; ``fields`` the kind/level/title/number given (add, set)."""

    op: str
    anchor: Anchor
    to: Anchor | None = None
    fields: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self) -> None:
        # NOTE: the one place a correction's title and number are made safe (surrogates, controls,
        # bidi controls, length): the structure file's parser and the app's form both build here.
        fields = tuple(
            (k, safe_title(v, MAX_TEXT_FIELD) if k in _TEXT_FIELDS and isinstance(v, str) else v)
            for k, v in self.fields
        )
        object.__setattr__(self, "fields", fields)

    def to_dict(self) -> dict[str, Any]:
        if self.op == "move":
            assert self.to is not None  # parse_correction gives every move its target
            return {"op": "move", "from": self.anchor.to_dict(), "to": self.to.to_dict()}
        return {"op": self.op, **self.anchor.to_dict(), **dict(self.fields)}


@dataclass(frozen=True)
class StructureFile:
    """A parsed structure file. ``sha256`` is of the file's bytes (``""`` when built in memory)."""

    book_sha256: str
    engine_version: str
    corrections: tuple[Correction, ...]
    sha256: str = ""
    name: str = "structure file"

    def digest(self) -> str:
        """16 hex digits naming the corrections (``""`` for none); ``apply_corrections`` records
        it as ``Book.corrections``, which salts the chunk ids."""
        return corrections_digest(self.corrections)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "book_sha256": self.book_sha256,
            "engine_version": self.engine_version or __version__,
            "corrections": [c.to_dict() for c in self.corrections],
        }

    def manifest_record(self) -> dict[str, Any]:
        """What the manifest keeps: the file's hash, the digest and every correction applied."""
        return {
            "sha256": self.sha256 or None,
            "digest": self.digest(),
            "engine_version": self.engine_version,
            "corrections": len(self.corrections),
            "ops": [c.to_dict() for c in self.corrections],
        }


def corrections_digest(corrections: tuple[Correction, ...] | list[Correction]) -> str:
    """sha256 (16 hex) of the corrections' canonical JSON; ``""`` when there are none."""
    if not corrections:
        return ""
    text = json.dumps(
        [c.to_dict() for c in corrections], sort_keys=True, ensure_ascii=False, separators=(",", ":")
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


# ---------------------------------------------------------------- parsing and validation


def _fail(name: str, where: str, message: str) -> StructureFileError:
    return StructureFileError(f"{name}: {where}: {message}")


def _shown(value: Any) -> str:
    """``repr(value)`` for a message, at most 60 characters (the file is untrusted input)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _anchor(obj: Any, name: str, where: str) -> Anchor:
    if not isinstance(obj, dict):
        raise _fail(name, where, "must be an object with page, line_text and char_offset")
    unknown = sorted(set(obj) - set(_ANCHOR_KEYS))
    if unknown:
        raise _fail(name, where, f"unknown key {_shown(unknown[0])} (known: {', '.join(_ANCHOR_KEYS)})")
    missing = [k for k in _ANCHOR_KEYS if k not in obj]
    if missing:
        raise _fail(name, where, f"missing key {missing[0]!r}")
    page, line, offset = obj["page"], obj["line_text"], obj["char_offset"]
    if not _int(page) or page < 1:
        raise _fail(name, where, f"page must be an integer >= 1, got {_shown(page)}")
    if not _int(offset) or offset < 0:
        raise _fail(name, where, f"char_offset must be an integer >= 0, got {_shown(offset)}")
    if not isinstance(line, str) or not safe_title(line).strip() or len(line) > MAX_TEXT_FIELD:
        raise _fail(
            name, where, f"line_text must be a non-empty string of at most {MAX_TEXT_FIELD} characters"
        )
    return Anchor(page, line, offset)


def _fields(obj: dict[str, Any], name: str, where: str) -> tuple[tuple[str, Any], ...]:
    out = []
    for key in _FIELDS:
        if key not in obj:
            continue
        value = obj[key]
        if key == "kind" and value not in HEADING_KINDS:
            raise _fail(name, where, f"unknown kind {_shown(value)} (known: {', '.join(HEADING_KINDS)})")
        if key == "level" and (not _int(value) or not 1 <= value <= MAX_LEVEL):
            raise _fail(name, where, f"level must be an integer from 1 to {MAX_LEVEL}, got {_shown(value)}")
        if key in ("title", "number") and (not isinstance(value, str) or len(value) > MAX_TEXT_FIELD):
            raise _fail(name, where, f"{key} must be a string of at most {MAX_TEXT_FIELD} characters")
        out.append((key, value))
    return tuple(out)


def parse_correction(obj: Any, index: int, name: str = "structure file") -> Correction:
    """Validate one correction object; errors name it as ``corrections[index] (op)``."""
    op = obj.get("op") if isinstance(obj, dict) else None
    where = f"corrections[{index}] ({' '.join(op.split())[:40] if isinstance(op, str) else '?'})"
    if not isinstance(obj, dict):
        raise _fail(name, where, "must be an object")
    if op not in OPS:
        raise _fail(name, where, f"unknown op {_shown(op)} (known: {', '.join(OPS)})")
    unknown = sorted(set(obj) - _KEYS[op])
    if unknown:
        raise _fail(name, where, f"unknown key {_shown(unknown[0])} (known: {', '.join(sorted(_KEYS[op]))})")
    missing = sorted(_REQUIRED[op] - set(obj))
    if missing:
        raise _fail(name, where, f"missing key {missing[0]!r}")
    if op == "move":
        return Correction(
            "move", _anchor(obj["from"], name, f"{where} from"), _anchor(obj["to"], name, f"{where} to")
        )
    fields = _fields(obj, name, where)
    if op == "set" and not fields:
        raise _fail(name, where, "changes nothing: give kind, level, title or number")
    return Correction(op, _anchor({k: obj[k] for k in _ANCHOR_KEYS}, name, where), None, fields)


def parse_structure(obj: Any, name: str = "structure file", sha256: str = "") -> StructureFile:
    """Validate a decoded structure file (``CHUNKING.md`` has the schema).

    Raises:
        StructureFileError: one line naming the file, the key or ``corrections[i] (op)``.
    """
    if not isinstance(obj, dict):
        raise StructureFileError(f"{name}: not a structure file (a JSON object is expected)")
    unknown = sorted(set(obj) - _TOP_KEYS)
    if unknown:
        raise StructureFileError(
            f"{name}: unknown key {_shown(unknown[0])} (known: {', '.join(sorted(_TOP_KEYS))})"
        )
    if obj.get("format") != FORMAT:
        raise StructureFileError(f"{name}: not a structure file (format must be {FORMAT!r})")
    if obj.get("version") != VERSION or not _int(obj.get("version")):
        raise StructureFileError(
            f"{name}: version {_shown(obj.get('version'))} is not supported (this version reads {VERSION})"
        )
    sha = obj.get("book_sha256")
    if not isinstance(sha, str) or len(sha) != 64 or any(c not in "0123456789abcdef" for c in sha):
        raise StructureFileError(f"{name}: book_sha256 must be 64 lowercase hex digits")
    engine = obj.get("engine_version", "")
    if not isinstance(engine, str):
        raise StructureFileError(f"{name}: engine_version must be a string")
    if not isinstance(obj.get("headings", []), list):
        raise StructureFileError(f"{name}: headings must be a list")
    ops = obj.get("corrections")
    if not isinstance(ops, list):
        raise StructureFileError(f"{name}: corrections must be a list of operations")
    if len(ops) > MAX_CORRECTIONS:
        raise StructureFileError(f"{name}: {len(ops)} corrections, more than the {MAX_CORRECTIONS} limit")
    corrections = tuple(parse_correction(op, i, name) for i, op in enumerate(ops))
    return StructureFile(sha, engine, corrections, sha256, name)


def load_structure_file(
    source: bytes | str | os.PathLike, *, name: str | None = None, book_sha256: str | None = None
) -> StructureFile:
    """The one loader of structure files: from a path (``--structure-file``, batch) or the
    file's bytes (the app's upload), validated the same way.

    Args:
        source (bytes | str | os.PathLike): the file's bytes, or its path (a regular file).
        name (str | None): the name messages use. Defaults to the path, or ``"structure file"``.
        book_sha256 (str | None): when given, a file written for other book bytes is refused
            (``check_book``). Defaults to None.

    Returns:
        StructureFile: its ``sha256`` is that of the bytes read.

    Raises:
        StructureFileError: one line naming the file: unreadable or larger than
            ``MAX_STRUCTURE_FILE_BYTES``, not UTF-8 JSON (or nested too deeply), invalid (naming
            the key or the operation), or for another book.
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        name = name or "structure file"
        data = bytes(source)
        if len(data) > MAX_STRUCTURE_FILE_BYTES:
            raise StructureFileError(f"{name}: larger than the {MAX_STRUCTURE_FILE_BYTES >> 20} MiB limit")
    else:
        name = name or str(source)
        data = read_bounded(source, MAX_STRUCTURE_FILE_BYTES, name, "structure file", StructureFileError)
    obj = parse_json(data, name, StructureFileError)
    sf = parse_structure(obj, name, hashlib.sha256(data).hexdigest())
    if book_sha256 is not None:
        check_book(sf, book_sha256)
    return sf


def structure_bytes(obj: StructureFile | dict[str, Any]) -> bytes:
    """The one serialiser: a structure file (or the dict ``engine_structure`` builds) as the
    UTF-8 JSON ``load_structure_file`` reads (``outline --write-structure``, the app's download)."""
    if isinstance(obj, StructureFile):
        obj = obj.to_dict()
    return (json.dumps(obj, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def too_big_to_read(data: bytes) -> str | None:
    """Why ``data`` (``structure_bytes``' output) could not be read back by ``load_structure_file``
    (larger than ``MAX_STRUCTURE_FILE_BYTES``), or None: what this package writes, it reads."""
    if len(data) <= MAX_STRUCTURE_FILE_BYTES:
        return None
    return (
        f"the structure file would be {len(data)} bytes, larger than the "
        f"{MAX_STRUCTURE_FILE_BYTES >> 20} MiB limit --structure-file reads"
    )


def check_book(sf: StructureFile, book: Book | str) -> None:
    """Refuse a structure file written for another book (its ``book_sha256`` differs from the
    book's, or from the sha256 given)."""
    sha = book if isinstance(book, str) else book.sha256
    if sf.book_sha256 != sha:
        raise StructureFileError(
            f"{sf.name}: written for another book (book_sha256 {sf.book_sha256[:16]}…, "
            f"this book {sha[:16]}…); refused"
        )


def load_optional(path: str | os.PathLike | None) -> StructureFile | None:
    """``--structure-file``: the parsed file, or None when the option is absent."""
    if path is None:
        return None
    if not str(path).strip():
        raise StructureFileError("--structure-file: the path is empty")
    return load_structure_file(path)
