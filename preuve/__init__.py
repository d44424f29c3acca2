"""preuve: answers over your own documents and code, every claim with a verified citation."""

from preuve.errors import PreuveError
from preuve.index import Index
from preuve.models import Chunk, Document, Filters, Hit

__all__ = ["Index", "Chunk", "Document", "Filters", "Hit", "PreuveError"]
__version__ = "0.1.0"
