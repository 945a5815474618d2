"""The CLI frame: usage errors are one stderr line with exit 2, never a traceback."""

from __future__ import annotations

import subprocess
import sys

from chunking.cli import build_parser, main

COMMANDS = ("outline", "chunk", "validate", "compare", "locate", "search", "evaluate", "diff", "index")


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


import os  # noqa: E402
import signal  # noqa: E402
import time  # noqa: E402

import pytest  # noqa: E402

from conftest import ROOT  # noqa: E402

MISSING_BOOK_ARGS = {
    "outline": [],
    "chunk": [],
    "compare": [],
    "locate": ["--passage-file", "{passage}"],
    "search": ["a query"],
    "evaluate": [],
}
"""Each book command's extra arguments: with a missing book, each must reach its own reader."""


@pytest.mark.parametrize("command", sorted(MISSING_BOOK_ARGS))
def test_every_book_command_dispatches_to_its_reader_and_maps_a_missing_book_to_exit_3(command, tmp_path, capsys):
    missing = tmp_path / "absent.pdf"
    passage = tmp_path / "passage.txt"
    passage.write_text("a passage that came back from retrieval")
    extra = [a.format(passage=passage) for a in MISSING_BOOK_ARGS[command]]
    assert main([command, str(missing), *extra]) == 3
    err = capsys.readouterr().err
    assert err == "chunking: error: absent.pdf: no such file\n"


def test_validate_and_diff_map_a_missing_chunk_file_to_exit_3(tmp_path, capsys):
    assert main(["validate", str(tmp_path / "x.jsonl")]) == 3
    assert main(["diff", str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl")]) == 3
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2 and all(line.startswith("chunking: error:") for line in lines)


def test_ctrl_c_mid_run_exits_130_with_one_line_and_no_traceback(tmp_path):
    book = tmp_path / "long.txt"
    book.write_text("\n\n".join(f"paragraph {i} " + "words of a long book " * 40 for i in range(20_000)))
    # NOTE: SIGINT as a terminal delivers it: a run started in the background of a shell without
    # job control (``make test &``) inherits SIGINT ignored, and Python then never raises
    # KeyboardInterrupt, whatever the CLI does.
    proc = subprocess.Popen([sys.executable, "-m", "chunking", "chunk", str(book), "-o", str(tmp_path / "o.jsonl")],
                            cwd=ROOT, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(1.0)  # past the imports: the run (about 15 s whole) is reading, tokenizing or chunking
    if proc.poll() is not None:
        pytest.fail(f"the run ended before Ctrl-C could be sent (exit {proc.returncode}); make the book longer")
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and err.strip().splitlines()[-1] == "chunking: interrupted"
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".o.jsonl.")]  # no temp file left


def test_the_process_ends_with_mains_code_after_its_exit_handlers_and_flushed_streams(tmp_path):
    """``exit_process`` skips the interpreter's teardown, not what normal exit guarantees."""
    marker = tmp_path / "handler-ran"
    code = (
        "import atexit, sys\n"
        "from chunking.cli import exit_process\n"
        f"atexit.register(lambda: open({str(marker)!r}, 'w').write('yes'))\n"
        "sys.stdout.write('buffered, no newline')\n"
        "sys.stderr.write('err too')\n"
        "exit_process(4)\n"
        "raise AssertionError('not reached')\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 4
    assert proc.stdout == "buffered, no newline" and proc.stderr == "err too"
    assert marker.read_text() == "yes"


def test_python_dash_m_chunking_returns_the_commands_exit_code(tmp_path):
    bad = tmp_path / "missing.pdf"
    proc = subprocess.run([sys.executable, "-m", "chunking", "chunk", str(bad)], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert proc.returncode == 3 and proc.stderr.count("\n") == 1 and "chunking: error" in proc.stderr
