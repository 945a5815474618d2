"""Chapter-aware chunking of books for retrieval, with exact provenance on every chunk."""

from .errors import ChunkingError
from .models import Book, Chunk, Diagnostics, Heading, Page
from .policy import Policy, parse_policy

__version__ = "0.1.0"

__all__ = ["Book", "Chunk", "ChunkingError", "Diagnostics", "Heading", "Page", "Policy", "parse_policy", "__version__"]
