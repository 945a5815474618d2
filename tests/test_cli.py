"""The CLI frame: usage errors are one stderr line with exit 2, never a traceback."""

from __future__ import annotations

import subprocess
import sys

from chunking.cli import build_parser, main

COMMANDS = ("outline", "chunk", "validate", "compare", "locate", "search", "evaluate", "diff")


def test_every_command_is_declared():
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    assert set(sub.choices) == set(COMMANDS)


def test_unknown_command_is_a_usage_error(capsys):
    assert main(["frobnicate"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("chunking: error:") and err.count("\n") == 1


def test_bad_policy_value_exits_2_naming_the_field(tmp_path, capsys):
    book = tmp_path / "b.txt"
    book.write_text("hello")
    assert main(["chunk", str(book), "--overlap", "600"]) == 2
    err = capsys.readouterr().err
    assert "'overlap_tokens'" in err and err.count("\n") == 1


def test_module_entry_point_reports_errors_without_traceback(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "chunking", "outline", str(tmp_path / "book.docx")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 3
    assert "Traceback" not in proc.stderr and proc.stderr.count("\n") == 1
