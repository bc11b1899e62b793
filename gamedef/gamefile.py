"""The game file (TOML): which forum, which threads, who plays, and what the threads alone do not say.

The contract is in DESIGN.md; this module adds what a director needs on top (credentials named by
environment variable, politeness, proxy votes, manual cards, a store path). Every mistake gets
one `GameFileError` naming the file, the field and what is expected.
"""
from __future__ import annotations

import math
import os
import re
import tomllib
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .errors import GameFileError, RulesetError
from .names import display_name, normalize_name
from .ruleset import Ruleset, load_ruleset
from .textfile import read_utf8

EVENT_KINDS = ("out", "priest", "whistled", "unwhistled", "accelerated", "delayed", "excused", "survives")
CARD_COLORS = ("green", "blue", "yellow", "red")


@dataclass(frozen=True)
class LoginConfig:
    username_env: str
    password_env: str
    cookie_file: str | None = None
    question_env: str | None = None  # the account's security question (安全提问) id, 1-7
    answer_env: str | None = None    # and its answer


@dataclass(frozen=True)
class ForumConfig:
    base_url: str
    charset: str = "auto"  # auto | utf-8 | gbk
    api: str = "auto"  # auto | always | never: use the mobile API for exact times and edit checks
    rate: float = 4.0  # requests per second, at most
    connections: int = 4  # concurrent connections, at most
    timeout: float = 20.0  # seconds per request
    retries: int = 4
    user_agent: str | None = None
    login: LoginConfig | None = None
    api_page_size: int = 500  # posts per mobile-API request (X3.5 honours ppp)
    deadline: float | None = None  # seconds for one whole answer; None: 3 × timeout, at least 60
    max_page_mb: float = 64.0  # an answer unpacking to more is refused (a gzip bomb)


@dataclass(frozen=True)
class Day:
    number: int
    discussion_tid: int
    vote_tid: int
    opens: datetime  # aware, in the game's time zone
    closes: datetime
    progress_tid: int | None = None
    election_tid: int | None = None
    accelerated: bool | None = None  # the director's override of the progress thread's count

    @property
    def tids(self) -> dict[str, int]:
        d = {"discussion": self.discussion_tid, "vote": self.vote_tid}
        if self.progress_tid:
            d["progress"] = self.progress_tid
        if self.election_tid:
            d["election"] = self.election_tid
        return d


@dataclass(frozen=True)
class Event:
    day: int
    kind: str
    player: str | None = None
    reason: str | None = None
    at: datetime | None = None  # in force from this moment; default: the day's opening


@dataclass(frozen=True)
class ProxyVote:
    """A vote the director cast for a player outside the thread (代投), recorded here."""

    day: int
    player: str
    target: str  # a player, or the ruleset's abstain word
    at: datetime
    reason: str = "代投"
    change: bool = False
    requested_at: datetime | None = None  # when the player asked the director (004 玩家须知 9: ≥ 1 h before close)


@dataclass(frozen=True)
class ManualCard:
    day: int
    player: str
    card: str
    rule: str
    reason: str = ""
    pid: int | None = None
    at: datetime | None = None  # when it was given (a red during the day ejects from then, per red_resolves)


@dataclass(frozen=True)
class Game:
    path: Path
    forum: ForumConfig
    ruleset: Ruleset
    timezone: ZoneInfo
    players: tuple[str, ...]
    directors: tuple[str, ...]
    days: tuple[Day, ...]
    events: tuple[Event, ...] = ()
    proxies: tuple[ProxyVote, ...] = ()
    cards: tuple[ManualCard, ...] = ()
    store_path: Path = Path("game.sqlite")
    name: str = ""
    camps: dict[str, str] = field(default_factory=dict)  # player -> camp, optional, for M84's two-red rule
    rules_tid: int | None = None  # the rule post (规则帖); found on the board when not given
    # player -> other forum names whose posts are that player's: the role account renamed on the forum, or a
    # second account the director allows (`[game] aliases = { "包子" = ["包子新名"] }`); optional
    aliases: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def alias_names(self) -> dict[str, str]:
        """Every alias, normalised (`gamedef.names.normalize_name`), → the roster name it stands for."""
        return {normalize_name(a): p for p, names in self.aliases.items() for a in names}

    def day(self, number: int) -> Day:
        for d in self.days:
            if d.number == number:
                return d
        known = ", ".join(str(d.number) for d in self.days) or "none"
        raise GameFileError(str(self.path), "day", f"no day {number} in the game file (days: {known})")

    @property
    def tids(self) -> list[int]:
        seen: list[int] = []
        for d in self.days:
            for t in d.tids.values():
                if t not in seen:
                    seen.append(t)
        return seen

    def role_of(self, tid: int) -> tuple[int, str] | None:
        for d in self.days:
            for role, t in d.tids.items():
                if t == tid:
                    return d.number, role
        return None

    def now(self) -> datetime:
        return datetime.now(self.timezone)

    def credentials(self) -> tuple[str, str] | None:
        """(username, password) from the environment variables the file names, or None."""
        lg = self.forum.login
        if lg is None:
            return None
        user, pw = os.environ.get(lg.username_env), os.environ.get(lg.password_env)
        if not user or not pw:
            missing = [n for n, v in ((lg.username_env, user), (lg.password_env, pw)) if not v]
            raise GameFileError(str(self.path), "forum.login",
                                f"environment variable(s) {', '.join(missing)} not set (the login needs them)")
        return user, pw

    def security_question(self) -> tuple[int, str] | None:
        """(question id 1-7, answer) from the variables [forum.login] names, or None."""
        lg = self.forum.login
        if lg is None or lg.question_env is None or lg.answer_env is None:
            return None
        qid, answer = os.environ.get(lg.question_env), os.environ.get(lg.answer_env)
        if not qid or answer is None or answer == "":
            missing = [n for n, v in ((lg.question_env, qid), (lg.answer_env, answer)) if not v]
            raise GameFileError(str(self.path), "forum.login",
                                f"environment variable(s) {', '.join(missing)} not set (the security question needs them)")
        if not qid.strip().isdigit() or not 1 <= int(qid) <= 7:
            raise GameFileError(str(self.path), "forum.login",
                                f"{lg.question_env} must be the security question's number, 1 to 7 "
                                "(the order of Discuz's list: 1 母亲的名字 … 7 您个人计算机的型号)")
        return int(qid), answer


YEARS = (2000, 2200)  # the dates a game file may name (Discuz! forums, games to come)

# What a director may ask of the forum settings: beyond these a value is a typo, and would
# hammer the forum, stall the scan for ages or let one page take all the memory.
FORUM_LIMITS: dict[str, tuple[float, float, str]] = {
    "rate": (0.01, 1000, "requests per second"),
    "connections": (1, 32, "connections"),
    "timeout": (0.1, 600, "seconds"),
    "retries": (0, 20, "retries"),
    "api_page_size": (1, 100_000, "posts"),
    "deadline": (1, 3600, "seconds"),
    "max_page_mb": (1, 2048, "MB"),
}


_KNOWN = {
    "": {"forum", "game", "day", "event", "proxy", "card"},
    "forum": {"base_url", "charset", "api", "rate", "connections", "timeout", "retries", "user_agent",
              "login", "api_page_size", "deadline", "max_page_mb"},
    "forum.login": {"username_env", "password_env", "cookie_file", "question_env", "answer_env"},
    "game": {"ruleset", "timezone", "players", "directors", "store", "name", "camps", "rules_tid", "aliases"},
    "day": {"number", "discussion_tid", "vote_tid", "progress_tid", "election_tid", "opens", "closes",
            "accelerated"},
    "event": {"day", "kind", "player", "reason", "at"},
    "proxy": {"day", "player", "target", "at", "reason", "change", "requested_at"},
    "card": {"day", "player", "card", "rule", "reason", "pid", "at"},
}


def _base_url_problem(base: str) -> str | None:
    """What is wrong with a forum address that looks like http(s)://…, checked at load rather than
    mid-scan; None when nothing is. A password in the address is never repeated."""
    shown = re.sub(r"//[^/]*@", "//***@", base)
    if any(ord(c) < 0x21 or ord(c) == 0x7F for c in base):
        return f"the address holds a space or a control character: {shown!r}"
    try:
        parts = urlsplit(base)
        host, port = parts.hostname, parts.port
    except ValueError as e:  # a bad [IPv6] bracket, a port beyond 65535 or not a number
        return f"not a usable address ({e}): {shown!r}"
    if parts.username is not None or parts.password is not None:
        return ("the address carries a user name or password, which would reach the store and every report; "
                "remove it and put the account in [forum.login] (username_env, password_env)")
    if not host:
        return f"no host name in {shown!r}"
    if port == 0:
        return f"port 0 is no port: {shown!r}"
    if parts.query or parts.fragment:
        return f"expected the forum's root address without ?query or #fragment, got {shown!r}"
    if not host.startswith("[") and ":" not in host:
        try:
            host.encode("idna")
        except UnicodeError:
            return f"the host name {host!r} is not a valid domain name"
    return None


class _Reader:
    """Checks fields of one table, raising one clear error per mistake."""

    def __init__(self, path: Path, text: str):
        self.path, self.text = path, text

    def fail(self, field_: str, msg: str) -> GameFileError:
        return GameFileError(str(self.path), field_, msg, self.line_of(field_))

    def line_of(self, field_: str) -> int | None:
        key = field_.rsplit(".", 1)[-1].split("[")[0]
        m = re.search(rf"(?m)^\s*{re.escape(key)}\s*=", self.text)
        return self.text.count("\n", 0, m.start()) + 1 if m else None

    def check_known(self, table: dict, kind: str, where: str) -> None:
        unknown = sorted(set(table) - _KNOWN[kind])
        if unknown:
            raise self.fail(f"{where}.{unknown[0]}" if where else unknown[0],
                            f"unknown field {unknown[0]!r}; expected one of: {', '.join(sorted(_KNOWN[kind]))}")

    def get(self, table: dict, key: str, where: str, types: tuple, required: bool = True,
            default: Any = None, expect: str = "") -> Any:
        name = f"{where}.{key}" if where else key
        if key not in table:
            if required:
                raise self.fail(name, f"missing; expected {expect or types[0].__name__}")
            return default
        v = table[key]
        if isinstance(v, bool) and bool not in types:
            raise self.fail(name, f"expected {expect or types[0].__name__}, got {v!r}")
        if not isinstance(v, types):
            raise self.fail(name, f"expected {expect or types[0].__name__}, got {v!r}")
        if isinstance(v, int) and not -2**63 <= v < 2**63:  # beyond what SQLite (the store) holds
            raise self.fail(name, f"expected {expect or types[0].__name__}, got a number out of range ({v})")
        return v

    def tables(self, data: dict, key: str) -> list[dict]:
        """An array of tables (`[[event]]`, …): absent is none; anything else than tables is a mistake."""
        items = self.get(data, key, "", (list,), required=False, default=[], expect=f"[[{key}]] tables")
        for i, t in enumerate(items):
            if not isinstance(t, dict):
                raise self.fail(f"{key}[{i}]", f"expected a [[{key}]] table, got {t!r}")
        return items

    def moment(self, table: dict, key: str, where: str, tz: ZoneInfo, required: bool = True) -> datetime | None:
        v = table.get(key)
        if v is None:
            if required:
                raise self.fail(f"{where}.{key}", "missing; expected a local date-time like 2026-12-01T10:00:00")
            return None
        if isinstance(v, str) and re.fullmatch(r"\s*\d{4}-\d{1,2}-\d{1,2}\s*", v):
            v = date.fromisoformat(v.strip()) if re.fullmatch(r"\s*\d{4}-\d{2}-\d{2}\s*", v) else v
        if isinstance(v, date) and not isinstance(v, datetime):
            raise self.fail(f"{where}.{key}", f"{v:%Y-%m-%d} has no time of day, so the moment is ambiguous "
                                              f"(midnight? the evening close?); write the time too, like {v:%Y-%m-%d}T22:00:00")
        if isinstance(v, str):
            try:
                v = datetime.fromisoformat(v)
            except ValueError:
                raise self.fail(f"{where}.{key}", f"expected a date-time like 2026-12-01T10:00:00, got {v!r}") from None
        if isinstance(v, time):
            raise self.fail(f"{where}.{key}", f"{v:%H:%M:%S} has no date; write it like 2026-12-01T{v:%H:%M:%S}")
        if not isinstance(v, datetime):
            raise self.fail(f"{where}.{key}", f"expected a date-time like 2026-12-01T10:00:00, got {v!r}")
        if not YEARS[0] <= v.year <= YEARS[1]:  # year 1 or 9999: a typo, and arithmetic on it overflows
            raise self.fail(f"{where}.{key}", f"expected a date between the years {YEARS[0]} and {YEARS[1]}, "
                                              f"got {v:%Y-%m-%d}")
        try:
            return v.replace(tzinfo=tz) if v.tzinfo is None else v.astimezone(tz)
        except OverflowError:
            raise self.fail(f"{where}.{key}", f"a date-time no clock can hold: {v!r}") from None


_NO_SECONDS = re.compile(r"(?m)^(\s*[A-Za-z_][\w.-]*\s*=\s*\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2})(?=\s*(?:#.*)?$)")


def _with_seconds(text: str) -> str:
    """`closes = 2026-12-02T22:00` is what a director writes and means exactly one moment, but TOML 1.0
    wants the seconds: they are added (`:00`) before parsing, on the same line, so errors keep their line."""
    return _NO_SECONDS.sub(r"\1:00", text)


def parse_game(text: str, path: Path) -> Game:
    """A `Game` from the text of a game file; `path` names it in errors and anchors relative paths."""
    r = _Reader(path, text)
    try:
        data = tomllib.loads(_with_seconds(text))
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"line (\d+)", str(e))
        raise GameFileError(str(path), None, f"not valid TOML: {e}", int(m.group(1)) if m else None) from None
    r.check_known(data, "", "")
    f = r.get(data, "forum", "", (dict,), expect="a [forum] table")
    g = r.get(data, "game", "", (dict,), expect="a [game] table")
    r.check_known(f, "forum", "forum")
    r.check_known(g, "game", "game")

    base = r.get(f, "base_url", "forum", (str,), expect="the forum's address, like http://bbs.example.com/")
    if not re.match(r"^https?://[^/\s]+", base):
        raise r.fail("forum.base_url", "expected an http(s) address like http://bbs.example.com/, got "
                                       f"{re.sub(r'//[^/]*@', '//***@', base)!r}")
    problem = _base_url_problem(base)
    if problem:
        raise r.fail("forum.base_url", problem)
    if not base.endswith("/"):
        base += "/"
    login = None
    if "login" in f:
        lg = r.get(f, "login", "forum", (dict,), expect="a [forum.login] table")
        r.check_known(lg, "forum.login", "forum.login")
        login = LoginConfig(
            username_env=r.get(lg, "username_env", "forum.login", (str,), expect="an environment variable name"),
            password_env=r.get(lg, "password_env", "forum.login", (str,), expect="an environment variable name"),
            cookie_file=r.get(lg, "cookie_file", "forum.login", (str,), required=False),
            question_env=r.get(lg, "question_env", "forum.login", (str,), required=False),
            answer_env=r.get(lg, "answer_env", "forum.login", (str,), required=False),
        )
        if (login.question_env is None) != (login.answer_env is None):
            raise r.fail("forum.login", "question_env and answer_env go together (the security "
                                        "question's id and its answer)")
        if login.cookie_file is not None:
            cookie = path.parent / login.cookie_file
            if "\0" in login.cookie_file or not login.cookie_file.strip():
                raise r.fail("forum.login.cookie_file", f"expected a file name, got {login.cookie_file!r}")
            if cookie.is_dir() or (cookie.exists() and not cookie.is_file()):
                raise r.fail("forum.login.cookie_file", f"{cookie} is not a regular file (a folder?); "
                                                        "name a file daoyan may create")
    charset = r.get(f, "charset", "forum", (str,), required=False, default="auto").lower()
    if charset not in ("auto", "utf-8", "utf8", "gbk", "gb18030", "gb2312", "big5"):
        raise r.fail("forum.charset", f"expected auto, utf-8 or gbk, got {charset!r}")
    api = r.get(f, "api", "forum", (str,), required=False, default="auto")
    if api not in ("auto", "always", "never"):
        raise r.fail("forum.api", f"expected auto, always or never, got {api!r}")
    forum = ForumConfig(
        base_url=base, charset=charset, api=api,
        rate=float(r.get(f, "rate", "forum", (int, float), required=False, default=4.0, expect="requests per second")),
        connections=int(r.get(f, "connections", "forum", (int,), required=False, default=4)),
        timeout=float(r.get(f, "timeout", "forum", (int, float), required=False, default=20.0)),
        retries=int(r.get(f, "retries", "forum", (int,), required=False, default=4)),
        user_agent=r.get(f, "user_agent", "forum", (str,), required=False),
        login=login,
        api_page_size=int(r.get(f, "api_page_size", "forum", (int,), required=False, default=500)),
        deadline=r.get(f, "deadline", "forum", (int, float), required=False, expect="seconds"),
        max_page_mb=float(r.get(f, "max_page_mb", "forum", (int, float), required=False, default=64.0,
                                expect="megabytes")),
    )
    for key, value in (("rate", forum.rate), ("connections", forum.connections), ("timeout", forum.timeout),
                       ("retries", forum.retries), ("api_page_size", forum.api_page_size),
                       ("deadline", forum.deadline), ("max_page_mb", forum.max_page_mb)):
        low, high, unit = FORUM_LIMITS[key]
        if value is not None and not (math.isfinite(value) and low <= value <= high):
            raise r.fail(f"forum.{key}", f"expected {low:g} to {high:g} {unit}, got {value!r}")
    if forum.user_agent is not None and not (forum.user_agent.isascii() and forum.user_agent.isprintable()):
        raise r.fail("forum.user_agent", f"expected printable ASCII (an HTTP header carries nothing else), "
                                         f"got {forum.user_agent!r}")

    spec = r.get(g, "ruleset", "game", (str,), expect="a preset name (m84, 004) or a path to a ruleset TOML")
    try:
        ruleset = load_ruleset(spec, path.parent)
    except RulesetError as e:
        raise r.fail("game.ruleset", str(e)) from None
    tzname = r.get(g, "timezone", "game", (str,), required=False, default="Asia/Shanghai",
                   expect="an IANA time zone like Asia/Shanghai")
    try:
        tz = ZoneInfo(tzname)
    except (ZoneInfoNotFoundError, ValueError):
        raise r.fail("game.timezone", f"unknown time zone {tzname!r}; expected one like Asia/Shanghai") from None
    players = r.get(g, "players", "game", (list,), expect="a list of role-account usernames")
    directors = r.get(g, "directors", "game", (list,), required=False, default=[], expect="a list of usernames")
    for who, lst in (("players", players), ("directors", directors)):
        for i, p in enumerate(lst):
            if not isinstance(p, str) or not normalize_name(p):
                raise r.fail(f"game.{who}[{i}]", f"expected a username, got {p!r}")
        seen: dict[str, str] = {}
        for p in lst:
            k = normalize_name(p)
            if k in seen:
                same = "listed twice" if seen[k] == p else \
                    f"the same name as {seen[k]!r} once width, case, spaces and invisible characters are set aside"
                raise r.fail(f"game.{who}", f"{p!r} is {same}: posts and ballots could not tell them apart")
            seen[k] = p
    both = [d for d in directors if normalize_name(d) in {normalize_name(p) for p in players}]
    if both:
        raise r.fail("game.directors", f"{both[0]!r} is both a player and a director; a director's posts are never "
                                       "a player's ballots or posts, so the count cannot tell which is meant: "
                                       "list the name in one of game.players and game.directors only")
    players = [display_name(p) for p in players]
    directors = [display_name(p) for p in directors]
    if not players:
        raise r.fail("game.players", "expected at least one player")
    roster = {normalize_name(p): p for p in players}

    def player_of(value: Any, where: str) -> str:
        if not isinstance(value, str) or normalize_name(value) not in roster:
            raise r.fail(where, f"unknown player {value!r}; players are: {', '.join(players)}")
        return roster[normalize_name(value)]

    days: list[Day] = []
    raw_days = r.get(data, "day", "", (list,), expect="one or more [[day]] tables")
    for i, d in enumerate(raw_days):
        w = f"day[{i}]"
        if not isinstance(d, dict):
            raise r.fail(w, "expected a [[day]] table")
        r.check_known(d, "day", w)
        num = r.get(d, "number", w, (int,), expect="the day's number, 1, 2, …")
        tid = {}
        for key, req in (("discussion_tid", True), ("vote_tid", True), ("progress_tid", False), ("election_tid", False)):
            v = r.get(d, key, w, (int,), required=req, expect="a thread id (the tid= of its address)")
            if v is not None and v <= 0:
                raise r.fail(f"{w}.{key}", f"expected a positive thread id, got {v}")
            tid[key] = v
        opens = r.moment(d, "opens", w, tz)
        closes = r.moment(d, "closes", w, tz)
        assert opens and closes
        if closes <= opens:
            raise r.fail(f"{w}.closes", f"day {num} closes ({closes:%Y-%m-%d %H:%M}) before it opens ({opens:%Y-%m-%d %H:%M})")
        acc = r.get(d, "accelerated", w, (bool,), required=False)
        days.append(Day(number=num, opens=opens, closes=closes, accelerated=acc, **tid))
    nums = [d.number for d in days]
    if len(set(nums)) != len(nums):
        raise r.fail("day.number", f"a day number is used twice: {nums}")
    used: dict[int, str] = {}
    for i, d in enumerate(raw_days):
        for key in ("discussion_tid", "vote_tid", "progress_tid", "election_tid"):
            t = d.get(key)
            if t is None:
                continue
            here = f"day[{i}].{key}"
            if t in used:
                raise r.fail(here, f"thread {t} is also {used[t]}: one thread holds one role of one day "
                                   "(its posts would count twice, or as the wrong thread's)")
            used[t] = here
    days.sort(key=lambda d: d.number)
    bynum = {d.number: d for d in days}

    events: list[Event] = []
    for i, e in enumerate(r.tables(data, "event")):
        w = f"event[{i}]"
        r.check_known(e, "event", w)
        dn = r.get(e, "day", w, (int,))
        if dn < 1:
            raise r.fail(f"{w}.day", f"expected a day number (1, 2, …), got {dn}")
        kind = r.get(e, "kind", w, (str,), expect=" | ".join(EVENT_KINDS))
        if kind not in EVENT_KINDS:
            raise r.fail(f"{w}.kind", f"unknown kind {kind!r}; expected one of {', '.join(EVENT_KINDS)}")
        player = None
        if kind not in ("accelerated", "delayed"):
            player = player_of(e.get("player"), f"{w}.player")
        elif "player" in e:
            raise r.fail(f"{w}.player", f"an {kind} event takes no player")
        events.append(Event(day=dn, kind=kind, player=player, reason=r.get(e, "reason", w, (str,), required=False),
                            at=r.moment(e, "at", w, tz, required=False)))

    proxies: list[ProxyVote] = []
    for i, p in enumerate(r.tables(data, "proxy")):
        w = f"proxy[{i}]"
        r.check_known(p, "proxy", w)
        dn = r.get(p, "day", w, (int,))
        if dn not in bynum:
            raise r.fail(f"{w}.day", f"no day {dn} in the game file")
        target = r.get(p, "target", w, (str,), expect="a player or " + ruleset.vote.abstain_word)
        if target != ruleset.vote.abstain_word:
            target = player_of(target, f"{w}.target")
        at = r.moment(p, "at", w, tz, required=False) or bynum[dn].opens
        proxies.append(ProxyVote(day=dn, player=player_of(p.get("player"), f"{w}.player"), target=target, at=at,
                                 reason=r.get(p, "reason", w, (str,), required=False, default="代投"),
                                 change=r.get(p, "change", w, (bool,), required=False, default=False),
                                 requested_at=r.moment(p, "requested_at", w, tz, required=False)))

    cards: list[ManualCard] = []
    for i, c in enumerate(r.tables(data, "card")):
        w = f"card[{i}]"
        r.check_known(c, "card", w)
        color = r.get(c, "card", w, (str,), expect=" | ".join(CARD_COLORS))
        if color not in ruleset.cards.colors:
            raise r.fail(f"{w}.card", f"{color!r} is not a card of this ruleset ({', '.join(ruleset.cards.colors)})")
        cards.append(ManualCard(day=r.get(c, "day", w, (int,)), player=player_of(c.get("player"), f"{w}.player"),
                                card=color, rule=r.get(c, "rule", w, (str,), required=False, default="违规判定 8(1)"),
                                reason=r.get(c, "reason", w, (str,), required=False, default=""),
                                pid=r.get(c, "pid", w, (int,), required=False, expect="a post id (pid)"),
                                at=r.moment(c, "at", w, tz, required=False)))

    rules_tid = r.get(g, "rules_tid", "game", (int,), required=False, expect="a thread id (the tid= of its address)")
    if rules_tid is not None and rules_tid <= 0:
        raise r.fail("game.rules_tid", f"expected a positive thread id, got {rules_tid}")
    camps_raw = r.get(g, "camps", "game", (dict,), required=False, default={})
    camps = {player_of(k, f"game.camps.{k}"): str(v) for k, v in camps_raw.items()}
    aliases = _aliases(r, g, players, directors, player_of)
    store = r.get(g, "store", "game", (str,), required=False, default=None)
    store_path = Path(store) if store else path.with_suffix(".sqlite")
    if not store_path.is_absolute():
        store_path = path.parent / store_path if store else store_path
    return Game(path=path, forum=forum, ruleset=ruleset, timezone=tz, players=tuple(players),
                directors=tuple(directors), days=tuple(days), events=tuple(events), proxies=tuple(proxies),
                cards=tuple(cards), store_path=store_path, name=r.get(g, "name", "game", (str,), required=False, default=""),
                camps=camps, rules_tid=rules_tid, aliases=aliases)


def _aliases(r: _Reader, g: dict, players: list[str], directors: list[str], player_of: Any) -> dict[str, tuple[str, ...]]:
    """`[game] aliases`: roster name → the other forum names its posts may carry (a string or a list).
    An alias that is a roster or director name, or that is given twice, is refused: posts under it
    could not be told apart."""
    raw = r.get(g, "aliases", "game", (dict,), required=False, default={},
                expect='a table of "player" = ["other forum name", …], like aliases = { "包子" = ["包子新名"] }')
    taken = {normalize_name(p): f"the player {p!r}" for p in players}
    taken.update({normalize_name(d): f"the director {d!r}" for d in directors})
    seen: dict[str, str] = {}
    out: dict[str, tuple[str, ...]] = {}
    for key, value in raw.items():
        where = f"game.aliases.{key}"
        if not isinstance(key, str) or normalize_name(key) not in {normalize_name(p) for p in players}:
            given = [value] if isinstance(value, str) else value if isinstance(value, list) else []
            named = [p for p in players if any(isinstance(v, str) and normalize_name(v) == normalize_name(p)
                                               for v in given)]
            turned = f'; written the other way round? write "{named[0]}" = ["{key}"]' if named else ""
            raise r.fail(where, f"unknown player {key!r}: an alias is listed under the roster name it belongs to "
                                f"(players are: {', '.join(players)}){turned}")
        player = player_of(key, where)
        names = [value] if isinstance(value, str) else value
        if not isinstance(names, list) or not names:
            raise r.fail(where, f'expected a forum name or a list of them, like "{key}" = ["{key}新名"], got {value!r}')
        kept: list[str] = []
        for i, name in enumerate(names):
            if not isinstance(name, str) or not normalize_name(name):
                raise r.fail(f"{where}[{i}]", f"expected a forum username, got {name!r}")
            k = normalize_name(name)
            if k in taken:
                raise r.fail(where, f"{name!r} is {taken[k]}; an alias is another account's name, never a name of "
                                    "the roster or a director (posts under it could not be told apart)")
            if k in seen:
                again = "listed twice" if seen[k] == player else f"already an alias of {seen[k]!r}"
                raise r.fail(where, f"the alias {name!r} is {again}: one account's posts count for one player")
            seen[k] = player
            kept.append(display_name(name))
        out[player] = out.get(player, ()) + tuple(kept)
    return out


def load_game(path: str | os.PathLike) -> Game:
    """Read and check a game file."""
    p = Path(path)
    if not p.is_file():
        raise GameFileError(str(p), None, "no such game file")
    text = read_utf8(p, lambda reason: GameFileError(str(p), None, reason))
    return parse_game(text, p)


def lock_start(day: Day, minutes: int) -> datetime:
    """When the change lock begins: `minutes` before the day closes."""
    return day.closes - timedelta(minutes=minutes)
