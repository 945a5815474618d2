"""``python -m chunking`` — see ``chunking.cli``."""

from .cli import main

raise SystemExit(main())
