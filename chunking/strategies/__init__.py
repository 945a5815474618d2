"""Stage 5 (chunk): the strategy registry and ``chunk_book``.

Every strategy is a function ``(TokenizedBook, Policy) -> list[Chunk]`` registered in
``STRATEGY_FUNCS`` under its ``Policy.strategy`` name. Strategies only decide spans; provenance,
ids and the ``max_chunks`` check are shared (``chunking.strategies.common``).
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import PolicyError
from ..models import Chunk
from ..policy import Policy
from ..tokens import TokenizedBook
from .section import section_chunks
from .window import chapter_window, fixed_window

StrategyFunc = Callable[[TokenizedBook, Policy], list[Chunk]]

STRATEGY_FUNCS: dict[str, StrategyFunc] = {
    "chapter-window": chapter_window,
    "fixed-window": fixed_window,
    "section": section_chunks,
}
"""Strategy name → function; the ``section`` strategy registers itself here."""


def chunk_book(tokenized: TokenizedBook, policy: Policy) -> list[Chunk]:
    """Cut a tokenized book into chunks with the policy's strategy.

    Args:
        tokenized (TokenizedBook): the book's token stream (its encoding must be the policy's).
        policy (Policy): the validated policy.

    Returns:
        list[Chunk]: chunks in book order with full provenance.

    Raises:
        PolicyError: the strategy is not registered, or the book was tokenized with another
            encoding than the policy names.
        ChunkLimitError: the book needs more than ``policy.max_chunks`` chunks.
    """
    if tokenized.encoding != policy.encoding:
        raise PolicyError(
            f"policy field 'encoding' is {policy.encoding!r} but the book was tokenized with "
            f"{tokenized.encoding!r}; tokenize it again with the policy's encoding"
        )
    func = STRATEGY_FUNCS.get(policy.strategy)
    if func is None:
        raise PolicyError(
            f"policy field 'strategy' must be one of {', '.join(sorted(STRATEGY_FUNCS))}; got {policy.strategy!r}"
        )
    return func(tokenized, policy)
