"""Retrieval debugging by chunk id: the id a vector store returned → the chunk it names.

A vector store hands back the ``id`` a chunk was exported with (``chunking.ids``: 32 lowercase hex
digits). Users paste it from a console, a log or a JSON dump, so the text may carry quotes,
brackets, an ``id:`` / ``id=`` prefix, surrounding whitespace or upper-case digits, and consoles
often show a shortened id. One rule, used by ``chunking locate --chunk-id`` and the app's
Retrieval page alike:

* the pasted text is reduced to its hex digits after trimming those decorations (``id_query``);
* it names an id when at least ``MIN_ID_PREFIX`` and at most ``ID_HEX_DIGITS`` hex digits remain;
* it matches every chunk whose id starts with them (a full id matches at most one chunk of a
  chunk set; a short prefix may match several, and all are reported, so nothing is guessed).

Ids depend on the policy (``Policy.profile``) and the structure corrections, so an id of another
policy or another version of the book matches nothing: callers say so rather than pick a neighbour.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..ids import ID_HEX_DIGITS
from ..models import Chunk

__all__ = ["ID_HEX_DIGITS", "MIN_ID_PREFIX", "chunks_with_id", "id_query"]

MIN_ID_PREFIX = 8
"""Fewest hex digits taken as an id prefix: 8 digits (32 bits) name one chunk among millions by
chance only once in thousands of books, and shorter strings are more likely words or numbers."""

_WRAPPING = " \t\r\n\"'`[](){}<>,;."
"""Characters trimmed from both ends: whitespace, quotes, brackets, a trailing comma or full stop."""
_LABEL = re.compile(r"^(?:chunk[_ -]?)?id[\"']?\s*[:=]\s*", re.I)
_HEX = re.compile(r"[0-9a-f]+")


def id_query(text: str) -> str | None:
    """The id (or id prefix) ``text`` names, lowercase, or None when it is not one.

    ``' "ID: 3F2A…9C" '`` → ``"3f2a…9c"``; a passage of prose, a hex string shorter than
    ``MIN_ID_PREFIX`` or longer than ``ID_HEX_DIGITS`` → None.
    """
    core = _LABEL.sub("", text.strip(_WRAPPING)).strip(_WRAPPING).lower()
    if not (MIN_ID_PREFIX <= len(core) <= ID_HEX_DIGITS) or not _HEX.fullmatch(core):
        return None
    return core


def chunks_with_id(chunks: Sequence[Chunk], text: str) -> list[Chunk]:
    """The chunks of ``chunks`` whose id starts with the id ``text`` names (``id_query``), in order;
    empty when ``text`` names no id or no chunk has it."""
    query = id_query(text)
    if query is None:
        return []
    return [c for c in chunks if c.id.startswith(query)]
