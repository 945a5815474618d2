"""Titles made safe once, wherever they enter: structure files, the app's correction form, and
the titles readers find (PDF bookmarks, EPUB navigation, heading lines).

A title is shown in terminals, Streamlit widgets and PDF bookmarks and written to every export,
so ``safe_title`` is the one rule for it: a lone surrogate (``"\\ud800"`` from JSON or a broken
PDF string) cannot be encoded as UTF-8 and becomes U+FFFD; control characters (NUL, ESC, tab,
newline, C1) and the line/paragraph separators become a space; bidirectional embeddings,
overrides and isolates (U+202A–U+202E, U+2066–U+2069), which reorder how the text *after* them is
shown, are removed; and the result is cut at ``limit`` characters (a plain cut, so that an anchor
cut this way still matches the start of its line). Everything else is kept as it is.
"""

from __future__ import annotations

import re

from .readers.raw import REPLACEMENT

MAX_TEXT_FIELD = 1_000
"""Longest ``line_text``, ``title`` or ``number`` of a correction (characters): a structure file
with a longer one is refused, and one made in the app is cut to it."""

_SURROGATES = re.compile("[\ud800-\udfff]")
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")


def safe_title(text: str, limit: int | None = None) -> str:
    """``text`` without lone surrogates, control characters or bidi controls, at most ``limit``
    characters long (None: no cut). Printable ASCII comes back unchanged at once."""
    if not (text.isascii() and text.isprintable()):
        text = _SURROGATES.sub(REPLACEMENT, text)
        text = _BIDI_CONTROLS.sub("", _CONTROLS.sub(" ", text))
    return text if limit is None or len(text) <= limit else text[:limit]
