"""Command line: ``python -m chunking COMMAND …``.

One argparse subcommand per command; each handler lives in ``chunking/commands/<name>.py`` as
``run(**options) -> int`` taking explicit keyword arguments. One error handler maps the error
classes of ``chunking.errors`` to exit codes: 0 ok, 2 usage or policy error, 3 unreadable input,
4 validation failure, 5 output cannot be written, 70 internal error (a bug), 130 interrupted
(SIGINT), 143 terminated (SIGTERM). Errors are one line on stderr, never a traceback: a last-resort
handler turns any unexpected exception into one "internal error" line.
"""

from __future__ import annotations

import argparse
import atexit
import importlib
import os
import signal
import sys
from collections.abc import Sequence
from typing import NoReturn

from .errors import (
    INTERNAL_ERROR_EXIT,
    INTERRUPTED_EXIT,
    TERMINATED_EXIT,
    ChunkingError,
    OutputError,
    UsageError,
    describe_os_error,
    one_line,
)
from .matter import MATTERS, parse_exclusion
from .links import EXPANSIONS
from .models import FENCES, OCR_MODES, RETRIEVERS, SNAPS, STRATEGIES, STRUCTURE_SOURCES
from .policy import POLICY_DEFAULTS
from .retrieval.breadcrumb import EMBED_PREFIXES
from .rules import EXPORT_FORMATS

PROG = "python -m chunking"
"""How usage lines name the program; ``chunking`` when run as the installed console script."""


def _prog() -> str:
    return "chunking" if os.path.basename(sys.argv[0] or "") == "chunking" else PROG


FORMATS = tuple(EXPORT_FORMATS)
"""``--format`` choices (``chunking.rules.EXPORT_FORMATS``)."""


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of exiting, so usage errors take the one error path."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


def _add_policy_options(p: argparse.ArgumentParser) -> None:
    """One option per ``Policy`` field; every default is ``Policy``'s own (``POLICY_DEFAULTS``)."""
    d = POLICY_DEFAULTS
    g = p.add_argument_group("policy (defaults = the chapter-aware profile, chunking.Policy)")
    g.add_argument("--strategy", choices=STRATEGIES, default=d["strategy"], help="default: %(default)s")
    g.add_argument(
        "--max-tokens", type=int, default=d["max_tokens"], help="hard token limit per chunk (%(default)s)"
    )
    g.add_argument(
        "--overlap",
        type=int,
        default=d["overlap_tokens"],
        dest="overlap_tokens",
        help="tokens repeated from the previous chunk, never across a fence (%(default)s)",
    )
    g.add_argument(
        "--target-pages", type=int, default=d["target_pages"], help="soft page target per chunk (%(default)s)"
    )
    g.add_argument(
        "--max-pages", type=int, default=d["max_pages"], help="hard page-span limit per chunk (%(default)s)"
    )
    g.add_argument(
        "--max-chunks",
        type=int,
        default=d["max_chunks"],
        help="fail (write nothing) above this (%(default)s)",
    )
    g.add_argument(
        "--fence", choices=FENCES, default=d["fence"], help="level where chunks are cut (%(default)s)"
    )
    g.add_argument("--encoding", default=d["encoding"], help="tiktoken encoding (%(default)s)")
    g.add_argument(
        "--snap",
        choices=SNAPS,
        default=d["snap"],
        help="end windows at sentence/paragraph ends (%(default)s)",
    )
    g.add_argument(
        "--min-section-tokens",
        type=int,
        default=d["min_section_tokens"],
        help="section strategy: merge sections below this (0 = max_tokens // 4; %(default)s)",
    )
    g.add_argument(
        "--min-chunk-tokens",
        type=int,
        default=d["min_chunk_tokens"],
        metavar="N",
        help="window strategies: merge chunks below N tokens into a neighbour of their chapter "
        "when the limits allow (0 = off; %(default)s)",
    )
    g.add_argument(
        "--prefix-in-budget",
        action="store_true",
        default=d["prefix_in_budget"],
        help="cut chunks so that 'Book title › Chapter › Section' (index --embed-prefix breadcrumb) "
        "and the text fit --max-tokens together",
    )
    g.add_argument(
        "--exclude-matter",
        type=_matters,
        default=d["exclude_matter"],
        metavar="MATTER,...",
        help=f"leave out the chunks of these matters ({', '.join(MATTERS)}), e.g. contents,index "
        "(default: keep every chunk)",
    )


def _matters(text: str) -> str:
    """``--exclude-matter``'s value in its canonical form (``chunking.matter.parse_exclusion``)."""
    try:
        return parse_exclusion(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _add_structure_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--structure",
        choices=STRUCTURE_SOURCES,
        default=POLICY_DEFAULTS["structure"],
        help="where structure comes from (auto: outline where it holds up, else headings; %(default)s)",
    )


def _add_ocr_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--ocr",
        choices=OCR_MODES,
        default=POLICY_DEFAULTS["ocr"],
        help="read PDF pages by OCR (Tesseract): auto: pages without a usable text layer; "
        "always: every page; never (%(default)s)",
    )
    p.add_argument(
        "--ocr-language",
        default=POLICY_DEFAULTS["ocr_language"],
        metavar="LANG",
        help="Tesseract language(s) for OCR, e.g. eng or eng+deu (%(default)s)",
    )


def _add_structure_file_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--structure-file",
        default=None,
        metavar="F",
        help="apply the structure corrections in F (<book>.structure.json, see CHUNKING.md)",
    )


def _add_policies_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--policy",
        action="append",
        default=[],
        metavar="KEY=VALUE,…",
        help='a policy, e.g. "strategy=fixed-window,max_tokens=512"; repeat to compare',
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=_prog(), description="Chapter-aware chunking of books for RAG.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("outline", help="print the book's structure, one JSON object per heading")
    p.add_argument("book")
    _add_structure_option(p)
    _add_ocr_options(p)
    p.add_argument(
        "--explain",
        action="store_true",
        help="print each heading with the evidence of every signal, then the disagreements",
    )
    _add_structure_file_option(p)
    p.add_argument(
        "--write-structure",
        default=None,
        metavar="F",
        help="write the engine's headings (with anchors) as a structure file to edit",
    )
    p.add_argument(
        "--write-pdf",
        default=None,
        metavar="OUT.pdf",
        help="PDF books: write a copy whose outline (bookmarks) is the final structure",
    )

    p = sub.add_parser("chunk", help="chunk a book (or every book under a folder) and export")
    p.add_argument("book", help="a book file, or a folder of books (batch mode; needs -o)")
    p.add_argument("-o", "--out", default=None, help="output file (stdout, JSONL, when absent)")
    p.add_argument("--format", choices=FORMATS, default=None, help="default: from -o's extension, else jsonl")
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        help="cores to use: one book is tokenized and validated on that many threads (its pages are "
        "read in this process); batch mode runs that many books side by side (default: every core "
        "this process may run on, chunking.cores; 1 keeps everything on one core)",
    )
    p.add_argument(
        "--engine",
        choices=("local", "ray"),
        default="local",
        help="batch mode: local worker processes or Ray actors (--dataset writes with Ray Data)",
    )
    p.add_argument("--ray-address", default=None, metavar="ADDR", help="--engine ray: an existing cluster")
    p.add_argument("--dataset", default=None, metavar="PATH", help="--engine ray: also a Parquet dataset")
    _add_structure_option(p)
    _add_ocr_options(p)
    _add_policy_options(p)
    _add_structure_file_option(p)

    p = sub.add_parser("validate", help="re-check exported chunks against rules 1-8 (8: links and headings)")
    p.add_argument("chunks")
    p.add_argument(
        "--manifest",
        default=None,
        help="default: <chunks file name>.manifest.json (or the older <chunks stem>.manifest.json)",
    )
    p.add_argument(
        "--book",
        default=None,
        help="the book, when it is no longer at the manifest's path (its sha256 must match)",
    )

    p = sub.add_parser("diff", help="upsert plan between two chunk files of one book")
    p.add_argument("old", help="the chunk file now in the vector store (its manifest beside it)")
    p.add_argument("new", help="the new chunk file (its manifest beside it)")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser(
        "index", help="apply a chunk file to a vector store (LanceDB), embedding only new text"
    )
    p.add_argument("chunks", help="the chunk file (its manifest beside it)")
    p.add_argument(
        "--store", required=True, metavar="lancedb:DIR", help="the store (a folder; made if absent)"
    )
    p.add_argument(
        "--embed-prefix",
        choices=EMBED_PREFIXES,
        default="none",
        help="embed 'Book title › Chapter › Section' before each text; the stored text is unchanged",
    )
    p.add_argument(
        "--prefix-in-budget",
        action="store_true",
        help="refuse chunks whose prefixed text exceeds max_tokens (a run chunked with "
        "'chunk --prefix-in-budget' never has one)",
    )
    p.add_argument(
        "--replace-book", action="store_true", help="the run is a new edition of the store's book: replace it"
    )
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("compare", help="score several policies on one book")
    p.add_argument("book")
    _add_policies_option(p)
    _add_structure_file_option(p)
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("locate", help="find where a passage (or the chunk a chunk id names) comes from")
    p.add_argument("book")
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--passage-file", help="a file holding the passage ('-': standard input)")
    what.add_argument(
        "--chunk-id",
        help="a chunk id a vector store returned (or its first 8+ hex digits): show that chunk per policy",
    )
    _add_policies_option(p)
    _add_structure_file_option(p)
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("search", help="top-k chunks per policy (BM25, dense or hybrid), or of a store")
    p.add_argument("book", nargs="?", help="the book (leave out with --store)")
    p.add_argument("query")
    p.add_argument("--store", default=None, metavar="lancedb:DIR", help="search a store built by 'index'")
    p.add_argument(
        "--expand", choices=EXPANSIONS, default=None, help="also give each hit's section or neighbours"
    )
    p.add_argument("-k", type=int, default=5)
    p.add_argument("--retriever", choices=RETRIEVERS, default="bm25", help="hybrid = reciprocal rank fusion")
    _add_policies_option(p)
    _add_structure_file_option(p)
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("evaluate", help="evaluation per policy × retriever (no LLM)")
    p.add_argument("book")
    _add_policies_option(p)
    p.add_argument("--retriever", action="append", choices=RETRIEVERS, help="repeat; default: all three")
    p.add_argument("--book-index", action="store_true", help="judge with the book's printed index")
    _add_structure_file_option(p)
    p.add_argument("-n", type=int, default=200)
    p.add_argument("-k", type=int, default=5)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true")
    return parser


class Terminated(BaseException):
    """Raised by the SIGTERM handler; a ``BaseException`` so that it unwinds like Ctrl-C and
    every ``except BaseException`` cleanup (the temp files of ``chunking.export``) runs."""


def _on_sigterm(signum, frame) -> None:
    raise Terminated()


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush of a broken or full stdout
    prints nothing (Python's documented recipe for SIGPIPE)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; return its exit code. Errors become one stderr line, never a traceback."""
    try:
        previous = signal.signal(signal.SIGTERM, _on_sigterm)
    except ValueError:  # not the main thread (main() called from a thread): keep the default
        previous = None
    try:
        code = _run(argv)
        sys.stdout.flush()
        return code
    except ChunkingError as exc:
        print(f"chunking: error: {one_line(exc)}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("chunking: interrupted", file=sys.stderr)
        return INTERRUPTED_EXIT
    except Terminated:
        print("chunking: terminated (SIGTERM)", file=sys.stderr)
        return TERMINATED_EXIT
    except BrokenPipeError:
        _silence_stdout()
        return 0
    except OSError as exc:
        # NOTE: readers and exporters map their own OSErrors; one that reaches here is almost
        # always stdout (a full disk, a file-size limit) or a file a command opened itself.
        _silence_stdout()
        print(f"chunking: error: cannot read or write: {one_line(describe_os_error(exc))}", file=sys.stderr)
        return OutputError.exit_code
    except Exception as exc:  # NOTE: last resort: a bug must still end in one line, not a traceback
        print(
            f"chunking: internal error: {type(exc).__name__}: {one_line(exc)} (please report it to the "
            f"maintainers with the command line and, if you can, the book)",
            file=sys.stderr,
        )
        return INTERNAL_ERROR_EXIT
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def console() -> NoReturn:
    """The ``chunking`` command and ``python -m chunking``: ``main`` on ``sys.argv``, then the
    process ends with its exit code (``exit_process``)."""
    exit_process(main())


def exit_process(code: int) -> NoReturn:
    """End this process with ``code``, skipping the interpreter's teardown.

    NOTE: finalisation frees every object of the run one by one, for a process that is ending
    anyway; mypy's CLI ends the same way. Nothing is lost: output files are complete before this
    (written whole, then renamed), the exit handlers run first (multiprocessing's and logging's
    handlers run), then stdout and stderr are flushed. ``main``
    itself returns normally, for callers in the same process (tests, scripts).
    """
    try:
        atexit._run_exitfuncs()  # noqa: SLF001 - the handlers normal exit runs (tests/test_cli.py)
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):  # a closed or broken pipe: nothing more can be said
                pass
        os._exit(code)


def _run(argv: Sequence[str] | None) -> int:
    args = build_parser().parse_args(argv)
    options = vars(args)
    command = options.pop("command")
    handler = importlib.import_module(f"chunking.commands.{command}")
    code = handler.run(**options)
    if not isinstance(code, int):
        raise AssertionError(f"command {command!r} returned {code!r}, not an exit code")
    return code
