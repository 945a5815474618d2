"""The one shape every markup reader gives its headings (``chunking.readers.markup`` and its
``markup_*`` modules)."""

from __future__ import annotations

Heading = tuple[int, int, str]
"""``(offset, level, title)``: where the heading's source line starts, its depth (0 the
document's title, 1 its top headings), its text as the page shows it."""
