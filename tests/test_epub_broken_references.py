"""EPUB references that name their document all but exactly: a converter that writes every spine
``idref`` and contents ``src`` with its document's extension doubled (``c1.xhtml.xhtml``), and a
spine item naming nothing where one document is left unread. Such a book is read whole, with a
warning for each repair, not refused; numbered titles with a dash after the number read as numbered."""

from __future__ import annotations

from test_epub_structure import PARA, ncx, page, zip_epub

from chunking.normalise import normalise
from chunking.readers import read_raw
from chunking.structure import detect_structure


def _epub(docs: dict[str, str], spine: list[str], toc: list[tuple[int, str, str]]) -> bytes:
    """An EPUB 2 whose manifest ids are the documents' file names and whose spine lists ``spine``
    (idrefs as given, right or wrong), its NCX ``toc`` (hrefs as given)."""
    manifest = "".join(f'<item id="{p}" href="{p}" media-type="application/xhtml+xml"/>' for p in docs)
    manifest += '<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>'
    itemrefs = "".join(f'<itemref idref="{ref}"/>' for ref in spine)
    files = {f"OEBPS/{p}": text for p, text in docs.items()}
    files["OEBPS/toc.ncx"] = ncx(toc)
    files["OEBPS/content.opf"] = (
        '<?xml version="1.0" encoding="UTF-8"?><package xmlns="http://www.idpf.org/2007/opf" '
        'version="2.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">'
        '<dc:identifier id="id">x</dc:identifier><dc:title>T</dc:title></metadata>'
        f'<manifest>{manifest}</manifest><spine toc="ncx">{itemrefs}</spine></package>'
    )
    return zip_epub(files)


def _chapter(n: int, title: str) -> str:
    return page(f'<h1 id="c{n}">{n} - {title}</h1>{PARA}<h2 id="s{n}">{n}.1 - More on {title}</h2>{PARA}')


DOCS = {"title.xhtml": page(f"<h1>The Widget Manual</h1>{PARA}")} | {
    f"c{n}.xhtml": _chapter(n, title) for n, title in ((1, "Alpha"), (2, "Beta"), (3, "Gamma"))
}


def test_spine_and_contents_references_naming_a_document_but_for_a_doubled_extension_read_that_document():
    spine = [f"{p}.xhtml" for p in DOCS]
    toc = [(1, "The Widget Manual", "title.xhtml.xhtml")] + [
        (1, f"{n} - {t}", f"c{n}.xhtml.xhtml#c{n}") for n, t in ((1, "Alpha"), (2, "Beta"), (3, "Gamma"))
    ]
    raw = read_raw(_epub(DOCS, spine, toc), "book.epub")
    assert [p.source_doc for p in raw.pages] == list(DOCS)
    assert any("4 spine item(s) name no manifest item" in w for w in raw.warnings)
    assert any("4 contents entries name a file missing" in w for w in raw.warnings)
    assert [raw.pages[e.page - 1].source_doc for e in raw.outline] == list(DOCS)


def test_a_lone_spine_reference_naming_nothing_is_the_one_document_no_spine_item_names():
    spine = ["front-matter-page", "c1.xhtml", "c2.xhtml", "c3.xhtml"]
    raw = read_raw(_epub(DOCS, spine, [(1, "1 - Alpha", "c1.xhtml")]), "book.epub")
    assert [p.source_doc for p in raw.pages] == list(DOCS)
    assert any("read as 'OEBPS/title.xhtml'" in w for w in raw.warnings)


def test_two_spine_references_naming_nothing_are_skipped_not_guessed():
    docs = DOCS | {"extra.xhtml": page(f"<p>Colophon.</p>{PARA}")}
    spine = ["lost-one", "c1.xhtml", "c2.xhtml", "c3.xhtml", "lost-two"]
    raw = read_raw(_epub(docs, spine, [(1, "1 - Alpha", "c1.xhtml")]), "book.epub")
    assert [p.source_doc for p in raw.pages] == ["c1.xhtml", "c2.xhtml", "c3.xhtml"]
    assert sum("is not in the manifest; skipped" in w for w in raw.warnings) == 2


def test_a_contents_title_with_a_dash_after_its_number_is_numbered_and_titled_without_it():
    toc = [(1, "The Widget Manual", "title.xhtml")]
    for n, t in ((1, "Alpha"), (2, "Beta"), (3, "Gamma")):
        toc += [(1, f"{n} - {t}", f"c{n}.xhtml#c{n}"), (2, f"{n}.1 - More on {t}", f"c{n}.xhtml#s{n}")]
    raw = read_raw(_epub(DOCS, list(DOCS), toc), "book.epub")
    found = detect_structure(raw, normalise(raw.pages), "auto")
    chapters = [(h.number, h.title) for h in found.headings if h.kind == "chapter"]
    assert chapters == [("1", "Alpha"), ("2", "Beta"), ("3", "Gamma")]
    sections = [(h.number, h.title) for h in found.headings if h.kind == "section"]
    assert sections == [("1.1", "More on Alpha"), ("2.1", "More on Beta"), ("3.1", "More on Gamma")]
