"""App stage (the Book page): pick a book, read its header, metrics, structure and diagnostics.

``app.py`` declares it as the navigation's default page, named "Book". The summary of the current
book sits in one ``st.empty`` slot, and reading a new book draws its progress bar *in that slot*:
the previous book's metrics are replaced by the progress bar at once instead of staying visible
(stale) below it while the new book is read.
"""

from __future__ import annotations

import streamlit as st

from inspector import views
from inspector.data import state
from inspector.data.sidebar import shown_instead
from inspector.views.chart_warmup import warm_up_charts


def book_page() -> None:
    """The home page: the shared sidebar, the book picker, then the current book's summary."""
    st.set_page_config(page_title="Book · Book Chunk Inspector", layout="wide")
    policy = state.sidebar_policy()
    st.title("Book Chunk Inspector")
    st.caption(
        "Pick a bundled sample or upload a book, tune the policy in the sidebar, then open "
        "Boundaries, Overlap, Chunks, Export, Compare, Retrieval or Structure in the sidebar's page list."
    )
    state.choose_book()
    slot = st.empty()
    with slot:  # NOTE: a progress bar or error drawn here replaces the old book's summary
        run = state.current_run(policy)
    with slot.container():
        if run.policy != policy:  # NOTE: the note drawn while reading was in the slot just replaced
            shown_instead("max_chunks", run.policy)
        views.summary(run)
    warm_up_charts()  # the browser starts plotly.js now, not on the first page with a chart
