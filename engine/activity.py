"""Posts per player on one discussion day, the figure behind every lurking (潜水) card.

A director counts floors by hand and must be able to check each one, so every post that does not
count is kept with its reason. What counts, and why:

- only threads whose role is in `ruleset.activity.count_in` ("discussion", "vote", "progress",
  "election"); other threads are not looked at;
- only posts between the day's opening and close, both included (a post stamped 22:00 on a 22:00
  close counts: the forum shows minutes, and the director reads it as on time), and not after `at`
  when counting before the close;
- only posts by the day's players while they are in the game: a player out before the day
  (诈尸) or out mid-day (posts from `out_at[player]` on) does not gain posts;
- a hidden (屏蔽) post still counts: it was posted, only its text is withheld;
- water (`moderation.water.is_water`) is a post (`posts`) but not a counted post
  (`counted_posts`) when `ruleset.activity.exclude_water` (004 违规判定 5(1)「不含纯水帖」);
  a post with an attachment or a link is never water (it shows something the text does not).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from gamedef.gamefile import Day
from gamedef.names import normalize_name
from gamedef.ruleset import Ruleset
from moderation.water import is_water
from parsers.models import Post

from .state import DayState
from .window import left_out

if TYPE_CHECKING:
    from .acceleration import Acceleration
    from .votes import VoterStatus

THREAD_ROLES = ("discussion", "vote", "progress", "election")

WHY = {
    "water": "纯水帖，不计入发言数",
    "before_open": "开门前发帖",
    "after_close": "关门后发帖",
    "after_at": "统计时刻之后的发帖",
    "out": "已出局角色的发帖",
    "not_a_player": "非本日玩家的发帖",
    "no_time": "发帖时间未知",
}


@dataclass(frozen=True)
class Uncounted:
    """A post left out of `counted_posts`, with the reason a director can check."""

    pid: int
    floor: int
    player: str  # the author as the forum shows it
    why: str  # a key of WHY
    role: str  # the thread it is in
    tid: int

    @property
    def message(self) -> str:
        return WHY.get(self.why, self.why)

    def to_json(self) -> dict[str, Any]:
        return {"pid": self.pid, "floor": self.floor, "player": self.player, "why": self.why,
                "message": self.message, "thread": self.role, "tid": self.tid}


@dataclass(frozen=True)
class PlayerActivity:
    player: str
    posts: int  # every post in the window while in the game (hidden and water included)
    counted_posts: int  # posts minus water, when the ruleset excludes water
    water: int
    out_at: datetime | None = None  # went out during the day


@dataclass(frozen=True)
class DayActivity:
    day: int
    opens: datetime
    closes: datetime
    at: datetime  # counted up to this moment (the close, unless counting before it)
    count_in: tuple[str, ...]
    exclude_water: bool
    players: tuple[PlayerActivity, ...]
    uncounted: tuple[Uncounted, ...]

    def of(self, player: str) -> PlayerActivity:
        for p in self.players:
            if p.player == player:
                return p
        raise KeyError(player)

    @property
    def counted(self) -> dict[str, int]:
        return {p.player: p.counted_posts for p in self.players}

    @property
    def posts(self) -> dict[str, int]:
        return {p.player: p.posts for p in self.players}

    @property
    def out_mid_day(self) -> frozenset[str]:
        return frozenset(p.player for p in self.players if p.out_at is not None)


def _is_water_post(post: Post) -> bool:
    """Meaningless filler with nothing attached: a post, but not a counted one."""
    return is_water(post.text, post.smilies) and not (post.attachments or post.links)


def _unique(posts_by_role: Mapping[str, Sequence[Post]], roles: Iterable[str]) -> list[tuple[str, Post]]:
    """Posts of the counted threads, each once (two roles may name one thread)."""
    seen: set[tuple[int, int]] = set()
    out: list[tuple[str, Post]] = []
    for role in roles:
        for p in posts_by_role.get(role, ()):
            if (p.tid, p.pid) not in seen:
                seen.add((p.tid, p.pid))
                out.append((role, p))
    return out


def count_activity(posts_by_role: Mapping[str, Sequence[Post]], *, ruleset: Ruleset, day: Day, state: DayState,
                   out_at: Mapping[str, datetime] = {}, at: datetime | None = None) -> DayActivity:
    """Posts per player of `day`, counted the way the ruleset counts them for lurking.

    `state` is the day at its opening (its `living` are the day's players); `out_at` names players
    who went out during the day and when (`engine.state.out_during`).
    """
    unknown = [r for r in ruleset.activity.count_in if r not in THREAD_ROLES]
    if unknown:
        raise ValueError(f"activity.count_in names unknown thread role(s) {unknown}; known: {THREAD_ROLES}")
    end = min(at, day.closes) if at is not None else day.closes
    roster = {normalize_name(p): p for p in state.living}
    gone = {normalize_name(p) for p in state.out}
    left = {normalize_name(k): v for k, v in out_at.items()}
    posts = {p: 0 for p in state.living}
    water = {p: 0 for p in state.living}
    uncounted: list[Uncounted] = []

    for role, post in _unique(posts_by_role, ruleset.activity.count_in):
        key = normalize_name(post.author)
        t = post.posted_at
        why = left_out(key, t, roster=roster, gone=gone, left=left, opens=day.opens, deadline=day.closes,
                       deadline_why="after_close", end=end)
        if why is None:
            name = roster[key]
            posts[name] += 1
            if ruleset.activity.exclude_water and not (post.hidden or post.author_banned) and _is_water_post(post):
                water[name] += 1
                why = "water"
        if why is not None:
            uncounted.append(Uncounted(pid=post.pid, floor=post.floor, player=post.author, why=why,
                                       role=role, tid=post.tid))

    rows = tuple(PlayerActivity(player=p, posts=posts[p], counted_posts=posts[p] - water[p], water=water[p],
                                out_at=left.get(normalize_name(p)))
                 for p in state.living)
    return DayActivity(day=day.number, opens=day.opens, closes=day.closes, at=end,
                       count_in=tuple(ruleset.activity.count_in), exclude_water=ruleset.activity.exclude_water,
                       players=rows, uncounted=tuple(uncounted))


def activity_json(day_activity: DayActivity, penalties: Sequence[Any], voted: Iterable[str],
                  acceleration: "Acceleration | None" = None, *,
                  vote_status: "Mapping[str, VoterStatus] | None" = None) -> dict[str, Any]:
    """The `daoyan activity --json` shape of DESIGN.md, with the uncounted posts (and acceleration) beside it.

    `penalties` are `engine.lurking.Penalty` (anything with `to_json()` or the four keys). `voted`
    names the players with a counted ballot; with `vote_status` (`engine.votes.voter_statuses`)
    `voted` comes from it, and each row also says what a player's uncounted ballots were (`vote`):
    a ballot posted after going out is shown as that, never as a vote. A player who went out
    during the day has `out_at`.
    """
    voted_set = set(voted)
    rows = []
    for p in day_activity.players:
        row: dict[str, Any] = {"player": p.player, "posts": p.posts, "counted_posts": p.counted_posts,
                               "voted": p.player in voted_set}
        st = vote_status.get(p.player) if vote_status is not None else None
        if st is not None:
            row["voted"] = st.voted
            row["vote"] = st.to_json()
        if p.out_at is not None:
            row["out_at"] = p.out_at.isoformat()
        rows.append(row)
    out: dict[str, Any] = {
        "day": day_activity.day,
        "players": rows,
        "penalties": [p.to_json() if hasattr(p, "to_json") else dict(p) for p in penalties],
        "uncounted": [u.to_json() for u in day_activity.uncounted],
        "window": {"opens": day_activity.opens.isoformat(), "closes": day_activity.closes.isoformat(),
                   "counted_until": day_activity.at.isoformat()},
        "count_in": list(day_activity.count_in),
        "exclude_water": day_activity.exclude_water,
    }
    if acceleration is not None:
        out["accelerated"] = bool(acceleration.accelerated)
        out["acceleration"] = acceleration.to_json()
    return out


def water_heavy(day_activity: DayActivity, posts_by_role: Mapping[str, Sequence[Post]], *, threshold: int,
                acceleration: "Acceleration | None" = None) -> dict[str, list[Post]]:
    """Players with at least `threshold` water posts among the day's counted posts (M84 违规判定 6(5)
    大量无意义水帖), each with those posts; nothing when `threshold` is 0.

    A progress-thread post the acceleration count read as a stance (a "+1" / 附议 counted as a request,
    an objection, a withdrawal) says something: it is not meaningless, whatever its length."""
    if threshold <= 0:
        return {}
    spoken = {r.pid for r in (acceleration.readings if acceleration is not None else ())
              if any(v in ("request", "second", "objection", "withdrawal") for v in r.reading.values())}
    names = {normalize_name(p.player): p.player for p in day_activity.players}
    uncounted = {(u.tid, u.pid) for u in day_activity.uncounted if u.why != "water"}
    found: dict[str, list[Post]] = {}
    for _, post in _unique(posts_by_role, day_activity.count_in):
        key = normalize_name(post.author)
        if key not in names or (post.tid, post.pid) in uncounted or post.hidden or post.author_banned:
            continue
        if post.posted_at is None or not (day_activity.opens <= post.posted_at <= day_activity.at):
            continue
        if _is_water_post(post) and post.pid not in spoken:
            found.setdefault(names[key], []).append(post)
    return {p: ps for p, ps in found.items() if len(ps) >= threshold}


ROLE_NAMES = {"discussion": "讨论帖", "vote": "投票帖", "progress": "进程帖", "election": "竞选帖"}


def deleted_post_warnings(gone: Sequence[tuple[str, Post, datetime]], *, ruleset: Ruleset, day: Day,
                          state: DayState, activity: DayActivity) -> list[dict[str, Any]]:
    """A warning for each post a player made during the day that a later scan found deleted on the
    forum (`gone`: thread role, post, when it was found gone). The count leaves it out, as the forum
    does, so a player's count can drop between two scans; the director is told which post went and
    what the count would be with it, and daoyan keeps the words for the flags."""
    roster = {normalize_name(p): p for p in state.living}
    counted = {p.player: p.counted_posts for p in activity.players}
    out = []
    for role, post, when in sorted(gone, key=lambda g: (g[1].tid, g[1].floor)):
        name = roster.get(normalize_name(post.author))
        if name is None or post.posted_at is None or not (day.opens <= post.posted_at <= day.closes):
            continue
        where = ROLE_NAMES.get(role, role)
        if ruleset.activity.exclude_water and _is_water_post(post):
            effect = "此帖是纯水帖，本不计入发言数"
        elif role in ruleset.activity.count_in:
            effect = f"不计入发言数（现计{counted.get(name, 0)}帖，算上此帖{counted.get(name, 0) + 1}帖）"
        else:
            effect = "此帖本不计入发言数"
        out.append({"kind": "deleted_post", "day": day.number, "player": name, "pid": post.pid, "tid": post.tid,
                    "floor": post.floor, "thread": role, "gone_at": when.isoformat(),
                    "message": f"{where}第{post.floor}楼 {name}的发言（发于{post.posted_at:%m-%d %H:%M}）已从论坛删除"
                               f"（{when:%m-%d %H:%M}的扫描发现）；daoyan 存有原文，{effect}。"
                               "请导演核实是谁删的、是否照常计数；原文若有违规，仍在 daoyan check 里。"})
    return out
