"""``python -m chunking`` — see ``chunking.cli``."""

from .cli import console

console()
