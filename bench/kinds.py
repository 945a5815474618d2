"""Kinds and titles of the units the structure finds on bench PDFs (issue 22): what F1 leaves out.

``score.py`` scores a PDF by start page alone, so a unit found on the right page counts whatever
it is called and whatever kind it is given: twelve chapters reported as front matter, or an
appendix reported as a part, score 1.00. A unit's kind decides its chunks' ``matter`` (front,
body, back; ``--exclude-matter``), and its title is every chunk's ``chapter``. This bench reads
every bench PDF with a ground truth (the sets and split of ``bench/structure.py``), and for each
true chapter-level unit (``part``, ``chapter``, ``appendix``, ``front``, ``back``) with a start page
takes the engine's chapter-level units on that page:

* **kind agrees** when one of them has the unit's kind;
* **title agrees** when one of them has its title, as ``score.py`` compares titles (one may be the
  other plus more words) with every script's letters kept (``corpus._unicode_norm``).

Units whose page holds no engine unit are F1's misses and are not counted here.

Usage: ``python bench/kinds.py [--set tuning|validation|all] [--show N]`` prints, per split, the
units checked and the share whose kind and title agree, then the books with disagreements (up to
``N`` examples each).
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import corpus
from crossings import bench_books

from chunking.normalise import normalise
from chunking.readers import read_raw
from chunking.structure import detect_structure

UNIT_KINDS = frozenset({"part", "chapter", "appendix", "front", "back"})


def _same(a: str, b: str) -> bool:
    """score.py's title match: equal, or one is the other with more words before or after."""
    return bool(a and b) and (
        a == b or a.startswith(b + " ") or b.startswith(a + " ") or a.endswith(" " + b) or b.endswith(" " + a)
    )


def check_book(item: tuple[str, str, str, dict, str]) -> dict:
    """Kind and title agreement of one PDF's true units found on their pages."""
    name, stem, path, gt, split = item
    row: dict = {"stem": stem, "set": name, "split": split, "units": 0, "kind": 0, "title": 0, "examples": []}
    try:
        raw = read_raw(Path(path).read_bytes(), Path(path).name)
        try:
            found = [h for h in detect_structure(raw, normalise(raw.pages)).headings if h.kind in UNIT_KINDS]
        finally:
            raw.close()
    except Exception as exc:  # noqa: BLE001 - a bench row, not a crash: the book is named with why
        row["error"] = f"{type(exc).__name__}: {exc}"[:120]
        return row
    for entry in gt.get("entries", []):
        if entry.get("kind") not in UNIT_KINDS or not entry.get("start_page"):
            continue
        on_page = [h for h in found if h.page == entry["start_page"]]
        if not on_page:
            continue
        row["units"] += 1
        kind_ok = any(h.kind == entry["kind"] for h in on_page)
        want = corpus._unicode_norm(entry["title"])
        title_ok = any(_same(want, corpus._unicode_norm(h.title)) for h in on_page)
        row["kind"] += kind_ok
        row["title"] += title_ok
        if not (kind_ok and title_ok):
            got = ", ".join(f"{h.kind} '{h.title[:40]}'" for h in on_page)
            row["examples"].append(
                f"p. {entry['start_page']}: {entry['kind']} '{entry['title'][:40]}' → {got}"
            )
    return row


def _share(part: int, whole: int) -> str:
    return f"{part / whole:.1%}" if whole else "–"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=("tuning", "validation", "all"), default="all")
    parser.add_argument("--workers", type=int, default=2, help="processes (books run in parallel)")
    parser.add_argument("--show", type=int, default=3, help="disagreements shown per book")
    args = parser.parse_args(argv)
    items = [b for b in bench_books() if b[2].endswith(".pdf") and (args.set == "all" or b[4] == args.set)]
    with ProcessPoolExecutor(args.workers) as pool:
        rows = list(pool.map(check_book, items))
    for split in ("tuning", "validation"):
        part = [r for r in rows if r["split"] == split and "error" not in r]
        if not part:
            continue
        units = sum(r["units"] for r in part)
        kinds, titles = sum(r["kind"] for r in part), sum(r["title"] for r in part)
        print(
            f"{split}: {len(part)} PDFs, {units} true units found on their pages; kind agrees on "
            f"{kinds} ({_share(kinds, units)}), title on {titles} ({_share(titles, units)})"
        )
        for r in part:
            if r["examples"]:
                print(f"  {r['stem']}: {len(r['examples'])} of {r['units']}")
                for example in r["examples"][: args.show]:
                    print(f"    {example}")
    for r in rows:
        if "error" in r:
            print(f"error: {r['stem']}: {r['error']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
