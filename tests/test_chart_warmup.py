"""The Book page sends one empty chart on a session's first run (``inspector.views.chart_warmup``), so
the browser starts plotly.js before the first page that draws a figure; later runs send none."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from inspector.views.chart_warmup import WARMUP_PX

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("fresh_streamlit_caches")]

APP = str(Path(__file__).resolve().parent.parent / "app.py")


def charts(at: AppTest) -> list[dict]:
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")]


def test_the_book_page_sends_one_empty_chart_on_a_sessions_first_run_only() -> None:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    (warmup,) = charts(at)
    assert warmup["data"] == [] and warmup["layout"]["height"] == WARMUP_PX
    at.run()
    assert charts(at) == []
