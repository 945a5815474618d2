"""The package version, in a module of its own so any stage can import it at module level.

``chunking/__init__`` imports the pipeline, which imports the export stage; were the version
defined in ``__init__``, export would import a half-initialised package (the cycle issue 11 found).
``pyproject.toml`` reads the version from here.
"""

__version__ = "0.1.0"
