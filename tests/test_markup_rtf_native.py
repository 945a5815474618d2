"""RTF documents and pandoc's native syntax tree (``chunking.readers.markup_rtf``,
``markup_native``, issue 22): paragraphs at an outline level or in a heading style, and
``Header`` blocks, are the headings, titled by the text a reader sees. Sources generated here."""

from __future__ import annotations

import json

from chunking.cli import main
from chunking.readers.markup import markup_headings

BODY = "Text of the part, long enough to read as a paragraph of the document and not as a title."


def _pandoc_rtf(paragraphs: list[tuple[int | None, str]]) -> str:
    """An RTF as pandoc writes one: a group a paragraph, ``\\outlinelevelN`` on its headings."""
    out = "{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0 \\fswiss Helvetica;}{\\f1 \\fmodern Courier;}}\n"
    out += "{\\colortbl;\\red255\\green0\\blue0;}\n\\widowctrl\\hyphauto\n\n"
    for level, text in paragraphs:
        mark = f"\\outlinelevel{level} \\b \\fs{36 - 4 * level} " if level is not None else ""
        out += f"{{\\pard \\ql \\f0 \\sa180 \\li0 \\fi0 {mark}{text}\\par}}\n"
    return out + "}\n"


def test_rtf_paragraphs_at_an_outline_level_are_headings_one_level_down():
    text = _pandoc_rtf(
        [
            (0, "The Widget"),
            (None, BODY),
            (1, "{\\f1 widget.open(path)}"),
            (None, BODY),
            (2, 'Options of {\\field{\\*\\fldinst{HYPERLINK "x.html"}}{\\fldrslt{\\ul\nthe widget\n}}}'),
            (None, BODY),
            (1, "Closing"),
            (None, BODY),
        ]
    )
    markup, headings = markup_headings(text, ".txt")
    assert markup == "rtf"
    assert [(lv, t) for _, lv, t in headings] == [
        (1, "The Widget"),
        (2, "widget.open(path)"),
        (3, "Options of the widget"),
        (2, "Closing"),
    ]
    assert all(text[offset:].startswith("{\\pard") for offset, _, _ in headings)
    quoted = "Notes on formats.\n\nAn RTF file opens with {\\rtf1\\ansi and its font table.\n"
    assert markup_headings(quoted, ".txt")[0] != "rtf"  # NOTE: known by its opening alone


STYLESHEET = (
    "{\\stylesheet{\\s0\\snext0\\f4\\fs24 Normal;}\n"
    "{\\s1\\sbasedon0\\snext2\\keepn\\b\\fs32 heading 1;}\n"
    "{\\s2\\sbasedon0\\snext2\\keepn\\b\\fs28 Heading 2,h2;}\n"
    "{\\s3\\sbasedon0\\snext2\\outlinelevel2\\keepn\\b\\fs24 Titre 3;}\n"
    "{\\s4\\sbasedon0\\snext4 toc 1;}\n"
    "{\\*\\cs5\\b Heading 1 Char;}}\n"
)


def _styled_rtf(paragraphs: list[tuple[int, str]]) -> str:
    """An RTF as a word processor writes one: ``\\pard\\plain \\sN`` paragraphs ended by ``\\par``,
    headings told by their style alone."""
    out = "{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f4\\froman Times New Roman;}}\n" + STYLESHEET
    out += "{\\info{\\title Not a heading}}{\\*\\generator A word processor}\\sectd\n"
    out += "{\\header \\pard\\plain \\s0 Running head\\par}\n"
    for style, text in paragraphs:
        out += f"\\pard\\plain \\s{style}\\ql\\sb240 {{\\loch {text}}}\n\\par "
    return out + "}\n"


def test_rtf_paragraphs_in_a_heading_style_of_the_stylesheet_are_headings():
    text = _styled_rtf(
        [
            (4, "Contents line"),
            (1, "Overview"),
            (0, BODY),
            (2, "Setup"),
            (0, BODY),
            (3, "Fine points"),
            (0, BODY),
            (1, "Reference"),
            (0, BODY),
        ]
    )
    markup, headings = markup_headings(text, ".txt")
    assert markup == "rtf"
    assert [(lv, t) for _, lv, t in headings] == [
        (1, "Overview"),
        (2, "Setup"),
        (3, "Fine points"),
        (1, "Reference"),
    ]
    assert text[headings[1][0] :].startswith("\\pard\\plain \\s2")


def test_rtf_styles_whose_last_word_is_a_heading_word_and_a_level_are_heading_styles_a_header_none():
    names = {1: "pod-head1", 2: "Heading2", 3: "h3", 4: "Header", 5: "header 1", 6: "Heading", 7: "pod-head2"}
    sheet = "{\\stylesheet{\\snext0 Normal;}\n" + "".join(
        f"{{\\s{n}\\keepn\\b\\sbasedon0 \\snext0 {name};}}\n" for n, name in names.items()
    )
    text = _styled_rtf(
        [
            (4, "Running header text"),
            (1, "Overview"),
            (0, BODY),
            (5, "First page header"),
            (7, "Setup"),
            (0, BODY),
            (6, "A plain heading"),
            (2, "Options"),
            (3, "Fine points"),
            (0, BODY),
            (1, "Reference"),
            (0, BODY),
        ]
    ).replace(STYLESHEET, sheet + "}\n")
    markup, headings = markup_headings(text, ".txt")
    assert markup == "rtf"
    assert [(lv, t) for _, lv, t in headings] == [
        (1, "Overview"),
        (2, "Setup"),
        (2, "Options"),
        (3, "Fine points"),
        (1, "Reference"),
    ]


def test_rtf_titles_decode_escapes_and_skip_destinations_lists_notes_and_hidden_text():
    title = (
        "{\\listtext\\pard\\plain 1.\\tab}{\\*\\bkmkstart cafe}Caf\\'e9 \\u8217\\'92s{\\*\\bkmkend cafe}"
        " {\\uc0\\u-30050 } \\u-10179?\\u-8704?\\ldblquote menu\\rdblquote"
        "{\\footnote\\pard\\plain A note.\\par}{\\v hidden}\\~\\{1\\}"
    )
    text = _pandoc_rtf([(0, title), (None, BODY), (1, "Next"), (None, BODY)])
    headings = markup_headings(text, ".txt")[1]
    assert headings[0][2] == "Caf\u00e9 \u2019s \u8a9e \U0001f600\u201cmenu\u201d {1}"
    cyrillic = text.replace("\\ansi\\deff0", "\\ansi\\ansicpg1251\\deff0").replace("Caf\\'e9", "\\'c0\\'e1")
    assert markup_headings(cyrillic, ".txt")[1][0][2].startswith("\u0410\u0431 ")


def _native(blocks: str, meta: str = "fromList []") -> str:
    return f"Pandoc\n  Meta {{ unMeta = {meta} }}\n  [ {blocks}\n  ]\n"


def _para(words: str) -> str:
    inlines = "\n      , Space\n      , ".join(f'Str "{w}"' for w in words.split())
    return f"Para\n      [ {inlines}\n      ]"


def _header(level: int, ident: str, inlines: str) -> str:
    return f'Header\n      {level}\n      ( "{ident}" , [] , [] )\n      [ {inlines}\n      ]'


def test_native_header_blocks_are_headings_at_their_level_split_over_lines():
    blocks = "\n  , ".join(
        [
            _header(1, "the-widget", 'Str "The" , Space , Str "Widget"'),
            _para(BODY),
            'Header 2 ( "setup" , [] , [] ) [ Str "Setup" ]',
            _para(BODY),
            _header(3, "fine", 'Str "Fine"\n      , Space\n      , Str "points"'),
            _para(BODY),
        ]
    )
    text = _native(blocks)
    markup, headings = markup_headings(text, ".txt")
    assert markup == "native"
    assert [(lv, t) for _, lv, t in headings] == [(1, "The Widget"), (2, "Setup"), (3, "Fine points")]
    assert all(text[offset:].startswith("Header") for offset, _, _ in headings)


def test_native_header_inside_a_string_literal_is_no_heading():
    code = 'CodeBlock ( "" , [] , [] ) "Header 1 ( \\"fake\\" , [] , [] ) [ Str \\"Fake\\" ]\\n"'
    blocks = "\n  , ".join(
        [
            'Header 1 ( "a" , [] , [] ) [ Str "Alpha" ]',
            code,
            'Para [ Str "Header" , Space , Str "2" ]',
            'Header 1 ( "b" , [] , [] ) [ Str "Beta" ]',
        ]
    )
    headings = markup_headings(_native(blocks), ".txt")[1]
    assert [t for _, _, t in headings] == ["Alpha", "Beta"]


def test_native_titles_render_inlines_and_decode_haskell_escapes():
    inlines = (
        'Str "Caf\\233" , Space , Code ( "" , [] , [] ) "open()" , Space , Emph [ Str "and" ] , Space'
        ' , Link ( "" , [] , [] ) [ Strong [ Str "links" ] ] ( "x.html" , "" ) , Space'
        ' , Quoted DoubleQuote [ Str "q\\"\\&1" ] , Note [ Para [ Str "A" , Space , Str "note." ] ]'
        ' , RawInline ( Format "html" ) "<br>" , SoftBreak , Math InlineMath "x^2"'
    )
    blocks = f'Header 2 ( "t" , [] , [] ) [ {inlines} ]\n  , {_para(BODY)}'
    headings = markup_headings(_native(blocks), ".txt")[1]
    assert headings == [(headings[0][0], 2, 'Caf\u00e9 open() and links \u201cq"1\u201d x^2')]


def test_native_block_list_without_the_pandoc_value_and_the_metadata_title():
    compact = '[Header 1 ("a",[],[]) [Str "Alpha"]\n,Para [Str "Text"]\n,Header 2 ("b",[],[]) [Str "Beta"]]\n'
    assert markup_headings(compact, ".txt") == (
        "native",
        [(1, 1, "Alpha"), (compact.index("Header 2"), 2, "Beta")],
    )
    meta = 'fromList [ ( "author" , MetaList [ MetaInlines [ Str "Ann" ] ] ) , ( "title" , MetaInlines [ Str "The" , Space , Emph [ Str "Book" ] ] ) ]'
    headings = markup_headings(_native('Header 1 ( "a" , [] , [] ) [ Str "Alpha" ]', meta), ".txt")[1]
    assert [(lv, t) for _, lv, t in headings] == [(0, "The Book"), (1, "Alpha")]


def _chapters(tmp_path, name: str, text: str) -> list[str]:
    book = tmp_path / name
    book.write_text(text, encoding="utf-8")
    out = tmp_path / f"{name}.jsonl"
    assert main(["chunk", str(book), "-o", str(out), "--max-tokens", "64", "--overlap", "0"]) == 0
    chapters = [json.loads(line)["chapter"] for line in out.read_text().splitlines()]
    return list(dict.fromkeys(chapters))


def test_chunking_an_rtf_or_native_text_fences_on_its_headings_and_not_on_the_syntax_above(tmp_path):
    body = [(None, BODY)] * 3
    rtf = _pandoc_rtf([(0, "The Widget"), *body, (1, "Setup"), *body, (1, "Use"), *body])
    assert _chapters(tmp_path, "widget-rtf.txt", rtf)[-2:] == ["Setup", "Use"]
    paras = "\n  , ".join([_para(BODY)] * 3)
    blocks = "\n  , ".join(
        [
            _header(1, "w", 'Str "The" , Space , Str "Widget"'),
            paras,
            _header(2, "s", 'Str "Setup"'),
            paras,
            _header(2, "u", 'Str "Use"'),
            paras,
        ]
    )
    chapters = _chapters(tmp_path, "widget-native.txt", _native(blocks))
    assert chapters[-2:] == ["Setup", "Use"] and "Pandoc" not in chapters


def test_native_headers_whose_inline_list_never_closes_before_the_next_header_are_none():
    """A hostile or cut-off tree: each ``Header``'s ``[`` left open over the headers after it.
    None is a heading (their lists hold other headers), and each group is matched once, so
    such a text reads in one pass."""
    broken = 'Header 1 ( "a" , [] , [] ) [ Str "A" , ' * 200
    text = _native(f'Header 1 ( "ok" , [] , [] ) [ Str "Whole" ]\n  , {broken}').rstrip().removesuffix("]")
    assert [title for _, _, title in markup_headings(text, ".txt")[1]] == ["Whole"]
