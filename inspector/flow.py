"""Page flow: stop a page's run so that nothing after the stop can run.

``st.stop()`` raises only inside a Streamlit script run; elsewhere (a page module imported by
a test or a tool, a "spawn" child re-importing the app as its ``__main__``) it returns, and the
code after it, written on the premise that it never runs, would run on missing data. ``stop()``
raises in every case, so its callers (and the type checker) can count on it.
"""

from __future__ import annotations

from typing import NoReturn

import streamlit as st


class PageStopped(Exception):
    """Raised when ``st.stop()`` returned: there was no script run to stop."""


def stop() -> NoReturn:
    """``st.stop()``, then raise ``PageStopped`` should it return."""
    st.stop()
    raise PageStopped("the page stopped outside a Streamlit script run")
