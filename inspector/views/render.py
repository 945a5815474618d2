"""App stage (display): book text to safe HTML with the inspector's own highlight markup.

Book text is untrusted (a user's upload can hold ``<script>`` or Markdown): every piece of it goes
through ``html.escape`` before any tag of ours is added, and the result is shown with ``st.html``
(never ``st.markdown``), so Markdown syntax in a book stays literal text.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from chunking.models import Chunk

from .. import palette

STYLE = f"""<style>
.bci-text {{ white-space: pre-wrap; font-family: ui-monospace, monospace; font-size: 0.85rem;
            line-height: 1.45; padding: 0.6rem; border: 1px solid #ddd; border-radius: 6px; }}
.bci-context {{ color: {palette.CONTEXT}; }}
.bci-cut {{ color: {palette.CUT}; font-weight: bold; }}
mark.ov-prev, mark.ov-next {{ background: {palette.on_paper(palette.OVERLAP)}; }}
mark.ov-prev.ov-next {{ background: {palette.on_paper(palette.OVERLAP, 2 * palette.HIGHLIGHT_OPACITY)}; }}
mark.hit {{ background: {palette.on_paper(palette.SEARCH_HIT)}; }}
.bci-bound {{ color: {palette.CUT}; font-weight: bold; font-family: ui-sans-serif, sans-serif;
             font-size: 0.75rem; padding: 0 0.1rem; }}
</style>"""
"""CSS for the markup below, in ``inspector.palette``'s colours: overlap (text shared with the
previous chunk at a chunk's start, with the next at its end) in the overlap colour, the colour it
has on page images; text shared with both neighbours in a deeper tint of it."""

OVERLAP_LEGEND_HTML = (
    f"<mark style='background:{palette.on_paper(palette.OVERLAP)}'>orange</mark> = shared with a "
    "neighbour (at the start: the previous chunk; at the end: the next); grey = text just outside "
    "the chunk; ⟦ ⟧ = the chunk's edges."
)
"""The legend of ``chunk_detail_html``'s marks (our own markup, no book data)."""

PAGE_IMAGE_LEGEND = "green = chunk text, orange = overlap with a neighbour"
"""The legend of a page image drawn by ``inspector.views.pdfview`` (names of the palette's colours)."""


def highlight(text: str, spans: Sequence[tuple[int, int, str]]) -> str:
    """Escape ``text`` and wrap the given spans in ``<mark class=…>``.

    Args:
        text (str): untrusted text.
        spans (Sequence[tuple[int, int, str]]): half-open ``[start, end)`` offsets into ``text``
            with a CSS class each; spans may overlap (a segment in two gets both classes).

    Returns:
        str: HTML in which only our ``<mark>`` tags are markup.
    """
    cuts = sorted({0, len(text), *(max(0, min(len(text), x)) for s, e, _ in spans for x in (s, e))})
    out = []
    for lo, hi in zip(cuts, cuts[1:]):
        classes = sorted({cls for s, e, cls in spans if s <= lo and hi <= e and s < e})
        piece = html.escape(text[lo:hi])
        out.append(f'<mark class="{" ".join(classes)}">{piece}</mark>' if classes else piece)
    return "".join(out)


def overlap_spans(chunks: Sequence[Chunk], i: int) -> list[tuple[int, int, str]]:
    """Where chunk ``i`` shares text with its neighbours, as offsets into its own text.

    Computed from char spans: the part of chunk ``i`` inside chunk ``i-1`` (class ``ov-prev``)
    and inside chunk ``i+1`` (class ``ov-next``).
    """
    c = chunks[i]
    spans = []
    for j, cls in ((i - 1, "ov-prev"), (i + 1, "ov-next")):
        if 0 <= j < len(chunks):
            lo, hi = max(c.char_start, chunks[j].char_start), min(c.char_end, chunks[j].char_end)
            if hi > lo:
                spans.append((lo - c.char_start, hi - c.char_start, cls))
    return spans


def context(text: str, start: int, end: int, *, lines: int = 3, max_chars: int = 400) -> tuple[str, str]:
    """The few lines of ``text`` just before ``start`` and just after ``end`` (raw, unescaped)."""
    before = text[max(0, start - max_chars) : start].split("\n")[-lines:]
    after = text[end : end + max_chars].split("\n")[:lines]
    return "\n".join(before), "\n".join(after)


def chunk_detail_html(book_text: str, chunks: Sequence[Chunk], i: int) -> str:
    """The chunk's full text with its overlaps marked, between the lines the boundary cut off.

    Args:
        book_text (str): the book's canonical text.
        chunks (Sequence[Chunk]): all chunks, in order.
        i (int): position of the chunk in ``chunks``.

    Returns:
        str: safe HTML (``STYLE`` included) for ``st.html``.
    """
    c = chunks[i]
    before, after = context(book_text, c.char_start, c.char_end)
    return (
        f'{STYLE}<div class="bci-text"><span class="bci-context">{html.escape(before)}</span>'
        f'<span class="bci-cut">⟦</span>{highlight(c.text, overlap_spans(chunks, i))}'
        f'<span class="bci-cut">⟧</span><span class="bci-context">{html.escape(after)}</span></div>'
    )


def text_block_html(text: str, spans: Sequence[tuple[int, int, str]] = ()) -> str:
    """Any untrusted text as a pre-wrapped block, optionally with highlighted spans."""
    return f'{STYLE}<div class="bci-text">{highlight(text, spans)}</div>'


BOUNDARY_LEGEND = "◂N┃ = chunk N ends here; ┃N▸ = chunk N starts here"
"""The legend of ``boundary_marks_html``'s marks (our own markup, no book data)."""


def boundary_marks_html(text: str, marks: Sequence[tuple[int, str, int]]) -> str:
    """Untrusted ``text`` as a pre-wrapped block with a chunk boundary mark at each offset.

    Args:
        text (str): the passage as the book holds it.
        marks (Sequence[tuple[int, str, int]]): ``(offset into text, "start" | "end", chunk
            order)``, in offset order (``chunking.retrieval.locate.boundaries_inside``, shifted).

    Returns:
        str: safe HTML (``STYLE`` included): escaped text with our ``span.bci-bound`` marks.
    """
    out, at = [], 0
    for offset, edge, order in marks:
        offset = max(at, min(len(text), offset))
        out.append(html.escape(text[at:offset]))
        sign = f"◂{order}┃" if edge == "end" else f"┃{order}▸"
        title = f"chunk {order} {'ends' if edge == 'end' else 'starts'} here"
        out.append(f'<span class="bci-bound bci-bound-{edge}" title="{title}">{sign}</span>')
        at = offset
    out.append(html.escape(text[at:]))
    return f'{STYLE}<div class="bci-text">{"".join(out)}</div>'
