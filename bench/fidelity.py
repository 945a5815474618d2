"""Text fidelity (issue 25): how many of a PDF's words the canonical text loses or invents,
measured against an independent extractor, poppler's ``pdftotext``.

Run: ``python bench/fidelity.py [PDF ...]`` (default: every bench PDF: the samples, the corpus, the
extra and the validation books, from the cache ``bench/corpus.py`` fetches into); writes the table
to stdout, ``--write`` rewrites ``bench/FIDELITY.md``. Needs ``pdftotext`` (``make poppler``).

Method, per page, the same for both texts:

* **furniture by position, not by our rules** (``edge_furniture``): among the first and last
  ``EDGE_LINES`` lines of every page, a line whose digits-blind key repeats on at least
  ``max(3, 5 %)`` of the pages, or a bare page number, is furniture; both texts drop it.
* words are runs of letters and digits (``WORD``), NFC; the page's word multisets are compared:
  **lost** = in pdftotext's page, not in ours; **invented** = in ours, not in pdftotext's.
* each difference is given a cause where one is known (``classify``): ``dehyphenation``
  (``hyphen-`` / ``ated`` joined), ``accent`` (``Br¨oker`` read as ``Br`` ``oker``), ``ligature``
  (``ﬁ`` expanded), ``de-duplication`` (a fake-bold ``TTiittllee``), ``furniture`` (a line our own
  rules removed as a running header, footer or folio), ``spacing`` (the same letters with other
  word boundaries: a footnote mark glued to the next word, ``LATEX2ε`` as one word or two),
  ``reference`` (a page pdftotext itself could not read whole: it reports a syntax error in the
  page's content and stops there, ``reference_failures``); the rest is ``unknown``.
* **lost** and **invented** count every cause but ``reference``: where the reference extractor
  broke off, a word it lacks is its own loss, not one we invented (``xotcl-tutorial``'s pages
  write numbers as ``3.05176e-05``, which is no PDF number; poppler stops the page at the first,
  MuPDF skips the token and reads on).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import unicodedata
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from chunking.normalise import LIGATURES  # noqa: E402  (the ligatures we expand, the same table)

EDGE_LINES = 2
"""Lines at the top and at the bottom of a page that may be furniture."""
WORD = re.compile(r"[^\W_]+")
CAUSES = (
    "furniture",
    "dehyphenation",
    "ligature",
    "accent",
    "de-duplication",
    "spacing",
    "reference",
    "unknown",
)
UNMEASURED = ("reference",)
"""Causes whose words the headline lost/invented shares leave out: the reference did not read them."""
_SYNTAX_ERROR = b"Syntax Error"
_FOLIO = re.compile(r"^(?:\d{1,4}|[ivxlcdm]{1,7})$", re.I)
PDFTOTEXT_TIMEOUT_S = 300


def _key(line: str) -> str:
    return re.sub(r"\d+", "#", " ".join(line.casefold().split()))


def _edges(lines: list[str]) -> list[int]:
    kept = [i for i, line in enumerate(lines) if line.strip()]
    return sorted(set(kept[:EDGE_LINES] + kept[-EDGE_LINES:]))


def edge_furniture(*books: list[list[str]]) -> set[str]:
    """Keys of the lines that repeat at the top or bottom of pages, over every given text of the
    same book (pdftotext's and ours: a line is furniture for both or for neither)."""
    seen: Counter = Counter()
    n_pages = 0
    for pages in books:
        n_pages = max(n_pages, len(pages))
        for lines in pages:
            seen.update({_key(lines[i]) for i in _edges(lines)})
    floor = max(3, round(0.05 * n_pages)) * len(books)
    return {k for k, n in seen.items() if n >= floor}


def drop_furniture(lines: list[str], furniture: set[str]) -> list[str]:
    """``lines`` without the edge lines that are furniture or a bare page number."""
    gone = {i for i in _edges(lines) if _key(lines[i]) in furniture or _FOLIO.match(lines[i].strip())}
    return [line for i, line in enumerate(lines) if i not in gone]


def words(lines: list[str]) -> list[tuple[str, bool]]:
    """The words of ``lines`` in order, each with whether it ends its line with a hyphen."""
    out = []
    for line in lines:
        line = unicodedata.normalize("NFC", line)
        found = list(WORD.finditer(line))
        for k, m in enumerate(found):
            last = k == len(found) - 1
            out.append(
                (m.group(0), last and line.rstrip().endswith("-") and m.end() == len(line.rstrip()) - 1)
            )
    return out


def _bare(word: str) -> str:
    """A word without its accents (combining marks) and with ligatures expanded."""
    decomposed = unicodedata.normalize("NFD", "".join(LIGATURES.get(ch, ch) for ch in word))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


@dataclass
class Tally:
    """Words of one book: pdftotext's body words, and those lost or invented, by cause."""

    words: int = 0
    lost: Counter = field(default_factory=Counter)
    invented: Counter = field(default_factory=Counter)

    def add(self, other: Tally) -> None:
        self.words += other.words
        self.lost.update(other.lost)
        self.invented.update(other.invented)


def classify(
    reference: list[list[str]],
    ours: list[list[str]],
    our_furniture: list[list[str]],
    failed: Collection[int] = (),
) -> Tally:
    """Compare two texts of one book page by page and give each difference a cause.

    Args:
        reference: pdftotext's lines per page, furniture already dropped (``drop_furniture``).
        ours: our canonical lines per page, furniture dropped the same way.
        our_furniture: per page, the lines our normaliser removed as furniture.
        failed: 0-based pages pdftotext could not read whole (``reference_failures``): what
            differs there is counted under ``reference``, after the causes that explain it.
    """
    tally = Tally()
    ref_words = [words(page) for page in reference]
    lost = [Counter(w for w, _ in page) for page in ref_words]
    invented = []
    for p, page in enumerate(ours):
        mine = Counter(w for w, _ in words(page))
        lost[p] -= mine
        invented.append(mine - Counter(w for w, _ in ref_words[p]))
        tally.words += len(ref_words[p])
    for p in range(len(ours)):
        _joined_pieces(p, ref_words, lost, invented, tally)
        _single_words(p, lost, invented, ours, tally)
        furniture = (
            Counter(w for line in our_furniture[p] for w in WORD.findall(line))
            if p < len(our_furniture)
            else Counter()
        )
        for w, n in list(lost[p].items()):
            k = min(n, furniture[w])
            if k:
                tally.lost["furniture"] += k
                lost[p][w] -= k
        rest = "reference" if p in failed else "unknown"
        tally.lost[rest] += sum(lost[p].values())
        tally.invented[rest] += sum(invented[p].values())
    tally.lost, tally.invented = +tally.lost, +tally.invented  # no zero counts
    return tally


def _joined_pieces(p: int, ref_words, lost: list[Counter], invented: list[Counter], tally: Tally) -> None:
    """Invented words of page ``p`` that are two or three lost pieces of pdftotext's run joined:
    dehyphenation (the first piece ends its line with a hyphen; the second may open the next
    page), else an accent (a spacing accent split the word) or a ligature."""
    run = [(w, h, p) for w, h in ref_words[p]]
    if p + 1 < len(ref_words):
        run += [(w, h, p + 1) for w, h in ref_words[p + 1][:1]]
    for n in (2, 3):
        for i in range(len(run) - n + 1):
            pieces = run[i : i + n]
            need = Counter((w, q) for w, _, q in pieces)
            if any(lost[q][w] < k for (w, q), k in need.items()):
                continue
            joined = "".join(w for w, _, _ in pieces)
            for target in invented[p]:
                if invented[p][target] <= 0:
                    continue
                if joined == target and pieces[0][1] and n == 2:
                    cause = "dehyphenation"
                elif joined == target and all(q == p for _, _, q in pieces):
                    cause = "spacing"
                elif _bare(joined) == _bare(target) and joined != target and _bare(target) != target:
                    cause = "accent" if unicodedata.normalize("NFD", target) != target else "ligature"
                elif "".join(LIGATURES.get(c, c) for c in joined) == target and joined != target:
                    cause = "ligature"
                else:
                    continue
                for (w, q), k in need.items():
                    lost[q][w] -= k
                invented[p][target] -= 1
                tally.lost[cause] += n
                tally.invented[cause] += 1
                break


def _single_words(
    p: int, lost: list[Counter], invented: list[Counter], ours: list[list[str]], tally: Tally
) -> None:
    """One lost word for one invented word of the same page: a ligature or an accent read
    differently; a lost fake-bold doubling (``TThhee``) of a word we have is de-duplication."""
    for w in list(lost[p]):
        for target in list(invented[p]):
            if lost[p][w] <= 0 or invented[p][target] <= 0 or _bare(w) != _bare(target):
                continue
            cause = "ligature" if any(c in LIGATURES for c in w + target) else "accent"
            k = min(lost[p][w], invented[p][target])
            lost[p][w] -= k
            invented[p][target] -= k
            tally.lost[cause] += k
            tally.invented[cause] += k
    mine = Counter(WORD.findall("\n".join(ours[p])))
    for w, n in list(lost[p].items()):
        if n > 0 and len(w) >= 4 and len(w) % 2 == 0 and w[::2] == w[1::2] and mine[w[::2]]:
            lost[p][w] = 0
            tally.lost["de-duplication"] += n


def pdftotext_pages(path: Path) -> tuple[list[list[str]], bytes]:
    """pdftotext's text of every page, as lines (pages split at form feeds), and its messages."""
    done = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(path), "-"],
        capture_output=True,
        timeout=PDFTOTEXT_TIMEOUT_S,
        check=True,
    )
    pages = done.stdout.decode("utf-8", "replace").split("\f")
    if pages and not pages[-1].strip():
        pages.pop()
    return [page.split("\n") for page in pages], done.stderr


def reference_failures(path: Path, pages: int, messages: bytes) -> set[int]:
    """0-based pages on which pdftotext reports a syntax error in the content (and so may have
    stopped reading the page). Its ``messages`` (stderr of the whole book's run) name a byte
    offset, not a page: only a book whose run reports one is read again page by page."""
    if _SYNTAX_ERROR not in messages:
        return set()
    failed = set()
    for index in range(pages):
        one = subprocess.run(
            ["pdftotext", "-f", str(index + 1), "-l", str(index + 1), str(path), "/dev/null"],
            capture_output=True,
            timeout=PDFTOTEXT_TIMEOUT_S,
            check=False,
        )
        if _SYNTAX_ERROR in one.stderr:
            failed.add(index)
    return failed


def measure(path: Path) -> tuple[Tally, list[str]]:
    """The fidelity tally of one PDF and our reader's warnings for it."""
    from chunking.normalise import normalise
    from chunking.readers import read_raw

    raw = read_raw(path.read_bytes(), path.name)
    try:
        norm = normalise(raw.pages)
        warnings = list(raw.warnings)
    finally:
        raw.close()
    ours = [norm.text[p.char_start : p.char_end].split("\n") for p in norm.pages]
    reference, messages = pdftotext_pages(path)
    if len(reference) != len(ours):
        raise RuntimeError(f"{path.name}: pdftotext gives {len(reference)} pages, we read {len(ours)}")
    raw_lines = [page.text.split("\n") for page in raw.pages]
    furniture = edge_furniture(reference, raw_lines)
    ref = [drop_furniture(lines, furniture) for lines in reference]
    mine = [drop_furniture(lines, furniture) for lines in ours]
    return classify(ref, mine, norm.furniture, reference_failures(path, len(reference), messages)), warnings


def bench_pdfs() -> list[Path]:
    """Every bench PDF: the sample books and the cached corpus, extra and validation books."""
    import corpus

    found = sorted(corpus.SAMPLES.glob("*.pdf"))
    for folder in ("corpus", "extra-books", "validation-books"):
        found += sorted((corpus.CACHE / folder).glob("*.pdf"))
    return found


def _share(n: int, total: int) -> str:
    return f"{100 * n / max(total, 1):.2f}%"


def table(rows: list[tuple[str, Tally]]) -> str:
    head = "| book | words | lost | invented | " + " | ".join(f"lost: {c}" for c in CAUSES) + " |"
    lines = [head, "|" + "---|" * (4 + len(CAUSES))]
    for name, t in rows:
        lost = sum(n for c, n in t.lost.items() if c not in UNMEASURED)
        inv = sum(n for c, n in t.invented.items() if c not in UNMEASURED)
        causes = " | ".join(f"{t.lost[c]}/{t.invented[c]}" for c in CAUSES)
        lines.append(f"| {name} | {t.words} | {_share(lost, t.words)} | {_share(inv, t.words)} | {causes} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pdfs", nargs="*", type=Path)
    parser.add_argument("--write", action="store_true", help="rewrite bench/FIDELITY.md's table")
    args = parser.parse_args(argv)
    if shutil.which("pdftotext") is None:
        print("fidelity: pdftotext not found; install poppler-utils (make poppler)", file=sys.stderr)
        return 2
    rows: list[tuple[str, Tally]] = []
    total = Tally()
    for path in args.pdfs or bench_pdfs():
        tally, warnings = measure(path)
        rows.append((path.name, tally))
        total.add(tally)
        for w in warnings:
            if "repaired" in w or "damaged" in w:
                print(f"{path.name}: {w}", file=sys.stderr)
    rows.append(("**all**", total))
    out = table(rows)
    print(out)
    if args.write:
        doc = HERE / "FIDELITY.md"
        text = doc.read_text(encoding="utf-8") if doc.exists() else ""
        start, end = "<!-- table -->\n", "\n<!-- /table -->"
        if start in text and end in text:
            text = text[: text.index(start) + len(start)] + out + text[text.index(end) :]
            doc.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
