"""Before close: who still has to vote, who is short of posts, and how long is left.

Pure arithmetic over the day's count and activity as of a moment. The single-day post threshold
is the ruleset's one-day `posts_below` rule (M84 5(1): five; 004 5(1): one); multi-day rules that
today's posts can still trigger are listed apart as `at_risk`, so a director sees both.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Sequence

from gamedef.gamefile import Day, lock_start
from gamedef.ruleset import Ruleset

from .activity import DayActivity
from .lurking import DayRecord, day_record, lurking_penalties


@dataclass(frozen=True)
class Short:
    player: str
    posts: int
    needed: int  # posts still needed to reach the threshold
    rule: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "posts": self.posts, "needed": self.needed, "rule": self.rule}


@dataclass(frozen=True)
class Reminder:
    day: int
    at: datetime
    closes_in_s: float
    lock_in_s: float
    not_voted: tuple[str, ...]
    below: tuple[Short, ...]
    threshold: int
    at_risk: tuple[Short, ...] = field(default_factory=tuple)
    accelerated: bool = False
    only_invalid: tuple[str, ...] = ()  # every ballot they posted is invalid: they must post a new one

    @property
    def closed(self) -> bool:
        """The vote has closed: there is nobody left to remind, only a count to read."""
        return self.closes_in_s <= 0

    def to_json(self) -> dict[str, Any]:
        return {"day": self.day, "at": self.at.isoformat(), "closes_in_s": round(self.closes_in_s),
                "lock_in_s": round(self.lock_in_s), "not_voted": list(self.not_voted),
                "only_invalid": list(self.only_invalid), "closed": self.closed,
                "below": [s.to_json() for s in self.below], "threshold": self.threshold,
                "at_risk": [s.to_json() for s in self.at_risk], "accelerated": self.accelerated}


def single_day_threshold(ruleset: Ruleset) -> int:
    """The posts a player needs on one day to escape the one-day lurking rule (0: no such rule)."""
    return max((r.threshold for r in ruleset.lurking if r.kind == "posts_below" and r.days == 1), default=0)


def reminders(*, ruleset: Ruleset, day: Day, at: datetime, activity: DayActivity, not_voted: Sequence[str],
              history: Sequence[DayRecord] = (), accelerated: bool = False,
              only_invalid: Sequence[str] = ()) -> Reminder:
    """Who has no ballot and who is short of posts as of `at`; `history` holds the earlier days.
    `at_risk` lists who would get a multi-day card if the day ended with the posts they have now."""
    threshold = single_day_threshold(ruleset)
    counted = activity.counted
    below = tuple(Short(p.player, counted[p.player], threshold - counted[p.player],
                        ruleset.citation(next(r.rule for r in ruleset.lurking if r.kind == "posts_below" and r.days == 1)))
                  for p in activity.players if counted[p.player] < threshold)
    risk: list[Short] = []
    multi = [r for r in ruleset.lurking if r.kind == "posts_below" and r.days > 1]
    if multi:
        # would the day, ending with today's posts so far, give the multi-day card? Asked of the lurking
        # rules themselves, so a warning and the card never disagree (a run that earned its card restarts).
        everyone = [p.player for p in activity.players]
        today = day_record(activity, accelerated=accelerated, voted=everyone)
        earlier = [h for h in history if h.day < day.number]
        pens = lurking_penalties(earlier + [today], ruleset=ruleset)
        for r in multi:
            cite = ruleset.citation(r.rule)
            for pen in pens:
                if pen.kind == "posts_below" and pen.rule == cite and pen.threshold == r.threshold \
                        and len(pen.days) == r.days and pen.counts:
                    risk.append(Short(pen.player, pen.counts[-1], r.threshold - pen.counts[-1], cite))
    if accelerated and ruleset.acceleration.no_lurking_penalty_when_accelerated:
        below, risk = (), []  # M84 执行加速时 … 发言不足或未投票者将不被判罚: nobody to chase for posts
    lock = lock_start(day, ruleset.vote.lock_minutes)
    return Reminder(day=day.number, at=at, closes_in_s=(day.closes - at).total_seconds(),
                    lock_in_s=(lock - at).total_seconds(), not_voted=tuple(not_voted), below=below,
                    threshold=threshold, at_risk=tuple(risk), accelerated=accelerated,
                    only_invalid=tuple(only_invalid))


def _dur(seconds: float) -> str:
    if seconds <= 0:
        return "已过"
    h, rem = divmod(int(seconds), 3600)
    return f"{h}小时{rem // 60}分" if h else f"{rem // 60}分钟"


def reminder_bbcode(r: Reminder, escape: Any = lambda s: s) -> str:
    """A reminder post (催票/催帖) ready to paste; names in [b], nothing secret. After close there is
    nothing to remind: it says the vote has closed and where the count is."""
    if r.closed:
        return (f"[b]第{r.day}天 投票已截止[/b]（截至 {r.at:%m-%d %H:%M}，已关门）：不再催票催帖。"
                f"票型和未投票者请看 daoyan votes --day {r.day}，判罚看 daoyan activity --day {r.day}。\n")
    lines = [f"[b]第{r.day}天 提醒[/b]（截至 {r.at:%m-%d %H:%M}）",
             f"距关门还有 [b]{_dur(r.closes_in_s)}[/b]，距改票截止还有 [b]{_dur(r.lock_in_s)}[/b]。"]
    if r.not_voted:
        lines.append("尚未投票：" + "、".join(f"[b]{escape(n)}[/b]" for n in r.not_voted) + "，请尽快回复投票帖。")
    else:
        lines.append("所有玩家均已投票。")
    if r.only_invalid:
        lines.append("投票无效：" + "、".join(f"[b]{escape(n)}[/b]" for n in r.only_invalid)
                     + "，无效票须重新发帖更正，请按格式重新投票。")
    if r.accelerated:
        lines.append("本讨论日已加速：发言不足不判罚。")
    if r.below:
        lines.append(f"发言不足{r.threshold}帖：" + "、".join(f"[b]{escape(s.player)}[/b]（{s.posts}帖，还差{s.needed}帖）" for s in r.below))
    for s in r.at_risk:
        lines.append(f"[b]{escape(s.player)}[/b] 连续发言不足，今日还需{s.needed}帖（{s.rule}）")
    return "\n".join(lines) + "\n"
