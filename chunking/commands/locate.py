"""``python -m chunking locate BOOK --passage-file F [--policy …]… [--json]``: where a passage is from.

``F`` is a text file (``-`` reads standard input). Each ``--policy`` is ``key=value`` pairs as for
``compare``; without one the default policy is used. Prints the passage's exact span of the
canonical text, match score, pages and printed labels, chapter and section, and per policy the
chunks holding it, whether it straddles a chunk boundary and the sentence parts just outside
those chunks. With ``--json`` prints ``{"found", "score", "char_start", "char_end", "page_start",
"page_end", "page_label_start", "page_label_end", "chapter", "section", "chunks": [{"policy",
"ids", "straddles"}]}``. Exit 0 when found, 1 when the passage is not in the book.
"""

from __future__ import annotations

import json as jsonlib
import sys
from pathlib import Path

from ..errors import UsageError
from ..policy import Policy
from ..retrieval.locate import Location, SearchSpace, locate, match_chunks
from ..structure_file import load_optional
from ..analysis.compare import chunked_runs
from ..policy import parse_policies

NOT_FOUND = 1


def read_passage(passage_file: str) -> str:
    """Read the passage from a file, or from standard input for ``-``.

    Raises:
        UsageError: the file is missing, unreadable or not UTF-8 text.
    """
    try:
        return sys.stdin.read() if passage_file == "-" else Path(passage_file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(
            f"cannot read passage file {passage_file!r}: {type(exc).__name__}: "
            f"{getattr(exc, 'strerror', None) or exc}"
        ) from None


def run(
    *, book: str, passage_file: str, policy: list[str], json: bool, structure_file: str | None = None
) -> int:
    """Locate a passage in a book and report the chunks holding it per policy.

    Args:
        book (str): path of the book file.
        passage_file (str): file holding the passage (``-`` for standard input).
        policy (list[str]): policy specs; default policy when empty.
        json (bool): print JSON instead of text.

    Returns:
        int: 0 when the passage was found, 1 when it is not in the book.

    Raises:
        UsageError: unreadable passage file or a passage with no letters or digits.
        PolicyError: a policy spec is invalid.
        UnreadableInputError: the book cannot be read.
    """
    policies = parse_policies(policy, [Policy()])
    passage = read_passage(passage_file)
    runs = chunked_runs(book, policies, load_optional(structure_file))
    # NOTE: the structure source can change the canonical text, so each distinct book is searched
    # on its own; the reported location is the first policy's.
    spaces: dict[int, tuple[SearchSpace, Location]] = {}
    for r in runs:
        if id(r.book) not in spaces:
            space = SearchSpace.build(r.book)
            spaces[id(r.book)] = (space, locate(space, passage))
    space, loc = spaces[id(runs[0].book)]
    if loc.found:
        for r in runs:
            r_space, r_loc = spaces[id(r.book)]
            if r_loc.found:
                loc.chunks.append(match_chunks(r_space, r_loc, r.chunks, r.label))
    if json:
        print(jsonlib.dumps(loc.to_dict(), indent=1))
    else:
        print(format_location(loc, space.book.text))
    return 0 if loc.found else NOT_FOUND


def format_location(loc: Location, text: str) -> str:
    """Plain-text report of a location and its chunks."""
    if not loc.found:
        return f"not found (best score {loc.score:.1f} < threshold)"

    def label(page: int, lab: str) -> str:
        return f"{page}" + (f" (printed {lab})" if lab else "")

    lines = [
        f"found: score {loc.score:.1f}, chars [{loc.char_start}, {loc.char_end})"
        + (f", {loc.occurrences} equally good places" if loc.occurrences > 1 else ""),
        f"pages: {label(loc.page_start, loc.page_label_start)} to {label(loc.page_end, loc.page_label_end)}",
        f"chapter: {loc.chapter or '-'}",
        f"section: {loc.section or '-'}",
        f"text: {text[loc.char_start : loc.char_end][:200]!r}",
    ]
    for m in loc.chunks:
        state = "STRADDLES a chunk boundary" if m.straddles else "inside one chunk"
        lines.append(f"== {m.policy}: {state}; chunks {', '.join(m.ids) or '-'}")
        lines.append(f"   cut before: {m.cut_before[-160:]!r}")
        lines.append(f"   cut after:  {m.cut_after[:160]!r}")
    return "\n".join(lines)
