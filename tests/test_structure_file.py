"""Structure files (issue 13): corrections anchored to text, applied by the CLI and the manifest.

Every book is a real PDF built with ``pdf_factory``; the CLI runs as a subprocess.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pymupdf
import pytest

from pdf_factory import body, make_pdf

from chunking.ingest import load_book
from chunking.policy import Policy
from chunking.strategies import chunk_book
from chunking.structure_file import (StructureFileError, apply_corrections, heading_anchor, page_lines,
                                     parse_structure, toc_entries)
from chunking.tokens import tokenize

ROOT = Path(__file__).resolve().parents[1]


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


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "chunking", *map(str, args)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


def _file(book, corrections) -> dict:
    return {"format": "book-chunk-inspector/structure", "version": 1, "book_sha256": book.sha256,
            "engine_version": "test", "corrections": corrections}


def _notes_line(book, page=4):
    return next((o, t) for o, t in page_lines(book, page) if t == "Appendix Notes")


def _fix(book):
    """Remove chapter 3 (a "false" chapter) and add the missed appendix on page 4."""
    h3 = book.headings[2]
    offset, text = _notes_line(book)
    return [{"op": "remove", **heading_anchor(book, h3).to_dict()},
            {"op": "add", "page": 4, "line_text": text, "char_offset": offset, "kind": "appendix",
             "level": 1, "title": "Notes", "number": "A"}]


def test_corrections_apply_after_engine_output_moved_a_little(book_file):
    book = load_book(book_file)
    sf = parse_structure(_file(book, _fix(book)))
    # A later engine finds the same headings a few characters off (and the notes line moved too).
    moved = replace(book, headings=tuple(replace(h, char_offset=h.char_offset + 3) for h in book.headings))
    out = apply_corrections(moved, sf)
    titles = [h.title for h in out.headings]
    assert "Topic 3" not in titles and "Notes" in titles and len(out.headings) == 4
    # the add anchor, 5 characters off, still lands on its line's start
    ops = _fix(book)
    ops[1]["char_offset"] += 5
    out = apply_corrections(book, parse_structure(_file(book, ops)))
    notes = next(h for h in out.headings if h.title == "Notes")
    assert notes.char_offset == _notes_line(book)[0] and notes.page == 4 and notes.kind == "appendix"


def test_file_of_another_book_is_refused_with_one_line(book_file, tmp_path):
    sf = tmp_path / "s.json"
    sf.write_text(json.dumps({**_file(load_book(book_file), []), "book_sha256": "0" * 64}))
    for cmd in ("chunk", "outline"):
        r = _cli(cmd, book_file, "--structure-file", sf)
        assert r.returncode == 3, r.stderr
        assert len(r.stderr.splitlines()) == 1 and "another book" in r.stderr and "Traceback" not in r.stderr


def _ids(book, ops) -> tuple[list[str], list]:
    sf = parse_structure(_file(book, ops))
    corrected = apply_corrections(book, sf)
    assert corrected.corrections == sf.digest()  # the book records its corrections: no caller salts
    chunks = chunk_book(tokenize(corrected), Policy(max_tokens=256, overlap_tokens=32))
    return [c.id for c in chunks], chunks


def test_ids_change_with_corrections_and_stay_stable_for_the_same_corrections(book_file):
    book = load_book(book_file)
    plain, plain_chunks = _ids(book, [])
    fixed, fixed_chunks = _ids(book, _fix(book))
    again, _ = _ids(load_book(book_file), _fix(book))
    assert fixed == again
    assert not set(plain) & set(fixed)
    # a title-only change moves no boundary, and still changes every id
    h = book.headings[0]
    retitled, chunks = _ids(book, [{"op": "set", **heading_anchor(book, h).to_dict(), "title": "Intro"}])
    assert [c.char_start for c in chunks] == [c.char_start for c in plain_chunks]
    assert not set(retitled) & set(plain)
    assert chunks[0].chapter == "Intro"


def test_removing_a_false_chapter_and_adding_a_missed_one_moves_boundaries(book_file):
    book = load_book(book_file)
    _, plain = _ids(book, [])
    _, fixed = _ids(book, _fix(book))
    starts_plain = {c.char_start for c in plain}
    starts_fixed = {c.char_start for c in fixed}
    assert _notes_line(book)[0] in starts_fixed and _notes_line(book)[0] not in starts_plain
    assert book.headings[2].char_offset in starts_plain
    assert len(plain) != len(fixed) or starts_plain != starts_fixed
    assert {c.chapter for c in fixed} == {"Topic 1", "Topic 2", "Topic 4", "Notes"}


def test_round_trip_write_structure_edit_chunk(book_file, tmp_path):
    sf = tmp_path / "book.structure.json"
    r = _cli("outline", book_file, "--write-structure", sf)
    assert r.returncode == 0, r.stderr
    data = json.loads(sf.read_text())
    assert data["corrections"] == [] and len(data["headings"]) == 4
    book = load_book(book_file)
    h3 = data["headings"][2]
    offset, text = _notes_line(book)
    data["corrections"] = [
        {"op": "remove", "page": h3["page"], "line_text": h3["line_text"], "char_offset": h3["char_offset"]},
        {"op": "add", "page": 4, "line_text": text, "char_offset": offset, "kind": "appendix", "level": 1,
         "title": "Notes", "number": "A"}]
    sf.write_text(json.dumps(data))
    out = tmp_path / "out.jsonl"
    r = _cli("chunk", book_file, "-o", out, "--structure-file", sf)
    assert r.returncode == 0, r.stderr
    manifest = json.loads((tmp_path / "out.jsonl.manifest.json").read_text())
    record = manifest["structure"]["file"]
    assert record["corrections"] == 2 and record["ops"] == data["corrections"] and len(record["sha256"]) == 64
    assert manifest["corrections"] == record["digest"] and "corrections" not in manifest["policy"]
    chapters = {json.loads(line)["chapter"] for line in out.read_text().splitlines()}
    assert chapters == {"Topic 1", "Topic 2", "Topic 4", "Notes"}
    r = _cli("validate", out)
    assert r.returncode == 0, r.stderr
    r = _cli("outline", book_file, "--structure-file", sf)
    titles = [json.loads(x)["title"] for x in r.stdout.splitlines()]
    assert titles == ["Topic 1", "Topic 2", "Notes", "Topic 4"]
    for cmd in (["search", book_file, "topic"], ["compare", book_file], ["evaluate", book_file, "-n", "5"]):
        r = _cli(*cmd, "--structure-file", sf)
        assert r.returncode == 0, (cmd, r.stderr)


def test_batch_picks_up_structure_file_beside_the_book(book_file, tmp_path):
    book = load_book(book_file)
    (tmp_path / "book.pdf.structure.json").write_text(json.dumps(_file(book, _fix(book))))
    out = tmp_path / "out"
    r = _cli("chunk", tmp_path, "-o", out, "--workers", "1")
    assert r.returncode == 0, r.stderr
    manifest = json.loads((out / "book.pdf.jsonl.manifest.json").read_text())
    assert manifest["structure"]["file"]["corrections"] == 2


def test_write_pdf_has_the_corrected_outline_and_identical_page_text(book_file, tmp_path):
    book = load_book(book_file)
    sf = tmp_path / "s.json"
    sf.write_text(json.dumps(_file(book, _fix(book))))
    before = book_file.read_bytes()
    out = tmp_path / "fixed.pdf"
    r = _cli("outline", book_file, "--structure-file", sf, "--write-pdf", out)
    assert r.returncode == 0, r.stderr
    assert book_file.read_bytes() == before
    expected = toc_entries(apply_corrections(book, parse_structure(_file(book, _fix(book)))))
    with pymupdf.open(out) as new, pymupdf.open(book_file) as old:
        assert new.get_toc() == expected
        assert [t for _, t, _ in new.get_toc()] == ["1 Topic 1", "2 Topic 2", "A Notes", "4 Topic 4"]
        assert [p.get_text() for p in new] == [p.get_text() for p in old]
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_write_pdf_keeps_the_owner_password_and_the_permissions_of_the_book(tmp_path):
    book_file = tmp_path / "locked.pdf"
    with pymupdf.open(stream=_book_pdf(), filetype="pdf") as doc:
        doc.save(book_file, encryption=pymupdf.PDF_ENCRYPT_AES_256, owner_pw="owner-secret", user_pw="",
                 permissions=pymupdf.PDF_PERM_PRINT | pymupdf.PDF_PERM_COPY)
    out = tmp_path / "copy.pdf"
    r = _cli("outline", book_file, "--write-pdf", out)
    assert r.returncode == 0, r.stderr
    with pymupdf.open(out) as new, pymupdf.open(book_file) as old:
        assert new.is_encrypted == old.is_encrypted and new.permissions == old.permissions
        assert new.metadata["encryption"] == old.metadata["encryption"]
        assert new.authenticate("owner-secret") == old.authenticate("owner-secret") > 0
        assert [t for _, t, _ in new.get_toc()] == ["1 Topic 1", "2 Topic 2", "3 Topic 3", "4 Topic 4"]


def test_write_pdf_refuses_the_book_itself_and_non_pdf_books(book_file, tmp_path):
    link = tmp_path / "link.pdf"
    link.symlink_to(book_file)
    hard = tmp_path / "hard.pdf"
    hard.hardlink_to(book_file)
    before = book_file.read_bytes()
    for target in (book_file, link, hard):
        r = _cli("outline", book_file, "--write-pdf", target)
        assert r.returncode == 2 and len(r.stderr.splitlines()) == 1 and "book itself" in r.stderr
    r = _cli("outline", book_file, "--write-structure", book_file)
    assert r.returncode == 2 and "book itself" in r.stderr
    assert book_file.read_bytes() == before
    txt = tmp_path / "b.txt"
    txt.write_text("Chapter 1\n\nSome text here.\n")
    r = _cli("outline", txt, "--write-pdf", tmp_path / "x.pdf")
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1 and "only a PDF" in r.stderr
    assert not (tmp_path / "x.pdf").exists()


@pytest.mark.parametrize("mutate, expected", [
    (lambda ops: ops[0].update(colour="red"), "corrections[0] (remove): unknown key 'colour'"),
    (lambda ops: ops[1].update(char_offset=10 ** 9), "corrections[1] (add): char_offset 1000000000 is past"),
    (lambda ops: ops[1].update(kind="chapterette"), "corrections[1] (add): unknown kind"),
    (lambda ops: ops[0].update(op="delete"), "corrections[0] (delete): unknown op"),
    (lambda ops: ops[0].update(line_text="Nothing like this", char_offset=5),
     "corrections[0] (remove): no heading"),
])
def test_invalid_file_gives_one_line_naming_the_operation(book_file, tmp_path, mutate, expected):
    book = load_book(book_file)
    ops = _fix(book)
    mutate(ops)
    sf = tmp_path / "s.json"
    sf.write_text(json.dumps(_file(book, ops)))
    r = _cli("chunk", book_file, "--structure-file", sf)
    assert r.returncode == 3, r.stderr
    assert len(r.stderr.splitlines()) == 1 and expected in r.stderr and "Traceback" not in r.stderr


def test_overlapping_moves_are_refused_naming_the_operation(book_file, tmp_path):
    book = load_book(book_file)
    offset, text = _notes_line(book)
    to = {"page": 4, "line_text": text, "char_offset": offset}
    ops = [{"op": "move", "from": heading_anchor(book, book.headings[1]).to_dict(), "to": to},
           {"op": "move", "from": heading_anchor(book, book.headings[2]).to_dict(), "to": to}]
    with pytest.raises(StructureFileError, match=r"corrections\[1\] \(move\): overlaps corrections\[0\]"):
        apply_corrections(book, parse_structure(_file(book, ops)))
    sf = tmp_path / "s.json"
    sf.write_text(json.dumps(_file(book, ops)))
    r = _cli("outline", book_file, "--structure-file", sf)
    assert r.returncode == 3 and len(r.stderr.splitlines()) == 1 and "corrections[1] (move)" in r.stderr
    # one move alone applies
    moved = apply_corrections(book, parse_structure(_file(book, ops[:1])))
    assert [h.page for h in moved.headings] == [1, 4, 5, 7]
