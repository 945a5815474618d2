"""A chapter whose heading a joined site's text lost (issue 22): its sections' numbers and the
notice that opens every page place it; the book's cross-references title it."""

from __future__ import annotations

from chunking.ingest import load_book

NOTICE = "This manual is kept for reference only; its successor is the handbook at the same site."


def para(i: int) -> str:
    return f"Paragraph {i} " + " ".join(f"w{i}x{j}" for j in range(60)) + "."


def page(heading: str | None, number: int, sections: list[int], refs: str = "") -> str:
    """One page of the site as an extractor writes it: its heading (or none, lost), the notice,
    its text and its numbered sections."""
    top = f"{heading}\n{'=' * len(heading)}\n\n" if heading else ""
    body = "\n\n".join(
        f"{number}.{s}. Topic {number} {s}\n{'-' * 16}\n\n{para(s)}\n\n{para(s + 1)}" for s in sections
    )
    return f"{top}{NOTICE}\n\n{para(number)} {refs}\n\n{para(number + 9)}\n\n{body}"


def book(notice: bool = True) -> str:
    refs = (
        '[Chapter 1, *Getting going*](start.html "Chapter 1. Getting going"), '
        '[Chapter 2, *Building it*](build.html "Chapter 2. Building it") and '
        '[Chapter 4, *Shipping*](ship.html "Chapter 4. Shipping")'
    )
    pages = [
        page("Chapter 1. Getting going", 1, [1, 2], refs),
        page(None, 2, [1, 3]),  # its heading and section 2.2's lost
        page("Chapter 3. Testing it", 3, [1, 2]),
        page("Chapter 4. Shipping", 4, [1, 2]),
    ]
    text = "\n\n".join(pages) + "\n"
    return text if notice else text.replace(NOTICE + "\n\n", "")


def test_a_lost_chapter_opens_where_its_sections_numbering_and_every_pages_notice_agree():
    text = book()
    got = load_book(text.encode(), name="site.md")
    units = [(h.kind, h.number, h.title) for h in got.headings if h.kind != "section"]
    assert units == [
        ("chapter", "1", "Getting going"),
        ("chapter", "2", "Building it"),  # titled by the cross-references
        ("chapter", "3", "Testing it"),
        ("chapter", "4", "Shipping"),
    ]
    lost = next(h for h in got.headings if h.number == "2")
    assert got.text[lost.char_offset :].startswith(NOTICE)  # the page's start, not its first section
    assert lost.char_offset < got.text.index("2.1. Topic 2 1")


def test_numbering_alone_puts_in_no_chapter():
    got = load_book(book(notice=False).encode(), name="site.md")
    assert [h.number for h in got.headings if h.kind == "chapter"] == ["1", "3", "4"]
