"""Acceleration (加速) and delay (延时) of a day, from the progress thread (进程帖).

Both rule posts grant acceleration when enough living players ask for it in the progress thread
(M84: 大于等于存活人数的一半, before 讨论日结束三个小时前; 004: 超过所有存活玩家的二分之一), and
an accelerated day changes two other rules: no change votes from that moment, and no lurking card
for that day. So the moment matters as much as the answer: `granted_at` is the post that reached
the threshold, and the votes engine refuses changes from then on.

How posts are read:
- a post's words are matched against the ruleset's `request_words`, `delay_words` and
  `against_words`, leftmost-longest, so 反对加速 is an objection, not a request; when one post
  says both, its last word is its stance;
- a player counts once; a later objection withdraws an earlier request (until the threshold is
  reached: a granted acceleration is not taken back by a withdrawal);
- only players of the day who are still in the game, posting between the opening and the cut-off
  (`cutoff_hours_before_close` before the close, both ends included), count;
- a granted delay ends the accelerated state when `delay_cancels_acceleration`
  (M84: 延迟成功时，不再视为“执行加速”状态).
The director's word wins over the thread: `Day.accelerated` in the game file, or an `accelerated`
event in force (`DayState.accelerated_event`). An override without a moment of its own counts from
the day's opening (the whole day is accelerated) unless the thread gives the moment.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Mapping, Sequence

from gamedef.gamefile import Day
from gamedef.names import normalize_name
from gamedef.ruleset import AccelerationRules, Ruleset
from parsers.models import Post

from .state import DayState
from .window import left_out

ACCELERATE, DELAY = "accelerate", "delay"


@dataclass(frozen=True)
class ProgressRequest:
    """One post that asks for (or against) acceleration or delay, and whether it counted."""

    pid: int
    floor: int
    player: str
    posted_at: datetime | None
    stance: dict[str, bool]  # {"accelerate": True} asks; False objects or withdraws
    counted: bool
    why: str | None = None  # not_a_player | out | before_open | after_cutoff | after_at | no_time

    def to_json(self) -> dict[str, Any]:
        return {"pid": self.pid, "floor": self.floor, "player": self.player,
                "posted_at": self.posted_at.isoformat() if self.posted_at else None,
                "stance": dict(self.stance), "counted": self.counted, "why": self.why}


@dataclass(frozen=True)
class Acceleration:
    day: int
    requests: tuple[str, ...]  # players counted as asking for acceleration
    delays: tuple[str, ...]  # players counted as asking for delay
    living: int
    needed: int  # requests needed with that many living players
    accelerated: bool
    delayed: bool
    source: str  # "thread" | "override"
    granted_at: datetime | None = None  # from this moment the day is accelerated (None: not accelerated)
    granted_pid: int | None = None
    granted_floor: int | None = None
    delay_granted_at: datetime | None = None
    delay_granted_pid: int | None = None
    cutoff: datetime | None = None
    posts: tuple[ProgressRequest, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "day": self.day, "accelerated": self.accelerated, "delayed": self.delayed, "source": self.source,
            "requests": list(self.requests), "delays": list(self.delays), "living": self.living,
            "needed": self.needed,
            "granted_at": self.granted_at.isoformat() if self.granted_at else None,
            "granted_pid": self.granted_pid, "granted_floor": self.granted_floor,
            "delay_granted_at": self.delay_granted_at.isoformat() if self.delay_granted_at else None,
            "delay_granted_pid": self.delay_granted_pid,
            "cutoff": self.cutoff.isoformat() if self.cutoff else None,
            "posts": [p.to_json() for p in self.posts],
        }


def needed(rules: AccelerationRules, living: int) -> int:
    """The fewest requests that grant acceleration among `living` players (living + 1: never)."""
    for n in range(living + 1):
        if rules.granted(n, living):
            return n
    return living + 1


def _words(rules: AccelerationRules) -> list[tuple[str, str, bool]]:
    """(word, kind, asks) longest first; an objection is about whichever kind its words name."""
    out: dict[str, tuple[str, bool]] = {}
    for w in rules.request_words:
        out[_norm(w)] = (ACCELERATE, True)
    for w in rules.delay_words:
        out[_norm(w)] = (DELAY, True)
    for w in rules.against_words:
        n = _norm(w)
        kind = DELAY if any(_norm(d) in n for d in rules.delay_words) else ACCELERATE
        out[n] = (kind, False)
    return sorted(((w, k, a) for w, (k, a) in out.items() if w), key=lambda x: len(x[0]), reverse=True)


def _norm(text: str) -> str:
    return "".join(unicodedata.normalize("NFKC", text).casefold().split())


def stance(text: str, rules: AccelerationRules) -> dict[str, bool]:
    """What a post asks: {"accelerate": True/False, "delay": True/False}, only the kinds it names."""
    words = _words(rules)
    if not words:
        return {}
    meaning = {w: (k, a) for w, k, a in words}
    pattern = re.compile("|".join(re.escape(w) for w, _, _ in words))
    result: dict[str, bool] = {}
    for m in pattern.finditer(_norm(text)):
        kind, asks = meaning[m.group(0)]
        result[kind] = asks
    return result


def acceleration(progress_posts: Sequence[Post], *, ruleset: Ruleset, day: Day, state: DayState,
                 out_at: Mapping[str, datetime] = {}, at: datetime | None = None) -> Acceleration:
    """Whether `day` is accelerated or delayed, from when, and on whose requests.

    `state` is the day at its opening; `out_at` names players who went out during the day;
    `at` counts only posts up to that moment (for a count before the close).
    """
    rules = ruleset.acceleration
    cutoff = day.closes - timedelta(hours=rules.cutoff_hours_before_close)
    end = min(cutoff, at) if at is not None else cutoff
    roster = {normalize_name(p): p for p in state.living}
    gone = {normalize_name(p) for p in state.out}
    left = {normalize_name(k): v for k, v in out_at.items()}

    def living_at(t: datetime | None) -> int:
        return sum(1 for p in state.living
                   if not (normalize_name(p) in left and t is not None and left[normalize_name(p)] <= t))

    asking: dict[str, list[str]] = {ACCELERATE: [], DELAY: []}
    granted: dict[str, tuple[datetime, Post, int] | None] = {ACCELERATE: None, DELAY: None}
    seen: list[ProgressRequest] = []
    order = sorted(progress_posts, key=lambda p: (p.posted_at is None, p.posted_at or day.opens, p.floor))
    for post in order:
        st = stance(post.text, rules) if not post.hidden else {}
        if not st:
            continue
        key, t = normalize_name(post.author), post.posted_at
        why = left_out(key, t, roster=roster, gone=gone, left=left, opens=day.opens, deadline=cutoff,
                       deadline_why="after_cutoff", end=end)
        seen.append(ProgressRequest(pid=post.pid, floor=post.floor, player=post.author, posted_at=t,
                                    stance=st, counted=why is None, why=why))
        if why is not None:
            continue
        name = roster[key]
        for kind, asks in st.items():
            who = asking[kind]
            if asks and name not in who:
                who.append(name)
            elif not asks and name in who and granted[kind] is None:
                who.remove(name)
        n = living_at(t)
        for kind in (ACCELERATE, DELAY):
            if granted[kind] is None and rules.granted(len(asking[kind]), n):
                granted[kind] = (t, post, n)  # type: ignore[assignment]

    acc_g, del_g = granted[ACCELERATE], granted[DELAY]
    delayed = del_g is not None
    accelerated = acc_g is not None and not (delayed and rules.delay_cancels_acceleration)
    living = acc_g[2] if acc_g else living_at(end)
    source = "thread"
    g_at, g_pid, g_floor = (acc_g[0], acc_g[1].pid, acc_g[1].floor) if acc_g else (None, None, None)
    override = day.accelerated if day.accelerated is not None else (True if state.accelerated_event else None)
    if override is not None:
        source = "override"
        if override and not accelerated:
            g_at, g_pid, g_floor = day.opens, None, None
        accelerated = override
    if not accelerated:
        g_at, g_pid, g_floor = None, None, None
    return Acceleration(
        day=day.number, requests=tuple(asking[ACCELERATE]), delays=tuple(asking[DELAY]), living=living,
        needed=needed(rules, living), accelerated=accelerated, delayed=delayed, source=source,
        granted_at=g_at, granted_pid=g_pid, granted_floor=g_floor,
        delay_granted_at=del_g[0] if del_g else None, delay_granted_pid=del_g[1].pid if del_g else None,
        cutoff=cutoff, posts=tuple(seen))


def accelerated_at(acc: Acceleration, moment: datetime) -> bool:
    """Whether the day is accelerated at `moment` (a change vote posted then is refused)."""
    return acc.accelerated and acc.granted_at is not None and moment >= acc.granted_at
