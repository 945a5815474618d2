"""One small exception hierarchy; each class maps to one documented CLI exit code.

Every message is one line a user can act on: it names the file or field and says what to do.
"""

from __future__ import annotations


class ChunkingError(Exception):
    """Base of every error this package raises on purpose."""

    exit_code = 1


class UsageError(ChunkingError):
    """Bad command-line use or a bad policy value (exit 2)."""

    exit_code = 2


class PolicyError(UsageError):
    """A policy field is invalid; the message names the field (exit 2)."""


class ChunkLimitError(UsageError):
    """The book needs more chunks than ``max_chunks`` allows; nothing is written (exit 2)."""


class UnreadableInputError(ChunkingError):
    """The input book cannot be read: corrupt, encrypted, unsupported, unsafe (exit 3)."""

    exit_code = 3


class ValidationFailure(ChunkingError):
    """A chunk set breaks one of the rules in ``chunking.validate`` (exit 4)."""

    exit_code = 4
