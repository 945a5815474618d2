"""Stage 5 (chunk): ``Policy.prefix_in_budget`` — the breadcrumb embedded before a chunk counts.

Why: ``index --embed-prefix breadcrumb`` embeds ``Book title › Chapter › Section`` and a blank
line before each chunk's text (``chunking.retrieval.breadcrumb``). A chunk cut to ``max_tokens``
(often the embedding model's own limit) is then longer than the model takes and loses its tail.
With ``prefix_in_budget`` every chunk is cut so that the prefix of *its own* chapter and section
plus its text re-encode, as one string, to at most ``max_tokens`` tokens of the policy's
encoding; the stored text stays the exact slice. The rule lives here once: every strategy cuts
with a ``Budget``, and the validator checks the same count (``breadcrumb.prefixed_tokens``).

How: a window starting at token ``t`` may hold ``max_tokens`` minus the prefix's tokens, the
prefix named by the headings in force at its first non-space character (as ``build_chunks``
names them). The joined text is then re-encoded and the window shortened while it is over (the
prefix's last piece may join the text's first). The ``section`` strategy renames merged runs and
split parts; it passes those names (``Budget.named``), and a split part is held to both its
``(Part n)`` name and the plain one (a section split into one window keeps the plain name).
Off (the default), the limit is ``max_tokens`` and the count is the text's own: the cut is the
one it always was.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Sequence

from ..encodings import get_encoding
from ..errors import PolicyError
from ..policy import Policy
from ..retrieval.breadcrumb import breadcrumb_prefix, prefixed_tokens
from ..rules import ContextIndex
from ..tokens import TokenizedBook

_NON_SPACE = re.compile(r"\S")

Names = Callable[[int], Sequence[str | None]]
"""Window number (1-based, in its segment) → the section names its chunk may carry; None is the
section in force at its first non-space character."""


def _plain(n: int) -> Sequence[str | None]:
    return (None,)


class Budget:
    """How many tokens a chunk starting at a token may hold, and by how much a span is over.

    Args:
        tb (TokenizedBook): the tokenized book (its title and headings name the prefixes).
        policy (Policy): ``max_tokens``, ``encoding`` and ``prefix_in_budget``.
        names (Names | None): the section names a window may carry (``Budget.named``).
    """

    def __init__(self, tb: TokenizedBook, policy: Policy, names: Names | None = None) -> None:
        self.tb = tb
        self.policy = policy
        self.on = policy.prefix_in_budget
        self.names = names or _plain
        self.enc = get_encoding(tb.encoding)
        self.contexts = ContextIndex(tb.book.headings) if self.on else None
        self._costs: dict[str, int] = {}

    def named(self, names: Names) -> Budget:
        """This budget for chunks that may carry ``names`` instead of the section in force."""
        other = copy.copy(self)  # NOTE: shallow: the copies share the prefix-cost cache
        other.names = names
        return other

    def prefixes(self, start: int, n: int = 1) -> list[str]:
        """The breadcrumb prefixes the ``n``-th window of its segment, starting at token
        ``start``, may be embedded with (``[""]`` when the option is off)."""
        if not self.on or self.contexts is None:
            return [""]
        cs, text = self.tb.char_starts, self.tb.book.text
        found = _NON_SPACE.search(text, int(cs[start]))
        ctx = self.contexts.at(found.start() if found else int(cs[start]))
        title = self.tb.book.title
        return [breadcrumb_prefix(title, ctx.chapter, ctx.section if s is None else s) for s in self.names(n)]

    def limit(self, start: int, n: int = 1) -> int:
        """Tokens of text the ``n``-th window starting at ``start`` may hold: ``max_tokens`` less
        its longest prefix.

        Raises:
            PolicyError: a prefix leaves no token for text (names ``max_tokens`` and the crumb).
        """
        prefixes = self.prefixes(start, n)
        cost = max(self._cost(p) for p in prefixes)
        room = self.policy.max_tokens - cost
        if room < 1:
            worst = max(prefixes, key=self._cost).strip()
            raise PolicyError(
                f"policy field 'max_tokens' ({self.policy.max_tokens}) leaves no room for text after "
                f"the breadcrumb {worst!r} ({cost} tokens) with prefix_in_budget: raise max_tokens"
            )
        return room

    def refuse(self, start: int, end: int, n: int = 1) -> None:
        """Stop the cut: the text at ``start`` cannot be cut shorter (one character holds
        several tokens) and is over ``max_tokens`` after its breadcrumb.

        Raises:
            PolicyError: naming ``max_tokens``, the crumb and where the text is.
        """
        worst = max(self.prefixes(start, n), key=self._cost).strip()
        over = self.excess(start, end, n)
        raise PolicyError(
            f"policy field 'max_tokens' ({self.policy.max_tokens}) leaves no room for the text at "
            f"char {int(self.tb.char_starts[start])} after the breadcrumb {worst!r}: it is {over} "
            "token(s) over with prefix_in_budget and cannot be cut shorter; raise max_tokens"
        )

    def excess(self, start: int, end: int, n: int = 1) -> int:
        """Tokens by which tokens ``[start, end)``, re-encoded after each of their prefixes, are
        over ``max_tokens`` (0 or less: within it)."""
        cs = self.tb.char_starts
        body = self.tb.book.text[int(cs[start]) : int(cs[end])]
        worst = max(prefixed_tokens(self.enc, p, body) for p in self.prefixes(start, n))
        return worst - self.policy.max_tokens

    def _cost(self, prefix: str) -> int:
        """Tokens of ``prefix`` alone (cached: a book has few chapter/section pairs)."""
        if prefix not in self._costs:
            self._costs[prefix] = len(self.enc.encode_ordinary(prefix))
        return self._costs[prefix]
