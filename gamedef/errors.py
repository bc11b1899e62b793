"""Errors a director sees as one clear message and exit status 2, never a traceback."""
from __future__ import annotations


class DaoyanError(Exception):
    """Base of every error the CLI turns into a message and exit status 2."""

    exit_code = 2


class GameFileError(DaoyanError):
    """The game file is wrong: names the file, the field and what is expected."""

    def __init__(self, path: str, field: str | None, message: str, line: int | None = None):
        self.path, self.field, self.line = path, field, line
        where = path + (f":{line}" if line else "")
        what = f" [{field}]" if field else ""
        super().__init__(f"{where}{what}: {message}")


class RulesetError(DaoyanError):
    """A ruleset file is wrong or unknown."""


class ForumError(DaoyanError):
    """The forum answered something other than the pages we asked for."""


class LoginRequired(ForumError):
    """A page says you must log in (or have no permission) where posts were expected."""


class LoginFailed(ForumError):
    """The forum refused the login."""


class ThreadMissing(ForumError):
    """The thread does not exist, was deleted or is under review."""


class PageFormatError(ForumError):
    """A page that does not look like a Discuz thread page (truncated, foreign, broken)."""


class StoreError(DaoyanError):
    """The store cannot be opened or is of an unknown schema."""


def environment_error(e: BaseException) -> str:
    """An error of the machine rather than of the game (a full or read-only disk, a store file
    another program broke, memory) as one line naming what failed."""
    import errno
    import sqlite3

    if isinstance(e, OSError):
        where = f"{e.filename}: " if e.filename else ""
        hint = {errno.ENOSPC: " (the disk is full: free some space and run it again; nothing stored was lost)",
                errno.EROFS: " (a read-only disk)", errno.EACCES: " (no permission)",
                errno.EFBIG: " (the file size limit was reached)", errno.EDQUOT: " (the disk quota is used up)"}
        return f"{where}{e.strerror or type(e).__name__}{hint.get(e.errno or 0, '')}"
    if isinstance(e, sqlite3.Error):
        text = str(e)
        if "full" in text:
            text += " (the disk is full: free some space and run it again; nothing stored was lost)"
        elif "readonly" in text or "read-only" in text:
            text += " (the store or its folder is read-only)"
        return f"the store: {text}"
    if isinstance(e, MemoryError):
        return "out of memory"
    return str(e) or type(e).__name__
