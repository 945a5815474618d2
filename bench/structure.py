"""Structure bench (issue 10): chapter F1 on real books with verified chapter starts, and the cost.

``python bench/structure.py [--section now|before] [--corpus DIR] [--extra DIR] [--runs N]``

* fetches the development corpus with ``../shared/corpus/fetch.sh``, the books outside it with
  ``bench/extra-books/fetch.sh`` and the validation books with ``bench/fetch_books.py`` into a
  cache outside the repo (``bench/corpus.py``; ``--corpus``, ``--extra``, ``--validation`` or
  ``$BOOK_CHUNK_CACHE`` choose other folders), and scores every book with
  ``../shared/corpus/score.py`` twice: ``python -m chunking outline`` of this checkout (the engine)
  and ``bench/outline_baseline.py`` (the outline's plain reading, issue 22);
* reports two tables, the **tuning set** and the **validation set** (families never tuned on:
  ``bench/corpus.py``'s ``split_of``), each with the outline baseline beside the engine and the
  books where the engine is below it;
* per book: precision, recall, F1, the misses and false starts, and what was found (parts,
  chapter-level units, the levels chapters sit at); per set: the mean and the worst F1; for a book
  whose ground truth has ``expect`` (parts, chapter level) the bench says whether it holds;
* the cost: CPU time of ``chunking.structure.detect_structure(raw, norm, "auto")`` (this process's,
  and the page reader's that answers its layout questions: ``pdfchild.readers_cpu_s``) against PyMuPDF
  ``page.get_text()`` over every page of the same PDF in the same process (the floor), on the
  largest sample book and on the synthetic 2,000-page book (``bench/synthetic.py``); each figure
  is the minimum of ``--runs`` repetitions, interleaved, a fresh ``read_raw`` + ``normalise`` before
  each (untimed). Target: at most ``COST_TARGET`` × the floor.

It rewrites one block of ``bench/STRUCTURE.md``: ``now`` (default) or ``before`` (the baseline kept
for the before/after comparison), with the date and the git commit.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import pymupdf

import corpus
from synthetic import DEFAULT_PAGES, cached_book

HERE = Path(__file__).resolve().parent
ROOT = corpus.ROOT
OUT = HERE / "STRUCTURE.md"
COST_TARGET = 0.25
"""Issue 10: structure detection may cost at most this share of PyMuPDF get_text() of the same book."""
CHAPTER_LEVEL = {"part", "chapter", "appendix", "front", "back"}
UNICODE_NOTE = (
    "titles matched by score.py's rule with a key that keeps every script (its own keeps a-z0-9 only)"
)
LINE = re.compile(
    r"^(?P<file>\S+): F1 (?P<f1>[\d.]+) \(precision (?P<p>[\d.]+), recall (?P<r>[\d.]+)\)"
    r"(?:\s+(?P<notes>.*))?$"
)
TITLE = """# Structure bench (issues 10, 22)

Chapter-level F1 of `python -m chunking outline` on books with verified chapter starts, scored by
`../shared/corpus/score.py` (its rules: PDF by start page, everything else by title; front and back
matter count for precision), beside the F1 of the outline's plain reading
(`bench/outline_baseline.py`, "outline F1"; `–` when the book has no outline or nav), and the cost
of structure detection. Books are split by producer family (`bench/families.json`,
`bench/corpus.py`): the **tuning set** holds every book the structure work was tuned on and any
book of their families; the **validation set** holds families never tuned on (issue 22). Reproduce
with `.venv/bin/python bench/structure.py` (fetches the books into `~/.cache/book-chunk-inspector`;
a few minutes once the books are there, plus the cost runs). `--section before` wrote the block
measured at the commit before issue 22's work (the same bench and split run on that commit's
engine); the `now` block is rewritten on every run. How the ground truth was built:
`bench/extra-books/README.md`, `bench/validation-books/README.md`. A validation family whose book
was read for its failures becomes a tuning family from then on (`docbook-xsl/text` on 2026-12-01;
`context/pdf`, `sphinx/text` on 2026-12-02; `org/text`, `rst/text`, `linuxdoc/text`, `word/pdf` on
2026-12-06; each move and its reason is in `bench/families.json`); both blocks use the split as it
is now, so a moved book counts as tuning in both.
"""


def commit() -> str:
    """Short commit of this checkout, with ``+dirty`` when the work tree has changes."""

    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True).stdout.strip()

    sha = git("rev-parse", "--short", "HEAD")
    return (sha + ("+dirty" if git("status", "--porcelain", "--untracked-files=no") else "")) if sha else "?"


def score_set(books: Path, gt_dir: Path, work: Path, baseline: bool = False) -> list[dict]:
    """Run score.py on one set; return one row per book (scores, notes, headings found).

    With ``baseline`` the command scored is the outline's plain reading (``outline_baseline.py``)
    instead of ``python -m chunking outline``."""
    outlines = work / ("baseline" if baseline else "outlines")
    outlines.mkdir(parents=True, exist_ok=True)
    out = f"{outlines}/$(basename {{book}}).jsonl"
    program = (
        f"{sys.executable} {HERE / 'outline_baseline.py'}"
        if baseline
        else f"{sys.executable} -m chunking outline"
    )
    cmd = f'{program} {{book}} > "{out}" && cat "{out}"'
    proc = subprocess.run(
        [sys.executable, str(corpus.SCORE_PY), "--books", str(books), "--gt", str(gt_dir), "--cmd", cmd],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    gts = {gt["file"]: gt for gt in corpus.truths(gt_dir).values()}
    rows = []
    for line in proc.stdout.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        headings = _read_outline(outlines / f"{m['file']}.jsonl")
        rows.append(
            {
                "file": m["file"],
                "p": float(m["p"]),
                "r": float(m["r"]),
                "f1": float(m["f1"]),
                "notes": m["notes"] or "",
                "found": _found(headings),
                "gt": gts.get(m["file"], {}),
            }
        )
    if not rows:
        raise RuntimeError(f"score.py scored nothing in {books}: {proc.stdout[-400:]} {proc.stderr[-400:]}")
    scorer, unicode_scorer = corpus.load_scorer(), corpus.load_unicode_scorer()
    for row in rows:
        if corpus.needs_unicode_titles(row["gt"], scorer):
            got = _read_outline(outlines / f"{row['file']}.jsonl")
            p, r, missed, false = unicode_scorer.score_epub(row["gt"], got)
            notes = "; ".join(x for x in (missed, false) if x)
            row.update(p=p, r=r, f1=unicode_scorer.f1(p, r))
            row["notes"] = (notes + "; " if notes else "") + UNICODE_NOTE
    return rows


def _read_outline(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(ln) for ln in path.read_text(encoding="utf-8").splitlines() if ln.startswith("{")]


def _found(headings: list[dict]) -> dict:
    """Counts of what the detector reported: parts, chapter-level units, levels of chapters."""
    kinds = Counter(h.get("kind") for h in headings)
    return {
        "parts": kinds["part"],
        "chapter_level": sum(kinds[k] for k in CHAPTER_LEVEL - {"part"}),
        "chapter_levels": sorted({h.get("level") for h in headings if h.get("kind") == "chapter"}),
        "headings": len(headings),
    }


def _expect(row: dict) -> str:
    """Whether a ground truth's ``expect`` (parts, chapter level) holds, in words; "" when none."""
    want = row["gt"].get("expect")
    if not want:
        return ""
    f = row["found"]
    checks = [f"{f['chapter_level']} chapter-level units"]
    if "parts" in want:
        checks.append(f"parts {f['parts']} (want {want['parts']})")
    if "chapters" in want:
        checks.append(f"chapter-level units {f['chapter_level']} (want {want['chapters']})")
    if "chapter_level" in want:
        checks.append(f"chapters at level {f['chapter_levels'] or '-'} (want {want['chapter_level']})")
    held = f["parts"] == want.get("parts", f["parts"])
    if "chapters" in want:
        held = held and f["chapter_level"] == want["chapters"]
    if "chapter_level" in want:
        held = held and f["chapter_levels"] == [want["chapter_level"]]
    return f"{row['file']}: " + ", ".join(checks) + (" — **holds**" if held else " — **does not hold**")


def table(rows: list[dict], heading: str) -> str:
    """One split as Markdown: per book its set and family, P/R/F1 of the engine, the F1 of the
    outline's plain reading (``–`` when the book has no outline or nav), what was found, misses and
    false starts; then the mean and worst, and every book where the engine is below the outline."""
    lines = [
        f"### {heading}",
        "",
        "| book | set | family | P | R | F1 | outline F1 | found: parts / chapter-level / headings | misses and false starts |",
        "|---|---|---|---:|---:|---:|---:|---|---|",
    ]
    for row in rows:
        f = row["found"]
        notes = row["notes"].replace("|", "\\|")
        base = "–" if row.get("baseline") is None else f"{row['baseline']:.2f}"
        lines.append(
            f"| {row['file']} | {row['set']} | {row['family']} | {row['p']:.2f} | {row['r']:.2f} | **{row['f1']:.2f}** | "
            f"{base} | {f['parts']} / {f['chapter_level']} / {f['headings']} | {notes} |"
        )
    if not rows:
        return "\n".join(lines + ["", "No books."])
    mean = sum(r["f1"] for r in rows) / len(rows)
    worst = min(rows, key=lambda r: r["f1"])
    outlined = [r for r in rows if r.get("baseline") is not None]
    below = [r for r in outlined if r["f1"] < r["baseline"] - 1e-9]
    families = len({r["family"] for r in rows})
    lines += [
        "",
        f"Mean F1 **{mean:.2f}**, worst **{worst['f1']:.2f}** ({worst['file']}), {len(rows)} books, "
        f"{families} families. Books with an outline or nav: {len(outlined)}, engine below the outline "
        f"on **{len(below)}**" + (f" ({', '.join(r['file'] for r in below)})" if below else "") + ".",
    ]
    if outlined:
        b_mean = sum(r["baseline"] for r in outlined) / len(outlined)
        e_mean = sum(r["f1"] for r in outlined) / len(outlined)
        lines.append(f"On those books: engine mean F1 {e_mean:.2f}, outline alone {b_mean:.2f}.")
    expects = [e for e in (_expect(r) for r in rows) if e]
    if expects:
        lines += [""] + [f"- {e}" for e in expects]
    return "\n".join(lines)


def _timed(fn) -> tuple[float, float]:
    w0, c0 = time.perf_counter(), time.process_time()
    fn()
    return time.process_time() - c0, time.perf_counter() - w0


def cost(book: Path, runs: int) -> dict:
    """Min over ``runs`` of the CPU and wall time of detect_structure and of the get_text() floor."""
    from chunking.normalise import normalise
    from chunking.readers import read_raw
    from chunking.readers.pdfchild import readers_cpu_s
    from chunking.structure import detect_structure

    data = book.read_bytes()
    floor, detect = [], []
    for _ in range(runs):
        with pymupdf.open(book) as doc:
            floor.append(_timed(lambda: [page.get_text() for page in doc]))
        raw = read_raw(data, book.name)
        try:
            norm = normalise(raw.pages)
            readers = readers_cpu_s()
            cpu, wall = _timed(lambda: detect_structure(raw, norm, "auto"))
            detect.append((cpu + readers_cpu_s() - readers, wall))
        finally:
            raw.close()
    with pymupdf.open(book) as doc:
        pages = doc.page_count
    best = lambda xs, i: min(x[i] for x in xs)  # noqa: E731
    return {
        "book": book.name,
        "pages": pages,
        "floor_cpu": best(floor, 0),
        "floor_s": best(floor, 1),
        "detect_cpu": best(detect, 0),
        "detect_s": best(detect, 1),
    }


def cost_table(rows: list[dict], runs: int) -> str:
    lines = [
        "### Cost of structure detection",
        "",
        f'`detect_structure(raw, norm, "auto")` against PyMuPDF `page.get_text()` over all pages of '
        f"the same PDF, in one process; minimum of {runs} interleaved repetitions; ratios in CPU time "
        f"(wall beside). "
        f"Target: ≤ {COST_TARGET}× the floor.",
        "",
        "| book | pages | get_text() CPU s | detect_structure CPU s | ratio CPU | ratio wall | target |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for c in rows:
        ratio, wall = c["detect_cpu"] / c["floor_cpu"], c["detect_s"] / c["floor_s"]
        verdict = "**met**" if ratio <= COST_TARGET else "**NOT met**"
        lines.append(
            f"| {c['book']} | {c['pages']:,} | {c['floor_cpu']:.3f} | {c['detect_cpu']:.3f} | "
            f"**{ratio:.3f}×** | {wall:.3f}× | {verdict} |"
        )
    return "\n".join(lines)


def write_block(block: str, section: str, out: Path) -> None:
    """Replace the ``section`` block of ``out`` (the other block and the title are kept)."""
    start, end = f"<!-- structure:{section} -->", f"<!-- /structure:{section} -->"
    body = f"{start}\n{block}\n{end}"
    old = out.read_text(encoding="utf-8") if out.exists() else TITLE
    if start in old and end in old:
        head, rest = old.split(start, 1)
        new = head + body + rest.split(end, 1)[1]
    elif section == "before" and "<!-- structure:now -->" in old:
        head, rest = old.split("<!-- structure:now -->", 1)
        new = head + body + "\n\n<!-- structure:now -->" + rest
    else:
        new = old.rstrip("\n") + "\n\n" + body + "\n"
    out.write_text(new, encoding="utf-8")


def _fetched(fetch, dest: Path | None, log) -> Path:
    """The folder a fetcher filled; a book whose package changed under its ground truth is absent
    (score.py then scores it 0, and the log says why) rather than stopping the whole bench."""
    try:
        return fetch(dest)
    except corpus.ChecksumChanged as e:
        log(f"warning: {e}")
        return e.folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--section", choices=("now", "before"), default="now", help="which block to rewrite")
    parser.add_argument("--corpus", type=Path, default=None, help="corpus books folder (default: the cache)")
    parser.add_argument("--extra", type=Path, default=None, help="extra books folder (default: the cache)")
    parser.add_argument(
        "--validation", type=Path, default=None, help="validation books folder (default: the cache)"
    )
    parser.add_argument(
        "--runs", type=int, default=5, help="repetitions of each cost measurement (min is kept)"
    )
    parser.add_argument(
        "--pages", type=int, default=DEFAULT_PAGES, help="synthetic book pages for the cost (0: none)"
    )
    parser.add_argument("--no-cost", action="store_true", help="scores only")
    parser.add_argument("--out", type=Path, default=OUT, help="the Markdown file to update")
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument("--commit", default=None, help="commit to report (default: this checkout's)")
    args = parser.parse_args(argv)
    log = lambda msg: print(msg, file=sys.stderr, flush=True)  # noqa: E731
    log("fetching the corpus, the extra books and the validation books …")
    corpus_dir = _fetched(corpus.fetch_corpus, args.corpus, log)
    extra_dir = _fetched(corpus.fetch_extra, args.extra, log) if corpus.truths(corpus.EXTRA_GT) else None
    validation_dir = _fetched(corpus.fetch_validation, args.validation, log)
    rows: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="structure-bench-") as tmp:
        work = Path(tmp)
        samples_gt = corpus.write_truths(corpus.sample_truths(), work / "samples-gt")
        sets = (
            ("sample", corpus.SAMPLES, samples_gt),
            ("corpus", corpus_dir, corpus.CORPUS_GT),
            ("extra", extra_dir, corpus.EXTRA_GT),
            ("validation-books", validation_dir, corpus.VALIDATION_GT),
        )
        for label, books, gt in sets:
            if books is None:
                continue
            log(f"scoring: {label}")
            engine = score_set(books, gt, work / label)
            outline = {r["file"]: r for r in score_set(books, gt, work / label, baseline=True)}
            for row in engine:
                stem = Path(row["file"]).stem
                base = outline.get(row["file"])
                row["baseline"] = base["f1"] if base and base["found"]["headings"] else None
                row["set"] = label
                row["family"] = corpus.family_of(stem, row["gt"])
                row["split"] = corpus.split_of(row["family"])
                rows.append(row)
    sections = [
        table(
            [r for r in rows if r["split"] == "tuning"],
            "Tuning set (the books the structure work was tuned on, and books of their families)",
        ),
        table([r for r in rows if r["split"] == "validation"], "Validation set (families never tuned on)"),
    ]
    if not args.no_cost:
        largest = max(corpus.SAMPLES.glob("*.pdf"), key=lambda p: p.stat().st_size)
        books = [largest]
        if args.pages:
            log(f"synthetic book: {args.pages} pages …")
            books.append(cached_book(Path(tempfile.gettempdir()) / "book-chunk-bench", args.pages))
        costs = []
        for book in books:
            log(f"cost: {book.name}, {args.runs} runs")
            costs.append(cost(book, max(1, args.runs)))
        sections.append(cost_table(costs, max(1, args.runs)))
    title = "Before: the baseline, measured before the structure work" if args.section == "before" else "Now"
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    block = "\n\n".join([f"## {title} ({when}, commit {args.commit or commit()})", *sections])
    print(block)
    if not args.no_write:
        write_block(block, args.section, args.out)
        log(f"wrote {args.out} ({args.section})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
