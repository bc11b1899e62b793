"""The vote count: a time-ordered replay of a day's ballots, as the ruleset says they count.

Posts are replayed by (posted_at, floor), never in the order they were fetched, so the same
thread always gives the same count. Each ballot is judged at its own moment: who is alive, how
many changes the voter has used, whether the change lock has begun. Decisions where the rule
posts are silent, so a director can predict them:

- A ballot before the day opens (`before_open`) or after it closes (`after_close`) is shown, not
  counted; only ballots inside the window answer the vote thread for `not_voted`.
- A change must point (reply and/or quote, per `change_reference`) at the voter's counted ballot
  or at the vote that ballot started from. The director's proxies (in-thread 【代投】 and the game
  file's `ProxyVote`) need no reference: the director's word is the reference.
- When the day is accelerated, `accelerated_voids` says which changes are void: those posted from
  the moment acceleration took effect (M84 执行加速时，所有人不可改票) or every change of the day
  (004 进程加速后不允许改票，所有改票作废).
- A red card during the day (`ejected`) counts per `cards.red_resolves`: after the vote (M84: the
  ballot and the votes for the player stand) or before it (004: both leave the count from then).
- A leader named by a `survives` event stays in: nobody is out (004 捍卫 / 尊贵).
- An edit never moves a counted vote: the ballot is read from its first stored revision; a later
  revision with another target is flagged (`edited_after_lock` inside the lock or after close,
  `edited_target` before). Revisions are dated by the forum's edit marker where it has one; a post
  whose marker falls inside the lock or after close and whose earlier words were never stored is
  flagged `edited_original_unknown`. Where `invalid_fixed_by_new_post` is false (004: 修改错别字不算做改票),
  an edit that makes an invalid ballot valid is a typo fix and counts from when it was seen.
- A player who goes out mid-day (`out_at`; 004's red card before the vote) cannot vote from then
  (`voter_out`), and ballots for them stop counting; their voters may vote again with a new vote
  post. The ballot the player cast before going out follows `vote.ballot_before_out`: it stands
  (`counts`, M84: only posting once out is barred; noted `voter_out_ballot_counts`) or leaves the
  count from that moment (`dropped`, 004: 出局 … 不能继续参与投票, `voter_out`).
- `valid` says the ballot was good when cast; `counted` that it stands at the end. A vote
  replaced by a valid change is valid and not counted.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Mapping, Sequence

from gamedef.gamefile import Day, ProxyVote, lock_start
from gamedef.ruleset import Ruleset, VoteRules
from parsers.ballot import ParsedBallot, Problem, parse_ballot
from parsers.models import Post

from .activity import ROLE_NAMES
from .state import DayState

# Problems that are shown for review but leave the ballot as cast.
NOTE_CODES = frozenset({"edited_after_lock", "edited_target", "whistled_ballot",
                        "edited_original_unknown", "edited_after_close", "close_minute",
                        "traditional_folded", "conditional_proxy_abstain", "voter_out_ballot_counts"})


@dataclass
class Ballot:
    """One ballot as the count judged it."""

    voter: str
    kind: str  # vote | change | abstain
    target: str | None
    pid: int | None
    floor: int | None
    posted_at: datetime | None
    valid: bool = True
    counted: bool = False
    problems: list[Problem] = field(default_factory=list)
    proxy: bool = False
    is_change: bool = False
    author: str = ""
    reason: str | None = None
    written_target: str | None = None
    source: str = "thread"  # thread | gamefile
    weight: float = 1.0
    replaced_by: int | None = None  # pid of the change that replaced it
    requested_at: datetime | None = None  # a proxy: when the player asked the director

    @property
    def codes(self) -> list[str]:
        return [p.code for p in self.problems]

    def to_json(self) -> dict[str, Any]:
        return {
            "voter": self.voter, "kind": self.kind, "target": self.target, "pid": self.pid, "floor": self.floor,
            "posted_at": self.posted_at.isoformat() if self.posted_at else None,
            "valid": self.valid, "counted": self.counted, "problems": [p.to_json() for p in self.problems],
            "proxy": self.proxy, "is_change": self.is_change, "author": self.author, "reason": self.reason,
            "written_target": self.written_target, "source": self.source, "weight": _num(self.weight),
            "replaced_by": self.replaced_by,
            **({"requested_at": self.requested_at.isoformat()} if self.requested_at else {}),
        }


@dataclass(frozen=True)
class TallyEntry:
    target: str
    weight: float
    voters: tuple[str, ...]
    reached_at: datetime | None = None  # since when the target has held at least this weight

    def to_json(self) -> dict[str, Any]:
        return {"target": self.target, "weight": _num(self.weight), "voters": list(self.voters),
                "reached_at": self.reached_at.isoformat() if self.reached_at else None}


@dataclass(frozen=True)
class Outcome:
    out: str | None
    tie: tuple[str, ...]
    survives: str | None = None  # the leader who stays in (004 捍卫 / 尊贵): nobody is out
    survives_reason: str | None = None
    leader: str | None = None  # who led the count (also when they survive)
    red_carded: tuple[str, ...] = ()  # 红牌罚下 during the day, in the order they took effect
    red_resolves: str | None = None  # after_vote | before_vote: how they were counted

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"out": self.out, "tie": list(self.tie)}
        if self.survives:  # extra keys only when they say something: the plain shape stays DESIGN.md's
            d["survives"] = {"player": self.survives, "reason": self.survives_reason}
            d["leader"] = self.leader
        if self.red_carded:
            d["red_carded"] = list(self.red_carded)
            d["red_resolves"] = self.red_resolves
        return d


@dataclass(frozen=True)
class Margins:
    """How far the runner-up is from the leader, and whether the players yet to vote could change it."""

    leader: str | None
    leader_weight: float
    runner_up: str | None
    runner_up_weight: float
    to_tie: float  # weight the runner-up must gain to be level
    to_overtake: float  # the least weight, in ordinary and priest votes, that puts it ahead
    remaining: tuple[str, ...]  # living players with no counted ballot who may still vote
    remaining_weight: float
    decided: bool

    def to_json(self) -> dict[str, Any]:
        return {"leader": self.leader, "leader_weight": _num(self.leader_weight), "runner_up": self.runner_up,
                "runner_up_weight": _num(self.runner_up_weight), "to_tie": _num(self.to_tie),
                "to_overtake": _num(self.to_overtake), "remaining": list(self.remaining),
                "remaining_weight": _num(self.remaining_weight), "decided": self.decided}


@dataclass(frozen=True)
class TimelinePoint:
    at: datetime
    counts: dict[str, float]
    pid: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"at": self.at.isoformat(), "counts": {k: _num(v) for k, v in self.counts.items()}, "pid": self.pid}


@dataclass(frozen=True)
class VoteCount:
    day: int
    at: datetime
    ballots: tuple[Ballot, ...]
    tally: tuple[TallyEntry, ...]
    abstained: tuple[str, ...]
    not_voted: tuple[str, ...]
    outcome: Outcome
    timeline: tuple[TimelinePoint, ...]
    margins: Margins
    replied: tuple[str, ...]  # players with a ballot post inside the window, cast while in the game (for lurking)
    priest: str | None
    accelerated: bool
    closes: datetime
    lock_starts: datetime
    accelerated_since: datetime | None = None
    accelerated_voids: str = "after_granted"
    only_invalid: tuple[str, ...] = ()  # day players whose every ballot in the window is invalid

    @property
    def invalid(self) -> tuple[Ballot, ...]:
        return tuple(b for b in self.ballots if not b.valid)

    def to_json(self) -> dict[str, Any]:
        return {
            "day": self.day, "at": self.at.isoformat(),
            "ballots": [b.to_json() for b in self.ballots],
            "tally": [t.to_json() for t in self.tally],
            "abstained": list(self.abstained), "not_voted": list(self.not_voted),
            "outcome": self.outcome.to_json(),
            "timeline": [p.to_json() for p in self.timeline],
            "margins": self.margins.to_json(),
            "priest": self.priest, "accelerated": self.accelerated,
            "closes": self.closes.isoformat(), "lock_starts": self.lock_starts.isoformat(),
            "accelerated_since": self.accelerated_since.isoformat() if self.accelerated_since else None,
            "accelerated_voids": self.accelerated_voids,
            "only_invalid": list(self.only_invalid),
        }


def _num(x: float) -> float | int:
    x = round(x, 6)
    return int(x) if x == int(x) else x


def _hm(t: datetime) -> str:
    return f"{t:%m-%d %H:%M}"


def _floor(b: Ballot) -> str:
    return f"第{b.floor}楼" if b.floor is not None else f"{_hm(b.posted_at)}的代投" if b.posted_at else "代投"


def _order_key(b: Ballot) -> tuple:
    t = b.posted_at.timestamp() if b.posted_at else float("inf")
    return (t, 0 if b.source == "thread" else 1, b.floor if b.floor is not None else 0, b.pid or 0,
            b.voter, b.kind, b.target or "")


def _ref_words(forms: Sequence[str]) -> str:
    words = [{"reply": "回复", "quote": "引用"}.get(f, f) for f in forms]
    return "或".join(words) or "回复"


def _revision_ballot(post: Post, parsed: ParsedBallot, revs: Sequence[tuple[datetime, str]], *,
                     rules: VoteRules, players: Sequence[str], directors: Sequence[str],
                     lock: datetime, closes: datetime, horizon: datetime | None
                     ) -> tuple[ParsedBallot | None, list[Problem]]:
    """The ballot a post cast, from its stored revisions, and edit notes. The first stored revision
    is the post as posted, however late a scan first saw it; later ones count up to `horizon` (None:
    all of them), so an edit after close is noted in the day's count but never moves or voids it."""
    if not revs:
        return parsed, []
    first, *rest = revs
    seen = [first] + sorted((r for r in rest if horizon is None or r[0] <= horizon), key=lambda r: r[0])
    reads = [(t, parse_ballot(dataclasses.replace(post, text=txt), rules, players, directors)) for t, txt in seen]
    cast = reads[0][1]
    notes: list[Problem] = []
    for t, later in reads[1:]:
        if cast is not None and t > closes and (later is None or not later.valid
                                                or (later.kind, later.target) == (cast.kind, cast.target)):
            if later is None or later.valid != cast.valid:
                was = cast.target or rules.abstain_word
                notes.append(Problem("edited_after_close",
                                     f"该楼于{_hm(t)}（关门后）被编辑；关门后的编辑不算，按关门前的原文计（投票对象“{was}”）。"))
            continue
        if later is None:
            continue
        if cast is None:  # a placeholder edited into a ballot: it casts from when it was seen
            cast = later
            late = t > closes
            notes.append(Problem("after_close" if late else "edited_target",
                                 f"该楼原本不是投票，于{_hm(t)}被编辑成投票" + ("（关门后），不计。" if late else "，请导演核对。"),
                                 public=f"该楼原本不是投票，于{_hm(t)}被编辑成投票" + ("（关门后），不计。" if late else "。")))
            continue
        if not cast.valid and later.valid and not rules.invalid_fixed_by_new_post and t <= closes:
            cast = later  # a typo fixed by editing is not a change
            continue
        if not cast.valid and later.valid and rules.invalid_fixed_by_new_post:
            notes.append(Problem("invalid_fixed_by_edit",
                                 f"该楼于{_hm(t)}被编辑改正，但无效票须通过重新发帖来更正，编辑不算，此票仍无效。"))
            continue
        if cast.valid and later.valid and (later.kind, later.target) != (cast.kind, cast.target):
            if not rules.edit_changing_target_is_problem and t <= closes:
                cast = later
                continue
            was, now = cast.target or rules.abstain_word, later.target or rules.abstain_word
            if t >= lock:
                notes.append(Problem("edited_after_lock",
                                     f"该楼于{_hm(t)}（关门前{rules.lock_minutes}分钟内或关门后）被编辑，投票对象由“{was}”改为“{now}”；"
                                     f"编辑不算改票，按原投票对象“{was}”计。"))
            else:
                notes.append(Problem("edited_target",
                                     f"该楼于{_hm(t)}被编辑，投票对象由“{was}”改为“{now}”；编辑不算改票，按原投票对象“{was}”计，"
                                     "如需改票请用改票格式。"))
    return cast, notes


_REQUESTED = re.compile(r"(?:(\d{1,2})\s*[月/.-]\s*(\d{1,2})\s*[日号]?\s*)?(\d{1,2})\s*[:：点]\s*(\d{2})?\s*分?\s*"
                        r"(?:时|的时候)?\s*(?:委托|请求|联系|私聊|申请|要求)")


def stated_request(text: str, posted_at: datetime | None) -> datetime | None:
    """When a director's 【代投】 post says the player asked (`（20:30委托）`, `12月2日20:30联系导演`):
    that moment in the post's zone, on the post's date unless it names one (004 玩家须知 9)."""
    if posted_at is None:
        return None
    m = _REQUESTED.search(text[:200])
    if m is None:
        return None
    mo, d, h, mi = m.groups()
    try:
        when = posted_at.replace(month=int(mo) if mo else posted_at.month, day=int(d) if d else posted_at.day,
                                 hour=int(h), minute=int(mi or 0), second=0, microsecond=0)
    except ValueError:
        return None
    if when > posted_at and not mo:
        when -= timedelta(days=1)  # a time later than the post itself was the evening before
    return when


def _unseen_edit(post: Post, revs: Sequence[tuple[datetime, str]], *, lock: datetime, closes: datetime,
                 minutes: int) -> list[Problem]:
    """A ballot whose post carries the forum's edit marker with a time inside the lock or after
    close, when no earlier version was ever stored: the count stands on the words as they are now,
    and the director is told that the original is unknown."""
    at = post.edit.at if post.edit is not None else None
    if at is None or len(revs) > 1 or at < lock:
        return []
    when = "关门后" if at > closes else f"关门前{minutes}分钟内"
    return [Problem("edited_original_unknown",
                    f"该楼于{_hm(at)}（{when}）被编辑，daoyan 没有见过编辑前的内容（原文未知），按现在的内容计，"
                    "请导演核对编辑前是否是另一张票。",
                    public=f"该楼于{_hm(at)}（{when}）被编辑，按现在的内容计。")]


def _from_proxy(p: ProxyVote, rules: VoteRules) -> Ballot:
    abstain = p.target == rules.abstain_word
    return Ballot(voter=p.player, kind="abstain" if abstain else ("change" if p.change else "vote"),
                  target=None if abstain else p.target, pid=None, floor=None, posted_at=p.at, proxy=True,
                  is_change=p.change, author="(game file)", reason=p.reason, written_target=p.target,
                  source="gamefile", requested_at=p.requested_at)


def count_votes(posts: Sequence[Post], *, rules: Ruleset, day: Day, state: DayState, at: datetime | None = None,
                accelerated: bool = False, proxies: Sequence[ProxyVote] = (),
                revisions: Mapping[int, Sequence[tuple[datetime, str]]] = {}, priest: str | None = None,
                out_at: Mapping[str, datetime] = {}, directors: Sequence[str] | None = None,
                accelerated_since: datetime | None = None, survivors: Mapping[str, str] = {},
                ejected: Mapping[str, datetime] = {},
                accelerated_window: tuple[datetime, datetime] | None = None) -> VoteCount:
    """The count of `day`'s vote thread as of `at` (default: the day's close, with every later
    ballot shown as `after_close`). `priest` defaults to `state.priest`; pass "" for none.

    `accelerated_since` is the moment acceleration took effect (None with `accelerated`: the whole
    day); `survivors` names players who stay in if they lead (004 捍卫 / 尊贵) with the reason;
    `ejected` names players sent off by a red card during the day (红牌罚下) and when, counted per
    `cards.red_resolves`. `accelerated_window` is a spell of acceleration a later delay ended (M84
    延迟成功时，不再视为“执行加速”状态): changes posted inside it are void (执行加速时不允许改票)."""
    return replay(posts, rules=rules, day=day, state=state, at=at, accelerated=accelerated, proxies=proxies,
                  revisions=revisions, priest=state.priest if priest is None else (priest or None),
                  out_at=out_at, directors=state.directors if directors is None else tuple(directors),
                  accelerated_since=accelerated_since, survivors=survivors or dict(state.survives), ejected=ejected,
                  accelerated_window=accelerated_window)


def replay(posts: Sequence[Post], *, rules: Ruleset, day: Day, state: DayState, at: datetime | None,
           accelerated: bool, proxies: Sequence[ProxyVote], revisions: Mapping[int, Sequence[tuple[datetime, str]]],
           priest: str | None, out_at: Mapping[str, datetime], directors: Sequence[str],
           accelerated_since: datetime | None = None, survivors: Mapping[str, str] = {},
           ejected: Mapping[str, datetime] = {},
           accelerated_window: tuple[datetime, datetime] | None = None) -> VoteCount:
    """The replay behind `count_votes` and the priest election (which passes no priest)."""
    vr = rules.vote
    closes, opens = day.closes, day.opens
    horizon = at  # None: every post, the late ones shown as after_close
    at = at or closes
    lock = lock_start(day, vr.lock_minutes)
    pv_minutes = vr.proxy_vote_lock_minutes if vr.proxy_vote_lock_minutes is not None else vr.lock_minutes
    proxy_lock = lock_start(day, pv_minutes)
    acc = day.accelerated if day.accelerated is not None else (accelerated or state.accelerated_event)
    players = state.players
    living = set(state.living)
    before_vote = rules.cards.red_resolves == "before_vote"
    red_at = {p: (t if t is not None and t <= closes else closes) for p, t in ejected.items() if p in living}
    if horizon is not None:
        red_at = {p: t for p, t in red_at.items() if t <= horizon}
    leaving = dict(out_at)
    if before_vote:
        for p, t in red_at.items():
            leaving[p] = min(t, leaving[p]) if p in leaving else t
    mid_out = {p: t for p, t in leaving.items() if p in living and t <= closes and (horizon is None or t <= horizon)}

    def alive(name: str | None, t: datetime | None) -> bool:
        if name is None or name not in living:
            return False
        return not (name in mid_out and t is not None and mid_out[name] <= t)

    # Read every ballot.
    items: list[tuple[Ballot, Post | None]] = []
    alias = dict(state.aliases)  # a renamed account's new name, written as a target, is the player
    readable = tuple(players) + tuple(a for a in alias if a not in players)
    for post in posts:
        if horizon is not None and post.posted_at is not None and post.posted_at > horizon:
            continue
        parsed = parse_ballot(post, vr, readable, directors)
        notes: list[Problem] = []
        if post.pid in revisions:
            parsed, notes = _revision_ballot(post, parsed, revisions[post.pid], rules=vr, players=readable,
                                             directors=directors, lock=lock, closes=closes, horizon=horizon)
        if parsed is None:
            continue
        if parsed.target in alias or parsed.voter in alias:
            parsed = dataclasses.replace(parsed, target=alias.get(parsed.target, parsed.target),
                                         voter=alias.get(parsed.voter, parsed.voter))
        notes += _unseen_edit(post, revisions.get(post.pid, ()), lock=lock, closes=closes, minutes=vr.lock_minutes)
        b = Ballot(voter=parsed.voter, kind=parsed.kind, target=parsed.target, pid=post.pid, floor=post.floor,
                   posted_at=post.posted_at, problems=list(parsed.problems) + list(parsed.notes) + notes,
                   proxy=parsed.proxy,
                   is_change=parsed.is_change, author=parsed.author, reason=parsed.reason,
                   written_target=parsed.written_target,
                   requested_at=stated_request(post.text, post.posted_at) if parsed.proxy else None)
        items.append((b, post))
    for p in proxies:
        if p.day == day.number and (horizon is None or p.at <= horizon):
            items.append((_from_proxy(p, vr), None))
    items.sort(key=lambda it: _order_key(it[0]))

    # Replay, with mid-day outs as moments of their own.
    events: list[tuple[tuple, str, Any]] = [(_order_key(b), "ballot", (b, post)) for b, post in items]
    for name, t in mid_out.items():
        events.append(((t.timestamp(), -1, 0, 0, name, "", ""), "out", (name, t)))
    events.sort(key=lambda e: e[0])

    standing: dict[str, Ballot] = {}
    origin: dict[str, Ballot] = {}  # the vote a voter's standing ballot started from
    changes: dict[str, int] = {}
    last_change: dict[str, Ballot] = {}
    replied: set[str] = set()
    timeline: list[TimelinePoint] = []
    weight_of = {p: rules.weights.of(p == priest) for p in players}

    def snapshot(t: datetime, pid: int | None) -> None:
        counts: dict[str, float] = {}
        for s in sorted(standing.values(), key=_order_key):
            if s.target is not None:
                counts[s.target] = round(counts.get(s.target, 0.0) + s.weight, 6)
        if not timeline or timeline[-1].counts != counts:
            timeline.append(TimelinePoint(at=t, counts=counts, pid=pid))

    for _, what, payload in events:
        if what == "out":
            name, t = payload
            how = "红牌罚下（白天红牌罚下在被投票出局之前）" if before_vote and name in red_at and red_at[name] <= t else "出局"
            again = "" if t >= closes else f"；{{voter}}可重新发帖投票"
            said = vr.ballot_before_out_rule or "规则集 vote.ballot_before_out"
            for voter, s in list(standing.items()):
                if voter == name and vr.ballot_before_out == "counts":
                    s.problems.append(Problem(
                        "voter_out_ballot_counts",
                        f"{name}于{_hm(t)}{how}；此票发于出局之前，照常计入（规则集 vote.ballot_before_out = counts："
                        f"{said}）。出局之后发的票不计。",
                        public=f"{name}于{_hm(t)}{how}；此票发于出局之前，照常计入。出局之后发的票不计。"))
                    continue
                if voter == name:
                    s.problems.append(Problem(
                        "voter_out",
                        f"{name}于{_hm(t)}{how}，此票虽发于出局之前，从出局时起不再计入（规则集 vote.ballot_before_out = "
                        f"dropped：{said}）。",
                        public=f"{name}于{_hm(t)}{how}，此票虽发于出局之前，从出局时起不再计入。"))
                elif s.target == name:
                    s.problems.append(Problem("target_out",
                                              f"投票对象“{name}”于{_hm(t)}{how}，此票不再计入" + again.format(voter=voter) + "。"))
                else:
                    continue
                s.counted = False
                del standing[voter]
            snapshot(t, None)
            continue

        b, post = payload
        t = b.posted_at
        b.weight = weight_of.get(b.voter, rules.weights.default)
        probs = b.problems
        if "not_a_player" in b.codes:
            b.valid = False
            continue
        if t is None:
            probs.append(Problem("no_time", "无法确定此帖的发帖时间，请导演核对。",
                                 public="无法确定此帖的发帖时间，此票暂不计入。"))
        else:
            if t < opens:
                probs.append(Problem("before_open", f"此票发于投票开始（{_hm(opens)}）之前，不计。"))
            if t > closes:
                probs.append(Problem("after_close", f"投票已于{_hm(closes)}截止，此票发于{_hm(t)}，不计。"))
            elif post is not None and post.time_precision == "minute" and closes - t < timedelta(minutes=1):
                probs.append(Problem("close_minute",
                                     f"论坛页面只显示此帖发于{_hm(t)}（不到秒），关门是{closes:%H:%M:%S}：此帖可能发于关门之后。"
                                     "按页面时间计入；请到论坛核对，或用手机版 API 扫描（[forum] api = \"always\"）读到秒。",
                                     public=""))  # the director's to check; the ballot counts as shown
        if rules.whistle.enabled and b.voter in state.whistled and not b.proxy:
            if rules.whistle.ballot_counts:
                probs.append(Problem("whistled_ballot", f"{b.voter}处于黑哨状态，投票帖中的文字可能违反黑哨限制；"
                                                         "按规则集（whistle.ballot_counts = true）此票计入，请导演复核。",
                                     public=""))  # a flag matter for the director (黑哨); the ballot counts
            else:
                probs.append(Problem("whistled_voter", f"{b.voter}处于黑哨状态，只能发出动物叫声或表情；"
                                                        "按规则集（whistle.ballot_counts = false）此票不计。",
                                     public=f"{b.voter}处于黑哨状态，只能发出动物叫声或表情，此票不计。"))
        if not vr.dead_can_vote and not alive(b.voter, t):
            when = f"于{_hm(mid_out[b.voter])}" if b.voter in mid_out else ""
            how = "红牌罚下（白天红牌罚下在被投票出局之前）" if before_vote and b.voter in red_at and \
                b.voter in mid_out and red_at[b.voter] <= mid_out[b.voter] else "出局"
            dead = "" if b.proxy else "（出局后在投票帖发言即诈尸）"
            probs.append(Problem("voter_out", f"{b.voter}已{when}{how}，不能投票，此票不计{dead}。"))
        if b.target is not None and not vr.dead_can_be_voted and not alive(b.target, t) and b.target in players:
            probs.append(Problem("target_out", f"投票对象“{b.target}”已出局，不能被投票，此票无效，须重新发帖更正。"))

        cur = standing.get(b.voter)
        if b.is_change:
            if cur is None:
                probs.append(Problem("change_without_vote",
                                     f"{b.voter}此前没有有效的投票，改票不计；请按投票格式（{vr.target_label}：）重新投票。"))
            else:
                if acc and not vr.changes_while_accelerated:
                    since = accelerated_since if accelerated_since is not None else opens
                    if vr.accelerated_voids == "whole_day":
                        probs.append(Problem("change_while_accelerated",
                                             "本讨论日进程加速，所有改票作废（规则集 accelerated_voids = whole_day），原票仍有效。",
                                             public="本讨论日进程加速，所有改票作废，原票仍有效。"))
                    elif t is None or t >= since:
                        probs.append(Problem("change_while_accelerated",
                                             f"本讨论日自{_hm(since)}起执行加速，此后不允许改票（规则集 accelerated_voids = "
                                             "after_granted），此次改票作废，原票仍有效。",
                                             public=f"本讨论日自{_hm(since)}起执行加速，此后不允许改票，此次改票作废，原票仍有效。"))
                elif accelerated_window is not None and not vr.changes_while_accelerated and t is not None \
                        and accelerated_window[0] <= t < accelerated_window[1]:
                    w0, w1 = accelerated_window
                    probs.append(Problem("change_while_accelerated",
                                         f"本讨论日{_hm(w0)}至{_hm(w1)}执行加速（其后延时成功，不再视为执行加速），"
                                         "此次改票发于加速期间，作废，原票仍有效。"))
                own_lock, own_minutes = (proxy_lock, pv_minutes) if b.proxy else (lock, vr.lock_minutes)
                if t is not None and t >= own_lock and (not b.proxy or vr.lock_applies_to_proxy):
                    who = "代投改票" if b.proxy else "改票"
                    probs.append(Problem("change_in_lock_window",
                                         f"关门前{own_minutes}分钟内（{_hm(own_lock)}起）不允许{who}，此次改票无效，原票（{_floor(cur)}）仍有效。"))
                if b.proxy and vr.proxy_change_request_minutes is not None and t is not None:
                    need = closes - timedelta(minutes=vr.proxy_change_request_minutes)
                    if b.requested_at is None and t > need:
                        probs.append(Problem("change_in_lock_window",
                                             f"代投改票须在关门前{vr.proxy_change_request_minutes}分钟（{_hm(need)}）以前向导演请求；"
                                             f"没有记录请求时间（[[proxy]] requested_at），按代投发帖时间{_hm(t)}判断，"
                                             f"此代投改票作废，原票（{_floor(cur)}）仍有效。",
                                             public=f"代投改票须在关门前{vr.proxy_change_request_minutes}分钟（{_hm(need)}）"
                                                    f"以前向导演请求；没有记录请求时间，按代投发帖时间{_hm(t)}判断，"
                                                    f"此代投改票作废，原票（{_floor(cur)}）仍有效。"))
                    elif b.requested_at is not None and b.requested_at > need:
                        probs.append(Problem("proxy_request_late",
                                             f"代投改票的请求于{_hm(b.requested_at)}，晚于关门前{vr.proxy_change_request_minutes}分钟"
                                             f"（{_hm(need)}），此代投改票作废，原票（{_floor(cur)}）仍有效。"))
                if changes.get(b.voter, 0) >= vr.max_changes:
                    done = last_change.get(b.voter)
                    where = f"已在{_floor(done)}改过票" if done else "已用完改票次数"
                    probs.append(Problem("second_change",
                                         f"改票只允许{vr.max_changes}次，{b.voter}{where}，此次改票无效，原票仍有效。"))
                if not b.proxy and post is not None:
                    probs.extend(_reference_problems(post, cur, origin.get(b.voter), b.voter, vr))
        else:
            if b.proxy and t is not None and vr.lock_applies_to_proxy and t >= proxy_lock:
                probs.append(Problem("change_in_lock_window",
                                     f"关门前{pv_minutes}分钟内（{_hm(proxy_lock)}起）不允许代投，此代投不计。"))
            invalid_now = [c for c in b.codes if c not in NOTE_CODES]
            if cur is not None and not invalid_now and vr.second_vote_is_duplicate:
                how = ("如是代投改票，请在游戏文件的这条 [[proxy]] 写 change = true" if post is None else
                       f"如需改票请用改票格式（{vr.change_target_label}：）并{_ref_words(vr.change_reference)}原投票楼层")
                said = "" if post is None else f"{how}。"  # the game file's fix is the director's, not the player's
                probs.append(Problem("duplicate_vote",
                                     f"{b.voter}已在{_floor(origin.get(b.voter, cur))}投过票，每人限投一票；{how}。此票不计。",
                                     public=f"{b.voter}已在{_floor(origin.get(b.voter, cur))}投过票，每人限投一票；{said}此票不计。"))

        b.valid = not [c for c in b.codes if c not in NOTE_CODES]
        # a ballot posted once the voter was out is 诈尸, not an answer to the vote thread, whatever
        # `invalid_counts_as_voted` says of an ordinary invalid ballot
        cast_while_out = "voter_out" in b.codes
        # `invalid_counts_as_voted` is about the player's own vote post (004 投票格式有误的投票将算作废票: a vote,
        # only void; M84 未回复投票帖者): a director's proxy that does not count (004 玩家须知 9 该票作废; M84 关门前
        # 一小时不允许代投) is no post of the player's, so it answers nothing (004 没有投票（或弃票）的玩家将记作一张黄牌)
        if t is not None and opens <= t <= min(at, closes) and not cast_while_out \
                and (b.valid or (vr.invalid_counts_as_voted and not b.proxy)):
            replied.add(b.voter)
        if not b.valid:
            continue
        if b.is_change or cur is not None:
            assert cur is not None
            cur.counted = False
            cur.replaced_by = b.pid
            if b.is_change:
                changes[b.voter] = changes.get(b.voter, 0) + 1
                last_change[b.voter] = b
            else:
                origin[b.voter] = b
        else:
            origin[b.voter] = b
        b.counted = True
        standing[b.voter] = b
        snapshot(t or at, b.pid)

    ballots = tuple(sorted((b for b, _ in items), key=_order_key))
    tally = _tally(standing, origin, timeline)
    outcome = _outcome(tally, vr)
    leader = outcome.out
    if outcome.out is not None and outcome.out in survivors:
        outcome = Outcome(None, (), survives=outcome.out, survives_reason=survivors[outcome.out] or None)
    reds = tuple(sorted(red_at, key=lambda p: (red_at[p], p)))
    outcome = dataclasses.replace(outcome, leader=leader, red_carded=reds,
                                  red_resolves=rules.cards.red_resolves if reds else None)
    abstained = tuple(p for p in players if p in standing and standing[p].kind == "abstain")
    excused = set(state.excused)
    settled = {p for p, t in red_at.items() if t >= closes}  # sent off at the settlement: in the game all day
    day_players = [p for p in players if p in living and not (p in mid_out and mid_out[p] <= at and p not in settled)]
    not_voted = tuple(p for p in day_players if p not in replied and p not in excused)
    only_invalid = _only_invalid(items, day_players, opens, min(at, closes))
    can_still_vote = at < closes
    remaining = tuple(p for p in day_players if p not in standing) if can_still_vote else ()
    margins = _margins(tally, remaining, weight_of, rules, priest)
    return VoteCount(day=day.number, at=at, ballots=ballots, tally=tally, abstained=abstained, not_voted=not_voted,
                     outcome=outcome, timeline=tuple(timeline), margins=margins,
                     replied=tuple(p for p in players if p in replied), priest=priest, accelerated=bool(acc),
                     closes=closes, lock_starts=lock,
                     accelerated_since=(accelerated_since or opens) if acc else None,
                     accelerated_voids=vr.accelerated_voids, only_invalid=only_invalid)


def _only_invalid(items: Sequence[tuple[Ballot, Post | None]], day_players: Sequence[str], opens: datetime,
                  until: datetime) -> tuple[str, ...]:
    """Players who posted ballots in the window and none of them was valid: whether that answers the
    vote thread is the ruleset's `invalid_counts_as_voted`, but the director must see them by name
    (M84 无效票须通过重新发帖来更正)."""
    tried: dict[str, bool] = {}
    for b, _ in items:
        if b.posted_at is None or not opens <= b.posted_at <= until or "not_a_player" in b.codes:
            continue
        tried[b.voter] = tried.get(b.voter, False) or b.valid
    return tuple(p for p in day_players if p in tried and not tried[p])


# Seen on a live Discuz X3.5: its 回复 button only notifies the floor's author; neither the page nor
# the mobile API shows which floor a reply answers (X3.4 wrote a "回复 N# name" header). So a change
# made with the 回复 button cannot be told from one with no reference at all.
REPLY_BUTTON_LEAVES_NO_MARK = "（Discuz X3.5 的「回复」按钮不在帖子里留下所回复楼层的标记，请用「引用」原投票楼层改票。）"


def _reference_problems(post: Post, cur: Ballot, orig: Ballot | None, voter: str, vr: VoteRules) -> list[Problem]:
    """A change must reply to / quote (per the ruleset) the voter's counted ballot or its vote."""
    forms = tuple(vr.change_reference)
    want_pids = {x.pid for x in (cur, orig) if x is not None and x.pid is not None}
    want_floors = {x.floor for x in (cur, orig) if x is not None and x.floor is not None}
    refs: list[tuple[int | None, int | None]] = []
    other: list[str] = []
    if post.reply_to is not None:
        if "reply" in forms:
            refs.append((post.reply_to.pid, post.reply_to.floor))
        else:
            other.append("回复")
    for q in post.quotes:
        if "quote" in forms:
            refs.append((q.pid, None))
        elif "引用" not in other:
            other.append("引用")
    target = f"原投票楼层（{_floor(orig or cur)}）"
    if not refs:
        extra = f"（{'、'.join(other)}不算）" if other else ""
        note = REPLY_BUTTON_LEAVES_NO_MARK if "reply" in forms else ""
        return [Problem("change_without_reference",
                        f"改票须{_ref_words(forms)}{target}{extra}，此次改票无效，原票仍有效。{note}")]
    if any((pid is not None and pid in want_pids) or (pid is None and fl in want_floors) for pid, fl in refs):
        return []
    return [Problem("change_wrong_reference",
                    f"此改票{_ref_words(forms)}的不是{voter}的{target}，此次改票无效，原票仍有效。")]


def _tally(standing: Mapping[str, Ballot], origin: Mapping[str, Ballot],
           timeline: Sequence[TimelinePoint]) -> tuple[TallyEntry, ...]:
    """Targets by weight, then by who reached (and kept) that weight first, then by name."""
    votes: dict[str, list[Ballot]] = {}
    for s in standing.values():
        if s.target is not None:
            votes.setdefault(s.target, []).append(s)
    entries = []
    for target, bs in votes.items():
        w = round(sum(b.weight for b in bs), 6)
        bs.sort(key=lambda b: _order_key(origin.get(b.voter, b)))
        reached_i = len(timeline)
        for i in range(len(timeline) - 1, -1, -1):
            if timeline[i].counts.get(target, 0.0) + 1e-9 >= w:
                reached_i = i
            else:
                break
        reached = timeline[reached_i].at if reached_i < len(timeline) else None
        entries.append((-w, reached_i, target, TallyEntry(target, w, tuple(b.voter for b in bs), reached)))
    entries.sort(key=lambda e: e[:3])
    return tuple(e[3] for e in entries)


def _outcome(tally: Sequence[TallyEntry], vr: VoteRules) -> Outcome:
    if not tally:
        return Outcome(None, ())
    top = [t.target for t in tally if abs(t.weight - tally[0].weight) < 1e-9]
    if len(top) == 1:
        return Outcome(top[0], ())
    return Outcome(None if vr.tie_nobody_out else top[0], tuple(top))


def _margins(tally: Sequence[TallyEntry], remaining: Sequence[str], weight_of: Mapping[str, float],
             rules: Ruleset, priest: str | None) -> Margins:
    """For the leader: what the runner-up needs to tie and to overtake, and whether the players
    yet to vote, all voting for one target, could still change who goes out."""
    lead = tally[0] if tally else None
    second = tally[1] if len(tally) > 1 else None
    lw = lead.weight if lead else 0.0
    sw = second.weight if second else 0.0
    gap = round(lw - sw, 6)
    rem_w = round(sum(weight_of.get(p, rules.weights.default) for p in remaining), 6)
    d = rules.weights.default
    over = (int(gap // d) + 1) * d
    if priest is not None and priest in remaining and rules.weights.priest is not None:
        p = rules.weights.priest
        k = 0 if p > gap else int((gap - p) // d) + 1
        over = min(over, p + k * d)
    if lead is None:
        decided = rem_w == 0
    elif second is not None and gap < 1e-9:
        decided = rem_w == 0  # a tie: any further vote for a tied target breaks it
    else:
        decided = sw + rem_w < lw - 1e-9
    return Margins(leader=lead.target if lead else None, leader_weight=lw,
                   runner_up=second.target if second else None, runner_up_weight=sw, to_tie=gap,
                   to_overtake=round(over, 6), remaining=tuple(remaining), remaining_weight=rem_w, decided=decided)


VOTE_STATUS_ZH = {"counted": "已投", "after_out": "出局后投票（不计）", "not_counted": "票未计入",
                  "invalid": "无效票", "none": "未投"}


@dataclass(frozen=True)
class VoterStatus:
    """How one player's ballots of the day stand, for the activity table: `voted` is true only
    with a ballot the count counts. The other states say what the ballots were instead:

    - `after_out`: a ballot posted after the player went out (出局; M84 6(2) / 004 6(1) 诈尸) —
      never counted and not an answer to the vote thread;
    - `not_counted`: a valid ballot that stopped counting (its voter or its target went out);
    - `invalid`: only invalid ballots (whether that answers the vote thread for the no-vote card
      is the ruleset's `invalid_counts_as_voted`, shown as `replied`; a director's proxy that does
      not count never answers it: it is no post of the player's);
    - `none`: no ballot.
    """

    player: str
    status: str  # a key of VOTE_STATUS_ZH
    replied: bool  # answered the vote thread while in the game (what the no-vote card reads)
    floors: tuple[int | None, ...] = ()  # the floors behind the status (None: a proxy in the game file)
    problems: tuple[Problem, ...] = ()  # why those ballots do not count

    @property
    def voted(self) -> bool:
        return self.status == "counted"

    @property
    def label(self) -> str:
        return VOTE_STATUS_ZH[self.status]

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "label": self.label, "replied": self.replied, "floors": list(self.floors),
                "problems": [p.to_json() for p in self.problems]}


def voter_statuses(count: VoteCount, players: Sequence[str]) -> dict[str, VoterStatus]:
    """Each of `players`' ballot state in `count`, so an activity table never shows a ballot the
    count threw out (a ballot after going out above all) as a vote."""
    replied = set(count.replied)
    out: dict[str, VoterStatus] = {}
    for name in players:
        mine = [b for b in count.ballots if b.voter == name]
        counted = [b for b in mine if b.counted]
        after_out = [b for b in mine if not b.valid and "voter_out" in b.codes]
        dropped = [b for b in mine if b.valid and not b.counted and b.replaced_by is None]
        invalid = [b for b in mine if not b.valid]
        if counted:
            status, behind = "counted", counted
        elif after_out:
            status, behind = "after_out", after_out
        elif dropped:
            status, behind = "not_counted", dropped[-1:]
        elif invalid:
            status, behind = "invalid", invalid
        else:
            status, behind = "none", []
        problems = tuple(p for b in behind for p in b.problems if status != "counted" and p.code not in NOTE_CODES)
        out[name] = VoterStatus(player=name, status=status, replied=name in replied,
                                floors=tuple(b.floor for b in behind), problems=problems)
    return out


def only_invalid_warnings(count: VoteCount, rules: VoteRules) -> list[dict[str, Any]]:
    """One warning per player whose ballots were all invalid, with each floor and why, and how the
    ruleset counts such a player for the not-voted card (`invalid_counts_as_voted`)."""
    out = []
    for name in count.only_invalid:
        mine = [b for b in count.ballots if b.voter == name and not b.valid]
        why = "；".join(f"{_floor(b)}：{'、'.join(b.codes)}" for b in mine)
        if name not in count.replied and all(b.proxy for b in mine):
            voted = ("只有导演的代投，而代投不计（作废或无效）：代投不是玩家自己发的投票帖，不算回复过投票帖，按未投票计"
                     "（不论规则集 invalid_counts_as_voted）；若代投晚发是导演的原因，可写 kind = \"excused\" 事件")
        elif rules.invalid_counts_as_voted:
            voted = "按规则集（invalid_counts_as_voted = true）算作回复过投票帖，不判未投票"
        else:
            voted = "按规则集（invalid_counts_as_voted = false）算作未投票"
        out.append({"kind": "only_invalid", "day": count.day, "player": name,
                    "message": f"{name}的投票全部无效（{why}），不计入票数，{voted}；无效票须重新发帖更正，请导演核对。"})
    return out


def deleted_ballot_warnings(gone: Sequence[tuple[Post, datetime]], *, rules: VoteRules, players: Sequence[str],
                            directors: Sequence[str], day: int) -> list[dict[str, Any]]:
    """A warning for each stored vote-thread post that was a ballot and has since been deleted on the
    forum (`gone` pairs a post with when a scan found it gone): the count leaves it out, as the forum
    does, but a vote never disappears without the director being told what it was."""
    out = []
    for post, when in gone:
        parsed = parse_ballot(post, rules, players, directors)
        if parsed is None or not parsed.voter:
            continue
        what = "弃权" if parsed.kind == "abstain" else f"{'改票' if parsed.is_change else '投票'}对象“{parsed.written_target or parsed.target or '?'}”"
        posted = f"，发于{_hm(post.posted_at)}" if post.posted_at else ""
        out.append({"kind": "deleted_ballot", "day": day, "player": parsed.voter, "pid": post.pid, "floor": post.floor,
                    "gone_at": when.isoformat(),
                    "message": f"第{post.floor}楼 {parsed.voter}的票（{what}{posted}）已从论坛删除（{_hm(when)}的扫描发现）；"
                               "daoyan 存有原文，此票不再计入。请导演核实是谁删的、是否应当计入（需要时用 [[proxy]] 记录）。"})
    return out


def wrong_thread_warnings(posts: Sequence[tuple[str, Post]], *, rules: VoteRules, players: Sequence[str],
                          directors: Sequence[str], day: Day) -> list[dict[str, Any]]:
    """A warning for each ballot a player posted during the day in another of the day's threads
    (`posts` pairs the thread's role with the post): only the vote thread's ballots count (M84
    讨论结束时，未回复投票帖者将被判罚黄牌), so the director is told instead of it counting or vanishing."""
    out = []
    for role, post in posts:
        if post.posted_at is None or not day.opens <= post.posted_at <= day.closes:
            continue
        parsed = parse_ballot(post, rules, players, directors)
        if parsed is None or parsed.written_target is None or "not_a_player" in parsed.codes:
            continue
        what = "弃权" if parsed.kind == "abstain" else f"投票对象“{parsed.written_target}”"
        out.append({"kind": "ballot_in_wrong_thread", "day": day.number, "player": parsed.voter, "pid": post.pid,
                    "floor": post.floor, "thread": role,
                    "message": f"{parsed.voter}在{ROLE_NAMES.get(role, role)}第{post.floor}楼（{_hm(post.posted_at)}）发了一张票"
                               f"（{what}），只有投票帖里的票计入，此票不计；请导演提醒其到投票帖投票，或按规则处理。"})
    return out
