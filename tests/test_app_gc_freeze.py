"""The app exempts its imported objects from the cyclic garbage collector before the first read
(``inspector.data.cache._freeze_imported_objects``), so Streamlit's full ``gc.collect()`` after every
script run no longer walks them. Checked in a fresh process: a test process may have frozen first.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent

_SCRIPT = f"""
import gc
import streamlit, plotly.graph_objects, pandas  # what the app's pages import
from streamlit.testing.v1 import AppTest
imported = len(gc.get_objects())
at = AppTest.from_file({str(ROOT / "app.py")!r}, default_timeout=60)
at.run()
assert not at.exception, [e.value for e in at.exception]
print(imported, gc.get_freeze_count())
"""


def test_the_objects_alive_after_the_imports_are_frozen_by_the_first_page_run() -> None:
    done = subprocess.run([sys.executable, "-c", _SCRIPT], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    imported, frozen = map(int, done.stdout.split()[-2:])
    assert frozen >= imported
