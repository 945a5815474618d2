"""Batch runs: every book under a folder, in parallel processes, resumable (issue 7).

``run_batch(book_dir, out_dir, policy, fmt, workers)`` is what ``python -m chunking chunk DIR -o
OUTDIR [--workers N]`` calls. Contract:

* every supported book under ``book_dir`` (recursively, hidden files and ``out_dir`` excluded)
  is chunked by the same ``pipeline.run_book`` + ``export.write_outputs`` as a single-book run,
  so each output is byte-identical to ``python -m chunking chunk BOOK -o OUT``;
* outputs mirror the folder tree: ``DIR/a/b.pdf`` → ``OUTDIR/a/b.pdf.<ext>`` and
  ``OUTDIR/a/b.pdf.jsonl.manifest.json`` (the book's full name is kept, so ``b.pdf`` and ``b.epub``
  never collide);
* a book whose manifest already records the same sha256, policy and format, a passing
  validation and an existing chunk file is skipped, so an interrupted run resumes;
* a failing book is reported at the end (one line each) and never stops the others, not even when
  the OS kills its worker process (``chunking.workerpool``: only that book fails, exit code 1);
  the exit code is 0 only when no book failed;
* a structure file beside a book (``b.pdf.structure.json``, else ``b.structure.json``) is applied
  to that book, as ``--structure-file`` would (the corrected book's digest salts the ids, the
  manifest records it, and a changed file means "run it again");
  a bad one fails only that book (exit 3).
"""

from __future__ import annotations

import hashlib
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..cores import available_cores
from ..errors import ChunkingError, UsageError, print_warnings
from ..export import check_output_path, find_manifest, write_outputs
from ..inputs import MAX_MANIFEST_BYTES, load_json
from ..matter import Exclusion
from ..policy import Policy
from ..readers import SUPPORTED_EXTENSIONS
from ..rules import EXPORT_FORMATS
from ..workerpool import NoWorker, TaskRaised, WorkerDied, imap_unordered

if TYPE_CHECKING:
    from tqdm import tqdm


CORES_PER_BOOK = 1
"""A batch runs books side by side, one core each (``--workers`` of them): a book's own
page-extraction process and tokenizer threads would only contend with the other workers, and
``--workers 1`` then really means one core. The output does not depend on it."""


WORKER_PRELOAD = ("chunking.batch.preload",)
"""Loaded once by the workers' fork server (``chunking.batch.preload``: the stack and the
vocabulary), so no worker pays for its own imports."""


@dataclass(frozen=True)
class Outcome:
    """What happened to one book (picklable: it crosses the process boundary).

    Attributes:
        book (str): the book's path relative to the batch folder.
        status (str): ``written``, ``skipped`` or ``failed``.
        exit_code (int): the single-book CLI's exit code for this book (0 when not failed).
        message (str): one line: chunk count, or the error.
        excluded_chunks, excluded_tokens (int): what ``Policy.exclude_matter`` left out.
        warnings (tuple[str, ...]): the book's reader warnings (``Diagnostics.warnings``), which
            ``report`` prints under the book's name as a single-book run prints them.
    """

    book: str
    status: str
    exit_code: int = 0
    message: str = ""
    excluded_chunks: int = 0
    excluded_tokens: int = 0
    warnings: tuple[str, ...] = ()


def find_books(book_dir: str | os.PathLike, out_dir: str | os.PathLike | None = None) -> list[Path]:
    """Every supported book file under ``book_dir``, in a stable (sorted) order.

    Args:
        book_dir (str | os.PathLike): the folder to search recursively.
        out_dir (str | os.PathLike | None): a folder to leave out (the batch's own outputs may
            live inside ``book_dir``). Defaults to None.

    Returns:
        list[Path]: book paths; hidden files and folders (``.name``) are left out.
    """
    root = Path(book_dir).resolve()
    skip = Path(out_dir).resolve() if out_dir is not None else None
    books = []
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if any(part.startswith(".") for part in rel.parts) or not path.is_file():
            continue
        if skip is not None and (path == skip or skip in path.parents):
            continue
        if path.suffix.lower() in SUPPORTED_EXTENSIONS:
            books.append(path)
    return books


def output_path(book: Path, book_dir: Path, out_dir: Path, fmt: str) -> Path:
    """Where one book's chunk file goes: the book's relative path plus the format's extension."""
    # NOTE: ``book`` comes from ``find_books`` (under the resolved folder); it is not resolved
    # itself, so a symlinked book keeps its place in the tree.
    rel = book.relative_to(book_dir.resolve())
    return out_dir / rel.parent / (rel.name + EXPORT_FORMATS[fmt])


def is_done(book: Path, out: Path, policy: Policy, fmt: str) -> bool:
    """True when ``out`` already holds this book's chunks for this policy and format.

    The manifest (written after its chunk file, so its presence means the chunk file is
    complete) must name the same sha256, the same policy, the corrections digest of the
    structure file beside the book (``""`` for none), the same format and a passing validation;
    anything unreadable or different means "run it again".
    """
    manifest_file = find_manifest(out)
    if not (out.is_file() and manifest_file.is_file()):
        return False
    try:
        sf = _structure_file(book)
        manifest = load_json(manifest_file, MAX_MANIFEST_BYTES, str(manifest_file), "manifest")
        return (
            manifest["book"]["sha256"] == _sha256(book)
            and manifest["policy"] == policy.to_dict()
            and manifest["corrections"] == (sf.digest() if sf else "")
            and manifest["output"]["format"] == fmt
            and bool(manifest["validation"]["ok"])
        )
    except (OSError, ValueError, KeyError, TypeError, ChunkingError):
        return False


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def structure_file_for(book: Path) -> Path | None:
    """The structure file beside ``book``: ``<name>.structure.json``, else ``<stem>.structure.json``."""
    for candidate in (
        book.with_name(book.name + ".structure.json"),
        book.with_name(book.stem + ".structure.json"),
    ):
        if os.path.lexists(candidate):  # NOTE: a FIFO or a dangling link fails the book, not ignored
            return candidate
    return None


def _structure_file(book: Path):
    """The book's structure file, parsed, or None."""
    from ..structure_file import load_structure_file

    found = structure_file_for(book)
    return None if found is None else load_structure_file(found)


def process_book(book: Path, out: Path, policy: Policy, fmt: str, label: str) -> Outcome:
    """Chunk one book exactly as the single-book CLI does and write its outputs.

    Never raises for a bad book: every failure becomes an ``Outcome`` carrying the exit code the
    single-book CLI would have returned, so one book can never stop the batch.
    """
    from ..pipeline import run_book

    try:
        # NOTE: the single-book rule (chunking.targets): no output may be one of the book's inputs
        check_output_path(out, book, [("the structure file", structure_file_for(book))])
        result = run_book(str(book), policy, structure_file=_structure_file(book), workers=CORES_PER_BOOK)
        write_outputs(result.chunks, result.manifest, out, fmt)
    except ChunkingError as exc:
        return Outcome(label, "failed", exc.exit_code, " ".join(str(exc).split()))
    except Exception as exc:  # NOTE: a bug on one book must not cost the others their output
        return Outcome(label, "failed", 1, f"internal error: {type(exc).__name__}: {exc}")
    warnings = tuple(result.book.diagnostics.warnings)
    if not result.report.ok:
        message = f"written, but validation failed: {result.report.message}"
        return Outcome(label, "failed", 4, message, warnings=warnings)
    left = result.excluded
    return Outcome(label, "written", 0, f"{len(result.chunks)} chunks", left.chunks, left.tokens, warnings)


@dataclass(frozen=True)
class Task:
    """One book still to chunk: where it is, where its chunk file goes, its label in reports."""

    book: Path
    out: Path
    label: str


@dataclass(frozen=True)
class Plan:
    """A batch after its checks and the resume pass, before any book is chunked.

    Attributes:
        root (Path): the book folder as given.
        out_root (Path): the output folder as given.
        todo (list[Task]): the books to chunk, largest file first (see ``plan_batch``).
        skipped (list[Outcome]): the books already done (``is_done``), as ``skipped`` outcomes.
    """

    root: Path
    out_root: Path
    todo: list[Task]
    skipped: list[Outcome]

    @property
    def total(self) -> int:
        """Every book of the batch: to do plus skipped."""
        return len(self.todo) + len(self.skipped)


def plan_batch(
    book_dir: str | os.PathLike,
    out_dir: str | os.PathLike,
    policy: Policy,
    fmt: str,
    workers: int | None = None,
) -> Plan:
    """Check a batch's arguments, find its books and split them into done (skipped) and to do.

    Every engine (local processes here, Ray in ``chunking.batch.ray_engine``) starts from this
    one plan, so both find the same books, write them to the same paths and skip the same ones.
    The books to do come largest file first: a long book started last would otherwise run alone
    on one worker at the end while the others sit idle (longest-processing-time-first order).

    Raises:
        UsageError: ``book_dir`` is not a folder, holds no book, equals ``out_dir``, ``fmt`` is
            unknown or ``workers`` is below 1.
    """
    root = Path(book_dir)
    if not root.is_dir():
        raise UsageError(f"{book_dir}: not a folder")
    if workers is not None and workers < 1:
        raise UsageError(f"--workers must be at least 1; got {workers}")
    if fmt not in EXPORT_FORMATS:
        raise UsageError(f"--format must be one of {', '.join(EXPORT_FORMATS)}; got {fmt!r}")
    out_root = Path(out_dir)
    if out_root.resolve() == root.resolve():
        raise UsageError(
            f"-o {out_dir}: the output folder must differ from the book folder (it may sit inside it)"
        )
    books = find_books(root, out_root)
    if not books:
        raise UsageError(f"{book_dir}: no books ({', '.join(SUPPORTED_EXTENSIONS)}) under this folder")
    skipped: list[Outcome] = []
    todo: list[Task] = []
    for book in books:
        label = str(book.relative_to(root.resolve()))
        out = output_path(book, root, out_root, fmt)
        if is_done(book, out, policy, fmt):
            skipped.append(Outcome(label, "skipped", 0, "already done for this sha256 and policy"))
        else:
            todo.append(Task(book, out, label))
    todo.sort(key=_size, reverse=True)  # NOTE: stable: equal sizes keep the sorted-path order
    return Plan(root, out_root, todo, skipped)


def _size(task: Task) -> int:
    """The book's file size: the cheap proxy for its chunking time that orders the work."""
    try:
        return task.book.stat().st_size
    except OSError:
        return 0


def run_batch(
    book_dir: str | os.PathLike,
    out_dir: str | os.PathLike,
    policy: Policy,
    fmt: str,
    workers: int | None = None,
) -> int:
    """Chunk every book under ``book_dir`` into ``out_dir``, in parallel, skipping finished ones.

    Args:
        book_dir (str | os.PathLike): folder of books (searched recursively).
        out_dir (str | os.PathLike): folder for the chunk files and manifests (created).
        policy (Policy): the validated policy, the same for every book.
        fmt (str): export format (``jsonl``, ``csv``, ``parquet`` or ``langchain``).
        workers (int | None): parallel processes; None means one per core this process may run
            on (``cores.available_cores``), at most one per book. ``1`` runs in this process.

    Returns:
        int: 0 when no book failed; else the failed books' exit code when they share one
        (3 unreadable, 4 validation, 2 too many chunks), otherwise 1.

    Raises:
        UsageError: ``book_dir`` is not a folder, holds no book, or ``workers`` is below 1.
    """
    plan = plan_batch(book_dir, out_dir, policy, fmt, workers)
    outcomes: list[Outcome] = list(plan.skipped)
    n_workers = min(workers or available_cores(), max(1, len(plan.todo)))
    with progress_bar(plan) as bar:
        if n_workers == 1:
            for task in plan.todo:
                outcomes.append(process_book(task.book, task.out, policy, fmt, task.label))
                bar.update()
        else:
            outcomes.extend(_run_parallel(plan.todo, policy, fmt, n_workers, bar))
    return report(outcomes, plan.out_root, policy)


def progress_bar(plan: Plan) -> tqdm:
    """The batch's progress bar on stderr: one step per book, the skipped ones already counted.

    tqdm is imported here, not with the module: workers and Ray actors import this package for
    ``process_book`` and never draw a bar."""
    from tqdm import tqdm

    return tqdm(
        total=plan.total,
        initial=len(plan.skipped),
        unit="book",
        desc="chunking",
        file=sys.stderr,
        dynamic_ncols=True,
    )


def _run_parallel(todo: list[Task], policy: Policy, fmt: str, n_workers: int, bar: tqdm) -> list[Outcome]:
    """Run ``process_book`` over ``todo`` in ``n_workers`` processes; a dead worker fails only its book.

    A worker killed by the OS (out of memory, a crash in a C library) costs only the book it was
    chunking, reported with exit code 1; a fresh worker takes over the books still to do. The
    workers' fork server dying costs no book (``workerpool``: its workers live on, and a new
    server starts for the next worker).
    """
    outcomes = []
    tasks = [(t.book, t.out, policy, fmt, t.label) for t in todo]
    for index, result in imap_unordered(process_book, tasks, n_workers, preload=WORKER_PRELOAD):
        label = todo[index].label
        if isinstance(result, WorkerDied):
            result = Outcome(label, "failed", 1, result.describe())
        elif isinstance(result, TaskRaised):
            result = Outcome(label, "failed", 1, f"internal error: {result.message}")
        elif isinstance(result, NoWorker):
            result = Outcome(label, "failed", 1, result.message)
        outcomes.append(result)
        bar.update()
    return outcomes


def report(outcomes: list[Outcome], out_root: Path, policy: Policy | None = None) -> int:
    """Print each book's warnings (under its name), the failures (one line per book), what
    ``policy.exclude_matter`` left out (one line) and a summary on stderr; return the exit code.

    Every engine reports through here, so the lines and the exit-code rule are the same."""
    for o in sorted(outcomes, key=lambda o: o.book):
        print_warnings(
            o.warnings, where="all of them are in its manifest's diagnostics.warnings", book=o.book
        )
    failed = sorted((o for o in outcomes if o.status == "failed"), key=lambda o: o.book)
    written = sum(o.status == "written" for o in outcomes)
    skipped = sum(o.status == "skipped" for o in outcomes)
    for o in failed:
        print(f"chunking: failed: {o.book}: {o.message}", file=sys.stderr)
    if policy is not None and policy.exclude_matter:
        left = Exclusion(
            policy.exclude_matter,
            sum(o.excluded_chunks for o in outcomes),
            sum(o.excluded_tokens for o in outcomes),
        )
        print(f"chunking: {left.message()} from {written} books written", file=sys.stderr)
    print(
        f"{written} written, {skipped} skipped (already done), {len(failed)} failed; outputs in {out_root}",
        file=sys.stderr,
    )
    codes = {o.exit_code for o in failed}
    if not codes:
        return 0
    return codes.pop() if len(codes) == 1 else 1
