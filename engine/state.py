"""Who is in the game at a moment: living players, the priest, whistled and excused players.

The threads do not say who went out at night or who is whistled; the director writes those as
events in the game file, each in force from its day's opening (or from its own `at`).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from gamedef.gamefile import Game


@dataclass(frozen=True)
class DayState:
    day: int
    at: datetime
    players: tuple[str, ...]  # every player of the game
    living: tuple[str, ...]
    out: tuple[str, ...]
    priest: str | None
    whistled: tuple[str, ...]
    excused: tuple[str, ...]  # excused from voting by the director
    accelerated_event: bool  # an `accelerated` event is in force
    directors: tuple[str, ...] = ()  # the game's directors (their 【代投】 posts are proxy ballots)
    survives: tuple[tuple[str, str], ...] = ()  # (player, reason): stays in if leading the day's vote (004 捍卫 / 尊贵)
    accelerated_since: datetime | None = None  # an `accelerated` event of this day with its own `at`
    aliases: tuple[tuple[str, str], ...] = ()  # (another name of the account, roster name): renamed on the forum, or the game file's [game] aliases

    def is_alive(self, name: str) -> bool:
        return name in self.living


def _in_force(game: Game, ev_day: int, ev_at: datetime | None, day: int, at: datetime) -> bool:
    if ev_at is not None:
        return ev_at <= at
    if ev_day < day:
        return True
    if ev_day == day:
        try:
            return game.day(day).opens <= at
        except Exception:
            return True
    return False


def state_at(game: Game, day: int, at: datetime | None = None) -> DayState:
    """The state of `day` at the moment `at` (default: the day's opening)."""
    d = game.day(day)
    at = at or d.opens
    out: list[str] = []
    whistled: list[str] = []
    excused: list[str] = []
    priest: str | None = None
    accelerated = False
    survives: list[tuple[str, str]] = []
    since: datetime | None = None
    for ev in sorted(game.events, key=lambda e: (e.day, e.at or datetime.min.replace(tzinfo=at.tzinfo))):
        if ev.kind == "survives":  # about the day's outcome, whenever in the day it was decided
            if ev.day == day and ev.player:
                survives.append((ev.player, ev.reason or ""))
            continue
        if ev.kind == "accelerated" and ev.day == day and ev.at is not None:
            since = ev.at  # in force from its moment: the count needs that moment, not only the opening state
            continue
        if not _in_force(game, ev.day, ev.at, day, at):
            continue
        if ev.kind == "out" and ev.player and ev.player not in out:
            out.append(ev.player)
        elif ev.kind == "priest":
            priest = ev.player
        elif ev.kind == "whistled" and ev.player and ev.player not in whistled:
            whistled.append(ev.player)
        elif ev.kind == "unwhistled" and ev.player in whistled:
            whistled.remove(ev.player)
        elif ev.kind == "excused" and ev.day == day and ev.player:
            excused.append(ev.player)
        elif ev.kind == "accelerated" and ev.day == day:
            accelerated = True
        elif ev.kind == "delayed" and ev.day == day:
            accelerated = False

    if priest in out:
        priest = None
    living = tuple(p for p in game.players if p not in out)
    return DayState(day=day, at=at, players=game.players, living=living, out=tuple(out), priest=priest,
                    whistled=tuple(w for w in whistled if w in living), excused=tuple(excused),
                    accelerated_event=accelerated, directors=game.directors, survives=tuple(survives),
                    accelerated_since=since,
                    aliases=tuple((a, p) for p, names in game.aliases.items() for a in names))


def out_during(game: Game, day: int) -> dict[str, datetime]:
    """Players who go out in the middle of `day` (an `out` event with its own `at` inside the day)."""
    d = game.day(day)
    return {ev.player: ev.at for ev in game.events
            if ev.kind == "out" and ev.player and ev.at is not None and d.opens < ev.at <= d.closes}


def state_at_moment(game: Game, at: datetime, day: int) -> DayState:
    """Who is in the game at `at`, whichever day's thread the post is in: the state of the last day
    opened by then (a post in an older day's thread or in the rule thread is judged by the moment it
    was made, so 诈尸 there is seen). Before the first day: `day`'s opening state."""
    opened = [d for d in game.days if d.opens <= at]
    if not opened:
        return state_at(game, day)
    return state_at(game, max(opened, key=lambda d: d.opens).number, at)
