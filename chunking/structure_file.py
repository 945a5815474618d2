"""Structure files: a user's corrections to a book's structure, kept as data beside the book.

A ``<book>.structure.json`` holds operations anchored to the text (page + line text + char offset),
not heading indices, so it still applies when a later engine finds slightly different headings.
The JSON schema is in ``CHUNKING.md`` ("Structure files"). The pieces:

* ``load_structure_file(path)`` / ``parse_structure(obj, name)`` → ``StructureFile`` (validated:
  unknown keys, unknown op or kind, wrong types → one ``StructureFileError`` line naming the op);
* ``apply_corrections(book, corrections)`` → a new ``Book`` with corrected headings. Pure: it
  never re-reads the file or re-tokenizes, so the app can re-chunk at once;
* ``check_book(sf, book)`` refuses a file written for other bytes (sha256 differs);
* ``engine_structure(book)`` → the dict ``outline --write-structure`` writes (the engine's
  headings with their anchors, and no corrections) and ``heading_anchor``/``page_lines`` for the app.

Every error is a ``StructureFileError`` (exit 3, like any input that cannot be used).
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz

from .atomic import atomic_write
from .errors import UnreadableInputError
from .models import HEADING_KINDS, Book, Heading
from .rules import PageIndex
from .version import __version__

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
MAX_TEXT_FIELD = 1_000
"""Longest ``line_text``, ``title`` or ``number`` in a correction (characters)."""
MATCH_MIN_SCORE = 80.0
"""rapidfuzz ratio (0-100) above which a line counts as the anchor's ``line_text``."""
CORRECTION_SOURCE = "correction"
"""``Heading.source`` of a heading a correction added; its evidence signal too."""

OPS = ("add", "remove", "move", "set")
"""The correction operations."""
_ANCHOR_KEYS = ("page", "line_text", "char_offset")
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
    """Where a correction points: a page, the text of a line on it, and a char offset."""

    page: int
    line_text: str
    char_offset: int

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
        """16 hex digits naming the corrections (``""`` for none): it salts chunk ids."""
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


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _anchor(obj: Any, name: str, where: str) -> Anchor:
    if not isinstance(obj, dict):
        raise _fail(name, where, "must be an object with page, line_text and char_offset")
    unknown = sorted(set(obj) - set(_ANCHOR_KEYS))
    if unknown:
        raise _fail(name, where, f"unknown key {unknown[0]!r} (known: {', '.join(_ANCHOR_KEYS)})")
    missing = [k for k in _ANCHOR_KEYS if k not in obj]
    if missing:
        raise _fail(name, where, f"missing key {missing[0]!r}")
    page, line, offset = obj["page"], obj["line_text"], obj["char_offset"]
    if not _int(page) or page < 1:
        raise _fail(name, where, f"page must be an integer >= 1, got {page!r}")
    if not _int(offset) or offset < 0:
        raise _fail(name, where, f"char_offset must be an integer >= 0, got {offset!r}")
    if not isinstance(line, str) or not line.strip() or len(line) > MAX_TEXT_FIELD:
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
            raise _fail(name, where, f"unknown kind {value!r} (known: {', '.join(HEADING_KINDS)})")
        if key == "level" and (not _int(value) or not 1 <= value <= MAX_LEVEL):
            raise _fail(name, where, f"level must be an integer from 1 to {MAX_LEVEL}, got {value!r}")
        if key in ("title", "number") and (not isinstance(value, str) or len(value) > MAX_TEXT_FIELD):
            raise _fail(name, where, f"{key} must be a string of at most {MAX_TEXT_FIELD} characters")
        out.append((key, value))
    return tuple(out)


def parse_correction(obj: Any, index: int, name: str = "structure file") -> Correction:
    """Validate one correction object; errors name it as ``corrections[index] (op)``."""
    op = obj.get("op") if isinstance(obj, dict) else None
    where = f"corrections[{index}] ({op if isinstance(op, str) else '?'})"
    if not isinstance(obj, dict):
        raise _fail(name, where, "must be an object")
    if op not in OPS:
        raise _fail(name, where, f"unknown op {op!r} (known: {', '.join(OPS)})")
    unknown = sorted(set(obj) - _KEYS[op])
    if unknown:
        raise _fail(name, where, f"unknown key {unknown[0]!r} (known: {', '.join(sorted(_KEYS[op]))})")
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
            f"{name}: unknown key {unknown[0]!r} (known: {', '.join(sorted(_TOP_KEYS))})"
        )
    if obj.get("format") != FORMAT:
        raise StructureFileError(f"{name}: not a structure file (format must be {FORMAT!r})")
    if obj.get("version") != VERSION or not _int(obj.get("version")):
        raise StructureFileError(
            f"{name}: version {obj.get('version')!r} is not supported (this version reads {VERSION})"
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


def load_structure_file(path: str | os.PathLike) -> StructureFile:
    """Read and validate a structure file (a regular file of at most ``MAX_STRUCTURE_FILE_BYTES``).

    Raises:
        StructureFileError: unreadable, not JSON, or invalid (one line naming the operation).
    """
    name = str(path)
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise StructureFileError(f"{name}: not a regular file; give a structure file")
        if info.st_size > MAX_STRUCTURE_FILE_BYTES:
            raise StructureFileError(f"{name}: larger than the {MAX_STRUCTURE_FILE_BYTES >> 20} MiB limit")
        with open(path, "rb") as fh:
            data = fh.read(MAX_STRUCTURE_FILE_BYTES + 1)
    except FileNotFoundError:
        raise StructureFileError(f"{name}: no such structure file") from None
    except OSError as exc:
        raise StructureFileError(f"{name}: cannot be read: {exc.strerror or type(exc).__name__}") from None
    if len(data) > MAX_STRUCTURE_FILE_BYTES:
        raise StructureFileError(f"{name}: larger than the {MAX_STRUCTURE_FILE_BYTES >> 20} MiB limit")
    try:
        obj = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise StructureFileError(f"{name}: not valid JSON ({type(exc).__name__})") from None
    return parse_structure(obj, name, hashlib.sha256(data).hexdigest())


def check_book(sf: StructureFile, book: Book) -> None:
    """Refuse a structure file written for another book (its ``book_sha256`` differs)."""
    if sf.book_sha256 != book.sha256:
        raise StructureFileError(
            f"{sf.name}: written for another book (book_sha256 {sf.book_sha256[:16]}…, "
            f"this book {book.sha256[:16]}…); refused"
        )


# ---------------------------------------------------------------- anchors and lines


def line_span(text: str, offset: int) -> tuple[int, int]:
    """``[start, end)`` of the line of ``text`` holding ``offset`` (without its newline)."""
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    return start, len(text) if end < 0 else end


def _norm(line: str) -> str:
    return " ".join(line.split()).casefold()


def heading_anchor(book: Book, heading: Heading) -> Anchor:
    """The anchor that finds ``heading`` again: its page, its line's text and its offset."""
    a, b = line_span(book.text, heading.char_offset)
    return Anchor(heading.page, " ".join(book.text[a:b].split()) or heading.title or "?", heading.char_offset)


def page_lines(book: Book, page: int) -> list[tuple[int, str]]:
    """Every non-blank line of ``page`` as ``(offset of its first non-space character, text)``:
    the lines a user can pick to add a heading at (the app's "pick page, then the line")."""
    if not 1 <= page <= len(book.pages):
        return []
    p = book.pages[page - 1]
    out, pos = [], p.char_start
    for line in book.text[p.char_start : p.char_end].split("\n"):
        if line.strip():
            out.append((pos + len(line) - len(line.lstrip()), line.strip()))
        pos += len(line) + 1
    return out


def _score(a: str, b: str) -> float:
    return float(fuzz.ratio(_norm(a), _norm(b)))


def _page_of(book: Book, offset: int) -> int:
    """1-based page holding ``offset`` (``rules.PageIndex``)."""
    return PageIndex(book.pages).number_at(offset)


def _check_anchor(book: Book, a: Anchor, name: str, where: str) -> None:
    if a.page > len(book.pages):
        raise _fail(name, where, f"page {a.page} is past the book's last page ({len(book.pages)})")
    if a.char_offset > len(book.text):
        raise _fail(
            name, where, f"char_offset {a.char_offset} is past the text ({len(book.text)} characters)"
        )


def _find_heading(book: Book, headings: list[Heading], a: Anchor, name: str, where: str) -> int:
    """Index of the heading ``a`` names: the one at ``a.char_offset``, else the one on ``a.page``
    whose line matches ``a.line_text`` (fuzzy), nearest the offset."""
    _check_anchor(book, a, name, where)
    for i, h in enumerate(headings):
        if h.char_offset == a.char_offset:
            return i
    best: tuple[int, float, int] | None = None
    for i, h in enumerate(headings):
        if h.page != a.page:
            continue
        s, e = line_span(book.text, h.char_offset)
        score = max(_score(book.text[s:e], a.line_text), _score(book.text[h.char_offset : e], a.line_text))
        if score >= MATCH_MIN_SCORE:
            key = (abs(h.char_offset - a.char_offset), -score, i)
            best = key if best is None or key < best else best
    if best is None:
        raise _fail(
            name,
            where,
            f"no heading on page {a.page} matches {a.line_text[:80]!r} "
            f"(none starts at char {a.char_offset} either)",
        )
    return best[2]


def _find_line(book: Book, a: Anchor, name: str, where: str) -> int:
    """The char offset ``a`` names as a place for a heading: ``a.char_offset`` itself when its
    line matches ``a.line_text``, else the start of the matching line on ``a.page`` nearest it."""
    _check_anchor(book, a, name, where)
    p = book.pages[a.page - 1]
    e = line_span(book.text, a.char_offset)[1]
    # NOTE: the offset itself only when the text from it matches (a heading mid-line); an offset
    # inside a matching line falls through to that line's start below.
    if (
        p.char_start <= a.char_offset < p.char_end
        and book.text[a.char_offset : e].strip()
        and _score(book.text[a.char_offset : e], a.line_text) >= MATCH_MIN_SCORE
    ):
        return a.char_offset
    best: tuple[int, float, int] | None = None
    for offset, line in page_lines(book, a.page):
        score = _score(line, a.line_text)
        if score >= MATCH_MIN_SCORE:
            key = (abs(offset - a.char_offset), -score, offset)
            best = key if best is None or key < best else best
    if best is None:
        raise _fail(name, where, f"no line on page {a.page} matches {a.line_text[:80]!r}")
    return best[2]


# ---------------------------------------------------------------- applying


def apply_corrections(
    book: Book,
    corrections: StructureFile | tuple[Correction, ...] | list[Correction],
    *,
    name: str | None = None,
) -> Book:
    """Return ``book`` with its headings corrected; pure (no re-reading, no tokenizing).

    Operations apply in order, each to the headings the previous ones left, so a ``set`` may
    name a heading an ``add`` made. Headings end sorted by ``char_offset``.

    Args:
        book (Book): the book as ``load_book`` read it.
        corrections: a ``StructureFile`` or its corrections.
        name (str | None): the file name for messages. Defaults to the structure file's name.

    Returns:
        Book: the same text and pages, corrected headings, ``headings_per_level`` recounted.

    Raises:
        StructureFileError: an anchor past the text or matching nothing, an add or move onto
            an existing heading, or a move that overlaps an earlier move (names the op).
    """
    if isinstance(corrections, StructureFile):
        name = name or corrections.name
        corrections = corrections.corrections
    name = name or "structure file"
    if not corrections:
        return book
    headings = list(book.headings)
    moved: dict[int, int] = {}  # char offset of a moved heading -> index of the move that put it there
    moved_from: dict[int, int] = {}  # original char offset -> index of the move that took it away
    for index, c in enumerate(corrections):
        where = f"corrections[{index}] ({c.op})"
        if c.op == "add":
            at = _find_line(book, c.anchor, name, where)
            _refuse_taken(headings, at, name, where)
            values = dict(c.fields)
            page = _page_of(book, at)
            a, b = line_span(book.text, at)
            headings.append(
                Heading(
                    level=values["level"],
                    kind=values["kind"],
                    title=values.get("title") or " ".join(book.text[at:b].split()),
                    number=values.get("number", ""),
                    page=page,
                    page_label=book.pages[page - 1].label,
                    char_offset=at,
                    source=CORRECTION_SOURCE,
                    evidence=(_note(where, name),),
                    confidence=1.0,
                )
            )
        elif c.op == "remove":
            headings.pop(_find_heading(book, headings, c.anchor, name, where))
        elif c.op == "set":
            i = _find_heading(book, headings, c.anchor, name, where)
            h = headings[i]
            headings[i] = replace(h, **dict(c.fields), evidence=(*h.evidence, _note(where, name)))
        else:
            if c.anchor.char_offset in moved_from:
                raise _fail(
                    name,
                    where,
                    f"overlaps corrections[{moved_from[c.anchor.char_offset]}] (move): "
                    "both move the same heading",
                )
            i = _find_heading(book, headings, c.anchor, name, where)
            h = headings[i]
            if h.char_offset in moved:
                raise _fail(
                    name,
                    where,
                    f"overlaps corrections[{moved[h.char_offset]}] (move): it moves the "
                    "heading that move put there",
                )
            assert c.to is not None  # parse_correction gives every move its target
            at = _find_line(book, c.to, name, f"{where} to")
            if at in moved:
                raise _fail(
                    name, where, f"overlaps corrections[{moved[at]}] (move): both move a heading to char {at}"
                )
            _refuse_taken([x for j, x in enumerate(headings) if j != i], at, name, where)
            page = _page_of(book, at)
            headings[i] = replace(
                h,
                char_offset=at,
                page=page,
                page_label=book.pages[page - 1].label,
                evidence=(*h.evidence, _note(where, name)),
            )
            moved[at] = moved_from[h.char_offset] = index
    headings.sort(key=lambda h: (h.char_offset, h.level))
    per_level: dict[str, int] = {}
    for h in headings:
        per_level[str(h.level)] = per_level.get(str(h.level), 0) + 1
    diagnostics = replace(book.diagnostics, headings_per_level=dict(sorted(per_level.items())))
    return replace(book, headings=tuple(headings), diagnostics=diagnostics)


def _note(where: str, name: str) -> tuple[str, str]:
    """The evidence pair a corrected heading carries: which correction of which file."""
    return CORRECTION_SOURCE, f"{where} in {Path(name).name}"


def _refuse_taken(headings: list[Heading], at: int, name: str, where: str) -> None:
    for h in headings:
        if h.char_offset == at:
            raise _fail(
                name,
                where,
                f"page {h.page} already has a heading at char {at} ({h.title[:60]!r}); "
                "use a set operation to change it",
            )


# ---------------------------------------------------------------- writing


def engine_structure(book: Book) -> dict[str, Any]:
    """The structure file ``outline --write-structure`` writes: the engine's headings, each with
    the anchor a correction would use (copy it into a ``remove``/``set``/``move``), and no
    corrections. ``headings`` is a record for people; only ``corrections`` change anything."""

    headings = []
    for h in book.headings:
        a = heading_anchor(book, h)
        headings.append(
            {
                **a.to_dict(),
                "kind": h.kind,
                "level": h.level,
                "title": h.title,
                "number": h.number,
                "page_label": h.page_label,
                "source": h.source,
                "confidence": h.confidence,
            }
        )
    return {
        "format": FORMAT,
        "version": VERSION,
        "book_sha256": book.sha256,
        "engine_version": __version__,
        "book": book.source_name,
        "headings": headings,
        "corrections": [],
    }


def structure_beside(book_path: str | os.PathLike) -> Path:
    """``<book>.structure.json`` beside ``book_path`` (``ch.pdf`` → ``ch.pdf.structure.json``)."""
    p = Path(book_path)
    return p.with_name(p.name + ".structure.json")


def load_optional(path: str | os.PathLike | None) -> StructureFile | None:
    """``--structure-file``: the parsed file, or None when the option is absent."""
    if path is None:
        return None
    if not str(path).strip():
        raise StructureFileError("--structure-file: the path is empty")
    return load_structure_file(path)


def salted(policies: list, sf: StructureFile | None) -> list:
    """The policies with ``corrections`` set to the file's digest, so ids change with it."""
    if sf is None:
        return list(policies)
    return [p.with_(corrections=sf.digest()) for p in policies]


def check_target(out: str | os.PathLike, book: str | os.PathLike, option: str) -> Path:
    """Refuse an output of ``option`` that is empty, a folder, not a regular file, or the book
    itself (same path, or the same file through a symlink or hard link)."""
    from .errors import UsageError

    if not str(out).strip():
        raise UsageError(f"{option}: the output path is empty")
    target = Path(out)
    try:
        book_info = os.stat(book)
    except OSError:
        book_info = None
    try:
        info = os.stat(target)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise UsageError(f"{option} {target}: cannot use it: {exc.strerror}") from None
    if info is not None:
        if stat.S_ISDIR(info.st_mode):
            raise UsageError(f"{option} {target}: is a folder; give a file name")
        if not stat.S_ISREG(info.st_mode):
            raise UsageError(f"{option} {target}: not a regular file (a device, FIFO or socket)")
        if book_info is not None and (info.st_dev, info.st_ino) == (book_info.st_dev, book_info.st_ino):
            raise UsageError(f"{option} {target}: is the book itself; writing it would destroy the book")
    if os.path.abspath(target) == os.path.abspath(book):
        raise UsageError(f"{option} {target}: is the book itself; writing it would destroy the book")
    parent = target.parent
    if parent.exists() and not parent.is_dir():
        raise UsageError(f"{option} {target}: {parent} is a file, not a folder")
    return target


def save_structure(obj: dict[str, Any], out: str | os.PathLike) -> None:
    """Write a structure file atomically (temp file + rename; nothing left on failure)."""

    text = json.dumps(obj, ensure_ascii=False, indent=1) + "\n"
    atomic_write(Path(out), lambda fh: fh.write(text.encode("utf-8")))


def toc_entries(book: Book) -> list[list[Any]]:
    """The headings as a PyMuPDF outline ``[[level, title, page], …]``: levels made valid for
    ``set_toc`` (the first is 1, each at most one deeper than the one before)."""
    out: list[list[Any]] = []
    prev = 0
    for h in book.headings:
        level = max(1, min(h.level, prev + 1))
        title = " ".join(f"{h.number} {h.title}".split()) if h.number else " ".join(h.title.split())
        out.append([level, title or "Untitled", h.page])
        prev = level
    return out


def write_pdf_outline(book_path: str | os.PathLike, book: Book, out: str | os.PathLike) -> int:
    """Write a copy of the PDF at ``book_path`` whose outline is ``book``'s headings, atomically.

    The pages are copied untouched (only the outline changes). Returns the entries written.

    Raises:
        StructureFileError: the file changed since it was read, or PyMuPDF refuses it.
        OutputError: ``out`` cannot be written (no temp file is left).
    """
    import pymupdf

    with open(book_path, "rb") as fh:
        data = fh.read()
    if hashlib.sha256(data).hexdigest() != book.sha256:
        raise StructureFileError(f"{book_path}: the book changed while it was read; run again")
    entries = toc_entries(book)
    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
        try:
            doc.set_toc(entries)
            payload = doc.tobytes()
        finally:
            doc.close()
    except (RuntimeError, ValueError) as exc:
        raise StructureFileError(f"{book_path}: PyMuPDF cannot write its outline: {exc}") from None
    atomic_write(Path(out), lambda fh: fh.write(payload))
    return len(entries)
