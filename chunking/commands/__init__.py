"""One module per CLI subcommand; each exposes ``run(**options) -> int``."""
