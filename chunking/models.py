"""The one data model that flows read → structure → normalise → tokenize → chunk → validate → export.

Conventions (the contract every module keeps):

* **Pages are 1-based physical page numbers.** ``Page.label`` is the printed label
  (``"iv"``, ``"17"``) or ``""`` when the source defines none.
* **Offsets are 0-based, half-open ``[start, end)`` spans over ``Book.text``**, the one canonical
  text of the book. A chunk's text is always ``book.text[char_start:char_end]``; offsets are
  computed by arithmetic on lengths, never recovered with ``str.find``.
* **Tokens are 0-based, half-open ``[token_start, token_end)`` spans** over the book's canonical
  token stream for the policy's encoding (see ``chunking.tokens``).
* Canonical text is the normalised page texts joined by a single ``"\\n"``; an empty page adds
  no text and no separator, and has ``char_start == char_end``. The separator between two pages
  belongs to neither page's span.
* Structure levels: ``level`` 1 is the top of the detected hierarchy (parts when the book has
  parts, else chapters). ``kind`` says what a heading is, independently of level.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

HEADING_KINDS = ("part", "chapter", "section", "front", "back", "appendix")
"""What a heading can be. ``front``/``back``/``appendix`` sit at chapter level."""

CHAPTER_LEVEL_KINDS = frozenset({"chapter", "front", "back", "appendix"})
"""Kinds that open a chapter-level unit (a chunk fence under ``fence="chapter"``)."""

SIGNALS = (
    "outline",
    "nav",
    "contents",
    "typography",
    "keyword",
    "numbering",
    "running_header",
    "html_heading",
    "spine",
)
"""Independent signals a heading can be supported by (``Heading.evidence``): the PDF outline, the
EPUB nav/NCX, the printed table of contents, font size/weight against the body, a heading keyword
(``Chapter``), a numbering sequence, a change of running header, an HTML ``h1``-``h3`` tag, and the
start of an EPUB spine document."""

STRUCTURE_SOURCES = ("auto", "outline", "headings", "none")
"""Where structure comes from: the outline/TOC, the text's headings, the best of both, or nothing."""

OCR_MODES = ("auto", "never", "always")
"""When PDF pages are read by OCR (``chunking.ocr``): pages without a usable text layer, none,
or every page."""

STRATEGIES = ("chapter-window", "fixed-window", "section")
"""Chunking strategies known to the registry in ``chunking.strategies``."""

FENCES = ("chapter", "section")
SNAPS = ("none", "sentence", "paragraph")

RETRIEVERS = ("bm25", "dense", "hybrid")
"""Retrievers a user can choose: BM25 (``chunking.retrieval.search``), dense and hybrid
(``chunking.retrieval.hybrid``). Here, with the other choices, so the CLI's parser needs no numpy."""

END_REASONS = ("token_limit", "page_limit", "target_pages", "fence", "book_end", "sentence", "paragraph")
"""Why a chunk ended. ``sentence``/``paragraph`` mean a token-limited window was snapped back to
the last sentence or paragraph end (``Policy.snap``)."""


@dataclass(frozen=True)
class Page:
    """One physical page (PDF) or print/synthetic page (EPUB, text) of the canonical text.

    Attributes:
        number (int): 1-based physical page number.
        label (str): printed page label, ``""`` when the source defines none.
        char_start (int): start of the page's text in ``Book.text``.
        char_end (int): end (exclusive) of the page's text in ``Book.text``.
        synthetic (bool): True when the reader cut the page itself (EPUB without a page-list,
            plain text); such pages are about 2,000 characters, cut at paragraph ends.
        source_doc (str): the EPUB spine document the page comes from, ``""`` otherwise.
        has_text_layer (bool): False for a PDF page with images but no extractable text.
        ocr (bool): True when the page's text was read by OCR (``chunking.ocr``): it had no
            usable text layer, or the policy's ``ocr`` is ``always``.
        lost (bool): PDF: reading the page's text was stopped by its time or memory limit
            (``chunking.readers.pdfchild``; a warning names it): it has no text, and nothing
            (OCR, the layout, the app's page image) interprets its content again.
    """

    number: int
    label: str
    char_start: int
    char_end: int
    synthetic: bool = False
    source_doc: str = ""
    has_text_layer: bool = True
    ocr: bool = False
    lost: bool = False


@dataclass(frozen=True)
class Heading:
    """A structural boundary: a part, chapter(-level unit) or section start.

    Attributes:
        level (int): 1 = top of the hierarchy found in this book.
        kind (str): one of ``HEADING_KINDS``.
        title (str): the title without its number (``"Lexical Structure"``).
        number (str): ``"2"``, ``"IV"``, ``"A"``, ``""`` when unnumbered.
        page (int): 1-based physical page where the heading starts.
        page_label (str): printed label of that page (``""`` when none).
        char_offset (int): exact start in ``Book.text``; mid-page starts are mid-page.
        source (str): ``outline`` (PDF bookmarks, EPUB nav/NCX), ``headings`` (found in the text
            or its typography) ``markdown`` (``#`` headings of a Markdown file), ``pod``, ``wiki``, ``asciidoc``,
            ``org`` or ``rst`` (the headings of a POD, DokuWiki/Zim, AsciiDoc, Org or reStructuredText
            source).
        evidence (tuple[tuple[str, str], ...]): ``(signal, where)`` pairs, one per independent
            signal that supports this heading (``SIGNALS``), e.g. ``("outline", "level 2 'Syntax'
            -> p. 40")``, ``("typography", "p. 40 line 1: 17.2 pt, body 10.0 pt")``.
        confidence (float): 0-1, how strongly the signals agree (``chunking.structure.evidence``).
    """

    level: int
    kind: str
    title: str
    number: str
    page: int
    page_label: str
    char_offset: int
    source: str
    evidence: tuple[tuple[str, str], ...] = ()
    confidence: float = 1.0

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["evidence"] = [list(pair) for pair in self.evidence]
        return out


MAX_LISTED = 200
"""Diagnostics keep at most this many disagreements / rejected candidates (then a count)."""

DISAGREEMENT_CASES = {
    "missing": "a chapter-level heading ``signals`` found that the chosen structure lacks",
    "unconfirmed": "an accepted heading its own source (``signals``) cannot confirm in the text",
    "unopened": "a running header names a chapter that no heading opens",
    "dropped": "the outline guard left an outline entry out (``signals`` speak against it)",
    "restored": "the outline guard put back an outline entry the engine had lost",
    "rekinded": "the outline guard kept an entry as the outline's kind (part or chapter)",
    "wrapper": "an outline entry holding the whole book, taken out of the structure",
    "unnavigated": "an EPUB spine document in no nav entry, read as part of the chapter before it",
    "no_html_heading": "an EPUB nav chapter with no HTML heading at its target",
}
"""What a ``Disagreement`` can be (its ``case``), each with what it means."""


@dataclass(frozen=True)
class Disagreement:
    """One place where independent signals disagree about a heading (``Diagnostics``).

    Attributes:
        case (str): what disagrees, a key of ``DISAGREEMENT_CASES``.
        signals (tuple[str, ...]): the signals (``SIGNALS``) or sources (``outline``) that speak.
        kind (str): the kind of the heading named (``chapter``, ``part``…; ``""`` when none).
        number (str): its number as printed (``"3"``, ``"II"``, ``""``).
        title (str): its title (a running header's line for ``unopened``).
        page (int | None): its 1-based physical page; None when it has none.
        message (str): the same as one sentence, what ``outline --explain`` prints.
    """

    case: str
    signals: tuple[str, ...]
    kind: str
    number: str
    title: str
    page: int | None
    message: str

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["signals"] = list(self.signals)
        return out


@dataclass(frozen=True)
class Rejected:
    """A candidate heading a detector considered and did not accept (``Diagnostics``).

    Attributes:
        source (str): what proposed it: ``headings`` (the text detector of PDFs), ``plain_text``,
            ``nav`` or ``spine`` (EPUB).
        line (str): the candidate's line or title as the book has it.
        reason (str): why it was not accepted (``not set larger than the body text``).
        page (int | None): its 1-based physical page; None when it has none (a nav target
            outside the spine).
        line_number (int | None): its 1-based line in a plain-text book, else None.
        message (str): the same as one sentence, what ``outline --explain`` prints.
    """

    source: str
    line: str
    reason: str
    page: int | None
    message: str
    line_number: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Diagnostics:
    """Facts about how a book was read; never verdicts (callers decide what is a failure).

    ``structure_signals`` counts the chapter-level headings each signal (``SIGNALS``) supports;
    ``structure_disagreements`` lists where signals disagree (``Disagreement`` records, at most
    ``MAX_LISTED``; ``structure_disagreements_omitted`` counts the rest); ``structure_rejected``
    the candidates the detectors considered and did not accept, with why (``Rejected``, same cap,
    ``structure_rejected_omitted``). The manifest holds them as objects (``to_dict``).
    """

    pages: int = 0
    empty_pages: int = 0
    pages_without_text_layer: int = 0
    removed_header_lines: int = 0
    removed_footer_lines: int = 0
    removed_page_numbers: int = 0
    dehyphenated_words: int = 0
    ligatures_expanded: int = 0
    accents_composed: int = 0
    """Spacing accents composed with their letter (``¨o`` → ``ö``, ``chunking.normalise``)."""
    encoding_repaired_lines: int = 0
    """Lines that were UTF-8 read as a single-byte encoding, decoded again (``chunking.normalise.mojibake``)."""
    control_chars_removed: int = 0
    page_labels: str = "none"
    """Where ``Page.label`` comes from: ``source`` (the PDF's /PageLabels or the EPUB page-list),
    ``inferred`` (the printed folios found in the page furniture, ``chunking.normalise.folios``) or ``none``."""
    page_labels_inferred: int = 0
    """Pages whose label is an inferred printed folio."""
    structure_source: str = "none"
    outline_entries: int = 0
    outline_entries_dropped: int = 0
    outline_entries_repaired: int = 0
    headings_per_level: dict[str, int] = field(default_factory=dict)
    structure_signals: dict[str, int] = field(default_factory=dict)
    structure_disagreements: list[Disagreement] = field(default_factory=list)
    structure_disagreements_omitted: int = 0
    structure_rejected: list[Rejected] = field(default_factory=list)
    structure_rejected_omitted: int = 0
    titles_capped: int = 0
    """Book and heading titles shortened to ``ingest.MAX_TITLE_CHARS`` in the metadata."""
    labels_capped: int = 0
    """Page labels shortened to ``ingest.MAX_LABEL_CHARS``."""
    ocr_pages: list[dict[str, Any]] = field(default_factory=list)
    """The pages whose text was read by OCR, in order: ``{"page": 1-based number,
    "mean_confidence": Tesseract's mean word confidence 0-100, "words": words found}``."""
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["structure_disagreements"] = [d.to_dict() for d in self.structure_disagreements]
        out["structure_rejected"] = [r.to_dict() for r in self.structure_rejected]
        return out


@dataclass(frozen=True)
class Book:
    """A book read once: canonical text, pages mapped onto it, structure and diagnostics.

    Attributes:
        book_id (str): deterministic id, the first 16 hex digits of ``sha256``.
        sha256 (str): sha256 of the source file's bytes.
        title (str): from the PDF/EPUB metadata, else the file name stem.
        format (str): ``pdf``, ``epub``, ``txt`` or ``md``.
        text (str): the canonical text (see the module docstring).
        pages (tuple[Page, ...]): every page in order, including empty ones.
        headings (tuple[Heading, ...]): structure in book order (ascending ``char_offset``).
        diagnostics (Diagnostics): what reading and normalising did.
        source_name (str): the file name the book was read from.
        corrections (str): the digest (16 hex digits) of the structure-file corrections applied
            to ``headings`` (``chunking.structure_file.apply_corrections`` sets it), ``""`` for
            none. Chunk ids are salted with it (``chunking.ids.id_salt``), so a corrected book's
            chunks never share ids with the uncorrected book's.
    """

    book_id: str
    sha256: str
    title: str
    format: str
    text: str
    pages: tuple[Page, ...]
    headings: tuple[Heading, ...]
    diagnostics: Diagnostics
    source_name: str = ""
    corrections: str = ""


@dataclass(frozen=True)
class Chunk:
    """One chunk: a span of the canonical text with its full provenance.

    ``text == book.text[char_start:char_end]`` and ``token_count == token_end - token_start``
    (tokens of the canonical stream). ``chapter``/``section`` are titles (``""`` when the span
    lies outside any), ``heading_path`` the enclosing titles outermost first.
    ``overlap_prev_tokens`` is how many of this chunk's first tokens the previous chunk also
    holds; ``end_reason`` is one of ``END_REASONS``. ``matter`` is where the chunk sits in the
    book (``chunking.matter.MATTERS``: ``front``, ``contents``, ``body``, ``back``, ``index``);
    ``""`` only in a chunk file written before the field existed.
    ``prev_id``, ``next_id`` and ``section_id``
    link the chunk to its neighbours and its section span (``chunking.links``).
    ``ocr`` is True when any of its text was
    read by OCR (a page of its span is ``Page.ocr``).
    """

    id: str
    book_id: str
    order: int
    text: str
    chapter: str
    section: str
    heading_path: tuple[str, ...]
    page_start: int
    page_end: int
    page_label_start: str
    page_label_end: str
    token_start: int
    token_end: int
    token_count: int
    char_start: int
    char_end: int
    overlap_prev_tokens: int
    end_reason: str
    matter: str = ""
    prev_id: str = ""
    next_id: str = ""
    section_id: str = ""
    ocr: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Return the exported record: exactly the fields above, ``heading_path`` as a list."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["heading_path"] = list(self.heading_path)
        return out


CHUNK_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Chunk))
"""Column order of every export (JSONL keys, CSV header, Parquet schema)."""

LINK_FIELDS = ("prev_id", "next_id", "section_id")
"""The link fields (``chunking.links``); a chunk file written before them reads back with ``""``."""
