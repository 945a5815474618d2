"""App stage (tables): chunks and headings as pandas tables, and the Chunks page's filters.

Pure functions (no Streamlit): the pages show these frames with ``st.dataframe``, which draws cell
text as text, so book content needs no escaping here.
"""

from __future__ import annotations

import io
import json
from collections.abc import Sequence

import pandas as pd

from chunking.models import Book, Chunk

CHUNK_COLUMNS = (
    "order",
    "pages",
    "labels",
    "chapter",
    "section",
    "tokens",
    "end_reason",
    "matter",
    "start_of_text",
    "id",
)
"""Columns of the Chunks page's table; ``id`` is the full chunk id (never shortened)."""


def _span(a: object, b: object) -> str:
    return f"{a}" if a == b else f"{a}–{b}"


def chunk_table(chunks: Sequence[Chunk], *, preview_chars: int = 90) -> pd.DataFrame:
    """One row per chunk: order, physical pages, printed labels, chapter, section, tokens,
    end reason, matter, the start of its text (whitespace collapsed) and its full id."""
    return pd.DataFrame(
        {
            "order": [c.order for c in chunks],
            "pages": [_span(c.page_start, c.page_end) for c in chunks],
            "labels": [_span(c.page_label_start, c.page_label_end) for c in chunks],
            "chapter": [c.chapter for c in chunks],
            "section": [c.section for c in chunks],
            "tokens": [c.token_count for c in chunks],
            "end_reason": [c.end_reason for c in chunks],
            "matter": [c.matter for c in chunks],
            "start_of_text": [" ".join(c.text[: preview_chars * 2].split())[:preview_chars] for c in chunks],
            "id": [c.id for c in chunks],
        },
        columns=list(CHUNK_COLUMNS),
    )


def page_rows(frame: pd.DataFrame, page: int, rows: int) -> pd.DataFrame:
    """Rows of table page ``page`` (1-based; clamped to the first and last page), ``rows`` per page.

    Args:
        frame (pd.DataFrame): the whole table.
        page (int): the page to show.
        rows (int): rows per page (at least 1).

    Returns:
        pd.DataFrame: at most ``rows`` rows, in order; every row is on exactly one page.
    """
    rows = max(1, rows)
    last = max(1, -(-len(frame) // rows))
    page = min(max(page, 1), last)
    return frame.iloc[(page - 1) * rows : page * rows]


def export_preview(data: bytes, fmt: str, rows: int) -> pd.DataFrame:
    """The first ``rows`` records of an export as a table (JSONL/LangChain: one JSON object per
    line, nested fields as JSON text; CSV: its columns; Parquet: its columns).

    Args:
        data (bytes): the exported file, as ``chunking.export.render`` made it.
        fmt (str): ``jsonl``, ``langchain``, ``csv`` or ``parquet``.
        rows (int): how many records to show.

    Returns:
        pd.DataFrame: one row per record; cell values as the file holds them.
    """
    if fmt == "parquet":
        return pd.read_parquet(io.BytesIO(data)).head(rows)
    if fmt == "csv":
        return pd.read_csv(io.BytesIO(data), nrows=rows, dtype=str, keep_default_na=False)
    records = []
    for line in data.decode("utf-8").splitlines()[:rows]:
        obj = json.loads(line)
        flat: dict[str, object] = {}
        for k, v in obj.items():
            if isinstance(v, dict):  # LangChain's metadata: one column per key
                flat.update({f"{k}.{kk}": _cell(vv) for kk, vv in v.items()})
            else:
                flat[k] = _cell(v)
        records.append(flat)
    return pd.DataFrame(records)


def _cell(value: object) -> object:
    """Lists and dicts as compact JSON text, so a table cell shows exactly what the file holds."""
    return json.dumps(value, ensure_ascii=False) if isinstance(value, (list, dict)) else value


def filter_chunks(
    chunks: Sequence[Chunk],
    *,
    chapters: Sequence[str] = (),
    end_reasons: Sequence[str] = (),
    tokens: tuple[int, int] | None = None,
    query: str = "",
) -> list[Chunk]:
    """Keep the chunks that pass every given filter (an empty filter keeps everything).

    Args:
        chunks (Sequence[Chunk]): all chunks.
        chapters (Sequence[str]): keep chunks whose chapter is one of these.
        end_reasons (Sequence[str]): keep chunks with one of these end reasons.
        tokens (tuple[int, int] | None): inclusive token-count range.
        query (str): case-insensitive substring of the chunk's text.

    Returns:
        list[Chunk]: the matching chunks, in order.
    """
    needle = query.casefold().strip()
    return [
        c
        for c in chunks
        if (not chapters or c.chapter in chapters)
        and (not end_reasons or c.end_reason in end_reasons)
        and (tokens is None or tokens[0] <= c.token_count <= tokens[1])
        and (not needle or needle in c.text.casefold())
    ]


def structure_table(book: Book) -> pd.DataFrame:
    """The detected structure: title, number, kind, level, start page and printed label, source."""
    return pd.DataFrame(
        {
            "title": [h.title for h in book.headings],
            "number": [h.number for h in book.headings],
            "kind": [h.kind for h in book.headings],
            "level": [h.level for h in book.headings],
            "page": [h.page for h in book.headings],
            "label": [h.page_label for h in book.headings],
            "source": [h.source for h in book.headings],
        },
        columns=["title", "number", "kind", "level", "page", "label", "source"],
    )


def chunks_at(chunks: Sequence[Chunk], char_offset: int, *, preview_chars: int = 120) -> pd.DataFrame:
    """The chunks around one boundary (e.g. a chapter start): those that contain it strictly inside
    (``crosses``), end exactly at it (``ends here``) or start exactly at it (``starts here``).

    ``carried_over`` is the text the chunk shares with the previous chunk (its overlap), so a reader
    sees what the overlap repeated across the boundary.

    Args:
        chunks (Sequence[Chunk]): all chunks in order.
        char_offset (int): the boundary, an offset into the book text.
        preview_chars (int): how much of the carried-over text to show. Defaults to 120.

    Returns:
        pd.DataFrame: one row per such chunk, in order.
    """
    rows = []
    for i, c in enumerate(chunks):
        if c.char_start < char_offset < c.char_end:
            where = "crosses"
        elif c.char_end == char_offset:
            where = "ends here"
        elif c.char_start == char_offset:
            where = "starts here"
        else:
            continue
        prev_end = chunks[i - 1].char_end if i else c.char_start
        carried = c.text[: max(0, prev_end - c.char_start)]
        rows.append(
            {
                "order": c.order,
                "where": where,
                "pages": _span(c.page_start, c.page_end),
                "chapter": c.chapter,
                "tokens": c.token_count,
                "overlap_prev_tokens": c.overlap_prev_tokens,
                "carried_over": " ".join(carried.split())[:preview_chars],
            }
        )
    return pd.DataFrame(
        rows, columns=["order", "where", "pages", "chapter", "tokens", "overlap_prev_tokens", "carried_over"]
    )
