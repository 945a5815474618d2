"""Structure: why each chapter was found (evidence per signal), the page it starts on, the
candidates the engine rejected, and corrections (add, remove, move, change) that re-chunk at once
and download as the ``<book>.structure.json`` the CLI reads with ``--structure-file``.

The blocks are ``inspector.views.structure``'s, drawn in order.
"""

import streamlit as st

from inspector import views
from inspector.data import state
from inspector.views import structure

st.set_page_config(page_title="Structure · Book Chunk Inspector", layout="wide")
run = state.current_run(state.sidebar_policy())
page = structure.structure_page(run)
views.book_heading(run)

structure.upload(page)
structure.summary(page)
selected = structure.evidence(page)
structure.selected_heading(page, selected)
structure.rejected(page)
structure.correct(page, selected)
structure.corrections(page)
