"""Chunks that cross a true chapter start (issue 22): the structure bench's other half.

A wrong structure costs retrieval in one way above all: a chunk that holds the end of one chapter
and the start of the next carries one chapter's name for another's text. This bench chunks every
bench book with the default policy (``run_book(path, Policy())``) and counts, per book, the true
chapter-level starts that some chunk crosses: the starts ``score.py`` asks for (``RECALLED_KINDS``)
in the ground truth of ``../shared/corpus``, ``bench/extra-books``, ``bench/validation-books`` and
the sample books (the same sets and split as ``bench/structure.py``).

**Where a true start is** (from the ground truth and the book, never from the tool's structure):
the entry's title, searched word by word (case and punctuation aside; a line that is the title, after a short
label, before a mention inside a line (in a text book, whose truth names the line, only a mention on or next to that line); letter by letter where a page sets it letter-spaced) in the canonical text of the
page the entry names (PDF: ``start_page``, and of several title lines there the one set in the
largest type, read from the file's spans; text, Markdown and markup sources: the synthetic page holding the line
``#L<n>`` of the file, and of several title lines there the one nearest that line; EPUB: the pages of the spine document ``href`` names, and with a
``#fragment`` the words from that anchor on: the title and the start of its text), and the page after
it (a title at the foot of a page). Not found there: the page's start when the entry says it
opens a page (PDF, not ``starts_mid_page``; an EPUB document without a fragment), else the entry
is counted as *unlocated* and not checked.

**A crossing**: a chunk ``[char_start, char_end)`` with ``char_start < t < char_end`` holding more
than ``SLACK_CHARS`` non-space characters on each side of ``t``: text of both chapters. A chunk
with less on one side only carries or trims a heading's own lines (a label line such as
``CHAPTER 5.`` above the title, a running header), which the locator and the engine may place a
line apart.

Usage: ``python bench/crossings.py [--set tuning|validation|all] [--no-write]``; writes its table
into ``bench/STRUCTURE.md`` between the ``crossings`` markers.
"""

from __future__ import annotations

import argparse
import re
import sys
import zipfile
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path, PurePath, PurePosixPath

import corpus
import lxml.etree
import lxml.html
import pymupdf

from chunking.models import Book, Chunk
from chunking.pipeline import run_book
from chunking.policy import Policy
from chunking.readers.markup import markup_source
from chunking.readers.text import cut_pages, decode_text
from chunking.rules import FENCE_KINDS

HERE = Path(__file__).resolve().parent
OUT = HERE / "STRUCTURE.md"
MARK_START, MARK_END = "<!-- crossings -->", "<!-- /crossings -->"

TEXT_FORMATS = ("txt", "md", "rst", "org", "xml", "sgml", "tex", "texi")
"""Ground-truth formats of books read as text (a Markdown, reStructuredText, Org, markup,
SGML/XML, LaTeX or Texinfo source): their entries name the heading's line (``#L<n>``)."""

SLACK_CHARS = 200
"""Text on one side of a true start that a chunk may hold and not cross it: the engine's own
tolerance for "the same heading" (``chunking.structure.evidence.MATCH_CHARS``), which covers a
label line and a running header about the title."""

LABEL_CHARS = 16
"""A heading line opens with its title or with a short label before it (``Chapter 12.``, ``A.3``),
its indent aside (a centred title); a title further into a line is a mention (``see Getting-help``)."""

ANCHOR_WORDS = 16
"""Words read from an EPUB entry's anchor on, to find it (title and the start of its text)."""

MENTION_LINES = 3
"""In a text book, a title inside a line (markup around it) is the start only this near the line
the truth names: the reader's page may hold a line or two less than the file (a dropped rule)."""

TAIL_CHARS = 4
"""After its title a heading line holds at most this much (a page number): ``run <arguments>``
is code that opens with the word, not the heading ``Plot``."""

RECALLED_KINDS = ("part", "chapter", "front")
"""Outside PDFs, the entries ``score.py`` counts for recall; in a PDF, the entries on its
``chapter_start_pages``. The true starts checked are the ones the F1 asks the engine to find."""

_LINE_REF = re.compile(r"#L(\d+)$")


@dataclass(frozen=True)
class Start:
    """A true chapter-level start: its title and offset in ``Book.text`` (None: unlocated)."""

    title: str
    kind: str
    offset: int | None


_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
"""Han and kana: scripts that set no space between words, so a title there has no word boundary
at its edge (``第一章模板功能介绍`` holds the title ``模板功能介绍``)."""


def _title_pattern(title: str) -> re.Pattern[str] | None:
    words = re.findall(r"[^\W_]+", title)
    if not words:
        return None
    before = "" if _UNSPACED.match(words[0][0]) else r"(?<![^\W_])"
    after = "" if _UNSPACED.match(words[-1][-1]) else r"(?![^\W_])"
    return re.compile(before + r"[\W_]+".join(map(re.escape, words)) + after, re.I)


def _glued_pattern(title: str) -> re.Pattern[str]:
    """The title's words with no word boundary asked at its edges: a text extractor glues a heading
    to the block after it, and troff or TeX markup sits right against its first word."""
    return re.compile(r"[\W_]+".join(map(re.escape, re.findall(r"[^\W_]+", title))), re.I)


def _spaced_pattern(title: str) -> re.Pattern[str] | None:
    """The title set letter-spaced (``M AT H T E S T``: small capitals tracked out, the spaces
    between its words lost): its letters in order, any whitespace between them."""
    letters = re.findall(r"[^\W_]", title)
    if len(letters) < 4:
        return None
    return re.compile(r"(?<![^\W_])" + r"\s*".join(map(re.escape, letters)) + r"(?![^\W_])", re.I)


def _find(
    book: Book,
    pages: list[int],
    title: str,
    near_line: int | None = None,
    pdf: pymupdf.Document | None = None,
) -> int | None:
    """The first offset of ``title`` on ``pages`` (0-based indexes) and the page after the last:
    a line that is the title on the pages, else the title set letter-spaced there, else a title
    line on the page after, else the first mention. With ``near_line`` (a text book, where the
    ground truth names the line), the title on that very line (a heading in link markup,
    ``[16 Title](#id)``, is no bare title line), else of several title lines on the page the one
    nearest that line of the page (a list of topics may repeat a title above its heading), and a
    mention only on that line or within ``MENTION_LINES`` of it (a source's ``\\tableofcontents``
    line holds no title, and ``contents of the`` in prose further down is no start); on that line,
    or the next one under a markup request that opens the heading (troff's ``.NH 2``), the title
    glued to markup or to the next block counts too (``_glued_pattern``). With ``pdf``
    (the book's file), of several title lines on the page the one set largest (``_largest``)."""
    pattern = _title_pattern(title)
    if pattern is None or not pages:
        return None
    first = book.pages[pages[0]]
    last = book.pages[min(pages[-1] + 1, len(book.pages) - 1)]
    found = list(pattern.finditer(book.text, first.char_start, last.char_end))
    own_end = book.pages[pages[-1]].char_end
    own = [m for m in found if m.start() < own_end]
    if near_line is not None:
        named = [m for m in own if _line_of(book, pages[0], m) == near_line]
        if not named:
            glued = _glued_pattern(title).finditer(book.text, first.char_start, own_end)
            named = [m for m in glued if 0 <= _line_of(book, pages[0], m) - near_line <= 1]
        if named:
            return named[0].start()
        lines = [m for m in own if _title_line(book, [m]) is not None]
        if lines:
            return min(lines, key=lambda m: abs(_line_of(book, pages[0], m) - near_line)).start()
    if pdf is not None and len(pages) == 1:
        lines = [m for m in own if _title_line(book, [m]) is not None]
        largest = _largest(pdf, pages[0], pattern, lines) if len(lines) > 1 else None
        if largest is not None:
            return largest
    hit = _title_line(book, own)
    spaced = _spaced_pattern(title)
    if hit is None and spaced is not None:
        hit = _title_line(book, list(spaced.finditer(book.text, first.char_start, own_end)))
    if hit is None:
        hit = _title_line(book, found)
    if hit is None and near_line is not None:
        # NOTE: the truth names the line: the title inside a line of markup (``<title>…</title>``,
        # ``****** 1 – Title ******``) on it is the start; a mention lines away is none.
        near = [m for m in own if abs(_line_of(book, pages[0], m) - near_line) <= MENTION_LINES]
        return min(near, key=lambda m: abs(_line_of(book, pages[0], m) - near_line)).start() if near else None
    return hit if hit is not None else (found[0].start() if found else None)


def _line_of(book: Book, page: int, m: re.Match[str]) -> int:
    """The line of the page ``page`` (0-based, its first line 0) that the match ``m`` stands on."""
    return book.text.count("\n", book.pages[page].char_start, m.start())


def _title_line(book: Book, matches: list[re.Match[str]]) -> int | None:
    """The first match that is a line of its own (after a short label): the heading. A closing
    run of ``=`` or ``#`` (a wiki's, AsciiDoc's or Markdown's closed heading) is no tail."""
    for m in matches:
        line_start = book.text.rfind("\n", 0, m.start()) + 1
        line_end = book.text.find("\n", m.end())
        if _heads_line(book.text, line_start, m, line_end if line_end >= 0 else len(book.text)):
            return m.start()
    return None


def _heads_line(text: str, line_start: int, m: re.Match[str], line_end: int) -> bool:
    """Whether the match ``m`` of a title in ``text`` is the line from ``line_start`` to
    ``line_end``: after at most a short label, before at most a short tail."""
    rest = text[m.end() : line_end].strip().rstrip("=#").strip()
    return len(text[line_start : m.start()].strip()) <= LABEL_CHARS and len(rest) <= TAIL_CHARS


def _largest(
    pdf: pymupdf.Document, index: int, pattern: re.Pattern[str], lines: list[re.Match[str]]
) -> int | None:
    """Of several title lines on PDF page ``index`` (canonical-text matches, in order), the one
    set in the largest type: a running header or a forward reference repeats a chapter's title on
    the page where it opens, in smaller type than the heading. The page's own title lines are read from
    the file (PyMuPDF spans, not this project's structure) and paired with the matches in order;
    None when their counts differ or no size stands out."""
    sizes = []
    for block in pdf[index].get_text("dict", flags=0)["blocks"]:
        for line in block.get("lines", ()):
            text = "".join(span["text"] for span in line["spans"])
            m = pattern.search(text)
            if m and _heads_line(text, 0, m, len(text)):
                sizes.append(max(span["size"] for span in line["spans"]))
    if len(sizes) != len(lines) or max(sizes) - min(sizes) < 0.5:
        return None
    return lines[sizes.index(max(sizes))].start()


def _text_page(data: bytes, name: str, line: int) -> tuple[int, int]:
    """The synthetic page (0-based) holding line ``line`` (1-based) of a text file, as the reader
    cuts it (from a LyX document's rendering, which keeps the file's lines), and that line's
    index among the page's lines."""
    text, _ = decode_text(data, name)
    if not name.lower().endswith(".md"):
        text = markup_source(text, PurePath(name).suffix.lower())[0]
    offset = 0
    for _ in range(line - 1):
        nl = text.find("\n", offset)
        if nl < 0:
            break
        offset = nl + 1
    spans = cut_pages(text)
    page = max(0, sum(1 for s, _ in spans if s <= offset) - 1)
    start = spans[page][0] if spans else 0
    return page, text.count("\n", start, offset)


def true_starts(book: Book, gt: dict, path: Path) -> list[Start]:
    """Every chapter-level entry of ``gt`` with where it starts in ``book`` (module docstring)."""
    out: list[Start] = []
    fmt = gt["format"]
    data = path.read_bytes() if fmt in TEXT_FORMATS else b""
    pdf_starts = set(gt.get("chapter_start_pages") or ())
    pdf = pymupdf.open(path) if fmt == "pdf" else None
    for entry in gt["entries"]:
        kind, title = entry.get("kind", ""), entry.get("title", "")
        if kind not in FENCE_KINDS or (fmt == "pdf" and entry.get("start_page") not in pdf_starts):
            continue
        if fmt != "pdf" and kind not in RECALLED_KINDS:
            continue
        offset: int | None = None
        if fmt == "pdf" and entry.get("start_page"):
            index = entry["start_page"] - 1
            if index < len(book.pages):
                offset = _find(book, [index], title, pdf=pdf)
                if offset is None and not entry.get("starts_mid_page"):
                    offset = book.pages[index].char_start
        elif fmt in TEXT_FORMATS and entry.get("href"):
            m = _LINE_REF.search(entry["href"])
            if m:
                index, line = _text_page(data, path.name, int(m.group(1)))
                offset = _find(book, [index], title, line)
        elif fmt == "epub" and entry.get("href"):
            doc, _, fragment = entry["href"].partition("#")
            pages = [i for i, p in enumerate(book.pages) if p.source_doc and _same_doc(p.source_doc, doc)]
            context = _anchor_words(path, doc, fragment) if fragment else []
            offset = _find(book, pages, " ".join(context)) if context else None
            if offset is None:
                offset = _find(book, pages, title)
            if offset is None and pages and not fragment:
                offset = book.pages[pages[0]].char_start
        out.append(Start(title, kind, offset))
    if pdf is not None:
        pdf.close()
    return out


def _anchor_words(path: Path, doc: str, fragment: str) -> list[str]:
    """The first ``ANCHOR_WORDS`` words of the EPUB document ``doc`` from the element whose id is
    ``fragment`` on: the heading with the start of its text, unique where the title alone is not
    (a one-document book lists its chapter titles in its opening pages too)."""
    try:
        with zipfile.ZipFile(path) as z:
            name = next((n for n in z.namelist() if _same_doc(n, doc)), None)
            if name is None:
                return []
            tree = lxml.html.fromstring(z.read(name))
    except (OSError, zipfile.BadZipFile, lxml.etree.ParserError):
        return []
    found = tree.xpath("//*[@id=$id]", id=fragment)
    if not found:
        return []
    words = re.findall(r"[^\W_]+", found[0].text_content())
    if len(words) < ANCHOR_WORDS:
        words += re.findall(r"[^\W_]+", " ".join(found[0].xpath("following::text()")[:40]))
    return words[:ANCHOR_WORDS]


def _same_doc(source_doc: str, href: str) -> bool:
    a, b = PurePosixPath(source_doc).parts, PurePosixPath(href).parts
    n = min(len(a), len(b))
    return n > 0 and a[-n:] == b[-n:]


def crossings(book: Book, chunks: list[Chunk], starts: list[Start]) -> list[tuple[Start, Chunk]]:
    """The true starts some chunk crosses, with the first chunk that does."""
    out = []
    for start in starts:
        t = start.offset
        if t is None:
            continue
        for chunk in chunks:
            if chunk.char_start < t < chunk.char_end:
                before, after = book.text[chunk.char_start : t], book.text[t : chunk.char_end]
                if min(len("".join(before.split())), len("".join(after.split()))) > SLACK_CHARS:
                    out.append((start, chunk))
                    break
    return out


def check_book(item: tuple[str, str, str, dict, str]) -> dict:
    """One bench book: counts of true starts, unlocated ones and crossings, and the first few."""
    name, stem, path_s, gt, split = item
    path = Path(path_s)
    if not path.exists():
        return {"stem": stem, "set": name, "split": split, "error": "not fetched"}
    run = run_book(path, Policy())
    starts = true_starts(run.book, gt, path)
    crossed = crossings(run.book, run.chunks, starts)
    return {
        "stem": stem,
        "file": gt["file"],
        "set": name,
        "split": split,
        "family": corpus.family_of(stem, gt),
        "starts": len(starts),
        "unlocated": sum(s.offset is None for s in starts),
        "crossed": len(crossed),
        "examples": [
            f"{s.title[:50]} (p. {c.page_start}–{c.page_end}, chunk {c.order})" for s, c in crossed[:3]
        ],
    }


def bench_books() -> list[tuple[str, str, str, dict, str]]:
    """``(set, stem, path, ground truth, split)`` of every bench book, fetched into the cache."""
    folders = {
        "sample": (corpus.SAMPLES, corpus.sample_truths()),
        "corpus": (_fetched(corpus.fetch_corpus), corpus.truths(corpus.CORPUS_GT)),
        "extra": (_fetched(corpus.fetch_extra), corpus.truths(corpus.EXTRA_GT)),
        "validation-books": (_fetched(corpus.fetch_validation), corpus.truths(corpus.VALIDATION_GT)),
    }
    out = []
    for name, (folder, gts) in folders.items():
        for stem, gt in sorted(gts.items()):
            split = corpus.split_of(corpus.family_of(stem, gt))
            out.append((name, stem, str(folder / gt["file"]), gt, split))
    return out


def _fetched(fetch) -> Path:
    try:
        return fetch()
    except corpus.ChecksumChanged as e:
        print(f"warning: {e}", file=sys.stderr)
        return e.folder


def table(rows: list[dict], heading: str) -> str:
    lines = [
        f"### {heading}",
        "",
        "| book | set | family | true starts | unlocated | crossed | first crossed |",
        "|---|---|---|---:|---:|---:|---|",
    ]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['stem']} | {r['set']} | – | – | – | – | {r['error']} |")
            continue
        mark = f"**{r['crossed']}**" if r["crossed"] else "0"
        lines.append(
            f"| {r['file']} | {r['set']} | {r['family']} | {r['starts']} | {r['unlocated']} | {mark} |"
            f" {'; '.join(r['examples'])} |"
        )
    done = [r for r in rows if "error" not in r]
    crossed = sum(r["crossed"] for r in done)
    books = sum(1 for r in done if r["crossed"])
    checked = sum(r["starts"] - r["unlocated"] for r in done)
    lines += [
        "",
        f"{crossed} of {checked} located true starts crossed, in {books} of {len(done)} books"
        f" ({sum(r['unlocated'] for r in done)} unlocated).",
        "",
    ]
    return "\n".join(lines)


def write_block(block: str) -> None:
    text = OUT.read_text(encoding="utf-8")
    section = f"{MARK_START}\n{block}\n{MARK_END}"
    if MARK_START in text:
        head, rest = text.split(MARK_START, 1)
        text = head + section + rest.split(MARK_END, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    OUT.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=("tuning", "validation", "all"), default="all")
    parser.add_argument("--workers", type=int, default=2, help="processes (books run in parallel)")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args(argv)
    items = [b for b in bench_books() if args.set == "all" or b[4] == args.set]
    with ProcessPoolExecutor(args.workers) as pool:
        rows = list(pool.map(check_book, items))
    blocks = [
        "## Chunks that cross a true chapter start (`python bench/crossings.py`, default policy)",
        "",
        *(para.replace("\n", " ") for para in (__doc__ or "").split("\n\n")[2:4]),
        "",
    ]
    for split, heading in (("tuning", "Tuning set"), ("validation", "Validation set")):
        part = [r for r in rows if r["split"] == split]
        if part:
            blocks.append(table(part, heading))
    block = "\n".join(blocks)
    print(block)
    if not args.no_write:
        write_block(block)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
