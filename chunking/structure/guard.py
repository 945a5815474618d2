"""Stage 3 (structure), guard: never worse than the outline.

Contract: ``keep_outline(result, baseline, norm)`` returns the engine's structure with every
chapter-level entry of the outline's plain reading (``baseline.py``) that the engine dropped or
demoted put back, unless at least ``MIN_SIGNALS_AGAINST`` independent signals contradict that
entry; and an entry the engine kept on the outline's word alone (no other signal supports it)
left out when that many signals contradict it (a half-title, series or copyright page in the
outline). Each decision is one ``Disagreement`` naming the signals (``outline --explain``).

The signals that may speak against an outline entry, each read from a different source:

* ``text``: its title is on none of the pages from one before to one after its destination;
* ``numbering``: the line that holds its title on the page is numbered as a section (``2.3 …``);
* ``contents``: the printed contents (at least ``CONTENTS_MIN`` chapter-level entries found on
  their pages) lists the title as a section, or does not list it although its page lies inside
  the span the contents covers;
* ``page``: its page carries fewer than ``BARE_PAGE_WORDS`` words and it is not a part (a
  half-title, series or copyright page; a part page is bare by design).

An outline entry the plain reading skips as a wrapper (the book's title, or title-page entries
holding the whole book) is no chapter: the engine's unit of that title on that page goes, unless
two signals other than the outline support it.

An entry the engine placed within ``MOVE_PAGES`` of its destination under the same title counts
as kept (a repaired destination); kept as a chapter where the outline reads a part (or the
reverse), it takes the outline's kind unless the text's own keyword (``Part II``) names it. Where an entry is put back and the engine has a heading of the
same title on that page (a demoted chapter), that heading is promoted; otherwise a new heading
starts at the title's line (or the label line just above it, ``Chapter 3``), else at the page.
Levels are then rebuilt: parts 1, chapter-level units 1 or 2, sections below them as deep as
they were below their chapter.
"""

from __future__ import annotations

import dataclasses

from ..models import CHAPTER_LEVEL_KINDS, Disagreement, Heading
from ..normalise import NormalisedBook
from ..rules import FENCE_KINDS
from .baseline import BaselineEntry
from .contents import read_contents
from .evidence import confidence
from .kinds import SECTION_HEADING, parse_heading, words_key

MIN_SIGNALS_AGAINST = 2
"""Independent signals needed before the engine may drop or demote an outline entry."""

MOVE_PAGES = 3
"""An entry found this many pages from its destination under its own title was moved, not dropped."""

CONTENTS_MIN = 3
"""The printed contents speaks only when at least this many of its chapter-level entries were found."""

BARE_PAGE_WORDS = 25
"""A page with fewer words holds no body text (a title, series or copyright page)."""

_UNIT_KINDS = FENCE_KINDS


def keep_outline(
    headings: tuple[Heading, ...], baseline: list[BaselineEntry], norm: NormalisedBook
) -> tuple[tuple[Heading, ...], list[Disagreement]]:
    """Put back the outline's chapter-level entries the engine lost without two signals.

    Args:
        headings: the engine's headings in book order.
        baseline: the plain reading of the outline (``outline_baseline``).
        norm: the canonical text and per-page lines.

    Returns:
        tuple: the headings (in book order, levels rebuilt when something was put back) and one
        ``Disagreement`` per outline entry the engine overruled or was made to keep.
    """
    wanted = [b for b in baseline if b.chapter_level and b.offset is None]
    if len([b for b in wanted if b.kind != "part"]) < 2:
        return headings, []
    out = list(headings)
    notes: list[Disagreement] = []
    contents = _ContentsView(norm)
    changed = False
    titles = {words_key(b.title) for b in baseline} - {""}
    pages_of: dict[str, list[int]] = {}
    for b in baseline:
        pages_of.setdefault(words_key(b.title), []).append(b.page)
    wrappers = [b for b in baseline if b.kind == "book" and b.offset is None]
    # NOTE: a wrapper's own unit (its title on its page) is the wrapper's: the chapter under it
    # that repeats its title a page or two on is another unit, never that one.
    taken = {id(out[i]) for b in wrappers if (i := _match_wrapper(b, out)) is not None}
    for b in wanted:
        i = _match(b, out, taken, titles, _title_near(b, norm), pages_of)
        if i is not None:
            taken.add(id(out[i]))
        if i is not None and b.kind != "part" and _outline_only(out[i]):
            against = _against(b, norm, contents)
            if len(against) >= MIN_SIGNALS_AGAINST:
                where = f"outline {b.kind} '{_short(b.outline_title)}' -> p. {b.page + 1}"
                message = f"{where} left out: " + "; ".join(f"{s}: {why}" for s, why in against)
                notes.append(_note("dropped", b, tuple(s for s, _ in against), message))
                del out[i]
                changed = True
                continue
        if i is not None:
            h = out[i]
            if (
                (h.kind == "part") != (b.kind == "part")
                and _same_title(words_key(b.title), h)
                and _named_kind(h, norm) != h.kind
            ):
                message = f"outline {b.kind} '{_short(b.outline_title)}' -> p. {b.page + 1}: kept as a {b.kind}, not a {h.kind}"
                notes.append(_note("rekinded", b, ("outline",), message))
                out[i] = dataclasses.replace(h, kind=b.kind)
                taken.add(id(out[i]))
                changed = True
            continue
        against = _against(b, norm, contents)
        where = f"outline {b.kind} '{_short(b.outline_title)}' -> p. {b.page + 1}"
        if len(against) >= MIN_SIGNALS_AGAINST:
            message = f"{where} left out: " + "; ".join(f"{s}: {why}" for s, why in against)
            notes.append(_note("dropped", b, tuple(s for s, _ in against), message))
            continue
        why = "; ".join(f"{s}: {w}" for s, w in against) or "no signal against it"
        message = f"{where} kept ({len(against)} signal(s) against it, {MIN_SIGNALS_AGAINST} needed: {why})"
        notes.append(_note("restored", b, ("outline",), message))
        _restore(b, out, norm)
        changed = True
    for b in wrappers:
        i = _match_wrapper(b, out)
        if i is None:
            continue
        others = {s for s, _ in out[i].evidence} - {"outline", "nav"}
        if len(others) >= MIN_SIGNALS_AGAINST:
            continue
        message = (
            f"outline entry '{_short(b.outline_title)}' -> p. {b.page + 1} holds the whole book: "
            f"not a {out[i].kind} ({len(others)} other signal(s) for it)"
        )
        notes.append(_note("wrapper", b, ("outline",), message))
        del out[i]
        changed = True
    if changed:
        out = _relevel(sorted(out, key=lambda h: (h.char_offset, h.level)))
    return tuple(out), notes


def _match(
    b: BaselineEntry,
    headings: list[Heading],
    taken: set[int],
    titles: set[str],
    in_text: bool,
    pages_of: dict[str, list[int]],
) -> int | None:
    """The engine's unit that is outline entry ``b``: same title within ``MOVE_PAGES`` (nearest
    page first), else a unit on ``b``'s page that is a part exactly when ``b`` is one. A unit
    titled exactly as another entry within ``MOVE_PAGES`` of it (``pages_of``: each title's
    entry pages) is that entry's, never ``b``'s by a shared part of the title (``README`` is not
    ``README_MISSING_SYSCALL_OR_IOCTL`` three pages on).

    One unit stands for one entry whose title the text holds (``in_text``): a unit already
    matched to an entry (``taken``: ids) is not matched again, and the page fallback never takes
    a unit titled as another outline entry (``titles``: every entry's ``words_key``). Without
    that, the document's title set again above the first chapters, on their page, stood for each
    of them, and they stayed sections. An entry whose title is on none of its pages has no line
    to open a unit at: any unit on its page stands for it (a second bookmark into that unit).
    """
    key = words_key(b.title)
    near = [
        (abs(h.page - (b.page + 1)), i)
        for i, h in enumerate(headings)
        if h.kind in _UNIT_KINDS
        and (id(h) not in taken or not in_text)
        and key
        and abs(h.page - (b.page + 1)) <= MOVE_PAGES
        and _same_title(key, h)
        and (words_key(h.title) == key or not _anothers(h, pages_of))
    ]
    if near:
        return min(near)[1]
    for i, h in enumerate(headings):
        if (
            h.kind in _UNIT_KINDS
            and h.page == b.page + 1
            and (h.kind == "part") == (b.kind == "part")
            and (not in_text or (id(h) not in taken and words_key(h.title) not in titles))
        ):
            return i
    return None


def _anothers(h: Heading, pages_of: dict[str, list[int]]) -> bool:
    """Whether an outline entry titled exactly as unit ``h`` points within ``MOVE_PAGES`` of it."""
    return any(abs(page + 1 - h.page) <= MOVE_PAGES for page in pages_of.get(words_key(h.title), ()))


TITLE_SLACK = 3
"""Words a page may set among a title's words (a label's note between the label and the title:
``Appendix A`` / ``(informative)`` / ``Title``) and still hold the title."""


def _title_near(b: BaselineEntry, norm: NormalisedBook) -> bool:
    """Whether ``b``'s title is on its page or the pages either side (the ``text`` signal's test):
    its words in order, with at most ``TITLE_SLACK`` other words among them."""
    key = words_key(b.title)
    near = [p for p in range(b.page - 1, b.page + 2) if 0 <= p < len(norm.pages)]
    if not key:
        return False
    for p in near:
        text = words_key(" ".join(t for _, t in norm.lines[p]))
        if key in text or _in_order(key.split(), text.split()):
            return True
    return False


def _in_order(want: list[str], words: list[str]) -> bool:
    """Whether ``want`` occurs in ``words`` in order, starting at one of its first word's places,
    with at most ``TITLE_SLACK`` other words among its words."""
    for start, word in enumerate(words):
        if word != want[0]:
            continue
        k, skipped = 1, 0
        for other in words[start + 1 : start + len(want) + TITLE_SLACK]:
            if k == len(want):
                break
            if other == want[k]:
                k += 1
            else:
                skipped += 1
                if skipped > TITLE_SLACK:
                    break
        if k == len(want):
            return True
    return False


def _named_kind(h: Heading, norm: NormalisedBook) -> str:
    """The kind the text's own heading line at ``h`` names (``Part II …`` → part), or ``""``."""
    end = norm.text.find("\n", h.char_offset)
    parsed = parse_heading(norm.text[h.char_offset : end if end >= 0 else len(norm.text)])
    return parsed.kind if parsed is not None and parsed.kind in ("part", "chapter", "appendix") else ""


def _outline_only(h: Heading) -> bool:
    """Whether nothing but the outline (or nav) supports heading ``h``."""
    return {s for s, _ in h.evidence} <= {"outline", "nav"}


def _match_wrapper(b: BaselineEntry, headings: list[Heading]) -> int | None:
    """The engine's chapter-level unit on a wrapper's page under the wrapper's title, if any."""
    key = words_key(b.title)
    for i, h in enumerate(headings):
        if h.kind in CHAPTER_LEVEL_KINDS and h.page == b.page + 1 and key and words_key(h.title) == key:
            return i
    return None


def _same_title(key: str, h: Heading) -> bool:
    got = words_key(h.title)
    return bool(got) and (got == key or got in key or key in got)


class _ContentsView:
    """The printed contents, read once and only when a signal asks for it."""

    def __init__(self, norm: NormalisedBook):
        self.norm = norm
        self._read = False
        self.chapters: set[str] = set()
        self.sections: set[str] = set()
        self.span: tuple[int, int] | None = None

    def load(self) -> None:
        if self._read:
            return
        self._read = True
        contents = read_contents(self.norm, sections=False)
        found = [e for e in contents.entries if e.confirmed and e.page is not None and e.kind != "section"]
        if len(found) < CONTENTS_MIN:
            return
        for e in contents.entries:
            (self.sections if e.kind == "section" else self.chapters).add(words_key(e.title))
        pages = [e.page for e in found if e.page is not None]
        self.span = (min(pages), max(pages))


def _against(b: BaselineEntry, norm: NormalisedBook, contents: _ContentsView) -> list[tuple[str, str]]:
    """The independent signals that contradict outline entry ``b`` (see the module docstring)."""
    key = words_key(b.title)
    out: list[tuple[str, str]] = []
    near = [p for p in range(b.page - 1, b.page + 2) if 0 <= p < len(norm.pages)]
    if key and not _title_near(b, norm):
        out.append(("text", f"the title is not on pp. {near[0] + 1}-{near[-1] + 1}"))
    line = _title_line(b, norm)
    if line is not None and SECTION_HEADING.match(norm.lines[b.page][line][1].strip()):
        out.append(("numbering", f"p. {b.page + 1} numbers it as a section"))
    contents.load()
    if contents.span is not None and key:
        if key in contents.sections and key not in contents.chapters:
            out.append(("contents", "the printed contents lists it as a section"))
        elif contents.span[0] <= b.page <= contents.span[1] and not any(
            key == c or (len(c) > 3 and (c in key or key in c)) for c in contents.chapters | contents.sections
        ):
            out.append(("contents", "the printed contents does not list it"))
    words = sum(len(t.split()) for _, t in norm.lines[b.page])
    if b.kind != "part" and words < BARE_PAGE_WORDS:
        out.append(("page", f"p. {b.page + 1} holds {words} words"))
    return out


def _title_line(b: BaselineEntry, norm: NormalisedBook) -> int | None:
    """Index of the line on ``b``'s page that holds its title (wrapped titles: its first line)."""
    key = words_key(b.title)
    if not key:
        return None
    lines = norm.lines[b.page]
    for i, (_, text) in enumerate(lines):
        got = words_key(text)
        if got and (key in got or (len(got) >= 4 and key.startswith(got))):
            return i
    return None


def _restore(b: BaselineEntry, headings: list[Heading], norm: NormalisedBook) -> None:
    """Promote the engine's own heading of ``b`` on its page, or add one at the title's line."""
    key = words_key(b.title)
    evidence = ("outline", f"level {b.depth} '{_short(b.outline_title)}' -> p. {b.page + 1}")
    for i, h in enumerate(headings):
        if h.page == b.page + 1 and key and _same_title(key, h):
            signals = tuple(h.evidence) + (
                (evidence,) if evidence[0] not in {s for s, _ in h.evidence} else ()
            )
            headings[i] = dataclasses.replace(
                h,
                kind=b.kind,
                number=b.number or h.number,
                evidence=signals,
                confidence=confidence(s for s, _ in signals),
            )
            return
    page = norm.pages[b.page]
    offset = page.char_start
    line = _title_line(b, norm)
    if line is not None:
        lines = norm.lines[b.page]
        if line > 0 and _is_label(lines[line - 1][1]):
            line -= 1
        offset = lines[line][0]
    headings.append(
        Heading(
            level=1,
            kind=b.kind,
            title=b.title,
            number=b.number,
            page=page.number,
            page_label=page.label,
            char_offset=offset,
            source="outline",
            evidence=(evidence,),
            confidence=confidence(["outline"], line is not None),
        )
    )


def _is_label(line: str) -> bool:
    from .outline import is_label_line

    return is_label_line(line)


def _relevel(headings: list[Heading]) -> list[Heading]:
    """Parts 1; chapter-level units 2 under parts, else 1; sections as deep below their chapter."""
    has_parts = any(h.kind == "part" for h in headings)
    top = 2 if has_parts else 1
    old_top = min((h.level for h in headings if h.kind in CHAPTER_LEVEL_KINDS), default=top)
    out = []
    for h in headings:
        if h.kind == "part":
            level = 1
        elif h.kind in CHAPTER_LEVEL_KINDS:
            level = top
        else:
            level = top + max(1, h.level - old_top)
        out.append(h if h.level == level else dataclasses.replace(h, level=level))
    return out


def _note(case: str, b: BaselineEntry, signals: tuple[str, ...], message: str) -> Disagreement:
    return Disagreement(case, signals, b.kind, b.number, b.outline_title, b.page + 1, message)


def _short(title: str) -> str:
    return title if len(title) <= 60 else title[:59] + "…"
