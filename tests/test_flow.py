"""A stopped page never runs on: ``inspector.flow.stop`` raises even where ``st.stop()`` returns."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from inspector import flow

ROOT = Path(__file__).resolve().parent.parent


def test_stop_outside_a_script_run_raises_instead_of_returning():
    with pytest.raises(flow.PageStopped):
        flow.stop()


def test_no_page_or_view_calls_st_stop_directly():
    """Every stop goes through ``flow.stop`` (``st.stop`` returns outside a script run)."""
    found = []
    for path in [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py")), *sorted((ROOT / "inspector").glob("*.py"))]:
        if path.name == "flow.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "stop"
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "st"):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []
