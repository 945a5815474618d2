"""App stage (figures): the Boundaries map's minimap — a light picture of the whole book under the
plot (plotly's range slider), its window draggable.

Plotly's range slider redraws every trace of the x axis it belongs to. Drawn over the map's own
axis it drew every chunk bar twice, a large share of the browser's drawing time on a long book
(the cost of each slider step, issue 14). So the map's bars live on a second x axis (``MAP_XAXIS``)
that overlays and matches the first; the first axis holds the range slider and only the few
light traces built here: the shaded chapter (or part) band as one filled step line and the
density of chunk starts along the book as one filled area. Their y axis is the plain ``y``, whose
range in the main plot lies above them (the map's rows move to ``MAP_YAXIS``), while the range
slider fixes it to their [0, 1]: they are drawn only in the minimap.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import plotly.graph_objects as go

from chunking.models import Book, Chunk

from .. import palette
from .axis import page_positions

MAP_XAXIS = "x2"
"""The x axis of the map's own traces (bands, units, chunk bars); it overlays and matches ``x``."""
MAP_YAXIS = "y2"
"""The y axis of the map's rows when it has a minimap (it overlays ``y``, the minimap's own)."""
MINIMAP_BINS = 300
"""Bins of the chunk-start density along the book (about one per 5 px of a typical minimap)."""
DENSITY_TOP = 0.62
"""Top of the density area, in the minimap's [0, 1] height (the band sits above it)."""
BAND_BOTTOM, BAND_TOP = 0.72, 1.0
"""The shaded band's extent in the minimap's [0, 1] height."""
MINIMAP_PREFIX = "minimap: "
"""Names of the minimap's traces start with this (never an end reason: the legend ignores them)."""


def band_step(starts: Sequence[float], end: float, first: float = 1.0) -> tuple[list[float], list[float]]:
    """A step line (plotly ``line_shape="hv"``) that is ``BAND_TOP`` over every other unit
    (the 1st, 3rd, …) and ``BAND_BOTTOM`` elsewhere: filled down to a flat line at
    ``BAND_BOTTOM``, it is the alternating band in one path instead of one bar per unit."""
    xs, ys = [first], [BAND_BOTTOM]
    for k, s in enumerate(starts):
        xs.append(float(s))
        ys.append(BAND_TOP if k % 2 == 0 else BAND_BOTTOM)
    xs.append(float(end))
    ys.append(BAND_BOTTOM)
    return xs, ys


def start_density(book: Book, chunks: Sequence[Chunk], end: float) -> tuple[list[float], list[float]]:
    """Chunk starts per bin along the book, scaled to ``[0, DENSITY_TOP]``, as bin edges and
    heights of a step line (short chunks, e.g. around fences, show as peaks)."""
    bins = int(min(MINIMAP_BINS, max(1, np.ceil(end - 1))))
    starts = page_positions(book, [c.char_start for c in chunks]) if chunks else np.zeros(0)
    counts, edges = np.histogram(starts, bins=bins, range=(1.0, end))
    peak = max(int(counts.max(initial=0)), 1)
    heights = (counts / peak * DENSITY_TOP).round(3).tolist()
    return edges.round(3).tolist(), heights + heights[-1:]


def minimap_traces(
    book: Book, chunks: Sequence[Chunk], band: Sequence[float], end: float
) -> list[go.Scatter]:
    """The minimap's traces (on the plain axes ``x`` and ``y``): the band over units starting at
    ``band`` (chapter or part starts, in pages) and the density of chunk starts."""
    common = {"xaxis": "x", "yaxis": "y", "hoverinfo": "skip", "showlegend": False}
    xs, ys = start_density(book, chunks, end)
    traces = [
        go.Scatter(
            x=xs,
            y=ys,
            name=MINIMAP_PREFIX + "chunk starts",
            mode="lines",
            line={"shape": "hv", "width": 0},
            fill="tozeroy",
            fillcolor=palette.CHAPTER_FILLS[0],
            **common,
        ),
    ]
    if band:
        bx, by = band_step(band, end)
        traces += [
            go.Scatter(
                x=[1.0, float(end)],
                y=[BAND_BOTTOM, BAND_BOTTOM],
                name=MINIMAP_PREFIX + "band base",
                mode="lines",
                line={"width": 0},
                **common,
            ),
            go.Scatter(
                x=bx,
                y=by,
                name=MINIMAP_PREFIX + "band",
                mode="lines",
                line={"shape": "hv", "width": 0},
                fill="tonexty",
                fillcolor=palette.PART_FILLS[0],
                **common,
            ),
        ]
    return traces


def attach_minimap(
    fig: go.Figure, book: Book, chunks: Sequence[Chunk], band: Sequence[float], end: float, thickness: float
) -> None:
    """Move ``fig``'s traces and its y axis to ``MAP_XAXIS`` / ``MAP_YAXIS`` (overlaying the plain
    axes) and put the minimap (a range slider of the whole book, ``[1, end]``) under the plot."""
    rows = fig.layout.yaxis.to_plotly_json()
    fig.update_traces(xaxis=MAP_XAXIS, yaxis=MAP_YAXIS)
    fig.update_annotations(selector={"yref": "y"}, yref=MAP_YAXIS)  # labels placed on a row
    fig.add_traces(minimap_traces(book, chunks, band, end))
    fig.update_layout(
        xaxis2={"overlaying": "x", "matches": "x", "visible": False},
        yaxis2={**rows, "overlaying": "y"},
    )
    # the minimap's own y axis (replaced, not merged: no categories): in the main plot its range
    # lies above the traces (nothing is drawn there); in the range slider it is fixed to [0, 1].
    fig.layout.yaxis = go.layout.YAxis(range=[2, 3], visible=False, fixedrange=True)
    fig.update_layout(
        xaxis_rangeslider={
            "visible": True,
            "range": [1, end],
            "thickness": thickness,
            "yaxis": {"rangemode": "fixed", "range": [0, 1]},
        }
    )


def map_yaxis(fig: go.Figure) -> go.layout.YAxis:
    """The y axis that holds the map's rows (``yaxis2`` when the figure has a minimap)."""
    return fig.layout.yaxis2 if fig.layout.xaxis.rangeslider.visible else fig.layout.yaxis
