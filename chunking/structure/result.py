"""Stage 3 (structure), result: what ``detect_structure`` hands on, shared by every detector.

Every detector (PDF outline, text headings, EPUB nav and HTML headings) returns a
``StructureResult`` so the levelling, the diagnostics and ``outline --explain`` see one shape.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..models import Disagreement, Heading, Rejected


@dataclass
class StructureResult:
    """Headings and the facts Diagnostics reports about how they were found.

    Attributes:
        headings: in ascending ``char_offset``; each carries its ``evidence`` and ``confidence``.
        source: ``outline``, ``headings``, ``markdown``, ``pod``, ``wiki``, ``asciidoc``, ``org``, ``rst`` or ``none``.
        outline_entries / outline_dropped / outline_repaired: what happened to the source outline.
        warnings: one line each, for the user.
        signal_counts: accepted chapter-level headings supported by each signal (``SIGNALS``).
        disagreements: where signals disagree (an outline entry the text does not show, a large
            numbered line the outline lacks, a running header naming a chapter no heading opens…),
            one ``Disagreement`` each.
        rejected: candidates considered and not accepted, one ``Rejected`` each with why.
    """

    headings: tuple[Heading, ...]
    source: str
    outline_entries: int = 0
    outline_dropped: int = 0
    outline_repaired: int = 0
    warnings: list[str] = field(default_factory=list)
    signal_counts: dict[str, int] = field(default_factory=dict)
    disagreements: list[Disagreement] = field(default_factory=list)
    rejected: list[Rejected] = field(default_factory=list)
