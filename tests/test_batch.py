"""Batch runs (``chunking.batch``, ``python -m chunking chunk DIR -o OUTDIR``): parallel output
equals serial and single-book output, finished books are skipped on resume, and one bad book is
reported without costing the others their output."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from chunking.batch import find_books, run_batch
from chunking.cli import main
from chunking.policy import Policy

from conftest import sample_book


def _markdown_book(title: str, chapters: int, paragraphs: int) -> str:
    """A Markdown book with ``chapters`` chapters of ``paragraphs`` distinct paragraphs each."""
    out = [f"# {title}\n"]
    for c in range(1, chapters + 1):
        out.append(f"\n## Chapter {c}: {title} part {c}\n")
        for p in range(paragraphs):
            out.append(f"\nParagraph {p} of chapter {c} in {title}: " + " ".join(
                f"word{(c * 31 + p * 7 + k) % 97}" for k in range(60)) + ".\n")
    return "".join(out)


@pytest.fixture
def library(tmp_path: Path) -> Path:
    """A folder of books: a real PDF, two Markdown books (one in a subfolder), a text book."""
    root = tmp_path / "books"
    (root / "more").mkdir(parents=True)
    shutil.copy(sample_book("r-intro.pdf"), root / "r-intro.pdf")
    (root / "alpha.md").write_text(_markdown_book("Alpha", 4, 30), encoding="utf-8")
    (root / "more" / "beta.md").write_text(_markdown_book("Beta", 3, 25), encoding="utf-8")
    (root / "more" / "gamma.txt").write_text(_markdown_book("Gamma", 2, 40).replace("#", ""), encoding="utf-8")
    (root / "notes.docx").write_bytes(b"not a book format")  # unsupported: not picked up
    (root / ".hidden.md").write_text("# hidden\n\nnot part of the batch\n", encoding="utf-8")
    return root


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_batch_picks_supported_books_and_skips_hidden_and_unsupported(library):
    names = [str(p.relative_to(library.resolve())) for p in find_books(library)]
    assert names == ["alpha.md", "more/beta.md", "more/gamma.txt", "r-intro.pdf"]


def test_parallel_output_equals_serial_output_and_single_book_runs(library, tmp_path, capsys):
    policy = Policy()
    assert run_batch(library, tmp_path / "serial", policy, "jsonl", workers=1) == 0
    assert run_batch(library, tmp_path / "parallel", policy, "jsonl", workers=2) == 0
    serial, parallel = _files(tmp_path / "serial"), _files(tmp_path / "parallel")
    assert sorted(serial) == sorted([
        "alpha.md.jsonl", "alpha.md.jsonl.manifest.json",
        "more/beta.md.jsonl", "more/beta.md.jsonl.manifest.json",
        "more/gamma.txt.jsonl", "more/gamma.txt.jsonl.manifest.json",
        "r-intro.pdf.jsonl", "r-intro.pdf.jsonl.manifest.json",
    ])
    assert parallel == serial
    # The same bytes as the single-book CLI writes for each book.
    for rel in ("r-intro.pdf", "more/beta.md"):
        out = tmp_path / "single" / (rel + ".jsonl")
        assert main(["chunk", str(library / rel), "-o", str(out)]) == 0
        assert out.read_bytes() == serial[rel + ".jsonl"]
        assert out.with_name(Path(rel).name + ".jsonl.manifest.json").read_bytes() == serial[rel + ".jsonl.manifest.json"]
    capsys.readouterr()


def test_batch_writes_every_format_with_its_own_extension(library, tmp_path):
    (library / "r-intro.pdf").unlink()
    assert run_batch(library, tmp_path / "out", Policy(), "parquet", workers=1) == 0
    assert sorted(_files(tmp_path / "out")) == sorted([
        "alpha.md.parquet", "alpha.md.parquet.manifest.json", "more/beta.md.parquet", "more/beta.md.parquet.manifest.json",
        "more/gamma.txt.parquet", "more/gamma.txt.parquet.manifest.json"])


def test_resume_skips_books_already_done_for_the_same_sha256_and_policy(library, tmp_path, capsys):
    out = tmp_path / "out"
    policy = Policy(max_tokens=256, overlap_tokens=32)
    assert run_batch(library, out, policy, "jsonl", workers=2) == 0
    capsys.readouterr()
    stamps = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}

    # An interrupted run: one book never finished (chunk file without manifest), one never started.
    (out / "alpha.md.jsonl.manifest.json").unlink()
    (out / "alpha.md.jsonl").write_bytes(b"partial")
    (out / "more" / "beta.md.jsonl").unlink()
    (out / "more" / "beta.md.jsonl.manifest.json").unlink()
    assert run_batch(library, out, policy, "jsonl", workers=2) == 0
    assert "2 written, 2 skipped" in capsys.readouterr().err
    for path in (out / "r-intro.pdf.jsonl", out / "more" / "gamma.txt.jsonl.manifest.json"):
        assert path.stat().st_mtime_ns == stamps[path], f"{path.name} was rewritten"
    assert (out / "alpha.md.jsonl").read_bytes() != b"partial"
    assert (out / "more" / "beta.md.jsonl.manifest.json").is_file()

    # Nothing left to do: everything is skipped.
    assert run_batch(library, out, policy, "jsonl", workers=2) == 0
    assert "0 written, 4 skipped" in capsys.readouterr().err

    # A changed book (new sha256) and a changed policy are not "done".
    with (library / "more" / "gamma.txt").open("a", encoding="utf-8") as fh:
        fh.write("\nOne more closing paragraph.\n")
    assert run_batch(library, out, policy, "jsonl", workers=1) == 0
    assert "1 written, 3 skipped" in capsys.readouterr().err
    assert run_batch(library, out, policy.with_(overlap_tokens=16), "jsonl", workers=2) == 0
    assert "4 written, 0 skipped" in capsys.readouterr().err


def test_one_corrupt_book_is_reported_and_the_others_are_written(library, tmp_path, capsys):
    corrupt = sample_book("lshort.pdf").read_bytes()[:20_000]  # truncated download
    (library / "more" / "broken.pdf").write_bytes(corrupt)
    out = tmp_path / "out"
    code = main(["chunk", str(library), "-o", str(out), "--workers", "2"])
    err = capsys.readouterr().err
    assert code == 3  # the single-book exit code for an unreadable book
    failures = [line for line in err.splitlines() if line.startswith("chunking: failed:")]
    assert len(failures) == 1 and "more/broken.pdf" in failures[0]
    assert "Traceback" not in err
    assert "4 written, 0 skipped (already done), 1 failed" in err
    written = _files(out)
    assert "more/broken.pdf.jsonl" not in written and "more/broken.pdf.jsonl.manifest.json" not in written
    assert all(f"{name}.jsonl.manifest.json" in written for name in ("alpha.md", "more/beta.md", "more/gamma.txt", "r-intro.pdf"))


def test_batch_usage_errors_exit_2(tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["chunk", str(empty), "-o", str(tmp_path / "out")]) == 2
    assert "no books" in capsys.readouterr().err
    (empty / "a.md").write_text("# A\n\ntext\n", encoding="utf-8")
    assert main(["chunk", str(empty), "-o", str(tmp_path / "out"), "--workers", "0"]) == 2
    assert "--workers" in capsys.readouterr().err
    assert main(["chunk", str(empty), "-o", str(empty)]) == 2
    assert "must differ from the book folder" in capsys.readouterr().err


def test_outputs_inside_the_book_folder_are_not_taken_for_books(library, capsys):
    out = library / "chunks"
    assert run_batch(library, out, Policy(), "jsonl", workers=1) == 0
    (out / "stray.md").write_text("# Stray\n\ntext\n", encoding="utf-8")
    assert run_batch(library, out, Policy(), "jsonl", workers=1) == 0
    assert "0 written, 4 skipped" in capsys.readouterr().err


def test_the_console_keeps_the_cyclic_garbage_collector_on():
    """Batch workers inherit the CLI's process: a worker runs thousands of books, so cycles must
    be collected (issue 23: no process-wide ``gc.disable``)."""
    import subprocess
    import sys

    code = "import gc, sys\nfrom chunking import cli\ncli.main = lambda: print(gc.isenabled()) or 0\ncli.console()\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "True", done.stderr
