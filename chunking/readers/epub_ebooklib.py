"""EPUB through ebooklib: title, spine, table of contents and spine contents as it reads them.

ebooklib runs only on a file whose package ``chunking.readers.epub_package`` already parsed and
checked; its results are mapped onto that package's zip paths.
"""

from __future__ import annotations

import io
import posixpath
import warnings

from ebooklib import epub

from .archive import resolve_href
from .epub_package import Package, TocEntry
from .xhtml import collapse


def _flatten_ebooklib_toc(items: list, base: str, where: str, level: int = 1) -> list[TocEntry]:
    """ebooklib's nested ``book.toc`` (``Link`` / ``(Section, children)``) as flat entries."""
    entries: list[TocEntry] = []
    for item in items:
        node, children = item if isinstance(item, tuple) else (item, [])
        href = getattr(node, "href", "") or ""
        target = resolve_href(base, href, where) if href else None
        entries.append(TocEntry(level, collapse(node.title or ""), target))
        entries += _flatten_ebooklib_toc(children, base, where, level + 1)
    return entries


def _read_with_ebooklib(
    data: bytes, package: Package, name: str
) -> tuple[str, list[str], list[TocEntry], dict[str, bytes]]:
    """Title, spine, table of contents and spine contents as ebooklib reads them.

    Raises:
        Exception: whatever ebooklib raises for a file it refuses (the caller falls back).
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        book = epub.read_epub(io.BytesIO(data), {"ignore_ncx": True})
    opf_dir = posixpath.dirname(package.opf_path)
    wanted = set(package.spine)  # the XHTML spine documents, already checked (and warned about)
    contents: dict[str, bytes] = {}
    spine: list[str] = []
    for idref, _linear in book.spine:
        item = book.get_item_with_id(idref)
        path = posixpath.normpath(posixpath.join(opf_dir, item.file_name)) if item is not None else ""
        if path in wanted and path not in contents:
            spine.append(path)
            # NOTE: ``.content`` is the raw bytes; ``EpubHtml.get_content()`` re-renders the document.
            contents[path] = item.content
    # NOTE: ebooklib makes nav hrefs relative to the OPF folder and leaves NCX hrefs as written.
    toc = _flatten_ebooklib_toc(book.toc, package.toc_base, f"{name}: table of contents")
    return book.title or "", spine, toc, contents
