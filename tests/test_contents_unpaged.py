"""A printed contents that numbers its chapters and gives no page numbers (issue 22, failure
class 1): its titles, found in order as lines of their own set larger than the body, are the
chapters, whatever size the text sets each one at; its own lines are no headings."""

from __future__ import annotations

from chunking.ingest import load_book
from pdf_factory import Text, body, make_pdf

CHAPTER, SECTION = 18.0, 13.0
TITLES = ["Overview", "Installation", "Command Guide", "Built-in Values", "Output Styles", "File Formats"]


def _book(contents: list[str], printed: dict[str, str] | None = None, small: str = "Built-in Values") -> bytes:
    """A title page, a contents page listing ``contents`` as ``N. Title`` in body type with
    sub-entries between them, then one chapter per title: at the chapter size on a page of its
    own, except ``small``, set at the section size mid-page after the chapter before it.
    ``printed`` words a heading otherwise than its entry."""
    printed = printed or {}
    listing = [Text("Table of Contents", CHAPTER, "hebo")]
    for n, title in enumerate(contents, 1):
        listing += [Text(f"{n}. {title}", 12.0), Text("o A topic of the chapter", 10.0, "cour")]
    pages = [[Text("The Widget Manual", 24.0, "hebo"), *body(4)], listing]
    for k, title in enumerate(TITLES):
        heading = printed.get(title, title)
        if title == small:
            pages[-1] += [Text(heading, SECTION, "hebo"), *body(6, 100 * k)]
            continue
        pages.append([Text(heading, CHAPTER, "hebo"), *body(12, 100 * k), Text(f"Detail {k}", SECTION, "hebo")])
        pages.append(body(30, 100 * k + 40))
    return make_pdf(pages)


def _chapters(data: bytes) -> list[tuple[str, int]]:
    book = load_book(data, name="manual.pdf")
    return [(h.title, h.page) for h in book.headings if h.kind == "chapter"]


def _expected() -> list[tuple[str, int]]:
    out, page = [], 3
    for title in TITLES:
        if title == "Built-in Values":
            out.append((title, page - 1))  # mid-page on the previous chapter's last page
            continue
        out.append((title, page))
        page += 2
    return out


def test_a_chapter_an_unpaged_contents_lists_is_a_chapter_though_set_at_the_section_size():
    assert _chapters(_book(TITLES)) == _expected()


def test_an_unpaged_contents_entry_meets_a_heading_worded_with_a_word_less():
    """``Binary File Formats`` listed, ``File Formats`` printed: one chapter, titled as printed."""
    listed = [*TITLES[:-1], "Binary File Formats"]
    got = _chapters(_book(listed, printed={"File Formats": "File Formats"}))
    assert ("File Formats", 11) in got


def test_without_a_numbered_contents_a_heading_at_the_section_size_is_no_chapter():
    """The same book without its contents: the size alone decides, and the section-size heading
    is a section (what the contents adds is its word, nothing else)."""
    pages = [[Text("The Widget Manual", 24.0, "hebo"), *body(4)]]
    for k, title in enumerate(TITLES):
        if title == "Built-in Values":
            pages[-1] += [Text(title, SECTION, "hebo"), *body(6, 100 * k)]
            continue
        pages.append([Text(title, CHAPTER, "hebo"), *body(12, 100 * k), Text(f"Detail {k}", SECTION, "hebo")])
        pages.append(body(30, 100 * k + 40))
    bare = load_book(make_pdf(pages), name="bare.pdf")
    assert "Built-in Values" not in [h.title for h in bare.headings if h.kind == "chapter"]
