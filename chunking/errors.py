"""One small exception hierarchy; each class maps to one documented CLI exit code.

Every message is one line a user can act on: it names the file or field and says what to do.
"""

from __future__ import annotations

from collections.abc import Sequence


class ChunkingError(Exception):
    """Base of every error this package raises on purpose."""

    exit_code = 1


class UsageError(ChunkingError):
    """Bad command-line use or a bad policy value (exit 2)."""

    exit_code = 2


class PolicyError(UsageError):
    """A policy field is invalid; the message names the field (exit 2)."""

    @property
    def field(self) -> str | None:
        """The field the message names (``policy field 'max_pages' …`` → ``"max_pages"``), so a
        form can show the message beside that field's input; None when it names none."""
        import re

        found = re.search(r"policy field '(\w+)'", str(self))
        return found.group(1) if found else None


class ChunkLimitError(UsageError):
    """The book needs more chunks than ``max_chunks`` allows; nothing is written (exit 2)."""


class PageRefused(Exception):
    """A question about a PDF page's content was not answered by the bounded page reader
    (``chunking.readers.pdfchild.BoundedPdf.ask``): stopped by the page limits, or MuPDF could not
    answer; the message says why. Its callers turn it into a warning (no CLI exit code)."""


class UnreadableInputError(ChunkingError):
    """The input book cannot be read: corrupt, encrypted, unsupported, unsafe (exit 3)."""

    exit_code = 3


class ValidationFailure(ChunkingError):
    """A chunk set breaks one of the rules in ``chunking.validate`` (exit 4)."""

    exit_code = 4


class OutputError(ChunkingError):
    """The output cannot be written: disk full, file-size limit, no permission, a missing or
    read-only folder (exit 5). No partial or temp file is left behind."""

    exit_code = 5


INTERNAL_ERROR_EXIT = 70
"""Exit code of an unexpected error, a bug (``EX_SOFTWARE`` of BSD's sysexits.h)."""

INTERRUPTED_EXIT = 130
"""Exit code after Ctrl-C (SIGINT): 128 + 2, as shells report it."""

TERMINATED_EXIT = 143
"""Exit code after SIGTERM (what ``timeout``, systemd and docker send): 128 + 15."""

MAX_WARNINGS_PRINTED = 10
"""``chunk`` and ``outline`` print at most this many warnings on stderr, then a count line."""

_UNSAFE = {c: f"\\x{c:02x}" for c in [*range(0x20), 0x7F, *range(0x80, 0xA0)]}
_UNSAFE |= {c: f"\\u{c:04x}" for c in [0x2028, 0x2029, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]}


def one_line(text: object) -> str:
    """``text`` as one safe terminal line: whitespace runs become one space, and control
    characters (terminal escapes, bidi overrides) from book data are shown escaped, not obeyed."""
    return " ".join(str(text).split()).translate(_UNSAFE)


def positive_from_env(name: str, default: float, unit: str = "seconds") -> float:
    """The positive number in environment variable ``name``, ``default`` when it is unset or empty.

    Raises:
        UsageError: the variable is set to something else (one line naming it and ``unit``).
    """
    import os

    raw = os.environ.get(name)
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = 0.0
    if not 0 < value < float("inf"):
        raise UsageError(f"{name}={one_line(raw)}: expected a positive number of {unit}")
    return value


def describe_os_error(exc: OSError) -> str:
    """``path: reason`` for an ``OSError`` (``No space left on device``, ``File too large`` …)."""
    reason = exc.strerror or type(exc).__name__
    return f"{exc.filename}: {reason}" if exc.filename else reason


def print_warnings(warnings: Sequence[str], *, where: str, stream=None, book: str = "") -> None:
    """Print each warning as ``chunking: warning: …`` on stderr, at most ``MAX_WARNINGS_PRINTED``,
    then one line counting the rest and saying where all of them are kept (``where``). Batch mode
    names the ``book`` each line is about (``chunking: warning: BOOK: …``)."""
    import sys

    out = stream or sys.stderr
    head = f"chunking: warning: {one_line(book)}: " if book else "chunking: warning: "
    for warning in warnings[:MAX_WARNINGS_PRINTED]:
        print(f"{head}{one_line(warning)}", file=out)
    if len(warnings) > MAX_WARNINGS_PRINTED:
        print(
            f"{head}… and {len(warnings) - MAX_WARNINGS_PRINTED} more warnings ({where})",
            file=out,
        )
