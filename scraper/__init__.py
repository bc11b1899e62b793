"""scraper: HTTP to a Discuz X3.x forum (pages, mobile API, login), politely. Knows nothing of games."""
from .charset import detect_charset
from .client import Fetched, ForumClient

__all__ = ["Fetched", "ForumClient", "detect_charset"]
