"""Corrections by construction (issue 23): a corrected book records its corrections digest and
salts its own chunk ids, so every path (``run_book``, ``chunk --structure-file``, the app, batch)
gives the same ids and none can forget the salt; ``validate`` refuses ids that are not those of
the corrections a run records; one loader (bytes or path) and one serialiser for structure files.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from pdf_factory import body, make_pdf

from chunking.ids import chunk_id
from chunking.ingest import load_book
from chunking.links import with_neighbours
from chunking.pipeline import run_book
from chunking.policy import Policy
from chunking.structure_file import (
    StructureFileError,
    apply_corrections,
    heading_anchor,
    load_structure_file,
    page_lines,
    parse_structure,
    save_structure,
    structure_bytes,
)
from chunking.tokens import tokenize
from chunking.validate import validate_chunks

ROOT = Path(__file__).resolve().parents[1]
POLICY = Policy(max_tokens=256, overlap_tokens=32)


def _book_pdf() -> bytes:
    """Four chapters (pages 1, 3, 5, 7) with an outline; page 4 holds an "Appendix Notes" line."""
    pages = []
    for ch in range(4):
        pages.append([(f"Chapter {ch + 1}", 20.0), (f"Topic {ch + 1}", 20.0)] + body(30, ch * 100))
        pages.append(body(30, ch * 100 + 50) + [("Appendix Notes", 10.0)] + body(5, ch * 100 + 90))
    return make_pdf(pages, toc=[(1, f"Topic {i + 1}", 2 * i + 1, None) for i in range(4)])


@pytest.fixture()
def book_file(tmp_path: Path) -> Path:
    path = tmp_path / "book.pdf"
    path.write_bytes(_book_pdf())
    return path


def _cli(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "chunking", *map(str, args)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


def _structure(book, ops) -> dict:
    return {"format": "book-chunk-inspector/structure", "version": 1, "book_sha256": book.sha256,
            "engine_version": "test", "corrections": ops}


def _retitle(book) -> list[dict]:
    """A title-only correction: it moves no boundary, so only the salt can change the ids."""
    return [{"op": "set", **heading_anchor(book, book.headings[0]).to_dict(), "title": "Intro"}]


def _fix(book) -> list[dict]:
    """Remove chapter 3 and add the missed appendix on page 4 (boundaries move too)."""
    offset, text = next((o, t) for o, t in page_lines(book, 4) if t == "Appendix Notes")
    return [{"op": "remove", **heading_anchor(book, book.headings[2]).to_dict()},
            {"op": "add", "page": 4, "line_text": text, "char_offset": offset, "kind": "appendix",
             "level": 1, "title": "Notes"}]


def _written(tmp_path: Path, book, ops) -> Path:
    path = tmp_path / "book.pdf.structure.json"
    save_structure(_structure(book, ops), path)
    return path


def test_run_book_with_a_structure_file_gives_ids_other_than_the_uncorrected_run(book_file, tmp_path):
    book = load_book(book_file)
    sf = load_structure_file(_written(tmp_path, book, _retitle(book)))
    plain = run_book(book_file, POLICY)
    fixed = run_book(book_file, POLICY, structure_file=sf)
    assert fixed.book.corrections == sf.digest() and plain.book.corrections == ""
    assert [c.char_start for c in fixed.chunks] == [c.char_start for c in plain.chunks]  # same cuts
    assert fixed.chunks[0].chapter == "Intro"
    assert not {c.id for c in fixed.chunks} & {c.id for c in plain.chunks}
    assert fixed.report.ok and fixed.manifest["corrections"] == sf.digest()
    assert fixed.manifest["structure"]["file"]["digest"] == sf.digest()
    assert plain.manifest["corrections"] == "" and plain.manifest["structure"]["file"] is None


def test_corrected_ids_are_the_same_from_run_book_the_cli_and_the_app(book_file, tmp_path):
    import inspector.data.cache as cache

    book = load_book(book_file)
    path = _written(tmp_path, book, _fix(book))
    sf = load_structure_file(path)
    library = [c.id for c in run_book(book_file, POLICY, structure_file=sf).chunks]
    out = tmp_path / "out.jsonl"
    r = _cli("chunk", book_file, "-o", out, "--structure-file", path, "--max-tokens", 256, "--overlap", 32)
    assert r.returncode == 0, r.stderr
    cli = [json.loads(line)["id"] for line in out.read_text().splitlines()]
    # The app's path (inspector.data.cache.current_run without the session): the cached parsed book,
    # corrected in memory, its tokens derived from the uncorrected ones, chunked under the policy.
    corrected = cache.corrected_book(book, sf.corrections, POLICY.structure)
    tokenized = cache.tokenized_run(book.sha256, book, corrected, POLICY)
    app = [c.id for c in cache._chunks(book.sha256, corrected.corrections, cache.policy_items(POLICY), tokenized)]
    assert library == cli == app
    plain = [c.id for c in run_book(book_file, POLICY).chunks]
    assert not set(library) & set(plain)


def test_validate_refuses_a_run_whose_ids_do_not_match_its_corrections(book_file, tmp_path):
    book = load_book(book_file)
    sf = load_structure_file(_written(tmp_path, book, _retitle(book)))
    run = run_book(book_file, POLICY, structure_file=sf)
    # The old bug: corrected headings with the uncorrected book's ids.
    uncorrected = replace(run.book, corrections="")
    stale = with_neighbours([replace(c, id=chunk_id(c.book_id, POLICY.profile(), c.order, c.token_start,
                                                    c.token_end, c.char_start, c.char_end, c.text))
                             for c in run.chunks])  # re-linked: rule 8 holds, only the salt is stale
    report = validate_chunks(stale, run.tokenized, POLICY)
    assert not report.ok and report.rule == 7 and "corrections digest" in report.message
    assert validate_chunks(stale, tokenize(uncorrected, POLICY.encoding), POLICY).ok
    # A run that claims other corrections than its book's.
    report = validate_chunks(run.chunks, run.tokenized, POLICY, corrections="0" * 16)
    assert not report.ok and report.rule == 7 and report.chunk_order is None
    assert validate_chunks(run.chunks, run.tokenized, POLICY, corrections=sf.digest()).ok


def test_validate_cli_refuses_a_manifest_whose_corrections_digest_was_edited(book_file, tmp_path):
    book = load_book(book_file)
    structure = _written(tmp_path, book, _retitle(book))
    out = tmp_path / "out.jsonl"
    r = _cli("chunk", book_file, "-o", out, "--structure-file", structure)
    assert r.returncode == 0, r.stderr
    assert _cli("validate", out).returncode == 0
    manifest_file = tmp_path / "out.jsonl.manifest.json"
    good = json.loads(manifest_file.read_text())

    def validate_with(edit) -> subprocess.CompletedProcess:
        manifest = json.loads(json.dumps(good))
        edit(manifest)
        manifest_file.write_text(json.dumps(manifest))
        return _cli("validate", out)

    def edited_digest(m):  # both records of the digest, consistently
        m["corrections"] = m["structure"]["file"]["digest"] = "0123456789abcdef"

    def dropped_file(m):  # the chunks presented as an uncorrected run
        m["corrections"], m["structure"]["file"] = "", None

    def retitled(m):  # other corrections, digests recomputed: the ids are still the old ones
        from chunking.structure_file import corrections_digest, parse_correction

        m["structure"]["file"]["ops"][0]["title"] = "Preface"
        digest = corrections_digest([parse_correction(m["structure"]["file"]["ops"][0], 0)])
        m["corrections"] = m["structure"]["file"]["digest"] = digest

    for edit in (edited_digest, dropped_file, retitled):
        r = validate_with(edit)
        assert r.returncode == 4, (edit.__name__, r.stderr)
        assert "rule 7" in r.stderr and "corrections" in r.stderr and "Traceback" not in r.stderr
    # An older manifest kept the digest in the policy: it still validates.
    def legacy(m):
        m["policy"]["corrections"] = m.pop("corrections")

    assert validate_with(legacy).returncode == 0


def test_a_structure_file_loaded_from_bytes_equals_one_loaded_from_a_path(book_file, tmp_path):
    book = load_book(book_file)
    path = _written(tmp_path, book, _fix(book))
    from_path = load_structure_file(path)
    from_bytes = load_structure_file(path.read_bytes(), name=str(path))
    assert from_bytes == from_path and len(from_path.corrections) == 2
    # the one serialiser writes what the one loader reads, byte for byte the file's sha256
    again = structure_bytes(from_path)
    assert load_structure_file(again, name=str(path)).corrections == from_path.corrections
    assert load_structure_file(again).sha256 == from_path.sha256 == parse_structure(
        json.loads(again), sha256=from_path.sha256).sha256
    with pytest.raises(StructureFileError, match="another book"):
        load_structure_file(path.read_bytes(), name="x.json", book_sha256="0" * 64)


@pytest.mark.parametrize("data, expected", [
    (b"\xff\xfe not utf-8", "not valid JSON"),
    (b"[" * 100_000, "not valid JSON"),
    (b"{}" + b" " * (17 << 20), "larger than"),
    (json.dumps({"format": "book-chunk-inspector/structure", "version": 1, "book_sha256": "a" * 64,
                 "corrections": [{"op": "x\ny" * 50}]}).encode(), "unknown op"),
])
def test_an_untrusted_structure_file_is_one_clear_error(data, expected):
    with pytest.raises(StructureFileError) as info:
        load_structure_file(data, name="up.json")
    message = str(info.value)
    assert expected in message and message.startswith("up.json: ")
    assert len(message.splitlines()) == 1 and len(message) < 300


def test_a_book_is_corrected_once_with_all_its_corrections(book_file):
    book = load_book(book_file)
    once = apply_corrections(book, parse_structure(_structure(book, _retitle(book))))
    assert apply_corrections(once, ()) is once
    with pytest.raises(ValueError, match="already corrected"):
        apply_corrections(once, parse_structure(_structure(book, _fix(book))))


def test_batch_reruns_a_book_whose_structure_file_changed(book_file, tmp_path):
    book = load_book(book_file)
    structure = _written(tmp_path, book, _retitle(book))
    out = tmp_path / "out"
    r = _cli("chunk", tmp_path, "-o", out, "--workers", 1)
    assert r.returncode == 0, r.stderr
    first = json.loads((out / "book.pdf.jsonl.manifest.json").read_text())
    assert "0 written, 1 skipped" in _cli("chunk", tmp_path, "-o", out, "--workers", 1).stderr
    save_structure(_structure(book, _fix(book)), structure)
    r = _cli("chunk", tmp_path, "-o", out, "--workers", 1)
    assert r.returncode == 0 and "1 written, 0 skipped" in r.stderr, r.stderr
    second = json.loads((out / "book.pdf.jsonl.manifest.json").read_text())
    assert second["corrections"] != first["corrections"] and second["structure"]["file"]["corrections"] == 2
