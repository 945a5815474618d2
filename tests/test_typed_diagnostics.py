"""Structure diagnostics are records (``chunking.models.Disagreement`` / ``Rejected``): the manifest
holds them as objects, ``outline --explain`` prints their ``message``, and the cap keeps a count."""

from __future__ import annotations

import io
import json

from chunking import ingest
from chunking.cli import main
from chunking.commands.outline import write_explanation
from chunking.ingest import load_book
from chunking.models import DISAGREEMENT_CASES, MAX_LISTED, Book, Diagnostics, Disagreement, Rejected
from pdf_factory import body, make_pdf


def _book_with_an_unconfirmed_entry() -> bytes:
    pages = [[("Chapter 1", 20.0), ("Alpha", 20.0)] + body(10), [("Chapter 2", 20.0), ("Beta", 20.0)] + body(10, 50),
             body(12, 90)]
    toc = [(1, "Alpha", 1, None), (1, "Beta", 2, None), (1, "Gamma", 3, 100.0)]
    return make_pdf(pages, toc=toc)


def test_a_disagreement_carries_its_case_signals_heading_and_message():
    book = load_book(_book_with_an_unconfirmed_entry(), name="book.pdf")
    (d,) = book.diagnostics.structure_disagreements
    assert (d.case, d.signals, d.kind, d.title, d.page) == ("unconfirmed", ("outline",), "back", "Gamma", 3)
    assert d.case in DISAGREEMENT_CASES
    assert d.message == "the outline: back 'Gamma' on p. 3 is not confirmed by the text"


def test_the_manifest_holds_the_records_as_objects(tmp_path):
    path = tmp_path / "book.pdf"
    path.write_bytes(_book_with_an_unconfirmed_entry())
    assert main(["chunk", str(path), "-o", str(tmp_path / "book.jsonl")]) == 0
    diagnostics = json.loads((tmp_path / "book.jsonl.manifest.json").read_text())["diagnostics"]
    assert diagnostics["structure_disagreements"] == [{
        "case": "unconfirmed", "signals": ["outline"], "kind": "back", "number": "", "title": "Gamma", "page": 3,
        "message": "the outline: back 'Gamma' on p. 3 is not confirmed by the text"}]
    assert diagnostics["structure_disagreements_omitted"] == 0
    for r in diagnostics["structure_rejected"]:
        assert set(r) == {"source", "line", "reason", "page", "line_number", "message"}


def test_rejected_candidates_of_a_pdf_name_their_page_line_and_reason():
    pages = [[("Chapter 1", 20.0), ("Alpha", 20.0)] + body(10), [("Chapter 2", 20.0), ("Beta", 20.0)] + body(10, 50),
             [("Chapter 9", 10.0), ("Stray", 10.0)] + body(10, 90)]
    book = load_book(make_pdf(pages), name="x.pdf")
    assert book.diagnostics.structure_rejected
    for r in book.diagnostics.structure_rejected:
        assert r.source == "headings" and r.page is not None and r.reason
        assert r.message == f"p. {r.page} '{r.line[:60]}': {r.reason}"


def test_more_than_max_listed_records_are_kept_up_to_the_cap_then_counted():
    many = [Rejected("headings", "x" * 1000, "why", i + 1, "m" * 1000) for i in range(MAX_LISTED + 7)]
    kept, omitted = ingest._capped(many)
    assert len(kept) == MAX_LISTED and omitted == 7
    assert len(kept[0].message) == ingest.MAX_NOTE_CHARS and len(kept[0].line) == ingest.MAX_TITLE_CHARS
    d = Disagreement("missing", ("typography",), "chapter", "3", "T" * 1000, 4, "msg")
    (capped,), none = ingest._capped([d])
    assert none == 0 and len(capped.title) == ingest.MAX_TITLE_CHARS and capped.signals == ("typography",)


def test_explain_prints_each_message_and_the_count_of_the_rest():
    d = Disagreement("unopened", ("running_header",), "chapter", "3", "CHAPTER 3", 5, "the message")
    diagnostics = Diagnostics(structure_disagreements=[d], structure_disagreements_omitted=2,
                              structure_rejected=[Rejected("nav", "X", "why", None, "nav: 'X': why")])
    book = Book("b" * 16, "0" * 64, "t", "pdf", "", (), (), diagnostics, "x.pdf")
    out = io.StringIO()
    write_explanation(book, out)
    text = out.getvalue()
    assert "disagreements: 3\n  the message\n  … and 2 more\n" in text
    assert "rejected candidates: 1\n  nav: 'X': why\n" in text
