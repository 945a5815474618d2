"""Stage 7 (export): chunk files (JSONL, CSV, Parquet, LangChain JSONL), the manifest, read-back.

Contract (``CHUNKING.md`` documents each schema):

* ``render(chunks, fmt)`` → bytes, and ``write_chunks(chunks, fh, fmt)`` streams the same bytes into
  a binary file object one chunk at a time (what the CLI uses: no whole-file copy). ``jsonl``: one
  JSON object per chunk with exactly ``CHUNK_FIELDS``; ``csv``: the same columns, ``heading_path``
  as a JSON string; ``parquet``: the same columns, ``heading_path`` a list of strings;
  ``langchain``: JSONL of
  ``{"page_content": text, "metadata": {every other field}}``. Output is deterministic (rule 7).
* ``build_manifest(tokenized, policy, chunks, report)`` → the run's manifest dict.
* ``write_outputs(chunks, manifest, out_path, fmt)`` writes the chunk file and
  ``<OUT name>.manifest.json`` (``manifest_path``; readers use ``find_manifest``, which also takes
  the legacy ``<OUT stem>.manifest.json``) atomically (temp file + rename): a failed run leaves no file.
* ``read_chunks(path)`` reads any of the four formats back into ``Chunk``s (for ``validate``).
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, BinaryIO

from .atomic import replace_all, tidy_temps, unlink_quietly, write_temp
from .errors import UnreadableInputError, UsageError
from .inputs import MAX_CHUNK_FILE_BYTES, MAX_JSON_DEPTH, json_depth, read_bounded
from .matter import Exclusion
from .models import CHUNK_FIELDS, LINK_FIELDS, Chunk
from .policy import Policy
from .rules import EXPORT_FORMATS, EXPORT_READ_ALIASES, export_format
from .targets import Named, check_output
from .tokens import TokenizedBook
from .version import __version__

FORMATS = tuple(EXPORT_FORMATS)
"""Export formats, as ``--format`` names them (``chunking.rules.EXPORT_FORMATS``)."""

_INT_FIELDS = (
    "order",
    "page_start",
    "page_end",
    "token_start",
    "token_end",
    "token_count",
    "char_start",
    "char_end",
    "overlap_prev_tokens",
)
_STR_FIELDS = (
    "id",
    "book_id",
    "text",
    "chapter",
    "section",
    "page_label_start",
    "page_label_end",
    "end_reason",
    "matter",
    *LINK_FIELDS,
)
_OPTIONAL_FIELDS = ("matter",)
"""Fields a chunk file written before they existed lacks; they read back as ``""``."""
_BOOL_FIELDS = ("ocr",)
_BOOL_TEXT = {"true": True, "false": False}
"""How CSV spells a boolean (Python's ``True``/``False``; JSON's ``true``/``false`` read too)."""


def format_for_path(path: str | os.PathLike | None, fmt: str | None) -> str:
    """Pick the export format: ``fmt`` when given, else from the file extension
    (``chunking.rules.export_format``: ``.langchain.jsonl`` is LangChain), else ``jsonl``.

    Raises:
        UsageError: ``fmt`` is not one of ``FORMATS``.
    """
    if fmt:
        _check_format(fmt)
        return fmt
    return (export_format(Path(path).name) or "jsonl") if path else "jsonl"


_JSON_LINE = json.JSONEncoder(ensure_ascii=False).encode
"""``json.dumps(value, ensure_ascii=False)`` without building a new encoder per record (what
``json.dumps`` does for any non-default option)."""


def _text_lines(chunks: Sequence[Chunk], fmt: str) -> Iterator[str]:
    """The lines of a text format, one chunk at a time (so files are written as a stream)."""
    if fmt == "jsonl":
        for c in chunks:
            yield _JSON_LINE(c.to_dict()) + "\n"
    elif fmt == "langchain":
        for c in chunks:
            meta = c.to_dict()
            yield _JSON_LINE({"page_content": meta.pop("text"), "metadata": meta}) + "\n"
    else:
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(CHUNK_FIELDS)
        for c in chunks:
            row = c.to_dict()
            row["heading_path"] = _JSON_LINE(row["heading_path"])
            writer.writerow([row[f] for f in CHUNK_FIELDS])
            yield buf.getvalue()
            buf.seek(0)
            buf.truncate()
        yield buf.getvalue()


def _check_format(fmt: str) -> None:
    if fmt not in FORMATS:
        raise UsageError(f"--format must be one of {', '.join(FORMATS)}; got {fmt!r}")


def render(chunks: Sequence[Chunk], fmt: str) -> bytes:
    """Serialise chunks in one export format.

    Args:
        chunks (Sequence[Chunk]): chunks in order.
        fmt (str): ``jsonl``, ``csv``, ``parquet`` or ``langchain``.

    Returns:
        bytes: the file's content (UTF-8 for the text formats), exactly what ``write_chunks``
        writes.

    Raises:
        UsageError: unknown format.
    """
    buf = io.BytesIO()
    write_chunks(chunks, buf, fmt)
    # NOTE: BytesIO.getvalue hands over its buffer without a copy when no view of it is held.
    return buf.getvalue()


def write_chunks(chunks: Sequence[Chunk], fh: BinaryIO, fmt: str) -> None:
    """Write chunks in one export format into a binary file object, one record at a time.

    Text formats are never held whole in memory (a 2,000-page book's JSONL is ~7 MB, held three
    times over when joined, then encoded); Parquet is written as one table (it is columnar).

    Args:
        chunks (Sequence[Chunk]): chunks in order.
        fh (BinaryIO): an open binary file (``sys.stdout.buffer``, a temp file, ``BytesIO``).
        fmt (str): ``jsonl``, ``csv``, ``parquet`` or ``langchain``.

    Raises:
        UsageError: unknown format.
    """
    _check_format(fmt)
    if fmt == "parquet":
        fh.write(_parquet(chunks))
        return
    for line in _text_lines(chunks, fmt):
        fh.write(line.encode("utf-8"))


def _parquet_schema():
    import pyarrow as pa

    types = {f: pa.int64() for f in _INT_FIELDS} | {f: pa.string() for f in _STR_FIELDS}
    types |= {f: pa.bool_() for f in _BOOL_FIELDS}
    types["heading_path"] = pa.list_(pa.string())
    return pa.schema([(f, types[f]) for f in CHUNK_FIELDS])


def _parquet(chunks: Sequence[Chunk]) -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq

    columns = {f: [getattr(c, f) for c in chunks] for f in CHUNK_FIELDS}
    columns["heading_path"] = [list(c.heading_path) for c in chunks]
    table = pa.table(columns, schema=_parquet_schema())
    buf = io.BytesIO()
    # NOTE: no created_by/timestamps differ between runs in pyarrow's writer, so the bytes are
    # deterministic for the same chunks (rule 7).
    pq.write_table(table, buf, compression="zstd")
    return buf.getvalue()


def build_manifest(
    tokenized: TokenizedBook,
    policy: Policy,
    chunks: Sequence[Chunk],
    report: Any,
    *,
    source_path: str | os.PathLike | None = None,
    structure_file: Any = None,
    excluded: Exclusion | None = None,
) -> dict[str, Any]:
    """Describe one run: the book, the policy, what was found and whether the rules held.

    Args:
        tokenized (TokenizedBook): the tokenized book.
        policy (Policy): the policy used.
        chunks (Sequence[Chunk]): the chunks produced.
        report (ValidationReport | None): the validation result (``None``: not validated).
        source_path (str | os.PathLike | None): where the book was read from; ``validate`` re-reads
            it from there. Defaults to None.
        structure_file (StructureFile | None): the corrections applied; recorded under
            ``structure.file`` (its sha256, digest, count and every op; ``validate`` re-applies
            them). Defaults to None (``structure.file`` is null).
        excluded (Exclusion | None): what ``policy.exclude_matter`` left out
            (``chunking.matter.exclude``), recorded under ``excluded``. Defaults to None (nothing).

    Returns:
        dict[str, Any]: JSON-ready manifest (keys documented in ``CHUNKING.md``).

    Raises:
        ValueError: ``structure_file``'s corrections are not those the book records
            (``Book.corrections``: the digest that salted the ids).
    """

    book = tokenized.book
    if (structure_file.digest() if structure_file is not None else "") != book.corrections:
        raise ValueError("build_manifest: structure_file is not the corrections the book records")
    headings = [h.to_dict() for h in book.headings]
    return {
        "book": {
            "id": book.book_id,
            "sha256": book.sha256,
            "title": book.title,
            "format": book.format,
            "pages": len(book.pages),
            "source_name": book.source_name,
            "path": os.path.abspath(source_path) if source_path else None,
        },
        "policy": policy.to_dict(),
        "profile": policy.profile(),
        "corrections": book.corrections,
        "encoding": tokenized.encoding,
        "package_version": __version__,
        "total_tokens": tokenized.n_tokens,
        "chunk_count": len(chunks),
        "excluded": _excluded(policy, excluded),
        "structure": {
            "source": book.diagnostics.structure_source,
            "headings": len(headings),
            "headings_per_level": dict(book.diagnostics.headings_per_level),
            "outline": headings,
            "file": structure_file.manifest_record() if structure_file is not None else None,
        },
        "diagnostics": book.diagnostics.to_dict(),
        "validation": report.to_dict() if report is not None else None,
    }


def _excluded(policy: Policy, excluded: Exclusion | None) -> dict[str, Any] | None:
    """The manifest's ``excluded`` record: what went, nothing when nothing was asked to go, null
    when a caller that excluded chunks did not say how many."""
    if excluded is not None:
        return excluded.to_dict()
    return None if policy.exclude_matter else Exclusion().to_dict()


MANIFEST_SUFFIX = ".manifest.json"


def manifest_path(out_path: str | os.PathLike) -> Path:
    """``<OUT name>.manifest.json`` next to ``out_path`` (``x.jsonl`` → ``x.jsonl.manifest.json``).

    Why the full name: ``-o x.jsonl`` and ``-o x.parquet`` are two outputs, each with its own
    manifest; a manifest named after the stem alone was shared and described the last one only.
    """
    out = Path(out_path)
    return out.with_name(out.name + MANIFEST_SUFFIX)


def legacy_manifest_path(out_path: str | os.PathLike) -> Path:
    """``<OUT stem>.manifest.json``: where versions before one manifest per output wrote it."""
    out = Path(out_path)
    return out.with_name(out.stem + MANIFEST_SUFFIX)


def find_manifest(out_path: str | os.PathLike) -> Path:
    """The manifest to read for the chunk file ``out_path``.

    ``manifest_path(out_path)`` when it exists; else the legacy ``<OUT stem>.manifest.json`` when
    that one exists and its ``output.file`` names this chunk file (a legacy manifest shared by
    two outputs describes only the last one written); else ``manifest_path(out_path)`` (the
    caller reports it missing).
    """
    current = manifest_path(out_path)
    if current.exists():
        return current
    legacy = legacy_manifest_path(out_path)
    try:
        record = json.loads(legacy.read_text(encoding="utf-8"))
        named = record["output"]["file"]
    except (OSError, ValueError, KeyError, TypeError):
        return current
    return legacy if named == Path(out_path).name else current


def tidy_stale_temps(out_path: str | os.PathLike) -> list[Path]:
    """Remove the temp files of ``out_path`` and of its manifest that a killed run left
    (``chunking.atomic.tidy_temps``).

    Returns:
        list[Path]: the files removed.
    """
    out = Path(out_path)
    return tidy_temps([out, manifest_path(out)])


def check_output_path(
    out_path: str | os.PathLike, book: str | os.PathLike | None = None, inputs: Sequence[Named] = ()
) -> Path:
    """Refuse, before any work, a chunk file (or its manifest) that cannot or must not be written:
    ``chunking.targets.check_output`` for both, against the book and every other input given.

    Raises:
        UsageError: one line naming the path and the reason (exit 2).
    """
    if not str(out_path).strip():
        raise UsageError("-o: the output path is empty")
    out = Path(out_path)
    every_input: list[Named] = [("the book", book), *inputs]
    check_output("-o", out, every_input)
    check_output("-o", manifest_path(out), every_input, shown=out)
    return out


def _relative_to(book_path: str | None, out: Path) -> str | None:
    """The book's path relative to the output's folder (``validate`` finds a moved pair by it).

    None when the path is unknown or has no relative form (another drive).
    """
    if not book_path:
        return None
    try:
        return Path(os.path.relpath(book_path, start=os.path.abspath(out.parent))).as_posix()
    except ValueError:
        return None


def manifest_for_output(
    manifest: dict[str, Any], out: Path | None, fmt: str, name: str = ""
) -> dict[str, Any]:
    """``manifest`` with its ``output`` record and the book's path relative to the output.

    Args:
        manifest (dict[str, Any]): from ``build_manifest``.
        out (Path | None): where the chunk file is written; None when the location is not known
            (a download from the app): ``book.relative_path`` is then None.
        fmt (str): one of ``FORMATS``.
        name (str): the chunk file's name when ``out`` is None.
    """
    book = dict(
        manifest["book"], relative_path=_relative_to(manifest["book"].get("path"), out) if out else None
    )
    return dict(manifest, book=book, output={"file": out.name if out else name, "format": fmt})


def manifest_text(manifest: dict[str, Any]) -> str:
    """The manifest as written to disk: UTF-8 JSON, indented, one trailing newline."""
    return json.dumps(manifest, ensure_ascii=False, indent=2) + "\n"


def write_outputs(
    chunks: Sequence[Chunk], manifest: dict[str, Any], out_path: str | os.PathLike, fmt: str
) -> Path:
    """Write the chunk file and its manifest, each atomically.

    The chunk file is streamed into a temp file, the manifest into another; both are renamed
    into place only when both are complete, with SIGINT/SIGTERM held over the two renames.

    Args:
        chunks (Sequence[Chunk]): chunks to export.
        manifest (dict[str, Any]): from ``build_manifest``; ``output`` (file name and format) is
            added.
        out_path (str | os.PathLike): the chunk file to write.
        fmt (str): one of ``FORMATS``.

    Returns:
        Path: the manifest's path.

    Raises:
        OutputError: a file cannot be written (disk full, file-size limit, permission); no temp
            file is left.
    """
    _check_format(fmt)
    out = Path(out_path)
    text = manifest_text(manifest_for_output(manifest, out, fmt))
    target = manifest_path(out)
    tidy_stale_temps(out)
    # NOTE: both files are finished as temp files first, then renamed together with signals held,
    # so an interrupted run leaves the old pair or the new pair, never a chunk file whose
    # manifest is missing or belongs to another run.
    chunk_tmp = write_temp(out, lambda fh: write_chunks(chunks, fh, fmt))
    try:
        manifest_tmp = write_temp(target, lambda fh: fh.write(text.encode("utf-8")))
    except BaseException:
        unlink_quietly(chunk_tmp)
        raise
    replace_all([(chunk_tmp, out), (manifest_tmp, target)])
    return target


_INT_TEXT = re.compile(r"-?[0-9]+")


def _strict_int(field: str, value: Any) -> int:
    """An integer field read back: an int, or (CSV) its decimal digits; 1.7 or "1.7" is not 1."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and _INT_TEXT.fullmatch(value.strip()):
        return int(value)
    raise ValueError(f"{field} must be an integer, not {type(value).__name__} {str(value)[:40]!r}")


def _strict_bool(field: str, value: Any) -> bool:
    """A boolean field read back: a bool, or (CSV) ``True``/``False``; 1 or "yes" is not one."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in _BOOL_TEXT:
        return _BOOL_TEXT[value.strip().lower()]
    raise ValueError(f"{field} must be true or false, not {type(value).__name__} {str(value)[:40]!r}")


def _chunk_from_record(rec: Any) -> Chunk:
    if not isinstance(rec, dict):
        raise UnreadableInputError(f"chunk record is a {type(rec).__name__}, not an object")
    rec = {f: "" for f in LINK_FIELDS} | rec
    missing = [f for f in CHUNK_FIELDS if f not in rec and f not in _OPTIONAL_FIELDS]
    if missing:
        raise UnreadableInputError(f"chunk record lacks field(s) {', '.join(missing)}")
    try:
        values: dict[str, Any] = {f: _strict_int(f, rec[f]) for f in _INT_FIELDS}
        values |= {f: _strict_bool(f, rec[f]) for f in _BOOL_FIELDS}
        for f in _STR_FIELDS:
            value = rec.get(f)
            if value is not None and not isinstance(value, str):
                raise ValueError(f"{f} must be a string, not {type(value).__name__}")
            values[f] = value or ""
        path = rec["heading_path"]
        if isinstance(path, str):
            path = json.loads(path)
        if not isinstance(path, list) or not all(isinstance(t, str) for t in path):
            raise ValueError("heading_path must be a list of strings")
        values["heading_path"] = tuple(path)
    except (TypeError, ValueError) as exc:
        raise UnreadableInputError(
            f"chunk record {str(rec.get('order', '?'))[:40]} has a malformed field: {exc}"
        ) from None
    return Chunk(**values)


_NON_BLANK_LINE = re.compile(rb"\S[^\n]*")
"""From a line's first non-blank byte to its end: blank lines (any number) are skipped in C."""


def _json_lines(data: bytes, label: str) -> list[Any]:
    """The records of JSONL ``data``, one per non-blank line; deep nesting refused first. A line
    that is no JSON is named by its line number in the file (``json`` counts within the line)."""
    if json_depth(data) > MAX_JSON_DEPTH:
        raise UnreadableInputError(f"{label}: not valid JSON (nested deeper than {MAX_JSON_DEPTH} levels)")
    records = []
    for m in _NON_BLANK_LINE.finditer(data):
        try:
            records.append(json.loads(m.group()))
        except ValueError as exc:
            line = data.count(b"\n", 0, m.start()) + 1
            reason = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
            column = f", column {exc.colno}" if isinstance(exc, json.JSONDecodeError) else ""
            raise UnreadableInputError(
                f"{label}: not valid JSON Lines (line {line}{column}: {reason})"
            ) from None
    return records


def read_chunks(path: str | os.PathLike) -> tuple[list[Chunk], str]:
    """Read an exported chunk file back (format from the extension and content).

    Args:
        path (str | os.PathLike): a ``.jsonl``/``.json`` (plain or LangChain; the records
            decide which), ``.csv`` or ``.parquet`` file written by ``write_outputs``.

    Returns:
        tuple[list[Chunk], str]: the chunks and the detected format.

    Raises:
        UnreadableInputError: missing or not a regular file, larger than
            ``MAX_CHUNK_FILE_BYTES``, unknown extension, no records or malformed records.
    """
    p = Path(path)
    fmt = export_format(p.name)
    if fmt is None:
        known = ", ".join(dict.fromkeys([*EXPORT_FORMATS.values(), *EXPORT_READ_ALIASES]))
        raise UnreadableInputError(f"{p}: unknown chunk file type {p.suffix!r} (expected {known})")
    data = read_bounded(p, MAX_CHUNK_FILE_BYTES, str(p), "chunk file")
    try:
        if fmt == "parquet":
            import pyarrow as pa
            import pyarrow.parquet as pq

            records = pq.read_table(pa.BufferReader(data)).to_pylist()
        elif fmt == "csv":
            records = list(csv.DictReader(io.StringIO(data.decode("utf-8"), newline="")))
        else:
            records = _json_lines(data, str(p))
            if records:  # the records decide between plain and LangChain JSONL
                fmt = "langchain" if "page_content" in records[0] else "jsonl"
            if fmt == "langchain":
                records = [dict(r["metadata"], text=r["page_content"]) for r in records]
    except UnreadableInputError:
        raise
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UnreadableInputError(f"{p}: cannot read chunks: {type(exc).__name__}: {exc}") from None
    except Exception as exc:  # pyarrow raises its own error classes for corrupt files
        raise UnreadableInputError(f"{p}: cannot read chunks: {type(exc).__name__}") from None
    if not records:
        raise UnreadableInputError(f"{p}: no chunk records (an export holds at least one chunk)")
    return [_chunk_from_record(r) for r in records], fmt
