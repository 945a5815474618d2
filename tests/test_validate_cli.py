"""``python -m chunking validate``: a good export passes (exit 0); hand-broken files fail with
exit 4 and one line naming the rule and the chunk; missing or changed inputs exit 3."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from chunking.cli import main
from conftest import ROOT, SAMPLES

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def export(tmp_path_factory):
    d = tmp_path_factory.mktemp("validate")
    shutil.copy(SAMPLES / "r-intro.pdf", d / "r-intro.pdf")
    out = d / "good.jsonl"
    assert main(["chunk", str(d / "r-intro.pdf"), "-o", str(out)]) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    return d, records


def write(d, name, records):
    path = d / f"{name}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    shutil.copy(d / "good.jsonl.manifest.json", d / f"{name}.jsonl.manifest.json")
    return path


def validate(path, *extra):
    return subprocess.run([sys.executable, "-m", "chunking", "validate", str(path), *extra], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def assert_fails(path, rule, chunk):
    r = validate(path)
    assert r.returncode == 4, r.stderr
    line = r.stderr.strip()
    assert len(line.splitlines()) == 1 and f"rule {rule} fails at chunk {chunk}" in line, line


def same_chapter_pair(records, min_gap=0):
    """Index i > 0 whose chunk and its predecessor share a chapter (and overlap)."""
    return next(i for i in range(2, len(records)) if records[i]["chapter"] == records[i - 1]["chapter"]
                and records[i]["overlap_prev_tokens"] > min_gap)


def test_good_export_is_valid(export):
    d, _ = export
    r = validate(d / "good.jsonl")
    assert r.returncode == 0 and "valid" in r.stdout


def test_a_gap_is_rule_5(export):
    d, records = export
    i = same_chapter_pair(records)
    broken = [dict(r) for r in records[:i]] + [dict(records[i + 1], overlap_prev_tokens=0)]
    broken += [dict(r) for r in records[i + 2:]]
    for order, r in enumerate(broken):
        r["order"] = order
    assert_fails(write(d, "gap", broken), 5, i)


def test_excess_overlap_is_rule_3(export):
    d, records = export
    i = same_chapter_pair(records)
    broken = [dict(r) for r in records]
    prev, c = broken[i - 1], broken[i]
    c["token_start"] = prev["token_start"] + 1
    c["token_count"] = c["token_end"] - c["token_start"]
    assert prev["token_end"] - c["token_start"] > 120
    assert_fails(write(d, "overlap", broken), 3, i)


def test_a_chunk_crossing_a_chapter_is_rule_3(export):
    d, records = export
    i = next(k for k, r in enumerate(records[:-1]) if r["end_reason"] == "fence" and r["token_count"] < 400)
    broken = [dict(r) for r in records]
    broken[i]["token_end"] = broken[i]["token_end"] + 10
    broken[i]["token_count"] = broken[i]["token_end"] - broken[i]["token_start"]
    assert_fails(write(d, "crossing", broken), 3, i)


def test_a_non_advancing_window_is_rule_4(export):
    d, records = export
    i = same_chapter_pair(records)
    broken = [dict(r) for r in records[:i]]
    prev = broken[-1]
    dup = dict(prev, token_start=prev["token_end"] - 50, token_count=50, overlap_prev_tokens=50, order=i)
    broken.append(dup)
    broken += [dict(r, order=i + 1 + k) for k, r in enumerate(records[i:])]
    assert_fails(write(d, "stalled", broken), 4, i)


def test_a_wrong_id_is_rule_7(export):
    d, records = export
    broken = [dict(r) for r in records]
    broken[3]["id"] = "f" * 32
    assert_fails(write(d, "wrongid", broken), 7, 3)


def test_text_that_is_not_the_slice_is_rule_6(export):
    d, records = export
    i = next(k for k, r in enumerate(records) if r["token_count"] < 400 and " the " in r["text"])
    broken = [dict(r) for r in records]
    broken[i]["text"] = broken[i]["text"].replace(" the ", " tha ", 1)
    assert_fails(write(d, "edited", broken), 6, i)


def test_missing_manifest_exits_3(export, tmp_path):
    d, records = export
    path = tmp_path / "alone.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    r = validate(path)
    assert r.returncode == 3 and "manifest" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_explicit_manifest_and_a_changed_book(export, tmp_path):
    d, records = export
    path = tmp_path / "elsewhere.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert validate(path, "--manifest", str(d / "good.jsonl.manifest.json")).returncode == 0
    manifest = json.loads((d / "good.jsonl.manifest.json").read_text())
    changed = tmp_path / "r-intro.pdf"
    changed.write_bytes((d / "r-intro.pdf").read_bytes() + b"\n%changed")
    manifest["book"]["path"] = str(changed)
    (tmp_path / "changed.jsonl.manifest.json").write_text(json.dumps(manifest))
    r = validate(path, "--manifest", str(tmp_path / "changed.jsonl.manifest.json"))
    assert r.returncode == 3 and "changed" in r.stderr


def test_manifest_with_an_unknown_policy_field_exits_3(export, tmp_path):
    d, records = export
    manifest = json.loads((d / "good.jsonl.manifest.json").read_text())
    manifest["policy"]["from_the_future"] = 1
    (tmp_path / "x.jsonl.manifest.json").write_text(json.dumps(manifest))
    path = tmp_path / "x.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    r = validate(path)
    assert r.returncode == 3 and "policy" in r.stderr and "Traceback" not in r.stderr


def test_validate_book_option_checks_a_book_that_moved_and_refuses_another(tmp_path):
    import shutil
    import subprocess
    import sys

    from conftest import ROOT, SAMPLES
    book = tmp_path / "r-intro.pdf"
    shutil.copy(SAMPLES / "r-intro.pdf", book)
    out = tmp_path / "out" / "x.jsonl"
    out.parent.mkdir()

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "chunking", *args], cwd=ROOT, capture_output=True, text=True)

    assert run("chunk", str(book), "-o", str(out)).returncode == 0
    moved = tmp_path / "elsewhere.pdf"
    book.rename(moved)
    assert run("validate", str(out)).returncode == 3  # the manifest's path is gone
    ok = run("validate", str(out), "--book", str(moved))
    assert ok.returncode == 0, ok.stderr
    other = tmp_path / "other.pdf"
    shutil.copy(SAMPLES / "lshort.pdf", other)
    refused = run("validate", str(out), "--book", str(other))
    assert refused.returncode == 3 and refused.stderr.count("\n") == 1 and "changed" in refused.stderr


def test_validate_finds_a_book_that_moved_together_with_its_outputs_by_the_relative_path(tmp_path):
    lib = tmp_path / "library"
    (lib / "books").mkdir(parents=True)
    shutil.copy(SAMPLES / "r-intro.pdf", lib / "books" / "r-intro.pdf")
    out = lib / "chunks" / "x.jsonl"
    out.parent.mkdir()

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "chunking", *args], cwd=ROOT, capture_output=True, text=True)

    assert run("chunk", str(lib / "books" / "r-intro.pdf"), "-o", str(out)).returncode == 0
    manifest = json.loads(out.with_name(out.name + ".manifest.json").read_text())
    assert manifest["book"]["relative_path"] == "../books/r-intro.pdf"
    moved = tmp_path / "moved"
    lib.rename(moved)  # the absolute path is gone and the book is not beside the manifest
    proc = run("validate", str(moved / "chunks" / "x.jsonl"))
    assert proc.returncode == 0, proc.stderr
