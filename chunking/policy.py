"""The chunking policy: every knob, its default (the seed's profile) and its validation.

A ``Policy`` is validated when it is built, before any file is opened; a bad value raises
``PolicyError`` whose message names the field, the allowed values and the value received.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, TypedDict

from .errors import PolicyError
from .matter import parse_exclusion
from .models import FENCES, OCR_MODES, SNAPS, STRATEGIES, STRUCTURE_SOURCES

_CHOICES = {
    "strategy": STRATEGIES,
    "fence": FENCES,
    "structure": STRUCTURE_SOURCES,
    "snap": SNAPS,
    "ocr": OCR_MODES,
}

_OCR_LANGUAGE = re.compile(r"[A-Za-z0-9_]{1,32}(?:\+[A-Za-z0-9_]{1,32}){0,7}")
"""Tesseract language names (``eng``, ``chi_sim``), up to eight joined by ``+``: nothing else
reaches Tesseract's command line."""


class ReadOptions(TypedDict):
    """``load_book``'s keyword arguments a policy decides (``Policy.read_options``)."""

    structure: str
    ocr: str
    ocr_language: str


def check_ocr(ocr: str, ocr_language: str) -> None:
    """Refuse an OCR mode other than ``OCR_MODES`` or a malformed Tesseract language.

    Raises:
        PolicyError: naming the field (exit 2).
    """
    if ocr not in OCR_MODES:
        raise PolicyError(f"policy field 'ocr' must be one of {', '.join(OCR_MODES)}; got {ocr!r}")
    if not isinstance(ocr_language, str) or not _OCR_LANGUAGE.fullmatch(ocr_language):
        raise PolicyError(
            "policy field 'ocr_language' must be Tesseract language names joined by '+' "
            f"(eng, eng+deu); got {ocr_language!r}"
        )


@dataclass(frozen=True)
class Policy:
    """How to cut a book into chunks.

    Attributes:
        strategy (str): ``chapter-window`` (default), ``fixed-window`` or ``section``.
        max_tokens (int): hard limit of tokens per chunk. Defaults to 512.
        overlap_tokens (int): tokens repeated from the previous chunk; never across a fence.
            Defaults to 120.
        target_pages (int): soft page target: a window that already spans this many pages may
            end at a page boundary when it keeps at least half of ``max_tokens``. Defaults to 2.
        max_pages (int): hard limit of pages a chunk may span. Defaults to 3.
        max_chunks (int): more chunks than this is an error (nothing is written). Defaults to 50,000.
        fence (str): ``chapter`` or ``section``: the structure level where chunks are cut and
            overlap stops. Parts always fence. Defaults to ``chapter``.
        encoding (str): tiktoken encoding name. Defaults to ``cl100k_base``.
        structure (str): where structure comes from: ``auto``, ``outline``, ``headings``, ``none``.
            Defaults to ``auto``.
        snap (str): ``none``, ``sentence`` or ``paragraph``: end token-limited windows at the last
            sentence/paragraph end in their last third. Defaults to ``none``.
        min_section_tokens (int): ``section`` strategy: sections below this merge with
            neighbours; 0 means ``max_tokens // 4``. Defaults to 0.
        exclude_matter (str): matters (``chunking.matter.MATTERS``) whose chunks are left out of
            the output, comma-separated in that order (``"contents,index"``); ``""`` keeps all.
            Not in ``profile``: the chunks kept are the same chunks, with the same ids.
            Defaults to ``""``.
        min_chunk_tokens (int): window strategies: a chunk below this many tokens merges into a
            neighbour of its chapter when the merged chunk keeps every limit; a part opening below
            it joins its first chapter (``chunking.strategies.small_chunks``). 0 (default) is off.
        ocr (str): PDF pages read by OCR: ``auto`` (pages without a usable text layer),
            ``never`` or ``always`` (every page). Defaults to ``auto``.
        ocr_language (str): Tesseract language(s) of the OCR, ``eng`` or ``eng+deu``.
            Defaults to ``eng``.
        prefix_in_budget (bool): cut every chunk so that the breadcrumb embedded before it
            (``Book title › Chapter › Section``, ``chunking.retrieval.breadcrumb``) of its own
            chapter and section plus its text fit ``max_tokens`` (``chunking.strategies.budget``).
            Defaults to False: the text alone fits.
    """

    strategy: str = "chapter-window"
    max_tokens: int = 512
    overlap_tokens: int = 120
    target_pages: int = 2
    max_pages: int = 3
    max_chunks: int = 50_000
    fence: str = "chapter"
    encoding: str = "cl100k_base"
    structure: str = "auto"
    snap: str = "none"
    min_section_tokens: int = 0
    exclude_matter: str = ""
    min_chunk_tokens: int = 0
    ocr: str = "auto"
    ocr_language: str = "eng"
    prefix_in_budget: bool = False

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type in ("bool", bool):
                if not isinstance(value, bool):
                    raise PolicyError(f"policy field {f.name!r} must be true or false, got {value!r}")
                continue
            expected = int if f.type in ("int", int) else str
            if expected is int and (isinstance(value, bool) or not isinstance(value, int)):
                raise PolicyError(f"policy field {f.name!r} must be an integer, got {value!r}")
            if expected is str and not isinstance(value, str):
                raise PolicyError(f"policy field {f.name!r} must be a string, got {value!r}")
        for name, allowed in _CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                raise PolicyError(f"policy field {name!r} must be one of {', '.join(allowed)}; got {value!r}")
        for name in ("max_tokens", "target_pages", "max_pages", "max_chunks"):
            if getattr(self, name) < 1:
                raise PolicyError(f"policy field {name!r} must be at least 1; got {getattr(self, name)!r}")
        if self.overlap_tokens < 0:
            raise PolicyError(
                f"policy field 'overlap_tokens' must be at least 0; got {self.overlap_tokens!r}"
            )
        if self.overlap_tokens >= self.max_tokens:
            raise PolicyError(
                f"policy field 'overlap_tokens' must be less than max_tokens ({self.max_tokens}); "
                f"got {self.overlap_tokens!r}"
            )
        if self.max_pages < self.target_pages:
            raise PolicyError(
                f"policy field 'max_pages' must be at least target_pages ({self.target_pages}); "
                f"got {self.max_pages!r}"
            )
        if self.min_section_tokens < 0 or self.min_section_tokens > self.max_tokens:
            raise PolicyError(
                f"policy field 'min_section_tokens' must be between 0 and max_tokens ({self.max_tokens}); "
                f"got {self.min_section_tokens!r}"
            )
        _check_exclusion(self.exclude_matter)
        if self.min_chunk_tokens < 0 or self.min_chunk_tokens > self.max_tokens:
            raise PolicyError(
                f"policy field 'min_chunk_tokens' must be between 0 and max_tokens ({self.max_tokens}); "
                f"got {self.min_chunk_tokens!r}"
            )
        check_ocr(self.ocr, self.ocr_language)
        _check_encoding_name(self.encoding)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def unused_fields(self) -> tuple[str, ...]:
        """The fields this policy's strategy ignores (``UNUSED_FIELDS``): they leave its output
        and its ``profile`` unchanged."""
        return UNUSED_FIELDS[self.strategy]

    def read_options(self) -> ReadOptions:
        """The fields that decide how the book is read (``load_book``'s keyword arguments): the
        structure source and OCR. Callers that share one read between policies key it by these."""
        return {"structure": self.structure, "ocr": self.ocr, "ocr_language": self.ocr_language}

    def read_key(self) -> str:
        """``read_options`` as one string, for cache keys (``auto|ocr=auto|eng``)."""
        return f"{self.structure}|ocr={self.ocr}|{self.ocr_language}"

    def profile(self) -> str:
        """A compact, deterministic string naming every field that changes the output.

        It salts chunk ids, so a changed policy changes ids and an unchanged one never does.
        ``max_chunks`` is left out: it only decides whether a run fails. ``ocr`` and
        ``ocr_language`` are left out: they change the output only through the text, which every
        id hashes already, so a born-digital book keeps its ids whatever they are.
        ``prefix_in_budget`` is named only when on, so every profile (and id) without it is the
        one it was before the field existed.
        """
        parts = [
            f"{self.strategy}-v1",
            self.encoding,
            f"structure={self.structure}",
            f"max={self.max_tokens}",
            f"overlap={self.overlap_tokens}",
        ]
        used = {"target_pages", "max_pages", "fence", "min_section_tokens"} - set(self.unused_fields())
        if {"target_pages", "max_pages", "fence"} <= used:
            parts += [f"target={self.target_pages}", f"pages={self.max_pages}", f"fence={self.fence}"]
        if "min_section_tokens" in used:
            parts.append(f"min_section={self.min_section_tokens}")
        if self.snap != "none":
            parts.append(f"snap={self.snap}")
        if self.min_chunk_tokens and "min_chunk_tokens" not in self.unused_fields():
            parts.append(f"min_chunk={self.min_chunk_tokens}")
        if self.prefix_in_budget:
            parts.append("prefix=breadcrumb")
        return ":".join(parts)

    def with_(self, **changes: Any) -> "Policy":
        """Return a validated copy with some fields changed."""
        return replace(self, **changes)


POLICY_DEFAULTS: dict[str, Any] = {f.name: f.default for f in fields(Policy)}
"""Every ``Policy`` field's default, read from the class (the CLI's options and the app's sidebar
take theirs from here; building ``Policy()`` would load tiktoken to check the encoding)."""

UNUSED_FIELDS: dict[str, tuple[str, ...]] = {
    "chapter-window": ("min_section_tokens",),
    "fixed-window": ("target_pages", "max_pages", "fence", "min_section_tokens"),
    "section": ("min_chunk_tokens",),
}
"""Policy fields each strategy ignores (CHUNKING.md: fixed-window has one segment and no page
limits; min section tokens is the section strategy's only, min chunk tokens the window
strategies'); ``profile`` leaves them out and the
app greys them out."""


def _check_exclusion(value: str) -> None:
    """``exclude_matter`` must be its canonical form (``parse_exclusion`` makes it from any)."""
    try:
        canonical = parse_exclusion(value)
    except ValueError as exc:
        raise PolicyError(f"policy field 'exclude_matter': {exc}") from None
    if canonical != value:
        raise PolicyError(f"policy field 'exclude_matter' must be written {canonical!r}; got {value!r}")


def _check_encoding_name(name: str) -> None:
    import tiktoken

    known = tiktoken.list_encoding_names()
    if name not in known:
        raise PolicyError(
            f"policy field 'encoding' must be a tiktoken encoding ({', '.join(known)}); got {name!r}"
        )


def parse_policy(spec: str, base: Policy | None = None) -> Policy:
    """Parse ``"strategy=fixed-window,max_tokens=512"`` into a Policy; unnamed fields keep defaults.

    Args:
        spec (str): comma-separated ``key=value`` pairs; keys are ``Policy`` field names
            (``exclude_matter=contents+index``: ``+`` between matters).
        base (Policy | None): the policy whose values unnamed fields keep. Defaults to ``Policy()``.

    Raises:
        PolicyError: an unknown key, a malformed pair or an invalid value (the message names it).
    """
    base = base or Policy()
    known = {f.name: f for f in fields(Policy)}
    changes: dict[str, Any] = {}
    for pair in filter(None, (p.strip() for p in spec.split(","))):
        key, sep, raw = pair.partition("=")
        key = key.strip().replace("-", "_")
        if not sep:
            raise PolicyError(f"policy item {pair!r} must look like key=value")
        if key not in known:
            raise PolicyError(f"unknown policy field {key!r}; known fields: {', '.join(known)}")
        raw = raw.strip()
        if key == "exclude_matter":  # NOTE: "," separates the pairs, so the names take "+" here
            try:
                changes[key] = parse_exclusion(raw)
            except ValueError as exc:
                raise PolicyError(f"policy field 'exclude_matter': {exc}") from None
        elif known[key].type in ("bool", bool):
            changes[key] = _parse_bool(key, raw)
        elif known[key].type in ("int", int):
            try:
                changes[key] = int(raw)
            except ValueError:
                raise PolicyError(f"policy field {key!r} must be an integer, got {raw!r}") from None
        else:
            changes[key] = raw
    return replace(base, **changes)


_BOOLS = {
    "true": True,
    "1": True,
    "yes": True,
    "on": True,
    "false": False,
    "0": False,
    "no": False,
    "off": False,
}
"""How a ``--policy`` spec may write a yes/no field (``prefix_in_budget=true``)."""


def _parse_bool(key: str, raw: str) -> bool:
    """A yes/no field of a ``--policy`` spec (``_BOOLS``, any case).

    Raises:
        PolicyError: any other word (the message names the field).
    """
    value = _BOOLS.get(raw.lower())
    if value is None:
        raise PolicyError(f"policy field {key!r} must be true or false, got {raw!r}")
    return value


def parse_policies(specs: Sequence[str], default: Sequence[Policy]) -> list[Policy]:
    """Parse ``--policy`` specs (before any file is opened); ``default`` when none is given.

    Raises:
        PolicyError: a spec is malformed or invalid (the message names the field).
    """
    return [parse_policy(spec) for spec in specs] or list(default)
