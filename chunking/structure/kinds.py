"""Stage 3 (structure), vocabulary: what a heading line or outline title says it is.

Contract: pure functions over one line of text. ``parse_heading`` splits a heading into
kind, number and clean title (``"Chapter 12: Graphical procedures"`` → chapter, ``12``,
``Graphical procedures``; ``"第十二章 图形"`` → chapter, ``12``, ``图形``); numbers are arabic,
uppercase roman, spelled out (``Three``) or Chinese numerals (``十二``, given back as digits);
``number_value`` turns any of them into an int so sequences can be checked. ``title_like``
is the plausibility test that keeps sentences (``Section did not converge``) out. ``words_key`` and
``compact_key`` are the two text keys the signals match titles with.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from ..rules import (
    CONTENTS_NAMES,
    KIND_KEYWORDS,
    LIST_OF,
    ROMAN_FOLIO,
    ROMAN_PATTERN,
    keyword_alternation,
    keyword_kind,
    roman_value,
)

SPELLED = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty"
).split()
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50}
_SPELLED_RE = (
    r"(?:(?:twenty|thirty|forty|fifty)(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?|"
    + "|".join(sorted(SPELLED[1:], key=len, reverse=True))
    + ")"
)
_ROMAN_RE = ROMAN_PATTERN.upper()
NUMBER_RE = rf"(?:\d{{1,3}}|{_ROMAN_RE}|(?i:{_SPELLED_RE}))"

FRONT_WORDS = re.compile(
    r"^(preface|foreword|(table of )?contents|acknowledge?ments?|dedication|abstract|"
    rf"{LIST_OF}|(?![íi]ndice\b)(?:{CONTENTS_NAMES})|"
    r"thank you!?|about (this|the) (book|manual|author)|prologue|notation|"
    r"前言|序言|序|目录|目次|摘要|致谢|鸣谢|まえがき|はじめに|目次)$",
    re.I,
)
BACK_WORDS = re.compile(
    r"(^|\s)(index|indices|bibliography|references|glossary|colophon|afterword|epilogue|endnotes|"
    r"further reading)$|^(参考文献|索引|后记|跋|あとがき|参考資料)$|"
    r"^(références|bibliographie|literatur|literaturverzeichnis|referenties|literatuur|referencias|"
    r"bibliografía|bibliografia|riferimenti|literatura|bibliografie)$",
    re.I,
)
"""Back-matter names; a book's references and bibliography in the European languages its
headings come in too (``Références``, ``Literatur``, ``Referenties``, ``Bibliografía``)."""

# --- CJK (Chinese, Japanese) headings: caseless scripts with their own numerals and labels -----

CJK_DIGITS = {
    "〇": 0,
    "零": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
"""Chinese numerals, written as Chinese and Japanese books number their chapters (``第三章``)."""
_CJK_NUM = r"[〇零一二两三四五六七八九十百]{1,5}"
_CJK_KINDS = {"章": "chapter", "部": "part", "部分": "part", "篇": "part", "编": "part", "卷": "part"}
CJK_KEYWORD_HEADING = re.compile(
    rf"^第\s*(?P<num>\d{{1,3}}|{_CJK_NUM}|{_ROMAN_RE})\s*(?P<kw>章|部分|部|篇|编|卷)(?:[\s:：、.．]*(?P<title>.*?))?\s*$"
)
"""``第三章 总则`` (chapter 3), ``第一部分 基础`` (part 1), ``第II部 応用`` (part 2, a roman
number in capitals, as Japanese books number their parts): the label words of Chinese/Japanese books."""
CJK_APPENDIX_HEADING = re.compile(
    rf"^(?:附录|附件|付録)\s*(?P<num>[A-Z]|\d{{1,2}}|{_CJK_NUM})?(?:[\s:：、.．]+(?P<title>.*?))?\s*$"
)
"""``附录A 术语``, ``附件一  声明文本``, ``附件二：``: appendices (annexes)."""
CJK_NUMBERED_HEADING = re.compile(rf"^(?P<num>{_CJK_NUM})\s*[、．.]\s*(?P<title>\S.*?)\s*$")
"""``一、总则``: a Chinese numeral and an enumeration comma open a top-level numbered heading."""


def cjk_value(number: str) -> int:
    """``"三"`` → 3, ``"十二"`` → 12, ``"二十一"`` → 21, ``"一百"`` → 100; 0 when not a Chinese numeral."""
    if not number or any(ch not in CJK_DIGITS and ch not in "十百" for ch in number):
        return 0
    total, digit = 0, 0
    for ch in number:
        if ch in CJK_DIGITS:
            digit = CJK_DIGITS[ch] if digit == 0 else digit * 10 + CJK_DIGITS[ch]
        else:
            total += (digit or 1) * (10 if ch == "十" else 100)
            digit = 0
    return total + digit


def _caseless(ch: str) -> bool:
    """A letter of a script without case (Chinese, Japanese, Korean, Thai, Arabic…): such a title
    cannot start with a capital, so its first letter counts as one."""
    return ch > "\x7f" and unicodedata.category(ch) == "Lo"


_SEP = r"(?:\s*[:.\-–—]\s*|\s+)"
CAPITAL_LETTER = "[A-ZΑ-ΩА-ЯЁ]"
"""A capital letter of the Latin, Greek or Cyrillic alphabet: what labels an appendix after a
label word (``Appendix B``, ``Приложение Б``)."""

KEYWORD_HEADING = re.compile(
    rf"^(?P<kw>{keyword_alternation(KIND_KEYWORDS, cases=True)})\s+"
    rf"(?P<num>\d{{1,3}}(?:\.\d{{1,3}})+|{NUMBER_RE}|{CAPITAL_LETTER}(?=$|[\s:.\-–—]))(?:{_SEP}(?P<title>.*?))?\s*$"
)
NUMBERED_HEADING = re.compile(r"^(?P<num>\d{1,3})(?:\s+[-–—]|\.?)\s+(?P<title>\S.*?)\s*$")
"""``3 Title``, ``3. Title`` and ``3 – Title`` (a dash set between spaces after the number)."""
SECTION_HEADING = re.compile(r"^(?P<num>(?:\d{1,3}|[A-Z])(?:\.\d{1,3}){1,4})[.:]?\s+(?P<title>\S.*?)\s*$")
SECTION_NUMBER_ONLY = re.compile(r"^(?P<num>(?:\d{1,3}|[A-Z])(?:\.\d{1,3}){1,4})[.:]?$")
"""``2.3 Title`` / ``2.3. Title`` / ``2.3: Title`` / ``2.3``, and appendix sections ``A.1 Title`` / ``A.1``,
down to five numbers (``4.2.1.3.1. Options``)."""
LETTER_HEADING = re.compile(r"^(?P<num>[A-Z])\.?\s+(?P<title>[A-Z].*?)\s*$")
LETTERED_HEADING = re.compile(r"^(?P<num>[A-Z])\.\s+(?P<title>[A-Z].*?)\s*$")
"""``A. Installation Notes``: a letter and a full stop label an appendix (``A Tutorial`` without the
stop is a title)."""


@dataclass(frozen=True)
class Parsed:
    """A heading line understood: ``kind`` in part|chapter|section|appendix|front|back|numbered."""

    kind: str
    number: str
    title: str


def number_value(number: str) -> int:
    """``"12"`` → 12, ``"XII"`` → 12, ``"Three"`` → 3, ``"B"`` (a letter, not roman) → 2; else 0."""
    if not number:
        return 0
    if number.isdigit():
        return int(number)
    low = number.casefold()
    if low in SPELLED:
        return SPELLED.index(low)
    parts = re.split(r"[- ]", low)
    if parts[0] in _TENS:
        return _TENS[parts[0]] + (SPELLED.index(parts[1]) if len(parts) > 1 and parts[1] in SPELLED else 0)
    if re.fullmatch(_ROMAN_RE, number):
        return roman_value(number)
    if cjk := cjk_value(number):
        return cjk
    if len(number) == 1 and number.isalpha():
        return ord(number.upper()) - ord("A") + 1
    return 0


def title_like(
    title: str, max_words: int = 14, full_stop: bool = False, any_case: bool = False, marked: bool = False
) -> bool:
    """True when ``title`` reads like a heading title, not a sentence or a list item.

    Starts with an uppercase letter, digit or quote (any letter with ``any_case``: for titles a
    book's outline or nav gives, which are headings whatever their case, ``6. pdfmom: …``); at
    most ``max_words`` words; no trailing comma/semicolon/colon, no trailing full stop unless
    ``full_stop`` (some books end every heading with one: ``9. Power Series.``; callers then
    demand other evidence, e.g. size); no dot leaders or trailing page number (contents lines),
    unless ``marked``: a line an underline, bold or a permalink marks as a heading may end in a
    number of its title's (``Upgrading to Release 3``).
    """
    title = title.strip()
    if not title or len(title) > 120 or len(title.split()) > max_words:
        return False
    first = title[0]
    if not (first.isupper() or first.isdigit() or first in "\"'“‘(«" or (any_case and first.isalpha())):
        if not _caseless(first):
            return False
        # NOTE: a caseless script writes no spaces between words: a title is short in characters
        # (about two per English word) and ends in no sentence stop.
        if len(title) > 2 * max_words or title[-1] in "。，；：！？":
            return False
    if title[-1] in ",;:" or (title.endswith(".") and not title.endswith("..") and not full_stop):
        return False
    if full_stop and title.endswith("..") and not title.endswith("..."):
        return False
    if (_LEADERS if marked else _LEADERS_OR_PAGE).search(_TRAILING_ELLIPSIS.sub("", title)):
        return False
    return True


_LEADERS_OR_PAGE = re.compile(r"\.\s?\.\s?\.|\s\d+$")
_LEADERS = re.compile(r"\.\s?\.\s?\.")
"""Dot leaders or a trailing page number: a contents line, not a title (``title_like``)."""

_TRAILING_ELLIPSIS = re.compile(r"(?<![.\s])\s?\.\.\.$")
"""An ellipsis closing a title, written as three full stops (``Where to go from here ...``):
no dot leaders, which run on longer or end in a page number."""


_NOT_WORD = re.compile(r"[^\w\s]")


def words_key(text: str) -> str:
    """Casefolded words joined by one space, punctuation dropped: how a title is matched to a line
    (``"Chapter 3: Objects"`` and ``"CHAPTER 3 OBJECTS"`` meet)."""
    return " ".join(_NOT_WORD.sub(" ", text.casefold()).split())


def compact_key(text: str) -> str:
    """Casefolded with every whitespace removed: a title that the PDF broke or spaced differently
    (``"Intro duction"``, ``"I N D E X"``) still meets its line."""
    return "".join(text.split()).casefold()


OBJECT_NUMBER = re.compile(r"\s*「\d+」$")
"""An object number after a title (``Getting started 「12」``): SiSU numbers every heading and
paragraph of its outputs so that a citation can name it, and a converted text keeps them."""


SPLIT_LATEX_LOGO = re.compile(r"\bL(?:\s+|\s*\[)A\]?\s*T\s?E\s?X(?=[\s\d(]|$|[^\w])")
"""The LaTeX logo as an extractor splits it, its raised small ``A`` apart (``L A TEX``) or marked
as a superscript (``L [A] TEX``): one word in a title, as the page shows it."""


SPLIT_LATEX2E_LOGO = re.compile(r"\b(?:LaTeX|LATEX)\s+2\s?ε")
"""The LaTeX2ε logo with the space an extractor puts before its kerned ``2ε`` (``LATEX 2ε``):
one word, as the page shows it."""


def clean_title(title: str) -> str:
    """Strip junk an outline or a line carries: control characters, dot leaders, page numbers,
    an object number (``OBJECT_NUMBER``); a split LaTeX logo is one word (``SPLIT_LATEX_LOGO``)."""
    title = re.sub(r"[\x00-\x1f\x7f-\x9f\u200b\ufeff]", " ", title)
    title = OBJECT_NUMBER.sub("", title)
    title = SPLIT_LATEX_LOGO.sub("LaTeX", title)
    title = SPLIT_LATEX2E_LOGO.sub("LaTeX2ε", title)
    # "Title .... 12", "Title ........"; an ellipsis inside a title ("The ... argument") stays
    title = re.sub(rf"(\s*\.){{3,}}\s*(\d{{1,4}}|{ROMAN_FOLIO})\s*$|(\s*\.){{4,}}\s*$", "", title)
    title = re.sub(r"\s+\d{1,4}$", "", title) if re.search(r"\s{2,}\d{1,4}$|\t\d{1,4}$", title) else title
    title = " ".join(title.split())
    return title.strip(" -–—:|•·¶")  # "¶": Sphinx permalink signs in EPUB nav titles


PROGRAM_OVER_CAPITALS = re.compile(r"(?=[a-z][\w.+-]*[\d._+-])[a-z][\w.+-]*(?:\s+[A-Z][\w'’-]*)+")
"""A numbered title that opens with a program's or a file's name in small letters, one that
carries a digit or a sign (``setup.cfg``, ``run_tests``, ``gen4x``), before capitalised
words (``7 setup.cfg Options``): a heading, where prose after a number runs on in small
letters (``3 see below``)."""


def _named(m: re.Match) -> bool:
    """Whether a numbered heading's title opens with a program's name (``PROGRAM_OVER_CAPITALS``)."""
    return PROGRAM_OVER_CAPITALS.fullmatch(m.group("title").rstrip(".")) is not None


def parse_heading(
    line: str, full_stop: bool = False, lettered: bool = False, any_case: bool = False, marked: bool = False
) -> Parsed | None:
    """Understand one line as a heading, or return None.

    Args:
        line (str): a line of text or an outline title.
        any_case (bool): the line is a heading whatever it says (an outline or nav title), so its
            title may start in lower case (``title_like``).
        marked (bool): an underline, bold or a permalink marks the line as a heading, so its
            title may end in a number (``title_like``).

    Returns:
        Parsed | None: ``kind`` is ``part``/``chapter``/``section``/``appendix`` for keyword
        headings, ``section`` for ``N.M Title``, ``numbered`` for ``N Title``/``N. Title``,
        ``front``/``back`` for known front/back matter names; the title may be ``""`` when the
        keyword line stands alone (``Chapter 1`` with the title on the next line). With
        ``full_stop``, a title may end in one full stop, which is dropped from the title. With
        ``lettered``, ``A. Title`` is appendix A (callers that know the line is a heading).
    """
    text = OBJECT_NUMBER.sub("", " ".join(line.split()))
    m = KEYWORD_HEADING.match(text)
    if m:
        kw = keyword_kind(m.group("kw"))
        num = m.group("num")
        if kw != "appendix" and len(num) == 1 and num.isalpha() and not re.fullmatch(_ROMAN_RE, num):
            return None
        title = (m.group("title") or "").strip()
        # NOTE: a full stop or colon after the number closes the label, so the title after it may
        # start in lower case (``Chapter 2. pkgtool reference guide``: a command's name), where
        # prose runs on without one (``Chapter 2 describes…``)
        stop = bool(title) and any(ch in ".:" for ch in text[m.end("num") : m.start("title")])
        if title and not title_like(title, full_stop=full_stop, any_case=any_case or stop, marked=marked):
            return None
        title = _drop_full_stop(title) if full_stop else title
        if kw == "appendix":
            return Parsed("back" if BACK_WORDS.search(title) else "appendix", num, title)
        return Parsed(kw, num, title)
    if text[:1] > "\x7f" and _caseless(text[0]) and (cjk := _parse_cjk(text, full_stop)) is not None:
        return cjk
    m = SECTION_HEADING.match(text)
    if m and title_like(m.group("title"), full_stop=full_stop, any_case=any_case or _named(m), marked=marked):
        return Parsed("section", m.group("num"), _drop_full_stop(m.group("title")))
    m = NUMBERED_HEADING.match(text)
    if m and title_like(m.group("title"), full_stop=full_stop, any_case=any_case or _named(m), marked=marked):
        return Parsed("numbered", m.group("num"), _drop_full_stop(m.group("title")))
    m = LETTERED_HEADING.match(text) if lettered else None
    if m and title_like(m.group("title"), full_stop=full_stop, any_case=any_case, marked=marked):
        return Parsed("appendix", m.group("num"), _drop_full_stop(m.group("title")))
    if FRONT_WORDS.match(text):
        return Parsed("front", "", text)
    # NOTE: the word count before the search: the search tries every position of the line
    if BACK_WORDS.match(text) or (len(text.split()) <= 3 and BACK_WORDS.search(text) and title_like(text)):
        return Parsed("back", "", text)
    return None


def _parse_cjk(text: str, full_stop: bool) -> Parsed | None:
    """A Chinese/Japanese heading: ``第三章 总则`` (chapter ``3``), ``第一部分`` (part), ``附录A``/
    ``附件一`` (appendix), ``一、总则`` (numbered ``1``); numbers are given in arabic digits so
    sequences compare with any other numbering."""
    m = CJK_KEYWORD_HEADING.match(text)
    if m:
        title = (m.group("title") or "").strip()
        if title and not title_like(title, full_stop=full_stop):
            return None
        return Parsed(_CJK_KINDS[m.group("kw")], str(number_value(m.group("num"))), title)
    m = CJK_APPENDIX_HEADING.match(text)
    if m:
        title = (m.group("title") or "").strip()
        if title and not title_like(title, full_stop=full_stop):
            return None
        num = m.group("num") or ""
        return Parsed("appendix", num if num.isascii() else str(number_value(num)), title)
    m = CJK_NUMBERED_HEADING.match(text)
    if m and title_like(m.group("title"), full_stop=full_stop):
        return Parsed("numbered", str(number_value(m.group("num"))), m.group("title"))
    return None


def _drop_full_stop(title: str) -> str:
    return title[:-1].rstrip() if title.endswith(".") and not title.endswith("..") else title


def spelled_out(number: str) -> bool:
    """``Three``, ``TWENTY-ONE``: a number written in words (not a roman numeral or a letter)."""
    return bool(re.fullmatch(_SPELLED_RE, number, re.I))


def is_spelled_number(line: str) -> bool:
    """``ONE``/``Two``/``3``: the middle line of a Sphinx ``CHAPTER`` / ``ONE`` / ``TITLE`` heading."""
    return bool(re.fullmatch(NUMBER_RE, line.strip())) and number_value(line.strip()) > 0
