"""App stage (figures): pure functions from a book and its chunks to plotly Figures and numbers.

Nothing here imports Streamlit, so every figure is tested on its own. Trace data are plain lists
(not numpy arrays, which plotly would serialise as base64 typed arrays) so a figure's JSON can be
read back and compared with the chunks. Book strings (titles, chapter names, page labels) are HTML-escaped:
plotly renders a few tags (``<b>``, ``<a href>``) in text and decodes entities back for display.

Positions along the book
are *page coordinates*: ``page + fraction``, where the fraction is how far into that page's
canonical text (``Page.char_start``…``Page.char_end``) a character lies; so ``int(position)`` is
always the physical page of the character and a bar's base equals its chunk's ``page_start``.
Token spans are half-open ``[token_start, token_end)`` (``chunking.models``).
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import plotly.graph_objects as go

from chunking.models import Book, Chunk
from chunking.rules import fence_headings

END_REASON_COLOURS = {
    "token_limit": "#4c78a8",
    "page_limit": "#f58518",
    "target_pages": "#54a24b",
    "fence": "#b279a2",
    "book_end": "#9d755d",
    "sentence": "#72b7b2",
    "paragraph": "#eeca3b",
}
"""One colour per ``END_REASONS`` value, shared by every figure and the legend."""

COVERAGE_COLOURS = (
    (0.0, "#d62728"),
    (0.33, "#d62728"),
    (0.34, "#c6dbef"),
    (0.66, "#c6dbef"),
    (0.67, "#08519c"),
    (1.0, "#08519c"),
)
"""Discrete scale for coverage counts 0 (lost, red), 1 (light blue), 2+ (dark blue)."""

_WHITESPACE = np.array([9, 10, 11, 12, 13, 32, 0x85, 0xA0, 0x2028, 0x2029, 0x3000], dtype=np.uint32)


def page_positions(book: Book, chars: Sequence[int] | np.ndarray) -> np.ndarray:
    """Map char offsets of ``book.text`` to page coordinates (``page + fraction`` within the page).

    A char between two pages (the separator) maps to the end of the earlier page.

    Args:
        book (Book): the book whose pages define the axis.
        chars (Sequence[int] | np.ndarray): offsets into ``book.text``.

    Returns:
        np.ndarray: float positions, one per offset.
    """
    pages = [p for p in book.pages if p.char_end > p.char_start] or list(book.pages[:1])
    starts = np.array([p.char_start for p in pages], dtype=np.int64)
    ends = np.array([p.char_end for p in pages], dtype=np.int64)
    numbers = np.array([p.number for p in pages], dtype=np.float64)
    c = np.asarray(chars, dtype=np.int64)
    idx = np.clip(np.searchsorted(starts, c, side="right") - 1, 0, len(pages) - 1)
    length = np.maximum(ends[idx] - starts[idx], 1)
    # NOTE: 0.999 keeps the end of a page on that page, so int(position) is the page number.
    frac = np.clip((c - starts[idx]) / length, 0.0, 0.999)
    return numbers[idx] + frac


def chunk_lanes(chunks: Sequence[Chunk]) -> list[int]:
    """Assign each chunk the lowest lane free at its start, so overlapping chunks never share one.

    Returns:
        list[int]: lane per chunk (0-based), in the chunks' order.
    """
    lane_end: list[int] = []
    lanes = []
    for c in chunks:
        for lane, end in enumerate(lane_end):
            if end <= c.token_start:
                lane_end[lane] = c.token_end
                lanes.append(lane)
                break
        else:
            lane_end.append(c.token_end)
            lanes.append(len(lane_end) - 1)
    return lanes


def _label(page: int, label: str) -> str:
    """``"12 (p. xii)"``: a physical page and its printed label, HTML-escaped (the label is book
    data; plotly renders ``<b>``, ``<br>``, ``<span style>`` and ``<a href>`` in hover text)."""
    return f"{page} (p. {html.escape(label)})" if label else str(page)


def boundaries_figure(
    book: Book,
    chunks: Sequence[Chunk],
    *,
    page_range: tuple[float, float] | None = None,
    selected: int | None = None,
) -> go.Figure:
    """The whole book on one page axis: chapter bands on top, chunks as bars in lanes below.

    Bars are coloured by end reason (one trace per reason, named after it); each bar's
    ``customdata`` row is ``[order, id, pages, tokens, chapter, section, end reason]`` (read by
    the trace's hovertemplate), so a click selects the chunk by ``customdata[0]``.
    Chapters form the ``"Chapters"`` trace (one labelled bar per chapter-level unit) plus the
    ``"chapter bands"`` trace: every other unit shaded behind all lanes. The figure is built
    to be cheap to draw, since drawing it is what the app's slider response waits for.

    Args:
        book (Book): the book (pages and headings).
        chunks (Sequence[Chunk]): its chunks in order.
        page_range (tuple[float, float] | None): x range to zoom to, in pages. Defaults to all.
        selected (int | None): ``order`` of a chunk to outline. Defaults to none.

    Returns:
        go.Figure: the boundary map.
    """
    # NOTE: Streamlit re-mounts a selectable chart whenever its spec changes, so every re-chunk
    # is a fresh Plotly.newPlot in the browser (issue 7: ≤ 1 s per slider step). Hence the bands
    # are one bar trace, not layout shapes, and outline widths are a scalar except in the
    # selected chunk's trace. Hover fields stay separate customdata columns under one
    # hovertemplate per trace: precomputed hover strings drew no faster in chromium and doubled
    # the spec sent on every re-chunk (197 vs 104 kB on chez-csug.pdf).
    n_pages = max((p.number for p in book.pages), default=1)
    lanes = chunk_lanes(chunks)
    rows = ["Chapters"] + [f"Lane {i + 1}" for i in range(max(lanes, default=-1) + 1)]
    traces = _chapter_traces(book, n_pages, len(rows))
    if chunks:
        base = page_positions(book, [c.char_start for c in chunks])
        end = page_positions(book, [max(c.char_end - 1, c.char_start) for c in chunks])
        # NOTE: bars start at the page of the first non-whitespace char (chunk.page_start) even
        # when the span begins with a page's trailing newline.
        base = np.maximum(base, [c.page_start for c in chunks])
        end = np.maximum(np.minimum(end, [c.page_end + 0.999 for c in chunks]), base + 0.02)
        reasons = np.array([c.end_reason for c in chunks])
        for reason in dict.fromkeys(reasons.tolist()):
            idx = np.flatnonzero(reasons == reason)
            line = [3 if chunks[i].order == selected else 0 for i in idx]
            traces.append(
                go.Bar(
                    name=reason,
                    orientation="h",
                    y=[rows[lanes[i] + 1] for i in idx],
                    base=base[idx].tolist(),
                    x=(end[idx] - base[idx]).tolist(),
                    marker_color=END_REASON_COLOURS.get(reason, "#7f7f7f"),
                    marker_line_width=line if any(line) else 0,
                    marker_line_color="#000000",
                    customdata=[_hover_row(chunks[i]) for i in idx],
                    hovertemplate=_CHUNK_HOVER,
                )
            )
    fig = go.Figure(traces)
    # NOTE: no uirevision: a changed spec gives the chart a new Streamlit element id, so it is a
    # new plot and a zoom made in it is lost anyway (checked in chromium); the "Zoom to pages"
    # slider is the zoom that survives re-chunking.
    fig.update_layout(
        barmode="overlay",
        bargap=0.25,
        height=200 + 28 * len(rows),
        xaxis_title="physical page",
        legend_title_text="end reason",
        clickmode="event+select",
        margin={"l": 10, "r": 10, "t": 30, "b": 40},
        hovermode="closest",
    )
    fig.update_yaxes(categoryorder="array", categoryarray=rows[::-1])
    fig.update_xaxes(range=list(page_range) if page_range else [1, n_pages + 1])
    return fig


def _chapter_traces(book: Book, n_pages: int, n_rows: int) -> list[go.Bar]:
    """The shaded background bands and the labelled ``"Chapters"`` row (none without chapters)."""
    fences = fence_headings(book)
    if not fences:
        return []
    starts = page_positions(book, [h.char_offset for h in fences])
    widths = np.append(starts[1:], n_pages + 1) - starts
    labels = [html.escape(f"{h.number} {h.title}".strip()) for h in fences]
    # NOTE: one bar per shaded unit placed on the "Chapters" row (the top category) and
    # stretched over every row: offset/width are in category units, so it spans the whole plot.
    bands = go.Bar(
        name="chapter bands",
        orientation="h",
        y=["Chapters"] * len(starts[::2]),
        base=starts[::2].tolist(),
        x=widths[::2].tolist(),
        width=n_rows,
        offset=0.5 - n_rows,
        marker_color="#f0f0f0",
        marker_line_width=0,
        opacity=0.6,
        hoverinfo="skip",
        showlegend=False,
    )
    chapters = go.Bar(
        name="Chapters",
        orientation="h",
        y=["Chapters"] * len(fences),
        base=starts.tolist(),
        x=widths.tolist(),
        text=labels,
        textposition="inside",
        insidetextanchor="start",
        marker_color=["#d9d9d9" if i % 2 else "#bdbdbd" for i in range(len(fences))],
        customdata=[
            [
                f"<b>{label}</b><br>{h.kind}, level {h.level}<br>starts on page "
                f"{_label(h.page, h.page_label)}<br>source: {h.source}"
            ]
            for label, h in zip(labels, fences)
        ],
        hovertemplate="%{customdata[0]}<extra></extra>",
        showlegend=False,
    )
    return [bands, chapters]


_CHUNK_HOVER = (
    "<b>chunk %{customdata[0]}</b> %{customdata[1]}<br>pages %{customdata[2]}"
    "<br>%{customdata[3]} tokens<br>chapter: %{customdata[4]}"
    "<br>section: %{customdata[5]}<br>ended by: %{customdata[6]}<extra></extra>"
)
"""Hover of a chunk bar, filled from its ``_hover_row``."""


def _hover_row(c: Chunk) -> list:
    """A chunk bar's hover fields: order, id, pages (physical and printed), tokens, chapter,
    section (both escaped), end reason."""
    pages = _label(c.page_start, c.page_label_start)
    if c.page_end != c.page_start:
        pages += " – " + _label(c.page_end, c.page_label_end)
    return [
        c.order,
        c.id[:12],
        pages,
        c.token_count,
        html.escape(c.chapter or "–"),
        html.escape(c.section or "–"),
        c.end_reason,
    ]


# ------------------------------------------------------------------------------- overlap
def shared_token_pairs(chunks: Sequence[Chunk]) -> list[tuple[int, int, int]]:
    """Every pair of chunks (by position in ``chunks``) whose token spans intersect.

    Returns:
        list[tuple[int, int, int]]: ``(i, j, shared_tokens)`` with ``i < j`` and shared > 0.
    """
    order = sorted(range(len(chunks)), key=lambda k: chunks[k].token_start)
    pairs = []
    for a, i in enumerate(order):
        for j in order[a + 1 :]:
            if chunks[j].token_start >= chunks[i].token_end:
                break
            shared = min(chunks[i].token_end, chunks[j].token_end) - chunks[j].token_start
            if shared > 0:
                pairs.append((min(i, j), max(i, j), shared))
    return pairs


@dataclass(frozen=True)
class OverlapMatrix:
    """Shared tokens between chunks, possibly binned: ``values[a, b]`` sums the tokens shared by
    chunks of bin ``a`` with chunks of bin ``b`` (a chunk never counts with itself).

    Attributes:
        values (np.ndarray): square int64 matrix.
        bin_size (int): chunks per bin (1 = unbinned).
        first (int): position in the chunk list of the first chunk shown.
    """

    values: np.ndarray
    bin_size: int
    first: int


def overlap_matrix(chunks: Sequence[Chunk], *, max_cells: int = 200) -> OverlapMatrix:
    """Chunk × chunk shared tokens from the token spans, binned to at most ``max_cells`` a side."""
    n = len(chunks)
    size = max(1, math.ceil(n / max_cells))
    m = np.zeros((math.ceil(n / size), math.ceil(n / size)), dtype=np.int64)
    for i, j, shared in shared_token_pairs(chunks):
        m[i // size, j // size] += shared
        m[j // size, i // size] += shared
    return OverlapMatrix(values=m, bin_size=size, first=chunks[0].order if chunks else 0)


def chapter_changes(chunks: Sequence[Chunk]) -> list[int]:
    """Positions in ``chunks`` where a chunk's chapter differs from the previous chunk's."""
    return [i for i in range(1, len(chunks)) if chunks[i].chapter != chunks[i - 1].chapter]


def overlap_heatmap(chunks: Sequence[Chunk], *, max_cells: int = 200) -> go.Figure:
    """Heatmap of shared tokens between chunks, with dashed lines where the chapter changes.

    Args:
        chunks (Sequence[Chunk]): the chunks to show (the whole book or a contiguous range).
        max_cells (int): bin so the matrix is at most this many cells a side. Defaults to 200.

    Returns:
        go.Figure: one ``Heatmap`` trace whose ``z`` equals ``overlap_matrix(...).values``.
    """
    om = overlap_matrix(chunks, max_cells=max_cells)
    axis = [om.first + k * om.bin_size for k in range(om.values.shape[0])]
    fig = go.Figure(
        go.Heatmap(
            z=om.values.tolist(),
            x=axis,
            y=axis,
            colorscale="Viridis",
            colorbar_title="shared tokens",
            hovertemplate="chunk %{y} × chunk %{x}<br>%{z} shared tokens<extra></extra>",
        )
    )
    # NOTE: shapes are built as one list: add_vline/add_hline copy the layout per call (quadratic).
    line = {"dash": "dot", "color": "#ff7f0e", "width": 1}
    shapes = []
    for i in chapter_changes(chunks):
        at = om.first + (i // om.bin_size) * om.bin_size - om.bin_size / 2
        shapes += [
            {"type": "line", "xref": "x", "yref": "paper", "x0": at, "x1": at, "y0": 0, "y1": 1},
            {"type": "line", "xref": "paper", "yref": "y", "x0": 0, "x1": 1, "y0": at, "y1": at},
        ]
    fig.update_layout(shapes=[dict(s, line=line) for s in shapes])
    unit = "chunk" if om.bin_size == 1 else f"chunk (bins of {om.bin_size})"
    fig.update_layout(
        xaxis_title=unit, yaxis_title=unit, height=560, margin={"l": 10, "r": 10, "t": 30, "b": 40}
    )
    fig.update_yaxes(autorange="reversed")
    return fig


def char_coverage(text_len: int, chunks: Sequence[Chunk]) -> np.ndarray:
    """How many chunks contain each character of the canonical text (int32, length ``text_len``)."""
    diff = np.zeros(text_len + 1, dtype=np.int32)
    np.add.at(diff, [c.char_start for c in chunks], 1)
    np.add.at(diff, [c.char_end for c in chunks], -1)
    return np.cumsum(diff[:-1], dtype=np.int32)


def coverage_grid(book: Book, chunks: Sequence[Chunk], *, columns: int = 40) -> np.ndarray:
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


def coverage_figure(book: Book, chunks: Sequence[Chunk], *, columns: int = 40) -> go.Figure:
    """Heatmap of ``coverage_grid`` (rows = physical pages) with chapter starts marked.

    Returns:
        go.Figure: a ``Heatmap`` (z = the grid) and a ``Scatter`` named ``"chapter starts"``.
    """
    grid = coverage_grid(book, chunks, columns=columns)
    pages = [p.number for p in book.pages]
    fig = go.Figure(
        go.Heatmap(
            z=grid.tolist(),
            y=pages,
            x=list(range(columns)),
            zmin=0,
            zmax=2,
            colorscale=COVERAGE_COLOURS,
            colorbar={"tickvals": [0.33, 1, 1.67], "ticktext": ["0 lost", "1", "2+"], "title": "chunks"},
            hovertemplate="page %{y}, position %{x}<br>%{z} chunk(s)<extra></extra>",
        )
    )
    fences = fence_headings(book)
    if fences:
        pos = page_positions(book, [h.char_offset for h in fences])
        fig.add_trace(
            go.Scatter(
                name="chapter starts",
                x=((pos - np.floor(pos)) * columns).tolist(),
                y=np.floor(pos).astype(int).tolist(),
                mode="markers+text",
                marker={"symbol": "triangle-right", "size": 11, "color": "#ff7f0e"},
                text=[html.escape(h.title[:30]) for h in fences],
                textposition="middle right",
                textfont={"size": 10},
                hovertemplate="%{text}<br>page %{y}<extra>chapter start</extra>",
            )
        )
    fig.update_layout(
        height=max(400, min(14 * len(pages), 4000)),
        xaxis_title="position within page",
        yaxis_title="physical page",
        margin={"l": 10, "r": 10, "t": 30, "b": 40},
        showlegend=False,
    )
    fig.update_yaxes(autorange="reversed")
    return fig


@dataclass(frozen=True)
class OverlapStats:
    """The line of figures under the overlap heatmaps (definitions: ``chunking.analysis.scorecard``).

    Attributes:
        inflation (float): tokens emitted (sum of chunk token counts) ÷ book tokens.
        overlap_within_chapters (int): tokens neighbouring chunks share inside one chapter unit.
        overlap_across_chapters (int): tokens neighbours share when their joint span crosses a
            chapter boundary (always 0 under ``chapter-window``).
        uncovered_tokens (int): tokens of the book in no chunk.
    """

    inflation: float
    overlap_within_chapters: int
    overlap_across_chapters: int
    uncovered_tokens: int


def overlap_stats(score: dict, chunks: Sequence[Chunk]) -> OverlapStats:
    """Split the neighbours' shared tokens into within/across chapters using a scorecard.

    Args:
        score (dict): ``chunking.analysis.scorecard.scorecard(chunks, tokenized, policy)``.
        chunks (Sequence[Chunk]): the same chunks, in order.
    """
    shared = sum(max(0, min(p.token_end, c.token_end) - c.token_start) for p, c in zip(chunks, chunks[1:]))
    across = int(score["cross_chapter_overlap_tokens"])
    return OverlapStats(
        inflation=float(score["inflation"]),
        overlap_within_chapters=shared - across,
        overlap_across_chapters=across,
        uncovered_tokens=int(score["uncovered_tokens"]),
    )
