"""CHUNKING.md is a contract: every Python block in it runs, in order, in one namespace."""

from __future__ import annotations

import re

from conftest import ROOT

DOC = ROOT / "CHUNKING.md"


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)


def test_chunking_doc_python_blocks_run_in_order(monkeypatch):
    monkeypatch.chdir(ROOT)
    blocks = python_blocks()
    assert len(blocks) >= 8
    namespace: dict = {}
    for i, block in enumerate(blocks):
        exec(compile(block, f"CHUNKING.md block {i + 1}", "exec"), namespace)


def test_chunking_doc_names_every_chunk_field_and_end_reason():
    from chunking.models import CHUNK_FIELDS, END_REASONS

    text = DOC.read_text(encoding="utf-8")
    for name in (*CHUNK_FIELDS, *END_REASONS):
        assert f"`{name}`" in text, name
