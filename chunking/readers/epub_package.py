"""EPUB package parsing: ``container.xml`` → OPF → manifest/spine → nav or NCX.

The one EPUB parser (no ebooklib): the package is parsed with ``parse_xml`` (no entities,
bounded) from an ``EpubArchive`` (bounded reads, the book's root folder found), and every href
is resolved inside the archive or refused. What a stricter parser would refuse but leaves the
text readable (a manifest item whose file is missing) is read with a warning; so is a reference
that names its document but for the document's extensions (``_by_name``): a converter that
writes every spine ``idref`` and contents ``src`` as ``ch1.xhtml.xhtml`` for the file and id
``ch1.xhtml`` names each document without doubt, and reading the book beats refusing it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import UnreadableInputError
from .archive import CONTAINER, EpubArchive, resolve_href
from .navigation import nav_lists, ncx_lists
from .xhtml import MalformedXmlError, collapse, local_name, parse_xml

OPF_MEDIA_TYPE = "application/oebps-package+xml"
XHTML_MEDIA_TYPES = frozenset({"application/xhtml+xml", "text/html"})
NCX_MEDIA_TYPE = "application/x-dtbncx+xml"


@dataclass
class TocEntry:
    """A table-of-contents entry with its target resolved to (zip path, fragment), or None."""

    level: int
    title: str
    target: tuple[str, str] | None


@dataclass
class Package:
    """The package document: what the reader needs of the OPF and the navigation documents.

    Attributes:
        opf_path (str): zip path of the OPF.
        title (str): first ``dc:title``, ``""`` when none.
        spine (list[str]): zip paths of the XHTML spine documents, in reading order, no repeats.
        toc (list[TocEntry]): the nav (else NCX) table of contents, flattened in order.
        page_list (list[tuple[str, str, str]]): print pages as (label, zip path, fragment).
        warnings (list[str]): what was skipped while parsing.
        nonlinear (set[str]): zip paths of spine documents marked ``linear="no"``.
    """

    opf_path: str
    title: str
    spine: list[str]
    toc: list[TocEntry]
    page_list: list[tuple[str, str, str]]
    warnings: list[str] = field(default_factory=list)
    nonlinear: set[str] = field(default_factory=set)


def read_package(archive: EpubArchive, name: str) -> Package:
    """Parse ``container.xml``, the OPF, and the nav or NCX, checking every href.

    Args:
        archive (EpubArchive): the opened archive.
        name (str): the file name, for messages.

    Returns:
        Package: the package's title, spine, table of contents and page list.

    Raises:
        UnreadableInputError: no container, no OPF, no spine, unsafe XML or hrefs.
    """
    notes: list[str] = []
    if archive.root:
        notes.append(
            f"{name}: the book's files sit in the folder {archive.root!r} of the zip, not at its top;"
            " read from that folder"
        )
    container = archive.read(CONTAINER)
    if container is None:
        raise UnreadableInputError(f"{name}: no {CONTAINER}, so not an EPUB")
    rootfiles = [
        el
        for el in parse_xml(container, f"{name}: {CONTAINER}", notes).iter()
        if local_name(el) == "rootfile"
    ]
    rootfiles.sort(key=lambda el: el.get("media-type") != OPF_MEDIA_TYPE)
    full_path = rootfiles[0].get("full-path") if rootfiles else None
    if not full_path:
        raise UnreadableInputError(f"{name}: {CONTAINER} names no package (OPF) file")
    opf_path, _ = resolve_href("", full_path, f"{name}: {CONTAINER}") or ("", "")
    opf = archive.read(opf_path)
    if opf is None:
        raise UnreadableInputError(f"{name}: {CONTAINER} names {opf_path!r}, which is not in the archive")
    root = parse_xml(opf, f"{name}: {opf_path}", notes)
    sections = {local_name(el): el for el in root}
    title = next((collapse("".join(el.itertext())) for el in root.iter() if local_name(el) == "title"), "")

    manifest: dict[str, tuple[str, str, list[str]]] = {}
    for item in sections.get("manifest", []):
        if local_name(item) != "item" or not item.get("href"):
            continue
        target = resolve_href(opf_path, item.get("href"), f"{name}: manifest item {item.get('id')!r}")
        if target is not None:
            manifest[item.get("id", "")] = (
                target[0],
                item.get("media-type", ""),
                (item.get("properties") or "").split(),
            )
    if "spine" not in sections:
        raise UnreadableInputError(f"{name}: the package {opf_path!r} has no spine (no reading order)")
    spine_el = sections["spine"]

    spine, nonlinear = _read_spine(spine_el, manifest, archive, name, opf_path, notes)

    nav_path = next((p for p, _, props in manifest.values() if "nav" in props), None)
    ncx_path = manifest.get(spine_el.get("toc", ""), ("", "", []))[0] or next(
        (p for p, media_type, _ in manifest.values() if media_type == NCX_MEDIA_TYPE), None
    )
    toc, page_list = _read_navigation(archive, name, nav_path, ncx_path, notes)
    toc = _targets_by_name(archive, toc, spine, name, notes)
    # NOTE: missing spine and navigation documents have warnings of their own.
    named = set(spine) | {nav_path, ncx_path}
    missing = sorted({p for p, _, _ in manifest.values() if p not in named and not archive.has(p)})
    if missing:
        shown = ", ".join(repr(p) for p in missing[:3])
        notes.append(
            f"{name}: {len(missing)} manifest item(s) name files missing from the archive"
            f" ({shown}{', …' if len(missing) > 3 else ''}); ignored"
        )
    if nonlinear:
        notes.append(
            f'{name}: {len(nonlinear)} spine document(s) marked linear="no" (covers, copies):'
            " kept in the text, never made chapters unless the nav lists them"
        )
    return Package(opf_path, title, spine, toc, page_list, notes, nonlinear)


def _read_spine(
    spine_el: Any,
    manifest: dict[str, tuple[str, str, list[str]]],
    archive: EpubArchive,
    name: str,
    opf_path: str,
    notes: list[str],
) -> tuple[list[str], set[str]]:
    """The spine's XHTML documents in reading order, no repeats, and those marked
    ``linear="no"``. An ``idref`` naming no manifest item is read as the item it names but for
    its extensions (``_by_name``); one that names none at all, where exactly one XHTML document
    of the manifest is in no spine item, is that document (one reference lost, one document
    unread: the book's text stays whole). Each repair is said in a warning.

    Raises:
        UnreadableInputError: no XHTML document in the spine.
    """
    spine: list[str] = []
    nonlinear: set[str] = set()
    repeated: list[str] = []
    renamed: list[str] = []
    lost: list[tuple[int, str]] = []  # (place in the spine, idref) of references naming nothing
    names = {**{i: i for i in manifest}, **{v[0]: i for i, v in manifest.items()}}
    for ref in spine_el:
        if local_name(ref) != "itemref":
            continue
        idref = ref.get("idref", "")
        path, media_type, _ = manifest.get(idref, ("", "", []))
        if not path and (near := _by_name(idref, names)):
            path, media_type, _ = manifest[near]
            renamed.append(idref)
        if not path:
            lost.append((len(spine), idref))
        elif media_type not in XHTML_MEDIA_TYPES:
            notes.append(f"{name}: spine item {path!r} is {media_type or 'untyped'}, not XHTML; skipped")
        elif path in spine:
            repeated.append(path)
        else:
            spine.append(path)
            if (ref.get("linear") or "").strip().lower() == "no":
                nonlinear.add(path)
    unread = [
        path
        for path, media_type, props in manifest.values()
        if media_type in XHTML_MEDIA_TYPES and "nav" not in props and path not in spine and archive.has(path)
    ]
    if len(lost) == 1 and len(unread) == 1:
        spine.insert(lost[0][0], unread[0])
        notes.append(
            f"{name}: spine item {lost[0][1]!r} is not in the manifest; read as {unread[0]!r},"
            " the one XHTML document no spine item names"
        )
    else:
        notes += [f"{name}: spine item {idref!r} is not in the manifest; skipped" for _, idref in lost]
    if not spine:
        raise UnreadableInputError(f"{name}: the spine of {opf_path!r} lists no XHTML documents")
    if renamed:
        notes.append(
            f"{name}: {len(renamed)} spine item(s) name no manifest item ({renamed[0]!r}"
            f"{', …' if len(renamed) > 1 else ''}); each read as the item it names but for its extensions"
        )
    if repeated:
        shown = ", ".join(repr(p) for p in list(dict.fromkeys(repeated))[:3])
        notes.append(
            f"{name}: {len(repeated)} spine item(s) repeat a document already in the spine "
            f"({shown}{', …' if len(set(repeated)) > 3 else ''}); each document is read once"
        )
    return spine, nonlinear


_DOC_EXTENSIONS = re.compile(r"(?:\.(?:xhtml|html|htm|xml))+$", re.I)


def _name_key(ref: str) -> str:
    """A reference's file name without its document extensions, one or repeated, case aside
    (``Text/ch1.xhtml.xhtml`` → ``ch1``)."""
    return _DOC_EXTENSIONS.sub("", ref.rsplit("/", 1)[-1]).casefold()


def _by_name(ref: str, names: dict[str, str]) -> str | None:
    """The value of the one key of ``names`` that ``ref`` names but for its document extensions
    (``_name_key``); None when none does, or more than one (no guess between documents)."""
    key = _name_key(ref)
    found = {value for name, value in names.items() if key and _name_key(name) == key}
    return found.pop() if len(found) == 1 else None


def _targets_by_name(
    archive: EpubArchive, toc: list[TocEntry], spine: list[str], name: str, notes: list[str]
) -> list[TocEntry]:
    """``toc`` with each target that names a file missing from the archive read as the spine
    document it names but for its extensions (``_by_name``), and a warning counting them."""
    out: list[TocEntry] = []
    moved = 0
    for entry in toc:
        if entry.target and not archive.has(entry.target[0]):
            if near := _by_name(entry.target[0], {path: path for path in spine}):
                entry = replace(entry, target=(near, entry.target[1]))
                moved += 1
        out.append(entry)
    if moved:
        notes.append(
            f"{name}: {moved} contents entr{'y names' if moved == 1 else 'ies name'} a file missing from"
            " the archive; each read as the spine document it names but for its extensions"
        )
    return out


STUB_TOC_ENTRIES = 1
"""A nav contents of at most this many entries is a stub when the NCX lists more."""


def _read_navigation(
    archive: EpubArchive, name: str, nav_path: str | None, ncx_path: str | None, notes: list[str]
) -> tuple[list[TocEntry], list[tuple[str, str, str]]]:
    """Table of contents and page-list: the nav document first, the NCX for what it lacks. A nav
    whose contents is a stub, one entry at most (a converter's hidden ``Document`` link to the
    first file), lacks the contents: the NCX's is taken when it lists more."""
    toc: list[TocEntry] = []
    page_list: list[tuple[str, str, str]] = []
    for path, lists in ((nav_path, nav_lists), (ncx_path, ncx_lists)):
        if not path or (len(toc) > STUB_TOC_ENTRIES and page_list):
            continue
        data = archive.read(path)
        if data is None:
            notes.append(f"{name}: navigation document {path!r} is missing from the archive")
            continue
        try:
            entries, pages = lists(parse_xml(data, f"{name}: {path}", notes))
        except MalformedXmlError as exc:
            notes.append(f"{exc}; its table of contents is ignored")
            continue
        where = f"{name}: {path}"
        if len(toc) <= STUB_TOC_ENTRIES and len(entries) > len(toc):
            toc = [
                TocEntry(e.level, e.title, resolve_href(path, e.href, where) if e.href else None)
                for e in entries
            ]
        if not page_list:
            page_list = [
                (e.title, *target)
                for e in pages
                if e.href and (target := resolve_href(path, e.href, where)) is not None
            ]
    return toc, page_list


def _fill_section_targets(toc: list[TocEntry]) -> list[TocEntry]:
    """Give a heading without a target (a nav ``<span>`` part title) its first descendant's target.

    Args:
        toc (list[TocEntry]): flattened entries in order.

    Returns:
        list[TocEntry]: the same entries; untargeted ones borrow the first target found below them.
    """
    filled = []
    for i, entry in enumerate(toc):
        if entry.target is None:
            for child in toc[i + 1 :]:
                if child.level <= entry.level:
                    break
                if child.target is not None:
                    entry = TocEntry(entry.level, entry.title, child.target)
                    break
        filled.append(entry)
    return filled
