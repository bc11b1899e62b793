"""Whether a post falls inside a day's window and is by a player still in the game — the test
that both post counts and acceleration requests apply, one definition for both."""
from __future__ import annotations

from datetime import datetime
from typing import Mapping


def left_out(author_key: str, t: datetime | None, *, roster: Mapping[str, str], gone: set[str] | frozenset[str],
             left: Mapping[str, datetime], opens: datetime, deadline: datetime, deadline_why: str,
             end: datetime) -> str | None:
    """Why the post does not count (`out`, `not_a_player`, `no_time`, `before_open`, the
    deadline's own reason, `after_at`), or None when it counts. `left` names players who went
    out during the day and when; `end` is the moment of the count (≤ the deadline)."""
    if author_key not in roster:
        return "out" if author_key in gone else "not_a_player"
    if t is None:
        return "no_time"
    if t < opens:
        return "before_open"
    if t > deadline:
        return deadline_why
    if t > end:
        return "after_at"
    if author_key in left and t >= left[author_key]:
        return "out"
    return None
