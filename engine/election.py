"""M84's priest election (神父推举): the same ballot replay as the day's vote, a different winner rule.

推举<强制>: 在游戏的第一天投票结束后，最先获得投票数最多的角色当选神父. Among the players with
the day's highest count, the winner is the one who reached that count first and kept it: the
moment since which its count has never been below the final top (a later dip and recovery
restarts the clock). Nobody is priest yet while electing one, so every ballot weighs the default.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Mapping, Sequence

from gamedef.gamefile import Day
from gamedef.ruleset import Ruleset
from parsers.models import Post

from .state import DayState
from .votes import VoteCount, replay


@dataclass(frozen=True)
class Election:
    day: int
    enabled: bool  # the ruleset elects a priest on this day
    winner: str | None
    top: float
    reached_at: datetime | None
    tied_at_top: tuple[str, ...]  # everyone with the top count, winner first
    count: VoteCount
    rule: str = "first_to_reach_top"  # the reading of 最先获得投票数最多 that decided it

    def to_json(self) -> dict[str, Any]:
        c = self.count.to_json()
        top = int(self.top) if self.top == int(self.top) else self.top
        return {"day": self.day, "at": c["at"], "enabled": self.enabled, "winner": self.winner, "top": top,
                "reached_at": self.reached_at.isoformat() if self.reached_at else None,
                "tied_at_top": list(self.tied_at_top), "rule": self.rule,
                "ballots": c["ballots"], "tally": c["tally"], "abstained": c["abstained"],
                "not_voted": c["not_voted"], "timeline": c["timeline"]}


def elect_priest(posts: Sequence[Post], *, rules: Ruleset, day: Day, state: DayState, at: datetime | None = None,
                 revisions: Mapping[int, Sequence[tuple[datetime, str]]] = {},
                 out_at: Mapping[str, datetime] = {}, directors: Sequence[str] | None = None) -> Election:
    """The election thread's count and the player it makes priest (None on a tie-free empty
    thread, or when this ruleset elects no priest on this day)."""
    count = replay(posts, rules=rules, day=day, state=state, at=at, accelerated=False, proxies=(),
                   revisions=revisions, priest=None, out_at=out_at,
                   directors=state.directors if directors is None else tuple(directors))
    enabled = rules.election.enabled and rules.election.day == day.number
    rule = rules.election.winner
    if rule not in ("first_to_reach_top", "first_ever"):
        raise ValueError(f"unknown election winner rule {rule!r}")
    tally = count.tally  # already ordered by weight, then by who reached it first and kept it
    if not tally:
        return Election(day.number, enabled, None, 0.0, None, (), count, rule)
    top = tally[0].weight
    tied = [t for t in tally if abs(t.weight - top) < 1e-9]
    if rule == "first_ever" and len(tied) > 1:
        def first_at(target: str) -> tuple[int, datetime | None]:
            for i, p in enumerate(count.timeline):
                if p.counts.get(target, 0.0) + 1e-9 >= top:
                    return i, p.at
            return len(count.timeline), None
        order = sorted(tied, key=lambda t: first_at(t.target)[0])
        win = order[0]
        return Election(day.number, enabled, win.target if enabled else None, top, first_at(win.target)[1],
                        tuple(t.target for t in order), count, rule)
    return Election(day.number, enabled, tally[0].target if enabled else None, top, tally[0].reached_at,
                    tuple(t.target for t in tied), count, rule)
