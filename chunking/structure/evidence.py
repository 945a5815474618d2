"""Stage 3 (structure), evidence: independent signals that agree on a heading, and where they don't.

Contract: every detector records, per heading, the signals that support it as ``(signal, where)``
pairs (``chunking.models.SIGNALS``). ``corroborate(accepted, others)`` adds the evidence of
headings found by *other* detectors at the same place (same page, start within
``MATCH_CHARS``) to the accepted ones, recomputes their confidence, and lists disagreements:
chapter-level headings another signal found that the accepted structure lacks, and accepted
ones that the text itself does not confirm. ``signal_counts`` counts, per signal, the accepted
chapter-level headings it supports (Diagnostics and ``outline --explain`` show both).

Confidence is a simple, explainable score, not a probability: ``BASE_CONFIDENCE`` plus
``PER_SIGNAL`` per distinct supporting signal, capped at 1, halved when the heading's own
source could not confirm it in the text (an outline destination whose title is not on the page).
"""

from __future__ import annotations

import bisect
import dataclasses
from collections import Counter
from collections.abc import Iterable, Sequence

from ..models import Disagreement, Heading
from ..rules import FENCE_KINDS

MATCH_CHARS = 200
"""Two detectors' headings on one page whose starts are this close are the same heading (a label
line, a wrapped title and a running header above can shift a start by a line or three)."""

BASE_CONFIDENCE = 0.35
PER_SIGNAL = 0.25
UNCONFIRMED_FACTOR = 0.5

CHAPTER_LEVEL = FENCE_KINDS


def confidence(signals: Iterable[str], confirmed: bool = True) -> float:
    """The confidence of a heading supported by ``signals`` (see the module docstring)."""
    score = min(1.0, BASE_CONFIDENCE + PER_SIGNAL * len(set(signals)))
    return round(score * (1.0 if confirmed else UNCONFIRMED_FACTOR), 2)


def _signals(h: Heading) -> set[str]:
    return {signal for signal, _ in h.evidence}


def corroborate(
    accepted: Sequence[Heading], others: Sequence[Heading], label: str
) -> tuple[tuple[Heading, ...], list[Disagreement]]:
    """Merge the evidence of ``others`` into ``accepted`` and list the disagreements.

    Args:
        accepted: the structure chosen, in book order.
        others: headings another detector found (in book order); they are evidence only.
        label: what ``accepted`` came from, for the messages (``the outline``).

    Returns:
        tuple: the accepted headings with merged evidence and confidence, and the disagreements
        (``missing``: another signal's chapter-level heading ``accepted`` lacks; ``unconfirmed``).
    """
    starts = [h.char_offset for h in accepted]
    merged = [list(h.evidence) for h in accepted]
    matched_other: set[int] = set()
    for k, other in enumerate(others):
        i = _nearest(starts, accepted, other)
        if i is None:
            continue
        if (other.kind in CHAPTER_LEVEL) != (accepted[i].kind in CHAPTER_LEVEL):
            continue
        matched_other.add(k)
        have = {signal for signal, _ in merged[i]}
        merged[i].extend(pair for pair in other.evidence if pair[0] not in have)
    out = []
    for h, evidence in zip(accepted, merged):
        confirmed = h.confidence >= confidence(_signals(h)) - 1e-9
        out.append(
            dataclasses.replace(
                h, evidence=tuple(evidence), confidence=confidence((s for s, _ in evidence), confirmed)
            )
        )
    disagreements = []
    for k, other in enumerate(others):
        if k not in matched_other and other.kind in CHAPTER_LEVEL and other.kind not in ("front", "back"):
            signals = tuple(sorted(_signals(other))) or (other.source,)
            message = (
                f"{', '.join(signals)}: {other.kind} '{_short(other)}' on p. {other.page} is not in {label}"
            )
            disagreements.append(_named("missing", signals, other, message))
    for h in out:
        if h.kind in CHAPTER_LEVEL and h.confidence < BASE_CONFIDENCE:
            message = f"{label}: {h.kind} '{_short(h)}' on p. {h.page} is not confirmed by the text"
            disagreements.append(_named("unconfirmed", (h.source,), h, message))
    return tuple(out), disagreements


def _named(case: str, signals: tuple[str, ...], h: Heading, message: str) -> Disagreement:
    return Disagreement(case, signals, h.kind, h.number, h.title, h.page, message)


def _nearest(starts: list[int], accepted: Sequence[Heading], other: Heading) -> int | None:
    k = bisect.bisect_left(starts, other.char_offset)
    best = None
    for i in (k - 1, k, k + 1):
        if 0 <= i < len(accepted) and accepted[i].page == other.page:
            gap = abs(accepted[i].char_offset - other.char_offset)
            if gap <= MATCH_CHARS and (best is None or gap < best[0]):
                best = (gap, i)
    return best[1] if best else None


def _short(h: Heading) -> str:
    title = f"{h.number} {h.title}".strip()
    return title if len(title) <= 60 else title[:59] + "…"


def signal_counts(headings: Iterable[Heading]) -> dict[str, int]:
    """How many chapter-level headings each signal supports."""
    counts: Counter = Counter()
    for h in headings:
        if h.kind in CHAPTER_LEVEL:
            counts.update(_signals(h))
    return dict(sorted(counts.items()))
