"""Print the plain outline baseline of one book as ``outline``-style JSON lines.

``python bench/outline_baseline.py BOOK``: one JSON object per chapter-level entry of
``chunking.structure.baseline.outline_baseline`` over the outline as the engine's guard reads it
(``chunking.structure.outline_runs.as_set``) (keys ``level``, ``kind``, ``title``, ``page``),
so that ``../shared/corpus/score.py`` scores the outline alone exactly as it scores the engine.
A book without an outline prints nothing (it scores 0: there is no baseline to keep).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from chunking.normalise import normalise
from chunking.readers import read_raw
from chunking.structure.baseline import outline_baseline
from chunking.structure.outline_runs import as_set


def baseline_lines(path: Path) -> list[dict]:
    """The baseline's chapter-level entries of the book at ``path``, as outline dicts."""
    raw = read_raw(path.read_bytes(), path.name)
    try:
        # NOTE: the outline as the engine's guard reads it (``as_set``: a PDF's styled runs of
        # one heading joined, a destination past its page's text on the next page)
        outline = (
            as_set(raw, normalise(raw.pages)).entries if raw.format == "pdf" and raw.outline else raw.outline
        )
        entries = outline_baseline(outline, len(raw.pages))
    finally:
        raw.close()
    return [
        {"level": 1 if e.kind == "part" else 2, "kind": e.kind, "title": e.title, "page": e.page + 1}
        for e in entries
        if e.chapter_level
    ]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: outline_baseline.py BOOK", file=sys.stderr)
        return 2
    for line in baseline_lines(Path(args[0])):
        print(json.dumps(line))
    return 0


if __name__ == "__main__":
    sys.exit(main())
