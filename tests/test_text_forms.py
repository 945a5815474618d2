"""Three text forms (issue 22): text written for a terminal (ANSI escape sequences), BBCode and
the help format of Vim's ``:help`` files. Each book is generated; each test names its rule."""

from __future__ import annotations

from chunking.ingest import load_book
from chunking.normalise import normalise
from chunking.readers.markup import markup_headings
from chunking.readers.raw import RawPage

from test_markup_headings import body, para

TITLES = ["Getting Started", "Binary Packages", "Source Packages"]

BOLD = "\x1b[1m\x1b[23m\x1b[39m\x1b[49m\x1b[24m\x1b[29m"
ITALIC = "\x1b[22m\x1b[3m\x1b[39m\x1b[49m\x1b[24m\x1b[29m"
CODE = "\x1b[22m\x1b[23m\x1b[31m\x1b[47m\x1b[24m\x1b[29m"
BOLD_CODE = "\x1b[1m\x1b[23m\x1b[31m\x1b[47m\x1b[24m\x1b[29m"
RESET = "\x1b[0m"


def _link(text: str, target: str) -> str:
    return f"\x1b]8;;{target}\x1b\\{text}\x1b]8;;\x1b\\"


def _chapters(text: str) -> tuple[str, list[tuple[str, str, int]]]:
    book = load_book(text.encode(), name="x.txt")
    return book.text, [(h.kind, h.title, h.char_offset) for h in book.headings if h.kind != "section"]


# --- text for a terminal ---------------------------------------------------------------------


def test_escape_sequences_are_no_text_csi_and_osc_hyperlinks_removed_whole_and_counted():
    raw = f"The {CODE} fetch() {RESET} call, see {_link('the guide', '#guide')}.\x1b[38;5;196mred{RESET}\n"
    norm = normalise([RawPage(number=1, label="", text=raw, synthetic=True)])
    assert norm.text == "The  fetch()  call, see the guide.red"
    assert "[" not in norm.text and "\x1b" not in norm.text
    assert norm.counts["control_chars"] == raw.count("\x1b") - 2  # an OSC's ST is one sequence with it
    target = raw.index("the guide") + len("the ")
    assert norm.text[norm.map_offset(0, target) :].startswith("guide.red")


def _ansi_book() -> tuple[str, list[tuple[str, str]]]:
    text = f"{BOLD}THE WIDGET GUIDE{RESET}\n\n{para(0)}\n\n"
    expected = [("front", "The Widget Guide")]
    for n, title in enumerate(TITLES):
        text += f"{BOLD}{title}{RESET}\n\n{body(2)}\n\n{ITALIC}Details {n}{RESET}\n\n{para(n + 3)}\n\n"
        expected.append(("chapter", title))
    text += f"{BOLD_CODE} widget.frob(name[, options]) {RESET}\n\n{body(2)}\n"
    expected.append(("chapter", "widget.frob(name[, options])"))
    return text, expected


def test_lines_set_wholly_in_sgr_bold_are_headings_as_overstruck_bold_lines_are():
    text, expected = _ansi_book()
    canonical, found = _chapters(text)
    assert [(k, t) for k, t, _ in found] == expected
    assert "[0m" not in canonical and "[1m" not in canonical
    assert canonical[found[1][2] :].startswith("Getting Started\n")


def test_a_bold_word_inside_a_line_or_a_bold_sentence_in_small_letters_is_no_heading():
    text, expected = _ansi_book()
    text += f"\n\nA paragraph with {BOLD}one bold word{RESET} in it.\n\n{BOLD}see the note below{RESET}\n\n{para(9)}\n"
    assert [(k, t) for k, t, _ in _chapters(text)[1]] == expected


WRAPPED = "widget.frob(name[, options][, callback])"


def _marked_ansi_book(colour: str) -> tuple[str, list[str]]:
    """A Markdown page as a renderer writes it for a terminal (lowdown's ``-Tterm``): the title
    bold without marks, each lower heading bold and coloured with its ``##`` marks kept, the body
    indented, its code spans bold and coloured; a long heading wrapped, its marks on each line."""
    text = f"\x1b[1;91m{RESET}\x1b[1;91mThe Widget{RESET}\n\n    {para(0)}\n\n"
    lines = []
    for n, title in enumerate(TITLES):
        lines.append(f"{colour}## {RESET}{colour}{title}{RESET}")
        text += f"{lines[-1]}\n\n    Call \x1b[1;94mwidget.frob()\x1b[0m first. {para(n + 1)}\n\n"
        for part in ("Details", "Notes"):
            text += f"{colour}### {RESET}{colour}{part} {n}{RESET}\n\n    {para(n + 4)}\n\n"
    lines.append(f"{colour}## {RESET}{colour}widget.frob(name[, options][,{RESET}")
    text += f"{lines[-1]}\n{colour}## {RESET}{colour}callback])\n\n    {para(8)}\n"
    return text, lines


def test_a_terminal_texts_heading_lines_that_read_as_atx_headings_once_the_escapes_are_removed_are_markdown():
    for colour in ("\x1b[1;36m", "\x1b[1m", "\x1b[4;35m"):
        text, lines = _marked_ansi_book(colour)
        markup, headings = markup_headings(text, ".txt")
        assert markup == "markdown"
        assert [(lv, t) for _, lv, t in headings] == [
            (lv, t)
            for n, c in enumerate(TITLES)
            for lv, t in ((2, c), (3, f"Details {n}"), (3, f"Notes {n}"))
        ] + [(2, WRAPPED)]
        assert [text[offset:].split("\n")[0] for offset, lv, _ in headings if lv == 2] == lines
        canonical, found = _chapters(text)
        assert [t for k, t, _ in found if k == "chapter"] == [*TITLES, WRAPPED]
        assert all("\x1b" not in t and not t.startswith("#") for _, t, _ in found)


# --- BBCode ----------------------------------------------------------------------------------


def bbcode_page(chapters: list[str]) -> str:
    parts = [f"[u][b]The Manual[/b][/u]\n\n[quote]\nA generated page.\n[/quote]\n\n{para(0)}\n"]
    for c, title in enumerate(chapters):
        parts.append(
            f"[b]{title}[/b]\n\nSee [url=#x{c}]the other[/url] entry. {para(c + 1)}\n\n"
            f"[code=js]\n\n[b]not a heading[/b]\n\n[/code]\n\n[u]Detail {c}[/u]\n\n{body(3)}\n"
        )
    return "\n".join(parts)


def test_bbcode_heading_lines_are_headings_levelled_by_how_strongly_their_tags_set_them():
    markup, headings = markup_headings(bbcode_page(["Install", "Usage"]))
    assert markup == "bbcode"
    assert [(level, title) for _, level, title in headings] == [
        (1, "The Manual"),
        (2, "Install"),
        (3, "Detail 0"),
        (2, "Usage"),
        (3, "Detail 1"),
    ]


def test_bbcode_titles_show_their_text_a_bracket_naming_no_tag_kept():
    text = bbcode_page(["Class: [url=#r]app.Client[/url]", "client.bind([host][, port])"])
    assert [t for _, lv, t in markup_headings(text)[1] if lv == 2] == [
        "Class: app.Client",
        "client.bind([host][, port])",
    ]


def test_bbcode_book_chapters_start_at_their_heading_lines():
    text = bbcode_page(TITLES)
    canonical, found = _chapters(text)
    assert [(k, t) for k, t, _ in found] == [("front", "The Manual")] + [("chapter", t) for t in TITLES]
    assert canonical[found[1][2] :].startswith(f"[b]{TITLES[0]}[/b]")


def test_a_plain_text_that_mentions_bbcode_tags_is_not_bbcode():
    text = (
        f"{body(4)}\n\nTo set a word in bold write [b]word[/b], a link [url=http://x.org]so[/url].\n\n"
        f"[b]Example[/b]\n\n{body(4)}\n"
    )
    assert markup_headings(text) == ("", [])


# --- the help format -------------------------------------------------------------------------

RULE = 72


def _tagged(title: str, tag: str) -> str:
    return title + " " * max(2, RULE - len(title) - len(tag) - 2) + f"*{tag}*"


def _help_book(numbered: bool) -> tuple[str, list[tuple[str, str]]]:
    """A help file: its tag line, a title tagged under a rule of ``=`` (pandoc) or tagged alone
    (Vim's own files, whose ``=`` rules stand over numbered chapters), chapters under full-width
    rules with right-aligned tags, sections in capitals with tags and no rule."""
    chapter_rule, text = ("=" if numbered else "-") * RULE, "*widget.txt*    For version 1.0\n\n"
    if numbered:
        text += f"{_tagged('The Widget Guide', 'widget')}\n\n{para(0)}\n\n"
    else:
        text += f"{'=' * RULE}\n{_tagged('The Widget Guide', 'widget')}\n\n{para(0)}\n\n"
    expected = [("front", "The Widget Guide")]
    for n, title in enumerate(TITLES, 1):
        shown = f"{n}. {title}" if numbered else f"Class: `{title}`"
        text += f"{chapter_rule}\n{_tagged(shown, f'chapter-{n}')}\n\n{body(2)}\n\n"
        text += f"{_tagged(f'EVENT: `details {n}`', f'event-{n}')}\n\n{body(2)}\n\n"
        expected.append(("chapter", title if numbered else f"Class: {title}"))
    return text + "\n vim:tw=72:ft=help:norl:\n", expected


def test_help_headings_under_full_width_rules_are_chapters_their_tags_no_part_of_the_title():
    for numbered in (False, True):
        text, expected = _help_book(numbered)
        canonical, found = _chapters(text)
        assert [(k, t) for k, t, _ in found] == expected, numbered
        assert canonical[found[1][2] :].startswith("1. Getting" if numbered else "Class: `Getting")


def test_a_full_width_rule_over_a_table_or_a_paragraph_marks_no_heading():
    rule = "=" * RULE
    text = f"The Widget Guide\n\n{para(0)}\n\n"
    for n, title in enumerate(TITLES, 1):
        text += f"{n}. {title}\n\n{body(2)}\n\n{rule}\nName      Value      Meaning\n{rule}\nsize      10         the size\n\n"
        text += f"{rule}\nWhich it says plainly, as *the* docs do.\n\n{para(n)}\n\n"
    found = _chapters(text)[1]
    assert [t for _, t, _ in found] == ["The Widget Guide", *TITLES]
