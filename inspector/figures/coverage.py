"""App stage (figures): how the book is covered: text lost, in one chunk, or overlapped.

Rows are pages and columns positions within the page; a long book groups pages into rows so the
figure's height stays bounded, the legend names three categories (no gradient), and chapter
labels sit in the right margin, off the data, only where they have room.
"""

from __future__ import annotations

import html
import math
from typing import Sequence

import numpy as np
import plotly.graph_objects as go

from chunking.models import Book, Chunk
from chunking.rules import fence_headings

from .. import palette
from .axis import page_axis_name, page_label, page_positions
from .label_fit import LABEL_FONT_PX, shorten

COLUMNS = 40
"""Coverage cells per page row (2.5 % of a page's text each)."""
MAX_COVERAGE_ROWS = 150
"""Most rows the coverage map draws; longer books group consecutive pages into one row."""
COVERAGE_ROW_PX = 7
"""Height of a coverage row in px (so 150 rows ≈ 1,050 px: the height stays bounded)."""
MIN_COVERAGE_HEIGHT = 320
"""Smallest coverage figure (px), for short books."""
LABEL_MARGIN_PX = 240
"""Right margin of the coverage map, where its chapter labels sit, off the data."""
LABEL_PITCH_PX = 18
"""Least vertical distance between two chapter labels of the coverage map: a label's line box
at ``LABEL_FONT_PX`` is about 15 px tall in chromium, plus a gap."""
COVERAGE_NAMES = ("lost (in no chunk)", "in one chunk", "overlapped (2+ chunks)")
"""Legend entries of the coverage map's three categories, for cell values 0, 1 and 2."""
COVERAGE_COLOURS = (palette.LOST, palette.ONCE, palette.OVERLAP)
"""Colour of each category, from ``inspector.palette``."""

_WHITESPACE = np.array([9, 10, 11, 12, 13, 32, 0x85, 0xA0, 0x2028, 0x2029, 0x3000], dtype=np.uint32)


def char_coverage(text_len: int, chunks: Sequence[Chunk]) -> np.ndarray:
    """How many chunks contain each character of the canonical text (int32, length ``text_len``)."""
    diff = np.zeros(text_len + 1, dtype=np.int32)
    np.add.at(diff, [c.char_start for c in chunks], 1)
    np.add.at(diff, [c.char_end for c in chunks], -1)
    return np.cumsum(diff[:-1], dtype=np.int32)


def coverage_grid(book: Book, chunks: Sequence[Chunk], *, columns: int = COLUMNS) -> np.ndarray:
    """Coverage per page (rows, page order) and position within the page (``columns`` bins).

    A cell holds the fewest chunks containing any non-whitespace character in it, capped at 2
    (0 = text lost, 1, 2+ = overlap); NaN for a cell with no text (empty page, only whitespace).
    """
    codes = np.frombuffer(book.text.encode("utf-32-le"), dtype=np.uint32)
    ink = ~np.isin(codes, _WHITESPACE)
    cover = np.minimum(char_coverage(len(book.text), chunks), 2).astype(np.float64)
    cover[~ink] = np.inf
    grid = np.full((len(book.pages), columns), np.nan)
    rows = [r for r, p in enumerate(book.pages) if p.char_end > p.char_start]
    if not rows:
        return grid
    starts = np.array([book.pages[r].char_start for r in rows], dtype=np.int64)
    lengths = np.array([book.pages[r].char_end - book.pages[r].char_start for r in rows], dtype=np.int64)
    # Bin edges per page; reduceat takes each bin's minimum in one vectorised pass.
    lo = (starts[:, None] + (np.arange(columns)[None, :] * lengths[:, None]) // columns).ravel()
    hi = (starts[:, None] + (np.arange(1, columns + 1)[None, :] * lengths[:, None]) // columns).ravel()
    mins = np.minimum.reduceat(np.append(cover, np.inf), lo)
    # NOTE: reduceat returns the single element at ``lo`` for an empty bin (hi == lo): blank those.
    mins[hi <= lo] = np.inf
    mins[np.isinf(mins)] = np.nan
    grid[rows] = mins.reshape(len(rows), columns)
    return grid


def pages_per_row(n_pages: int, max_rows: int = MAX_COVERAGE_ROWS) -> int:
    """Pages the coverage map groups into one row so it has at most ``max_rows`` rows."""
    return max(1, math.ceil(n_pages / max_rows))


def group_rows(grid: np.ndarray, size: int) -> np.ndarray:
    """``grid``'s rows grouped ``size`` at a time. A cell shows lost text (0) if any page of its
    group loses text there (loss is never hidden), else ``1 + share``, where share is the part of
    the group's pages with text there that overlap there (1 = none, 2 = all: the colour runs from
    "in one chunk" to "overlapped", so a grouped row still shows how much overlap it holds); NaN
    where no page of the group has text there."""
    if size == 1:
        return grid
    n = math.ceil(grid.shape[0] / size)
    padded = np.full((n * size, grid.shape[1]), np.nan)
    padded[: grid.shape[0]] = grid
    blocks = padded.reshape(n, size, grid.shape[1])
    once, twice = (blocks == 1).sum(axis=1), (blocks == 2).sum(axis=1)
    out = np.full((n, grid.shape[1]), np.nan)
    seen = once + twice > 0
    out[seen] = 1 + twice[seen] / (once[seen] + twice[seen])
    out[(blocks == 0).any(axis=1)] = 0
    return out


def _hover_words(grid: np.ndarray) -> list[list[str]]:
    """Each grouped cell in words: lost text, or the share of its pages that overlap there."""
    return [
        [
            "" if np.isnan(v) else "text lost" if v == 0 else f"{v - 1:.0%} of its pages overlapped"
            for v in row
        ]
        for row in grid
    ]


def coverage_figure(
    book: Book, chunks: Sequence[Chunk], *, columns: int = COLUMNS, max_rows: int = MAX_COVERAGE_ROWS
) -> go.Figure:
    """Coverage of the book: rows of pages, columns of position within the page, three categories.

    Rows are physical pages, grouped ``pages_per_row`` at a time when the book has more than
    ``max_rows`` pages (a cell then shows loss if any of its pages loses text there, else a
    colour between "in one chunk" and "overlapped" by the share of its pages that overlap
    there: ``group_rows``), so the height stays
    about ``max_rows * COVERAGE_ROW_PX``. The legend is categorical (``COVERAGE_NAMES``: one
    legend-only trace each, no colour bar); chapter starts are marked on the data and named in
    the right margin, where a label is drawn only if it has the vertical room (all in hover).

    Returns:
        go.Figure: ``data[0]`` the ``Heatmap`` (z = the grouped grid, y = each row's first
        page), then the three legend entries, then a ``Scatter`` named ``"chapter starts"``.
    """
    n_pages = len(book.pages)
    size = pages_per_row(n_pages, max_rows)
    grid = group_rows(coverage_grid(book, chunks, columns=columns), size)
    firsts = [book.pages[k].number for k in range(0, n_pages, size)]
    step = 100 / columns
    x = [round((k + 0.5) * step, 3) for k in range(columns)]
    lost, once, overlap = COVERAGE_COLOURS
    # z in [-0.5, 2.5]: 0 lost, 1 once; from 1 to 2 (a grouped row's overlap share) once → overlap.
    scale = [[0, lost], [1 / 3, lost], [1 / 3, once], [1 / 2, once], [5 / 6, overlap], [1, overlap]]
    if size == 1:
        hover = "page %{y}, at %{x:.0f} %<br>%{z} chunk(s)<extra></extra>"
        words = None
    else:
        hover = f"{size} pages from %{{y}}, at %{{x:.0f}} %<br>%{{customdata}}<extra></extra>"
        words = _hover_words(grid)
    fig = go.Figure(
        go.Heatmap(
            z=grid.tolist(),
            x=x,
            y=firsts,
            zmin=-0.5,
            zmax=2.5,
            colorscale=scale,
            showscale=False,
            customdata=words,
            hovertemplate=hover,
        )
    )
    for name, colour in zip(COVERAGE_NAMES, COVERAGE_COLOURS):
        fig.add_trace(
            go.Scatter(
                name=name,
                x=[None],
                y=[None],
                mode="markers",
                marker={"symbol": "square", "size": 12, "color": colour},
                hoverinfo="skip",
            )
        )
    height = max(MIN_COVERAGE_HEIGHT, COVERAGE_ROW_PX * len(firsts) + 120)
    annotations = _chapter_marks(fig, book, size, columns, height)
    fig.update_layout(
        height=height,
        xaxis_title="position within the page (% of the page's text)",
        yaxis_title=page_axis_name(book) if size == 1 else f"{page_axis_name(book)} (rows of {size})",
        legend={"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0, "title_text": "text"},
        margin={"l": 70, "r": LABEL_MARGIN_PX, "t": 40, "b": 50},
        annotations=annotations,
    )
    fig.update_xaxes(range=[0, 100], ticksuffix=" %")
    fig.update_yaxes(autorange="reversed")
    return fig


def coverage_plot_px(height: int) -> float:
    """Height of the coverage map's plot area (its height minus the top and bottom margins)."""
    return height - 90


def _chapter_marks(fig: go.Figure, book: Book, size: int, columns: int, height: int) -> list[dict]:
    """Mark chapter starts on the data (small triangles, titles in hover) and return the margin
    labels that have room: annotations in paper x beyond the plot, at most one per
    ``LABEL_PITCH_PX`` of height, each shortened to the margin's width."""
    fences = fence_headings(book)
    if not fences:
        return []
    pos = page_positions(book, [h.char_offset for h in fences])
    page_index = {p.number: k for k, p in enumerate(book.pages)}
    rows = [book.pages[(page_index.get(int(p), 0) // size) * size].number for p in pos]
    titles = [f"{h.number} {h.title}".strip() for h in fences]
    fig.add_trace(
        go.Scatter(
            name="chapter starts",
            x=((pos - np.floor(pos)) * 100).tolist(),
            y=rows,
            mode="markers",
            marker={"symbol": "triangle-right", "size": 8, "color": "#333333"},
            customdata=[[html.escape(t), page_label(h.page, h.page_label)] for t, h in zip(titles, fences)],
            hovertemplate="%{customdata[0]}<br>starts on page %{customdata[1]}<extra>chapter start</extra>",
            showlegend=False,
        )
    )
    n_rows = math.ceil(len(book.pages) / size)
    row_px = coverage_plot_px(height) / max(n_rows, 1)
    first_page = book.pages[0].number if book.pages else 1
    notes, last_px = [], -math.inf
    for title, row in zip(titles, rows):
        centre = ((row - first_page) / size + 0.5) * row_px
        if centre - last_px < LABEL_PITCH_PX:
            continue
        text = shorten(title, LABEL_MARGIN_PX - 12)
        if not text:
            continue
        last_px = centre
        notes.append(
            {
                "text": html.escape(text),
                "xref": "paper",
                "x": 1.0,
                "xshift": 6,
                "xanchor": "left",
                "yref": "y",
                "y": row,
                "showarrow": False,
                "font": {"size": LABEL_FONT_PX},
            }
        )
    return notes
