"""App stage (sidebar): the whole chunking policy as widgets, shared by every page.

Sidebar widget keys are ``policy_<Policy field>``; their values live in session state, so the
policy survives page switches (and a test or page can set one by key). Max tokens and overlap have
a slider for rough moves and a number box beside it for exact values (``policy_<field>_box``,
kept equal to the slider). Fields the chosen strategy does not use are disabled with a note, and an
overlap of half of max tokens or more warns of the token inflation it causes. An invalid
combination is explained under the field it names while the page keeps the last valid policy.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from chunking.analysis.compare import policy_label
from chunking.encodings import BUNDLED_ENCODINGS
from chunking.errors import ChunkLimitError, PolicyError
from chunking.matter import MATTERS, parse_exclusion
from chunking.models import FENCES, OCR_MODES, SNAPS, STRATEGIES, STRUCTURE_SOURCES
from chunking.policy import POLICY_DEFAULTS, UNUSED_FIELDS, Policy

ENCODINGS = BUNDLED_ENCODINGS
"""Only the vocabularies ``chunking.encodings`` ships for offline use; others would need a network."""

SLIDERS = {"max_tokens": ("Max tokens", 32, 4096, 16), "overlap_tokens": ("Overlap tokens", 0, 1024, 8)}
"""Slider fields: label, minimum, maximum, step (arrow keys move one step; the box takes any value)."""

LAST_CHUNKED_KEY = "last_chunked_policy"
"""Session key of the last sidebar policy that chunked the current book (shown after a max_chunks error)."""

INFLATION_WARNING_SHARE = 0.5
"""Warn when overlap ≥ this share of max tokens: each token is then emitted about 2× or more."""

LABELS = {
    "target_pages": "Target pages",
    "max_pages": "Max pages",
    "fence": "Fence level",
    "min_section_tokens": "Min section tokens",
    "min_chunk_tokens": "Min chunk tokens",
}

_HELP = {
    "strategy": "chapter-window: token windows that never cross a chapter (the fence). "
    "fixed-window: the same windows over the whole book, ignoring structure and page limits. "
    "section: one chunk per section, small ones merged, large ones split.",
    "max_tokens": "Hard limit of tokens per chunk (tiktoken, the encoding below). The slider moves "
    "in steps of 16; type any value in the box beside it.",
    "overlap_tokens": "Tokens each chunk repeats from the previous one so context is not cut; "
    "never carried across a fence. Must be below max tokens.",
    "target_pages": "Soft page target: a window spanning this many pages may end at a page "
    "break if it keeps at least half of max tokens.",
    "max_pages": "Hard limit of pages one chunk may span (at least target pages).",
    "fence": "Structure level where chunks are always cut and overlap stops: chapters, or also "
    "sections. Parts always fence.",
    "structure": "Where chapters come from: auto (the outline where it holds up, else headings "
    "found in the text), outline (bookmarks / EPUB nav only), headings (text only) "
    "or none (no structure).",
    "encoding": "tiktoken encoding used to count tokens (cl100k_base: GPT-4; o200k_base: GPT-4o).",
    "snap": "End token-limited windows at the last sentence or paragraph end in their last third.",
    "min_section_tokens": "Section strategy only: sections below this merge with neighbours "
    "(0 = max tokens / 4).",
    "max_chunks": "More chunks than this is an error and nothing is exported.",
    "exclude_matter": "Leave these chunks out of the export and the Chunks table: contents and "
    "index pages (dot leaders and page numbers), or all front or back matter. Empty keeps every chunk.",
    "min_chunk_tokens": "Window strategies: a chunk below this many tokens merges into a neighbour "
    "in its chapter when max tokens and max pages allow; a tiny part title joins its first "
    "chapter (0 = off).",
    "prefix_in_budget": "Cut every chunk so that 'Book title › Chapter › Section' (what index "
    "--embed-prefix breadcrumb embeds before it) and its text fit max tokens together. The chunk "
    "text stays the book's own; ids change.",
    "ocr": "PDF pages read by OCR (Tesseract): auto: pages without a usable text layer (scans, "
    "garbage text); always: every page; never: none. Without Tesseract, auto warns and reads none.",
    "ocr_language": "Tesseract language(s) of the OCR: eng, or several joined by + (eng+deu); "
    "each needs its Debian package tesseract-ocr-<lang>.",
}


def _box_key(name: str) -> str:
    return f"policy_{name}_box"


def _from_box(name: str) -> None:
    """The number box changed: move the slider to its value (clamped to the slider's range)."""
    _, low, high, _ = SLIDERS[name]
    value = st.session_state[_box_key(name)]
    st.session_state[f"policy_{name}"] = int(min(max(value, low), high))


def _slider_with_box(name: str, slots: dict[str, Any]) -> int:
    label, low, high, step = SLIDERS[name]
    key = f"policy_{name}"
    st.session_state[_box_key(name)] = st.session_state[key]
    left, right = st.sidebar.columns([3, 2], vertical_alignment="bottom")
    value = left.slider(label, low, high, step=step, key=key, help=_HELP[name])
    right.number_input(
        f"{label} (exact)",
        low,
        high,
        step=step,
        key=_box_key(name),
        on_change=_from_box,
        args=(name,),
        label_visibility="collapsed",
        help=f"{label}: type an exact value.",
    )
    slots[name] = st.sidebar.empty()
    return value


def inflation_note(max_tokens: int, overlap: int) -> str | None:
    """The token-inflation warning for ``overlap`` ≥ half of ``max_tokens`` (None below that)."""
    if overlap < INFLATION_WARNING_SHARE * max_tokens or overlap >= max_tokens:
        return None
    return (
        f"Overlap {overlap} is {overlap / max_tokens:.0%} of max tokens {max_tokens}: every chunk "
        f"repeats most of the previous one, so about {max_tokens / (max_tokens - overlap):.1f}× the "
        "book's tokens are emitted (token inflation)."
    )


def sidebar_policy() -> Policy:
    """Render the shared policy sidebar and return the policy the page should show.

    Every field of ``Policy`` has a widget with a help text. An invalid combination (for example
    overlap ≥ max tokens, or max pages below target pages) never stops the page: its error, naming
    the field, is shown right under that field's input, a note at the top of the page says which
    policy is shown, and the page keeps drawing with the last valid policy. So nothing the page
    holds (a chapter jump, a zoom, the chosen chunk) is lost while the user fixes the value.

    Returns:
        Policy: the policy the widgets describe, or the last valid one while they describe none.
    """
    sb = st.sidebar
    sb.header("Policy")
    # NOTE: the widgets take their values from session state, set once from the Policy defaults
    # (``POLICY_DEFAULTS``); re-assigning each value on every run keeps it when the user switches
    # pages (Streamlit drops the state of widgets a page does not render, but keeps values set
    # through session state).
    for name, default in POLICY_DEFAULTS.items():
        key = f"policy_{name}"
        if name == "exclude_matter":  # NOTE: a multiselect's value is a list of the names
            default = [m for m in default.split(",") if m]
        st.session_state[key] = st.session_state[key] if key in st.session_state else default
    slots: dict[str, Any] = {}  # an empty slot under each field's input: where its error goes
    strategy = sb.selectbox("Strategy", STRATEGIES, key="policy_strategy", help=_HELP["strategy"])
    unused = UNUSED_FIELDS.get(strategy, ())
    values: dict[str, Any] = {"strategy": strategy}
    values["max_tokens"] = _slider_with_box("max_tokens", slots)
    values["overlap_tokens"] = _slider_with_box("overlap_tokens", slots)
    note = inflation_note(int(values["max_tokens"]), int(values["overlap_tokens"]))
    if note:
        sb.warning(note)
    values["target_pages"] = sb.number_input(
        "Target pages", 1, 100, key="policy_target_pages", help=_HELP["target_pages"],
        disabled="target_pages" in unused,
    )  # fmt: skip
    slots["target_pages"] = sb.empty()
    values["max_pages"] = sb.number_input(
        "Max pages", 1, 200, key="policy_max_pages", help=_HELP["max_pages"], disabled="max_pages" in unused
    )
    slots["max_pages"] = sb.empty()
    values["fence"] = sb.selectbox(
        "Fence level", FENCES, key="policy_fence", help=_HELP["fence"], disabled="fence" in unused
    )
    values["structure"] = sb.selectbox(
        "Structure source", STRUCTURE_SOURCES, key="policy_structure", help=_HELP["structure"]
    )
    values["ocr"] = sb.selectbox("OCR", OCR_MODES, key="policy_ocr", help=_HELP["ocr"])
    values["ocr_language"] = sb.text_input(
        "OCR language", key="policy_ocr_language", help=_HELP["ocr_language"], max_chars=64
    )
    slots["ocr_language"] = sb.empty()
    values["encoding"] = sb.selectbox("Encoding", ENCODINGS, key="policy_encoding", help=_HELP["encoding"])
    slots["encoding"] = sb.empty()
    values["snap"] = sb.selectbox("Snap", SNAPS, key="policy_snap", help=_HELP["snap"])
    values["min_section_tokens"] = sb.number_input(
        "Min section tokens", 0, 4096, key="policy_min_section_tokens", help=_HELP["min_section_tokens"],
        disabled="min_section_tokens" in unused,
    )  # fmt: skip
    slots["min_section_tokens"] = sb.empty()
    values["min_chunk_tokens"] = sb.number_input(
        "Min chunk tokens", 0, 4096, key="policy_min_chunk_tokens", help=_HELP["min_chunk_tokens"],
        disabled="min_chunk_tokens" in unused,
    )  # fmt: skip
    slots["min_chunk_tokens"] = sb.empty()
    values["prefix_in_budget"] = sb.checkbox(
        "Breadcrumb in budget", key="policy_prefix_in_budget", help=_HELP["prefix_in_budget"]
    )
    slots["prefix_in_budget"] = sb.empty()
    values["max_chunks"] = sb.number_input(
        "Max chunks", 1, 10_000_000, key="policy_max_chunks", help=_HELP["max_chunks"]
    )
    slots["max_chunks"] = sb.empty()
    chosen = sb.multiselect(
        "Exclude matter", MATTERS, key="policy_exclude_matter", help=_HELP["exclude_matter"]
    )
    values["exclude_matter"] = parse_exclusion(",".join(chosen))
    slots["exclude_matter"] = sb.empty()
    if unused:
        names = ", ".join(LABELS[name] for name in unused)
        sb.caption(f"Greyed out: {strategy} does not use {names} (see CHUNKING.md, Policy).")
    try:
        whole: dict[str, Any] = {k: int(v) if isinstance(v, float) else v for k, v in values.items()}
        policy = Policy(**whole)
    except PolicyError as exc:
        return _last_valid(exc, slots.get(exc.field or "", slots["max_chunks"]))
    st.session_state["policy"] = policy
    return policy


def _last_valid(exc: PolicyError, slot: Any) -> Policy:
    """Explain ``exc`` in ``slot`` (under the field it names) and return the policy to show: the
    last valid one of this session (the defaults before any)."""
    slot.error(f"Invalid policy: {exc}")  # NOTE: widget values, no book data
    last = st.session_state.get("policy")
    if not isinstance(last, Policy):
        last = Policy(**POLICY_DEFAULTS)
        st.session_state["policy"] = last
    shown_instead(exc.field or "see the sidebar", last)
    return last


def shown_instead(field: str, last: Policy) -> None:
    """The page-top note: the sidebar's policy is invalid (``field``), the page shows ``last``."""
    st.warning(
        f"The sidebar's policy is invalid ({field}): this page shows the "
        f"last valid policy, {policy_label(last)}, until the field is fixed."
    )


def chunk_limit_fallback(exc: ChunkLimitError, policy: Policy) -> Policy | None:
    """The sidebar's policy needs more than ``max_chunks`` chunks for this book: explain it under
    the sidebar (Max chunks is its last input) and return the last sidebar policy that chunked this
    session, for the page to show instead (None when there is none or it is this one).

    Like an invalid field, the limit never stops the page, so its state (chapter jump, zoom) lives on.
    """
    last = st.session_state.get(LAST_CHUNKED_KEY)
    if policy != st.session_state.get("policy") or not isinstance(last, Policy) or last == policy:
        return None
    st.sidebar.error(f"Too many chunks: {exc}")  # NOTE: the policy's limit, no book data
    shown_instead("max_chunks", last)
    return last


def chunked(policy: Policy) -> None:
    """Remember ``policy`` as the last sidebar policy that chunked the book (``chunk_limit_fallback``)."""
    if policy == st.session_state.get("policy"):
        st.session_state[LAST_CHUNKED_KEY] = policy
