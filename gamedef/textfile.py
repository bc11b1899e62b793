"""Reading the director's text files (game files, rulesets, rule posts) with one set of messages."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path


def read_utf8(path: Path, fail: Callable[[str], Exception]) -> str:
    """The file's text; an unreadable or non-UTF-8 file raises `fail(reason)`, never a traceback."""
    try:
        return path.read_text("utf-8")
    except UnicodeDecodeError as e:
        raise fail(f"not UTF-8 text ({e.reason} at byte {e.start})") from None
    except OSError as e:
        raise fail(f"cannot read: {e.strerror}") from None
