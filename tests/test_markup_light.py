"""Textile, Jira wiki, ConTeXt and Djot sources, and XWiki titles (issue 22): each markup's own
heading marks are the book's structure at the markup's own depth, titles as the page shows them,
and a text that quotes one such line is not that markup."""

from __future__ import annotations

from chunking.ingest import load_book
from chunking.readers.markup import markup_headings

from test_markup_headings import body, para


def levels(text: str, suffix: str = "") -> tuple[str, list[tuple[int, str]]]:
    markup, headings = markup_headings(text, suffix)
    return markup, [(level, title) for _, level, title in headings]


def prose_quoting(line: str) -> str:
    """A plain-text manual that quotes one line of a markup in its middle."""
    return f"{body(6)}\n\nA heading is written so:\n\n{line}\n\n{body(6)}\n"


# --- Textile ---------------------------------------------------------------------------------


def textile_page(chapters: list[str]) -> str:
    parts = [f"h1(#top). The Manual\n\nbq. A generated page.\n\n{para(0)}\n"]
    for c, title in enumerate(chapters):
        parts.append(
            f"h2(#ch{c}). {title}\n\n{body(4)}\n\n<pre>\nh2. not a heading\n</pre>\n\n"
            f"bc. code {c}\nh3. nor this\n\np. {para(c + 1)}\n\nh3. Detail {c}\n\n{para(c + 2)}\n"
        )
    return "\n".join(parts)


def test_textile_heading_lines_are_headings_at_their_digits_level_outside_code():
    markup, got = levels(textile_page(["Install", "Usage"]))
    assert markup == "textile"
    assert got == [(1, "The Manual"), (2, "Install"), (3, "Detail 0"), (2, "Usage"), (3, "Detail 1")]


def test_textile_titles_show_their_text_without_markup_or_entities():
    text = textile_page(["Class: @zlib.Gzip@", 'For zlib&#45;based *streams* and "links":http://x.org'])
    assert [t for lv, t in levels(text)[1] if lv == 2] == [
        "Class: zlib.Gzip",
        "For zlib-based streams and links",
    ]


def test_a_plain_text_quoting_one_textile_heading_is_not_textile():
    assert markup_headings(prose_quoting("h2(#intro). Introduction")) == ("", [])


# --- Jira ------------------------------------------------------------------------------------


def jira_page(chapters: list[str]) -> str:
    parts = [f"h1. {{anchor:top}}The Manual\nbq. A generated page.\n{para(0)}\n"]
    for c, title in enumerate(chapters):
        parts.append(
            f"h2. {{anchor:ch{c}}}{title}\n{body(4)}\n\n{{code:js}}\nh2. not a heading\n{{code}}\n"
            f"h3. {{anchor:d{c}}}Detail {c}\n{para(c + 2)}\n"
        )
    return "\n".join(parts)


def test_jira_heading_lines_are_headings_at_their_digits_level_outside_code_blocks():
    markup, got = levels(jira_page(["Install", "Usage"]))
    assert markup == "jira"
    assert got == [(1, "The Manual"), (2, "Install"), (3, "Detail 0"), (2, "Usage"), (3, "Detail 1")]


def test_jira_titles_drop_anchors_and_show_monospace_links_and_escapes_as_text():
    text = jira_page(["Class: {{net.Server}}", r"{{net.createServer\(\[options])}} and [the docs|#docs]"])
    assert [t for lv, t in levels(text)[1] if lv == 2] == [
        "Class: net.Server",
        "net.createServer([options]) and the docs",
    ]


def test_a_plain_text_quoting_one_jira_heading_is_not_jira():
    assert markup_headings(prose_quoting("h2. {anchor:intro}Introduction")) == ("", [])


# --- ConTeXt ---------------------------------------------------------------------------------

CONTEXT_SETUP = "\\setupbodyfont[11pt]\n\\setuphead[chapter][style=\\tfd]\n\n\\starttext\n\n"


def test_context_section_levels_are_headings_at_their_nesting_depth():
    text = CONTEXT_SETUP + (
        "\\startsectionlevel[title={The Manual},reference={top}]\n"
        + para(0)
        + "\n\n"
        + "".join(
            f"\\startsectionlevel[title={{Chapter {c}}},reference={{c{c}}}]\n{body(4)}\n\n"
            f"\\starttyping\n\\startsectionlevel[title={{not a heading}}]\n\\stoptyping\n\n"
            f"\\startsectionlevel[title={{Detail {c}}}]\n{para(c)}\n\\stopsectionlevel\n\n\\stopsectionlevel\n\n"
            for c in (1, 2)
        )
        + "\\stopsectionlevel\n\n\\stoptext\n"
    )
    markup, got = levels(text, ".tex")
    assert markup == "context"
    assert got == [(1, "The Manual"), (2, "Chapter 1"), (3, "Detail 1"), (2, "Chapter 2"), (3, "Detail 2")]


def test_context_named_units_and_commands_are_headings_at_their_units_depth():
    text = (
        CONTEXT_SETUP
        + "".join(
            f"\\startchapter[title={{Chapter {c}}}]\n{body(4)}\n\n\\section{{Detail {c}}}\n{para(c)}\n\n"
            f"\\startsubject[title=Aside {c}, reference=a{c}]\n{para(c)}\n\\stopsubject\n\\stopchapter\n\n"
            for c in (1, 2)
        )
        + "\\stoptext\n"
    )
    assert levels(text)[1] == [
        (1, "Chapter 1"), (2, "Detail 1"), (2, "Aside 1"), (1, "Chapter 2"), (2, "Detail 2"), (2, "Aside 2"),
    ]  # fmt: skip


def test_context_titles_print_typed_code_and_escaped_signs():
    text = (
        CONTEXT_SETUP
        + "".join(
            f"\\startsectionlevel[title={{{t}}}]\n{body(4)}\n\\stopsectionlevel\n\n"
            for t in (
                "\\type{worker.getEnvironmentData(key)}",
                "Event: \\type{'exit'} of a\\letterunderscore{}b",
            )
        )
        + "\\stoptext\n"
    )
    assert [t for _, t in levels(text, ".tex")[1]] == [
        "worker.getEnvironmentData(key)",
        "Event: 'exit' of a_b",
    ]


def test_a_text_quoting_one_context_unit_is_not_context():
    assert markup_headings(prose_quoting("\\starttext\n\\startchapter[title={Introduction}]")) == ("", [])


# --- Djot ------------------------------------------------------------------------------------


def djot_page(chapters: list[str]) -> str:
    parts = [f"{{#top}}\n# The Manual\n\n> A generated page.\n\n{para(0)}\n"]
    for c, title in enumerate(chapters):
        parts.append(
            f"{{#ch{c}}}\n## {title}\n\n{body(4)}\n\n{{.js}}\n```\n# not a heading\n```\n\n"
            f"{{#d{c} .detail}}\n### Detail {c}\n\n{para(c + 2)}\n"
        )
    return "\n".join(parts)


def test_djot_headings_under_attribute_lines_are_read_from_their_attributes():
    text = djot_page(["Install", "`util.format(x)`", "Usage"])
    markup, headings = markup_headings(text)
    assert markup == "djot"
    assert [(lv, t) for _, lv, t in headings][:4] == [
        (1, "The Manual"),
        (2, "Install"),
        (3, "Detail 0"),
        (2, "util.format(x)"),
    ]
    assert text[headings[1][0] :].startswith("{#ch0}\n## Install")


def test_a_markdown_text_quoting_one_djot_heading_stays_markdown():
    text = (
        "".join(f"## Chapter {c}\n\n{body(4)}\n\n" for c in range(4)) + "Djot:\n\n{#id}\n## Quoted\n\nend.\n"
    )
    assert markup_headings(text)[0] == "markdown"


# --- XWiki titles ----------------------------------------------------------------------------


def test_xwiki_macros_in_a_wiki_heading_are_no_part_of_its_title():
    text = "".join(
        f'== {{{{code}}}}path.join{c}(){{{{/code}}}} {{{{id name="join{c}" /}}}}==\n\n{body(4)}\n\n'
        for c in range(3)
    )
    assert levels(text) == ("wiki", [(1, f"path.join{c}()") for c in range(3)])


def test_a_jira_pages_chapters_are_its_h2_lines():
    book = load_book(jira_page(["Install", "Usage", "Reference"]).encode(), name="page.txt")
    assert [(h.kind, h.title) for h in book.headings if h.kind != "section"] == [
        ("front", "The Manual"),
        ("chapter", "Install"),
        ("chapter", "Usage"),
        ("chapter", "Reference"),
    ]
