"""Batch runs on Ray: ``python -m chunking chunk DIR -o OUTDIR --engine ray`` (issue 15).

The same batch as ``chunking.batch.run_batch``, on a Ray cluster instead of one machine's
processes. What is shared, so that the outputs are byte-identical to a local batch:

* the plan (``plan_batch``): the same books, output paths, structure-file pickup and resume
  check, done on the driver *before any Ray work*, so finished books never reach the cluster;
* the per-book task (``process_book``): ``pipeline.run_book`` + ``export.write_outputs``, never
  raising for a bad book (it becomes an error outcome);
* the report (``report``): the same failure lines, summary and exit-code rule.

How it runs: a pool of exactly ``--workers`` actors (``BookChunker``, one CPU each, spread over
the cluster's machines), each loading the package, PyMuPDF and the tiktoken vocabulary once in
its constructor; the driver hands every actor one book at a time, largest first, as actors come
free (``ray.wait``). Paths, not bytes: a book is opened by path (PyMuPDF reads pages lazily; the
manifest records the book's path and sha256; a structure file is looked up beside the book) and
a library of large PDFs would otherwise travel through the object store. The price is that on a
cluster ``DIR`` and ``OUTDIR`` must be storage every node reads and writes at the same path (NFS,
a shared volume); workers write each book's files where the local batch would.

Why Ray core actors and not Ray Data for the books (issue 15 asked for Ray Data; bench/BATCH.md
has the measurements): Ray Data's ``from_items(...).map(callable class, ActorPoolStrategy)``
adds three system actors in processes of their own (its stats actor, autoscaling coordinator and
actor-location tracker, none of which any ``DataContext`` setting turns off in Ray 2.60) and
``ray.data``'s imports (pyarrow, pandas) in the driver and in every worker, which add to Ray's
fixed cost. ``read_binary_files`` was no option either: it would read every book into the
object store (see above) in read tasks that are more worker processes. What Ray Data gives
(streaming blocks between operators) a one-step "chunk this path" job does not use; its fault
handling lost a queued book with every dead worker. Ray Data stays where it pays: ``--dataset``
(below) is written with it.

A worker process that dies (out of memory, a crash in a C library) costs only its book, as in
the local batch: each actor holds one book at a time, the dead actor's book is reported failed
(exit 1; a rerun retries it), a fresh actor takes its place and the others carry on. An actor
whose constructor fails (``chunking`` missing or broken on a node) stops the run, every book
without an outcome failed with the reason.

``--dataset PATH`` also writes one Parquet dataset of every finished book's chunks (written now
or skipped as done), hive-partitioned by book: ``PATH/book=<label, URI-escaped>/…parquet``, the
export's Parquet columns in every file and ``book`` (the book's path relative to ``DIR``) from
the folder name, as ``pyarrow.dataset.dataset(PATH, partitioning="hive")``,
``pandas.read_parquet(PATH)`` or ``ray.data.read_parquet(PATH)`` read it. It is rewritten whole
on every run from the per-book chunk files (on the workers, with Ray Data), so it always equals
them.

Ray is imported only in this module, and only when ``--engine ray`` is asked for.

A local Ray started for the run (never an existing cluster: its daemons are its operator's) is
``ray.init``'s own, with its public settings only: exactly ``--workers`` CPUs and no dashboard
web server (``LOCAL_RAY``). No private part of Ray is touched; what a local Ray costs on top of
the local batch (its daemons, each actor's ``import ray`` and start-up) is in bench/BATCH.md.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import sys
from collections.abc import Iterator
from collections import deque
from pathlib import Path
from typing import Any

from ..cores import available_cores
from ..errors import UsageError, one_line
from ..policy import Policy
from . import Outcome, Plan, Task, output_path, plan_batch, process_book, progress_bar, report
from .ray_handshake import AUTO_ADDRESSES, handshake, refuse_foreign_session

RAY_PIN = "ray==2.60.0"
"""The Ray release the project is tested with (requirements.txt, pyproject's ``ray`` extra)."""

CONNECT_TIMEOUT_S = 5.0
"""How long ``--ray-address`` may take to accept a TCP connection before it counts as wrong
(``ray.init`` itself retries an address where nothing listens for many minutes)."""

AUTH_HINT = " (a cluster with token authentication, Ray's default, needs RAY_AUTH_MODE=token here too)"
"""Added to a failed connection when ``RAY_AUTH_MODE`` is unset: a driver without it sends no
token, and a ``ray start --head`` cluster of Ray 2.60 refuses it with just "failed to connect"."""

LOCAL_RAY = {"include_dashboard": False}
"""``ray.init`` settings for a local Ray started for the run (never for an existing cluster): no
dashboard web server."""

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
    return report(outcomes, plan.out_root, policy)


def _import_ray() -> Any:
    """``ray`` and ``ray.data``, or a one-line ``UsageError`` saying how to install them."""
    try:
        import ray  # NOTE: not ray.data (pyarrow, pandas): only --dataset needs it
    except ModuleNotFoundError as exc:
        if not (exc.name or "").startswith("ray"):
            raise
        raise UsageError(
            f"--engine ray needs Ray: pip install '{RAY_PIN}' "
            "(or pip install 'book-chunk-inspector[ray]'); --engine local needs nothing more"
        ) from None
    return ray


def check_reachable(address: str) -> None:
    """Fail fast with one line when ``address`` is not a Ray the driver can join: its form, a TCP
    connect (``CONNECT_TIMEOUT_S``: quick when nothing listens), then Ray's own handshake in a
    child process under a timeout (``ray_handshake``: a listener that is not Ray would make
    ``ray.init`` retry for minutes). ``auto`` is resolved and checked by that handshake too, and
    refused when the Ray it finds is another user's; ``local`` starts a new Ray and is left to it.

    Raises:
        UsageError: one line naming the address and the reason.
    """
    if address == "local":
        return
    if address not in AUTO_ADDRESSES:
        _check_listening(address)
    hint = "" if os.environ.get("RAY_AUTH_MODE") else AUTH_HINT
    refuse_foreign_session(address, handshake(address, hint=hint))


def _check_listening(address: str) -> None:
    """One line when ``address`` is not ``host:port`` or nothing accepts a TCP connection there."""
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
    shut down (a connected driver only disconnects: the cluster keeps running).

    Only the driver's own settings apply to an existing cluster (no worker logs streamed to this
    terminal, Ray's loggers at ``ERROR``, no logging set-up of Ray's own); a cluster's daemons
    and resources are its operator's. A local Ray started here also gets exactly ``workers``
    CPUs and no dashboard (``LOCAL_RAY``); Ray turns usage statistics off itself for a Ray that
    ``ray.init`` starts.
    """
    driver = {"log_to_driver": False, "logging_level": logging.ERROR, "configure_logging": False}
    for name in ("ray", "ray.data"):  # NOTE: without Ray's logging set-up, its warnings would print
        logging.getLogger(name).setLevel(logging.CRITICAL)
    if address is not None:
        try:
            with _native_stderr_silenced():
                ray.init(address=address, **driver)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            ray.shutdown()
            hint = "" if os.environ.get("RAY_AUTH_MODE") else AUTH_HINT
            raise UsageError(f"--ray-address {address}: cannot connect: {one_line(exc)}{hint}") from None
    else:
        # NOTE: address="local" starts a new Ray even when another one runs on this machine.
        ray.init(address="local", num_cpus=workers or available_cores(), **LOCAL_RAY, **driver)
    try:
        yield
    finally:
        ray.shutdown()


def _quiet_ray_data(ray: Any) -> None:
    """Keep Ray Data's progress bars and execution logs off stderr: the batch has its own bar
    and its own report (one line per failed book)."""
    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False
    ctx.print_on_execution_start = False
    ctx.enable_auto_log_stats = False


@contextlib.contextmanager
def _native_stderr_silenced() -> Iterator[None]:
    """Send file descriptor 2 to ``/dev/null`` while connecting to a cluster.

    Ray's C++ client logs every failed attempt there (one line a second for about 20 s when a
    cluster refuses the driver); the failure itself comes back as an exception, reported in one
    line. Python's own ``sys.stderr`` writes go there too meanwhile: nothing else runs then.
    """
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


class BookChunker:
    """One per Ray worker (an actor): the stack and the vocabulary load here once, then
    ``chunk`` runs the batch's own per-book task for each book it is handed."""

    def __init__(self, policy: Policy, fmt: str) -> None:
        from ..encodings import get_encoding
        from . import preload  # noqa: F401  (the reading/chunking stack, the default vocabulary)

        get_encoding(policy.encoding)
        self.policy, self.fmt = policy, fmt

    def chunk(self, book: str, out: str, label: str) -> Outcome:
        """``process_book`` on one book: its outcome, never an exception for a bad book."""
        return process_book(Path(book), Path(out), self.policy, self.fmt, label)


def _n_workers(ray: Any, workers: int | None, n_books: int) -> int:
    """Actors in the pool: ``workers``, else every CPU Ray has; never more than the books."""
    if workers is None:
        workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
    return max(1, min(workers, n_books))


def _chunk_on_ray(ray: Any, plan: Plan, policy: Policy, fmt: str, workers: int | None) -> list[Outcome]:
    """Run ``process_book`` for every book of ``plan.todo`` on a pool of ``BookChunker`` actors.

    One book in flight per actor, handed out largest first as actors come free (the plan's
    order), so a worker process that dies holds exactly one book: that book fails (exit 1, as a
    killed local worker's does), a fresh actor takes the dead one's place and the other books
    carry on. If the cluster itself goes away, every book without an outcome fails with the
    reason, and a rerun retries them.
    """
    actor_class = ray.remote(num_cpus=1, max_restarts=0, max_task_retries=0)(BookChunker)

    def start() -> Any:
        # NOTE: SPREAD: on a cluster the workers go to different machines first.
        return actor_class.options(scheduling_strategy="SPREAD").remote(policy, fmt)

    queue = deque(plan.todo)
    idle = [start() for _ in range(_n_workers(ray, workers, len(plan.todo)))]
    running: dict[Any, tuple[Any, Task]] = {}
    outcomes: list[Outcome] = []
    with progress_bar(plan) as bar:
        while queue or running:
            while idle and queue:
                actor, task = idle.pop(), queue.popleft()
                # NOTE: absolute paths: a Ray worker's working folder need not be the driver's.
                ref = actor.chunk.remote(str(task.book), os.path.abspath(task.out), task.label)
                running[ref] = (actor, task)
            try:
                ready, _ = ray.wait(list(running), num_returns=1)
                outcome, died = _result(ray, ready[0], running[ready[0]][1])
            except Exception as exc:  # NOTE: no worker can start, or the cluster went away
                stopped = str(exc) if isinstance(exc, _Stopped) else _stopped(exc)
                lost = [t for _, t in running.values()] + list(queue)
                outcomes += [Outcome(t.label, "failed", 1, stopped) for t in lost]
                break
            actor, _ = running.pop(ready[0])
            if died:
                ray.kill(actor)
                actor = start() if queue else None
            if actor is not None:
                idle.append(actor)
            outcomes.append(outcome)
            bar.update()
    return outcomes


WORKER_DIED = "its Ray worker died (the process was killed or its node was lost); rerun to retry"
"""The outcome of a book whose actor died under it (the local batch's ``WorkerDied``)."""


class _Stopped(Exception):
    """No book can be chunked any more (the message says why): the run stops."""


def _stopped(exc: BaseException) -> str:
    """One line for a Ray job that stopped under the driver."""
    return f"the Ray job stopped: {type(exc).__name__}: {one_line(exc)[:300]}"


def _result(ray: Any, ref: Any, task: Task) -> tuple[Outcome, bool]:
    """The finished book's ``Outcome`` and whether its actor died; a dead actor or an error
    outside ``process_book`` fails only this book.

    Raises:
        _Stopped: the actor could not even start (its ``__init__`` raised: ``chunking`` missing or
            broken on that node), so no book would fare better.
    """
    try:
        return ray.get(ref), False
    except ray.exceptions.RayActorError as exc:
        if getattr(exc, "actor_init_failed", False):
            raise _Stopped(f"a Ray worker could not start: {one_line(exc)[:300]}") from None
        return Outcome(task.label, "failed", 1, WORKER_DIED), True
    except ray.exceptions.RayTaskError as exc:  # NOTE: process_book never raises; this is Ray's own
        return Outcome(task.label, "failed", 1, f"internal error: {one_line(exc)[:300]}"), False


def _write_dataset(ray: Any, plan: Plan, outcomes: list[Outcome], fmt: str, path: Path) -> None:
    """Write every finished book's chunks as one Parquet dataset at ``path``, hive-partitioned by book.

    Read back from the per-book chunk files (on the workers), so it equals them for written and
    skipped books alike; books that failed have no rows. ``path`` is replaced whole.
    """
    import ray.data
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

    _quiet_ray_data(ray)
    ds = ray.data.from_items(rows, override_num_blocks=len(rows))
    ds = ds.map_batches(book_table, batch_size=1, batch_format="numpy")
    ds.write_parquet(os.path.abspath(path), partition_cols=[DATASET_PARTITION], mode=SaveMode.OVERWRITE)
