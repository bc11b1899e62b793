"""The card ledger: every card given, what it adds up to, and who is ejected.

Both rule posts merge cards upwards (三张蓝牌升级为一张黄牌, 三张黄牌升级为一张红牌) and eject on a
red (红牌罚下); a director needs to see when the red came and when it takes effect (M84: after
the vote count, 004: before the vote), and M84 makes a camp lose at two reds (同一阵营的角色累计
获得两张或以上红牌时，阵营判负), which is reported for the director's decision, never applied.

Arithmetic, per player, in the order cards were given (by day, then as listed):
- blues merge into yellows every `blue_per_yellow`; the remainder carries over;
- yellows (given, or merged from blues) merge into reds every `yellow_per_red`;
- a red (given or merged) ejects when `red_ejects`; the first red's day is the ejection day;
- green (004 绿牌: 该行为没有违规) is recorded and never merges;
- cards on players already out count when `cards_on_dead_count` (M84: 已出局角色仍可被判罚);
  otherwise they are listed as not counted.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Iterable, Mapping, Sequence

from gamedef.ruleset import Ruleset

SOURCES = ("lurking", "flag", "manual")


@dataclass(frozen=True)
class CardEntry:
    player: str
    card: str  # green | blue | yellow | red
    day: int
    rule: str  # the citation
    reason: str
    source: str  # lurking | flag | manual
    pid: int | None = None  # the post it came from, where there is one
    floor: int | None = None
    at: datetime | None = None  # when in the day it was given (None: at the day's settlement)

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "card": self.card, "day": self.day, "rule": self.rule,
                "reason": self.reason, "source": self.source, "pid": self.pid, "floor": self.floor,
                "at": self.at.isoformat() if self.at else None}


@dataclass(frozen=True)
class Merge:
    """Cards merging upwards: `count` cards of `from_card` became one `to_card` on `day`."""

    day: int
    from_card: str
    to_card: str
    count: int

    def to_json(self) -> dict[str, Any]:
        return {"day": self.day, "from": self.from_card, "to": self.to_card, "count": self.count}


@dataclass(frozen=True)
class PlayerCards:
    player: str
    given: dict[str, int]  # cards as given, by colour
    green: int
    blue: int  # what is left after merging
    yellow: int
    reds: int  # given and merged
    merges: tuple[Merge, ...]
    red_days: tuple[int, ...]  # the day of each red
    ejected: bool
    ejected_day: int | None
    resolves: str | None  # after_vote | before_vote, for an ejection
    entries: tuple[CardEntry, ...]

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "given": dict(self.given), "green": self.green, "blue": self.blue,
                "yellow": self.yellow, "red": self.reds, "merges": [m.to_json() for m in self.merges],
                "red_days": list(self.red_days), "ejected": self.ejected, "ejected_day": self.ejected_day,
                "resolves": self.resolves, "entries": [e.to_json() for e in self.entries]}


@dataclass(frozen=True)
class CampReds:
    camp: str
    reds: int
    players: tuple[str, ...]
    limit_reached: bool  # reds >= camp_red_limit (a limit of 0: never)

    def to_json(self) -> dict[str, Any]:
        return {"camp": self.camp, "reds": self.reds, "players": list(self.players),
                "limit_reached": self.limit_reached}


@dataclass(frozen=True)
class Ledger:
    players: tuple[PlayerCards, ...]
    camps: tuple[CampReds, ...]
    not_counted: tuple[tuple[CardEntry, str], ...]  # (entry, why)
    camp_red_limit: int

    def of(self, player: str) -> PlayerCards | None:
        return next((p for p in self.players if p.player == player), None)

    @property
    def ejected(self) -> tuple[str, ...]:
        return tuple(p.player for p in self.players if p.ejected)

    @property
    def camp_alerts(self) -> tuple[CampReds, ...]:
        """Camps at or over the red limit: for the director's decision (M84 判罚制度)."""
        return tuple(c for c in self.camps if c.limit_reached)

    def to_json(self) -> dict[str, Any]:
        return {"players": [p.to_json() for p in self.players], "ejected": list(self.ejected),
                "camps": [c.to_json() for c in self.camps], "camp_red_limit": self.camp_red_limit,
                "camp_alerts": [c.to_json() for c in self.camp_alerts],
                "not_counted": [{**e.to_json(), "why": why} for e, why in self.not_counted]}


def _tally(player: str, entries: Sequence[CardEntry], ruleset: Ruleset) -> PlayerCards:
    rules = ruleset.cards
    given = {c: 0 for c in rules.colors}
    blue = yellow = reds = green = 0
    merges: list[Merge] = []
    red_days: list[int] = []
    for e in entries:
        given[e.card] = given.get(e.card, 0) + 1
        if e.card == "green":
            green += 1
            continue
        if e.card == "blue":
            blue += 1
        elif e.card == "yellow":
            yellow += 1
        elif e.card == "red":
            reds += 1
            red_days.append(e.day)
        if rules.blue_per_yellow > 0 and blue >= rules.blue_per_yellow:
            blue -= rules.blue_per_yellow
            yellow += 1
            merges.append(Merge(e.day, "blue", "yellow", rules.blue_per_yellow))
        if rules.yellow_per_red > 0 and yellow >= rules.yellow_per_red:
            yellow -= rules.yellow_per_red
            reds += 1
            red_days.append(e.day)
            merges.append(Merge(e.day, "yellow", "red", rules.yellow_per_red))
    ejected = rules.red_ejects and reds > 0
    return PlayerCards(player=player, given=given, green=green, blue=blue, yellow=yellow, reds=reds,
                       merges=tuple(merges), red_days=tuple(red_days), ejected=ejected,
                       ejected_day=red_days[0] if ejected else None,
                       resolves=rules.red_resolves if ejected else None, entries=tuple(entries))


def ledger(entries: Iterable[CardEntry], *, ruleset: Ruleset, camps: Mapping[str, str] = {},
           out_day: Mapping[str, int] = {}) -> Ledger:
    """Add up the cards given so far.

    `camps` maps a player to a camp (optional: M84's two-red rule); `out_day` maps a player to the
    first day they were out, used only when the ruleset does not count cards on the dead.
    """
    rules = ruleset.cards
    ordered = sorted(enumerate(entries), key=lambda ie: (ie[1].day, ie[0]))
    per: dict[str, list[CardEntry]] = {}
    skipped: list[tuple[CardEntry, str]] = []
    for _, e in ordered:
        if e.card not in rules.colors:
            skipped.append((e, f"{e.card} is not a card of this ruleset ({', '.join(rules.colors)})"))
        elif not rules.cards_on_dead_count and e.player in out_day and e.day >= out_day[e.player]:
            skipped.append((e, "cards on players already out do not count in this ruleset"))
        else:
            per.setdefault(e.player, []).append(e)
    players = tuple(_tally(p, es, ruleset) for p, es in per.items())
    by_camp: dict[str, list[PlayerCards]] = {}
    for pc in players:
        if pc.reds and pc.player in camps:
            by_camp.setdefault(camps[pc.player], []).append(pc)
    camp_rows = tuple(
        CampReds(camp=c, reds=sum(p.reds for p in pcs), players=tuple(p.player for p in pcs),
                 limit_reached=rules.camp_red_limit > 0 and sum(p.reds for p in pcs) >= rules.camp_red_limit)
        for c, pcs in by_camp.items())
    return Ledger(players=players, camps=camp_rows, not_counted=tuple(skipped), camp_red_limit=rules.camp_red_limit)


def red_moments(entries: Iterable[CardEntry], *, ruleset: Ruleset, day: int) -> dict[str, datetime | None]:
    """Players whose first red card (given, or merged from yellows) comes on `day`, each with the
    moment of the card that made it (None: the day's settlement, as lurking cards are). The ledger
    decides who is ejected; this says when, so the count can apply `cards.red_resolves`."""
    rules = ruleset.cards
    if not rules.red_ejects:
        return {}
    ordered = [e for _, e in sorted(enumerate(entries), key=lambda ie: (ie[1].day, ie[1].at is None,
                                                                         ie[1].at or datetime.min, ie[0]))]
    out: dict[str, datetime | None] = {}
    blue: dict[str, int] = {}
    yellow: dict[str, int] = {}
    done: set[str] = set()
    for e in ordered:
        p = e.player
        if p in done or e.card not in rules.colors or e.card == "green":
            continue
        red = e.card == "red"
        if e.card == "blue":
            blue[p] = blue.get(p, 0) + 1
            if rules.blue_per_yellow > 0 and blue[p] >= rules.blue_per_yellow:
                blue[p] -= rules.blue_per_yellow
                yellow[p] = yellow.get(p, 0) + 1
        elif e.card == "yellow":
            yellow[p] = yellow.get(p, 0) + 1
        if rules.yellow_per_red > 0 and yellow.get(p, 0) >= rules.yellow_per_red:
            red = True
        if red:
            done.add(p)
            if e.day == day:
                out[p] = e.at
    return out


def entries_from_penalties(penalties: Iterable[Any], at: datetime | None = None) -> list[CardEntry]:
    """Lurking penalties (`engine.lurking.Penalty`) as ledger entries."""
    return [CardEntry(player=p.player, card=p.card, day=p.day, rule=p.rule, reason=p.reason, source="lurking")
            for p in penalties]


def entry_from_manual(card: Any, ruleset: Ruleset) -> CardEntry:
    """A `[[card]]` of the game file (`gamedef.gamefile.ManualCard`) as a ledger entry."""
    return CardEntry(player=card.player, card=card.card, day=card.day, rule=ruleset.citation(card.rule),
                     reason=card.reason, source="manual", pid=card.pid, at=getattr(card, "at", None))
