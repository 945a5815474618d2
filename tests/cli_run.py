"""Running the real CLI in a subprocess and checking its one-line failures (hostile-input tests)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

BOOK_TEXT = ("Chapter 1\n\nThe first chapter has some words in it. " * 20 + "\n\n"
             "Chapter 2\n\nThe second chapter has more words. " * 20 + "\n")
"""A small two-chapter TXT book."""


def cli(*args: object, timeout: float = 120, **kwargs) -> subprocess.CompletedProcess:
    """``python -m chunking ARGS`` from the repository root, output captured as text."""
    return subprocess.run([sys.executable, "-m", "chunking", *map(str, args)], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout, **kwargs)


def one_error_line(r: subprocess.CompletedProcess, code: int) -> str:
    """The run exited with ``code`` and printed exactly one stderr line, no traceback."""
    lines = r.stderr.strip().splitlines()
    assert r.returncode == code, r.stderr
    assert "Traceback" not in r.stderr and len(lines) == 1, r.stderr
    return lines[0]
