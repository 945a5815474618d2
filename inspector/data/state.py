"""App stage: the one import pages use — sidebar policy, current book, cached runs, display.

Contract for page authors (``pages/*.py`` and the Book page of ``inspector/views/home.py``)::

    policy = state.sidebar_policy()      # renders the sidebar; a bad policy: error beside its field, last valid returned
    run = state.current_run(policy)      # cached: parse by file hash, tokenize by (hash, encoding)
    state.show_fig(fig, key="mypage_fig")

The work is split by job, and every name is re-exported here so pages keep one import:

* ``inspector.data.sidebar``: the policy widgets (``sidebar_policy``);
* ``inspector.data.book_picker``: the current book (``BookSource``, ``book_source``, ``choose_book``);
* ``inspector.data.corrections``: the Structure page's corrections and structure files;
* ``inspector.data.cache``: parse, tokenize, chunk, score, validate and export, cached per book and
  policy (``current_book``, ``current_run``, ``AppRun``);
* here: the shared plotly display (``show_fig``).
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from inspector.data.book_picker import (  # noqa: F401  (re-exported for pages)
    DEFAULT_SAMPLE,
    SAMPLE_DIR,
    UPLOAD_TYPES,
    BookSource,
    book_source,
    choose_book,
    sample_names,
)
from inspector.data.cache import (  # noqa: F401
    AppRun,
    corrected_book,
    current_book,
    current_run,
    policy_items,
)
from inspector.data.corrections import (  # noqa: F401
    CORRECTIONS_KEY,
    corrections,
    set_corrections,
    structure_file_of,
)
from inspector.data.sidebar import ENCODINGS, sidebar_policy  # noqa: F401

PLOTLY_CONFIG = {
    "displaylogo": False,
    "modeBarButtonsToRemove": ["lasso2d", "autoScale2d"],
    "toImageButtonOptions": {"format": "png", "scale": 2},
}
"""The modebar every figure shares: no logo, no lasso, PNG export at 2×."""


def show_fig(fig: Any, *, key: str, select: bool = False) -> Any:
    """Show a plotly figure with the shared config; optionally return the user's point selection.

    Args:
        fig (plotly.graph_objects.Figure): from ``inspector.figures``.
        key (str): unique widget key (prefix it with the page's name).
        select (bool): rerun on click/box selection and return the selection state.
            Defaults to False.

    Returns:
        The ``PlotlyState`` selection when ``select`` is true, else the element.
    """
    if select:
        return st.plotly_chart(
            fig, key=key, config=PLOTLY_CONFIG, on_select="rerun", selection_mode=("points",)
        )
    return st.plotly_chart(fig, key=key, config=PLOTLY_CONFIG)
