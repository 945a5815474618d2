"""The environment every timed child process of the bench runs in: the user's, as installed code runs.

``PYTHONDONTWRITEBYTECODE`` (set on some development machines and containers) stops Python from
caching compiled modules, so every run would recompile each edited module of the package
(~50 ms for the ~45 the CLI imports): a cost no installed copy pays (pip writes the bytecode at
install time). The bench drops it, and its warm-up run writes the caches.
"""

from __future__ import annotations

import os


def child_env() -> dict[str, str]:
    """``os.environ`` without the variables that make a child unlike an installed run."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env
