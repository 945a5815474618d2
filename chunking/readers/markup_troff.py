"""Stage 1 (read), troff sources: the headings of a man page or an ms, me or mm document.

troff marks structure with requests, lines that start with ``.``, whose macro package names the
headings (groff_man(7), groff_ms(7), groff_me(7), groff_mm(7)):

* man: ``.SH title`` (level 1), ``.SS title`` (level 2); mdoc (BSD man pages) the same with
  ``.Sh``, ``.Ss``. ``.TH NAME SECTION`` (mdoc's ``.Dt``) is no heading: it names the page in its
  running header and footer and prints no title of its own, as a rendered page's header line is
  none to the plain-text reader;
* ms: ``.TL`` the title, its text on the lines below (level 0); ``.NH n`` a numbered heading of
  depth n and ``.SH n`` an unnumbered one of depth n (``.SH`` alone: level 1), each with its
  text on the lines below;
* me: ``.sh n "title"`` a numbered heading of depth n (``.sh 0`` without a title only resets the
  numbers), ``.uh "title"`` an unnumbered one (level 1), ``.+c "title"`` a chapter;
* mm: ``.H n "title"`` a numbered heading of depth n;
* any package, and the only title me has: before the first heading, the line set larger than the
  body and then the size set back (``.sz 14``, ``.b "title"``, ``.sz``; or ``.ps +4`` … ``.ps``),
  as a title page sets its title in a larger size (level 0); a size set once for the whole text
  is never set back before its prose, so it makes no title;
* mom (groff_mom(7)): ``.TITLE`` / ``.DOCTITLE`` the title (its arguments, one per printed line,
  joined: level 0), ``.CHAPTER_TITLE`` a chapter (level 1), ``.HEADING n [NAMED id] "title"``
  a heading of depth n (``PARAHEAD`` is a run-in paragraph head, no heading), and mom's older
  ``.HEAD``, ``.SUBHEAD``, ``.SUBSUBHEAD`` (depths 1-3); a depth is numbered from the
  ``.HEADING_STYLE n NUMBER`` (or ``.NUMBER_HEADS``, ``.NUMBER_SUBHEADS``) request on.

A request continues on the next line after a line-ending backslash (mom writes
``.HEADING 1 \\`` / ``"Title"``): its arguments are read from the joined lines and the heading
stands at its first line.

Numbered headings carry the numbers troff prints (``2.1 Title``), counted as the macros count
them. Nothing inside a macro definition (``.de`` … ``..``), an ignored block (``.ig`` … ``..``)
or an eqn, tbl or pic block is a heading; an escaped ``\\&.sh`` line is text (a manual shows
its own requests so). Titles are what the printed page shows: font and size escapes dropped,
special characters written out (``\\(em`` → ``—``, ``\\-`` → ``-``, ``\\.`` → ``.``), strings defined
by ``.ds`` expanded (``\\*T``), a pair of inline HTML tags a Markdown converter left in a title
dropped (``_HTML_PAIR``). A ``\\"`` starts a comment wherever it stands, inside a quoted argument
too (groff(7): "the escaped double quote introduces a comment"; a quote inside a quoted argument
is ``""`` or ``\\(dq``): groff and mandoc print ``.SH "a \\"b\\" c"`` as ``a``, and so does the title.
A contents heading inside a man page's ``NAME`` is front matter (``_name_contents``).

``troff_headings(lines, starts)`` recognises a troff source by its own marks: at least
``REQUEST_SHARE`` of its non-blank lines (outside closed tbl, eqn and pic blocks, whose rows are
the preprocessor's data) are requests, more of them other requests than
headings, and it holds ``MIN_HEADINGS`` headings.
"""

from __future__ import annotations

import re

from ..rules import CONTENTS_NAMES
from .markup_heading import Heading


MIN_HEADINGS = 2
"""Headings a text needs before it is read as troff."""

REQUEST_SHARE = 0.1
"""A troff source has at least this share of request lines among its non-blank lines (a man
page about a quarter or more, an me paper about a fifth), and more requests that are no
headings (``.PP``, ``.br``, ``.TP``, comments) than headings: prose that quotes requests at the
start of its lines quotes headings, and few of anything else."""

_REQUEST = re.compile(r"[.'][ \t]*([A-Za-z+][A-Za-z0-9_+]*)(?:[ \t]+(.*))?$")
_ARGUMENT = re.compile(r'"((?:[^"]|"")*)"?|(\S+)')
_BLOCKS = {"de": "..", "de1": "..", "am": "..", "ig": "..", "EQ": ".EN", "TS": ".TE", "PS": ".PE"}
_PREPROCESSOR = {name: end for name, end in _BLOCKS.items() if name in ("EQ", "TS", "PS")}
"""The blocks of troff's preprocessors (eqn, tbl, pic), by their opening request."""
_END = {
    end: re.compile(rf"[.'][ \t]*{re.escape(end[1:])}[ \t]*(?:\\\".*)?$") for end in set(_BLOCKS.values())
}
"""The line that closes a block (``..``, ``.  .``, ``.EN``), spaces after the dot allowed."""
_TEXT_BELOW = frozenset({"TL", "NH", "SH", "SS"})
_SPECIALS = {
    "em": "—", "en": "–", "hy": "-", "co": "©", "rg": "®", "tm": "™", "lq": "“", "rq": "”",
    "oq": "‘", "cq": "’", "dq": '"', "bu": "•", "de": "°", "mu": "×", "aq": "'", "ga": "`",
}  # fmt: skip
_ESCAPE = re.compile(
    r"\\(?:f(?:\[[^\]]*\]|\(..|.)|s[+-]?(?:\[[^\]]*\]|\(..|\d\d?)|\((..)|\[([^\]]*)\]|\*(?:\[([^\]]*)\]|\((..)|(.))|(.))"
)


def troff_headings(lines: list[str], starts: list[int]) -> list[Heading] | None:
    """The headings of a troff source, or None when the text does not read as one (module
    docstring)."""
    data = _preprocessed(lines)
    texts = [line for i, line in enumerate(lines) if line.strip() and i not in data]
    requests = sum(1 for line in texts if line.startswith(('.\\"', "'\\\"")) or _REQUEST.match(line))
    if not texts or requests < REQUEST_SHARE * len(texts):
        return None
    strings = {"Q": "“", "U": "”", "-": "—"}
    found: list[tuple[int, int, str, bool]] = []  # (line, depth, title, numbered)
    end: str | None = None
    marked = any(line.startswith(('.\\"', "'\\\"")) for line in texts)
    pending: tuple[int, int, bool] | None = None  # a heading whose text follows: (line, depth, numbered)
    below: list[str] = []
    numbering: set[int] = set()  # mom's numbered heading depths
    joined_until = -1
    enlarged = False  # a size request above the body's before any heading: the title's line follows
    sized: tuple[int, str] | None = None  # that line, a title once the size is set back
    for i, line in enumerate(lines):
        if i <= joined_until:
            continue
        if end is not None:
            if _END[end].match(line):
                end = None
            continue
        if line[:1] in ".'" and _continues(line):
            joined_until = i
            while joined_until + 1 < len(lines) and _continues(line):
                joined_until += 1
                line = line.rstrip()[:-1] + " " + lines[joined_until]
        request = _REQUEST.match(line) if line[:1] in ".'" else None
        if pending is not None and (request is not None or not line.strip()):
            if below:
                found.append((pending[0], pending[1], " ".join(below), pending[2]))
                pending, below = None, []
            elif request is not None:
                pending = None
        if request is None:
            if pending is not None and line.strip():
                below.append(line.strip())
            elif enlarged and sized is None and line.strip():
                sized = (i, line.strip())
            continue
        name, args = request.group(1), _arguments(request.group(2) or "")
        marked = marked or name in ("TH", "TL", "Dt", "START", "PRINTSTYLE")
        if name in _SIZE and not found and pending is None:
            if sized is not None and not _enlarges(args):
                found.append((sized[0], 0, sized[1], False))  # the size set back: a title
            enlarged, sized = _enlarges(args), None
        elif enlarged and sized is None and name in _FONT and args:
            sized = (i, " ".join(args))
        if name in _BLOCKS:
            end = _BLOCKS[name]
        elif name == "ds" and args:
            strings[args[0]] = " ".join(args[1:])
        elif name in _TEXT_BELOW and not (name in ("SH", "SS") and _inline(args)):
            depth = {"TL": 0, "SS": 2}.get(name, 1)
            if name in ("NH", "SH") and args and args[0].isdigit() and int(args[0]) > 0:
                depth = int(args[0])  # ``.NH 2``, and ms's unnumbered ``.SH 2`` (groff 1.23)
            pending = (i, depth, name == "NH")
        elif name in ("SH", "SS", "Sh", "Ss") and args:
            found.append((i, {"SH": 1, "SS": 2, "Sh": 1, "Ss": 2}[name], " ".join(args), False))
        elif name in ("sh", "H") and len(args) >= 2 and args[0].isdigit() and int(args[0]) > 0:
            found.append((i, int(args[0]), args[1], True))
        elif name in ("uh", "+c") and args:
            found.append((i, 1, args[0], False))
        elif name in _MOM_NUMBERING:
            depth = _MOM_NUMBERING[name] or (int(args[0]) if args and args[0].isdigit() else 0)
            if name != "HEADING_STYLE" or "NUMBER" in args:
                (numbering.discard if args[-1:] == ["OFF"] else numbering.add)(depth)
        elif name in _MOM_HEADINGS and args:
            depth = _MOM_HEADINGS[name] if name != "HEADING" else int(args[0]) if args[0].isdigit() else 0
            titles = args[1:] if name == "HEADING" else args
            if titles[:1] == ["NAMED"]:
                titles = titles[2:]
            if titles and titles[0] != "PARAHEAD" and depth <= 9:
                found.append((i, depth, " ".join(titles), depth in numbering))
    if pending is not None and below:
        found.append((pending[0], pending[1], " ".join(below), pending[2]))
    out = _name_contents(_numbered(found, starts, strings))
    if not marked and requests - len(found) < len(found):
        return None
    return out if sum(level > 0 for _, level, _ in out) >= MIN_HEADINGS else None


BODY_POINTS = 10
"""troff's default point size, the body text's unless the source sets another before its title."""

_SIZE = frozenset({"sz", "ps"})
"""Size requests: me's ``.sz n`` and troff's own ``.ps n`` (``+n`` relative, none: back to the last)."""

_FONT = frozenset({"b", "i", "r", "bi", "B", "I", "R", "BI"})
"""Requests that set their argument in a font (me's ``.b "text"``, ms's and man's ``.B text``)."""


def _preprocessed(lines: list[str]) -> set[int]:
    """The indexes of the lines inside closed tbl, eqn and pic blocks (``.TS`` … ``.TE``): a
    preprocessor's data, neither text nor requests, left out of the request share (a man page of
    reference tables holds more table rows than anything else). A block never closed is text."""
    inside: set[int] = set()
    k = 0
    while k < len(lines):
        request = _REQUEST.match(lines[k]) if lines[k][:1] in ".'" else None
        end = _PREPROCESSOR.get(request.group(1)) if request is not None else None
        if end is None:
            k += 1
            continue
        close = next((j for j in range(k + 1, len(lines)) if _END[end].match(lines[j])), None)
        if close is None:
            return inside
        inside.update(range(k + 1, close))
        k = close + 1
    return inside


def _enlarges(args: list[str]) -> bool:
    """Whether a size request sets type above the body's: ``.sz 14``, ``.ps +4``."""
    size = args[0] if args else ""
    if size.startswith("+"):
        return size[1:].isdigit() and int(size[1:]) > 0
    return size.isdigit() and int(size) > BODY_POINTS


_MOM_HEADINGS = {
    "TITLE": 0,
    "DOCTITLE": 0,
    "CHAPTER_TITLE": 1,
    "HEADING": 0,
    "HEAD": 1,
    "SUBHEAD": 2,
    "SUBSUBHEAD": 3,
}
"""mom's heading requests and their depth (``HEADING`` takes its depth as its first argument)."""

_MOM_NUMBERING = {"HEADING_STYLE": 0, "NUMBER_HEADS": 1, "NUMBER_SUBHEADS": 2, "NUMBER_SUBSUBHEADS": 3}
"""mom's requests that number a heading depth (``HEADING_STYLE`` names it first, with ``NUMBER``)."""


def _continues(line: str) -> bool:
    """Whether a line ends with a backslash that escapes its newline (not an escaped backslash)."""
    stripped = line.rstrip()
    return (len(stripped) - len(stripped.rstrip("\\"))) % 2 == 1


def _inline(args: list[str]) -> bool:
    """Whether ``.SH``/``.SS`` carries its title on its own line (man), not below it (ms's
    ``.SH`` takes at most a depth number)."""
    return bool(args) and not (len(args) == 1 and args[0].isdigit())


def _numbered(
    found: list[tuple[int, int, str, bool]], starts: list[int], strings: dict[str, str]
) -> list[Heading]:
    counters = [0] * 10
    out: list[Heading] = []
    for i, depth, title, numbered in found:
        text = rendered(title, strings)
        if numbered and 0 < depth < len(counters):
            counters[depth] += 1
            counters[depth + 1 :] = [0] * (len(counters) - depth - 1)
            text = ".".join(str(n) for n in counters[1 : depth + 1]) + " " + text
        if text.strip():
            out.append((starts[i], depth, text))
    return out


_CONTENTS = re.compile(rf"(?:{CONTENTS_NAMES}):?", re.I)


def _name_contents(headings: list[Heading]) -> list[Heading]:
    """A man page's ``NAME`` section holds the page's name line only (man(7): the name, a dash and
    a one-line description), so a contents heading set inside it (``.SH NAME`` … ``.SS Contents``,
    before the next ``.SH``) is no part of it: it is the contents of the document, which a
    converter that opens every page with ``NAME`` writes there because it comes before the
    document's first section. It stands at the level of the page's sections (front matter),
    as a contents set as a section inside any later section (a section's own contents) does not."""
    out: list[Heading] = []
    in_name = False
    for offset, level, title in headings:
        if level == 1:
            in_name = title.upper() == "NAME"
        elif in_name and level == 2 and _CONTENTS.fullmatch(title):
            level = 1
        out.append((offset, level, title))
    return out


def _arguments(text: str) -> list[str]:
    """A request's arguments: words, or quoted strings (``""`` a quote inside one); a comment
    (``\\"``) ends them."""
    text = re.split(r'\\"', text, maxsplit=1)[0]
    return [
        m.group(1).replace('""', '"') if m.group(1) is not None else m.group(2)
        for m in _ARGUMENT.finditer(text)
    ]


def rendered(title: str, strings: dict[str, str] | None = None) -> str:
    """A troff title as the page shows it (see the module docstring)."""
    defined = strings or {}

    def one(m: re.Match[str]) -> str:
        special = m.group(1) or m.group(2)
        if special is not None:
            return _SPECIALS.get(special, "")
        name = m.group(3) or m.group(4) or m.group(5)
        if name is not None:
            return rendered(defined.get(name, ""), None) if defined.get(name) else ""
        char = m.group(6)
        if char is None:
            return ""  # a font or size change
        return _PRINTED.get(char, "")

    text = _ESCAPE.sub(one, title)
    while True:
        bare = _HTML_PAIR.sub(r"\2", text)
        if bare == text:
            return " ".join(text.split())
        text = bare


_PRINTED = {"-": "-", "e": "\\", ".": ".", "_": "_", "'": "´", "`": "`", " ": " ", "~": " ", "0": " "}
"""One-character escapes that print a glyph (groff(7), *Single-Character Escapes*): ``\\.`` a dot,
``\\e`` the escape character, ``\\-`` a minus, ``\\'`` and the grave escape the two accents,
``\\_`` an underline, ``\\ ``, ``\\~`` and ``\\0`` spaces. The others (``\\&``, ``\\|``, ``\\^``,
``\\%``, ``\\c``…) print nothing, or nothing a title keeps."""

_HTML_PAIR = re.compile(
    r"<(code|tt|kbd|samp|var|em|strong|b|i|u|span|a|sup|sub|cite|abbr)(?:\s[^<>]*)?>(.*?)</\1\s*>", re.I
)
"""An inline HTML element, its start and end tags around its text, in a troff title: the leftover
of a Markdown converter that wrote a source's inline code or emphasis as HTML (Ronn-NG's
``.SH "Class: <code>app\\.Widget</code>"``). troff knows no HTML, so man prints the tags as they
stand; but they are inline markup, not words of the title (as ``\\fB``…``\\fR`` around the same
text are, which the title drops): the title is the element's text. Only a matched pair of an
inline element's tags is markup; a lone ``<file>`` or ``<b>`` in a title is text."""
