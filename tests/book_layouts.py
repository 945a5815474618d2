"""Whole generated books with known structure, for the property-style structure tests.

``make_book(opener=, furniture=, outline=, mid_page=, chapters=, seed=)`` returns the bytes of a
real PDF (built with ``pdf_factory.make_pdf``) and its ``Truth``: every part/chapter/appendix and
front/back start (kind, number, title, 1-based physical page, the first line of its heading as
printed), every body sentence, and the furniture text that must not survive normalisation.

The book is laid out the way typesetters do it: a title page (and sometimes a blank verso), an
optional printed contents page, an optional preface, chapters with numbered sections ``N.M`` and
paragraphs of distinct sentences (no body line repeats anywhere, so no body line looks like a
running header), optional appendices and parts, then a bibliography and an index. Traps real
books have are built in: a paragraph that opens with a number (``37. Of course ...``), a numbered
list whose item ``2. Named ...`` is the first line of a page, cross references (``see Chapter
3``), contents lines (``3 Title .... 17``), and a running header equal to a heading ignoring case
(``INDEX`` over the index pages). Every choice not fixed by the arguments comes from ``seed``.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field, replace

from pdf_factory import HEIGHT, LEFT, RIGHT, TOP, Text, lines_height, make_pdf, text_width

OPENERS = ("keyword", "keyword_inline", "number_stack", "bold_numbered", "sphinx", "section_keyword")
FURNITURE = ("none", "fixed_header", "chapter_header", "slug", "footer_folio")
OUTLINES = ("none", "right", "wrong_levels", "off_by", "single_root")
CHAPTER_LEVEL = ("part", "chapter", "appendix")

BODY_BOTTOM = HEIGHT - 66.0
"""Lowest y a body line may reach: above the footer zone (folios, slugs)."""
MID_PAGE_ROOM = 8
"""A chapter starts mid-page only when this many body lines still fit below its heading."""
SPELLED = "zero one two three four five six seven eight nine ten eleven twelve".split()
ROMAN = ["", "I", "II", "III", "IV", "V", "VI"]
LOWER_ROMAN = ["", "i", "ii", "iii", "iv", "v", "vi", "vii", "viii"]

CHAPTER_TITLES = [
    "Linear Systems", "Numerical Integration", "Boundary Value Problems", "Interpolation",
    "Iterative Solvers", "Error Analysis", "Sparse Matrices", "Random Sampling", "Spectral Methods",
    "Optimisation", "Finite Differences", "Polynomial Roots", "Signal Filtering", "Graph Algorithms",
    "Data Structures", "Floating Point Arithmetic", "Orthogonal Bases", "Stochastic Processes",
]
LONG_TITLES = [
    "Eigenvalue Problems and Their Numerical Solution", "Ordinary Differential Equations in Practice",
    "Least Squares Fitting of Noisy Measurements", "Parallel Computation on Shared Memory Machines",
    "Approximation Theory for Smooth Functions", "Monte Carlo Estimation of High Dimensional Integrals",
    "Nonlinear Equations and Fixed Point Iteration", "Fast Transforms for Periodic Signals",
    "Conditioning and Stability of Algorithms", "Adaptive Quadrature with Error Control",
]
APPENDIX_TITLES = ["Installation Notes", "Reference Tables", "Exercise Solutions"]
PART_TITLES = ["Foundations", "Methods", "Applications"]
SECTION_TITLES = [
    "Basic Definitions", "A First Example", "Convergence", "Implementation", "Worked Problems",
    "Cost of the Method", "Special Cases", "Historical Remarks", "Practical Advice", "Limitations",
    "Choosing Parameters", "Testing the Code", "Accuracy", "Memory Layout", "Scaling",
    "Alternative Formulations", "Preconditioning", "Stopping Criteria", "Derivation", "Variants",
    "Notation", "Error Estimates", "Complexity", "A Second Example", "Numerical Experiments",
    "Storage Schemes", "Restarting", "Step Size Control", "Boundary Conditions", "Initial Guesses",
    "Vectorisation", "Further Examples", "Robustness", "Symmetry", "Sensitivity", "Reordering",
    "Termination", "Interfaces", "Portability", "Summary of Results",
]
BOOK_TITLES = ["Numerical Methods Handbook", "Practical Scientific Computing", "Applied Algorithms"]

_ADJ = ("sparse dense stable unstable implicit explicit adaptive coarse fine local global smooth "
        "periodic symmetric banded linear cubic robust naive careful discrete continuous noisy exact "
        "approximate hidden bounded recursive generic shifted scaled").split()
_NOUN = ("matrix vector solver estimate residual gradient mesh kernel operator series integral "
         "polynomial basis sample buffer tolerance interval node weight parameter function grid "
         "sequence factor method routine array spectrum boundary domain table error step model "
         "filter iterate pivot norm queue tree graph cache").split()
_VERB = ("refines bounds controls limits shifts scales reduces approximates updates stores improves "
         "damps measures replaces smooths balances checks splits combines returns tracks "
         "preserves weakens dominates resolves").split()
_VERB_BASE = ("refine bound control measure replace smooth balance check split combine track "
              "preserve compare derive estimate sample").split()
_PREP = ("at every step", "near the boundary", "for large problems", "in exact arithmetic",
         "on a uniform grid", "after each sweep", "before the final pass", "in most applications",
         "with little extra work", "under mild assumptions", "for small tolerances",
         "in the worst case", "on modern hardware", "at the cost of memory", "without any pivoting",
         "in double precision", "during the setup phase", "for periodic data")
_ADV = "quickly slowly reliably rarely smoothly steadily cheaply noticeably gradually".split()
_TERMS = ("accuracy adaptivity aliasing backtracking bandwidth bisection caching Cholesky "
          "collocation conditioning convergence damping deflation discretisation eigenvalue "
          "extrapolation factorisation Fourier Galerkin Gauss Householder interpolation Jacobi "
          "Krylov Lanczos Newton nodes orthogonality overflow pivoting preconditioner quadrature "
          "relaxation Richardson rounding Runge secant shifting Simpson spline stiffness "
          "truncation underflow wavelets").split()


def _an(word: str) -> str:
    """``word`` with its indefinite article."""
    return ("an " if word[0] in "aeiou" else "a ") + word


@dataclass(frozen=True)
class Start:
    """A chapter-level (or front/back) start as printed: ``first_line`` is the heading's first
    line of text (the keyword or number line of a stacked opener)."""

    kind: str
    number: str
    title: str
    page: int
    first_line: str


@dataclass
class Truth:
    """What a correct reader must find in the generated book."""

    starts: list[Start]
    sentences: list[str]
    furniture: list[str]
    lone_numbers: list[str]
    params: dict
    pages: int = 0
    toc: list = field(default_factory=list)
    printed: dict[str, int] = field(default_factory=dict)
    """How often a furniture string is also printed as content (a running title on the title page)."""

    def chapter_level(self) -> list[Start]:
        """Parts, chapters and appendices in book order (what the structure must find exactly)."""
        return [s for s in self.starts if s.kind in CHAPTER_LEVEL]


@dataclass
class _Block:
    """A run of lines the paginator places together: an opener, a section heading, a paragraph,
    a list. ``start``: the unit this block opens; ``new_page``: always starts a page."""

    lines: list[Text]
    start: Start | None = None
    new_page: bool = False
    keep: int = 1
    break_after: int = 0
    section: str = ""
    room_after: float = 0.0


@dataclass
class _Style:
    body: float
    font: str
    bold: str
    indent: bool


class _Words:
    """Distinct sentences and paragraphs: no sentence, and no wrapped line, is ever produced twice."""

    def __init__(self, rng: random.Random, style: _Style):
        self.rng, self.style = rng, style
        self.sentences: set[str] = set()
        self.lines: set[str] = set()

    def sentence(self, chapters: int) -> str:
        r = self.rng
        for _ in range(100):
            a, n, v, p = r.choice(_ADJ), r.choice(_NOUN), r.choice(_VERB), r.choice(_PREP)
            n2, n3, a2 = r.choice(_NOUN), r.choice(_NOUN), r.choice(_ADJ)
            form = r.randrange(9)
            if form == 0:
                s = f"The {a} {n} {v} the {n2} {p}."
            elif form == 1:
                s = f"In practice, {_an(a)} {n} {v} every {n2} that {r.choice(_VERB)} the {a2} {n3}."
            elif form == 2:
                s = f"We {r.choice(_VERB_BASE)} the {n} {p}, and the {a} {n2} {v} {r.choice(_ADV)}."
            elif form == 3:
                s = f"Each {n} {v} {_an(a)} {n2}, which {r.choice(_VERB)} the {n3} {p}."
            elif form == 4:
                s = f"{_an(a).capitalize()} {n} (see Chapter {r.randint(1, chapters)}) {v} the {a2} {n2} {p}."
            elif form == 5:
                s = f"How the {a} {n} {v} the {n2} is treated in Chapter {r.randint(1, chapters)}."
            elif form == 6:
                s = f"Note that the {n} {v} the {a} {n2} only {p}."
            elif form == 7:
                s = f"Usually the {a} {n} and the {a2} {n2} {r.choice(_VERB_BASE)} each other {p}."
            else:
                s = f"One can show that {_an(a)} {n} {v} the {n2} {r.choice(_ADV)} {p}."
            if s not in self.sentences:
                self.sentences.add(s)
                return s
        raise AssertionError("ran out of distinct sentences")

    def wrap(self, text: str, font: str, size: float, width: float, first_indent: float = 0.0) -> list[str]:
        lines, current, used = [], [], 0.0
        limit, space = width - first_indent, text_width(" ", font, size)
        for word in text.split():
            w = text_width(word, font, size)
            if current and used + space + w > limit:
                lines.append(" ".join(current))
                current, used, limit = [word], w, width
            else:
                used += (space if current else 0.0) + w
                current.append(word)
        lines.append(" ".join(current))
        return lines

    def paragraph(self, chapters: int, count: int, lead: str = "") -> tuple[list[Text], list[str]]:
        """A paragraph of ``count`` new sentences (``lead`` prefixes the first) as body lines."""
        st = self.style
        for _ in range(50):
            sentences = [self.sentence(chapters) for _ in range(count)]
            if lead:
                sentences[0] = lead + sentences[0][0].lower() + sentences[0][1:]
            indent = 14.0 if st.indent else 0.0
            wrapped = self.wrap(" ".join(sentences), st.font, st.body, RIGHT - LEFT - 2, indent)
            if len(wrapped[-1]) < 12 or any(w in self.lines for w in wrapped):
                continue  # a short tail line ("grid.") could repeat elsewhere: draw again
            self.lines.update(wrapped)
            gap = 0.0 if st.indent else st.body * 0.6
            lines = [Text(w, st.body, st.font, x=LEFT + (indent if i == 0 else 0),
                          space_before=gap if i == 0 else 0.0) for i, w in enumerate(wrapped)]
            return lines, sentences
        raise AssertionError("could not draw a paragraph with distinct lines")


def _split_title(title: str, parts: int, size: float = 0.0, font: str = "helv") -> list[str]:
    """``title`` over at most ``parts`` lines of balanced width when it fits between the margins
    at ``size``, else over as many lines as it needs (typesetters wrap long display titles too)."""
    words = title.split()
    widths = [text_width(w, font, size or 1.0) for w in words]
    space = text_width(" ", font, size or 1.0)
    limit = RIGHT - LEFT if size else float("inf")
    target = min(limit, (sum(widths) + space * (len(words) - 1)) / max(1, min(parts, len(words))))
    while True:
        lines, current, used = [], [], 0.0
        for word, w in zip(words, widths):
            if current and used + space + w > target:
                lines.append(" ".join(current))
                current, used = [word], w
            else:
                used += (space if current else 0.0) + w
                current.append(word)
        lines.append(" ".join(current))
        if len(lines) <= parts or target >= limit:
            return lines
        target = min(limit, target * 1.05)


def _display(lines: list[str], size: float, font: str, align: str, space_before: float) -> list[Text]:
    return [Text(x, size, font, align=align, space_before=space_before if i == 0 else 0.0)
            for i, x in enumerate(lines)]


def _opener(opener: str, kind: str, number: str, title: str, st: _Style, rng: random.Random,
            mid: bool) -> tuple[list[Text], str]:
    """The heading lines of a chapter/appendix in this opener style, and their first line."""
    b, bold, reg = st.body, st.bold, st.font
    keyword = "Appendix" if kind == "appendix" else "Chapter"
    drop = 24.0 if mid else rng.choice([0.0, 40.0, 90.0])
    if opener == "keyword":
        align = rng.choice(["left", "center"])
        lines = [Text(f"{keyword} {number}", 2.0 * b, reg, align=align, space_before=drop)]
        lines += _display(_split_title(title, 1, 2.4 * b, bold), 2.4 * b, bold, align, b)
    elif opener == "keyword_inline":
        lines = _display(_split_title(f"{keyword} {number} {title}", 1, 2.0 * b, bold), 2.0 * b, bold,
                         "left", drop)
    elif opener == "number_stack":
        align = rng.choice(["left", "right"])
        lines = [Text(number, 3.5 * b, bold, align=align, space_before=drop)]
        lines += _display(_split_title(title, rng.randint(1, 3), 2.2 * b, bold), 2.2 * b, bold, align, b)
    elif opener == "bold_numbered":
        lines = [Text(f"{number}. {title}.", 1.2 * b, bold, space_before=1.5 * b if mid else drop)]
    elif opener == "sphinx":
        word = number if kind == "appendix" else SPELLED[int(number)].upper()
        lines = [Text(keyword.upper(), 1.8 * b, reg, align="right", space_before=drop),
                 Text(word, 3.0 * b, bold, align="right")]
        lines += _display(_split_title(title, 1, 2.4 * b, bold), 2.4 * b, bold, "right", b)
    elif opener == "section_keyword":
        word = "Appendix" if kind == "appendix" else "Section"
        lines = [Text(f"{word} {number}", 1.8 * b, reg, space_before=drop)]
        lines += _display(_split_title(title, 1, 2.2 * b, bold), 2.2 * b, bold, "left", 0.5 * b)
    else:
        raise ValueError(f"unknown opener {opener!r}")
    return lines, lines[0].text


def _unnumbered(opener: str, title: str, st: _Style) -> list[Text]:
    """An unnumbered chapter-level heading (Preface, Contents, Index) in the book's style."""
    size = 1.2 * st.body if opener == "bold_numbered" else 2.4 * st.body
    align = "right" if opener == "sphinx" else "left"
    return [Text(title, size, st.bold, align=align, space_before=0.0 if opener == "bold_numbered" else 40.0)]


def _section(opener: str, number: str, title: str, st: _Style) -> Text:
    size = st.body if opener == "bold_numbered" else 1.2 * st.body
    return Text(f"{number} {title}", size, st.bold, space_before=st.body)


class _Pages:
    """Places blocks top to bottom, page after page, and remembers where each unit starts."""

    def __init__(self, mid_page: bool, open_right: bool):
        self.pages: list[list[Text]] = []
        self.y = BODY_BOTTOM
        self.mid_page, self.open_right = mid_page, open_right
        self.unit_at_top: list[tuple[Start | None, str]] = []  # unit/section in force at page top
        self.opener_at_top: list[bool] = []
        self.blank: list[bool] = []
        self.current: tuple[Start | None, str] = (None, "")
        self.placed: list[tuple[Start, int, float]] = []  # start, 0-based page, top y
        self.sections: list[tuple[str, int, float, Start]] = []

    def new_page(self, blank: bool = False) -> None:
        self.pages.append([])
        self.unit_at_top.append(self.current)
        self.opener_at_top.append(False)
        self.blank.append(blank)
        self.y = TOP

    def room(self) -> float:
        return BODY_BOTTOM - self.y

    def add(self, block: _Block) -> None:
        is_opener = block.start is not None
        height = lines_height(block.lines[:block.keep]) + block.room_after
        if block.new_page or (is_opener and not self.mid_page):
            if not self.pages or self.pages[-1]:
                self.new_page()
            if self.open_right and len(self.pages) % 2 == 0:  # recto openings: a blank verso first
                self.blank[-1] = True
                self.new_page()
        elif is_opener and self.room() < height + MID_PAGE_ROOM * 15:
            self.new_page()
        elif not self.pages or self.room() < height:
            self.new_page()
        for index, line in enumerate(block.lines):
            if index and index == block.break_after:
                self.new_page()
            if self.y + line.space_before + line.size * 1.5 > BODY_BOTTOM:
                self.new_page()
            if self.y == TOP and not (is_opener and index == 0):
                line = replace(line, space_before=0.0)
            if index == 0 and block.start is not None:
                top = self.y + line.space_before
                self.placed.append((block.start, len(self.pages) - 1, top))
                self.current = (block.start, "")
                if self.y == TOP:
                    self.opener_at_top[-1] = True
                    self.unit_at_top[-1] = self.current
            if index == 0 and block.section:
                self.sections.append((block.section, len(self.pages) - 1, self.y + line.space_before,
                                      self.current[0]))
                self.current = (self.current[0], block.section)
            self.pages[-1].append(line)
            self.y += line.space_before + line.size * 1.5


def _folios(pages: _Pages, first_main: int) -> list[str]:
    """Printed folio of every page: roman before ``first_main`` (0-based), arabic from it."""
    return [LOWER_ROMAN[i + 1] if i < first_main else str(i - first_main + 1)
            for i in range(len(pages.pages))]


def make_book(opener: str = "keyword", furniture: str = "none", outline: str = "none", mid_page: bool = False,
              chapters: int = 5, seed: int = 0, parts: bool = False, appendices: int | None = None,
              contents: bool | None = None) -> tuple[bytes, Truth]:
    """Generate a book.

    Args:
        opener: one of ``OPENERS`` (how chapter headings look).
        furniture: one of ``FURNITURE`` (what repeats at the top/bottom of pages).
        outline: one of ``OUTLINES`` (the PDF bookmarks, right or wrong in a known way).
        mid_page: chapters follow the previous one on the same page when there is room (one short
            chapter makes two chapter starts share a page); else every chapter opens a page.
        chapters: number of chapters (at most 12).
        seed: every other choice (fonts, sizes, alignment, words, front matter, appendices).
        parts: group the chapters into parts (``Part I`` pages).
        appendices: how many appendices; None lets the seed choose 0-2.
        contents: print a contents page; None lets the seed choose.

    Returns:
        (pdf bytes, Truth).
    """
    if opener not in OPENERS or furniture not in FURNITURE or outline not in OUTLINES:
        raise ValueError(f"unknown layout {opener!r}/{furniture!r}/{outline!r}")
    rng = random.Random(f"{seed}-{opener}-{furniture}-{outline}-{mid_page}-{chapters}-{parts}")
    font, bold = rng.choice([("helv", "hebo"), ("tiro", "tibo")])
    st = _Style(body=rng.choice([10.0, 10.5, 11.0]), font=font, bold=bold, indent=rng.random() < 0.5)
    n_app = rng.randint(0, 2) if appendices is None else appendices
    has_contents = rng.random() < 0.6 if contents is None else contents
    has_preface = rng.random() < 0.5
    open_right = not mid_page and rng.random() < 0.4
    book_title = rng.choice(BOOK_TITLES)
    short = opener in ("keyword_inline", "bold_numbered")
    titles = rng.sample(CHAPTER_TITLES if short or rng.random() < 0.5 else LONG_TITLES, k=chapters)
    if opener == "number_stack":
        titles = rng.sample(LONG_TITLES, k=chapters)
    words = _Words(rng, st)
    sentences: list[str] = []
    short_chapter = rng.randrange(1, chapters - 1) if mid_page and chapters > 2 else -1

    def content(folio_of: dict[str, str]) -> list[_Block]:
        words.__init__(random.Random(f"{seed}-words"), st)
        sentences.clear()
        blocks: list[_Block] = [
            _Block([Text(book_title, 2.6 * st.body, st.bold, align="center", space_before=160.0),
                    Text("A. N. Author", 1.4 * st.body, st.font, align="center", space_before=30.0),
                    Text("Second Edition", st.body, st.font, align="center", space_before=200.0)],
                   new_page=True)]
        if has_contents:
            entries = []
            if has_preface:
                entries.append(("", "", "Preface"))
            for key, label, text in plan:
                entries.append((key, label, text))
            lines = []
            for key, label, text in entries:
                head = f"{label} {text}".strip() if label else text
                folio = folio_of.get(key or text, "00")
                free = RIGHT - LEFT - Text(head + folio, st.body, st.font).width()
                dots = " ." * max(3, int(free / 5.6) - 2)
                lines.append(Text(f"{head}{dots} {folio}", st.body, st.font,
                                  x=LEFT + (0 if key.count(".") == 0 else 18)))
            blocks.append(_Block(_unnumbered(opener, "Contents", st) + lines, new_page=True,
                                 start=Start("front", "", "Contents", 0, "Contents"), keep=len(lines) + 1))
        if has_preface:
            blocks.append(_Block(_unnumbered(opener, "Preface", st), new_page=True,
                                 start=Start("front", "", "Preface", 0, "Preface")))
            for _ in range(2):
                lines, said = words.paragraph(chapters, rng_words.randint(3, 5))
                sentences.extend(said)
                blocks.append(_Block(lines, keep=2))
        part_of = {1: 1, 1 + chapters // 3 + 1: 2, 1 + 2 * (chapters // 3) + 1: 3} if parts else {}
        units = [("chapter", str(i + 1), titles[i]) for i in range(chapters)]
        units += [("appendix", "ABC"[i], APPENDIX_TITLES[i]) for i in range(n_app)]
        trap_list_done = trap_number_done = False
        for kind, number, title in units:
            if kind == "chapter" and int(number) in part_of:
                p = part_of[int(number)]
                blocks.append(_Block([Text(f"Part {ROMAN[p]}", 2.4 * st.body, st.bold, align="center",
                                           space_before=180.0),
                                      Text(PART_TITLES[p - 1], 2.8 * st.body, st.bold, align="center",
                                           space_before=st.body)], new_page=True, keep=2,
                                     start=Start("part", ROMAN[p], PART_TITLES[p - 1], 0,
                                                 f"Part {ROMAN[p]}")))
            # the first chapter, and a part's first chapter, open a page even in run-on books
            fresh = kind == "chapter" and (int(number) in part_of or number == "1")
            is_short = kind == "chapter" and int(number) - 1 == short_chapter
            lines, first = _opener(opener, kind, number, title, st, rng_words, mid_page and not fresh)
            # a short chapter opens high on a page, so the next chapter starts on the same page
            blocks.append(_Block(lines, start=Start(kind, number, title, 0, first), keep=len(lines),
                                 new_page=fresh, room_after=0.55 * (BODY_BOTTOM - TOP) if is_short else 0.0))
            lines, said = words.paragraph(chapters, 2 if is_short else rng_words.randint(3, 5))
            lines[0] = replace(lines[0], space_before=2.0 * st.body)
            sentences.extend(said)
            blocks.append(_Block(lines, keep=2))
            if is_short:
                continue
            n_sections = rng_words.randint(2, 4)
            for m in range(1, n_sections + 1):
                sec_title = section_titles.pop()
                sec = f"{number}.{m}"
                blocks.append(_Block([_section(opener, sec, sec_title, st)], section=f"{sec}|{sec_title}",
                                     room_after=3 * 1.5 * st.body))
                first_par = True
                for _ in range(rng_words.randint(2, 4)):
                    lead = ""
                    if not trap_number_done and kind == "chapter" and int(number) >= 2 and m == 2:
                        lead, trap_number_done = f"{rng_words.randint(20, 60)}. Of course, ", True
                    lines, said = words.paragraph(chapters, rng_words.randint(3, 6), lead)
                    if first_par:
                        lines[0] = replace(lines[0], space_before=0.3 * st.body)
                        first_par = False
                    sentences.extend(said)
                    blocks.append(_Block(lines, keep=3 if lines[0].space_before else 2))
                if not trap_list_done and kind == "chapter" and int(number) >= 2 and m == 1:
                    trap_list_done = True
                    items = [f"{i}. Named reference to the {rng_words.choice(_ADJ)} {noun}"
                             for i, noun in enumerate(rng_words.sample(_NOUN, 4), start=1)]
                    sentences.extend(items)
                    words.lines.update(items)
                    blocks.append(_Block([Text(t, st.body, st.font, x=LEFT + 16,
                                               space_before=0.4 * st.body if i == 0 else 0.0)
                                          for i, t in enumerate(items)], break_after=1))
        blocks.append(_Block(_unnumbered(opener, "Bibliography", st), new_page=True,
                             start=Start("back", "", "Bibliography", 0, "Bibliography")))
        refs = []
        for i in range(1, 13):
            t = " ".join(rng_words.sample(_TERMS, 2)).capitalize()
            author = f"{rng_words.choice('ABCDEFGHKLMNPRSTW')}. {rng_words.choice(_TERMS).title()}"
            refs.append(Text(f"[{i}] {author}, {t} methods, Press {1960 + i * 3}.", st.body, st.font,
                             space_before=0.3 * st.body))
        blocks.append(_Block(refs, keep=2))
        blocks.append(_Block(_unnumbered(opener, "Index", st), new_page=True,
                             start=Start("back", "", "Index", 0, "Index")))
        index_lines = []
        for term in sorted(_TERMS + [f"{a} {n}" for a, n in zip(_ADJ, _NOUN)], key=str.casefold)[:70]:
            pages_cited = sorted(rng_words.sample(range(1, 60), rng_words.randint(1, 3)))
            index_lines.append(Text(f"{term}, {', '.join(map(str, pages_cited))}", st.body, st.font))
        blocks.append(_Block(index_lines, keep=2))
        return blocks

    # the contents page lists every unit; built before pagination (folios filled on a second pass)
    plan: list[tuple[str, str, str]] = []
    for i in range(chapters):
        if parts and i + 1 in ({1: 1, 1 + chapters // 3 + 1: 2, 1 + 2 * (chapters // 3) + 1: 3}):
            plan.append((f"P{i}", "Part", "?"))
        plan.append((str(i + 1), str(i + 1), titles[i]))
    for i in range(n_app):
        plan.append(("ABC"[i], "ABC"[i], APPENDIX_TITLES[i]))
    plan += [("", "", "Bibliography"), ("", "", "Index")]
    if parts:
        ordinal = iter(range(1, 4))
        plan = [(key, f"Part {ROMAN[(o := next(ordinal))]}", PART_TITLES[o - 1]) if label == "Part" else
                (key, label, text) for key, label, text in plan]

    def paginate(folio_of: dict[str, str]) -> _Pages:
        nonlocal rng_words, section_titles
        rng_words = random.Random(f"{seed}-layout")
        section_titles = rng_words.sample(SECTION_TITLES, k=len(SECTION_TITLES)) * 3
        flow = _Pages(mid_page, open_right)
        for block in content(folio_of):
            flow.add(block)
        return flow

    rng_words = random.Random(0)
    section_titles: list[str] = []
    flow = paginate({})
    first_main = next(p for s, p, _ in flow.placed if s.kind in ("part", "chapter"))
    folios = _folios(flow, first_main)
    folio_of = {}
    for s, p, _ in flow.placed:
        key = {"chapter": s.number, "appendix": s.number, "front": s.title, "back": s.title}.get(s.kind, "")
        folio_of[key] = folios[p]
        if s.kind == "part":
            folio_of[next(k for k, lab, _ in plan if lab == f"Part {s.number}")] = folios[p]
    flow = paginate(folio_of)

    starts = [replace(s, page=p + 1) for s, p, _ in flow.placed]
    header, footer, furniture_text, lone = _furniture(furniture, flow, folios, book_title, rng, st)
    if opener == "number_stack":
        lone += [s.number for s in starts if s.kind == "chapter"]
    toc = _outline(outline, flow, rng, book_title)
    pdf = make_pdf(flow.pages, toc=toc or None, header=header, footer=footer, title=book_title)
    params = dict(opener=opener, furniture=furniture, outline=outline, mid_page=mid_page, chapters=chapters,
                  seed=seed, parts=parts, appendices=n_app, contents=has_contents, preface=has_preface,
                  open_right=open_right, body_font=st.font, body_size=st.body)
    printed = {book_title: 1} if book_title in furniture_text else {}
    return pdf, Truth(starts, list(sentences), sorted(set(furniture_text)), lone, params, len(flow.pages),
                      toc, printed)


def _furniture(kind: str, flow: _Pages, folios: list[str], book_title: str, rng: random.Random, st: _Style):
    """Header/footer callables for ``make_pdf``, the furniture strings that must be removed, and
    the lone number lines that legitimately remain (none from furniture)."""
    small = round(0.8 * st.body, 1)
    furniture: list[str] = []
    lone: list[str] = []

    def is_title(i: int) -> bool:
        return i == 0 or flow.blank[i]

    if kind == "fixed_header":
        furniture.append(book_title)

        def header(i: int):
            return [] if is_title(i) else [Text(book_title, small, st.font, align="center")]
        return header, None, furniture, lone
    if kind == "chapter_header":
        heads = []
        for i in range(len(flow.pages)):
            unit, section = flow.unit_at_top[i]
            if is_title(i) or flow.opener_at_top[i] or unit is None or unit.kind == "part":
                heads.append(None)
                continue
            if unit.kind in ("chapter", "appendix"):
                word = "CHAPTER" if unit.kind == "chapter" else "APPENDIX"
                name = f"{word} {unit.number}. {unit.title.upper()}"
            else:
                name = unit.title.upper()
            if i % 2 == 0 and section:  # odd physical page (recto): the section, as LaTeX's book class
                number, title = section.split("|")
                name = f"{number}. {title.upper()}"
            heads.append(name)
            furniture.append(name)

        def header(i: int):
            if heads[i] is None:
                return []
            folio = Text(folios[i], small, st.font, align="left" if i % 2 else "right")
            return [Text(heads[i], small, st.font, align="right" if i % 2 else "left"),
                    replace(folio, inline=True)]

        def footer(i: int):  # chapter opening pages carry their folio at the foot (LaTeX "plain")
            return [Text(folios[i], small, st.font, align="center")] if flow.opener_at_top[i] and i else []
        return header, footer, furniture, lone
    if kind == "slug":
        stem = rng.choice(["book_final", "manual-v3", "handbook2020"])
        day = f"{rng.randint(1, 12)}/{rng.randint(1, 28)}/20{rng.randint(10, 24)}"
        slugs = []
        for i in range(len(flow.pages)):
            minute = 10 + 7 * i
            hour, minute = 9 + minute // 60, minute % 60
            clock = f"{hour % 12 or 12}:{minute:02d} {'AM' if hour < 12 else 'PM'}"
            slugs.append(f"{stem}.indd {i + 1} {day} {clock}")
        furniture.extend(slugs)

        def footer(i: int):
            return [Text(slugs[i], 7.0, "helv")]
        return None, footer, furniture, lone
    if kind == "footer_folio":
        def footer(i: int):
            return [] if is_title(i) else [Text(folios[i], small, st.font, align="center")]
        return None, footer, furniture, lone
    return None, None, furniture, lone


def _outline(kind: str, flow: _Pages, rng: random.Random, book_title: str) -> list:
    """PDF bookmarks for the book, right or wrong in the way ``kind`` names."""
    if kind == "none":
        return []
    style = rng.choice(["number", "plain", "keyword"])
    has_parts = any(s.kind == "part" for s, _, _ in flow.placed)
    entries = []  # (depth: 0 part, 1 chapter, 2 section, -1 front/back; title, page 1-based, top)
    for s, p, top in flow.placed:
        if s.kind == "part":
            entries.append((0, f"Part {s.number} {s.title}" if style != "plain" else s.title, p + 1, top, s))
            continue
        if s.kind in ("chapter", "appendix"):
            word = "Chapter" if s.kind == "chapter" else "Appendix"
            label = {"number": f"{s.number} {s.title}", "plain": s.title,
                     "keyword": f"{word} {s.number} {s.title}"}[style]
        else:
            entries.append((-1, s.title, p + 1, top, s))
            continue
        entries.append((1, label, p + 1, top, s))
        for sec, sp, stop, unit in flow.sections:
            if unit is s:
                number, title = sec.split("|")
                entries.append((2, f"{number} {title}", sp + 1, stop, s))
    shift = rng.choice([-1, 1]) * rng.randint(1, 3)
    toc = []
    for depth, label, page, top, _ in entries:
        if depth == -1:  # front/back matter: chapter level, or beside the parts (as hyperref does)
            depth = 0 if has_parts else 1
        if kind == "right":
            level = depth + 1 if has_parts else max(1, depth)
        elif kind == "wrong_levels":
            level = (1 if depth == 0 else 2) if has_parts else 1
        elif kind == "single_root":
            level = (depth + 2) if has_parts else depth + 1
        elif kind == "off_by":
            level = depth + 1 if has_parts else max(1, depth)
            page, top = min(len(flow.pages), max(1, page + shift)), None
        else:
            raise ValueError(kind)
        toc.append((level, label, page, top))
    if kind == "single_root":
        toc.insert(0, (1, book_title, 1, None))
    return toc


def first_text_line(text: str) -> str:
    """The first non-blank line of ``text`` (for assertions about where a heading starts)."""
    return next((line for line in text.split("\n") if line.strip()), "")


def squash(text: str) -> str:
    """``text`` with whitespace collapsed and line-end hyphens joined (what survives normalising)."""
    return " ".join(re.sub(r"-\n\s*", "", text).split())
