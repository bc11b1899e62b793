"""When to try a request again, and how long to wait first.

A busy forum answers 5xx, 429, stalls or cuts a page short; minutes before a deadline the scan
must ride that out without hammering the forum harder.
"""
from __future__ import annotations

import random
import time
from email.utils import parsedate_to_datetime

BASE_DELAY = 0.5          # first backoff, seconds
MAX_DELAY = 30.0          # longest backoff between two attempts
JITTER = 0.1              # up to +10% so parallel scans do not retry in lockstep
MAX_RETRY_AFTER = 120.0   # a forum asking for longer is capped: the director has a deadline


def is_retryable_status(status: int) -> bool:
    """5xx and 429 are the forum being busy; any other status is an answer to keep."""
    return status == 429 or 500 <= status <= 599


def backoff(attempt: int, rng: random.Random) -> float:
    """Seconds before retry number `attempt` (0-based): 0.5, 1, 2, 4 … capped, plus jitter."""
    delay = min(MAX_DELAY, BASE_DELAY * (2 ** attempt))
    return delay + rng.uniform(0, JITTER * delay)


def retry_after(value: str | None, date_header: str | None = None,
                now: float | None = None) -> float | None:
    """Seconds a `Retry-After` header asks for (delta-seconds or an HTTP date), capped.

    An HTTP date is measured against the answer's own `Date` header when it has one, so a
    forum whose clock is off still gets the pause it asked for. None when absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return min(float(value), MAX_RETRY_AFTER)
    try:
        when = parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    base = None
    if date_header:
        try:
            base = parsedate_to_datetime(date_header).timestamp()
        except (TypeError, ValueError, IndexError, OverflowError):
            base = None
    if base is None:
        base = time.time() if now is None else now
    return min(max(0.0, when - base), MAX_RETRY_AFTER)
