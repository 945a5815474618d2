"""Batch runs on Ray Data: ``python -m chunking chunk DIR -o OUTDIR --engine ray`` (issue 15).

The same batch as ``chunking.batch.run_batch``, on a Ray cluster instead of one machine's
processes. What is shared, so that the outputs are byte-identical to a local batch:

* the plan (``plan_batch``): the same books, output paths, structure-file pickup and resume
  check, done on the driver *before any Ray work*, so finished books never reach the cluster;
* the per-book task (``process_book``): ``pipeline.run_book`` + ``export.write_outputs``, never
  raising for a bad book (it becomes an error outcome);
* the report (``report``): the same failure lines, summary and exit-code rule.

How it runs: ``ray.data.from_items`` of one row per book (its path, its output path, its label),
one block per book, then ``Dataset.map`` with a callable class on an actor pool: one actor per
worker, so PyMuPDF, the package and the tiktoken vocabulary load once per worker, not per book.
Paths, not bytes (``read_binary_files``), because a book is opened by path (PyMuPDF reads pages
lazily; the manifest records the book's path and sha256; a structure file is looked up beside
the book) and a library of large PDFs would otherwise travel through the object store. The price
is that on a cluster ``DIR`` and ``OUTDIR`` must be storage every node reads and writes at the
same path (NFS, a shared volume); workers write each book's files where the local batch would.

A worker process that dies (out of memory, a crash in a C library) costs only its book: each
book is its own block, one in flight per actor, and ``max_errored_blocks`` lets the others carry
on; books the dead worker left without an outcome get one more pass on a fresh pool, and a book
lost again is reported failed (exit 1; a rerun retries it).

``--dataset PATH`` also writes one Parquet dataset of every finished book's chunks (written now
or skipped as done), hive-partitioned by book: ``PATH/book=<label, URI-escaped>/…parquet``, the
export's Parquet columns in every file and ``book`` (the book's path relative to ``DIR``) from
the folder name, as ``pyarrow.dataset.dataset(PATH, partitioning="hive")``,
``pandas.read_parquet(PATH)`` or ``ray.data.read_parquet(PATH)`` read it. It is rewritten whole
on every run from the per-book chunk files, so it always equals them.

Ray is imported only in this module, and only when ``--engine ray`` is asked for.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import warnings
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ..errors import UsageError, one_line
from ..policy import Policy
from . import Outcome, Plan, Task, output_path, plan_batch, process_book, progress_bar, report

RAY_PIN = "ray==2.60.0"
"""The Ray release the project is tested with (requirements.txt, pyproject's ``ray`` extra)."""

CONNECT_TIMEOUT_S = 5.0
"""How long ``--ray-address`` may take to accept a TCP connection before it counts as wrong
(``ray.init`` itself retries an address where nothing listens for many minutes)."""

LOST_BOOK_PASSES = 1
"""Extra passes over the books a dead worker left without an outcome (a book that kills its
worker every time then fails after this many more tries; the others get theirs)."""

DATASET_PARTITION = "book"
"""The column (and hive folder key) that partitions the ``--dataset`` by book."""


def run_batch_ray(
    book_dir: str | os.PathLike,
    out_dir: str | os.PathLike,
    policy: Policy,
    fmt: str,
    workers: int | None = None,
    address: str | None = None,
    dataset: str | os.PathLike | None = None,
) -> int:
    """Chunk every book under ``book_dir`` into ``out_dir`` on Ray, skipping finished ones.

    Args:
        book_dir (str | os.PathLike): folder of books (searched recursively).
        out_dir (str | os.PathLike): folder for the chunk files and manifests (created).
        policy (Policy): the validated policy, the same for every book.
        fmt (str): export format (``jsonl``, ``csv``, ``parquet`` or ``langchain``).
        workers (int | None): Ray workers (actors, one CPU each). None: every CPU of the local
            Ray started for the run, or of the cluster at ``address``.
        address (str | None): an existing cluster (``host:port``, ``ray://host:port``,
            ``auto``); None reads ``RAY_ADDRESS``, and without it a local Ray is started for the
            run and shut down after it.
        dataset (str | os.PathLike | None): also write the Parquet dataset of all chunks here.

    Returns:
        int: as ``run_batch``: 0 when no book failed, else the failed books' shared exit code,
        otherwise 1.

    Raises:
        UsageError: Ray is not installed, the address is not reachable, or the batch's own
            usage errors (``plan_batch``).
    """
    ray = _import_ray()
    plan = plan_batch(book_dir, out_dir, policy, fmt, workers)
    address = address or os.environ.get("RAY_ADDRESS") or None
    if address is not None:
        check_reachable(address)  # NOTE: a wrong address is a usage error even with nothing to do
    if not plan.todo and dataset is None:  # NOTE: nothing for Ray to do: no cluster is started
        return report(list(plan.skipped), plan.out_root)
    with _ray_session(ray, address, workers):
        outcomes = list(plan.skipped)
        if plan.todo:
            outcomes.extend(_chunk_on_ray(ray, plan, policy, fmt, workers))
        if dataset is not None:
            _write_dataset(ray, plan, outcomes, fmt, Path(dataset))
    return report(outcomes, plan.out_root)


def _import_ray() -> Any:
    """``ray`` and ``ray.data``, or a one-line ``UsageError`` saying how to install them."""
    try:
        import ray
        import ray.data  # noqa: F401
    except ModuleNotFoundError as exc:
        if not (exc.name or "").startswith("ray"):
            raise
        raise UsageError(
            f"--engine ray needs Ray: pip install '{RAY_PIN}' "
            "(or pip install 'book-chunk-inspector[ray]'); --engine local needs nothing more"
        ) from None
    return ray


def check_reachable(address: str) -> None:
    """Fail fast with one line when nothing accepts a TCP connection at ``address``.

    ``auto``/``local`` are Ray's own words and are left to Ray. Raises ``UsageError``.
    """
    if address in ("auto", "local"):
        return
    hostport = address.split("://", 1)[1] if "://" in address else address
    host, sep, port = hostport.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise UsageError(f"--ray-address {address}: expected host:port or ray://host:port")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_TIMEOUT_S):
            pass
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise UsageError(f"--ray-address {address}: no Ray cluster reachable there ({reason})") from None


@contextlib.contextmanager
def _ray_session(ray: Any, address: str | None, workers: int | None) -> Iterator[None]:
    """Connect to the cluster at ``address``, or start a local Ray of ``workers`` CPUs; always
    shut down (a connected driver only disconnects: the cluster keeps running)."""
    quiet = {"include_dashboard": False, "log_to_driver": False, "logging_level": logging.ERROR}
    if address is not None:
        try:
            ray.init(address=address, **quiet)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            ray.shutdown()
            raise UsageError(f"--ray-address {address}: cannot connect: {one_line(exc)}") from None
    else:
        # NOTE: address="local" starts a new Ray even when another one runs on this machine.
        ray.init(address="local", num_cpus=workers or os.cpu_count() or 1, **quiet)
    try:
        _quiet_ray_data(ray)
        yield
    finally:
        ray.shutdown()


def _quiet_ray_data(ray: Any) -> None:
    """Keep Ray Data's progress bars and execution logs off stderr: the batch has its own bar
    and its own report (one line per failed book)."""
    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False
    ctx.print_on_execution_start = False
    for name in ("ray", "ray.data"):
        logging.getLogger(name).setLevel(logging.CRITICAL)


def _chunker(policy: Policy, fmt: str) -> type:
    """The callable class one Ray actor runs: warm once, then ``process_book`` per row.

    Built here (not at module level) so that Ray ships the policy and format inside the class,
    with no constructor arguments to keep in the object store.
    """

    class ChunkBooks:
        """One per worker: the package, PyMuPDF and the tiktoken vocabulary load here once."""

        def __init__(self) -> None:
            from ..encodings import get_encoding
            from ..pipeline import run_book  # noqa: F401  (the whole reading/chunking stack)

            get_encoding(policy.encoding)

        def __call__(self, row: dict[str, str]) -> dict[str, Any]:
            outcome = process_book(Path(row["book"]), Path(row["out"]), policy, fmt, row["label"])
            return asdict(outcome)

    return ChunkBooks


def _n_workers(ray: Any, workers: int | None, n_books: int) -> int:
    """Actors in the pool: ``workers``, else every CPU Ray has; never more than the books."""
    if workers is None:
        workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
    return max(1, min(workers, n_books))


def _chunk_on_ray(ray: Any, plan: Plan, policy: Policy, fmt: str, workers: int | None) -> list[Outcome]:
    """Run ``process_book`` for every book of ``plan.todo`` on a Ray Data actor pool.

    A worker that dies can take a book it never started down with it (Ray Data hands it the next
    book before it learns of the death), so the books left without an outcome get one more pass
    (``LOST_BOOK_PASSES``) on a fresh pool; a book still lost then is reported failed, exit 1. If
    the whole Ray job stops, every book without an outcome is reported failed with Ray's reason.
    """
    outcomes: dict[str, Outcome] = {}
    todo = list(plan.todo)
    stopped = ""
    with progress_bar(plan) as bar:
        for _ in range(1 + LOST_BOOK_PASSES):
            stopped = _one_pass(ray, todo, policy, fmt, workers, outcomes, bar)
            todo = [t for t in todo if t.label not in outcomes]
            if stopped or not todo:
                break
    lost = stopped or "its Ray worker failed (the process died or its node was lost); rerun to retry"
    for t in todo:
        outcomes[t.label] = Outcome(t.label, "failed", 1, lost)
    return list(outcomes.values())


def _one_pass(
    ray: Any, todo: list[Task], policy: Policy, fmt: str, workers: int | None, outcomes: dict, bar: Any
) -> str:
    """One Ray Data run over ``todo``, its outcomes added to ``outcomes``; why it stopped, or ``""``."""
    rows = [
        # NOTE: absolute output paths: a Ray worker's working folder need not be the driver's.
        {"book": str(t.book), "out": os.path.abspath(t.out), "label": t.label}
        for t in todo
    ]
    ctx = ray.data.DataContext.get_current()
    ctx.max_errored_blocks = len(rows)
    with warnings.catch_warnings():
        # NOTE: Ray 2.60 warns that extra remote arguments will move; these two have no named
        # parameter yet. Ray Data's default (restart a dead actor and retry its task forever)
        # would retry a book that kills its worker forever, and lost a second book when tried
        # here; with neither, the book fails and the other actors carry on.
        warnings.filterwarnings("ignore", message=".*ray_remote_args.*")
        ds = ray.data.from_items(rows, override_num_blocks=len(rows)).map(
            _chunker(policy, fmt),
            # NOTE: one book in flight per actor: Ray Data's default queues several on each, and a
            # dead worker then took its queued books down with it (seen: four books for one kill).
            compute=ray.data.ActorPoolStrategy(
                size=_n_workers(ray, workers, len(rows)), max_tasks_in_flight_per_actor=1
            ),
            num_cpus=1,
            max_restarts=0,
            max_task_retries=0,
        )
    try:
        for row in ds.iter_rows():
            outcome = _outcome(row)
            outcomes[outcome.book] = outcome
            bar.update()
    except Exception as exc:  # NOTE: the cluster went away: keep what finished, report the rest
        return f"the Ray job stopped: {type(exc).__name__}: {one_line(exc)[:300]}"
    return ""


def _outcome(row: dict[str, Any]) -> Outcome:
    """An ``Outcome`` from its Ray row (Arrow may hand back numpy scalars: exit codes are ints)."""
    return Outcome(str(row["book"]), str(row["status"]), int(row["exit_code"]), str(row["message"]))


def _write_dataset(ray: Any, plan: Plan, outcomes: list[Outcome], fmt: str, path: Path) -> None:
    """Write every finished book's chunks as one Parquet dataset at ``path``, hive-partitioned by book.

    Read back from the per-book chunk files (on the workers), so it equals them for written and
    skipped books alike; books that failed have no rows. ``path`` is replaced whole.
    """
    from ray.data import SaveMode

    from ..export import _parquet_schema

    schema = _parquet_schema()
    done = sorted(o.book for o in outcomes if o.status in ("written", "skipped"))
    rows = [
        {
            "label": label,
            "file": os.path.abspath(output_path(plan.root.resolve() / label, plan.root, plan.out_root, fmt)),
        }
        for label in done
    ]
    if not rows:  # NOTE: no book finished: an older dataset at ``path`` is left as it was
        return

    def book_table(batch: dict[str, Any]) -> Any:
        import pyarrow as pa

        from ..export import read_chunks

        tables = []
        for label, file in zip(batch["label"], batch["file"], strict=True):
            chunks, _ = read_chunks(file)
            columns = {f: [getattr(c, f) for c in chunks] for f in schema.names}
            columns["heading_path"] = [list(c.heading_path) for c in chunks]
            table = pa.table(columns, schema=schema)
            tables.append(table.append_column(DATASET_PARTITION, pa.array([str(label)] * len(chunks))))
        return pa.concat_tables(tables)

    ds = ray.data.from_items(rows, override_num_blocks=len(rows))
    ds = ds.map_batches(book_table, batch_size=1, batch_format="numpy")
    ds.write_parquet(os.path.abspath(path), partition_cols=[DATASET_PARTITION], mode=SaveMode.OVERWRITE)
