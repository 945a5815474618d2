"""App stage (figures): the Boundaries map: the book's parts and chapters above its chunks.

One page axis (``inspector.figures.axis``) carries a hierarchical band (a row of parts above a row of
chapters, when the book has parts) over the chunk lanes. A unit's label is drawn only where it
fits the unit's width on screen (``inspector.figures.label_fit``): the full title, else a shortened one,
else its number, else nothing; every unit keeps its full title in hover. On a long book a
minimap of the whole book (plotly's range slider) sits under the plot, its window draggable; it
draws a few light traces, not the chunk bars again (``inspector.figures.boundary_minimap``).
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
import plotly.graph_objects as go

from chunking.models import CHAPTER_LEVEL_KINDS, Book, Chunk, Heading
from chunking.rules import fence_headings

from .. import palette
from .boundary_minimap import attach_minimap
from .axis import book_end, chunk_lanes, page_axis_name, page_label, page_positions
from .label_fit import DEFAULT_PLOT_PX, INSIDE_PAD_PX, LABEL_FONT_PX, fit_label

PARTS_ROW = "Parts"
CHAPTERS_ROW = "Chapters"
OCR_ROW = "OCR pages"
"""Row of the pages whose text was read by OCR (only in a book that has some)."""
OCR_TRACE = "read by OCR"
SELECTED_TRACE = "selected chunk"
"""Name of the trace that outlines the selected chunk (never in the legend)."""
MINIMAP_MIN_PAGES = 120
"""Books with more pages than this get the minimap (a range slider of the whole book)."""
MINIMAP_THICKNESS = 0.12
"""Height of the minimap as a fraction of the plot's height."""
MINIMAP_PX = 70
"""Extra figure height (px) that makes room for the minimap."""
BAND_MIN_PX = 6
"""Narrowest typical unit (median, px on screen) worth shading every other one of behind the
lanes; below it the shading would be a barcode, so the parts (or nothing) are shaded instead."""
GROUP_MIN_PX = 56
"""Narrowest group of chapters (px on screen) a dense Chapters row is cut into: each group is one
band of one fill with a range label (``chapter_groups``)."""
GROUPS_NOTE = "Chapters groups"
"""Name of the range-label annotations of a dense Chapters row."""
ROW_PX = 28
"""Height of one row (band or lane) in px."""
BASE_HEIGHT_PX = 170
"""Figure height besides its rows: margins, legend, axis title."""
MIN_BAR_PAGES = 0.02
"""Shortest bar drawn (in pages), so a one-line chunk or unit never vanishes."""

TICK_CHAR_PX = 7.0
"""Width of one character of a 12 px tick label, generously (plotly's default font)."""
MARGIN_PAD_PX = 20
"""Room beside the longest y tick label (tick gap and the chart's edge)."""
MARGIN_LEFT_MAX_PX = 480
"""Widest left margin given to tick labels (a longer policy label is cut, its hover is whole)."""
MARGIN_TOP_PX = 64
"""Top margin: room for a horizontal legend of two rows above the plot."""
MARGIN_BOTTOM_PX = 48
"""Bottom margin: the x ticks and the axis title."""

MINIMAP_AXIS_PX = 76
"""Room under the plot besides the minimap itself: the x ticks, the axis title and gaps."""


@dataclass(frozen=True)
class Unit:
    """One part or chapter-level unit on the page axis: ``[start, end)`` in page coordinates."""

    heading: Heading
    start: float
    end: float


def structure_units(book: Book) -> tuple[list[Unit], list[Unit]]:
    """The book's parts and its chapter-level units (``chunking.rules`` fences), each running to
    the next unit of its row or above (a chapter ends where the next chapter or part starts)."""
    fences = fence_headings(book)
    if not fences:
        return [], []
    pos = page_positions(book, [h.char_offset for h in fences]).tolist()
    end = float(book_end(book))
    parts, chapters = [], []
    for k, h in enumerate(fences):
        if h.kind == "part":
            nxt = next((pos[j] for j in range(k + 1, len(fences)) if fences[j].kind == "part"), end)
            parts.append(Unit(h, pos[k], max(nxt, pos[k] + MIN_BAR_PAGES)))
        elif h.kind in CHAPTER_LEVEL_KINDS:
            nxt = pos[k + 1] if k + 1 < len(fences) else end
            chapters.append(Unit(h, pos[k], max(nxt, pos[k] + MIN_BAR_PAGES)))
    return parts, chapters


def fixed_margin(y_labels: Sequence[str], *, bottom: int = MARGIN_BOTTOM_PX) -> dict[str, Any]:
    """Margins that hold the y tick labels, a top legend of up to two rows and the x axis title,
    with plotly's automatic margins off.

    # NOTE: when a label or the legend needs more room than the margins give, plotly grows them
    and draws the whole figure again (bench/RESULTS.md has the cost); margins computed here from
    the labels' lengths avoid that second pass.
    """
    longest = max((len(t) for t in y_labels), default=0)
    left = min(MARGIN_LEFT_MAX_PX, MARGIN_PAD_PX + int(longest * TICK_CHAR_PX))
    return {"l": left, "r": 10, "t": MARGIN_TOP_PX, "b": bottom, "autoexpand": False}


def minimap_bottom(height: float, top: float, thickness: float) -> int:
    """Bottom margin that holds the minimap (``thickness`` × the plot's height, drawn under the
    axis) and the axis under it, for a figure ``height`` px tall with a ``top`` margin."""
    # b = MINIMAP_AXIS_PX + thickness × (height − top − b), solved for b
    return int(np.ceil((MINIMAP_AXIS_PX + thickness * (height - top)) / (1 + thickness)))


def label_variants(h: Heading) -> list[str]:
    """A unit's labels, longest first (raw text; escaped after fitting).

    A part is named from the structure's own title (``Part II: Methods``; a title that already
    says ``Part …`` is kept as it is), else ``Part II``, never a bare ``II``: so a row of parts
    never mixes "Part I" with "III".
    """
    number, title = h.number.strip(), h.title.strip()
    if h.kind == "part":
        if title.lower().startswith("part") or not number:
            full = title
        else:
            full = f"Part {number}: {title}" if title else f"Part {number}"
        return [full, f"Part {number}" if number else ""]
    return [f"{number} {title}".strip(), number]


def fitted_labels(
    units: Sequence[Unit], x_range: tuple[float, float], plot_px: float = DEFAULT_PLOT_PX
) -> list[str]:
    """Each unit's label as drawn at ``x_range`` on a plot ``plot_px`` wide (``""``: none fits).

    A unit that starts left of the visible range gets none (its label would start off-screen); a
    unit running past the right edge is judged by its visible part.
    """
    x0, x1 = x_range
    px_per_page = plot_px / max(x1 - x0, 1e-9)
    out = []
    for u in units:
        if u.start < x0 - 1e-9 or u.start >= x1:
            out.append("")
            continue
        out.append(fit_label(label_variants(u.heading), (min(u.end, x1) - u.start) * px_per_page))
    return out


def continued_labels(
    row: str,
    units: Sequence[Unit],
    x_range: tuple[float, float],
    plot_px: float = DEFAULT_PLOT_PX,
    y: Any = None,
) -> list[dict]:
    """Labels of the units that start left of the visible range and run into it (the part a
    zoomed view sits in): plotly draws a bar's inside text from the bar's start, off-screen, so
    these are annotations at the left edge, fitted to the unit's visible width, on the row's
    ``y`` (defaults to ``row``, a category name)."""
    x0, x1 = x_range
    px_per_page = plot_px / max(x1 - x0, 1e-9)
    notes = []
    for u in units:
        if not (u.start < x0 - 1e-9 < u.end - 1e-9):
            continue
        text = fit_label(label_variants(u.heading), (min(u.end, x1) - x0) * px_per_page)
        if text:
            notes.append(
                {
                    "name": f"{row} continued",
                    "text": html.escape(text),
                    "x": x0,
                    "xref": "x",
                    "xanchor": "left",
                    "xshift": INSIDE_PAD_PX / 2,
                    "y": row if y is None else y,
                    "yref": "y",
                    "showarrow": False,
                    "font": {"size": LABEL_FONT_PX},
                }
            )
    return notes


def _dense(units: Sequence[Unit], px_per_page: float) -> bool:
    """True when the typical unit is narrower on screen than ``BAND_MIN_PX``: alternating fills
    would then be a barcode, so the row is drawn in one fill (hover still names each unit)."""
    return bool(units) and float(np.median([u.end - u.start for u in units])) * px_per_page < BAND_MIN_PX


def chapter_groups(
    units: Sequence[Unit],
    x_range: tuple[float, float],
    plot_px: float = DEFAULT_PLOT_PX,
    min_px: float = GROUP_MIN_PX,
) -> list[list[int]]:
    """The visible chapters (indices into ``units``) cut into consecutive groups at least
    ``min_px`` wide on screen (the last one may be narrower; it joins the previous group then)."""
    x0, x1 = x_range
    px_per_page = plot_px / max(x1 - x0, 1e-9)
    groups: list[list[int]] = []
    current: list[int] = []
    for k, u in enumerate(units):
        if u.end <= x0 or u.start >= x1:
            continue
        current.append(k)
        left, right = max(units[current[0]].start, x0), min(u.end, x1)
        if (right - left) * px_per_page >= min_px:
            groups.append(current)
            current = []
    if current:
        if groups:
            groups[-1] += current
        else:
            groups.append(current)
    return groups


def group_notes(
    units: Sequence[Unit],
    groups: Sequence[Sequence[int]],
    x_range: tuple[float, float],
    plot_px: float,
    y: Any = CHAPTERS_ROW,
) -> list[dict]:
    """A range label per group (``Ch. 12–24``, by the chapters' own numbers, else their ordinal
    ``#k``), centred on the group's visible part, fitted to its width (dropped when none fits),
    on the row's ``y``."""
    x0, x1 = x_range
    px_per_page = plot_px / max(x1 - x0, 1e-9)
    notes = []
    for group in groups:
        a, b = (units[group[0]].heading.number.strip() or f"#{group[0] + 1}",
                units[group[-1]].heading.number.strip() or f"#{group[-1] + 1}")  # fmt: skip
        span = f"{a}–{b}" if len(group) > 1 else a
        left, right = max(units[group[0]].start, x0), min(units[group[-1]].end, x1)
        text = fit_label([f"Ch. {span}", span, a], (right - left) * px_per_page)
        if text:
            notes.append(
                {
                    "name": GROUPS_NOTE,
                    "text": html.escape(text),
                    "x": (left + right) / 2,
                    "xref": "x",
                    "xanchor": "center",
                    "y": y,
                    "yref": "y",
                    "showarrow": False,
                    "font": {"size": LABEL_FONT_PX},
                }
            )
    return notes


@dataclass(frozen=True)
class StructureRow:
    """A row of parts or chapters as drawn at one x range (``structure_rows``).

    Attributes:
        name (str): ``PARTS_ROW`` or ``CHAPTERS_ROW`` (the trace's name).
        units (Sequence[Unit]): the row's units, in order.
        labels (list[str]): each unit's drawn label (raw text; ``""``: none fits).
        colours (list[str]): each unit's fill.
        notes (list[dict]): the row's annotations: a label at the left edge for a unit that runs in
            from the left (``continued_labels``), or the range label of each group of a dense
            Chapters row (``group_notes``).
    """

    name: str
    units: Sequence[Unit]
    labels: list[str]
    colours: list[str]
    notes: list[dict]


def structure_rows(
    parts: Sequence[Unit],
    chapters: Sequence[Unit],
    x_range: tuple[float, float],
    plot_px: float = DEFAULT_PLOT_PX,
    y: Callable[[str], Any] | None = None,
) -> list[StructureRow]:
    """The Parts row (when there are parts) and the Chapters row, top first, as every figure with
    the book's structure draws them (the Boundaries map, the Compare strips): one rule, here.

    A unit is labelled where its label fits (``fitted_labels``); one running in from the left is
    named at the left edge. Parts too thin to tell apart take one fill. Chapters too thin to label
    or shade one by one (``_dense``) are cut into groups at least ``GROUP_MIN_PX`` wide
    (``chapter_groups``), one fill per group, alternating, each with a range label
    (``group_notes``); every chapter keeps its own bar (and hover).

    Args:
        parts (Sequence[Unit]): the parts (``structure_units``).
        chapters (Sequence[Unit]): the chapter-level units.
        x_range (tuple[float, float]): the visible page range.
        plot_px (float): width of the plot area in px. Defaults to ``DEFAULT_PLOT_PX``.
        y (Callable[[str], Any] | None): a row's y value from its name (for a numeric y axis).
            Defaults to the name (a category).

    Returns:
        list[StructureRow]: the rows, top first (none for a book without structure).
    """
    at = y or (lambda name: name)
    px_per_page = plot_px / max(x_range[1] - x_range[0], 1e-9)
    rows = []
    if parts:
        fills = palette.PART_FILLS[:1] * 2 if _dense(parts, px_per_page) else palette.PART_FILLS
        rows.append(
            StructureRow(
                PARTS_ROW,
                parts,
                fitted_labels(parts, x_range, plot_px),
                [fills[k % 2] for k in range(len(parts))],
                continued_labels(PARTS_ROW, parts, x_range, plot_px, y=at(PARTS_ROW)),
            )
        )
    if chapters and _dense(chapters, px_per_page):
        groups = chapter_groups(chapters, x_range, plot_px)
        colours = [palette.CHAPTER_FILLS[0]] * len(chapters)
        for g, group in enumerate(groups):
            for k in group:
                colours[k] = palette.CHAPTER_FILLS[g % 2]
        notes = group_notes(chapters, groups, x_range, plot_px, y=at(CHAPTERS_ROW))
        rows.append(StructureRow(CHAPTERS_ROW, chapters, [""] * len(chapters), colours, notes))
    elif chapters:
        rows.append(
            StructureRow(
                CHAPTERS_ROW,
                chapters,
                fitted_labels(chapters, x_range, plot_px),
                [palette.CHAPTER_FILLS[k % 2] for k in range(len(chapters))],
                continued_labels(CHAPTERS_ROW, chapters, x_range, plot_px, y=at(CHAPTERS_ROW)),
            )
        )
    return rows


def unit_hover(u: Unit) -> str:
    """A unit's hover: its full label (number and title), kind, level, start page and source."""
    return (
        f"<b>{html.escape(label_variants(u.heading)[0])}</b><br>{u.heading.kind}, level {u.heading.level}"
        f"<br>starts on page {page_label(u.heading.page, u.heading.page_label)}<br>source: {u.heading.source}"
    )


def unit_trace(row: StructureRow, y: Any = None, width: float | None = None) -> go.Bar:
    """One bar per unit of ``row``, labelled inside where the label fits, its hover in
    ``customdata[0]``; on y ``y`` (defaults to the row's name, a category), ``width`` thick
    (defaults to plotly's)."""
    units = row.units
    return go.Bar(
        name=row.name,
        orientation="h",
        y=[row.name if y is None else y] * len(units),
        base=[u.start for u in units],
        x=[u.end - u.start for u in units],
        width=width,
        text=[html.escape(t) for t in row.labels],
        textposition="inside",
        insidetextanchor="start",
        # NOTE: a label never rotates; one that stops fitting after a zoom in the browser (a
        # narrower screen than ``plot_px``, a wider minimap window) shrinks inside its bar.
        # (uniformtext "hide" hid every label in chromium: plotly 6 scales them all to 0.)
        textangle=0,
        textfont={"size": LABEL_FONT_PX},
        marker_color=list(row.colours),
        marker_line_width=0,
        customdata=[[unit_hover(u)] for u in units],
        hovertemplate="%{customdata[0]}<extra></extra>",
        showlegend=False,
    )


def _bands(units: Sequence[Unit], top: str, n_rows: int) -> go.Bar:
    """Every other unit shaded behind all rows: one bar per unit on the top row, stretched down
    (offset and width are in category units, so it spans the whole plot)."""
    return go.Bar(
        name="chapter bands",
        orientation="h",
        y=[top] * len(units[::2]),
        base=[u.start for u in units[::2]],
        x=[u.end - u.start for u in units[::2]],
        width=n_rows,
        offset=0.5 - n_rows,
        marker_color=palette.BAND_FILL,
        marker_line_width=0,
        opacity=0.6,
        hoverinfo="skip",
        showlegend=False,
    )


def shaded_units(parts: Sequence[Unit], chapters: Sequence[Unit], px_per_page: float) -> Sequence[Unit]:
    """The finest level whose typical unit is at least ``BAND_MIN_PX`` wide on screen."""
    for units in (chapters, parts):
        if units and not _dense(units, px_per_page):
            return units
    return []


def boundaries_figure(
    book: Book,
    chunks: Sequence[Chunk],
    *,
    page_range: tuple[float, float] | None = None,
    selected: int | None = None,
    plot_px: float = DEFAULT_PLOT_PX,
) -> go.Figure:
    """The whole book on one page axis: parts and chapters on top, chunks as bars in lanes below.

    Bars are coloured by end reason (one trace per reason, named after it, the legend's entries);
    each bar's ``customdata`` row is ``[order, id, pages, tokens, chapter, section, end reason]``
    (read by the trace's hovertemplate), so a click selects the chunk by ``customdata[0]``. The
    selected chunk is outlined by a trace of its own (``SELECTED_TRACE``, not in the legend), so
    no legend swatch wears the outline. ``"Parts"`` (when the book has parts) and ``"Chapters"``
    are one bar per unit, labelled where the label fits (``fitted_labels``); ``"chapter bands"``
    shades every other chapter (or part, when chapters are too thin to shade) behind the lanes.
    A book with pages read by OCR gets an ``"OCR pages"`` row: one bar per run of such pages
    (``OCR_TRACE``), their mean word confidence in hover; a chunk's hover says whether its text
    came from OCR.

    Args:
        book (Book): the book (pages and headings).
        chunks (Sequence[Chunk]): its chunks in order.
        page_range (tuple[float, float] | None): x range to show, in pages. Defaults to all.
        selected (int | None): ``order`` of a chunk to outline. Defaults to none.
        plot_px (float): width of the plot area in px, for fitting labels. Defaults to
            ``DEFAULT_PLOT_PX``.

    Returns:
        go.Figure: the boundary map.
    """
    # NOTE: Streamlit re-mounts a selectable chart whenever its spec changes, so every re-chunk
    # is a fresh Plotly.newPlot in the browser (issue 7's slider target: bench/RESULTS.md). Hence the bands
    # are bar traces, not layout shapes, and hover fields are customdata columns under one
    # hovertemplate per trace (precomputed hover strings doubled the spec sent per re-chunk).
    end = book_end(book)
    x_range = (float(page_range[0]), float(page_range[1])) if page_range else (1.0, float(end))
    px_per_page = plot_px / max(x_range[1] - x_range[0], 1e-9)
    parts, chapters = structure_units(book)
    lanes = chunk_lanes(chunks)
    ocr_runs = ocr_page_runs(book)
    rows = [PARTS_ROW] * bool(parts) + [CHAPTERS_ROW] * bool(chapters) + [OCR_ROW] * bool(ocr_runs)
    rows += [f"Lane {i + 1}" for i in range(max(lanes, default=-1) + 1)]
    traces: list[go.Bar] = []
    shaded = shaded_units(parts, chapters, px_per_page)
    if shaded and rows:
        traces.append(_bands(shaded, rows[0], len(rows)))
    structure = structure_rows(parts, chapters, x_range, plot_px)
    traces += [unit_trace(row) for row in structure]
    if ocr_runs:
        traces.append(_ocr_trace(ocr_runs))
    traces += _chunk_traces(book, chunks, lanes, rows, selected)
    fig = go.Figure(traces)
    notes = [n for row in structure for n in row.notes]
    if notes:
        fig.update_layout(annotations=notes)
    # NOTE: no uirevision: a changed spec gives the chart a new Streamlit element id, so it is a
    # new plot and a zoom made in it is lost anyway (checked in chromium); the "Zoom to pages"
    # slider is the zoom that survives re-chunking.
    long_book = end - 1 > MINIMAP_MIN_PAGES
    height = BASE_HEIGHT_PX + ROW_PX * len(rows) + MINIMAP_PX * long_book
    margin = fixed_margin(rows)
    if long_book:
        margin["b"] = minimap_bottom(height, margin["t"], MINIMAP_THICKNESS)
    fig.update_layout(
        barmode="overlay",
        bargap=0.25,
        height=height,
        xaxis_title=page_axis_name(book),
        legend={"title_text": "end reason", "orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0},
        clickmode="event+select",
        margin=margin,
        hovermode="closest",
    )
    fig.update_yaxes(categoryorder="array", categoryarray=rows[::-1], fixedrange=True)
    fig.update_xaxes(range=list(x_range))
    if long_book:
        whole = plot_px / max(end - 1, 1e-9)
        band = shaded_units(parts, chapters, whole) or parts or chapters
        attach_minimap(fig, book, chunks, [u.start for u in band], end, MINIMAP_THICKNESS)
    return fig


def ocr_page_runs(book: Book) -> list[tuple[int, int, str]]:
    """Runs of consecutive pages read by OCR, as (first page, last page, hover text naming each
    page's mean word confidence)."""
    confidence = {p["page"]: p["mean_confidence"] for p in book.diagnostics.ocr_pages}
    runs: list[list[int]] = []
    for page in book.pages:
        if not page.ocr:
            continue
        if runs and runs[-1][-1] == page.number - 1:
            runs[-1].append(page.number)
        else:
            runs.append([page.number])
    out = []
    for run in runs:
        named = ", ".join(f"p. {n} ({confidence.get(n, 0):g})" for n in run[:12])
        more = f" and {len(run) - 12} more" if len(run) > 12 else ""
        out.append((run[0], run[-1], f"read by OCR (mean word confidence): {named}{more}"))
    return out


def _ocr_trace(runs: Sequence[tuple[int, int, str]]) -> go.Bar:
    return go.Bar(
        name=OCR_TRACE,
        orientation="h",
        y=[OCR_ROW] * len(runs),
        base=[float(first) for first, _, _ in runs],
        x=[float(last - first + 1) for first, last, _ in runs],
        marker_color=palette.OCR_PAGES,
        marker_line_width=0,
        customdata=[[note] for _, _, note in runs],
        hovertemplate="%{customdata[0]}<extra></extra>",
        showlegend=False,
    )


def _chunk_traces(
    book: Book, chunks: Sequence[Chunk], lanes: Sequence[int], rows: Sequence[str], selected: int | None
) -> list[go.Bar]:
    """One bar trace per end reason, then the selected chunk's outline (when it is among them)."""
    if not chunks:
        return []
    first_lane = len(rows) - (max(lanes) + 1)
    base = page_positions(book, [c.char_start for c in chunks])
    end = page_positions(book, [max(c.char_end - 1, c.char_start) for c in chunks])
    # NOTE: bars start at the page of the first non-whitespace char (chunk.page_start) even
    # when the span begins with a page's trailing newline.
    base = np.maximum(base, [c.page_start for c in chunks])
    end = np.maximum(np.minimum(end, [c.page_end + 0.999 for c in chunks]), base + MIN_BAR_PAGES)
    reasons = np.array([c.end_reason for c in chunks])
    traces = []
    for reason in dict.fromkeys(reasons.tolist()):
        idx = np.flatnonzero(reasons == reason)
        traces.append(
            go.Bar(
                name=reason,
                orientation="h",
                y=[rows[first_lane + lanes[int(i)]] for i in idx],
                base=base[idx].tolist(),
                x=(end[idx] - base[idx]).tolist(),
                marker_color=palette.END_REASON_COLOURS.get(reason, palette.UNKNOWN),
                marker_line_width=0,
                customdata=[_hover_row(chunks[int(i)]) for i in idx],
                hovertemplate=_CHUNK_HOVER,
            )
        )
    picked = [i for i, c in enumerate(chunks) if c.order == selected]
    if picked:
        i = picked[0]
        traces.append(
            go.Bar(
                name=SELECTED_TRACE,
                orientation="h",
                y=[rows[first_lane + lanes[i]]],
                base=[float(base[i])],
                x=[float(end[i] - base[i])],
                marker_color=palette.END_REASON_COLOURS.get(chunks[i].end_reason, palette.UNKNOWN),
                marker_line_width=3,
                marker_line_color=palette.SELECTED_OUTLINE,
                customdata=[_hover_row(chunks[i])],
                hovertemplate=_CHUNK_HOVER,
                showlegend=False,
            )
        )
    return traces


_CHUNK_HOVER = (
    "<b>chunk %{customdata[0]}</b> %{customdata[1]}<br>pages %{customdata[2]}"
    "<br>%{customdata[3]} tokens<br>chapter: %{customdata[4]}"
    "<br>section: %{customdata[5]}<br>ended by: %{customdata[6]}%{customdata[7]}<extra></extra>"
)
"""Hover of a chunk bar, filled from its ``_hover_row``."""


def _hover_row(c: Chunk) -> list:
    """A chunk bar's hover fields: order, id, pages (physical and printed), tokens, chapter,
    section (both escaped), end reason, and a line when its text came from OCR."""
    pages = page_label(c.page_start, c.page_label_start)
    if c.page_end != c.page_start:
        pages += " – " + page_label(c.page_end, c.page_label_end)
    return [
        c.order,
        c.id[:12],
        pages,
        c.token_count,
        html.escape(c.chapter or "–"),
        html.escape(c.section or "–"),
        c.end_reason,
        "<br>text from OCR" if c.ocr else "",
    ]
