"""App stage (charts): the browser loads and starts plotly.js on the Book page, before a page needs it.

Streamlit fetches its plotly.js bundle (4.7 MB) only when a page first shows a plotly chart, then
compiles and starts it, paid by whichever page comes first (the Compare page straight from the
Book page; figures in bench/RESULTS.md). One empty, transparent chart at the bottom of the Book page, sent once per session, has the browser do
that while the user reads the book's summary.
"""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

WARMED_KEY = "charts_warmed"
"""Session-state flag: this session's browser was sent the warm-up chart."""
WARMUP_PX = 10
"""Height of the warm-up chart (plotly's smallest figure height)."""


def warmup_figure() -> go.Figure:
    """A figure with no data, no axes and a transparent background, ``WARMUP_PX`` tall."""
    clear = "rgba(0,0,0,0)"
    return go.Figure(
        layout={
            "height": WARMUP_PX,
            "margin": {"l": 0, "r": 0, "t": 0, "b": 0},
            "xaxis": {"visible": False},
            "yaxis": {"visible": False},
            "paper_bgcolor": clear,
            "plot_bgcolor": clear,
            "showlegend": False,
        }
    )


def warm_up_charts() -> None:
    """Send the warm-up chart on the session's first run of this page (later runs send nothing:
    the browser keeps plotly.js started)."""
    if st.session_state.get(WARMED_KEY):
        return
    st.plotly_chart(
        warmup_figure(), key="charts_warmup", config={"staticPlot": True, "displayModeBar": False}
    )
    st.session_state[WARMED_KEY] = True
