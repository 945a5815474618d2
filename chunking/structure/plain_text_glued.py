"""Stage 3 (structure), plain text: labelled headings an extractor glued into the lines around them.

An HTML-to-text extractor that writes a page's text nodes with nothing between its blocks (a
parser's ``text_content()``, a tag stripper) leaves a chapter's heading inside a line of text:
run on from the paragraph before it and into its first block after it
(``…as shown above.Chapter 2. Installing the ToolsTable of Contents…``). No line of its own marks it,
so a reader of such a text sees a heading only where two independent signals agree:

* **contents**: the book's own printed contents lists the title verbatim under the same number
  (``2. Installing the Tools``, itself glued into its neighbours or on a line of its own), and in
  the contents as in the body the title ends at a seam: the line's end, a page number, or a
  capital letter or digit run straight on (the next block's first character);
* **numbering**: the headings so listed run 1, 2, 3… (appendices A, B…) in book order, the
  longest such run, two headings at least.

And only a label that is glued: at its line's start or right after a non-space character (the
last character of the block before it, a sentence's full stop or a code line's last word), never
after a space: prose that mentions ``Chapter 2. Installing the Tools`` inside a paragraph has a
space before it, and a paragraph opening with it runs on after the title with words, not a seam.
A line that reads whole as a heading (the label and title alone) is no glued one: the plain-text
reader's own rules read it.
The contents is the one under the first ``Contents`` / ``Table of Contents`` name standing before
the chapters (at its line's start or glued to the text before it, and alone or glued to its first
entry); it ends at the first label after it, where the body begins.

An extractor that ends a heading with no break runs two headings in a row into one line
(``PrefaceWho is this book for?``: a chapter with no text before its first section): a line
that is two consecutive entries of the contents, run together at a seam with no space (a capital
or digit run straight on), is both (``run_together``), the second a level below the first.

Where no labelled heading is glued, a contents the extractor ran together on one line, with no
number or label (``Table of ContentsIntroductionRules of the gameSetup…``), gives the titles
(``listed_headings``): an entry is a heading where the body sets its title at a seam on both
sides, in the contents' order; the flat contents says no levels, so an entry is a chapter only
where the body shows it above the next (its heading run straight on into the next entry's, or
over its own contents), or as the first entry, or by its own label; the rest are sections.

The canonical text is unchanged: the plain-text reader splits its lines at these seams
(``plain_text._unglued``, ``plain_text._run_apart``), so a chapter may open in the middle of a line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass, replace

from ..rules import (
    CHAPTER_KEYWORDS,
    CONTENTS_NAMES,
    SENTENCE_CLOSERS,
    SENTENCE_FINAL,
    keyword_alternation,
    keyword_kind,
)
from .kinds import CAPITAL_LETTER, NUMBER_RE, number_value, parse_heading, words_key

RUN_MIN = 2
"""Glued headings of one kind that make a run: a single listed label may be a cross-reference
that happens to be set as a block (one chapter's number and title quoted in a table)."""

MAX_TITLE_CHARS = 100
"""The longest title a glued heading may have (as a line's title in ``plain_text``)."""

_LABEL = re.compile(
    rf"(?P<kw>{keyword_alternation(CHAPTER_KEYWORDS, cases=True)})[^\S\n]+"
    rf"(?P<num>{NUMBER_RE}|{CAPITAL_LETTER})(?:[.:]|[^\S\n]+[-–—])?[^\S\n]+(?=\S)"
)
"""A heading's label, ``Chapter 2.`` (any spaces, NO-BREAK SPACE included), up to its title."""

_CONTENTS_NAME = re.compile(rf"(?-i:(?=[A-ZÀ-ÖØ-ÞА-ЯЁ]))(?:{CONTENTS_NAMES})", re.I)
"""A contents name set as a header: capitalised (``Table of Contents``, ``CONTENTS``, ``Índice``)."""


@dataclass(frozen=True)
class Glued:
    """A heading found inside a line: ``start`` (its label's offset) to ``end`` (its title's end)."""

    start: int
    end: int
    kind: str
    number: str
    title: str
    listed: int  # the offset of the contents entry that lists it
    depth: int = 1  # 1 chapter level, 2+ sections (``listed_headings``)
    bare: bool = False  # found by its listed title alone, no label (``listed_headings``)
    why: str = ""  # what gave its level (``listed_headings``)


def glued_headings(lines: Sequence[tuple[int, str]]) -> tuple[tuple[int, int] | None, list[Glued]]:
    """The glued headings of a text given as its non-blank lines (``(offset of the first
    non-space character, the line stripped)``, in order), and the span of the contents' name
    above them; ``(None, [])`` when there is no run of them."""
    labels = [
        (i, m)
        for i, (_, raw) in enumerate(lines)
        for m in _LABEL.finditer(raw)
        if m.start() == 0 or not raw[m.start() - 1].isspace()
    ]
    # NOTE: a line that reads as a heading whole is no glued one (``plain_text`` reads it)
    inside = [(i, m) for i, m in labels if m.start() > 0 or parse_heading(lines[i][1]) is None]
    header = _contents_name(lines[: inside[-1][0] + 1]) if len(inside) >= RUN_MIN else None
    if header is None:
        return None, []
    at, name = header
    # NOTE: the contents runs from its name to the first label after it, where the body begins
    body = next(((i, m.start()) for i, m in labels if (i, m.start()) > (at, name.start())), None)
    if body is None:
        return None, []
    entries = _entries(lines, (at, name.end()), body, {m.group("num") for _, m in inside})
    listed: list[tuple[str, Glued]] = []  # (the label word's kind, the heading)
    for i, m in inside:
        offset, raw = lines[i]
        title = (
            _listed_title(entries.get(m.group("num"), []), raw[m.end() :]) if (i, m.start()) >= body else None
        )
        if title is None:
            continue
        parsed = parse_heading(raw[m.start() : m.end()] + title[1])
        if parsed is None or parsed.title != " ".join(title[1].split()):
            continue
        end = offset + m.end() + len(title[1])
        glued = Glued(offset + m.start(), end, parsed.kind, parsed.number, parsed.title, title[0])
        listed.append((keyword_kind(m.group("kw")), glued))
    chapters = _run([g for word, g in listed if word == "chapter"])
    if len(chapters) < RUN_MIN:
        return None, []
    found = list(chapters)
    for kind in ("appendix", "part"):
        run = _run([g for word, g in listed if word == kind])
        if len(run) >= RUN_MIN or (run and number_value(run[0].number) == 1):
            found += run
    start = lines[at][0] + name.start()
    return (start, start + len(name.group())), sorted(found, key=lambda g: g.start)


def _contents_name(lines: Sequence[tuple[int, str]]) -> tuple[int, re.Match[str]] | None:
    """The first contents name set as a header: at its line's start or glued to the text before
    it, capitalised, and the line's end or a character other than a space or a small letter right
    after it (the first entry glued on)."""
    for i, (_, raw) in enumerate(lines):
        for m in _CONTENTS_NAME.finditer(raw):
            after = raw[m.end() : m.end() + 1]
            glued = m.start() == 0 or not raw[m.start() - 1].isspace()
            if glued and not (after.isspace() or after.islower()):
                return i, m
    return None


def _entries(
    lines: Sequence[tuple[int, str]], since: tuple[int, int], until: tuple[int, int], numbers: set[str]
) -> dict[str, list[tuple[int, str]]]:
    """The entries of the contents between ``since`` and ``until`` (line, column) numbered with
    one of ``numbers`` (``2.``, ``Chapter 2.``, ``A.``), by number: each as ``(offset, the text
    from its title to the contents' end or its line's)``."""
    alternation = "|".join(re.escape(n) for n in sorted(numbers, key=len, reverse=True))
    entry = re.compile(rf"(?<![\d.])(?P<num>{alternation})(?:[.:]|[^\S\n]+[-–—])?[^\S\n]+(?=\S)")
    out: dict[str, list[tuple[int, str]]] = {}
    for i in range(since[0], until[0] + 1):
        offset, raw = lines[i]
        lo = since[1] if i == since[0] else 0
        hi = until[1] if i == until[0] else len(raw)
        for m in entry.finditer(raw, lo, hi):
            out.setdefault(m.group("num"), []).append((offset + m.start(), raw[m.end() : hi]))
    return out


def _listed_title(entries: list[tuple[int, str]], after: str) -> tuple[int, str] | None:
    """The longest title of ``entries`` (the contents' under one number) that ``after`` (the
    body's text after the label) opens with, ending at a seam on both sides; with the offset of
    its entry. None when none."""
    best: tuple[int, str] | None = None
    for offset, listed in entries:
        n = _common(listed, after)
        if _inside_word(listed, n) and _inside_word(after, n):
            # NOTE: both run on into a next block whose first letters they share (``ToolsT``
            # over ``ToolsTable`` and ``ToolsTesting``): back to where that word began
            while n > 0 and not after[n - 1].isspace() and not (_seam(listed, n) and _seam(after, n)):
                n -= 1
        if 0 < n <= MAX_TITLE_CHARS and _seam(listed, n, paged=True) and _seam(after, n):
            if best is None or n > len(best[1]):
                best = (offset, after[:n])
    return best


def _inside_word(text: str, n: int) -> bool:
    """Whether ``text`` runs on at ``n`` with no space before or at it."""
    return 0 < n < len(text) and not text[n - 1].isspace() and not text[n].isspace()


def _common(a: str, b: str) -> int:
    """The length of the prefix ``a`` and ``b`` share, any space equal to any other."""
    n = 0
    for x, y in zip(a, b):
        if x != y and not (x.isspace() and y.isspace()):
            break
        n += 1
    return n


_PAGE_AFTER = re.compile(r"[^\S\n]*(?:\.[\s.]*)?\d+\s*$")
"""What may follow a title in a paged contents: leaders and a page number, to the line's end."""


def _seam(text: str, n: int, paged: bool = False) -> bool:
    """Whether a title ending at ``text[n]`` ends at a block's edge: the line's end (spaces at
    most before it), or a capital letter or digit run straight on; in a contents also its page
    number. A title cut inside a word, or one a sentence runs on from, ends at no seam."""
    if n == 0 or text[n - 1].isspace():
        return False
    rest = text[n:]
    if not rest or rest.isspace():
        return True
    if paged and _PAGE_AFTER.match(rest):
        return True
    return rest[0].isupper() or rest[0].isdigit()


def _run(found: list[Glued]) -> list[Glued]:
    """The longest run of ``found`` (in book order) whose numbers go up by one from each to the
    next."""
    best: list[list[Glued]] = []
    for k, g in enumerate(found):
        value = number_value(g.number)
        prev = [best[j] for j in range(k) if number_value(found[j].number) == value - 1]
        best.append(max(prev, key=len, default=[]) + [g])
    return max(best, key=len, default=[])


def run_together(lines: Sequence[tuple[int, str, str]], listed: Sequence[Sequence[str]]) -> dict[int, int]:
    """Lines that are two consecutive entries of the contents run together (``PrefaceWho is this
    book for?``): an extractor that ends a heading with no break writes the next heading, when
    no text stands between them, straight on after it. Returns, by line index, the offset where
    the second title starts: a seam with no space, a capital letter or digit run straight on,
    the words before it the first entry's title and those after it the next one's.

    The second title may wrap onto the lines below (a wrapped paragraph's). A line of the
    contents itself may be such a line: the body's first heading run into the contents' last
    entry reads as one more entry.

    Args:
        lines: ``(offset, text, below)`` of every line: the text stripped, ``below`` the lines
            run on below it, up to the next blank line, joined by spaces.
        listed: the words keys (``kinds.words_key``) of each contents block's entries, in order.
    """
    pairs: dict[str, tuple[str, str]] = {}
    for keys in listed:
        for first, second in zip(keys, keys[1:]):
            if first and second:
                pairs.setdefault(first + second, (first, second))
                pairs.setdefault(f"{first} {second}", (first, second))
    seams: dict[int, int] = {}
    if not pairs:
        return seams
    for i, (offset, text, below) in enumerate(lines):
        whole = f"{text} {below}"
        if len(whole) > 2 * MAX_TITLE_CHARS or (pair := pairs.get(words_key(whole))) is None:
            continue
        for p in range(1, len(text)):
            if (
                (text[p].isupper() or text[p].isdigit())
                and not text[p - 1].isspace()
                and words_key(text[:p]) == pair[0]
                and words_key(f"{text[p:]} {below}") == pair[1]
            ):
                seams[i] = offset + p
                break
    return seams


# --- unlabelled headings a printed contents lists, glued into the lines around them -----------

LISTED_ENTRIES = 400
"""Most entries a contents run together on one line may have (``listed_headings``): the match
in the body tries, at each place a block may start, as many titles as share its first letters,
so the list is bounded as a heading's own contents is (``plain_text``); a longer list is not
read (where it ends, and the body begins, is then unknown)."""

LISTED_PLACES = 100
"""An entry's title set at a seam more often than this is no heading's: text the book repeats
(a heading's title stands at a few places, its own and a few mentions set as blocks)."""

_PREFIX = 2
"""Characters of a title's start the body's places are first looked up by (a title has as many at least)."""

_SEAM_AFTER = ".?!)]\"'’”"
"""Where two entries of a contents run together meet for sure (``_strong_seams``): after a small
letter, a sentence's or a bracket's close, run straight on into a capital or a digit."""

_SENTENCE_BEFORE = re.compile(rf"[^\W\d_][{re.escape(SENTENCE_FINAL)}][{re.escape(SENTENCE_CLOSERS)}]?\s+$")
"""A sentence's end (``rules.SENTENCE_FINAL``, a closer after it) and spaces right before a
place: a block set after the paragraph before it with a space between (``…as he can. Hitting
and EnteringA point…``)."""

_WORD = re.compile(r"[^\W_]+")
_SPACE = re.compile(r"\s")


def listed_headings(
    lines: Sequence[tuple[int, str]], cut: set[int], chapters: int = RUN_MIN
) -> tuple[tuple[int, int] | None, list[Glued]]:
    """The unlabelled headings of a text whose printed contents an extractor ran together on one
    line (``Table of ContentsIntroductionRules of the gameSetup…``: no number, no line between
    entries), found in the body, glued into its lines, by the titles the contents lists; with
    the span of the contents' name. ``(None, [])`` when the body does not show at least
    ``chapters`` chapters.

    The entries are the contents' line cut where a small letter runs into a capital
    (``_strong_seams``), up to the first entry listed again (the body's first heading, run on
    after the contents) or the line's end (``cut``: the lines a page cut ends, where the line
    runs on to the next); a list longer than ``LISTED_ENTRIES`` is not read. An entry is a heading
    where the body has its title, after its entry, at a seam on both sides: at a line's start,
    glued to the text before it or after a sentence's end, and ended by the line's end or a
    capital or digit run straight on (the next block); a mention in prose runs on with a space
    and words. The entries found are the longest run of them in the contents' order (each
    found once), leaving out every place right after a later contents name (a chapter's own
    contents lists its sections glued as this one does).

    Levels: a flat contents run together says none, the body says some. An entry whose heading
    runs straight on into the next entry's (``Playing a gameStarting a new match``: a chapter
    with no text before its first section) is a level above it, and so is one whose heading
    runs straight on into a contents name (its own contents); the first entry and each entry
    above another and below none are chapters, unless a heading's own contents lists it (it is
    that heading's section, whatever its own run-on says); an entry a number or letter labels
    (``2.1 Setup``, ``A. License``; ``2. Tools`` where such numbers never start again) is at
    its label's level; the other entries are sections
    (a contents of two levels lists more sections than chapters). A run-on seam inside a word
    the book writes elsewhere (``JavaScript``) is no seam: one title."""
    header = _contents_run_on(lines)
    if header is None:
        return None, []
    at, name = header
    offset, raw = lines[at]
    listed = _run_on_entries(lines, at, name.end(), cut)
    if listed is None:
        return None, []
    entries, body_from = listed
    by_prefix: dict[str, dict[str, list[int]]] = {}
    for k, (_, title) in enumerate(entries):
        if _PREFIX <= len(title) <= MAX_TITLE_CHARS and title[0].isalnum():
            title = _SPACE.sub(" ", title)
            by_prefix.setdefault(title[:_PREFIX], {}).setdefault(title, []).append(k)
    names = [
        (start + m.start(), start + m.end())
        for start, text in lines[at:]
        for m in _CONTENTS_NAME.finditer(text)
        if start + m.start() >= body_from
    ]
    matches = _body_matches(lines, at, body_from, by_prefix)
    matches, below = _off_listings(matches, {end for _, end in names})
    chain = _chain_in_order(matches)
    owns = {start for start, _ in names}
    found = _levelled(chain, entries, lines, owns, below)
    if sum(g.depth == 1 and g.kind != "part" for g in found) < chapters:
        return None, []
    return (offset + name.start(), offset + name.end()), found


def _run_on_entries(
    lines: Sequence[tuple[int, str]], at: int, since: int, cut: set[int]
) -> tuple[list[tuple[int, str]], int] | None:
    """The entries (offset, title) of the contents run together on line ``at`` from column
    ``since``, and where the body begins: the first entry listed again, else the line's end;
    across a page cut (``cut``: the lines a page ends, a line longer than a page cut at a space)
    the list runs on to the next line. None past ``LISTED_ENTRIES`` entries."""
    entries: list[tuple[int, str]] = []
    offset, raw = lines[at]
    base, line, head = offset + since, raw[since:], ""
    while True:
        cuts = [0, *_strong_seams(line), len(line)]
        for a, b in zip(cuts, cuts[1:]):
            title = line[a:b] if a else head + line[a:b]
            if entries and title == entries[0][1]:
                return entries, base + a  # NOTE: the first entry again: the body's first heading
            entries.append((base + a if a or not head else entries.pop()[0], title))
            if len(entries) > LISTED_ENTRIES:
                return None  # NOTE: its end unfound within the entries read: no contents read
        if at not in cut or at + 1 >= len(lines):
            return entries, base + len(line)
        # NOTE: the page was cut at a space: the last entry runs on, its words one space apart
        at += 1
        head = entries[-1][1] + " "
        base, line = lines[at]


def _contents_run_on(lines: Sequence[tuple[int, str]]) -> tuple[int, re.Match[str]] | None:
    """The first contents name set as a header (at its line's start or glued to the text before
    it, capitalised) with its first entry run straight on after it: a capital or a digit."""
    for i, (_, raw) in enumerate(lines):
        for m in _CONTENTS_NAME.finditer(raw):
            after = raw[m.end() : m.end() + 1]
            if (m.start() == 0 or not raw[m.start() - 1].isspace()) and (after.isupper() or after.isdigit()):
                return i, m
    return None


def _strong_seams(line: str) -> list[int]:
    """Where a small letter (or ``_SEAM_AFTER``) runs straight on into a capital or a digit in
    ``line`` (``…of the gameSetup…``). Two capitals in a row (``Mac OS XCommand…``) may be one
    title's acronym, a full stop before a digit a number's (``4.1. Introduction``): no cut there."""
    return [
        p
        for p in range(1, len(line))
        if (line[p - 1].islower() or line[p - 1] in _SEAM_AFTER)
        and (line[p].isupper() or (line[p].isdigit() and line[p - 1] != "."))
    ]


def _body_matches(
    lines: Sequence[tuple[int, str]], at: int, body_from: int, by_prefix: dict[str, dict[str, list[int]]]
) -> list[tuple[int, int, int]]:
    """Every place from ``body_from`` on where an entry's title stands at a seam on both sides,
    as ``(entry index, start offset, end offset)``; none of an entry found at more than
    ``LISTED_PLACES``."""
    out: list[tuple[int, int, int]] = []
    if not by_prefix:
        return out
    seen: Counter[int] = Counter()
    lengths = {prefix: sorted({len(t) for t in titles}) for prefix, titles in by_prefix.items()}
    first = re.compile("[" + "".join(sorted({re.escape(p[0]) for p in by_prefix})) + "]")
    for start, raw in lines[at:]:
        raw = _SPACE.sub(" ", raw)  # NOTE: a NO-BREAK SPACE in the body for the contents' space
        for m in first.finditer(raw, max(0, body_from - start)):
            q = m.start()
            titles = by_prefix.get(raw[q : q + _PREFIX])
            if titles is None:
                continue
            if q and raw[q - 1] == " " and not _SENTENCE_BEFORE.search(raw, max(0, q - 8), q):
                continue
            for n in lengths[raw[q : q + _PREFIX]]:
                ks = titles.get(raw[q : q + n]) if q + n <= len(raw) else None
                if ks is not None and _ends_block(raw, q + n):
                    for k in ks:
                        seen[k] += 1
                        if seen[k] <= LISTED_PLACES:
                            out.append((k, start + q, start + q + n))
    return [m for m in out if seen[m[0]] <= LISTED_PLACES]


def _ends_block(raw: str, e: int) -> bool:
    """Whether a title ending at ``raw[e]`` (a stripped line) ends at a block's edge: the line's
    end, or a capital letter or digit run straight on (``_seam``, without copying the rest)."""
    return not raw[e - 1].isspace() and (e == len(raw) or raw[e].isupper() or raw[e].isdigit())


def _off_listings(
    matches: list[tuple[int, int, int]], names: set[int]
) -> tuple[list[tuple[int, int, int]], set[int]]:
    """``matches`` without those a later contents name lists (the run of titles glued one after
    another from right after it: a heading's own contents), and the entries it lists there (that
    heading's sections)."""
    by_start: dict[int, list[tuple[int, int, int]]] = {}
    for m in matches:
        by_start.setdefault(m[1], []).append(m)
    listed: set[int] = set()
    for at in sorted(names):
        while at in by_start and at not in listed:
            listed.add(at)
            at = max(m[2] for m in by_start[at])
    return [m for m in matches if m[1] not in listed], {m[0] for m in matches if m[1] in listed}


def _chain_in_order(matches: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """The longest run of ``matches`` rising in both the entry index and the body, none
    overlapping the one before; of runs as long, the one ending earliest at each length
    (the headings' first places)."""
    tails: list[int] = []  # the least end of a run of each length
    ends: list[int] = []  # the match that ends it
    parent: list[int] = []
    ordered = sorted(matches, key=lambda m: (m[0], m[1]))
    k = 0
    while k < len(ordered):
        stop = k
        while stop < len(ordered) and ordered[stop][0] == ordered[k][0]:
            stop += 1
        placed = []
        for j in range(k, stop):
            size = bisect_right(tails, ordered[j][1])
            placed.append((size, j))
            parent.append(ends[size - 1] if size else -1)
        for size, j in placed:
            if size == len(tails):
                tails.append(ordered[j][2])
                ends.append(j)
            elif ordered[j][2] < tails[size]:
                tails[size] = ordered[j][2]
                ends[size] = j
        k = stop
    chain = []
    j = ends[-1] if ends else -1
    while j >= 0:
        chain.append(ordered[j])
        j = parent[j]
    return chain[::-1]


def _levelled(
    chain: list[tuple[int, int, int]],
    entries: list[tuple[int, str]],
    lines: Sequence[tuple[int, str]],
    owns: set[int],
    below: set[int],
) -> list[Glued]:
    """The headings of ``chain`` (entry index, start, end) with their levels (see
    ``listed_headings``; ``owns``: where a later contents name starts; ``below``: the entries a
    heading's own contents lists)."""
    starts = [start for start, _ in lines]
    seams = [
        (chain[j - 1][1], start, end)
        for j, (k, start, end) in enumerate(chain)
        if j and chain[j - 1][2] == start and k == chain[j - 1][0] + 1
    ]
    across = {seam[1]: _word_across(lines, starts, seam) for seam in seams}
    elsewhere: Counter[str] = Counter()
    if across:
        # NOTE: the book's words but those of the contents and those the run-ons' seams make
        elsewhere.update(w for _, raw in lines for w in _WORD.findall(raw))
        elsewhere.subtract(_WORD.findall("".join(title for _, title in entries)))
        elsewhere.subtract(word for word, whole in across.values() if whole)
    at_seams = Counter(word for word, _ in across.values())
    merged: list[tuple[int, int, int, int, bool]] = []  # (first entry, last, start, end, run on)
    for k, start, end in chain:
        run_on = bool(merged) and merged[-1][3] == start and k == merged[-1][1] + 1
        if run_on and elsewhere[word := across[start][0]] >= max(1, at_seams[word]):
            # NOTE: a seam inside a word the book writes elsewhere as often as at the run-ons'
            # seams (``JavaScript`` in its prose; ``gameStarting``, ``handlingUsing`` only
            # there, or at a seam the body's order missed): one title
            first, _, at, _, after = merged.pop()
            merged.append((first, k, at, end, after))
            continue
        merged.append((k, k, start, end, run_on))
    titles = [" ".join(_text_at(lines, starts, start, end).split()) for _, _, start, end, _ in merged]
    labels = [parse_heading(title, lettered=True) for title in titles]
    numbers = [number_value(p.number) for p in labels if p is not None and p.kind == "numbered"]
    # NOTE: bare numbers that start again (``1. Mutt Home Page`` in every chapter) number the
    # sections of each chapter: no level of their own
    restart = any(b <= a for a, b in zip(numbers, numbers[1:]))
    found: list[Glued] = []
    for j, (k, _, start, end, run_on) in enumerate(merged):
        title, parsed = titles[j], labels[j]
        if parsed is not None and parsed.kind == "numbered" and restart:
            parsed = None
        if parsed is not None and parsed.kind in ("part", "chapter", "numbered", "appendix", "section"):
            depth = parsed.number.count(".") + 1 if parsed.kind == "section" else 1
            kind, number, title, why = parsed.kind, parsed.number, parsed.title or title, "its label"
        else:
            # NOTE: an entry above the next (the first of a run-on, or a heading over its own
            # contents) and below none is a chapter
            kind, number, depth = "unnumbered", "", 2
            above = (
                "runs straight on into the next entry's" if j + 1 < len(merged) and merged[j + 1][4] else ""
            )
            above = above or ("runs straight on into its own contents" if end in owns else "")
            if run_on:
                depth, why = found[-1].depth + 1, "run straight on after the entry before"
            elif k in below:
                why = "listed in a heading's own contents"
            elif k == 0 or above:
                depth, why = 1, above or "the contents' first entry"
            else:
                why = "its level unshown"
        found.append(Glued(start, end, kind, number, title, entries[k][0], depth, bare=True, why=why))
    return [replace(g, kind="section") if g.depth >= 2 and g.kind == "unnumbered" else g for g in found]


def _text_at(lines: Sequence[tuple[int, str]], starts: list[int], start: int, end: int) -> str:
    """The text of ``lines`` from ``start`` to ``end`` (offsets on one line)."""
    i = bisect_right(starts, start) - 1
    offset, raw = lines[i]
    return raw[start - offset : end - offset]


def _word_across(
    lines: Sequence[tuple[int, str]], starts: list[int], span: tuple[int, int, int]
) -> tuple[str, bool]:
    """The word the seam ``span[1]`` between two titles run on (``span[0]`` to ``span[2]``)
    cuts, within the two (``gameStarting``, ``JavaScript``), and whether it stands whole there
    (no letter or digit glued on either side)."""
    first, seam, end = span
    i = bisect_right(starts, seam) - 1
    offset, raw = lines[i]
    lo = hi = seam - offset
    while lo > first - offset and raw[lo - 1].isalnum():
        lo -= 1
    while hi < end - offset and raw[hi].isalnum():
        hi += 1
    whole = (lo == 0 or not raw[lo - 1].isalnum()) and (hi == len(raw) or not raw[hi].isalnum())
    return raw[lo:hi], whole
