"""Rule of issue 15: a single-book chunk run imports only what it needs (fixed costs). The
retrieval index (bm25s), dense embeddings, Ray, pandas/pyarrow and the app's libraries are
loaded by the commands that use them, not by ``python -m chunking chunk``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOT_FOR_CHUNK = ("bm25s", "wordllama", "ray", "pandas", "pyarrow", "streamlit", "plotly", "lancedb")


def test_the_chunk_command_does_not_import_what_it_does_not_use(tmp_path):
    # NOTE: main(), not ``python -m chunking``: the module ends the process itself (cli.exit_process)
    code = (
        "import sys\n"
        "from chunking.cli import main\n"
        f"code = main(['chunk', {str(ROOT / 'sample_books' / 'lshort.pdf')!r}, '-o', "
        f"{str(tmp_path / 'out.jsonl')!r}])\n"
        "assert code == 0, code\n"
        f"print(sorted(m for m in {NOT_FOR_CHUNK!r} if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert (tmp_path / "out.jsonl").stat().st_size > 0
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stdout


def test_importing_the_package_loads_no_stage():
    code = "import sys, chunking; print(sorted(m for m in sys.modules if m.startswith('chunking.')))"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
