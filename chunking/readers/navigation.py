"""EPUB navigation documents: an EPUB 3 nav or EPUB 2 NCX → table of contents and page-list.

``nav_lists`` / ``ncx_lists`` flatten one parsed document (``xhtml.parse_xml``) into its table of
contents and print page-list, hrefs as written (resolving them is the archive's job).
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from .xhtml import OPS_TYPE, collapse, label_text, local_name


@dataclass
class NavEntry:
    """One entry of a navigation list, as written.

    Attributes:
        level (int): 1-based nesting depth.
        title (str): the label, whitespace-collapsed.
        href (str): the href as written, ``""`` for a heading without a link.
    """

    level: int
    title: str
    href: str


def _nav_types(element: etree._Element) -> list[str]:
    return (element.get(OPS_TYPE) or "").split() + [(element.get("role") or "").removeprefix("doc-")]


def _nav_list(ol: etree._Element, level: int, out: list[NavEntry]) -> None:
    for li in ol:
        if local_name(li) != "li":
            continue
        label = next((c for c in li if local_name(c) in ("a", "span")), None)
        if label is not None:
            out.append(NavEntry(level, label_text(label), label.get("href") or ""))
        sub = next((c for c in li if local_name(c) in ("ol", "ul")), None)
        if sub is not None:
            _nav_list(sub, level + 1 if label is not None else level, out)


def nav_lists(root: etree._Element) -> tuple[list[NavEntry], list[NavEntry]]:
    """The table of contents and the print page-list of an EPUB 3 nav document.

    Args:
        root (etree._Element): the parsed nav document.

    Returns:
        tuple[list[NavEntry], list[NavEntry]]: (toc, page-list), each flattened in document order.
    """
    found: dict[str, list[NavEntry]] = {"toc": [], "page-list": []}
    for nav in root.iter():
        if local_name(nav) != "nav":
            continue
        kind = next((t for t in _nav_types(nav) if t in found), None)
        ol = next((c for c in nav.iter() if local_name(c) in ("ol", "ul")), None)
        if kind and ol is not None and not found[kind]:
            _nav_list(ol, 1, found[kind])
    return found["toc"], found["page-list"]


def _ncx_label(element: etree._Element) -> tuple[str, str]:
    """(label text, content src) of a navPoint or pageTarget."""
    title = src = ""
    for child in element:
        name = local_name(child)
        if name == "navlabel":
            title = collapse("".join(child.itertext()))
        elif name == "content":
            src = child.get("src") or ""
    return title, src


def ncx_lists(root: etree._Element) -> tuple[list[NavEntry], list[NavEntry]]:
    """The navMap and pageList of an EPUB 2 NCX document.

    Args:
        root (etree._Element): the parsed NCX document.

    Returns:
        tuple[list[NavEntry], list[NavEntry]]: (toc, page-list), flattened in document order.
    """
    toc: list[NavEntry] = []
    pages: list[NavEntry] = []

    def points(parent: etree._Element, level: int) -> None:
        for point in parent:
            if local_name(point) == "navpoint":
                toc.append(NavEntry(level, *_ncx_label(point)))
                points(point, level + 1)

    for child in root:
        if local_name(child) == "navmap":
            points(child, 1)
        elif local_name(child) == "pagelist":
            pages += [NavEntry(1, *_ncx_label(t)) for t in child if local_name(t) == "pagetarget"]
    return toc, pages
