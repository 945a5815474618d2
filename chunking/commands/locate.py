"""``python -m chunking locate BOOK --passage-file F [--policy …]… [--json]``: where a passage is from.

``F`` is a text file (``-`` reads standard input). Each ``--policy`` is ``key=value`` pairs as for
``compare``; without one the default policy is used. Prints the passage's exact span of the
canonical text, match score, pages and printed labels, chapter and section, and per policy the
chunks holding it, whether it straddles a chunk boundary and the sentence parts just outside
those chunks. With ``--json`` prints ``{"found", "score", "char_start", "char_end", "page_start",
"page_end", "page_label_start", "page_label_end", "chapter", "section", "chunks": [{"policy",
"ids", "straddles", "boundaries"}]}``. Exit 0 when found, 1 when the passage is not in the book.

``--chunk-id ID`` instead of ``--passage-file`` shows the chunk an id names, per policy
(``chunking.retrieval.chunk_ids``: a full id or its first 8+ hex digits, quotes and an ``id:``
label trimmed). With ``--json`` prints ``{"query", "chunks": [{"policy", "id", "order",
"char_start", "char_end", "token_count", "page_start", "page_end", "chapter", "section",
"text"}]}``. Exit 0 when some policy has the chunk, 1 when none does, 2 when ID names no id.
"""

from __future__ import annotations

import json as jsonlib
import sys

from ..errors import UsageError
from ..inputs import read_bounded
from ..models import Chunk
from ..policy import Policy
from ..retrieval.chunk_ids import MIN_ID_PREFIX, chunks_with_id, id_query
from ..retrieval.locate import Location, SearchSpace, locate, match_chunks
from ..structure_file import load_optional
from ..analysis.compare import chunked_runs
from ..policy import parse_policies

NOT_FOUND = 1


MAX_PASSAGE_FILE_BYTES = 4 << 20
"""Largest passage file (or standard input) read: a passage holds at most ``MAX_PASSAGE`` letters."""


def read_passage(passage_file: str) -> str:
    """Read the passage from a file (a regular file, ``chunking.inputs.read_bounded``), or from
    standard input for ``-``, at most ``MAX_PASSAGE_FILE_BYTES`` either way.

    Raises:
        UsageError: the file is missing, not a regular file, too large, unreadable or not UTF-8.
    """
    label = f"passage file {passage_file!r}"
    if passage_file == "-":
        data = sys.stdin.buffer.read(MAX_PASSAGE_FILE_BYTES + 1)
        if len(data) > MAX_PASSAGE_FILE_BYTES:
            raise UsageError(f"{label}: larger than the {MAX_PASSAGE_FILE_BYTES >> 20} MiB limit")
    else:
        data = read_bounded(passage_file, MAX_PASSAGE_FILE_BYTES, label, "passage file", UsageError)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"cannot read {label}: not UTF-8 text") from None


def run(
    *,
    book: str,
    passage_file: str | None,
    policy: list[str],
    json: bool,
    structure_file: str | None = None,
    chunk_id: str | None = None,
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
    if chunk_id is not None:
        return show_chunk_id(book, chunk_id, policies, json, structure_file)
    passage = read_passage(passage_file or "-")
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


def show_chunk_id(
    book: str, chunk_id: str, policies: list[Policy], json: bool, structure_file: str | None
) -> int:
    """Print the chunk ``chunk_id`` names under each policy; 0 when some policy has it, else 1.

    Raises:
        UsageError: ``chunk_id`` is not an id (checked before the book is read).
    """
    query = id_query(chunk_id)
    if query is None:
        raise UsageError(
            f"--chunk-id {chunk_id!r} is not a chunk id: give the 32 hex digits a vector store "
            f"returned, or at least their first {MIN_ID_PREFIX}"
        )
    runs = chunked_runs(book, policies, load_optional(structure_file))
    found = [(r.label, c) for r in runs for c in chunks_with_id(r.chunks, query)]
    if json:
        keys = (
            "id",
            "order",
            "char_start",
            "char_end",
            "token_count",
            "page_start",
            "page_end",
            "chapter",
            "section",
        )
        records = [
            {"policy": label, **{k: getattr(c, k) for k in keys}, "text": c.text} for label, c in found
        ]
        print(jsonlib.dumps({"query": query, "chunks": records}, indent=1))
    else:
        print(format_chunks(query, found))
    return 0 if found else NOT_FOUND


def format_chunks(query: str, found: list[tuple[str, Chunk]]) -> str:
    """Plain-text report of the chunks an id names, one block per policy."""
    if not found:
        return f"no chunk has id {query} under these policies (ids change with the policy and corrections)"
    lines = []
    for label, c in found:
        pages = f"{c.page_start}" + ("" if c.page_end == c.page_start else f"-{c.page_end}")
        lines.append(f"== {label}: chunk {c.order}, id {c.id}")
        lines.append(f"   pages {pages}, chars [{c.char_start}, {c.char_end}), {c.token_count} tokens")
        lines.append(f"   chapter: {c.chapter or '-'}; section: {c.section or '-'}")
        lines.append(f"   text: {c.text[:200]!r}")
    return "\n".join(lines)


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
        for b in m.boundaries:
            into = b.char - loc.char_start
            lines.append(f"   boundary {into} chars into the passage: chunk {b.order} {b.edge}s ({b.id})")
    return "\n".join(lines)
