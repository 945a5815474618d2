"""TEI documents (issue 22): the header's title and the divisions of ``<front>``, ``<body>`` and
``<back>``, each titled by its ``<head>`` as printed, are the document's headings at levels of
their nesting; a text is read as TEI by its root alone. All sources are generated here."""

from __future__ import annotations

from chunking.ingest import load_book
from chunking.readers.markup import markup_headings
from chunking.readers.markup_tei import tei_headings
from test_markup_headings import para

NS = 'xmlns="http://www.tei-c.org/ns/1.0"'


def levels(text: str, suffix: str = ".xml") -> list[tuple[int, str]]:
    markup, headings = markup_headings(text, suffix)
    assert markup == "tei"
    return [(level, title) for _, level, title in headings]


def paras(n: int = 3, indent: str = "") -> str:
    return "\n".join(f"{indent}<p>{para(i, 30)}</p>" for i in range(n))


def header(title: str = "The Widget Book", extra: str = "") -> str:
    return (
        "<teiHeader>\n  <fileDesc>\n    <titleStmt>\n"
        f"      <title>{title}</title>\n{extra}      <author>A. Writer</author>\n    </titleStmt>\n"
        "    <publicationStmt>\n      <p>Generated.</p>\n    </publicationStmt>\n"
        "    <sourceDesc>\n      <p>Born digital.</p>\n    </sourceDesc>\n  </fileDesc>\n</teiHeader>\n"
    )


def tei(text: str, title: str = "The Widget Book", extra: str = "", root: str = "TEI") -> str:
    return f'<?xml version="1.0" encoding="utf-8"?>\n<{root} {NS}>\n{header(title, extra)}{text}</{root}>\n'


def pandoc_div(level: int, title: str, inner: str = "") -> str:
    """A division as pandoc's ``tei`` writer sets one: ``type="levelN"``, the head on the next
    line, two spaces of indent a level."""
    pad = "  " * (level - 1)
    return (
        f'{pad}<div type="level{level}" xml:id="{title.lower().replace(" ", "-")}">\n'
        f"{pad}  <head>{title}</head>\n{paras(2, pad + '  ')}\n{inner}{pad}</div>\n"
    )


def test_pandoc_level_divisions_nest_under_the_header_title():
    body = (
        paras(2)
        + "\n"
        + pandoc_div(1, "Getting Started", pandoc_div(2, "Installing") + pandoc_div(2, "Configuring"))
        + pandoc_div(1, "Daily Use", pandoc_div(2, "Running", pandoc_div(3, "Options")))
    )
    text = tei(f"<text>\n<body>\n{body}</body>\n</text>\n")
    assert levels(text) == [
        (0, "The Widget Book"),
        (1, "Getting Started"),
        (2, "Installing"),
        (2, "Configuring"),
        (1, "Daily Use"),
        (2, "Running"),
        (3, "Options"),
    ]
    headings = tei_headings(text)
    assert headings is not None
    lines = text.split("\n")
    starts = {text.count("\n", 0, offset) for offset, _, _ in headings}
    assert all(lines[i].lstrip().startswith(("<TEI", "<div")) for i in starts)


def test_numbered_divisions_are_levelled_by_nesting():
    def div(n: int, title: str, inner: str = "") -> str:
        return f"<div{n}>\n<head>{title}</head>\n{paras(1)}\n{inner}</div{n}>\n"

    body = div(1, "Chapter One", div(2, "First Steps") + div(2, "Second Steps", div(3, "Details"))) + div(
        1, "Chapter Two"
    )
    assert levels(tei(f"<text><body>\n{body}</body></text>\n")) == [
        (0, "The Widget Book"),
        (1, "Chapter One"),
        (2, "First Steps"),
        (2, "Second Steps"),
        (3, "Details"),
        (1, "Chapter Two"),
    ]


def test_front_and_back_divisions_are_units_and_read_as_matter():
    front = f'<front>\n<div type="preface">\n<head>Preface</head>\n{paras(2)}\n</div>\n<divGen type="toc"/>\n</front>\n'
    chapters = "".join(
        f'<div type="chapter">\n<head>{n}. {t}</head>\n{paras(4)}\n</div>\n'
        for n, t in enumerate(("Basics", "Usage", "Advanced"), 1)
    )
    back = (
        f'<back>\n<div type="appendix">\n<head>Tables</head>\n{paras(2)}\n</div>\n'
        f'<div type="index">\n{paras(1)}\n</div>\n</back>\n'
    )
    text = tei(f"<text>\n{front}<body>\n{chapters}</body>\n{back}</text>\n")
    assert levels(text) == [
        (0, "The Widget Book"),
        (1, "Preface"),
        (1, "Contents"),
        (1, "1. Basics"),
        (1, "2. Usage"),
        (1, "3. Advanced"),
        (1, "Appendix A. Tables"),
        (1, "Index"),
    ]
    book = load_book(text.encode(), name="widgets.xml")
    assert [(h.kind, h.title) for h in book.headings if h.kind != "section"] == [
        ("front", "The Widget Book"),
        ("front", "Preface"),
        ("front", "Contents"),
        ("chapter", "Basics"),
        ("chapter", "Usage"),
        ("chapter", "Advanced"),
        ("appendix", "Tables"),
        ("back", "Index"),
    ]


def test_parts_stand_at_level_one_and_the_rest_moves_down():
    def part(title: str, chapters: list[str]) -> str:
        inner = "".join(f"<div type='chapter'><head>{c}</head>\n{paras(1)}\n</div>\n" for c in chapters)
        return f'<div type="part">\n<head>{title}</head>\n{inner}</div>\n'

    front = f"<front><div><head>Preface</head>\n{paras(1)}\n</div></front>\n"
    text = tei(
        f"<text>{front}<body>\n{part('Basics', ['Overview', 'Setup'])}{part('Part Two: Use', ['Running'])}</body></text>\n"
    )
    assert levels(text) == [
        (0, "The Widget Book"),
        (2, "Preface"),
        (1, "Part I. Basics"),
        (2, "Overview"),
        (2, "Setup"),
        (1, "Part Two: Use"),
        (2, "Running"),
    ]


def test_an_untitled_division_adds_no_level():
    inner = "".join(f"<div>\n<head>{t}</head>\n{paras(1)}\n</div>\n" for t in ("Alpha", "Beta"))
    body = f"<div>\n{paras(1)}\n<div>\n{inner}</div>\n</div>\n<div><head>Gamma</head>\n{paras(1)}\n</div>\n"
    assert levels(tei(f"<text><body>\n{body}</body></text>\n")) == [
        (0, "The Widget Book"),
        (1, "Alpha"),
        (1, "Beta"),
        (1, "Gamma"),
    ]


def test_a_head_is_printed_text_without_its_note():
    head = (
        '<head>The <hi rend="italic">Widget</hi> and <ref target="#x">its Kin</ref>'
        '<note place="foot"><p>First published 1901.</p></note><lb/>Revisited &amp; Retold</head>'
    )
    text = tei(
        f"<text><body>\n<div>\n{head}\n{paras(1)}\n</div>\n<div><head>Next</head><p>x</p></div>\n</body></text>\n"
    )
    assert levels(text)[1:] == [(1, "The Widget and its Kin Revisited & Retold"), (1, "Next")]


def test_the_main_title_of_the_header_titles_the_document():
    extra = '      <title type="main">Widgets</title>\n'
    text = tei(
        "<text><body><div><head>One</head><p>x</p></div></body></text>\n", title="A Subtitle", extra=extra
    )
    assert levels(text)[0] == (0, "Widgets")


def test_each_document_of_a_corpus_is_a_unit():
    def doc(title: str, chapters: list[str]) -> str:
        divs = "".join(f"<div><head>{c}</head>\n{paras(1)}\n</div>\n" for c in chapters)
        return f"<TEI>\n{header(title)}<text><body>\n{divs}</body></text>\n</TEI>\n"

    text = tei(
        doc("First Letters", ["Spring", "Summer"]) + doc("Later Letters", ["Winter"]),
        title="Collected Letters",
        root="teiCorpus",
    )
    assert levels(text) == [
        (0, "Collected Letters"),
        (1, "First Letters"),
        (2, "Spring"),
        (2, "Summer"),
        (1, "Later Letters"),
        (2, "Winter"),
    ]


def test_each_text_of_a_group_is_titled_by_its_front():
    def grouped(title: str, sections: list[str]) -> str:
        divs = "".join(f"<div><head>{s}</head>\n{paras(1)}\n</div>\n" for s in sections)
        front = f"<front><titlePage><docTitle><titlePart>{title}</titlePart></docTitle></titlePage></front>"
        return f"<text>\n{front}\n<body>\n{divs}</body>\n</text>\n"

    group = (
        f"<group>\n{grouped('The Mill', ['Morning', 'Evening'])}{grouped('The River', ['Source'])}</group>\n"
    )
    assert levels(tei(f"<text>\n{group}</text>\n", title="Two Tales")) == [
        (0, "Two Tales"),
        (1, "The Mill"),
        (2, "Morning"),
        (2, "Evening"),
        (1, "The River"),
        (2, "Source"),
    ]


def test_a_titled_group_is_a_unit_above_its_texts():
    def grouped(title: str) -> str:
        return f"<text>\n<body>\n<head>{title}</head>\n{paras(1)}\n</body>\n</text>\n"

    groups = "".join(
        f"<group>\n<head>{g}</head>\n{grouped(a)}{grouped(b)}</group>\n"
        for g, a, b in (("Early Poems", "Dawn", "Noon"), ("Late Poems", "Dusk", "Night"))
    )
    assert levels(tei(f"<text>\n<group>\n{groups}</group>\n</text>\n", title="Poems")) == [
        (0, "Poems"),
        (1, "Early Poems"),
        (2, "Dawn"),
        (2, "Noon"),
        (1, "Late Poems"),
        (2, "Dusk"),
        (2, "Night"),
    ]


def test_divisions_of_a_floating_text_are_not_units():
    letter = "<floatingText><body><div><head>Dear Sir</head><p>x</p></div></body></floatingText>"
    body = f"<div><head>Chapter One</head>\n<p>{letter}</p>\n</div>\n<div><head>Chapter Two</head><p>y</p></div>\n"
    assert levels(tei(f"<text><body>\n{body}</body></text>\n"))[1:] == [
        (1, "Chapter One"),
        (1, "Chapter Two"),
    ]


def test_a_tei_root_is_recognised_without_a_file_name():
    text = tei(
        "<text><body><div><head>One</head><p>x</p></div><div><head>Two</head><p>y</p></div></body></text>\n"
    )
    assert levels(text, suffix="")[1:] == [(1, "One"), (1, "Two")]


def test_malformed_tei_never_raises():
    text = tei('<text><body><div type="part"><head>Broken <hi>never closed\n<div><head>In</head><p>x')
    for cut in range(0, len(text), 7):
        tei_headings(text[:cut])
    assert levels(text) == [(0, "The Widget Book"), (1, "Part I. Broken never closed"), (2, "In")]
    assert tei_headings("<html><body><div><head>x</head></div></body></html>") is None
