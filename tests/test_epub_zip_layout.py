"""EPUBs whose files sit in a folder of the zip (issue 22, class 5): one generated book, the trait
varied. A book folder zipped whole (``book/mimetype``, ``book/META-INF/container.xml``, …) opens
as the flat book does; two such folders, a deeper one, or an href climbing out of the folder are
refused with one clear line (exit 3), like every other unreadable EPUB.
"""

from __future__ import annotations

import io
import zipfile

import pytest
from test_bad_input_epub import encryption_xml, refused
from test_epub_reader import build_epub, nav_doc, paragraphs, xhtml

from chunking.readers import read_raw

DOCS = {
    "text/one.xhtml": xhtml(f'<h1 id="c1">Chapter 1 Start</h1>{paragraphs("a", 3)}'),
    "text/two.xhtml": xhtml(
        f'<h1>Chapter 2 Middle</h1>{paragraphs("b", 3)}<h2 id="s">2.1 Part</h2><p>x.</p>'
    ),
}
NAV = nav_doc(
    '<li><a href="text/one.xhtml#c1">Chapter 1 Start</a></li>'
    '<li><a href="text/two.xhtml">Chapter 2 Middle</a><ol><li><a href="text/two.xhtml#s">2.1 Part</a></li>'
    "</ol></li>"
)
FLAT = build_epub(DOCS, nav=NAV)


def nested(data: bytes, folders: list[str], extra: dict[str, str] | None = None) -> bytes:
    """``data``'s entries copied under each of ``folders`` ("" = at the top), plus ``extra``."""
    src = zipfile.ZipFile(io.BytesIO(data))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as out:
        for folder in folders:
            for info in src.infolist():
                out.writestr(folder + info.filename, src.read(info))
        for path, content in (extra or {}).items():
            out.writestr(path, content)
    return buf.getvalue()


def shape(book):
    return [(p.text, p.source_doc, p.html_headings) for p in book.pages], book.outline, book.title


@pytest.mark.parametrize(
    "folders, extra",
    [
        (["book/"], None),
        (["My Book (2024)/"], None),
        # macOS zips a folder with resource forks beside it: they are outside the book, ignored.
        (["book/"], {"__MACOSX/book/META-INF/._container.xml": "junk", "__MACOSX/book/._mimetype": "x"}),
        # Files at the top beside the folder are not the book's (and not read).
        (["book/"], {"README.txt": "zipped by hand", "OEBPS/content.opf": "<not the package"}),
    ],
)
def test_a_book_in_one_top_level_folder_reads_as_the_flat_book(folders, extra):
    flat = read_raw(FLAT, "flat.epub")
    book = read_raw(nested(FLAT, folders, extra), "folder.epub")
    assert flat.warnings == []
    assert shape(book) == shape(flat)
    assert book.warnings == [
        f"folder.epub: the book's files sit in the folder {folders[0]!r} of the zip, not at its top;"
        " read from that folder"
    ]
    assert [(e.title, e.page) for e in book.outline] == [
        ("Chapter 1 Start", 1),
        ("Chapter 2 Middle", 2),
        ("2.1 Part", 2),
    ]


def test_a_container_at_the_top_wins_over_a_folder_holding_another():
    book = read_raw(nested(FLAT, ["", "copy/"]), "both.epub")
    assert shape(book) == shape(read_raw(FLAT, "flat.epub")) and book.warnings == []


def test_two_folders_holding_a_container_are_ambiguous():
    assert refused(nested(FLAT, ["first/", "second/"]), "two.epub") == (
        "two.epub: no META-INF/container.xml at the top of the zip, and 2 folders hold one"
        " ('first/', 'second/'); which one is the book is ambiguous, so refused"
    )


def test_a_container_two_folders_down_is_not_looked_for():
    assert refused(nested(FLAT, ["outer/book/"]), "deep.epub") == (
        "deep.epub: no META-INF/container.xml, so not an EPUB"
    )


def test_an_href_climbing_out_of_the_book_folder_is_refused_as_outside_the_archive():
    escaping = build_epub(
        DOCS, nav=NAV, extra_manifest='<item id="x" href="../../x.css" media-type="text/css"/>'
    )
    message = refused(nested(escaping, ["book/"], {"x.css": "p {}"}), "climb.epub")
    assert message == ("climb.epub: manifest item 'x' href '../../x.css' points outside the archive; refused")


def test_drm_inside_the_book_folder_is_refused():
    files = {
        "META-INF/encryption.xml": encryption_xml(
            "http://www.w3.org/2001/04/xmlenc#aes128-cbc", "OEBPS/a.xhtml"
        )
    }
    data = nested(build_epub(DOCS, nav=NAV, files=files), ["book/"])
    assert refused(data, "drm.epub") == (
        "drm.epub: this EPUB is DRM-protected (META-INF/encryption.xml encrypts 1 content file);"
        " only DRM-free EPUBs can be read"
    )
