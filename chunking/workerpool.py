"""Worker processes in which a dead worker costs only its own task (issue 12, item 13).

``concurrent.futures.ProcessPoolExecutor`` marks the whole pool broken when one worker dies (the
OS's out-of-memory killer, a segfault in a C library, a stray ``kill -9``): every queued task then
fails with ``BrokenProcessPool``, so one huge book cost a batch of fourteen all its output. Here
each worker has its own pipe and the parent knows which task every worker holds: when a worker
dies, that one task is reported as ``WorkerDied``, a fresh worker takes its place and the other
tasks carry on untouched.

Workers fork from a "fork server" (``multiprocessing``'s ``forkserver`` start method) where the
platform has one: a fresh interpreter, started once, that imports ``preload`` modules and then
forks a worker per request. Each worker starts with the package and the vocabulary already in
memory instead of importing and loading them again (what "spawn" costs per worker); the server
is no fork of the caller, so the caller's threads and open PDFs never reach a worker. Each
worker still takes the caller's current folder and ``sys.path`` (multiprocessing sends them with
every start); its environment variables are the caller's when the server started (one server per
process, for the process's lifetime).

The fork server may die too (killed, out of memory). Its workers live on (they only came from
it), so a worker's death is read from its own pipe, never from the server's exit report: a
worker is gone when its pipe reaches EOF (every process end closes it), not when the server's
report channel breaks. A start that fails because the server is gone is retried
(``START_ATTEMPTS``: ``multiprocessing`` starts a new server when it finds the old one reaped);
when no worker can be started at all, the tasks left are reported ``NoWorker``, one each.

Workers die with the caller: each holds the read end of a "lifeline" pipe whose write end only
the caller holds, and the worker ends at once when that pipe reaches EOF (the caller died, even
by ``kill -9``, or stopped the worker). On Linux the kernel ends it: the pipe's read end is
armed (``O_ASYNC``, owner the worker), so the writer's close sends the worker SIGIO, whose
default action ends it even in the middle of a C call that holds the GIL (MuPDF on a page that
never ends: ``chunking.readers.pdfchild``). A thread that reads the pipe does the same
elsewhere, between such calls, and for a caller that died before the pipe was armed.
``PR_SET_PDEATHSIG`` would not do here: a worker's parent is the fork server, not the caller,
and the fork server outlives the caller as long as any of its workers does.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import tempfile
import threading
import time
import types
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any

START_METHODS = ("forkserver", "spawn")
"""Worker start methods, first available wins: never "fork" (the caller may run threads, e.g.
tqdm's monitor, and may have used PyMuPDF, which is not fork-safe once it opened a document)."""

AF_UNIX_PATH_MAX = 107
"""Longest path of a Unix socket (Linux: 108 bytes with the closing NUL)."""

FORKSERVER_SOCKET_TAIL = 40
"""What multiprocessing adds to the temp folder for the fork server's socket
(``/pymp-XXXXXXXX/listener-XXXXXXXX``, 32 bytes, and a margin)."""

WORKER_STOP_TIMEOUT_S = 5.0
"""How long shutdown waits for a worker to exit after being told to stop, before killing it."""

START_ATTEMPTS = 5
"""Tries to start one worker before the tasks left are given up (``NoWorker``): a start fails
when the fork server died since the last one, and the next start brings up a new server."""

START_BACKOFF_S = 0.1
"""Wait before the next try, doubled each time: a server just killed is only replaced once it
has exited (multiprocessing restarts a server it finds gone, not one still dying)."""

FORKSERVER_EXIT = "chunking.forkserver_exit"
"""Imported first by the fork server: it removes its socket's folder when it ends, which the
caller cannot do when it was killed (``chunking.forkserver_exit``)."""

LIFELINE_EXIT = 3
"""Exit code of a worker ended by its lifeline (its caller died or stopped it)."""


_MAIN_LOCK = threading.Lock()


@contextlib.contextmanager
def plain_main() -> Iterator[None]:
    """Start spawned processes without them re-running the parent's ``__main__`` script.

    A "spawn" child imports the parent's main module (as ``__mp_main__``) when it has a file or a
    module spec. Under Streamlit (and its AppTest) that module is the app script: a worker would
    re-run the app, hit ``st.*`` calls with no session and die. Every task function here is a
    module-level function of an importable package, so the child never needs the main module:
    while a process starts, ``__main__`` is an empty module.
    """
    with _MAIN_LOCK:
        saved = sys.modules.get("__main__")
        sys.modules["__main__"] = types.ModuleType("__main__")
        try:
            yield
        finally:
            if saved is not None:
                sys.modules["__main__"] = saved


@contextlib.contextmanager
def _may_start_children() -> Iterator[None]:
    """Let a daemonic process (a batch worker) start a worker while this runs.

    NOTE: ``multiprocessing`` refuses children to a daemonic process, because such a process is
    ended without its clean-up and its children would stay behind. A worker started here never
    stays behind (its lifeline), and a batch worker reading a PDF starts one
    (``chunking.readers.pdfchild``), so the flag is lifted while it starts.
    """
    me = multiprocessing.current_process()
    daemonic = me.daemon
    if daemonic:
        me.daemon = False
    try:
        yield
    finally:
        if daemonic:
            me.daemon = True


@dataclass(frozen=True)
class WorkerDied:
    """The task's worker process ended without answering.

    Attributes:
        exitcode (int | None): the process's exit code; negative = killed by that signal.
    """

    exitcode: int | None

    def describe(self) -> str:
        """One line: how the worker ended, e.g. ``killed by SIGKILL (the out-of-memory killer …)``."""
        if self.exitcode is not None and self.exitcode < 0:
            try:
                name = signal.Signals(-self.exitcode).name
            except ValueError:
                name = f"signal {-self.exitcode}"
            hint = " (the system's out-of-memory killer sends it)" if name == "SIGKILL" else ""
            return f"the worker process was killed by {name}{hint}"
        return f"the worker process died (exit code {self.exitcode})"


@dataclass(frozen=True)
class TaskRaised:
    """The task raised in its worker (the function is meant never to): ``message`` says what."""

    message: str


@dataclass(frozen=True)
class NoWorker:
    """No worker process could be started for the task (``START_ATTEMPTS`` failed starts)."""

    message: str


def _serve(fn: Callable[..., Any], conn: Connection, lifeline: Connection) -> None:
    """Worker loop: run ``fn(*args)`` for every ``(index, args)`` received; ``None`` or EOF ends
    it, and so does the caller's end (``lifeline``) or a caller gone before an answer is sent."""
    _arm(lifeline)
    # NOTE: Ctrl-C reaches the whole process group; the parent stops the workers itself, so a
    # worker must not die first with a KeyboardInterrupt traceback of its own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_hold, args=(lifeline,), name="lifeline", daemon=True).start()
    while True:
        try:
            item = conn.recv()
        except (EOFError, OSError):
            return
        if item is None:
            return
        index, args = item
        try:
            result = fn(*args)
        except Exception as exc:  # NOTE: reported as the task's result, never a dead worker
            result = TaskRaised(f"{type(exc).__name__}: {exc}")
        try:
            conn.send((index, result))
        except (OSError, ValueError):  # NOTE: the caller is gone: nobody to answer, no traceback
            return


def _arm(lifeline: Connection) -> None:
    """Have the kernel end this process (SIGIO, default action) when the caller's end of
    ``lifeline`` closes: ``O_ASYNC`` on the read end, owned by this process. Linux; elsewhere
    (no ``fcntl``, or a pipe that cannot be armed) only ``_hold`` watches it."""
    try:
        import fcntl

        fd = lifeline.fileno()
        fcntl.fcntl(fd, fcntl.F_SETOWN, os.getpid())
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_ASYNC)
    except (ImportError, OSError, AttributeError):
        pass


def _hold(lifeline: Connection) -> None:
    """End the worker at once when the caller's end of ``lifeline`` closes (it never writes)."""
    try:
        lifeline.recv_bytes()
    except (EOFError, OSError):
        pass
    os._exit(LIFELINE_EXIT)


class Worker:
    """One worker process, its task pipe, the caller's end of its lifeline and the task index it
    holds (None = idle)."""

    def __init__(self, context: Any, fn: Callable[..., Any]) -> None:
        self.conn, child = context.Pipe()
        held, self.lifeline = context.Pipe(duplex=False)
        self.process = context.Process(target=_serve, args=(fn, child, held), daemon=True)
        try:
            with plain_main(), _may_start_children():
                self.process.start()
        except BaseException:
            for end in (self.conn, self.lifeline):
                end.close()
            raise
        finally:
            child.close()
            held.close()
        self.task: int | None = None

    def stop(self) -> None:
        """Tell the worker to finish; end it (its lifeline) if it has not within the timeout."""
        try:
            self.conn.send(None)
        except (OSError, ValueError):
            pass
        self.conn.close()
        self.process.join(WORKER_STOP_TIMEOUT_S)
        self.kill()

    def kill(self) -> None:
        """End the worker now: its lifeline closes (this works for a worker whose fork server
        died, which ``Process.kill`` no longer reaches), and reap it."""
        self.lifeline.close()
        if self.process.is_alive():
            self.process.kill()
        self.process.join()


def start_worker(context: Any, fn: Callable[..., Any]) -> Worker | str:
    """A started worker (``Worker``), or why none could be started in ``START_ATTEMPTS`` tries."""
    reason = ""
    for attempt in range(START_ATTEMPTS):
        if attempt:
            time.sleep(START_BACKOFF_S * 2 ** (attempt - 1))
        try:
            return Worker(context, fn)
        except (EOFError, OSError) as exc:  # NOTE: the fork server died; the next try restarts it
            reason = f"{type(exc).__name__}: {exc}".rstrip(": ")
    return f"no worker process could be started ({reason})"


def worker_context(preload: Sequence[str] = ()) -> Any:
    """The multiprocessing context workers start from (``START_METHODS``).

    ``preload`` names modules the fork server imports before its first fork. It takes effect when
    the server starts (once per process, on the first worker): a server already running keeps
    its modules, and a worker imports whatever it lacks itself, so results never depend on it.
    """
    available = multiprocessing.get_all_start_methods()
    method = next(m for m in START_METHODS if m in available and (m != "forkserver" or _socket_fits()))
    context = multiprocessing.get_context(method)
    if method == "forkserver":  # NOTE: always: multiprocessing's default preload is "__main__"
        context.set_forkserver_preload([FORKSERVER_EXIT, *preload])
    return context


def _socket_fits() -> bool:
    """Whether the fork server's socket path fits under the temp folder (``$TMPDIR``): a deep
    temp folder makes every start fail with "AF_UNIX path too long", and workers then start by
    ``spawn``, which needs no socket (slower to start, same results)."""
    return len(os.fsencode(tempfile.gettempdir())) + FORKSERVER_SOCKET_TAIL <= AF_UNIX_PATH_MAX


def imap_unordered(
    fn: Callable[..., Any], tasks: Sequence[tuple], workers: int, preload: Sequence[str] = ()
) -> Iterator[tuple[int, Any]]:
    """Run ``fn(*task)`` for every task in ``workers`` worker processes, yielding as they finish.

    Args:
        fn (Callable): a module-level (picklable) function.
        tasks (Sequence[tuple]): the argument tuples.
        workers (int): processes at most (at least 1).
        preload (Sequence[str]): modules the fork server imports once for every worker
            (``worker_context``). Defaults to none.

    Yields:
        tuple[int, Any]: ``(index into tasks, result)``; the result is ``WorkerDied`` when the
        task's worker process died, ``TaskRaised`` when ``fn`` raised, ``NoWorker`` when no
        worker could be started for it.
    """
    context = worker_context(preload)
    pending = deque(range(len(tasks)))
    pool: list[Worker] = []
    try:
        while pending or pool:
            while pending and len(pool) < workers:
                started = start_worker(context, fn)
                if isinstance(started, str):
                    while pending and not pool:  # NOTE: with a worker left, it takes them on
                        yield pending.popleft(), NoWorker(started)
                    break
                pool.append(started)
            _hand_out(pool, pending, tasks)
            ready = set(wait([w.conn for w in pool])) if pool else set()
            for w in [w for w in pool if w.conn in ready]:
                answer = _receive(w)
                if answer is not None:
                    w.task = None
                    yield answer
                    continue
                pool.remove(w)  # NOTE: EOF on its own pipe: the worker process is gone
                w.conn.close()
                w.process.join(WORKER_STOP_TIMEOUT_S)
                w.kill()
                if w.task is not None:
                    yield w.task, WorkerDied(w.process.exitcode)
    finally:  # NOTE: reached early only on an interrupt: a busy worker's book is abandoned now
        for w in pool:
            if w.task is not None:
                w.kill()
            w.stop()


def _hand_out(pool: list[Worker], pending: deque[int], tasks: Sequence[tuple]) -> None:
    """Give every idle worker the next task; stop the idle ones when none is left."""
    for w in pool:
        if w.task is None and pending:
            w.task = pending.popleft()
            try:
                w.conn.send((w.task, tasks[w.task]))
            except OSError:  # it died already: EOF on its pipe reports the task
                pass
    for w in [w for w in pool if w.task is None]:
        w.stop()
        pool.remove(w)


def _receive(w: Worker) -> tuple[int, Any] | None:
    """The worker's answer if one is waiting; None when its pipe is closed (the worker is gone)."""
    try:
        if w.conn.poll():
            return w.conn.recv()
    except (EOFError, OSError):
        pass
    return None
