"""Rulesets: the rule post of a game as data.

Every difference between games (change-vote form, lock window, weights, lurking thresholds, water
posts, card escalation, when a red card resolves) is a field here; code reads fields and never
asks which game it is. Presets live in `gamedef/rulesets/*.toml`, each field commented with the
rule it encodes; a game file may name a preset or a path to a TOML of the same shape.
"""
from __future__ import annotations

import dataclasses
import math
import tomllib
import types
import typing
from dataclasses import dataclass, field
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any

from .errors import RulesetError
from .textfile import read_utf8


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
    # which changes an acceleration voids: "after_granted" (only those posted from the moment it took
    # effect: M84 执行加速时不允许改票) | "whole_day" (every change of the day: 004 所有改票作废)
    accelerated_voids: str = "after_granted"
    invalid_fixed_by_new_post: bool = True
    second_vote_is_duplicate: bool = True
    width_insensitive: bool = True
    same_line_allowed: bool = True
    tie_nobody_out: bool = True
    dead_can_vote: bool = False
    dead_can_be_voted: bool = False
    proxy_marker: str = "【代投】"
    edit_changing_target_is_problem: bool = True
    proxy_vote_lock_minutes: int | None = None  # a proxy post's own lock (vote or change); None: lock_minutes
    proxy_reason_required: bool = False  # a 【代投】 needs a target; a reason only when this says so
    # a proxy change needs the player's request at least this long before close (`requested_at`); None: not checked
    proxy_change_request_minutes: int | None = None
    invalid_counts_as_voted: bool = True  # an uncorrected invalid ballot still answers the vote thread
    abstain_reason_required: bool = True  # an abstention needs its reason line too (the format has both lines)
    # a 【代投】 whose target is a condition for the director (谁票多投谁, 如果…就…) instead of a named player:
    # "abstain" (read as an abstention, noted: 004 玩家须知 9 否则视为弃权) | "invalid" (a wrong target, an
    # invalid ballot to be corrected by a new post: M84 不可设立投票条件 … 投票对象有误的票无效)
    conditional_proxy: str = "invalid"
    conditional_proxy_rule: str = ""  # the sentence it rests on, quoted in the ballot's message
    # a ballot cast while its voter was in the game, when the voter goes out later the same day (an `out`
    # event with `at`, a red card resolved before the vote): "counts" (it stands: only what the voter posts
    # after going out is barred — M84 已公示出局的角色不允许在…投票帖…中发言) | "dropped" (it leaves the count
    # from that moment: 004 角色出局结算结束后，不能继续参与讨论、投票 … 已经公示的出局角色不属于游戏范畴)
    ballot_before_out: str = "dropped"
    ballot_before_out_rule: str = ""  # the sentence it rests on, quoted in the ballot's message


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
    # among those tied at the top: "first_to_reach_top" — who reached the top count first and kept it
    # (a dip restarts the clock) | "first_ever" — who first held the top count at any moment
    winner: str = "first_to_reach_top"


@dataclass(frozen=True)
class AccelerationRules:
    threshold: str = "at_least_half"  # at_least_half | more_than_half | at_least | more_than (of `fraction`)
    fraction: float = 0.5  # the share of the living the threshold is of (0.5 for the *_half forms)
    cutoff_hours_before_close: float = 0
    request_words: tuple[str, ...] = ("申请加速",)
    delay_words: tuple[str, ...] = ("申请延时",)
    against_words: tuple[str, ...] = ()
    no_lurking_penalty_when_accelerated: bool = True
    delay_cancels_acceleration: bool = True  # a granted delay ends the accelerated state
    # How a progress-thread post is read (engine.acceleration.read_post): the words each stance rests on.
    accelerate_keywords: tuple[str, ...] = ("加速", "加快进程", "加快", "提速")  # 004 玩家须知 8: 提议进程加速 … 执行加快进程
    delay_keywords: tuple[str, ...] = ("延时", "延迟", "延期", "延长")
    not_keyword_after: tuple[str, ...] = ("度", "器", "剂", "键")  # 加速度 is physics, not a request
    request_verbs: tuple[str, ...] = ("申请", "申請", "同意", "支持", "赞成", "贊成", "赞同", "贊同", "求", "要求", "请求", "請求",
                                      "希望", "想",
                                      "要", "建议", "提议", "投", "我也", "附议", "继续")
    negations: tuple[str, ...] = ("不", "别", "没必要", "无需", "不用", "甭", "勿", "莫", "拒绝", "反对", "算了")
    negation_exceptions: tuple[str, ...] = ("不如", "要不", "不妨", "何不", "不得不", "不然", "不管", "不反对",
                                            "不拒绝", "不错", "不少", "不过", "不久", "不断", "不一定", "不好意思")
    withdraw_words: tuple[str, ...] = ("撤回", "撤销", "撤銷", "收回", "取消", "撤掉", "撤了", "作废", "作廢")
    question_words: tuple[str, ...] = ("谁", "什么", "为什么", "为啥", "怎么", "是否", "要不要", "需不需要", "有没有",
                                       "多少", "几个", "几人", "能不能", "可不可以")
    question_particles: tuple[str, ...] = ("吗", "么", "呢")  # only at the end of a clause
    third_party_words: tuple[str, ...] = ("他", "她", "有人", "别人", "楼上", "某人", "大家都")
    second_words: tuple[str, ...] = ("+1", "加一", "附议", "同上", "同意", "赞成", "支持", "顶", "同求", "me too", "1",
                                     "我也是", "我也要", "我也一样", "我也")
    # a reply like "+1" / "附议" under a request: "request" (it joins that request) | "ignored"
    seconding: str = "request"
    # when the count of requests is set against the living: "when_reached" (at every request, withdrawal
    # and departure up to the cut-off; granted from the first moment the threshold holds, and a later
    # withdrawal does not undo it) | "at_cutoff" (the requests standing at the cut-off against those alive
    # then; granted from the moment that standing count last reached the threshold)
    judged: str = "when_reached"

    def granted(self, requests: int, living: int) -> bool:
        """Whether `requests` of `living` players are enough, per the threshold."""
        if living <= 0:
            return False
        share = Fraction(1, 2) if self.threshold.endswith("_half") else Fraction(self.fraction).limit_denominator(1000)
        if self.threshold.startswith("more_than"):
            return requests > share * living
        return requests >= share * living


@dataclass(frozen=True)
class ScheduleRules:
    """How long a discussion day lasts, per the rule post (for checking the game file's `closes`)."""

    length_days: int = 0  # calendar days from opening to close, the opening day included (0: not checked)
    weekend_extra_days: int = 0  # added when the day's span meets a Saturday or Sunday
    first_day_extends: bool = True  # whether the first day is extended for a weekend too
    rule: str = ""  # the sentence it rests on, for the warning
    # for `daoyan init`'s guess of a close the opening post does not state (marked as a guess there)
    day_hours: float = 0  # a day's length in hours, when the post gives one that way (0: not said)
    close_time: str = ""  # the usual closing time of day, HH:MM ("": not said)


@dataclass(frozen=True)
class ActivityRules:
    count_in: tuple[str, ...] = ("discussion",)
    exclude_water: bool = False
    whistled_exempt_from_no_vote: bool = True
    # an accelerated day inside a run of "连续N个讨论日": "skip" (neither counts nor breaks it) | "break"
    accelerated_in_run: str = "skip"
    # M84 违规判定 6(5) 大量无意义水帖: flag a player with at least this many water posts in a day (0: never)
    water_flag_per_day: int = 0


@dataclass(frozen=True)
class LurkingRule:
    rule: str
    kind: str  # posts_below | no_vote
    card: str = "yellow"
    threshold: int = 0
    days: int = 1
    text: str = ""
    exclude_water: bool | None = None  # water posts are "no post" for this rule; None: activity.exclude_water
    note: str = ""  # another reading of the rule posts, shown beside the card (which one was followed)


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
    ballot_counts: bool = True  # a whistled player's ballot counts (flagged for the director) | is not counted


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
    # mockery the lexicon misses, suggested by a statistical model (moderation/belittle.py); false: the lexicon only
    belittle_model: bool = True
    # any other category the lexicon misses, suggested by that category's statistical model
    # (moderation/speech_models.py); false: the lexicon (and the belittling model) only
    speech_models: bool = True
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
    schedule: ScheduleRules = ScheduleRules()

    def citation(self, rule: str) -> str:
        """`违规判定 2(5)` → `M84 违规判定 2(5)`."""
        return f"{self.cite} {rule}".strip()

    def rule_for(self, category: str) -> str:
        """The full citation of the rule a speech category breaks in this game."""
        r = self.moderation.rules.get(category)
        return self.citation(r) if r else self.citation("违规判定")

    def readings(self) -> list[dict[str, str]]:
        """The readings this ruleset takes where the rule posts are open, for the output to show."""
        v, a, act, el, w = self.vote, self.acceleration, self.activity, self.election, self.whistle
        out = [
            {"field": "acceleration.seconding", "reading": a.seconding,
             "rule": "“+1”/“附议”回复申请：" + ("计为申请" if a.seconding == "request" else "不计")},
            {"field": "acceleration.judged", "reading": a.judged,
             "rule": "加速申请人数与存活人数的比较：" + (
                 "每次申请、撤回或有人中途出局时都重新比较，首次达到即加速（之后撤回不影响）"
                 if a.judged == "when_reached" else
                 f"以截止时刻（关门前{a.cutoff_hours_before_close:g}小时）仍有效的申请与当时的存活人数为准")},
            {"field": "vote.accelerated_voids", "reading": v.accelerated_voids,
             "rule": "加速后作废" + ("加速生效之后的改票" if v.accelerated_voids == "after_granted" else "当天所有改票")},
            {"field": "activity.accelerated_in_run", "reading": act.accelerated_in_run,
             "rule": "“连续N个讨论日”中的加速日：" + ("跳过（不计入也不打断）" if act.accelerated_in_run == "skip" else "打断连续")},
            {"field": "vote.abstain_reason_required", "reading": str(v.abstain_reason_required).lower(),
             "rule": "弃权票" + ("也须写投票理由" if v.abstain_reason_required else "可以不写理由")},
            {"field": "vote.conditional_proxy", "reading": v.conditional_proxy,
             "rule": "代投给出条件而非明确的投票对象：" + ("视为弃权" if v.conditional_proxy == "abstain" else "投票对象有误，票无效"),
             "note": v.conditional_proxy_rule},
            {"field": "vote.ballot_before_out", "reading": v.ballot_before_out,
             "rule": "白天中途出局者在出局之前投的票：" + ("照常计入（只有出局之后发的票不计）"
                                                  if v.ballot_before_out == "counts" else "从出局时起不再计入"),
             "note": v.ballot_before_out_rule},
        ]
        if el.enabled:
            out.append({"field": "election.winner", "reading": el.winner,
                        "rule": "最先获得投票数最多：" + ("达到并保持最高票最早者（中途掉票重新计时）"
                                                 if el.winner == "first_to_reach_top" else "最早曾达到最高票者")})
        if w.enabled:
            out.append({"field": "whistle.ballot_counts", "reading": str(w.ballot_counts).lower(),
                        "rule": "黑哨状态玩家的投票" + ("计入（提醒导演复核）" if w.ballot_counts else "不计")})
            out.append({"field": "activity.whistled_exempt_from_no_vote",
                        "reading": str(act.whistled_exempt_from_no_vote).lower(),
                        "rule": "黑哨状态玩家未投票" + ("不判潜水" if act.whistled_exempt_from_no_vote else "照常判潜水")})
        for lr in self.lurking:
            if lr.kind == "posts_below":
                water = act.exclude_water if lr.exclude_water is None else lr.exclude_water
                out.append({"field": f"lurking {lr.rule} ({lr.text})", "reading": f"threshold {lr.threshold}, days {lr.days}",
                            "rule": ("纯水帖不算发言" if water else "纯水帖也算发言"), "note": lr.note})
        if act.water_flag_per_day:
            out.append({"field": "activity.water_flag_per_day", "reading": str(act.water_flag_per_day),
                        "rule": f"一天{act.water_flag_per_day}帖及以上纯水帖提示“大量无意义水帖”"})
        return [{"note": "", **r} for r in out]

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
            "font": FontRules, "schedule": ScheduleRules,
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


def _check_more(rs: Ruleset, where: str) -> None:
    """Words the engine acts on and numbers it divides or counts by: a typo is refused here,
    not read as the default nor met as a crash in the middle of a count."""
    choices = [
        ("acceleration.threshold", [rs.acceleration.threshold], ("at_least_half", "more_than_half", "at_least", "more_than")),
        ("vote.change_reference", list(rs.vote.change_reference), ("reply", "quote")),
        ("cards.colors", list(rs.cards.colors), ("green", "blue", "yellow", "red")),
        ("lurking.card", [lr.card for lr in rs.lurking], rs.cards.colors),
        ("activity.count_in", list(rs.activity.count_in), ("discussion", "vote", "progress", "election")),
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


def parse_ruleset(text: str, where: str) -> Ruleset:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise RulesetError(f"{where}: not valid TOML: {e}") from None
    for required in ("name", "cite"):
        if required not in data:
            raise RulesetError(f"{where}: missing field {required!r}")
    rs = _build(Ruleset, data, where)
    if not 0 < rs.acceleration.fraction <= 1:
        raise RulesetError(f"{where}: acceleration.fraction must be above 0 and at most 1")
    for lr in rs.lurking:
        if lr.kind not in ("posts_below", "no_vote"):
            raise RulesetError(f"{where}: lurking kind {lr.kind!r} is not posts_below or no_vote")
    choices = (("vote.accelerated_voids", rs.vote.accelerated_voids, ("after_granted", "whole_day")),
               ("vote.conditional_proxy", rs.vote.conditional_proxy, ("abstain", "invalid")),
               ("vote.ballot_before_out", rs.vote.ballot_before_out, ("counts", "dropped")),
               ("acceleration.seconding", rs.acceleration.seconding, ("request", "ignored")),
               ("acceleration.judged", rs.acceleration.judged, ("when_reached", "at_cutoff")),
               ("activity.accelerated_in_run", rs.activity.accelerated_in_run, ("skip", "break")),
               ("election.winner", rs.election.winner, ("first_to_reach_top", "first_ever")),
               ("cards.red_resolves", rs.cards.red_resolves, ("after_vote", "before_vote")))
    for name, value, allowed in choices:
        if value not in allowed:
            raise RulesetError(f"{where}: {name} = {value!r}; expected one of {', '.join(allowed)}")
    sch = rs.schedule
    for name, value in (("length_days", sch.length_days), ("weekend_extra_days", sch.weekend_extra_days),
                        ("activity.water_flag_per_day", rs.activity.water_flag_per_day)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 60:
            raise RulesetError(f"{where}: {name} = {value!r}; expected a whole number from 0 to 60")
    for name, value in (("vote.proxy_change_request_minutes", rs.vote.proxy_change_request_minutes),):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10080):
            raise RulesetError(f"{where}: {name} = {value!r}; expected minutes (a whole number)")
    _check_more(rs, where)
    return rs


def load_ruleset(spec: str, base: Path | None = None) -> Ruleset:
    """A preset by name (`m84`, `004`) or a ruleset TOML by path (relative to `base`)."""
    key = spec.strip().lower()
    if key in PRESETS:
        text = resources.files("gamedef.rulesets").joinpath(f"{key}.toml").read_text("utf-8")
        return parse_ruleset(text, f"preset {key}")
    path = Path(spec)
    if base is not None and not path.is_absolute():
        path = base / path
    if not path.is_file():
        raise RulesetError(f"unknown ruleset {spec!r}: not a preset ({', '.join(PRESETS)}) nor a file")
    text = read_utf8(path, lambda reason: RulesetError(f"{path}: {reason}"))
    return parse_ruleset(text, str(path))
