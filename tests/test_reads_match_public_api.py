"""Each read the library does its own way gives what PyMuPDF's and tiktoken's per-item public
API gives (issues 11, 23): page labels from ``Document.get_page_labels()`` applied once per page
(``page.get_label()`` re-reads the label tree per page), the outline walk with
``Document.resolve_link`` (``get_toc(simple=False)`` converts every named destination first),
token byte lengths from the vocabulary the encoding was built from (``decode_single_token_bytes``
is a Python call per token id) and MuPDF's own text writer through the ``pymupdf.mupdf`` bindings
(``get_text``'s per-character loop). A version bump that changes any of them fails here, not in a
book. No private (underscore) attribute of either library is read.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pymupdf
import pytest

from chunking.encodings import get_encoding
from chunking.readers.pdf import _labels, _read_outline, label_for
from chunking.readers.pdfpages import TEXT_FLAGS, page_text
from chunking.tokens import token_byte_lengths

LABEL_RULES = [
    {"startpage": 0, "prefix": "", "style": "r", "firstpagenum": 1},
    {"startpage": 3, "prefix": "", "style": "D", "firstpagenum": 1},
    {"startpage": 7, "prefix": "A-", "style": "D", "firstpagenum": 1},
    {"startpage": 9, "prefix": "", "style": "R", "firstpagenum": 4},
    {"startpage": 10, "prefix": "", "style": "a", "firstpagenum": 1},
]
"""Every numbering style a PDF can declare: roman front matter, arabic, prefixed appendix pages,
upper-case roman from a start other than 1, letters."""


def _pdf(pages: int = 12) -> pymupdf.Document:
    doc = pymupdf.open()
    for i in range(pages):
        doc.new_page().insert_text((72, 100 + 20 * i), f"page {i + 1}")
    return doc


def _reopened(doc: pymupdf.Document) -> pymupdf.Document:
    return pymupdf.open(stream=doc.tobytes(), filetype="pdf")


def test_page_labels_read_at_once_equal_get_label_per_page():
    doc = _pdf()
    doc.set_page_labels(LABEL_RULES)
    doc = _reopened(doc)
    assert _labels(doc) == [page.get_label() for page in doc]
    assert _labels(doc)[:4] == ["i", "ii", "iii", "1"]


def test_page_labels_letters_run_a_to_z_then_aa_to_zz_as_the_pdf_specification_says():
    rule = {"startpage": 0, "prefix": "App-", "style": "A", "firstpagenum": 1}
    assert [label_for(rule, i) for i in (0, 25, 26, 27, 52)] == [
        "App-A",
        "App-Z",
        "App-AA",
        "App-BB",
        "App-AAA",
    ]
    assert label_for({"startpage": 2, "style": "r", "firstpagenum": 4}, 3) == "v"
    assert label_for({"startpage": 0, "prefix": "Cover"}, 0) == "Cover"


def test_page_labels_are_empty_strings_when_the_pdf_declares_none():
    doc = _reopened(_pdf(3))
    assert _labels(doc) == [page.get_label() for page in doc] == ["", "", ""]


def test_outline_walk_equals_get_toc_levels_titles_pages_and_y():
    doc = _pdf()
    toc = [
        [1, "Front", 1],
        [1, "Part I", 2],
        [2, "Chapter 1", 3, {"kind": pymupdf.LINK_GOTO, "page": 2, "to": pymupdf.Point(0, 300)}],
        [3, "1.1 Section", 4],
        [3, "1.2 Section", 5],
        [2, "Chapter 2", 7],
        [1, "Appendix", 10],
        [2, "Deep", 11],
        [3, "Deeper", 12],
        [1, "Back", 12],
    ]
    doc.set_toc(toc)
    doc = _reopened(doc)
    public = doc.get_toc(simple=False)
    private = _read_outline(doc)
    assert [(e.level, e.title, e.page) for e in private] == [
        (lvl, title, page) for lvl, title, page, *_ in public
    ]
    assert [e.y for e in private] == [pytest.approx(d["to"].y) for *_, d in public]
    assert private[2].y == pytest.approx(300)


def test_outline_walk_of_a_pdf_without_outline_is_empty_as_get_toc_is():
    doc = _reopened(_pdf(2))
    assert _read_outline(doc) == [] and doc.get_toc() == []


@pytest.mark.parametrize("encoding", ["cl100k_base", "o200k_base"])
def test_token_byte_lengths_from_mergeable_ranks_equal_decode_single_token_bytes(encoding):
    enc = get_encoding(encoding)
    lengths = token_byte_lengths(encoding)
    public = np.zeros(enc.n_vocab, dtype=np.int64)
    for i in range(enc.n_vocab):
        try:
            public[i] = len(enc.decode_single_token_bytes(i))
        except KeyError:  # ids between the ranks and the special tokens are unused
            pass
    # encode_ordinary never yields a special token, so their lengths are not compared
    special = sorted(enc.encode_single_token(t) for t in enc.special_tokens_set)
    public[special] = lengths[special]
    assert lengths.shape == public.shape
    assert np.array_equal(lengths.astype(np.int64), public)


SAMPLE_PDFS = sorted((Path(__file__).resolve().parents[1] / "sample_books").glob("*.pdf"))
"""Real books: TeX, texinfo and DocBook output, ligatures, footnotes, code listings."""


def _get_text_as_page_text(page: pymupdf.Page) -> str:
    """``get_text()`` as ``page_text`` documents it: no blank lines."""
    return re.sub(r"\n{2,}", "\n", page.get_text(flags=TEXT_FLAGS))


@pytest.mark.parametrize("book", SAMPLE_PDFS, ids=lambda p: p.name)
def test_page_text_from_mupdfs_writer_equals_get_text_on_real_books(book):
    doc = pymupdf.open(book)
    glyph_lines = [
        p.number for p in doc if "\x00" in p.get_text(flags=TEXT_FLAGS)
    ]  # the documented difference
    differing = [p.number for p in doc if page_text(p) != _get_text_as_page_text(p)]
    assert set(differing) <= set(glyph_lines)
    assert len(differing) <= len(doc) // 50


def test_page_text_keeps_every_line_accents_ligatures_and_text_beyond_the_page_is_clipped():
    doc = pymupdf.open()
    page = doc.new_page()
    for i, line in enumerate(["Chapter 1 — Naïve «café»", "ﬁnal ﬂow, x² ≥ 0", "", "  indented  code()"]):
        page.insert_text((72, 100 + 20 * i), line, fontname="helv")
    page.insert_text((72, 2000), "outside the page")
    doc = _reopened(doc)
    assert page_text(doc[0]) == _get_text_as_page_text(doc[0])
    assert "outside" not in page_text(doc[0]) and "Naïve" in page_text(doc[0])


def test_no_private_part_of_ray_is_touched():
    """Ray's private modules are not an API: the Ray engine uses ``ray.init``'s public settings only."""
    root = Path(__file__).resolve().parent.parent / "chunking"
    private = re.compile(r"\bray\._private\b|from ray\._|import ray\._|\bNode\b.*\b__dict__\b")
    assert [str(f) for f in root.rglob("*.py") if private.search(f.read_text(encoding="utf-8"))] == []


def _typed_label_rules(prefix: str) -> pymupdf.Document:
    """Three pages whose label rules carry ``/Type /PageLabel`` (as Typst and rinohtype write
    them): roman, then arabic from 1, with ``prefix`` as the arabic rule's ``/P`` when given."""
    doc = pymupdf.open()
    for _ in range(3):
        doc.new_page()
    xref = doc.get_new_xref()
    p = f" /P ({prefix})" if prefix else ""
    doc.update_object(xref, f"<< /Nums [0 << /Type /PageLabel /S /r >> 2 << /Type /PageLabel /S /D /St 1{p} >>] >>")
    doc.xref_set_key(doc.pdf_catalog(), "PageLabels", f"{xref} 0 R")
    return doc


def test_a_label_rules_type_key_is_no_prefix():
    assert _labels(_typed_label_rules("")) == ["i", "ii", "1"]


def test_a_label_rules_own_prefix_is_kept_beside_its_type_key():
    assert _labels(_typed_label_rules("A-"))[2] == "A-1"
