"""App stage (figures): where overlap goes along the book and whether it crosses chapters.

Two views replace the whole-book chunk × chunk matrix (a dark square with one thin diagonal):

* ``overlap_per_boundary_figure``: the tokens each pair of neighbours shares, along the book,
  inside a chapter or across a chapter boundary (``chunking.rules.crosses_fence``, the rule the
  scorecard counts with);
* ``banded_overlap_figure``: the matrix only near its diagonal, for a chosen range of chunks.

The coverage map (lost / once / overlapped) is ``inspector.figures.coverage``.
"""

from __future__ import annotations

import bisect
import html
import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import plotly.graph_objects as go

from chunking.models import Book, Chunk
from chunking.rules import crosses_fence, fence_headings, fence_offsets

from .. import palette
from .axis import book_end, page_axis_name, page_positions

INSIDE = "inside a chapter"
ACROSS = "across a chapter boundary"
NO_OVERLAP = "no overlap"
CHAPTER_STARTS = "chapter starts"
"""Name of the heatmap's trace marking the chunk where each chapter (or part) starts."""
CHAPTER_LINE = "#555555"
"""The dashed lines before a chapter's first chunk on the heatmap (neutral: not overlap, not across)."""
BAND = 4
"""Neighbours on each side of the diagonal shown by the banded matrix (overlap is between close
neighbours; farther cells are always empty)."""
MAX_BAND_CHUNKS = 120
"""Most chunks the banded matrix shows at once (cells stay a few px wide on a wide page)."""


# ------------------------------------------------------------------- overlap per boundary
@dataclass(frozen=True)
class BoundaryOverlap:
    """The tokens two neighbouring chunks share.

    Attributes:
        order (int): the later chunk's ``order``.
        position (float): page coordinate where the later chunk starts.
        shared (int): tokens both hold (0: the boundary has no overlap).
        across (bool): the neighbours' joint span crosses a chapter boundary.
    """

    order: int
    position: float
    shared: int
    across: bool


def boundary_overlaps(book: Book, chunks: Sequence[Chunk]) -> list[BoundaryOverlap]:
    """One ``BoundaryOverlap`` per pair of neighbours, as the scorecard counts them: shared tokens
    ``min(prev.token_end, cur.token_end) - cur.token_start``, across when the pair's joint span
    crosses a fence (``chunking.rules.crosses_fence``)."""
    if len(chunks) < 2:
        return []
    fences = fence_offsets(book)
    pos = page_positions(book, [c.char_start for c in chunks[1:]]).tolist()
    out = []
    for k, (prev, cur) in enumerate(zip(chunks, chunks[1:])):
        shared = max(0, min(prev.token_end, cur.token_end) - cur.token_start)
        span = (min(prev.char_start, cur.char_start), max(prev.char_end, cur.char_end))
        across = shared > 0 and crosses_fence(book.text, span[0], span[1], fences)
        out.append(BoundaryOverlap(cur.order, max(pos[k], cur.page_start), shared, across))
    return out


def overlap_per_boundary_figure(book: Book, chunks: Sequence[Chunk]) -> go.Figure:
    """Tokens shared at each boundary between neighbours, along the book's page axis.

    Returns:
        go.Figure: ``Scatter`` traces named ``INSIDE`` (overlap colour), ``ACROSS`` (its own
        colour, larger marks) and ``NO_OVERLAP`` (grey, at 0); ``customdata`` rows are
        ``[order of the later chunk, its previous chunk's chapter, its chapter]`` (escaped).
    """
    overlaps = boundary_overlaps(book, chunks)
    by_order = {c.order: k for k, c in enumerate(chunks)}
    groups = (
        (INSIDE, lambda b: b.shared > 0 and not b.across, palette.OVERLAP, 6, "circle"),
        (ACROSS, lambda b: b.across, palette.ACROSS, 9, "diamond"),
        (NO_OVERLAP, lambda b: b.shared == 0, palette.UNKNOWN, 4, "line-ns-open"),
    )
    fig = go.Figure()
    for name, keep, colour, size, symbol in groups:
        picked = [b for b in overlaps if keep(b)]
        rows = []
        for b in picked:
            k = by_order[b.order]
            rows.append(
                [b.order, html.escape(chunks[k - 1].chapter or "–"), html.escape(chunks[k].chapter or "–")]
            )
        fig.add_trace(
            go.Scatter(
                name=name,
                x=[b.position for b in picked],
                y=[b.shared for b in picked],
                mode="markers",
                marker={"color": colour, "size": size, "symbol": symbol},
                customdata=rows,
                hovertemplate="chunks %{customdata[0]}−1 → %{customdata[0]}<br>%{y} tokens shared"
                "<br>from: %{customdata[1]}<br>to: %{customdata[2]}<extra>" + name + "</extra>",
            )
        )
    fig.update_layout(
        height=320,
        xaxis_title=f"{page_axis_name(book)} (where the later chunk starts)",
        yaxis_title="tokens shared with the previous chunk",
        legend={"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0},
        margin={"l": 10, "r": 10, "t": 40, "b": 40},
    )
    fig.update_xaxes(range=[1, book_end(book)])
    fig.update_yaxes(rangemode="tozero")
    return fig


# ------------------------------------------------------------------------ banded matrix
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


def banded_matrix(chunks: Sequence[Chunk], band: int = BAND) -> np.ndarray:
    """Shared tokens between chunks ``i`` and ``j`` for ``0 < |i - j| <= band`` (float; NaN on
    the diagonal and outside the band, where the figure draws nothing)."""
    n = len(chunks)
    m = np.full((n, n), np.nan)
    for i in range(n):
        for j in range(max(0, i - band), min(n, i + band + 1)):
            if i != j:
                m[i, j] = 0.0
    for i, j, shared in shared_token_pairs(chunks):
        if j - i <= band:
            m[i, j] = m[j, i] = shared
    return m


def banded_overlap_figure(book: Book, chunks: Sequence[Chunk], *, band: int = BAND) -> go.Figure:
    """The chunk × chunk shared-token matrix near its diagonal, for a range of chunks.

    Args:
        book (Book): the book (its fences decide which pairs cross a chapter).
        chunks (Sequence[Chunk]): a contiguous range of chunks (at most ``MAX_BAND_CHUNKS`` make
            a readable picture).
        band (int): neighbours shown on each side of the diagonal. Defaults to ``BAND``.

    Returns:
        go.Figure: a ``Heatmap`` (z = ``banded_matrix``, axes = chunk orders) and a ``Scatter``
        named ``ACROSS`` marking the pairs with overlap whose joint span crosses a chapter, then
        a ``Scatter`` named ``CHAPTER_STARTS`` on the diagonal at the chunk where each chapter or
        part starts (its title in the hover), with dotted lines before that chunk (layout shapes).
    """
    m = banded_matrix(chunks, band)
    orders = [c.order for c in chunks]
    fences = fence_offsets(book)
    across = [
        (i, j)
        for i, j, _ in shared_token_pairs(chunks)
        if j - i <= band
        and crosses_fence(
            book.text,
            min(chunks[i].char_start, chunks[j].char_start),
            max(chunks[i].char_end, chunks[j].char_end),
            fences,
        )
    ]
    fig = go.Figure(
        go.Heatmap(
            z=[[None if math.isnan(v) else int(v) for v in row] for row in m],
            x=orders,
            y=orders,
            colorscale=[[0.0, "#ffffff"], [1.0, palette.OVERLAP]],
            zmin=0,
            colorbar={"title": {"text": "shared tokens"}},
            hovertemplate="chunk %{y} × chunk %{x}<br>%{z} shared tokens<extra></extra>",
            xgap=1,
            ygap=1,
        )
    )
    fig.add_trace(
        go.Scatter(
            name=ACROSS,
            x=[orders[j] for i, j in across] + [orders[i] for i, j in across],
            y=[orders[i] for i, j in across] + [orders[j] for i, j in across],
            mode="markers",
            marker={"symbol": "x-thin", "size": 9, "line": {"width": 2, "color": palette.ACROSS}},
            hovertemplate="chunk %{y} × chunk %{x}<br>crosses a chapter boundary<extra></extra>",
        )
    )
    starts = chapter_start_chunks(book, chunks)
    fig.add_trace(
        go.Scatter(
            name=CHAPTER_STARTS,
            x=[order for order, _ in starts],
            y=[order for order, _ in starts],
            mode="markers",
            marker={"symbol": "diamond-open", "size": 10, "color": CHAPTER_LINE},
            customdata=[title for _, title in starts],
            hovertemplate="chunk %{x} starts %{customdata}<extra></extra>",
        )
    )
    line = {"color": CHAPTER_LINE, "width": 1, "dash": "dot"}
    lo, hi = (orders[0] - 0.5, orders[-1] + 0.5) if orders else (0, 0)
    shapes = [
        shape
        for order, _ in starts
        if order > orders[0]
        for shape in (
            {"type": "line", "x0": order - 0.5, "x1": order - 0.5, "y0": lo, "y1": hi, "line": line},
            {"type": "line", "y0": order - 0.5, "y1": order - 0.5, "x0": lo, "x1": hi, "line": line},
        )
    ]
    side = max(320, min(720, 14 * len(chunks) + 120))
    fig.update_layout(
        shapes=shapes,
        height=side,
        xaxis_title="chunk",
        yaxis_title="chunk",
        showlegend=True,
        legend={"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0},
        margin={"l": 10, "r": 10, "t": 40, "b": 40},
    )
    fig.update_yaxes(autorange="reversed")
    return fig


def chapter_start_chunks(book: Book, chunks: Sequence[Chunk]) -> list[tuple[int, str]]:
    """(order, escaped title) of the chunk holding each chapter's or part's start, for the
    chapters that start inside this contiguous range of chunks; one entry per chunk (titles of
    units starting in the same chunk joined with " / ")."""
    ends = [c.char_end for c in chunks]
    found: dict[int, list[str]] = {}
    for h in fence_headings(book):
        k = bisect.bisect_right(ends, h.char_offset)
        if k < len(chunks) and (k > 0 or chunks[0].char_start <= h.char_offset):
            found.setdefault(chunks[k].order, []).append(html.escape(h.title))
    return [(order, " / ".join(titles)) for order, titles in found.items()]
