"""Lurking (潜水) cards: the fixed yellow cards for too few posts or no vote, across days.

Each `[[lurking]]` rule of the ruleset is one behaviour, and both rule posts say each behaviour
earns its card (M84 违规判定 5: 以下行为均固定判罚一张“黄牌”), so when two rules fire on one day
both cards are given (004: no post on day 2 and under five on days 1–2 are two cards).

How days are read, decided here so a director can predict every card:
- `posts_below` (threshold T, days N) fires on the last day of a run of N consecutive
  non-accelerated days on which the player had fewer than T counted posts. An accelerated day is
  skipped: it neither counts in the run nor breaks it (连续三个未执行加速的讨论日 counts only
  non-accelerated days). A run that earned a card starts again: days 1–3 give one card, days 1–4
  do not give a second; days 1–6 give two.
- When `acceleration.no_lurking_penalty_when_accelerated`, no card at all on an accelerated day
  (M84: 执行加速时 … 发言不足或未投票者将不被判罚); otherwise accelerated days count as any other.
- `no_vote` fires on a non-accelerated day without a ballot; a whistled player is exempt when
  `activity.whistled_exempt_from_no_vote` (M84 黑哨: only animal sounds, so no ballot), and a
  player the director excused is exempt.
- A player who went out during a day is not penalised for it: they did not finish the day in the
  game. Days before a player joined or after they went out are not in their runs.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from gamedef.ruleset import LurkingRule, Ruleset

from .activity import DayActivity


@dataclass(frozen=True)
class DayRecord:
    """What lurking needs of one day: who played it, their counted posts, who voted."""

    day: int
    accelerated: bool
    living: frozenset[str]  # the day's players (in the game at its opening)
    posts: Mapping[str, int]  # counted posts per player
    voted: frozenset[str] = frozenset()
    whistled: frozenset[str] = frozenset()
    excused: frozenset[str] = frozenset()
    out_mid_day: frozenset[str] = frozenset()  # went out before the day closed
    thread_label: str = "讨论帖"  # where the posts were counted, for the reason text
    all_posts: Mapping[str, int] | None = None  # posts with water included (None: the same as `posts`)

    def count(self, player: str, exclude_water: bool) -> int:
        """Counted posts (water left out) or every post, as a rule asks."""
        if exclude_water or self.all_posts is None:
            return self.posts.get(player, 0)
        return self.all_posts.get(player, 0)


@dataclass(frozen=True)
class Penalty:
    player: str
    card: str
    rule: str  # the citation, e.g. "M84 违规判定 5(1)"
    reason: str  # Chinese, with the counts behind it
    day: int
    kind: str  # posts_below | no_vote
    days: tuple[int, ...] = ()  # the days the card rests on
    counts: tuple[int, ...] = ()  # counted posts on those days
    threshold: int | None = None
    note: str = ""  # the other reading of the rule posts, where the ruleset followed one (shown beside the card)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"player": self.player, "card": self.card, "rule": self.rule, "reason": self.reason,
                             "day": self.day, "kind": self.kind, "days": list(self.days), "counts": list(self.counts)}
        if self.threshold is not None:
            d["threshold"] = self.threshold
        if self.note:
            d["note"] = self.note
        return d


def day_record(activity: DayActivity, *, accelerated: bool, voted: Sequence[str] | frozenset[str],
               whistled: Sequence[str] = (), excused: Sequence[str] = ()) -> DayRecord:
    """A `DayRecord` from the day's counted activity."""
    label = "讨论帖" if activity.count_in == ("discussion",) else ""
    return DayRecord(day=activity.day, accelerated=accelerated,
                     living=frozenset(p.player for p in activity.players), posts=activity.counted,
                     voted=frozenset(voted), whistled=frozenset(whistled), excused=frozenset(excused),
                     out_mid_day=activity.out_mid_day, thread_label=label, all_posts=activity.posts)


def _finished(rec: DayRecord, player: str) -> bool:
    return player in rec.living and player not in rec.out_mid_day


def _run(history: Sequence[DayRecord], player: str, rule: LurkingRule, mode: str, water: bool) -> list[DayRecord]:
    """The days (latest last) of the player's current run under the rule's threshold. An
    accelerated day is skipped (`mode` "skip": neither counts nor breaks the run) or ends it ("break")."""
    run: list[DayRecord] = []
    for rec in reversed(history):
        if rec.accelerated:
            if mode == "skip":
                continue
            break
        if not _finished(rec, player) or rec.count(player, water) >= rule.threshold:
            break
        run.append(rec)
    run.reverse()
    return run


def _run_all(history: Sequence[DayRecord], player: str, rule: LurkingRule, water: bool) -> list[DayRecord]:
    """The run when accelerated days count as any other (no_lurking_penalty_when_accelerated off)."""
    run: list[DayRecord] = []
    for rec in reversed(history):
        if not _finished(rec, player) or rec.count(player, water) >= rule.threshold:
            break
        run.append(rec)
    run.reverse()
    return run


def lurking_penalties(history: Sequence[DayRecord], *, ruleset: Ruleset) -> list[Penalty]:
    """The lurking cards of the LAST day in `history` (earlier days are looked back on for runs)."""
    if not history:
        return []
    hist = sorted(history, key=lambda r: r.day)
    today = hist[-1]
    skip = ruleset.acceleration.no_lurking_penalty_when_accelerated
    if today.accelerated and skip:
        return []
    mode = ruleset.activity.accelerated_in_run if skip else "count"
    where = today.thread_label
    out: list[Penalty] = []
    order = [p for p in today.posts if p in today.living] + sorted(p for p in today.living if p not in today.posts)
    for player in order:
        if not _finished(today, player):
            continue
        for rule in ruleset.lurking:
            cite = ruleset.citation(rule.rule)
            if rule.kind == "no_vote":
                if player in today.voted or player in today.excused:
                    continue
                if player in today.whistled and ruleset.activity.whistled_exempt_from_no_vote:
                    continue
                out.append(Penalty(player=player, card=rule.card, rule=cite, day=today.day, kind=rule.kind,
                                   days=(today.day,), reason=f"第{today.day}天未在投票帖投票"))
                continue
            water = ruleset.activity.exclude_water if rule.exclude_water is None else rule.exclude_water
            water_note = "（不含纯水帖）" if water else ""
            days = max(1, rule.days)
            run = _run(hist, player, rule, mode, water) if mode != "count" else _run_all(hist, player, rule, water)
            if not run or len(run) % days != 0:
                continue
            run = run[-days:]
            counts = tuple(r.count(player, water) for r in run)
            nums = tuple(r.day for r in run)
            if days == 1:
                if rule.threshold <= 1:
                    reason = f"第{nums[0]}天{where}没有发言{water_note}"
                else:
                    reason = f"第{nums[0]}天{where}发言{counts[0]}帖{water_note}，不足{rule.threshold}帖"
            else:
                dl = "、".join(str(n) for n in nums)
                cl = "、".join(str(c) for c in counts)
                gap = "（跳过加速日：activity.accelerated_in_run = skip）" if nums[-1] - nums[0] + 1 > len(nums) and skip else ""
                reason = (f"连续{days}个未加速讨论日（第{dl}天{gap}）{where}发言分别为{cl}帖{water_note}，"
                          f"均不足{rule.threshold}帖")
            out.append(Penalty(player=player, card=rule.card, rule=cite, day=today.day, kind=rule.kind,
                               days=nums, counts=counts, threshold=rule.threshold, reason=reason, note=rule.note))
    return out
