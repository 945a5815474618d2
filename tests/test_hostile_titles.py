"""Titles are made safe in one place, whichever way they enter (issue 26, items 4 and 9).

A lone surrogate, NUL, ESC, a right-to-left override or a line separator in a structure file's
title, a PDF bookmark or the app's correction form must never crash a writer (UnicodeEncodeError)
or reach a terminal, a PDF outline or an export; a title longer than the structure file reader
accepts is cut to that limit, so what the app offers for download the CLI reads back.
"""

from __future__ import annotations

import json
import random
import unicodedata
from pathlib import Path

import pymupdf
import pytest
from streamlit.testing.v1 import AppTest

from chunking.structure_file import load_structure_file
from chunking.titles import MAX_TEXT_FIELD, safe_title
from cli_run import ROOT, cli
from pdf_factory import body, make_pdf
from tests.test_app import downloads  # noqa: F401  (the download-capturing fixture)

HOSTILE = ["\ud800", "\udfff", "\x00", "\x1b[31m", "\u202e", "\u2066", "\u2028", "\x85", "\t\n"]
"""One of each class of character a title must not carry."""


def unsafe(text: str) -> list[str]:
    """The characters of ``text`` that ``safe_title`` exists to remove."""
    return [c for c in text if unicodedata.category(c) in ("Cs", "Cc", "Zl", "Zp")
            or "\u202a" <= c <= "\u202e" or "\u2066" <= c <= "\u2069"]


def test_safe_title_leaves_no_unsafe_character_and_respects_the_limit():
    rng = random.Random(26)
    pool = [*HOSTILE, "a", "é", "中", " ", "\u200f", "—", "🙂"]
    for _ in range(2000):
        text = "".join(rng.choice(pool) for _ in range(rng.randrange(0, 40)))
        limit = rng.randrange(1, 50)
        out = safe_title(text, limit)
        assert not unsafe(out) and len(out) <= limit
        out.encode("utf-8")  # never UnicodeEncodeError
        assert safe_title(out, limit) == out  # once is enough
    printable = "Chapter 3: The [first] {part}"
    assert safe_title(printable) is printable


def _titled_structure(book: Path, title: str) -> dict:
    import hashlib

    return {"format": "book-chunk-inspector/structure", "version": 1,
            "book_sha256": hashlib.sha256(book.read_bytes()).hexdigest(), "engine_version": "test",
            "corrections": [{"op": "set", "page": 1, "line_text": "Chapter 1", "char_offset": 0,
                             "title": title, "number": "\ud800\x1b1"}]}


@pytest.fixture(scope="module")
def pdf_book(tmp_path_factory) -> Path:
    pages = [[(f"Chapter {i + 1}", 20.0)] + body(20, i * 50) for i in range(3)]
    path = tmp_path_factory.mktemp("book") / "book.pdf"
    path.write_bytes(make_pdf(pages, toc=[(1, f"Chapter {i + 1}", i + 1, None) for i in range(3)]))
    return path


@pytest.mark.parametrize("hostile", HOSTILE)
def test_a_hostile_structure_file_title_reaches_every_output_made_safe(pdf_book, tmp_path, hostile):
    sf = tmp_path / "s.json"
    sf.write_text(json.dumps(_titled_structure(pdf_book, f"Intro{hostile}duction")), encoding="utf-8")
    out = tmp_path / "c.jsonl"
    r = cli("chunk", pdf_book, "--structure-file", sf, "-o", out)
    assert r.returncode == 0, r.stderr
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    titles = [r["chapter"] for r in records] + [t for r in records for t in r["heading_path"]]
    assert titles[0].startswith("Intro") and not unsafe("".join(titles))
    written, pdf = tmp_path / "w.json", tmp_path / "w.pdf"
    r = cli("outline", pdf_book, "--structure-file", sf, "--write-structure", written, "--write-pdf", pdf)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert not unsafe(r.stdout.replace("\n", ""))
    assert load_structure_file(written).book_sha256  # what it writes, it reads
    with pymupdf.open(pdf) as doc:
        bookmarks = [t for _, t, _ in doc.get_toc()]
    assert "Intro" in bookmarks[0] and not unsafe("".join(bookmarks))


def test_pdf_bookmark_titles_with_controls_reach_the_outline_made_safe(tmp_path):
    pages = [[(f"Chapter {i + 1}", 20.0)] + body(20, i * 50) for i in range(3)]
    toc = [(1, f"Chapter {i + 1}{HOSTILE[2 + i]}", i + 1, None) for i in range(3)]
    book = tmp_path / "b.pdf"
    book.write_bytes(make_pdf(pages, toc=toc))
    r = cli("outline", book, "--write-pdf", tmp_path / "o.pdf")
    assert r.returncode == 0, r.stderr
    assert "Chapter 1" in r.stdout and not unsafe(r.stdout.replace("\n", ""))
    with pymupdf.open(tmp_path / "o.pdf") as doc:
        assert not unsafe("".join(t for _, t, _ in doc.get_toc()))


@pytest.mark.usefixtures("fresh_streamlit_caches")
def test_the_app_correction_form_cuts_and_cleans_a_title_like_the_structure_file_reader(downloads):  # noqa: F811
    # NOTE: a browser cannot send a lone surrogate (the form's value is UTF-8 protobuf); the
    # other classes and the length can come from any client, whatever max_chars says
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.selectbox(key="home_sample").set_value("chez-csug.pdf").run()
    at.switch_page("pages/7_Structure.py").run()
    at.number_input(key="st_add_page").set_value(12).run()
    at.selectbox(key="st_add_line").set_value(1).run()
    at.text_input(key="st_add_title").set_value("\u202eIntro\x1b" + "x" * 1_000_000).run()
    at.button(key="st_add").click().run()
    assert not at.exception and not at.error, [e.value for e in [*at.exception, *at.error]]
    (name,) = [n for n in downloads if n.endswith(".structure.json")]
    sf = load_structure_file(downloads[name], name=name)  # the CLI's reader accepts it
    title = dict(sf.corrections[-1].fields)["title"]
    assert title.startswith("Intro xxx") and len(title) <= MAX_TEXT_FIELD and not unsafe(title)


def test_write_structure_never_writes_a_file_structure_file_refuses(tmp_path):
    from chunking.errors import OutputError
    from chunking.structure_file import MAX_STRUCTURE_FILE_BYTES, save_structure

    heading = {"page": 1, "line_text": "x" * MAX_TEXT_FIELD, "char_offset": 0, "title": "t" * 300}
    obj = {"format": "book-chunk-inspector/structure", "version": 1, "book_sha256": "a" * 64,
           "engine_version": "test", "corrections": [],
           "headings": [heading] * (MAX_STRUCTURE_FILE_BYTES // 1300 + 1)}
    out = tmp_path / "s.json"
    out.write_bytes(b"the previous file")
    with pytest.raises(OutputError, match="limit --structure-file reads; nothing written"):
        save_structure(obj, out)
    assert out.read_bytes() == b"the previous file" and sorted(tmp_path.iterdir()) == [out]
    obj["headings"] = obj["headings"][: len(obj["headings"]) // 2]
    save_structure(obj, out)  # under the limit: written, and read back
    assert load_structure_file(out).book_sha256 == "a" * 64
