"""The package's public surface and its layering rule (the core knows no screen)."""

from __future__ import annotations

import subprocess
import sys

import chunking


def test_public_api_snapshot():
    assert sorted(chunking.__all__) == sorted([
        "Book", "Chunk", "ChunkingError", "Diagnostics", "Heading", "Page", "Policy", "TokenizedBook",
        "__version__", "chunk_book", "load_book", "parse_policy", "run_book", "tokenize", "validate_chunks",
    ])
    assert all(hasattr(chunking, name) for name in chunking.__all__)


def test_core_never_imports_streamlit_or_plotly():
    # A fresh interpreter: importing every chunking module must not pull in a UI library.
    code = (
        "import pkgutil, importlib, sys, chunking\n"
        "for m in pkgutil.walk_packages(chunking.__path__, 'chunking.'):\n"
        "    if m.name != 'chunking.__main__': importlib.import_module(m.name)\n"
        "print(sorted(n for n in sys.modules if n.split('.')[0] in ('streamlit', 'plotly')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
