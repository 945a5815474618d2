"""``python -m chunking compare BOOK --policy "…" [--policy "…"] [--json]``: score policies on a book.

Each ``--policy`` is ``key=value`` pairs over ``Policy`` field names (unnamed fields keep their
defaults). Without any ``--policy`` the three strategies are compared at the default policy.
Prints a table (one row per scorecard key, one column per policy, ``*`` on the better value) or,
with ``--json``, a list with one ``{"policy": {...every field...}, "scorecard": {...}}`` per
policy. Exit 0; 4 when a chunk set breaks a rule of ``chunking.validate`` (the output is still
printed, and one stderr line names the policy, rule and chunk).
"""

from __future__ import annotations

import json as jsonlib
import sys

from ..analysis.compare import PolicyRun, policy_label, run_policies, scorecard_rows
from ..errors import ValidationFailure
from ..models import STRATEGIES
from ..policy import Policy, parse_policy
from ..structure_file import load_optional


def run(*, book: str, policy: list[str], json: bool, structure_file: str | None = None) -> int:
    """Compare policies on one book and print the scorecards.

    Args:
        book (str): path of the book file.
        policy (list[str]): policy specs such as ``"strategy=fixed-window,max_tokens=512"``.
        json (bool): print JSON instead of a table.

    Returns:
        int: 0, or 4 when a chunk set breaks a validation rule.

    Raises:
        PolicyError: a policy spec is malformed or invalid (before the book is opened).
        UnreadableInputError: the book cannot be read.
    """
    policies = [parse_policy(spec) for spec in policy] or [Policy(strategy=s) for s in STRATEGIES]
    sf = load_optional(structure_file)
    runs = run_policies(book, policies, structure_file=sf)
    if json:
        print(
            jsonlib.dumps([{"policy": r.policy.to_dict(), "scorecard": r.scorecard} for r in runs], indent=1)
        )
    else:
        print(format_table(runs))
    broken = [(i, r) for i, r in enumerate(runs, 1) if not r.report.ok]
    for i, r in broken:
        print(f"chunking: error: policy P{i} ({policy_label(r.policy)}): {r.report.message}", file=sys.stderr)
    return ValidationFailure.exit_code if broken else 0


def format_table(runs: list[PolicyRun]) -> str:
    """Render scorecards as a plain-text table: a legend line per policy, then one row per key.

    Args:
        runs (list[PolicyRun]): the scored runs.

    Returns:
        str: the table; ``*`` follows the better value of each row that has one.
    """
    header = ["score", *(f"P{i}" for i in range(1, len(runs) + 1))]
    rows = [header, *([key, *cells] for key, cells in scorecard_rows([r.scorecard for r in runs]))]
    widths = [max(len(row[c]) for row in rows) for c in range(len(header))]
    legend = [f"P{i}: {policy_label(r.policy)}" for i, r in enumerate(runs, 1)]
    lines = [
        "  ".join(cell.ljust(w) if c == 0 else cell.rjust(w) for c, (cell, w) in enumerate(zip(row, widths)))
        for row in rows
    ]
    return "\n".join(
        [*legend, "", *lines, "", "* = better value (rows without a better direction are unmarked)"]
    )
