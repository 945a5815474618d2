"""App stage (figures): pure functions from a book and its chunks to plotly Figures and numbers.

Nothing here imports Streamlit, so every figure is tested on its own. Trace data are plain lists
(not numpy arrays, which plotly would serialise as base64 typed arrays) so a figure's JSON can be
read back and compared with the chunks. Book strings (titles, chapter names, page labels) are
HTML-escaped: plotly renders a few tags (``<b>``, ``<a href>``) in text and decodes entities back.

The figures live in modules by job, re-exported here so pages import one name:

* ``inspector.figures.axis``: the page axis they share (``page_positions``) and chunk lanes;
* ``inspector.figures.boundary``: the Boundaries map (parts and chapters above chunk lanes);
* ``inspector.figures.overlap``: overlap per boundary and the banded matrix;
* ``inspector.figures.coverage``: the coverage map (lost / once / overlapped);
* ``inspector.figures.label_fit``: which labels fit, from their estimated width on screen;
* ``inspector.palette``: every colour.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from chunking.models import Chunk
from chunking.rules import fence_headings

from .axis import book_end, chunk_lanes, page_label, page_positions
from .boundary import (
    MINIMAP_MIN_PAGES,
    SELECTED_TRACE,
    boundaries_figure,
    fitted_labels,
    structure_units,
    GROUP_MIN_PX,
    chapter_groups,
)
from .coverage import (
    MAX_COVERAGE_ROWS,
    char_coverage,
    coverage_figure,
    coverage_grid,
    coverage_plot_px,
    group_rows,
)
from .overlap import (
    BAND,
    MAX_BAND_CHUNKS,
    banded_matrix,
    banded_overlap_figure,
    boundary_overlaps,
    overlap_per_boundary_figure,
    shared_token_pairs,
)
from ..palette import END_REASON_COLOURS

__all__ = [
    "BAND",
    "END_REASON_COLOURS",
    "MAX_BAND_CHUNKS",
    "MAX_COVERAGE_ROWS",
    "MINIMAP_MIN_PAGES",
    "SELECTED_TRACE",
    "OverlapStats",
    "banded_matrix",
    "banded_overlap_figure",
    "book_end",
    "boundaries_figure",
    "boundary_overlaps",
    "char_coverage",
    "chunk_lanes",
    "coverage_figure",
    "coverage_grid",
    "coverage_plot_px",
    "group_rows",
    "fence_headings",
    "fitted_labels",
    "overlap_per_boundary_figure",
    "overlap_stats",
    "page_label",
    "page_positions",
    "shared_token_pairs",
    "structure_units",
    "GROUP_MIN_PX",
    "chapter_groups",
]


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
