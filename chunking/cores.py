"""How many cores this process may use, by its CPU affinity (``available_cores``, the one place that
counts them: batch mode's workers, the Ray engine's local cluster, and a single book's tokenizer in
the CLI and the app), and how many a single-book run uses.

``workers=None`` means "all cores this process may run on, when the work is big enough to pay
for the second one" — except in a process that ``multiprocessing`` started (a batch worker): it
is already one of several workers sharing the cores, so automatic mode uses one; ``workers=1`` keeps everything on the calling thread (and no other
process); ``workers=N`` asks for N whatever the size. The output never depends on the choice.
"""

from __future__ import annotations

import os
import sys


def available_cores() -> int:
    """Cores this process may run on (its CPU affinity, not the machine's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not on Linux
        return max(1, os.cpu_count() or 1)


def resolve_workers(workers: int | None, size: int, threshold: int) -> int:
    """The number of workers to use for ``size`` units of work.

    Args:
        workers (int | None): what the caller asked for; None: automatic.
        size (int): the amount of work (pages, characters, chunks).
        threshold (int): automatic mode uses one worker below this size.

    Returns:
        int: at least 1.
    """
    if workers is not None:
        return max(1, int(workers))
    # NOTE: a multiprocessing child has imported multiprocessing to start; a process that has not
    # is no such child, and need not pay for the import.
    mp = sys.modules.get("multiprocessing")
    if size < threshold or (mp is not None and mp.parent_process() is not None):
        return 1
    return available_cores()
