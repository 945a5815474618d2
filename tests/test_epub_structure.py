"""EPUB structure (``chunking.structure.epub``): one rule per test, on small EPUBs built here.

Each book is a real zip (container.xml, OPF, nav or NCX, XHTML) read by the real reader and
normalised; nothing is mocked. Titles and layouts are invented, not taken from any book.
"""

from __future__ import annotations

import io
import zipfile

import pytest

from chunking.ingest import load_book
from chunking.normalise import normalise
from chunking.readers import read_raw
from chunking.structure import detect_structure
from chunking.structure.evidence import confidence

CONTAINER = """<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>"""
PARA = "<p>" + "Plain body text that says nothing in particular. " * 6 + "</p>"


def page(body: str) -> str:
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n'
            '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>t</title></head>'
            f"<body>{body}</body></html>")


def nav_li(entries: list[tuple[int, str, str]]) -> str:
    """Nested ``<li>`` markup from (depth, title, href) in order."""
    out, depth = "", 0
    for level, title, href in entries:
        if level > depth:
            out += "<ol>" * (level - depth)
        else:
            out += "</li>" + "</ol></li>" * (depth - level)
        out += f'<li><a href="{href}">{title}</a>'
        depth = level
    return out + "</li>" + "</ol></li>" * (depth - 1) + "</ol>"


def ncx(entries: list[tuple[int, str, str]]) -> str:
    out, depth = "", 0
    for k, (level, title, href) in enumerate(entries):
        out += "</navPoint>" * (depth - level + 1) if depth else ""
        out += f'<navPoint id="n{k}"><navLabel><text>{title}</text></navLabel><content src="{href}"/>'
        depth = level
    out += "</navPoint>" * depth
    return ('<?xml version="1.0" encoding="UTF-8"?><ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" '
            f'version="2005-1"><navMap>{out}</navMap></ncx>')


def build(docs: dict[str, str], *, nav: tuple[str, list[tuple[int, str, str]]] | None = None,
          ncx_entries: list[tuple[int, str, str]] | None = None, nonlinear: tuple[str, ...] = ()) -> bytes:
    """An EPUB: ``docs`` maps paths under ``OEBPS/`` to XHTML (spine = dict order); ``nav`` is
    (path under ``OEBPS/``, entries); ``nonlinear`` names spine documents marked linear="no"."""
    manifest = "".join(f'<item id="d{i}" href="{p}" media-type="application/xhtml+xml"/>'
                       for i, p in enumerate(docs))
    files = {f"OEBPS/{p}": text for p, text in docs.items()}
    if nav is not None:
        manifest += f'<item id="nav" href="{nav[0]}" media-type="application/xhtml+xml" properties="nav"/>'
        files[f"OEBPS/{nav[0]}"] = page(f'<nav xmlns:epub="http://www.idpf.org/2007/ops" epub:type="toc">'
                                        f"{nav_li(nav[1])}</nav>")
    if ncx_entries is not None:
        manifest += '<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>'
        files["OEBPS/toc.ncx"] = ncx(ncx_entries)
    no = ' linear="no"'
    spine = "".join(f'<itemref idref="d{i}"{no if p in nonlinear else ""}/>' for i, p in enumerate(docs))
    files["OEBPS/content.opf"] = (
        '<?xml version="1.0" encoding="UTF-8"?><package xmlns="http://www.idpf.org/2007/opf" '
        'version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">'
        '<dc:identifier id="id">x</dc:identifier><dc:title>T</dc:title></metadata>'
        f'<manifest>{manifest}</manifest><spine toc="ncx">{spine}</spine></package>')
    return zip_epub(files)


def zip_epub(files: dict[str, str]) -> bytes:
    """The EPUB zip of ``files`` (zip path → text) under its ``mimetype`` and container."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("mimetype", "application/epub+zip")
        z.writestr("META-INF/container.xml", CONTAINER)
        for path, text in files.items():
            z.writestr(path, text)
    return buf.getvalue()


def structure(data: bytes, mode: str = "auto"):
    raw = read_raw(data, "book.epub")
    return raw, detect_structure(raw, normalise(raw.pages), mode)


def chapter_level(result) -> list[tuple[int, str, str]]:
    return [(h.level, h.kind, h.title) for h in result.headings if h.kind != "section"]


def chapter(n: int, title: str, sections: int = 0) -> str:
    body = f'<h1 id="c{n}">{n}. {title}</h1>{PARA}'
    body += "".join(f'<h2 id="s{n}-{m}">{n}.{m}. Part {m} of {title}</h2>{PARA}'
                    for m in range(1, sections + 1))
    return page(body)


def test_linear_no_document_stays_in_the_text_but_is_never_a_chapter():
    docs = {"cover.xhtml": page("<h1>Cover Art Words</h1><p>cover text kept</p>"),
            "c1.xhtml": chapter(1, "Alpha"), "c2.xhtml": chapter(2, "Beta")}
    data = build(docs, nav=("nav.xhtml", [(1, "1. Alpha", "c1.xhtml"), (1, "2. Beta", "c2.xhtml")]),
                 nonlinear=("cover.xhtml",))
    raw, found = structure(data)
    assert "cover text kept" in "\n".join(p.text for p in raw.pages)
    assert [p.linear for p in raw.pages if p.source_doc == "cover.xhtml"] == [False]
    assert any('linear="no"' in w for w in raw.warnings)
    assert chapter_level(found) == [(1, "chapter", "Alpha"), (1, "chapter", "Beta")]
    assert any(r.source == "spine" and r.line.endswith("cover.xhtml") and "linear" in r.reason for r in found.rejected)


def test_nav_hrefs_resolve_relative_to_the_nav_documents_folder():
    docs = {"text/c1.xhtml": chapter(1, "Alpha"), "text/c2.xhtml": chapter(2, "Beta")}
    data = build(docs, nav=("nav/nav.xhtml", [(1, "1. Alpha", "../text/c1.xhtml"),
                                              (1, "2. Beta", "../text/c2.xhtml")]))
    raw, found = structure(data)
    assert [e.page for e in raw.outline] == [1, 2]
    assert chapter_level(found) == [(1, "chapter", "Alpha"), (1, "chapter", "Beta")]


def test_nav_href_in_the_wrong_folder_falls_back_to_the_one_spine_file_of_that_name():
    docs = {"book/c1.xhtml": chapter(1, "Alpha"), "book/c2.xhtml": chapter(2, "Beta"),
            "de/book/c1.xhtml": chapter(1, "Alpha auf Deutsch")}
    data = build(docs, nav=("nav.xhtml", [(1, "1. Alpha", "c1.xhtml"), (1, "2. Beta", "c2.xhtml")]),
                 nonlinear=("de/book/c1.xhtml",))
    raw, found = structure(data)
    assert [raw.pages[e.page - 1].source_doc for e in raw.outline] == ["book/c1.xhtml", "book/c2.xhtml"]
    assert any("another folder" in w for w in raw.warnings)
    assert chapter_level(found) == [(1, "chapter", "Alpha"), (1, "chapter", "Beta")]


def _hub_book() -> tuple[dict[str, str], list[tuple[int, str, str]]]:
    """A master page whose two ``<h2>`` each link to their section files; the nav lists only files."""
    hub = page('<h1 id="top">Handbook</h1>'
               '<h2 id="first">Getting Started</h2><p>intro one</p>'
               '<ul><li><a href="a1.xhtml">Install</a></li>'
               '<li><a href="a2.xhtml">Configure</a></li></ul>'
               '<h2 id="second">Daily Work</h2><p>intro two</p><ul><li><a href="b1.xhtml">Edit</a></li>'
               '<li><a href="b2.xhtml">Publish</a></li></ul>')
    docs = {"index.xhtml": hub}
    for name, title in (("a1", "Install"), ("a2", "Configure"), ("b1", "Edit"), ("b2", "Publish")):
        docs[f"{name}.xhtml"] = page(f"<h1>{title}</h1>{PARA}")
    nav = [(1, "Handbook", "index.xhtml"), (1, "Install", "a1.xhtml"), (1, "Configure", "a2.xhtml"),
           (1, "Edit", "b1.xhtml"), (1, "Publish", "b2.xhtml")]
    return docs, nav


def test_chapters_come_from_hub_headings_when_the_nav_lists_only_section_files():
    docs, nav = _hub_book()
    raw, found = structure(build(docs, nav=("nav.xhtml", nav)))
    # each chapter opens where its heading stands in the hub, and again at its first file
    assert chapter_level(found) == [(1, "front", "Handbook"), (1, "chapter", "Getting Started"),
                                    (1, "chapter", "Daily Work"), (1, "chapter", "Getting Started"),
                                    (1, "chapter", "Daily Work")]
    sections = [(h.level, h.title) for h in found.headings if h.kind == "section"]
    assert sections == [(2, "Install"), (2, "Configure"), (2, "Edit"), (2, "Publish")]
    opens = [(h.title, raw.pages[h.page - 1].source_doc) for h in found.headings if h.kind == "chapter"]
    assert opens == [("Getting Started", "index.xhtml"), ("Daily Work", "index.xhtml"),
                     ("Getting Started", "a1.xhtml"), ("Daily Work", "b1.xhtml")]


def test_a_hub_headings_intro_text_is_its_chapters_own():
    """The paragraphs under a hub heading introduce that chapter: a chunk holding them belongs to
    it, never to the chapter before (no chunk holds two chapters' text)."""
    docs, nav = _hub_book()
    book = load_book(build(docs, nav=("nav.xhtml", nav)), name="hub.epub")
    chapters = [h for h in book.headings if h.kind in ("chapter", "front")]
    def chapter_of(text: str) -> str:
        at = book.text.index(text)
        return [h.title for h in chapters if h.char_offset <= at][-1]
    assert chapter_of("intro one") == "Getting Started"
    assert chapter_of("intro two") == "Daily Work"


def test_outline_mode_uses_the_nav_alone_and_finds_no_hub():
    docs, nav = _hub_book()
    _, found = structure(build(docs, nav=("nav.xhtml", nav)), "outline")
    assert "Getting Started" not in [h.title for h in found.headings]


def test_a_single_ncx_root_is_the_title_page_and_chapters_sit_one_depth_below():
    docs = {"contents.xhtml": page("<h1>Contents</h1><p>the list</p>"),
            "title.xhtml": page("<h1>The Whole Book</h1><p>by someone</p>")}
    entries = [(1, "Contents", "contents.xhtml"), (1, "The Whole Book", "title.xhtml")]
    for n, name in enumerate(("Alpha", "Beta", "Gamma"), 1):
        docs[f"c{n}.xhtml"] = chapter(n, name, sections=2)
        entries += [(2, f"{n}. {name}", f"c{n}.xhtml")]
        entries += [(3, f"{n}.{m}. Part {m} of {name}", f"c{n}.xhtml#s{n}-{m}") for m in (1, 2)]
    _, found = structure(build(docs, ncx_entries=entries))
    assert chapter_level(found) == [(1, "front", "Contents"), (1, "front", "The Whole Book"),
                                    (1, "chapter", "Alpha"), (1, "chapter", "Beta"), (1, "chapter", "Gamma")]
    assert {h.level for h in found.headings if h.kind == "section"} == {2}


def test_book_wide_numbering_one_depth_down_makes_the_depth_above_parts():
    docs, entries, n = {}, [], 0
    for p, part in enumerate(("Foundations", "Practice"), 1):
        docs[f"p{p}.xhtml"] = page(f"<h1>{part}</h1>")
        entries.append((1, part, f"p{p}.xhtml"))
        for name in ("One", "Two"):
            n += 1
            docs[f"c{n}.xhtml"] = chapter(n, f"{part} {name}")
            entries.append((2, f"{n}. {part} {name}", f"c{n}.xhtml"))
    _, found = structure(build(docs, nav=("nav.xhtml", entries)))
    assert chapter_level(found) == [
        (1, "part", "Foundations"), (2, "chapter", "Foundations One"), (2, "chapter", "Foundations Two"),
        (1, "part", "Practice"), (2, "chapter", "Practice One"), (2, "chapter", "Practice Two")]


def test_numbers_that_restart_under_every_entry_are_sections_not_chapters():
    docs, entries = {}, []
    for n, name in enumerate(("Alpha", "Beta"), 1):
        docs[f"c{n}.xhtml"] = page(f'<h1>Chapter {n}. {name}</h1>{PARA}')
        entries.append((1, f"{n} {name}", f"c{n}.xhtml"))
        for m in (1, 2):
            docs[f"c{n}s{m}.xhtml"] = page(f"<h1>{m} Topic {name}{m}</h1>{PARA}")
            entries.append((2, f"{m} Topic {name}{m}", f"c{n}s{m}.xhtml"))
    _, found = structure(build(docs, nav=("nav.xhtml", entries)))
    assert chapter_level(found) == [(1, "chapter", "Alpha"), (1, "chapter", "Beta")]
    assert [h.number for h in found.headings if h.kind == "chapter"] == ["1", "2"]


def test_in_a_flat_nav_chapter_keyword_headings_make_bare_numbered_files_sections():
    docs, entries = {}, []
    for n, name in enumerate(("Alpha", "Beta"), 1):
        docs[f"c{n}.xhtml"] = page(f'<h1>Chapter {n}. {name}</h1>{PARA}')
        entries.append((1, f"{n} {name}", f"c{n}.xhtml"))
        docs[f"c{n}s2.xhtml"] = page(f"<h1>2 Topic {name}</h1>{PARA}")
        entries.append((1, f"2 Topic {name}", f"c{n}s2.xhtml"))
    _, found = structure(build(docs, nav=("nav.xhtml", entries)))
    assert chapter_level(found) == [(1, "chapter", "Alpha"), (1, "chapter", "Beta")]
    assert [(h.level, h.title) for h in found.headings if h.kind == "section"] == [
        (2, "Topic Alpha"), (2, "Topic Beta")]


def test_a_spine_document_in_no_nav_entry_before_the_first_chapter_is_front_matter():
    docs = {"toc.xhtml": page("<h1>The Book</h1><p><b>Table of Contents</b></p>"
                              '<p><a href="c1.xhtml">1. Alpha</a></p><p><a href="c2.xhtml">2. Beta</a></p>'),
            "c1.xhtml": chapter(1, "Alpha"), "c2.xhtml": chapter(2, "Beta")}
    _, found = structure(build(docs, nav=("nav.xhtml", [(1, "1. Alpha", "c1.xhtml"),
                                                         (1, "2. Beta", "c2.xhtml")])))
    assert chapter_level(found)[0] == (1, "front", "Table of Contents")
    assert ("keyword", "toc.xhtml: 'Table of Contents'") in found.headings[0].evidence


def test_an_ncx_entry_repeating_its_parent_is_dropped():
    docs = {"c1.xhtml": chapter(1, "Alpha"), "c2.xhtml": chapter(2, "Beta")}
    entries = [(1, "1. Alpha", "c1.xhtml"), (2, "1. Alpha", "c1.xhtml"), (1, "2. Beta", "c2.xhtml"),
               (2, "2. Beta", "c2.xhtml")]
    _, found = structure(build(docs, ncx_entries=entries))
    assert [(h.kind, h.title) for h in found.headings] == [("chapter", "Alpha"), ("chapter", "Beta")]


def test_accepted_headings_carry_agreeing_signals_and_a_confidence():
    docs = {f"c{n}.xhtml": chapter(n, name) for n, name in enumerate(("Alpha", "Beta", "Gamma"), 1)}
    entries = [(1, f"{n}. {name}", f"c{n}.xhtml") for n, name in enumerate(("Alpha", "Beta", "Gamma"), 1)]
    _, found = structure(build(docs, nav=("nav.xhtml", entries)))
    for h in found.headings:
        signals = {s for s, _ in h.evidence}
        assert signals == {"nav", "html_heading", "spine", "numbering"}
        assert h.confidence == confidence(signals) == 1.0
    assert found.signal_counts == {"nav": 3, "html_heading": 3, "spine": 3, "numbering": 3}


def test_headings_mode_finds_chapters_from_html_headings_without_the_nav():
    docs = {f"c{n}.xhtml": chapter(n, name) for n, name in enumerate(("Alpha", "Beta"), 1)}
    _, found = structure(build(docs, nav=("nav.xhtml", [(1, "Wrong", "c1.xhtml")])), "headings")
    assert found.source == "headings"
    assert chapter_level(found) == [(1, "chapter", "Alpha"), (1, "chapter", "Beta")]


def _placeholder_first(first: str) -> bytes:
    """An EPUB whose NCX names its first document, ``first`` without a heading, ``Section 1``."""
    docs = {"s1.xhtml": page(first),
            "s2.xhtml": page(f"<h1>Copyright</h1>{PARA}"),
            "s3.xhtml": page(f"<h1>Getting started</h1>{PARA}"),
            "s4.xhtml": page(f"<h1>Going further</h1>{PARA}")}
    return build(docs, ncx_entries=[(1, "Section 1", "s1.xhtml"), (1, "Copyright", "s2.xhtml"),
                                     (1, "Getting started", "s3.xhtml"), (1, "Going further", "s4.xhtml")])


def test_a_bare_nav_label_section_n_gives_way_to_the_title_its_document_opens_with():
    """A generator names a document without a heading ``Section 1`` in its NCX (a title page of
    paragraphs): a placeholder, so the line the document opens with is its title."""
    raw, found = structure(_placeholder_first("<p>The Widget Book</p><p>A. Writer</p>"))
    assert [t for _, _, t in chapter_level(found)] == ["The Widget Book", "Copyright", "Getting started", "Going further"]


def test_a_nav_label_section_n_is_a_section_as_the_outlines_plain_reading_takes_it():
    """A ``Section 1`` over a document that opens with a sentence, no title: by its word a
    section, not a chapter, as ``baseline.py`` reads the label."""
    raw, found = structure(_placeholder_first("<p>This book was written for the users of the widget, old and new.</p>"))
    assert "Section 1" not in [t for _, _, t in chapter_level(found)]
    assert [t for _, _, t in chapter_level(found)][-2:] == ["Getting started", "Going further"]


def test_a_nav_label_naming_the_pages_role_gives_way_to_the_heading_the_page_shows():
    docs = {"title.xhtml": page("<h1>The Widget Book</h1><h2>A. Writer</h2>"),
            "c1.xhtml": chapter(1, "Alpha"), "c2.xhtml": chapter(2, "Beta")}
    data = build(docs, nav=("nav.xhtml", [(1, "Title", "title.xhtml"), (1, "1. Alpha", "c1.xhtml"),
                                          (1, "2. Beta", "c2.xhtml")]))
    raw, found = structure(data)
    assert [t for _, _, t in chapter_level(found)] == ["The Widget Book", "Alpha", "Beta"]


def _one_file_book(opening: str) -> bytes:
    """The whole book in one document: ``opening``, then three chapters as fragments the nav
    points to."""
    body = opening + "".join(f'<h2 id="c{n}">{t}</h2>{PARA}{PARA}' for n, t in enumerate(["Alpha", "Beta", "Gamma"], 1))
    entries = [(1, t, f"body.xhtml#c{n}") for n, t in enumerate(["Alpha", "Beta", "Gamma"], 1)]
    return build({"body.xhtml": page(body)}, nav=("nav.xhtml", entries))


def test_a_heading_above_the_first_nav_entry_in_its_document_opens_a_front_unit():
    """A one-file book's title (its ``h1``, author and copyright under it) above the first
    chapter's fragment is in no nav entry: the stretch is the book's title page."""
    _, found = structure(_one_file_book(f"<h1>Widget Programming Manual</h1><p>A. Author</p>{PARA}"))
    assert chapter_level(found) == [
        (1, "front", "Widget Programming Manual"),
        (1, "chapter", "Alpha"),
        (1, "chapter", "Beta"),
        (1, "chapter", "Gamma"),
    ]
    assert found.headings[0].char_offset == 0


def test_a_lead_in_paragraph_above_the_first_nav_entry_is_no_unit():
    _, found = structure(_one_file_book(PARA))
    assert [kind for _, kind, _ in chapter_level(found)] == ["chapter"] * 3


def test_a_book_name_opening_every_nav_label_is_no_part_of_the_chapter_titles():
    """A binder that labels each page by its HTML ``<title>`` writes the book's name before every
    entry (``A Manual: 1. Alpha``): the chapters are ``Alpha``, ``Beta``… numbered 1, 2…, and the
    entry that is the name alone stays the title page."""
    docs = {"title.xhtml": page("<h1>A Manual</h1><p>by someone</p>")}
    entries = [(1, "A Manual", "title.xhtml")]
    names = ("Alpha", "Beta", "Gamma")
    for n, name in enumerate(names, 1):
        docs[f"c{n}.xhtml"] = chapter(n, name)
        entries.append((1, f"A Manual: {n}. {name}", f"c{n}.xhtml"))
    _, found = structure(build(docs, nav=("nav.xhtml", entries)))
    assert [(h.kind, h.number, h.title) for h in found.headings] == [("front", "", "A Manual")] + [
        ("chapter", str(n), name) for n, name in enumerate(names, 1)
    ]


CONTENTS_UNITS = [
    (1, "front", "Widget Programming Manual"),
    (1, "front", "Contents"),
    (1, "chapter", "Alpha"),
    (1, "chapter", "Beta"),
    (1, "chapter", "Gamma"),
]
"""The units of a one-file book whose contents, between its title and its chapters, is one."""


def _titled_one_file_book(contents: str) -> bytes:
    """A one-file book whose nav lists its title block and three chapters; ``contents`` stands
    between the title block and the first chapter."""
    titles = ["Alpha", "Beta", "Gamma"]
    body = f'<h1 id="top">Widget Programming Manual</h1><p>A. Author</p>{contents}'
    body += "".join(f'<h1 id="c{n}">{t}</h1>{PARA}{PARA}' for n, t in enumerate(titles, 1))
    entries = [(1, "Widget Programming Manual", "body.xhtml#top")]
    entries += [(1, t, f"body.xhtml#c{n}") for n, t in enumerate(titles, 1)]
    return build({"body.xhtml": page(body)}, nav=("nav.xhtml", entries))


def test_a_contents_paragraph_over_links_to_the_chapters_is_a_front_unit_and_what_precedes_it_front():
    """A converter prints the contents as a paragraph (no heading, no nav entry) over a list of
    links to the chapters: the book's contents is a front unit, and the title entry before it is
    front matter too."""
    links = "".join(f'<li><a href="#c{n}">{t}</a></li>' for n, t in enumerate(["Alpha", "Beta", "Gamma"], 1))
    _, found = structure(_titled_one_file_book(f'<div class="topic"><p>Contents</p><ul>{links}</ul></div>'))
    assert chapter_level(found) == CONTENTS_UNITS
    assert found.headings[1].evidence[0][0] == "contents"


def test_a_contents_line_over_prose_or_over_sections_only_is_no_unit():
    """The name alone makes no contents: over prose, or over a local list of section titles that
    are no chapters of the book, it is text of the unit it stands in."""
    prose = f"<p>Contents</p>{PARA}"
    local = "<p>Contents</p><ul><li>Setting up</li><li>Running it</li><li>Cleaning up</li></ul>"
    for contents in (prose, local):
        _, found = structure(_titled_one_file_book(contents))
        assert [t for _, _, t in chapter_level(found)] == ["Widget Programming Manual", "Alpha", "Beta", "Gamma"]


NOTE_MARKS = {
    "epub:type noteref": '<a xmlns:epub="http://www.idpf.org/2007/ops" epub:type="noteref" href="#n{n}">{n}</a>',
    "role doc-noteref": '<a role="doc-noteref" href="#n{n}"><sup>{n}</sup></a>',
    "footnote class, note text inline": (
        '<span class="ltx_note ltx_role_footnote"><sup class="ltx_note_mark">{n}</sup>'
        '<span class="ltx_note_content"><sup>{n}</sup>This section moved from elsewhere</span></span>'
    ),
    "bare superscript link": '<a href="#n{n}"><sup>{n}</sup></a>',
    "link inside a superscript": '<sup><a href="#n{n}">[{n}]</a></sup>',
}


@pytest.mark.parametrize("mark", NOTE_MARKS.values(), ids=NOTE_MARKS.keys())
def test_a_note_inside_a_heading_and_its_nav_label_is_no_part_of_the_title(mark):
    """A footnote's mark (or, as LaTeXML writes it, the whole note) inside a chapter's heading and
    its nav label stays in the text but is no part of the chapter's title."""
    titles = ["Alpha", "Beta", "Gamma"]
    body = "".join(
        f'<h1 id="c{n}">{n} {t}{mark.format(n=n)}</h1>{PARA}<p id="n{n}">{n} A note.</p>'
        for n, t in enumerate(titles, 1)
    )
    entries = [(1, f"{n} {t}{mark.format(n=n)}", f"body.xhtml#c{n}") for n, t in enumerate(titles, 1)]
    raw, found = structure(build({"body.xhtml": page(body)}, nav=("nav.xhtml", entries)))
    assert [(h.kind, h.number, h.title) for h in found.headings] == [
        ("chapter", str(n), t) for n, t in enumerate(titles, 1)
    ]
    text = "".join(p.text for p in raw.pages)
    assert ("moved from elsewhere" in text) == ("moved" in mark)  # the note stays in the text


def test_a_superscript_that_links_nowhere_is_part_of_the_heading():
    """Only a note's mark leaves the title: a superscript of the title's own (``mc²``) stays."""
    titles = ["Energy mc<sup>2</sup>", "Beta", "Gamma"]
    body = "".join(f'<h1 id="c{n}">{t}</h1>{PARA}' for n, t in enumerate(titles, 1))
    entries = [(1, t, f"body.xhtml#c{n}") for n, t in enumerate(titles, 1)]
    _, found = structure(build({"body.xhtml": page(body)}, nav=("nav.xhtml", entries)))
    assert [h.title for h in found.headings] == ["Energy mc2", "Beta", "Gamma"]


def _numbered_one_file_book(contents: str) -> bytes:
    """A one-file book: a title heading, ``contents``, then three numbered chapters its nav lists."""
    titles = ["Alpha", "Beta", "Gamma"]
    body = f"<h1>Widget Programming Manual</h1><p>A. Author</p>{contents}"
    body += "".join(f'<h2 id="c{n}">{n} {t}</h2>{PARA}{PARA}' for n, t in enumerate(titles, 1))
    entries = [(1, f"{n} {t}", f"body.xhtml#c{n}") for n, t in enumerate(titles, 1)]
    return build({"body.xhtml": page(body)}, nav=("nav.xhtml", entries))


def test_a_contents_heading_over_numbered_entries_is_a_front_unit():
    """LaTeXML prints the nav in the text under an ``<h6>Contents</h6>``, its entries numbered as
    the chapters are (``1 Alpha``): a contents the markup heads is a front unit."""
    items = "".join(f'<li><a href="#c{n}">{n} {t}</a></li>' for n, t in enumerate(["Alpha", "Beta", "Gamma"], 1))
    _, found = structure(_numbered_one_file_book(f"<h6>Contents</h6><ol>{items}</ol>"))
    assert chapter_level(found) == CONTENTS_UNITS


def test_a_contents_paragraph_over_numbered_entries_stays_part_of_the_title_page():
    """A bold paragraph ``Contents`` over numbered entries (a DocBook title page) is no unit of
    its own: the title page it stands on holds it."""
    items = "".join(f'<dt><a href="#c{n}">{n}. {t}</a></dt>' for n, t in enumerate(["Alpha", "Beta", "Gamma"], 1))
    _, found = structure(_numbered_one_file_book(f'<div class="toc"><p><b>Contents</b></p><dl>{items}</dl></div>'))
    assert [t for _, _, t in chapter_level(found)] == ["Widget Programming Manual", "Alpha", "Beta", "Gamma"]
