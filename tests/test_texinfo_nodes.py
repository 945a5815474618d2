"""A Texinfo manual's HTML written out without its headings (``chunking.readers.texinfo_nodes``):
its nodes, named by the navigation lines an extractor kept, on generated books."""

from __future__ import annotations

import pytest

from chunking.ingest import load_book

CHAPTERS = ["Getting Started", "Binary Packages", "Source Packages, Briefly", "Control Files"]
SECTIONS = {
    "Binary Packages": ["Naming Them", "Installing Them"],
    "Source Packages, Briefly": ["Only Child"],
    "Control Files": ["Fields", "Syntax"],
}


def _body(k: int) -> str:
    return "\n\n".join(
        f"Paragraph {j} says something about the subject at hand, at some length, so that it reads "
        "like the body of a real manual does."
        for j in range(k)
    )


def _navigation(following: str | None, before: str | None, up: str | None, markdown: bool) -> str:
    links = [
        f"{label}: {name}" for label, name in (("Next", following), ("Previous", before), ("Up", up)) if name
    ]
    return ", ".join(links) + (" \\[Contents\\]\\[Index\\]" if markdown else "   [Contents][Index]")


def _dump(markdown: bool, lost: str = "") -> str:
    """The manual as a main-content extractor writes it: every node under its navigation line,
    no heading anywhere, and a makefile sample whose ``#`` comment lines Markdown reads as
    headings; the navigation line of node ``lost`` dropped too."""
    top = "The Widget Manual"
    nodes: list[tuple[str, str | None, str | None, str]] = []  # name, next, previous, up
    names = [*CHAPTERS, "Index"]
    for k, name in enumerate(names):
        before = names[k - 1] if k else top
        nodes.append((name, names[k + 1] if k + 1 < len(names) else None, before, top))
        sections = SECTIONS.get(name, [])
        for j, section in enumerate(sections):
            following = sections[j + 1] if j + 1 < len(sections) else None
            nodes.append((section, following, sections[j - 1] if j else None, name))
    text = _navigation(CHAPTERS[0], None, None, markdown) + "\n\nThis manual is about widgets.\n\n"
    for name, following, before, up in nodes:
        if name != lost:
            text += _navigation(following, before, up, markdown) + "\n\n"
        text += _body(2) + "\n\n"
        if name == "Control Files":
            text += "For example:\n\n# Where to put the widgets.\nprefix = /usr/local\n# Where to put the files.\n\n"
    return text


@pytest.mark.parametrize("suffix", [".md", ".txt"])
def test_a_texinfo_dump_without_headings_has_its_nodes_named_by_their_navigation_lines(suffix):
    """Each node's line names its neighbours: the chapters are the nodes up to the top node, each
    opening at its navigation line, named by its siblings' links; the top node is the title page;
    comment lines read as Markdown headings are no chapters."""
    text = _dump(suffix == ".md")
    book = load_book(text.encode(), name=f"widgets{suffix}")
    top = [(h.kind, h.title) for h in book.headings if h.kind != "section"]
    assert top == [("front", "The Widget Manual"), *(("chapter", t) for t in CHAPTERS), ("back", "Index")]
    for h in book.headings:
        assert book.text[h.char_offset :].startswith(("Next: ", "Previous: "))
    # NOTE: a lone child has no sibling to name it: no line says what it is called
    named = [s for v in SECTIONS.values() if len(v) > 1 for s in v]
    assert [h.title for h in book.headings if h.kind == "section"] == named


def test_a_node_between_two_whose_line_is_lost_lends_its_name_to_neither():
    """A navigation line lost between two siblings: the one before names it as its next, the one
    after as its previous; neither of them is called by it."""
    book = load_book(_dump(True, lost="Binary Packages").encode(), name="widgets.md")
    titles = [h.title for h in book.headings if h.kind == "chapter"]
    assert "Binary Packages" not in titles
    assert {"Getting Started", "Source Packages, Briefly", "Control Files"} <= set(titles)
