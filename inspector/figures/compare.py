"""App stage (comparison figures): pure functions from several chunk sets of one book to plotly Figures.

Nothing here imports Streamlit. Each chunk set comes as a ``(label, chunks)`` pair, in the order
the page shows them. Positions along the book are the page coordinates of ``inspector.figures``
(``page + fraction`` of the page's canonical text), so strips of different policies line up on one
page axis with the book's chapters. Trace data are plain lists so a figure's JSON reads back.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

import numpy as np
import plotly.graph_objects as go

from chunking.models import Book, Chunk

from .. import palette
from .boundary import (
    CHAPTERS_ROW,
    PARTS_ROW,
    Unit,
    fixed_margin,
    shaded_units,
    structure_rows,
    structure_units,
    unit_trace,
)
from .axis import book_end, page_axis_name, page_positions
from .label_fit import DEFAULT_PLOT_PX

# NOTE: a policy's colours come from its name (``palette.policy_colours``), never its position,
# so the Retrieval page shows the same policy in the same colour; even and odd chunks take the
# colour and its light variant, so neighbours and overlap show.

ChunkSet = tuple[str, Sequence[Chunk]]

HIST_Y_CHARS = 7
"""The histogram's left margin in characters: its count ticks and the rotated axis title."""
_TOP_LEGEND = {"title_text": "policy", "orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0}
"""Both figures' legend: one or two rows above the plot, inside the fixed top margin."""

_HOVER = (
    "<br>chunk %{customdata[0]}, pages %{customdata[1]}–%{customdata[2]}<br>%{customdata[3]} tokens"
    "<br>chapter: %{customdata[4]}<br>section: %{customdata[5]}<extra></extra>"
)
"""Hover text of a strip's bar (book strings in ``customdata`` are HTML-escaped)."""


def boundary_strips(
    book: Book,
    runs: Sequence[ChunkSet],
    *,
    page_range: tuple[float, float] | None = None,
    plot_px: float = DEFAULT_PLOT_PX,
) -> go.Figure:
    """One strip per policy on a shared page axis, under the book's parts and chapters.

    In each strip, even chunks sit on the upper half and odd chunks on the lower half, so two
    overlapping neighbours are both visible and every chunk start is a visible bar edge. Trace
    ``i`` is policy ``i`` (named after its label), one bar per chunk in order, with
    ``customdata[0]`` the chunk's ``order``. Above the strips, the ``"Parts"`` row (a book with
    parts) and the ``"Chapters"`` row (the last trace) are the Boundaries map's
    (``boundary.structure_rows``: labels where they fit, a dense Chapters row in labelled groups);
    alternate chapters (or parts, where chapters are too thin) are shaded across all strips.
    ``zoom_strips`` redraws the rows for another page range.

    Args:
        book (Book): the book all chunk sets were cut from.
        runs (Sequence[ChunkSet]): ``(label, chunks)`` per policy.
        page_range (tuple[float, float] | None): x range to zoom to, in pages. Defaults to all.
        plot_px (float): width of the plot area in px, for fitting chapter labels. Defaults to
            ``DEFAULT_PLOT_PX``.

    Returns:
        go.Figure: the aligned boundary strips.
    """
    fig = go.Figure()
    n_pages = max((p.number for p in book.pages), default=1)
    for i, (label, chunks) in enumerate(runs):
        y = len(runs) - 1 - i
        even, odd = palette.policy_colours(label)
        base, width = _extents(book, chunks)
        fig.add_trace(
            go.Bar(
                name=label,
                orientation="h",
                base=base,
                x=width,
                width=0.4,
                y=[y + (0.21 if c.order % 2 == 0 else -0.21) for c in chunks],
                marker_color=[even if c.order % 2 == 0 else odd for c in chunks],
                marker_line_width=0,
                customdata=[
                    [
                        c.order,
                        c.page_start,
                        c.page_end,
                        c.token_count,
                        escape(c.chapter or "–"),
                        escape(c.section or "–"),
                    ]
                    for c in chunks
                ],
                hovertemplate=f"<b>{escape(label)}</b>" + _HOVER,
            )
        )
    parts, chapters = structure_units(book)
    at = _row_positions(len(runs), parts, chapters)
    rows = structure_rows(parts, chapters, _x_range(book, None), plot_px, y=at.get)
    for row in rows:  # NOTE: top first, so "Chapters" is the last trace
        fig.add_trace(unit_trace(row, y=at[row.name], width=0.8))
    labels = [label for label, _ in runs][::-1] + [row.name for row in rows[::-1]]
    _strips_layout(fig, labels, n_pages, page_range)
    fig.update_layout(xaxis_title=page_axis_name(book))
    zoom_strips(fig, book, page_range, plot_px)
    return fig


def zoom_strips(
    fig: go.Figure, book: Book, page_range: tuple[float, float] | None, plot_px: float = DEFAULT_PLOT_PX
) -> None:
    """Show ``page_range`` (None: the whole book) in a ``boundary_strips`` figure of ``book``: the
    x range, and the Parts and Chapters rows as ``structure_rows`` draws them there (labels where
    they fit, the groups of a dense row cut anew, their annotations) with the units shaded across
    the strips (``shaded_units``: chapters, or parts where chapters are too thin). The chunk
    strips are left as they are, so a cached figure is zoomed without being built again."""
    parts, chapters = structure_units(book)
    x_range = _x_range(book, page_range)
    n_strips = sum(1 for t in fig.data if t.name not in (PARTS_ROW, CHAPTERS_ROW))
    at = _row_positions(n_strips, parts, chapters)
    notes: list[dict] = []
    for row in structure_rows(parts, chapters, x_range, plot_px, y=at.get):
        drawn = unit_trace(row)
        fig.update_traces(selector={"name": row.name}, text=drawn.text, marker_color=drawn.marker.color)
        notes += row.notes
    # NOTE: assigned, not update_layout (which merges a list into the old one by index); one
    # layout update for every band, not add_vrect per unit (each rect is a relayout).
    fig.layout.annotations = notes
    band = {"type": "rect", "xref": "x", "yref": "paper", "y0": 0, "y1": 1, "fillcolor": palette.BAND_FILL}
    band.update(opacity=0.6, layer="below", line_width=0)
    shaded = shaded_units(parts, chapters, plot_px / max(x_range[1] - x_range[0], 1e-9))
    fig.layout.shapes = [dict(band, x0=u.start, x1=u.end) for u in shaded[::2]]
    fig.update_xaxes(range=list(x_range))


def _x_range(book: Book, page_range: tuple[float, float] | None) -> tuple[float, float]:
    """The page range shown: ``page_range``, else the whole book."""
    return (float(page_range[0]), float(page_range[1])) if page_range else (1.0, float(book_end(book)))


def _row_positions(n_strips: int, parts: Sequence[Unit], chapters: Sequence[Unit]) -> dict[str, int]:
    """Each structure row's y: Chapters right above the ``n_strips`` strips, Parts above it."""
    names = [PARTS_ROW] * bool(parts) + [CHAPTERS_ROW] * bool(chapters)
    return {name: n_strips + len(names) - 1 - k for k, name in enumerate(names)}


def _strips_layout(
    fig: go.Figure, rows: Sequence[str], n_pages: int, page_range: tuple[float, float] | None
) -> None:
    """Axes, rows, size and fixed margins of the strips figure (``rows`` bottom to top)."""
    fig.update_layout(
        barmode="overlay",
        height=140 + 70 * len(rows),
        legend=_TOP_LEGEND,
        margin=fixed_margin(rows),
    )
    fig.update_yaxes(tickvals=list(range(len(rows))), ticktext=list(rows), range=[-0.6, len(rows) - 0.4])
    fig.update_xaxes(range=list(page_range) if page_range else [1, n_pages + 1])


def _extents(book: Book, chunks: Sequence[Chunk]) -> tuple[list[float], list[float]]:
    """Bar base and length in page coordinates per chunk (at least a sliver, so none vanishes)."""
    if not chunks:
        return [], []
    base = page_positions(book, [c.char_start for c in chunks])
    end = page_positions(book, [max(c.char_end - 1, c.char_start) for c in chunks])
    # NOTE: as in the Boundaries figure, a bar starts on the page of the chunk's first real text.
    base = np.maximum(base, [c.page_start for c in chunks])
    end = np.maximum(np.minimum(end, [c.page_end + 0.999 for c in chunks]), base + 0.02)
    return base.tolist(), (end - base).tolist()


def token_histograms(runs: Sequence[ChunkSet], *, bin_tokens: int | None = None) -> go.Figure:
    """Overlaid histograms of chunk sizes in tokens, one trace per policy, on shared bins.

    Args:
        runs (Sequence[ChunkSet]): ``(label, chunks)`` per policy.
        bin_tokens (int | None): bin width in tokens. Defaults to about 40 bins over the largest
            chunk.

    Returns:
        go.Figure: trace ``i`` holds policy ``i``'s ``token_count`` values (``x``).
    """
    largest = max((c.token_count for _, chunks in runs for c in chunks), default=1)
    size = bin_tokens or max(1, -(-largest // 40))
    fig = go.Figure()
    for label, chunks in runs:
        fig.add_trace(
            go.Histogram(
                name=label,
                x=[c.token_count for c in chunks],
                opacity=0.55,
                xbins={"start": 0, "end": largest + size, "size": size},
                marker_color=palette.policy_colour(label),
            )
        )
    fig.update_layout(
        barmode="overlay",
        xaxis_title="tokens per chunk",
        yaxis_title="chunks",
        legend=_TOP_LEGEND,
        margin=fixed_margin(["0" * HIST_Y_CHARS]),
    )
    return fig
