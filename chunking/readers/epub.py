"""Stage 1 (read), EPUB: bytes → ``RawBook`` in spine order, with pages and the nav/NCX outline.

Contract:

* **Safety before anything reads the bytes.** ``EpubArchive`` bounds every decompression and
  finds the book's root folder (the top of the zip, or the one folder holding
  ``META-INF/container.xml``), DRM is refused, and the package (``container.xml`` → OPF →
  manifest/spine → nav or NCX, ``chunking.readers.epub_package``) is parsed with ``parse_xml``
  (no entities, ``huge_tree``, iterative walk) with every href resolved inside the archive.
  This is the only EPUB parser: what a stricter one refuses but leaves the text readable (a
  manifest item whose file is missing) is read, with a warning.
* **Pages.** With a print page-list (nav ``page-list`` or NCX ``pageList``), or else
  ``epub:type="pagebreak"`` markers: one page per print page, labelled with its print number; text
  before the first marker is cut synthetically. Without them: synthetic pages of about 2,000
  characters cut at paragraph ends (``text.cut_pages``), ``synthetic=True``, label ``""``. A page
  never spans two spine documents and remembers its document's href (relative to the OPF, as in
  the manifest) in ``source_doc``; a document without text still gets one empty page, so outline
  targets on it resolve.
* **Outline.** nav (EPUB 3) or NCX (EPUB 2) → ``OutlineEntry(level, title, page, offset)``: the
  1-based page where the target starts and the offset in that page's text (the anchor of a
  ``#fragment``, 0 for a whole document). Hrefs are resolved relative to the nav/NCX file that
  holds them; a target that is in no spine document there but whose file name is that of
  exactly one spine document is moved to it (a warning counts them), since producers do write
  hrefs against the wrong folder.
  Entries whose target is still outside the spine get page 0. Titles are whitespace-collapsed,
  otherwise as stored (junk is for ``chunking.structure``).
* **Linearity.** Spine items marked ``linear="no"`` (covers, translations, copies) are *kept* in
  the text, in spine order: dropping them would lose text silently. Their pages carry
  ``linear=False`` and a warning names how many there are; structure detection never makes a
  chapter of them unless the nav lists them.
* **Evidence for structure.** Each page records its ``h1``-``h6`` headings and its links to other
  spine documents (``RawPage.html_headings`` / ``links``).
"""

from __future__ import annotations

import posixpath
from bisect import bisect_right
from dataclasses import dataclass, field
from pathlib import PurePath


from ..errors import UnreadableInputError
from .archive import EpubArchive, resolve_href
from .raw import OutlineEntry, RawBook, RawPage
from .text import cut_pages
from .epub_package import Package, TocEntry, _fill_section_targets, read_package
from .xhtml import MalformedXmlError, extract_text, parse_xml


@dataclass
class _Doc:
    """One spine document's text and where its pages fall in it."""

    path: str
    text: str
    anchors: dict[str, int]
    markers: list[tuple[int, str]]  # print page starts (offset, label)
    headings: list[tuple[int, str, int]] = field(default_factory=list)  # (tag level, text, offset)
    links: list[tuple[int, str]] = field(default_factory=list)  # (offset, zip path of the target)
    pages: list[tuple[int, int, str, bool]] = field(default_factory=list)  # (start, end, label, synthetic)
    starts: list[int] = field(default_factory=list)  # page start offsets, for bisecting
    first_page: int = 0  # 0-based index of this document's first page in the book


def _cut_document(doc: _Doc, carry: str | None) -> str | None:
    """Fill ``doc.pages``; return the print label in force at the document's end.

    Args:
        doc (_Doc): the document, with its print page-start markers.
        carry (str | None): label of the print page running into this document, None before the
            book's first marker (that text is cut synthetically).
    """
    bounds = [(0, carry)] + [(off, label) for off, label in doc.markers]
    ends = [off for off, _ in bounds[1:]] + [len(doc.text)]
    for (start, label), end in zip(bounds, ends, strict=True):
        if label is None:
            doc.pages += [(start + s, start + e, "", True) for s, e in cut_pages(doc.text[start:end])]
            continue
        segment = doc.text[start:end]
        stripped = segment.strip()
        if stripped:
            lead = len(segment) - len(segment.lstrip())
            doc.pages.append((start + lead, start + lead + len(stripped), label, False))
    if not doc.pages:
        doc.pages.append((0, 0, carry or "", carry is None))
    doc.starts = [start for start, _, _, _ in doc.pages]
    return bounds[-1][1]


def _locate(doc: _Doc, offset: int) -> tuple[int, int]:
    """(0-based book page index, offset in that page's text) of a document offset."""
    i = max(bisect_right(doc.starts, offset) - 1, 0)
    start, end, _, _ = doc.pages[i]
    if offset > end and i + 1 < len(doc.pages):
        return doc.first_page + i + 1, 0  # in the whitespace between two pages: next page's start
    return doc.first_page + i, min(max(offset - start, 0), end - start)


def _build_docs(archive: EpubArchive, package: Package, name: str, notes: list[str]) -> list[_Doc]:
    """Extract each spine document's text; attach print page starts from the page-list if any."""
    docs: list[_Doc] = []
    for path in package.spine:
        data = archive.read(path)
        if data is None:
            notes.append(f"{name}: spine document {path!r} is missing from the archive; skipped")
            continue
        try:
            extracted = extract_text(parse_xml(data, f"{name}: {path}", notes))
        except MalformedXmlError as exc:
            notes.append(f"{exc}; read as empty")
            docs.append(_Doc(path, "", {}, []))
            continue
        links = [
            (off, target[0])
            for off, href in extracted.links
            if (target := _link_target(path, href)) is not None
        ]
        docs.append(
            _Doc(path, extracted.text, extracted.anchors, extracted.pagebreaks, extracted.headings, links)
        )
    if not docs:
        raise UnreadableInputError(f"{name}: none of the spine documents could be read")
    if package.page_list:
        # NOTE: the page-list is the book's own statement of print pages; it replaces inline markers.
        by_path = {doc.path: doc for doc in docs}
        for each in docs:
            each.markers = []
        lost = 0
        for label, path, fragment in package.page_list:
            holder = by_path.get(path)
            offset = (holder.anchors.get(fragment) if fragment else 0) if holder else None
            if holder is None or offset is None:
                lost += 1
            else:
                holder.markers.append((offset, label))
        for doc in docs:
            doc.markers.sort(key=lambda m: m[0])
        if lost:
            notes.append(f"{name}: {lost} page-list entries point at no spine anchor; dropped")
    return docs


def _link_target(doc_path: str, href: str) -> tuple[str, str] | None:
    """A content link's (zip path, fragment), or None for external or unsafe links (a link is
    evidence only: an unsafe one is ignored, not a reason to refuse the book)."""
    try:
        return resolve_href(doc_path, href, "link")
    except UnreadableInputError:
        return None


def _outline(
    toc: list[TocEntry], docs: list[_Doc], name: str, notes: list[str], nonlinear: set[str]
) -> list[OutlineEntry]:
    """Place each table-of-contents entry on its page and offset (page 0 when outside the spine).

    A target in no spine document falls back to the one spine document of the same file name,
    counting the linear documents first (a translation in ``de/`` shares the names of the book's
    own files but is ``linear="no"``).
    """
    by_path = {doc.path: doc for doc in docs}
    by_base: dict[str, list[_Doc]] = {}
    for doc in sorted(docs, key=lambda d: d.path in nonlinear):
        by_base.setdefault(posixpath.basename(doc.path), []).append(doc)
    outline: list[OutlineEntry] = []
    outside = no_anchor = moved = 0
    for entry in _fill_section_targets(toc):
        target = entry.target
        found = by_path.get(target[0]) if target else None
        same = by_base.get(posixpath.basename(target[0]), []) if target else []
        if len(same) > 1:
            same = [d for d in same if d.path not in nonlinear]
        if found is None and len(same) == 1:
            found = same[0]  # the href names the right file in the wrong folder
            moved += 1
        if found is None or target is None:
            outside += 1
            outline.append(OutlineEntry(level=entry.level, title=entry.title, page=0))
            continue
        fragment = target[1]
        offset = found.anchors.get(fragment, 0) if fragment else 0
        no_anchor += bool(fragment) and fragment not in found.anchors
        page, in_page = _locate(found, offset)
        outline.append(OutlineEntry(level=entry.level, title=entry.title, page=page + 1, offset=in_page))
    if moved:
        notes.append(
            f"{name}: {moved} outline entries point at a file in another folder; matched to the "
            "spine document of the same name"
        )
    if outside:
        notes.append(f"{name}: {outside} outline entries point outside the spine; left unresolved (page 0)")
    if no_anchor:
        notes.append(
            f"{name}: {no_anchor} outline entries name a missing #fragment; placed at their document's start"
        )
    return outline


def _relative(path: str, opf_dir: str) -> str:
    """A zip path as the manifest writes it (relative to the OPF's folder)."""
    return posixpath.relpath(path, opf_dir) if opf_dir else path


def read_epub(data: bytes, name: str) -> RawBook:
    """Read an EPUB (2 or 3) into pages in spine order with its nav/NCX outline.

    Args:
        data (bytes): the whole file.
        name (str): the file name, for messages and as the title fallback.

    Returns:
        RawBook: format ``"epub"``; pages per print page or synthetic; outline from nav/NCX.

    Raises:
        UnreadableInputError: not a zip, zip bomb, DRM, no container or spine, unsafe XML or hrefs,
            no text at all (like an empty PDF or TXT: nothing to chunk).
    """
    archive = EpubArchive(data, name)
    archive.check_drm()
    package = read_package(archive, name)
    notes = list(package.warnings)
    docs = _build_docs(archive, package, name, notes)

    opf_dir = posixpath.dirname(package.opf_path)
    carry: str | None = None
    pages: list[RawPage] = []
    for doc in docs:
        carry = _cut_document(doc, carry)
        doc.first_page = len(pages)
        for start, end, label, synthetic in doc.pages:
            pages.append(
                RawPage(
                    number=len(pages) + 1,
                    label=label,
                    text=doc.text[start:end],
                    synthetic=synthetic,
                    source_doc=_relative(doc.path, opf_dir),
                    linear=doc.path not in package.nonlinear,
                )
            )
        for anchor, offset in doc.anchors.items():
            page, in_page = _locate(doc, offset)
            pages[page].anchors[anchor] = in_page
        for level, text, offset in doc.headings:
            page, in_page = _locate(doc, offset)
            pages[page].html_headings.append((level, text, in_page))
        for offset, target in doc.links:
            page, in_page = _locate(doc, offset)
            pages[page].links.append((in_page, _relative(target, opf_dir)))
    if not any(page.text.strip() for page in pages):
        raise UnreadableInputError(f"{name}: the EPUB holds no text (its spine documents are empty)")
    outline = _outline(package.toc, docs, name, notes, package.nonlinear)
    return RawBook(
        format="epub",
        title=package.title or PurePath(name).stem,
        pages=pages,
        outline=outline,
        warnings=notes,
    )
