"""Rulesets: the rule post of a game as data.

Every difference between games (change-vote form, lock window, weights, lurking thresholds, water
posts, card escalation, when a red card resolves) is a field here; code reads fields and never
asks which game it is. Presets live in `daoyan/rulesets/*.toml`, each field commented with the
rule it encodes; a game file may name a preset or a path to a TOML of the same shape.
"""
from __future__ import annotations

import dataclasses
import math
import tomllib
import types
import typing
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from .errors import RulesetError


@dataclass(frozen=True)
class VoteRules:
    target_label: str = "投票对象"
    reason_label: str = "投票理由"
    change_target_label: str = "改票对象"
    change_reason_label: str = "改票理由"
    abstain_word: str = "弃权"
    reason_required: bool = True
    change_reference: tuple[str, ...] = ("reply", "quote")  # what points a change at the original
    max_changes: int = 1
    lock_minutes: int = 60
    lock_applies_to_proxy: bool = True
    changes_while_accelerated: bool = False
    invalid_fixed_by_new_post: bool = True
    second_vote_is_duplicate: bool = True
    width_insensitive: bool = True
    same_line_allowed: bool = True
    tie_nobody_out: bool = True
    dead_can_vote: bool = False
    dead_can_be_voted: bool = False
    proxy_marker: str = "【代投】"
    edit_changing_target_is_problem: bool = True
    proxy_vote_lock_minutes: int | None = None  # a proxy vote's own lock; None: lock_minutes
    invalid_counts_as_voted: bool = True  # an uncorrected invalid ballot still answers the vote thread


@dataclass(frozen=True)
class Weights:
    default: float = 1.0
    priest: float | None = None

    def of(self, is_priest: bool) -> float:
        return self.priest if (is_priest and self.priest is not None) else self.default


@dataclass(frozen=True)
class ElectionRules:
    enabled: bool = False
    day: int = 1
    winner: str = "first_to_reach_top"


@dataclass(frozen=True)
class AccelerationRules:
    threshold: str = "at_least_half"  # at_least_half | more_than_half
    cutoff_hours_before_close: float = 0
    request_words: tuple[str, ...] = ("申请加速",)
    delay_words: tuple[str, ...] = ("申请延时",)
    against_words: tuple[str, ...] = ()
    no_lurking_penalty_when_accelerated: bool = True
    delay_cancels_acceleration: bool = True  # a granted delay ends the accelerated state

    def granted(self, requests: int, living: int) -> bool:
        """Whether `requests` of `living` players are enough, per the threshold."""
        if living <= 0:
            return False
        if self.threshold == "more_than_half":
            return requests * 2 > living
        return requests * 2 >= living


@dataclass(frozen=True)
class ActivityRules:
    count_in: tuple[str, ...] = ("discussion",)
    exclude_water: bool = False
    whistled_exempt_from_no_vote: bool = True


@dataclass(frozen=True)
class LurkingRule:
    rule: str
    kind: str  # posts_below | no_vote
    card: str = "yellow"
    threshold: int = 0
    days: int = 1
    text: str = ""


@dataclass(frozen=True)
class CardRules:
    colors: tuple[str, ...] = ("blue", "yellow", "red")
    blue_per_yellow: int = 3
    yellow_per_red: int = 3
    red_ejects: bool = True
    red_resolves: str = "after_vote"  # after_vote | before_vote
    camp_red_limit: int = 0  # 0: no fixed limit
    cards_on_dead_count: bool = True


@dataclass(frozen=True)
class WhistleRules:
    enabled: bool = False
    sounds: str = ""
    rule: str = ""


@dataclass(frozen=True)
class EvidenceRules:
    links_forbidden: bool = False
    attachments_forbidden: bool = False


@dataclass(frozen=True)
class FontRules:
    red_distance: float = 120.0
    forbid_enlarged: bool = True
    max_size: int = 3


@dataclass(frozen=True)
class ModerationRules:
    rules: dict[str, str] = field(default_factory=dict)
    suggested_cards: dict[str, str] = field(default_factory=dict)
    evidence: EvidenceRules = EvidenceRules()
    font: FontRules = FontRules()


@dataclass(frozen=True)
class Ruleset:
    name: str
    cite: str
    title: str = ""
    vote: VoteRules = VoteRules()
    weights: Weights = Weights()
    election: ElectionRules = ElectionRules()
    acceleration: AccelerationRules = AccelerationRules()
    activity: ActivityRules = ActivityRules()
    lurking: tuple[LurkingRule, ...] = ()
    cards: CardRules = CardRules()
    whistle: WhistleRules = WhistleRules()
    moderation: ModerationRules = ModerationRules()

    def citation(self, rule: str) -> str:
        """`违规判定 2(5)` → `M84 违规判定 2(5)`."""
        return f"{self.cite} {rule}".strip()

    def rule_for(self, category: str) -> str:
        """The full citation of the rule a speech category breaks in this game."""
        r = self.moderation.rules.get(category)
        return self.citation(r) if r else self.citation("违规判定")

    def suggested_card(self, category: str) -> str:
        c = self.moderation.suggested_cards
        return c.get(category, c.get("default", "blue"))


PRESETS = ("m84", "004")


def _build(cls: type, data: Any, where: str) -> Any:
    """A frozen dataclass from a TOML table, refusing unknown fields by name."""
    if not isinstance(data, dict):
        raise RulesetError(f"{where}: expected a table, got {type(data).__name__}")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise RulesetError(f"{where}: unknown field(s) {', '.join(unknown)}; known: {', '.join(fields)}")
    kw: dict[str, Any] = {}
    for name, value in data.items():
        f = fields[name]
        sub = {
            "vote": VoteRules, "weights": Weights, "election": ElectionRules,
            "acceleration": AccelerationRules, "activity": ActivityRules, "cards": CardRules,
            "whistle": WhistleRules, "moderation": ModerationRules, "evidence": EvidenceRules,
            "font": FontRules,
        }.get(name) if dataclasses.is_dataclass(f.default) else None
        if sub is not None:
            kw[name] = _build(sub, value, f"{where}.{name}")
        elif name == "lurking":
            if not isinstance(value, list):
                raise RulesetError(f"{where}.lurking: expected an array of tables ([[lurking]])")
            kw[name] = tuple(_build(LurkingRule, v, f"{where}.lurking[{i}]") for i, v in enumerate(value))
        else:
            kw[name] = _typed(value, _hints(cls)[name], f"{where}.{name}")
    try:
        return cls(**kw)
    except TypeError as e:
        raise RulesetError(f"{where}: {e}") from None


def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _typed(value: Any, hint: Any, where: str) -> Any:
    """`value` as the field's type says (a TOML array becomes a tuple), or a RulesetError naming
    the field: a wrong type would otherwise surface as a crash in the middle of a count."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):  # `int | None`: TOML has no None, so the int
        return _typed(value, next(a for a in args if a is not type(None)), where)
    if origin is tuple:
        if not isinstance(value, list):
            raise RulesetError(f"{where}: expected a list, got {value!r}")
        return tuple(_typed(v, args[0], f"{where}[{i}]") for i, v in enumerate(value))
    if origin is dict:
        if not isinstance(value, dict):
            raise RulesetError(f"{where}: expected a table, got {value!r}")
        return {str(k): _typed(v, args[1], f"{where}.{k}") for k, v in value.items()}
    if hint is bool:
        if not isinstance(value, bool):
            raise RulesetError(f"{where}: expected true or false, got {value!r}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int) or not -10**9 <= value <= 10**9:
            raise RulesetError(f"{where}: expected a whole number, got {value!r}")
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                or not -10**9 <= value <= 10**9:
            raise RulesetError(f"{where}: expected a number, got {value!r}")
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise RulesetError(f"{where}: expected text, got {value!r}")
        return value
    return value


def parse_ruleset(text: str, where: str) -> Ruleset:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise RulesetError(f"{where}: not valid TOML: {e}") from None
    for required in ("name", "cite"):
        if required not in data:
            raise RulesetError(f"{where}: missing field {required!r}")
    rs = _build(Ruleset, data, where)
    for lr in rs.lurking:
        if lr.kind not in ("posts_below", "no_vote"):
            raise RulesetError(f"{where}: lurking kind {lr.kind!r} is not posts_below or no_vote")
    _check_choices(rs, where)
    return rs


def _check_choices(rs: Ruleset, where: str) -> None:
    """Words the engine acts on and numbers it divides or counts by: a typo is refused here,
    not read as the default nor met as a crash in the middle of a count."""
    choices = [
        ("election.winner", [rs.election.winner], ("first_to_reach_top",)),
        ("acceleration.threshold", [rs.acceleration.threshold], ("at_least_half", "more_than_half")),
        ("cards.red_resolves", [rs.cards.red_resolves], ("after_vote", "before_vote")),
        ("vote.change_reference", list(rs.vote.change_reference), ("reply", "quote")),
        ("cards.colors", list(rs.cards.colors), ("green", "blue", "yellow", "red")),
        ("lurking.card", [lr.card for lr in rs.lurking], rs.cards.colors),
    ]
    for name, values, allowed in choices:
        for v in values:
            if v not in allowed:
                raise RulesetError(f"{where}.{name}: {v!r} is not one of {', '.join(allowed)}")
    counts = [("vote.max_changes", rs.vote.max_changes, 0), ("vote.lock_minutes", rs.vote.lock_minutes, 0),
              ("cards.blue_per_yellow", rs.cards.blue_per_yellow, 1), ("cards.yellow_per_red", rs.cards.yellow_per_red, 1),
              ("cards.camp_red_limit", rs.cards.camp_red_limit, 0), ("election.day", rs.election.day, 1),
              ("acceleration.cutoff_hours_before_close", rs.acceleration.cutoff_hours_before_close, 0),
              ("weights.default", rs.weights.default, 0)]
    counts += [(f"lurking[{i}].days", lr.days, 1) for i, lr in enumerate(rs.lurking)]
    counts += [(f"lurking[{i}].threshold", lr.threshold, 0) for i, lr in enumerate(rs.lurking)]
    if rs.vote.proxy_vote_lock_minutes is not None:
        counts.append(("vote.proxy_vote_lock_minutes", rs.vote.proxy_vote_lock_minutes, 0))
    if rs.weights.priest is not None:
        counts.append(("weights.priest", rs.weights.priest, 0))
    for name, value, low in counts:
        if value < low:
            raise RulesetError(f"{where}.{name}: expected {low} or more, got {value!r}")


def load_ruleset(spec: str, base: Path | None = None) -> Ruleset:
    """A preset by name (`m84`, `004`) or a ruleset TOML by path (relative to `base`)."""
    key = spec.strip().lower()
    if key in PRESETS:
        text = resources.files("daoyan.rulesets").joinpath(f"{key}.toml").read_text("utf-8")
        return parse_ruleset(text, f"preset {key}")
    path = Path(spec)
    if base is not None and not path.is_absolute():
        path = base / path
    if not path.is_file():
        raise RulesetError(f"unknown ruleset {spec!r}: not a preset ({', '.join(PRESETS)}) nor a file")
    try:
        text = path.read_text("utf-8")
    except UnicodeDecodeError as e:
        raise RulesetError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    except OSError as e:
        raise RulesetError(f"{path}: cannot read: {e.strerror}") from None
    return parse_ruleset(text, str(path))
