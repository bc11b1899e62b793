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
- a player counts once; a later objection withdraws an earlier request (under "when_reached", until
  the threshold is reached: a granted acceleration is not taken back by a withdrawal);
- only players of the day who are still in the game, posting between the opening and the cut-off
  (`cutoff_hours_before_close` before the close, both ends included), count;
- when the count is set against the living is the ruleset's `judged`: "when_reached" (004:
  超过所有存活玩家的二分之一则游戏进程加速) compares at every request and withdrawal and again whenever
  a player leaves the game during the day, with those alive then, and grants from the first moment it
  holds; "at_cutoff" (M84: 当日申请人数在讨论日结束三个小时前…大于等于存活人数的一半) takes the requests
  standing at the cut-off against those alive then, and grants from the moment that standing count last
  reached the threshold. `living`, `needed` and `counted` are the numbers of `judged_at`, the moment
  the answer rests on (the grant, or the cut-off when there is none);
- a granted delay ends the accelerated state when `delay_cancels_acceleration`
  (M84: 延迟成功时，不再视为“执行加速”状态).
The director's word wins over the thread: `Day.accelerated` in the game file, or an `accelerated`
event in force (`DayState.accelerated_event`). An override without a moment of its own counts from
the day's opening (the whole day is accelerated) unless the thread gives the moment.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
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
    reading: dict[str, str] = field(default_factory=dict)  # kind -> request|objection|withdrawal|question|mention|second
    note: str = ""  # what a "+1" seconded, and how the ruleset counts it

    @property
    def reading_zh(self) -> str:
        """The reading in the director's words: 加速：申请 / 延时：反对 / 无关."""
        if not self.reading:
            return self.note or READING_ZH["none"]
        parts = [f"{'加速' if k == ACCELERATE else '延时' if k == DELAY else ''}{READING_ZH.get(r, r)}"
                 for k, r in self.reading.items()]
        return "；".join(parts) + (f"（{self.note}）" if self.note else "")

    def to_json(self) -> dict[str, Any]:
        return {"pid": self.pid, "floor": self.floor, "player": self.player,
                "posted_at": self.posted_at.isoformat() if self.posted_at else None,
                "stance": dict(self.stance), "counted": self.counted, "why": self.why,
                "reading": dict(self.reading), "reading_zh": self.reading_zh, "note": self.note}


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
    # granted, then ended by a delay granted later (M84 延迟成功时，不再视为“执行加速”状态): the day was
    # accelerated from `granted_at` of this pair until the delay; None otherwise
    was_accelerated: tuple[datetime, datetime] | None = None
    posts: tuple[ProgressRequest, ...] = ()  # posts with a stance (request, second, objection, withdrawal)
    readings: tuple[ProgressRequest, ...] = ()  # every post of the thread, as it was read
    counted_requests: tuple[ProgressRequest, ...] = ()  # the request behind each name in `requests`
    counted_delays: tuple[ProgressRequest, ...] = ()
    seconding: str = "request"
    judged: str = "when_reached"  # the ruleset's reading of when the count is set against the living
    judged_at: datetime | None = None  # the moment of `living`, `needed` and `counted` (grant or cut-off)
    counted: int = 0  # requests standing at `judged_at` (a requester out by then is not among them)
    granted_on_departure: str | None = None  # granted when this player left the game (not by a post)

    def to_json(self) -> dict[str, Any]:
        return {
            "day": self.day, "accelerated": self.accelerated, "delayed": self.delayed, "source": self.source,
            "requests": list(self.requests), "delays": list(self.delays), "living": self.living,
            "needed": self.needed, "counted": self.counted, "judged": self.judged,
            "judged_at": self.judged_at.isoformat() if self.judged_at else None,
            "granted_on_departure": self.granted_on_departure,
            "granted_at": self.granted_at.isoformat() if self.granted_at else None,
            "granted_pid": self.granted_pid, "granted_floor": self.granted_floor,
            "delay_granted_at": self.delay_granted_at.isoformat() if self.delay_granted_at else None,
            "delay_granted_pid": self.delay_granted_pid,
            "cutoff": self.cutoff.isoformat() if self.cutoff else None,
            **({"was_accelerated": [self.was_accelerated[0].isoformat(), self.was_accelerated[1].isoformat()]}
               if self.was_accelerated else {}),
            "posts": [p.to_json() for p in self.posts],
            "readings": [p.to_json() for p in self.readings],
            "counted_requests": [{"player": p.player, "floor": p.floor, "pid": p.pid,
                                  "posted_at": p.posted_at.isoformat() if p.posted_at else None}
                                 for p in self.counted_requests],
            "counted_delays": [{"player": p.player, "floor": p.floor, "pid": p.pid,
                                "posted_at": p.posted_at.isoformat() if p.posted_at else None}
                               for p in self.counted_delays],
            "seconding": self.seconding,
        }


def needed(rules: AccelerationRules, living: int) -> int:
    """The fewest requests that grant acceleration among `living` players (living + 1: never)."""
    for n in range(living + 1):
        if rules.granted(n, living):
            return n
    return living + 1


def _norm(text: str) -> str:
    return "".join(unicodedata.normalize("NFKC", text).casefold().split())


# What a progress-thread post says about one kind (accelerate / delay).
REQUEST, OBJECTION, WITHDRAWAL, QUESTION, MENTION, SECOND = (
    "request", "objection", "withdrawal", "question", "mention", "second")
READING_ZH = {REQUEST: "申请", OBJECTION: "反对", WITHDRAWAL: "撤回申请", QUESTION: "提问", MENTION: "仅提及",
              SECOND: "附议", "none": "无关"}
_QUOTED = re.compile(r"“[^”]*”|「[^」]*」|『[^』]*』|\"[^\"]*\"|‘[^’]*’|'[^']*'")
_SENTENCE = re.compile(r"[^。.!?;\n…~]*[。.!?;\n…~]*")
_CLAUSE = re.compile(r"[,、:]")
_FILLER = re.compile(r"(?:赶紧|早点|快点|强烈|真的|直接|现在|今天)|[我吧啊呀哦哈嘛啦了请快先就也还都再一下把和点+1!！~～.。,，]+")


def _is_question(clause: str, sentence: str, rules: AccelerationRules) -> bool:
    bare = clause.rstrip("!~。. ?")
    return (bare.endswith("?") or clause.rstrip().endswith("?") or any(w in clause for w in rules.question_words)
            or any(bare.endswith(p) for p in rules.question_particles) or "?" in clause)


def _clause_reading(clause: str, sentence: str, at: int, word: str, rules: AccelerationRules,
                    others: Sequence[str]) -> str:
    """The reading of one clause around the keyword found at `at`."""
    prefix, suffix = clause[:at], clause[at + len(word):]
    if any(w in sentence for w in rules.withdraw_words):
        return WITHDRAWAL
    if _is_question(clause, sentence, rules):
        return QUESTION
    bare_clause, bare_prefix = clause, prefix
    for ex in rules.negation_exceptions:
        bare_clause, bare_prefix = bare_clause.replace(ex, ""), bare_prefix.replace(ex, "")
    if any(_norm(w) in bare_clause for w in rules.against_words):
        return OBJECTION
    near = bare_prefix[-8:]  # a negation governs the words right before the keyword, not a whole clause
    if any(n in near for n in rules.negations) or suffix.startswith(("算了", "不要了", "免了", "就不")):
        return OBJECTION
    third = [prefix.find(t) for t in rules.third_party_words if t in prefix] + \
        [prefix.find(o) for o in others if o and o in prefix]
    if third:
        first_other = min(third)
        if not any(0 <= prefix.find(v) < first_other for v in rules.request_verbs if v != "想"):
            return MENTION  # 楼上申请加速了 / 他说要加速: someone else's request; 附议楼上加速 / 支持饺子加速 ask
        return REQUEST
    if any(_norm(w) in clause for w in rules.request_words if w != word) and any(v in prefix for v in rules.request_verbs):
        return REQUEST
    if any(v in prefix for v in rules.request_verbs) or suffix.startswith("+1"):
        return REQUEST
    if len(_FILLER.sub("", (bare_prefix + suffix).replace(word, ""))) == 0:
        return REQUEST  # "加速", "加速！", "我加速", "加速吧", "加速+1"
    return MENTION


_READ_CHARS = 2000
_MAX_HITS = 24  # keywords read per kind in one post
_STRENGTH = {REQUEST: 3, OBJECTION: 3, WITHDRAWAL: 3, QUESTION: 2, MENTION: 1}


def read_post(text: str, rules: AccelerationRules, *, author: str = "", players: Sequence[str] = ()) -> dict[str, str]:
    """How a progress-thread post reads, per kind it names: {"accelerate": "request"|"objection"|
    "withdrawal"|"question"|"mention"} (`second` for a bare "+1"/"附议", under key "*": the
    count resolves what it seconds). The last decisive clause of the post is its stance: a
    request or objection outweighs a question, which outweighs a mere mention (a word inside
    quotation marks is someone else's words: a mention)."""
    text = text[:_READ_CHARS]  # a request is a short post; a hostile wall of 加速 must not cost quadratic time
    norm = re.sub(r"[^\S\n]+", "", unicodedata.normalize("NFKC", text).casefold())  # 申请 加速 is 申请加速
    flat = _norm(text)
    if flat:
        seconds = "|".join(re.escape(_norm(w)) for w in sorted(rules.second_words, key=len, reverse=True) if _norm(w))
        stripped = re.sub(r"[!！~～。.,，、\s]+", "", flat)
        core = re.sub(r"楼上|楼主|(?<!\+)\d+楼|#\d+|(?<!\+)\d+#|的?申请", "", stripped)
        if seconds and core and (core == "同" != stripped or re.fullmatch(f"(?:{seconds})+", core)):
            return {"*": SECOND}  # +1 · 附议 · 同楼上 · 附议楼上的申请
    me = normalize_name(author)
    others = [_norm(p) for p in players if normalize_name(p) != me]
    quoted = [m.span() for m in _QUOTED.finditer(norm)]
    result: dict[str, tuple[int, str]] = {}
    kinds = ((ACCELERATE, rules.accelerate_keywords), (DELAY, rules.delay_keywords))
    for kind, keywords in kinds:
        words = sorted({_norm(w) for w in keywords if _norm(w)}, key=len, reverse=True)
        if not words:
            continue
        pattern = re.compile("|".join(re.escape(w) for w in words))
        hits = 0
        for sm in _SENTENCE.finditer(norm):
            sentence = sm.group(0)
            if not sentence.strip():
                continue
            pos = sm.start()
            for part in _CLAUSE.split(sentence):
                start = norm.find(part, pos) if part else pos
                pos = start + len(part)
                clause_raw = part
                for m in pattern.finditer(clause_raw):
                    hits += 1
                    if hits > _MAX_HITS:
                        break
                    after = clause_raw[m.end():m.end() + 1]
                    if after and after in rules.not_keyword_after:
                        continue
                    absolute = start + m.start()
                    if any(a <= absolute < b for a, b in quoted):
                        reading = MENTION
                    else:
                        clause = "".join(clause_raw.split())
                        at = len("".join(clause_raw[:m.start()].split()))
                        reading = _clause_reading(clause, _norm(sentence), at, m.group(0), rules, others)
                    old = result.get(kind)
                    if old is None or _STRENGTH[reading] >= old[0]:
                        result[kind] = (_STRENGTH[reading], reading, absolute + len(m.group(0)))
    if not result and any(w in flat for w in rules.withdraw_words) and any(v in flat for v in ("申请", "申請")):
        return {"*": WITHDRAWAL}  # "撤回申请": whatever the poster asked for before
    every = [_norm(w) for _, ws in kinds for w in ws if _norm(w)]
    out = {}
    for k, (_, r, end) in result.items():
        tail = norm[end:]
        if r == REQUEST and any(_norm(w) in tail for w in rules.withdraw_words) and not any(w in tail for w in every):
            r = WITHDRAWAL  # "申请加速。撤回": taken back later in the same post, naming nothing else
        out[k] = r
    return out


def stance(text: str, rules: AccelerationRules) -> dict[str, bool]:
    """What a post asks on its own: {"accelerate": True} requests, False objects or withdraws;
    questions, mentions and bare "+1" replies are not stances (see `read_post`)."""
    out: dict[str, bool] = {}
    for kind, reading in read_post(text, rules).items():
        if reading == REQUEST:
            out[kind] = True
        elif reading in (OBJECTION, WITHDRAWAL):
            out[kind] = False
    return out


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
    floors: dict[str, dict[str, ProgressRequest]] = {ACCELERATE: {}, DELAY: {}}
    # kind -> (moment, the post that made it or None for a departure, living then, requests counted then)
    granted: dict[str, tuple[datetime, Post | None, int, int] | None] = {ACCELERATE: None, DELAY: None}
    at_cutoff = rules.judged == "at_cutoff"

    def standing(kind: str, t: datetime | None) -> int:
        """Requests of `kind` standing at `t`, from players still in the game then."""
        return sum(1 for n in asking[kind]
                   if not (normalize_name(n) in left and t is not None and left[normalize_name(n)] <= t))

    departed: dict[datetime | None, str] = {}

    def judge(t: datetime | None, post: Post | None, who: str | None = None) -> None:
        """Set the count against the living at `t` (after a request, a withdrawal or a departure)."""
        n = living_at(t)
        for kind in (ACCELERATE, DELAY):
            c = standing(kind, t)
            if rules.granted(c, n):
                if granted[kind] is None:
                    granted[kind] = (t, post, n, c)  # type: ignore[assignment]
                    if who is not None and kind == ACCELERATE:
                        departed[t] = who
            elif at_cutoff:
                granted[kind] = None  # no longer holds: judged again at the cut-off

    # players who leave the game during the day, up to the moment of the count: each departure is a
    # moment when the threshold may be met with fewer alive (004: 超过所有存活玩家的二分之一)
    departures = sorted((t, k) for k, t in left.items() if k in roster and day.opens <= t <= end)
    seen: list[ProgressRequest] = []
    readings: list[ProgressRequest] = []
    by_pid: dict[int, dict[str, str]] = {}
    floor_of: dict[int, int] = {}
    last_request: list[tuple[str, Post]] = []  # (kind, post) of every request read so far, in order
    order = sorted(progress_posts, key=lambda p: (p.posted_at is None, p.posted_at or day.opens, p.floor))
    for post in order:
        while departures and post.posted_at is not None and departures[0][0] <= post.posted_at:
            t_left, k_left = departures.pop(0)
            judge(t_left, None, roster[k_left])  # a departure at a post's moment comes first (the post is out)
        read = read_post(post.text, rules, author=post.author, players=state.players) if not post.hidden else {}
        note = ""
        if read.get("*") == SECOND:
            refs = ([post.reply_to.pid] if post.reply_to and post.reply_to.pid else []) + [q.pid for q in post.quotes if q.pid]
            named = re.search(r"(?<!\+)(\d+)\s*[楼#]|#\s*(\d+)", unicodedata.normalize("NFKC", post.text))
            if named and not refs:  # 附议2楼 / 同意#3: the floor it names
                fl_named = int(named.group(1) or named.group(2))
                refs = [pid for pid, fl in floor_of.items() if fl == fl_named]
            target = next(((k, pid) for pid in refs for k, r in by_pid.get(pid, {}).items() if r == REQUEST), None)
            if target is None and not refs:
                me = normalize_name(post.author)
                prior = next(((k, p) for k, p in reversed(last_request) if normalize_name(p.author) != me), None)
                target = (prior[0], prior[1].pid) if prior else None
            if target is None:
                read, note = {}, "附议，但找不到所附议的申请"
            else:
                kind, pid = target
                fl = floor_of.get(pid)
                what = "加速" if kind == ACCELERATE else "延时"
                if rules.seconding == "request":
                    read, note = {kind: SECOND}, f"附议第{fl}楼的{what}申请，按规则集（seconding = request）计为申请"
                else:
                    read, note = {}, f"附议第{fl}楼的{what}申请，按规则集（seconding = ignored）不计"
        if read.get("*") == WITHDRAWAL:
            mine = [k for k in (ACCELERATE, DELAY) if roster.get(normalize_name(post.author)) in asking[k]]
            read = {k: WITHDRAWAL for k in mine}
            note = "撤回此前的申请" if mine else "撤回申请，但此前没有计入的申请"
        by_pid[post.pid] = read
        floor_of[post.pid] = post.floor
        st = {k: r in (REQUEST, SECOND) for k, r in read.items() if r in (REQUEST, SECOND, OBJECTION, WITHDRAWAL)}
        key, t = normalize_name(post.author), post.posted_at
        why = left_out(key, t, roster=roster, gone=gone, left=left, opens=day.opens, deadline=cutoff,
                       deadline_why="after_cutoff", end=end)
        entry = ProgressRequest(pid=post.pid, floor=post.floor, player=post.author, posted_at=t, stance=st,
                                counted=bool(st) and why is None, why=why, reading=dict(read), note=note)
        readings.append(entry)
        for kind, r in read.items():
            if r == REQUEST:
                last_request.append((kind, post))
        if not st:
            continue
        seen.append(entry)
        if why is not None:
            continue
        name = roster[key]
        for kind, asks in st.items():
            who = asking[kind]
            if asks and name not in who:
                who.append(name)
                floors[kind][name] = entry
            elif not asks and name in who and (granted[kind] is None or at_cutoff):
                who.remove(name)  # when_reached: a granted acceleration is not taken back by a withdrawal
                floors[kind].pop(name, None)
        judge(t, post)
    for t_left, k_left in departures:
        judge(t_left, None, roster[k_left])


    acc_g, del_g = granted[ACCELERATE], granted[DELAY]
    delayed = del_g is not None
    accelerated = acc_g is not None and not (delayed and rules.delay_cancels_acceleration)
    # the numbers the answer rests on: at_cutoff, those of the cut-off; when_reached, those of the moment
    # of the grant, else those of the cut-off
    judged_at = acc_g[0] if acc_g and not at_cutoff else end
    living = acc_g[2] if acc_g and not at_cutoff else living_at(end)
    counted = acc_g[3] if acc_g and not at_cutoff else standing(ACCELERATE, end)
    source = "thread"
    g_at = acc_g[0] if acc_g else None
    g_pid = acc_g[1].pid if acc_g and acc_g[1] is not None else None
    g_floor = acc_g[1].floor if acc_g and acc_g[1] is not None else None
    event_at = state.accelerated_since if state.accelerated_since is not None and (at is None or state.accelerated_since <= at) else None
    override = day.accelerated if day.accelerated is not None else (
        True if state.accelerated_event or event_at is not None else None)
    if override is not None:
        source = "override"
        if override and day.accelerated is None and event_at is not None:
            g_at, g_pid, g_floor = event_at, None, None  # the director's event says when
        elif override and not accelerated:
            g_at, g_pid, g_floor = day.opens, None, None
        accelerated = override
    window = None
    if source == "thread" and not accelerated and acc_g is not None and del_g is not None and del_g[0] >= acc_g[0]:
        window = (acc_g[0], del_g[0])
    if not accelerated:
        g_at, g_pid, g_floor = None, None, None
    return Acceleration(was_accelerated=window,
        day=day.number, requests=tuple(asking[ACCELERATE]), delays=tuple(asking[DELAY]), living=living,
        needed=needed(rules, living), accelerated=accelerated, delayed=delayed, source=source,
        granted_at=g_at, granted_pid=g_pid, granted_floor=g_floor,
        delay_granted_at=del_g[0] if del_g else None,
        delay_granted_pid=del_g[1].pid if del_g and del_g[1] is not None else None,
        cutoff=cutoff, posts=tuple(seen), readings=tuple(readings),
        counted_requests=tuple(floors[ACCELERATE][n] for n in asking[ACCELERATE]),
        counted_delays=tuple(floors[DELAY][n] for n in asking[DELAY]), seconding=rules.seconding,
        judged=rules.judged, judged_at=judged_at, counted=counted,
        granted_on_departure=departed.get(g_at) if source == "thread" and accelerated and g_pid is None else None)


def accelerated_at(acc: Acceleration, moment: datetime) -> bool:
    """Whether the day is accelerated at `moment` (a change vote posted then is refused)."""
    return acc.accelerated and acc.granted_at is not None and moment >= acc.granted_at
