"""EPUB reader: spine order, pages, nav/NCX outline with #fragments, page-lists, damaged packages.

The small EPUBs are built here with zipfile (``build_epub``), so every structure under test is
visible in the test; ``tests/test_bad_input_epub.py`` reuses the builder for hostile files.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import zipfile

import pytest
from conftest import reference, sample_book
from ebooklib import epub

from chunking.cli import main
from chunking.readers.epub import read_epub
from chunking.readers.text import PAGE_CHARS
from chunking.readers.xhtml import extract_text, parse_xml

CONTAINER_XML = """<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>"""


def xhtml(body: str, doctype: str = "<!DOCTYPE html>") -> str:
    """A complete XHTML document around ``body``."""
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n{doctype}\n'
        '<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">'
        f"<head><title>t</title></head><body>{body}</body></html>"
    )


NAV_ITEM = '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>'


def nav_doc(toc: str, page_list: str = "") -> str:
    """An EPUB 3 nav document; ``toc``/``page_list`` are the inner ``<li>`` markup."""
    pages = f'<nav epub:type="page-list"><ol>{page_list}</ol></nav>' if page_list else ""
    return xhtml(f'<nav epub:type="toc"><h1>Contents</h1><ol>{toc}</ol></nav>{pages}')


def build_epub(
    docs: dict[str, str],
    *,
    nav: str | None = None,
    ncx: str | None = None,
    spine: list[str] | None = None,
    extra_manifest: str = "",
    title: str = "Test Book",
    files: dict[str, bytes | str | None] | None = None,
    opf: str | None = None,
) -> bytes:
    """Build an EPUB in memory.

    Args:
        docs: zip path under ``OEBPS/`` → XHTML text (manifest order = dict order).
        nav: nav document text (added as ``OEBPS/nav.xhtml`` with ``properties="nav"``).
        ncx: NCX text (added as ``OEBPS/toc.ncx``, named by ``spine@toc``).
        spine: spine order as doc paths; defaults to ``docs`` order.
        extra_manifest: raw ``<item>`` markup added to the manifest.
        files: zip entries to add or override (None removes an entry).
        opf: the whole OPF text, replacing the generated one.
    """
    ids = {path: f"d{i}" for i, path in enumerate(docs)}
    manifest = "".join(f'<item id="{ids[p]}" href="{p}" media-type="application/xhtml+xml"/>' for p in docs)
    if nav is not None:
        manifest += NAV_ITEM
    if ncx is not None:
        manifest += '<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>'
    itemrefs = "".join(f'<itemref idref="{ids[p]}"/>' for p in (spine or list(docs)))
    opf = opf or (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">'
        '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">'
        f'<dc:identifier id="id">test</dc:identifier><dc:title>{title}</dc:title>'
        "<dc:language>en</dc:language>"
        f"</metadata><manifest>{manifest}{extra_manifest}</manifest>"
        f"<spine{' toc=' + chr(34) + 'ncx' + chr(34) if ncx is not None else ''}>{itemrefs}</spine></package>"
    )
    entries: dict[str, bytes | str | None] = {
        "META-INF/container.xml": CONTAINER_XML,
        "OEBPS/content.opf": opf,
    }
    entries.update({f"OEBPS/{p}": text for p, text in docs.items()})
    if nav is not None:
        entries["OEBPS/nav.xhtml"] = nav
    if ncx is not None:
        entries["OEBPS/toc.ncx"] = ncx
    entries.update(files or {})
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip")
        for path, content in entries.items():
            if content is not None:
                zf.writestr(path, content)
    return buf.getvalue()


def paragraphs(prefix: str, n: int, words: int = 60) -> str:
    """``n`` distinct paragraphs of about ``words`` words each."""
    return "".join(
        f"<p>{prefix} paragraph {i}: " + " ".join(f"w{i}x{j}" for j in range(words)) + ".</p>"
        for i in range(n)
    )


# --- XHTML → text ---------------------------------------------------------------------------


def test_xhtml_skips_script_style_svg_math_and_keeps_block_structure():
    root = parse_xml(
        xhtml(
            "<h1>Title&nbsp;One</h1><p>Hello   <em>big</em>\n world.<br/>Next&mdash;line</p>"
            "<script>bad()</script><style>p{}</style><svg xmlns='http://www.w3.org/2000/svg'><text>no</text></svg>"
            "<math xmlns='http://www.w3.org/1998/Math/MathML'><mi>x</mi></math>"
            "<ul><li>one</li><li>two</li></ul>tail"
        ).encode(),
        "t",
    )
    assert extract_text(root).text == "Title One\n\nHello big world.\nNext\u2014line\n\none\ntwo\n\ntail"


def test_xhtml_pre_keeps_lines_and_indentation():
    root = parse_xml(
        xhtml(
            "<p>Before</p><pre>\n  line 1\n    <span>indented</span>\n\n  after blank\n</pre><p>After</p>"
        ).encode(),
        "t",
    )
    assert extract_text(root).text == "Before\n\n  line 1\n    indented\n\n  after blank\n\nAfter"


def test_xhtml_anchor_offsets_point_at_the_elements_text():
    root = parse_xml(
        xhtml(
            '<section id="s"><span id="e"></span><h2 id="h">2.1 Heading</h2>'
            '<p>x <a name="n"/>named</p></section><div id="end"/>'
        ).encode(),
        "t",
    )
    out = extract_text(root)
    assert {k: out.text[v:] for k, v in out.anchors.items()} == {
        "s": "2.1 Heading\n\nx named",
        "e": "2.1 Heading\n\nx named",
        "h": "2.1 Heading\n\nx named",
        "n": "named",
        "end": "",
    }


# --- the real book ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def policy_bytes() -> bytes:
    return sample_book("debian-policy.epub").read_bytes()


@pytest.fixture(scope="module")
def policy(policy_bytes):
    return read_epub(policy_bytes, "debian-policy.epub")


def _doc_order(book) -> list[str]:
    order: list[str] = []
    for page in book.pages:
        if page.source_doc not in order:
            order.append(page.source_doc)
    return order


def test_debian_policy_pages_follow_the_spine_not_the_manifest(policy):
    assert _doc_order(policy) == reference("debian-policy")["spine"]
    assert not policy.warnings


def test_debian_policy_nav_level1_entries_start_their_documents(policy):
    ref = reference("debian-policy")
    level1 = [e for e in policy.outline if e.level == 1]
    assert [e.title for e in level1] == [r["title"] for r in ref["entries"]]
    first_page = {}
    for page in policy.pages:
        first_page.setdefault(page.source_doc, page.number)
    assert [(e.page, e.offset) for e in level1] == [(first_page[r["spine_doc"]], 0) for r in ref["entries"]]


def test_debian_policy_fragment_entries_land_on_their_headings(policy):
    sections = [e for e in policy.outline if e.level > 1]
    assert len(sections) == 326 - 24
    for entry in sections:
        text = policy.pages[entry.page - 1].text[entry.offset :]
        # Sphinx numbers each heading ("4.9.1. Title"); the nav title follows the number.
        assert re.match(r"(?:[0-9A-Z]+\.)+[0-9]*\.? ?" + re.escape(entry.title), text), (entry, text[:80])


def test_debian_policy_synthetic_pages_never_span_documents(policy):
    assert all(p.synthetic and p.label == "" and p.source_doc for p in policy.pages)
    for page in policy.pages[:-1]:
        assert len(page.text) <= PAGE_CHARS * 3 // 2


def test_a_manifest_item_whose_file_is_missing_leaves_the_same_book(policy_bytes, policy):
    # The same book with one more manifest item whose file is missing: ebooklib raises KeyError,
    # the reader (the one EPUB parser) reads the same book and says what is missing.
    src = zipfile.ZipFile(io.BytesIO(policy_bytes))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as out:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "content.opf":
                data = data.replace(
                    b"</manifest>",
                    b'<item id="ghost" href="_images/ghost.png" media-type="image/png"/></manifest>',
                )
            out.writestr(info, data)
    broken = buf.getvalue()
    with pytest.raises(KeyError):
        epub.read_epub(io.BytesIO(broken), {"ignore_ncx": True})
    book = read_epub(broken, "broken.epub")
    assert book.warnings == [
        "broken.epub: 1 manifest item(s) name files missing from the archive ('_images/ghost.png'); ignored"
    ]
    assert book.pages == policy.pages
    assert book.outline == policy.outline
    assert book.title == policy.title


# --- small built books -----------------------------------------------------------------------


def test_fragment_chapters_of_one_xhtml_land_mid_page_at_their_offsets():
    body = "".join(
        f'<section id="ch{i}"><h1>Chapter {i}</h1>{paragraphs(f"c{i}", 4, 40)}</section>' for i in range(1, 6)
    )
    toc = "".join(f'<li><a href="book.xhtml#ch{i}">Chapter {i}</a></li>' for i in range(1, 6))
    book = read_epub(build_epub({"book.xhtml": xhtml(body)}, nav=nav_doc(toc)), "frag.epub")
    assert [e.title for e in book.outline] == [f"Chapter {i}" for i in range(1, 6)]
    for entry in book.outline:
        assert book.pages[entry.page - 1].text[entry.offset :].startswith(f"{entry.title}\n\nc")
    assert any(e.offset > 0 for e in book.outline), "some chapter must start mid-page"
    assert len(book.pages) > 1 and all(p.source_doc == "book.xhtml" for p in book.pages)
    # Each page's anchors are the ids on it, at the same offsets the outline uses.
    for entry, i in zip(book.outline, range(1, 6), strict=True):
        assert book.pages[entry.page - 1].anchors[f"ch{i}"] == entry.offset


def test_synthetic_pages_cut_at_paragraph_ends_and_keep_every_paragraph():
    docs = {"a.xhtml": xhtml(paragraphs("alpha", 30)), "b.xhtml": xhtml(paragraphs("beta", 3))}
    book = read_epub(build_epub(docs, nav=nav_doc('<li><a href="a.xhtml">A</a></li>')), "s.epub")
    for path, prefix, n in (("a.xhtml", "alpha", 30), ("b.xhtml", "beta", 3)):
        pages = [p for p in book.pages if p.source_doc == path]
        assert all(p.synthetic and p.label == "" for p in pages)
        joined = "\n\n".join(p.text for p in pages)
        assert joined.split("\n\n") == [
            f"{prefix} paragraph {i}: " + " ".join(f"w{i}x{j}" for j in range(60)) + "." for i in range(n)
        ]
        assert all(p.text.endswith(".") for p in pages)
    assert [p.number for p in book.pages] == list(range(1, len(book.pages) + 1))
    assert sum(p.source_doc == "a.xhtml" for p in book.pages) >= 30 * 420 // (PAGE_CHARS * 3 // 2)


def test_page_list_gives_labelled_print_pages():
    body = (
        f"<p>Front text before any print page.</p>"
        f'<span id="p1"/>{paragraphs("one", 2)}<span id="p2"/>{paragraphs("two", 2)}'
    )
    body2 = f'{paragraphs("cont", 1)}<span id="p3"/>{paragraphs("three", 1)}'
    pages = "".join(
        f'<li><a href="{d}#p{n}">{label}</a></li>'
        for d, n, label in (("a.xhtml", 1, "1"), ("a.xhtml", 2, "2"), ("b.xhtml", 3, "iii"))
    )
    book = read_epub(
        build_epub(
            {"a.xhtml": xhtml(body), "b.xhtml": xhtml(body2)},
            nav=nav_doc('<li><a href="a.xhtml">A</a></li>', pages),
        ),
        "pl.epub",
    )
    got = [(p.label, p.synthetic, p.source_doc, p.text.split(" ")[0]) for p in book.pages]
    assert got == [
        ("", True, "a.xhtml", "Front"),
        ("1", False, "a.xhtml", "one"),
        ("2", False, "a.xhtml", "two"),
        ("2", False, "b.xhtml", "cont"),
        ("iii", False, "b.xhtml", "three"),
    ]


def test_pagebreak_markers_give_pages_when_there_is_no_page_list():
    body = (
        f'{paragraphs("one", 1)}<span epub:type="pagebreak" id="pg2" title="2"/>{paragraphs("two", 1)}'
        f'<div role="doc-pagebreak" aria-label="3"></div>{paragraphs("three", 1)}'
    )
    book = read_epub(
        build_epub({"a.xhtml": xhtml(body)}, nav=nav_doc('<li><a href="a.xhtml#pg2">Two</a></li>')), "pb.epub"
    )
    assert [(p.label, p.synthetic, p.text.split(" ")[0]) for p in book.pages] == [
        ("", True, "one"),
        ("2", False, "two"),
        ("3", False, "three"),
    ]
    assert (book.outline[0].page, book.outline[0].offset) == (2, 0)


NCX = """<?xml version="1.0" encoding="UTF-8"?>
<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1"><head/><docTitle><text>T</text></docTitle>
<navMap>
 <navPoint id="n1"><navLabel><text>Part One</text></navLabel><content src="a.xhtml"/>
  <navPoint id="n2"><navLabel><text>Chapter  1</text></navLabel><content src="a.xhtml#c1"/></navPoint>
  <navPoint id="n3"><navLabel><text>Chapter 2</text></navLabel><content src="b.xhtml"/></navPoint>
 </navPoint>
</navMap>
<pageList><pageTarget id="pt1" type="normal" value="7"><navLabel><text>7</text></navLabel>
 <content src="b.xhtml#pg7"/></pageTarget></pageList>
</ncx>"""


def test_epub2_ncx_gives_nested_outline_and_page_list():
    docs = {
        "a.xhtml": xhtml(f'<h1>Part One</h1><h2 id="c1">Chapter 1</h2>{paragraphs("a", 2)}'),
        "b.xhtml": xhtml(f'<h2>Chapter 2</h2>{paragraphs("b", 1)}<span id="pg7"/>{paragraphs("seven", 1)}'),
    }
    book = read_epub(build_epub(docs, ncx=NCX), "ncx.epub")
    got = [
        (e.level, e.title, e.page, book.pages[e.page - 1].text[e.offset :].split("\n")[0])
        for e in book.outline
    ]
    assert got == [
        (1, "Part One", 1, "Part One"),
        (2, "Chapter 1", 1, "Chapter 1"),
        (2, "Chapter 2", 2, "Chapter 2"),
    ]
    assert [p.label for p in book.pages] == ["", "", "7"]



def _stub_nav_book(nav_entries: str) -> bytes:
    docs = {
        "title.xhtml": xhtml("<h1>The Book</h1>"),
        "a.xhtml": xhtml(f'<h1>Part One</h1><h2 id="c1">Chapter 1</h2>{paragraphs("a", 2)}'),
        "b.xhtml": xhtml(f'<h2>Chapter 2</h2>{paragraphs("b", 1)}<span id="pg7"/>{paragraphs("seven", 1)}'),
    }
    nav = xhtml(f'<nav epub:type="toc"><h1>Table of contents</h1><ol class="toc" hidden="hidden">{nav_entries}</ol></nav>')
    return build_epub(docs, nav=nav, ncx=NCX)


def test_a_stub_nav_of_one_hidden_entry_gives_way_to_the_ncx_contents():
    # a converter's EPUB 3 nav lists only the first file; its NCX lists the chapters
    book = read_epub(_stub_nav_book('<li><a href="title.xhtml">Document</a></li>'), "stub.epub")
    assert [(e.level, e.title) for e in book.outline] == [(1, "Part One"), (2, "Chapter 1"), (2, "Chapter 2")]


def test_a_nav_of_two_entries_is_read_as_the_contents_though_the_ncx_lists_more():
    entries = '<li><a href="title.xhtml">The Book</a></li><li><a href="a.xhtml">Part One</a></li>'
    book = read_epub(_stub_nav_book(entries), "two.epub")
    assert [e.title for e in book.outline] == ["The Book", "Part One"]

def test_nav_heading_without_link_takes_its_first_childs_target():
    toc = (
        '<li><span>Part I</span><ol><li><a href="a.xhtml">One</a></li>'
        '<li><a href="b.xhtml">Two</a></li></ol></li>'
        '<li><a href="http://example.org/">Elsewhere</a></li>'
    )
    book = read_epub(
        build_epub({"a.xhtml": xhtml("<p>One</p>"), "b.xhtml": xhtml("<p>Two</p>")}, nav=nav_doc(toc)),
        "part.epub",
    )
    assert [(e.level, e.title, e.page) for e in book.outline] == [
        (1, "Part I", 1),
        (2, "One", 1),
        (2, "Two", 2),
        (1, "Elsewhere", 0),
    ]
    assert book.warnings == ["part.epub: 1 outline entries point outside the spine; left unresolved (page 0)"]


def test_missing_manifest_file_is_read_past_with_a_warning():
    data = build_epub(
        {"a.xhtml": xhtml("<h1>One</h1><p>Text.</p>")},
        nav=nav_doc('<li><a href="a.xhtml">One</a></li>'),
        extra_manifest='<item id="img" href="img/missing.png" media-type="image/png"/>',
    )
    with pytest.raises(KeyError):
        epub.read_epub(io.BytesIO(data), {"ignore_ncx": True})
    book = read_epub(data, "missing.epub")
    assert book.pages[0].text == "One\n\nText."
    assert [(e.title, e.page, e.offset) for e in book.outline] == [("One", 1, 0)]
    assert book.title == "Test Book"
    assert book.warnings == [
        "missing.epub: 1 manifest item(s) name files missing from the archive ('OEBPS/img/missing.png');"
        " ignored"
    ]


def test_missing_spine_document_is_skipped_with_a_warning():
    data = build_epub(
        {"a.xhtml": xhtml("<p>Kept.</p>"), "b.xhtml": None, "c.xhtml": xhtml("<p>Also kept.</p>")},
        nav=nav_doc('<li><a href="a.xhtml">A</a></li>'),
    )
    book = read_epub(data, "gap.epub")
    assert [p.text for p in book.pages] == ["Kept.", "Also kept."]
    assert book.warnings == [
        "gap.epub: spine document 'OEBPS/b.xhtml' is missing from the archive; skipped"
    ]


def test_document_without_text_gets_one_empty_page_that_outline_entries_reach():
    docs = {"cover.xhtml": xhtml('<img src="c.png" alt="cover"/>'), "a.xhtml": xhtml("<p>Body.</p>")}
    book = read_epub(
        build_epub(
            docs, nav=nav_doc('<li><a href="cover.xhtml">Cover</a></li><li><a href="a.xhtml">A</a></li>')
        ),
        "cover.epub",
    )
    assert [(p.text, p.source_doc) for p in book.pages] == [
        ("", "cover.xhtml"),
        ("Body.", "a.xhtml"),
    ]
    assert [(e.page, e.offset) for e in book.outline] == [(1, 0), (2, 0)]


def test_spine_order_wins_over_manifest_order_and_relative_hrefs_resolve():
    docs = {
        "Text/z.xhtml": xhtml("<p>Second.</p>"),
        "Text/a.xhtml": xhtml('<p>Lead.</p><p id="x">First.</p>'),
    }
    nav = nav_doc(
        '<li><a href="../Text/a.xhtml#x">First</a></li><li><a href="../Text/z%2Exhtml">Second</a></li>'
    )
    data = build_epub(
        docs,
        spine=["Text/a.xhtml", "Text/z.xhtml"],
        files={"OEBPS/Nav/nav.xhtml": nav},
        extra_manifest=NAV_ITEM.replace('href="nav.xhtml"', 'href="Nav/nav.xhtml"'),
    )
    book = read_epub(data, "order.epub")
    assert [p.text for p in book.pages] == ["Lead.\n\nFirst.", "Second."]
    assert [(e.title, e.page, e.offset) for e in book.outline] == [("First", 1, 7), ("Second", 2, 0)]
    assert not book.warnings


def test_title_comes_from_metadata_else_the_file_name():
    assert (
        read_epub(build_epub({"a.xhtml": xhtml("<p>x</p>")}, title="Real Title"), "f.epub").title
        == "Real Title"
    )
    assert (
        read_epub(build_epub({"a.xhtml": xhtml("<p>x</p>")}, title=""), "dir/file-name.epub").title
        == "file-name"
    )


def test_outline_cli_reads_a_damaged_epub_and_reports_the_damage(tmp_path):
    path = tmp_path / "fallback.epub"
    path.write_bytes(
        build_epub(
            {"a.xhtml": xhtml("<h1>Chapter 1 Start</h1><p>Text.</p>")},
            nav=nav_doc('<li><a href="a.xhtml">Chapter 1 Start</a></li>'),
            extra_manifest='<item id="img" href="missing.png" media-type="image/png"/>',
        )
    )
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["outline", str(path), "--structure", "outline"])
    assert code == 0
    assert err.getvalue().startswith(
        "chunking: warning: fallback.epub: 1 manifest item(s) name files missing from the archive"
    )
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [(r["page"], r["char_offset"], r["source"]) for r in rows] == [(1, 0, "outline")]


def test_text_html_spine_documents_are_read_like_xhtml():
    opf = (
        '<package xmlns="http://www.idpf.org/2007/opf" version="2.0">'
        '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>H</dc:title></metadata><manifest>'
        '<item id="a" href="a.html" media-type="text/html"/>'
        '<item id="b" href="b.xhtml" media-type="application/xhtml+xml"/>'
        '</manifest><spine><itemref idref="a"/><itemref idref="b"/></spine></package>'
    )
    data = build_epub({"a.html": xhtml("<p>Old style.</p>"), "b.xhtml": xhtml("<p>New.</p>")}, opf=opf)
    book = read_epub(data, "html.epub")
    assert [(p.text, p.source_doc) for p in book.pages] == [("Old style.", "a.html"), ("New.", "b.xhtml")]
    assert book.warnings == [] and book.outline == []


def test_book_written_by_ebooklib_reads_back_with_its_toc():
    book = epub.EpubBook()
    book.set_identifier("id1")
    book.set_title("Written by ebooklib")
    book.set_language("en")
    ch1 = epub.EpubHtml(title="Chapter 1", file_name="ch1.xhtml", lang="en")
    ch1.content = "<h1>Chapter 1</h1><p>First chapter text.</p><h2 id='s1'>Section 1.1</h2><p>More.</p>"
    ch2 = epub.EpubHtml(title="Chapter 2", file_name="ch2.xhtml", lang="en")
    ch2.content = "<h1>Chapter 2</h1><p>Second.</p>"
    book.add_item(ch1)
    book.add_item(ch2)
    book.toc = [
        (
            epub.Section("Part I"),
            [epub.Link("ch1.xhtml", "Chapter 1", "c1"), epub.Link("ch1.xhtml#s1", "Section 1.1", "s")],
        ),
        epub.Link("ch2.xhtml", "Chapter 2", "c2"),
    ]
    book.add_item(epub.EpubNcx())
    book.add_item(epub.EpubNav())
    book.spine = ["nav", ch1, ch2]
    buf = io.BytesIO()
    epub.write_epub(buf, book)
    raw = read_epub(buf.getvalue(), "written.epub")
    assert (raw.title, raw.warnings) == ("Written by ebooklib", [])
    assert [p.source_doc for p in raw.pages] == ["nav.xhtml", "ch1.xhtml", "ch2.xhtml"]
    got = [
        (e.level, e.title, e.page, raw.pages[e.page - 1].text[e.offset :].split("\n")[0]) for e in raw.outline
    ]
    assert got == [
        (1, "Part I", 2, "Chapter 1"),
        (2, "Chapter 1", 2, "Chapter 1"),
        (2, "Section 1.1", 2, "Section 1.1"),
        (1, "Chapter 2", 3, "Chapter 2"),
    ]


# --- evidence for structure: HTML headings, links, repeated spine items --------------------------


def test_each_page_records_its_html_headings_with_tag_level_text_and_offset():
    docs = {"a.xhtml": xhtml('<h1 id="t">Chapter <em>1</em>. Start</h1><p>Body.</p>'
                             "<h3>A detail</h3><h2></h2>")}
    page = read_epub(build_epub(docs), "h.epub").pages[0]
    assert [(level, text) for level, text, _ in page.html_headings] == [
        (1, "Chapter 1. Start"), (3, "A detail")]
    for _, text, offset in page.html_headings:
        assert page.text[offset:].startswith(text)


def test_a_note_inside_a_heading_stays_in_the_text_but_not_in_the_recorded_heading():
    """A note's mark, or the whole note as LaTeXML writes it, where it stands in a heading (first,
    between words, last) is no part of the heading's recorded title; the text keeps it."""
    note = '<span class="footnote"><sup>5</sup>A note.</span>'
    root = parse_xml(
        xhtml(
            f"<h1>{note}Opening</h1><h2>New{note} Features</h2><h3>Hints{note}</h3>"
            '<h4>Energy mc<sup>2</sup><a role="doc-noteref" href="#n"><sup>7</sup></a></h4>'
        ).encode(),
        "t",
    )
    out = extract_text(root)
    assert [text for _, text, _ in out.headings] == ["Opening", "New Features", "Hints", "Energy mc2"]
    assert out.text.count("5A note.") == 3 and "mc27" in out.text


def test_each_page_records_its_links_to_other_spine_documents_relative_to_the_opf():
    docs = {"text/a.xhtml": xhtml('<p>See <a href="b.xhtml#x">there</a>, <a href="#here">here</a>, '
                                  '<a href="http://example.org/">away</a>.</p>'),
            "text/b.xhtml": xhtml('<p id="x">Target.</p>')}
    page = read_epub(build_epub(docs), "l.epub").pages[0]
    assert [(page.text[off:off + 5], target) for off, target in page.links] == [("there", "text/b.xhtml")]


def test_a_document_repeated_in_the_spine_is_read_once_with_one_warning():
    docs = {"a.xhtml": xhtml("<p>Alpha text.</p>"), "b.xhtml": xhtml("<p>Beta text.</p>")}
    raw = read_epub(build_epub(docs, spine=["a.xhtml", "b.xhtml", "a.xhtml", "a.xhtml"]), "r.epub")
    assert [p.source_doc for p in raw.pages] == ["a.xhtml", "b.xhtml"]
    assert [w for w in raw.warnings if "repeat" in w] == [
        "r.epub: 2 spine item(s) repeat a document already in the spine ('OEBPS/a.xhtml'); "
        "each document is read once"]
