"""`daoyan init`: a game file from the forum, every value commented with where it came from.

From a forum root, a board or any thread of the game: list the board (page by page), keep the
threads whose subjects carry the game's tag and a role word (讨论帖/投票帖/进程帖/神父推举帖/规则帖),
read each one's first page (the opening time, the director's 关门时间, the 公示 of events, the
authors), derive the ruleset from the rules thread, and write the game file. Run again on the
same file, it adds what is new (days, threads, event suggestions) and keeps every line the
director wrote or edited (tomlkit keeps the file as it is).
"""
from __future__ import annotations

import asyncio
import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit, urlunsplit
from zoneinfo import ZoneInfo

import tomlkit
from tomlkit.items import AoT, Table

from engine.schedule import rule_close_date
from gamedef.errors import DaoyanError, ForumError, LoginRequired, PageFormatError, RulesetError, ThreadMissing
from gamedef.gamefile import Day
from gamedef.ruleset import Ruleset, ScheduleRules, load_ruleset
from parsers.board import BoardThread, parse_board_page, parse_index_boards
from parsers.discuz import parse_thread_page
from parsers.game_threads import Announced, announcements, classify, close_time_in, same_tag, tag_of
from parsers.models import Post
from scraper.client import ForumClient

from .derive import Derived, _one_line, derive, nearest_preset, to_toml, validated

MAX_BOARD_PAGES = 20
MAX_BOARDS = 30
RULES_PAGES = 5  # pages of a rule post read at most
ENOUGH_RULES = 8  # fields a rules thread must settle from its text before its ruleset is used


@dataclass
class FoundThread:
    tid: int
    subject: str
    role: str
    day: int | None
    words: str
    opener: str = ""
    opened: datetime | None = None
    posts: list[Post] = field(default_factory=list)  # its first page


@dataclass
class Suggestion:
    day: int
    event: Announced
    tid: int
    floor: int
    author: str
    at: datetime | None

    @property
    def key(self) -> str:
        return f"day={self.day} kind={self.event.kind}" + (f" player={self.event.player}" if self.event.player else "")


@dataclass
class Discovery:
    base_url: str
    fid: int | None
    board: str
    tag: str
    threads: list[FoundThread]
    rules: FoundThread | None
    directors: list[str]
    roster: list[str]
    logged_in: bool = False
    problems: list[str] = field(default_factory=list)


def split_url(url: str) -> tuple[str, dict[str, str]]:
    """(the forum root, the query) of any forum address: `http://h/bbs/forum.php?mod=viewthread&tid=7`
    → (`http://h/bbs/`, {mod: viewthread, tid: 7}); rewritten `thread-7-1-1.html` and `forum-2-1.html` too."""
    u = urlsplit(url.strip())
    if u.scheme not in ("http", "https") or not u.netloc:
        raise DaoyanError(f"{url!r}: expected the forum's address, a board's or a thread's (http://…)")
    q = {k: v[0] for k, v in parse_qs(u.query).items()}
    path = u.path or "/"
    leaf = path.rsplit("/", 1)[-1]
    m = re.fullmatch(r"thread-(\d+)-\d+-\d+\.html", leaf)
    if m:
        q.setdefault("tid", m.group(1))
    m = re.fullmatch(r"forum-(\d+)-\d+\.html", leaf)
    if m:
        q.setdefault("fid", m.group(1))
    if "." in leaf or leaf.startswith(("thread-", "forum-")):
        path = path[: len(path) - len(leaf)]
    if not path.endswith("/"):
        path += "/"
    return urlunsplit((u.scheme, u.netloc, path, "", "")), q


async def _board(client: ForumClient, fid: int, pages: int = MAX_BOARD_PAGES) -> tuple[str, list[BoardThread]]:
    name, threads = "", []
    page = 1
    for _ in range(pages):
        params: dict[str, Any] = {"mod": "forumdisplay", "fid": fid}
        if page > 1:
            params["page"] = page
        f = await client.get("forum.php", params)
        if f.status >= 400:
            raise ForumError(f"board fid {fid}: the forum answered HTTP {f.status}")
        bp = parse_board_page(f.text)
        if bp.notice and not bp.threads:
            if page == 1:
                hint = "" if client.logged_in else " (log in: --user NAME and the password in DAOYAN_PASSWORD)"
                raise ForumError(f"board fid {fid}: the forum says {bp.notice!r}{hint}")
            break
        name = name or bp.name
        threads += [t for t in bp.threads if t.tid not in {x.tid for x in threads}]
        if not bp.next_page or bp.next_page <= page:
            break
        page = bp.next_page
    return name, threads


def _tag_from(threads: list[BoardThread]) -> str | None:
    tags = Counter(tag_of(t.subject) for t in threads if tag_of(t.subject) and classify(t.subject))
    return tags.most_common(1)[0][0] if tags else None


async def discover(client: ForumClient, url: str, tag: str | None, tz: ZoneInfo) -> Discovery:
    base, q = split_url(url)
    fid = int(q["fid"]) if q.get("fid", "").isdigit() else None
    if q.get("tid", "").isdigit():
        f = await client.thread_page(int(q["tid"]))
        tp = parse_thread_page(f.text, tz=tz, tid_hint=int(q["tid"]), what=f"thread {q['tid']}")
        fid = fid or tp.fid
        tag = tag or tag_of(tp.subject)
        if fid is None:
            raise ForumError(f"thread {q['tid']}: its page names no board (fid)")
    if fid is None:  # the forum root: the board holding the game's threads
        f = await client.get("forum.php")
        best: tuple[int, int] | None = None
        for bfid, _ in parse_index_boards(f.text)[:MAX_BOARDS]:
            try:  # the first page of each board is enough to choose
                _, listed = await _board(client, bfid, pages=1)
            except ForumError:
                continue
            mine = [t for t in listed if classify(t.subject) and (tag is None or same_tag(tag_of(t.subject) or "", tag))]
            if mine and (best is None or len(mine) > best[0]):
                best = (len(mine), bfid)
        if best is None:
            raise DaoyanError(f"{url}: no board of this forum lists game threads"
                              + (f" tagged {tag}" if tag else "") + "; give a board's or a thread's address")
        fid = best[1]
    board, listed = await _board(client, fid)
    tag = tag or _tag_from(listed)
    if not tag:
        raise DaoyanError(f"board fid {fid}: no thread subject carries a game tag like [M84]; give one with --tag")
    found: list[FoundThread] = []
    for t in listed:
        role = classify(t.subject)
        if role and same_tag(tag_of(t.subject) or "", tag):
            found.append(FoundThread(t.tid, t.subject, role.role, role.day, role.words, opener=t.author))
    if not found:
        raise DaoyanError(f"board {board or fid}: no thread tagged {tag} with a role word (讨论帖, 投票帖 …)")
    found.sort(key=lambda x: x.tid)

    problems: list[str] = []

    async def first_page(ft: FoundThread) -> None:
        f = await client.thread_page(ft.tid)
        try:
            tp = parse_thread_page(f.text, tz=tz, tid_hint=ft.tid, what=f"thread {ft.tid} ({ft.subject})")
        except (ThreadMissing, PageFormatError) as e:  # one unreadable thread does not stop the others
            problems.append(f"{e}; its times and authors are not read")
            return
        ft.posts = tp.posts
        if tp.posts and tp.posts[0].floor == 1:
            ft.opener = tp.posts[0].author or ft.opener
            ft.opened = tp.posts[0].posted_at
        # a rule post longer than a page: read on while every floor is still the opener's
        page = tp.page
        while ft.role == "rules" and page < min(tp.last_page, RULES_PAGES) and ft.posts \
                and all(p.author == ft.opener for p in ft.posts):
            page += 1
            f = await client.thread_page(ft.tid, page)
            more = parse_thread_page(f.text, tz=tz, tid_hint=ft.tid, what=f"thread {ft.tid} page {page}")
            if more.page != page:
                break
            ft.posts += [p for p in more.posts if p.floor > ft.posts[-1].floor]

    results = await asyncio.gather(*(first_page(ft) for ft in found), return_exceptions=True)
    failed = next((r for r in results if isinstance(r, BaseException)), None)
    if failed is not None:
        raise failed
    rules = next((ft for ft in found if ft.role == "rules"), None)
    threads = [ft for ft in found if ft.role != "rules"]
    openers = Counter(ft.opener for ft in found if ft.opener)
    directors = [d for d, _ in openers.most_common()]
    roster: list[str] = []
    for ft in threads:
        for p in ft.posts:
            if p.author and p.author not in directors and p.author not in roster:
                roster.append(p.author)
    return Discovery(base, fid, board, tag, threads, rules, directors, roster, client.logged_in, problems)


# ---------------------------------------------------------------------------- the days

@dataclass
class DayPlan:
    number: int
    tids: dict[str, FoundThread]
    opens: datetime | None
    opens_from: str
    closes: datetime | None
    closes_from: str
    guess: bool


def guess_close(opens: datetime, s: ScheduleRules, number: int) -> tuple[datetime, str] | None:
    """The close a ruleset's day length implies, or None when it says none."""
    if s.day_hours:
        return opens + timedelta(hours=s.day_hours), f"the rule post's day length ({s.day_hours:g} hours)"
    if not s.length_days:
        return None
    # the date as `daoyan votes` checks a close against the rule post (engine.schedule), so the two agree
    probe = Day(number=number, discussion_tid=1, vote_tid=1, opens=opens, closes=opens + timedelta(seconds=1))
    last = rule_close_date(probe, s)
    assert last is not None
    why = f"the rule post's day length ({s.length_days} calendar day{'s' if s.length_days > 1 else ''}"
    if last > opens.date() + timedelta(days=s.length_days - 1):
        why += f", +{s.weekend_extra_days} for the weekend"
    hh, mm = (int(x) for x in (s.close_time or "22:00").split(":"))
    why += f", closing at {s.close_time})" if s.close_time else "; the hour 22:00 is a guess)"
    return datetime(last.year, last.month, last.day, hh, mm, tzinfo=opens.tzinfo), why


def plan_days(d: Discovery, ruleset: Ruleset) -> tuple[list[DayPlan], list[str]]:
    """Days with their threads and times; the notes say what could not be placed."""
    notes: list[str] = list(d.problems)
    by_day: dict[int, dict[str, FoundThread]] = {}
    for ft in d.threads:
        day = ft.day
        if day is None and ft.role == "election":
            day = ruleset.election.day or 1
        if day is None:
            notes.append(f"tid {ft.tid} 「{ft.subject}」: no day in the subject; add it to a [[day]] by hand")
            continue
        slot = by_day.setdefault(day, {})
        if ft.role in slot:
            notes.append(f"tid {ft.tid} 「{ft.subject}」: a second {ft.role} thread for day {day} "
                         f"(kept tid {slot[ft.role].tid})")
            continue
        slot[ft.role] = ft
    plans: list[DayPlan] = []
    for n in sorted(by_day):
        tids = by_day[n]
        if "discussion" not in tids or "vote" not in tids:
            have = ", ".join(f"{r} tid {t.tid}" for r, t in tids.items())
            notes.append(f"day {n}: {have}; no {'discussion' if 'discussion' not in tids else 'vote'} thread yet "
                         "(run `daoyan init` again once it is opened)")
            continue
        main = tids["discussion"]
        opens, opens_from = main.opened, f"floor 1 of tid {main.tid} ({main.opener})"
        if opens is None:
            first = min((t for t in tids.values() if t.opened), key=lambda t: t.opened, default=None)  # type: ignore[arg-type, return-value]
            opens = first.opened if first else None
            opens_from = f"floor 1 of tid {first.tid}" if first else "not found"
        closes, closes_from, guess = None, "", False
        for t in (tids["discussion"], tids["vote"]):
            if t.posts and t.posts[0].floor == 1 and opens is not None:
                hit = close_time_in(t.posts[0].text, opens)
                if hit and hit[0] > opens:
                    closes, closes_from = hit[0], f"「{hit[1]}」 in floor 1 of tid {t.tid}"
                    break
        if closes is None and opens is not None:
            g = guess_close(opens, ruleset.schedule, n)
            if g:
                closes, closes_from, guess = g[0], f"a GUESS from {g[1]}: check it", True
            else:
                closes, closes_from, guess = opens + timedelta(days=1), \
                    "a GUESS (no 关门时间 in the opening post, no day length in the rules): set it", True
        plans.append(DayPlan(n, tids, opens, opens_from, closes, closes_from, guess))
    return plans, notes


def suggestions(d: Discovery) -> list[Suggestion]:
    """Events the directors announced on the threads' first pages (公示), as suggestions."""
    out: list[Suggestion] = []
    seen: set[str] = set()
    for ft in sorted(d.threads, key=lambda t: (t.day or 0, t.tid)):
        if ft.day is None:
            continue
        for p in ft.posts:
            if p.author not in d.directors:
                continue
            for a in announcements(p.text, d.roster):
                s = Suggestion(ft.day, a, ft.tid, p.floor, p.author, p.posted_at)
                if s.key not in seen:
                    seen.add(s.key)
                    out.append(s)
    return out


# ---------------------------------------------------------------------------- the ruleset

def rules_text(d: Discovery) -> list[str]:
    """The rule post: the rules thread's first floors by its opener or a director."""
    if d.rules is None:
        return []
    floors = []
    for p in d.rules.posts:
        if p.author not in {d.rules.opener, *d.directors}:
            break
        floors.append(p.text)
    return floors


def choose_ruleset(d: Discovery, out: Path) -> tuple[str, str, Derived | None]:
    """(the game file's ruleset value, its comment, the derived ruleset to write or None)."""
    floors = rules_text(d)
    if not floors:
        preset = "m84" if any(t.role == "election" for t in d.threads) else "004"
        return preset, (f"no rules thread found: preset {preset} assumed (the board "
                        f"{'has' if preset == 'm84' else 'has no'} election thread); set yours"), None
    der = derive(floors, None, title=d.rules.subject if d.rules else None)
    settled = sum(1 for f in der.sources.values() if f.how in ("text", "inferred") and f.field not in ("cite", "title"))
    if settled < ENOUGH_RULES:
        preset = nearest_preset(der.reading, stated_only=True, elects=any(t.role == "election" for t in d.threads))
        return preset, (f"the rules thread (tid {d.rules.tid if d.rules else '?'}) settles only {settled} rule(s); "
                          f"the nearest preset {preset} is used: derive from the full rule post if it is elsewhere"), None
    try:
        validated(der)
    except RulesetError as e:
        return der.base, f"the rules thread's ruleset does not load ({e}); preset {der.base} used", None
    name = out.with_suffix("").name + ".ruleset.toml"
    return name, (f"derived from the rules thread (tid {d.rules.tid if d.rules else '?'}): {settled} rules read "
                  f"from its text, the rest from {der.base}; see {name}"), der


# ------------------------------------------------------------------------------- writing

def _local(t: datetime, tz: ZoneInfo) -> datetime:
    return t.astimezone(tz).replace(tzinfo=None, microsecond=0)


def _c(value: Any, comment: str) -> Any:
    return tomlkit.item(value).comment(_one_line(comment))


def _day_table(p: DayPlan, tz: ZoneInfo) -> Table:
    t = tomlkit.table()
    t.add("number", _c(p.number, "day " + str(p.number) + " of the subjects (" + p.tids["discussion"].words + ")"))
    for role in ("discussion", "vote", "progress", "election"):
        ft = p.tids.get(role)
        if ft is not None:
            t.add(f"{role}_tid", _c(ft.tid, f"「{ft.subject}」 opened by {ft.opener}"))
    if p.opens is not None:
        t.add("opens", _c(_local(p.opens, tz), p.opens_from))
    if p.closes is not None:
        t.add("closes", _c(_local(p.closes, tz), p.closes_from))
    return t


def _suggestion_lines(s: Suggestion, tz: ZoneInfo) -> list[str]:
    when = f", {_local(s.at, tz):%Y-%m-%d %H:%M}" if s.at else ""
    lines = [f"suggested: {s.key} — 「{s.event.words}」 (tid {s.tid} floor {s.floor}, {s.author}{when});"
             " remove the # of the lines below to use it",
             "[[event]]", f"day = {s.day}", f'kind = "{s.event.kind}"']
    if s.event.player:
        lines.append(f"player = {tomlkit.item(s.event.player).as_string()}")
    if s.event.reason:
        lines.append(f'reason = "{s.event.reason}"')
    if s.floor > 1 and s.at is not None:  # announced during the day: in force from then
        lines.append(f"at = {_local(s.at, tz).isoformat()}")
    return lines


def write_new(d: Discovery, plans: list[DayPlan], notes: list[str], sugg: list[Suggestion], ruleset: tuple[str, str],
              tz: ZoneInfo, login_env: tuple[str, str] | None, url: str) -> str:
    doc = tomlkit.document()
    doc.add(tomlkit.comment(f"Game file written by `daoyan init {url}`: every value says where it came from."))
    doc.add(tomlkit.comment("Check the players, the closing times marked GUESS and the suggested events below."))
    doc.add(tomlkit.comment("Running `daoyan init` again adds new days and suggestions and keeps what you edited."))
    forum = tomlkit.table()
    forum.add("base_url", _c(d.base_url, f"the root of {url}"))
    if login_env:
        lg = tomlkit.table()
        lg.add("username_env", _c(login_env[0], "init logged in; the name and the password stay in the environment"))
        lg.add("password_env", _c(login_env[1], "never written in this file"))
        forum.add("login", lg)
    doc.add("forum", forum)
    game = tomlkit.table()
    game.add("name", _c(d.tag, f"the tag of the game's thread subjects on board {d.board or d.fid}"))
    game.add("ruleset", _c(ruleset[0], ruleset[1]))
    game.add("timezone", _c(str(tz), "the forum's display time zone (the times below are read in it)"))
    players = d.roster or ["?"]
    game.add("players", _c(players, "who replied on the threads' first pages and opened none: CONFIRM (spectators? "
                                    "players who had not posted yet?)"))
    game.add("directors", _c(d.directors, "who opened the game's threads"))
    if d.rules is not None:
        game.add("rules_tid", _c(d.rules.tid, f"「{d.rules.subject}」 opened by {d.rules.opener}"))
    doc.add("game", game)
    if plans:
        aot = tomlkit.aot()
        for p in plans:
            aot.append(_day_table(p, tz))
        doc.add("day", aot)
    _append_notes(doc, notes, sugg, tz, set())
    return tomlkit.dumps(doc)


def _append_notes(doc: Any, notes: list[str], sugg: list[Suggestion], tz: ZoneInfo, known: set[str]) -> int:
    added = 0
    for n in notes:
        line = _one_line(f"init: {n}")
        if line not in known:
            doc.add(tomlkit.comment(line))
            known.add(line)
    for s in sugg:
        if any(s.key in k for k in known):
            continue
        doc.add(tomlkit.nl())
        for line in _suggestion_lines(s, tz):
            doc.add(tomlkit.comment(_one_line(line)))
        known.add(s.key)
        added += 1
    return added


def merge(existing: str, d: Discovery, plans: list[DayPlan], notes: list[str], sugg: list[Suggestion],
          tz: ZoneInfo, path: Path) -> tuple[str, list[str], int]:
    """The existing game file with what is new added; every line already there stays as it is."""
    try:
        doc = tomlkit.parse(existing)
    except Exception as e:  # tomlkit raises its own ParseError subclasses
        raise DaoyanError(f"{path}: not valid TOML ({e}); fix it or write to another --out") from None
    said: list[str] = []
    game = doc.get("game")
    if game is None or not isinstance(game, Table):
        raise DaoyanError(f"{path}: no [game] table; not a game file (write to another --out)")
    if d.rules is not None and "rules_tid" not in game:
        game.add("rules_tid", _c(d.rules.tid, f"「{d.rules.subject}」 opened by {d.rules.opener} (added by init)"))
        said.append(f"rules_tid {d.rules.tid}")
    days = doc.get("day")
    if days is None:
        days = tomlkit.aot()
        doc.add("day", days)
    if not isinstance(days, AoT):
        raise DaoyanError(f"{path}: `day` is not an array of [[day]] tables")
    have = {int(t["number"]): t for t in days if isinstance(t.get("number"), int)}
    for p in plans:
        if p.number not in have:
            days.append(_day_table(p, tz))
            said.append(f"day {p.number}")
            continue
        t = have[p.number]
        for role in ("progress", "election"):
            ft = p.tids.get(role)
            if ft is not None and f"{role}_tid" not in t:
                t.add(f"{role}_tid", _c(ft.tid, f"「{ft.subject}」 opened by {ft.opener} (added by init)"))
                said.append(f"day {p.number} {role}_tid {ft.tid}")
    players = [str(x) for x in game.get("players", [])] + [str(x) for x in game.get("directors", [])]
    new_authors = [a for a in d.roster if a not in players]
    known = set(line.lstrip("# ").rstrip() for line in existing.splitlines() if line.lstrip().startswith("#"))
    for e in doc.get("event", []):
        if not isinstance(e, dict):
            continue
        known.add(f"day={e.get('day')} kind={e.get('kind')}" + (f" player={e.get('player')}" if e.get("player") else ""))
    if new_authors:
        notes = notes + [f"authors not in players or directors: {', '.join(new_authors)} (add them if they play)"]
    n = _append_notes(doc, notes, sugg, tz, known)
    if n:
        said.append(f"{n} event suggestion(s)")
    return tomlkit.dumps(doc), said, n


@dataclass
class InitResult:
    path: Path
    created: bool
    days: list[int]
    said: list[str]
    notes: list[str]
    suggestions: int
    ruleset: str
    ruleset_file: Path | None


async def _run(url: str, tag: str | None, tz: ZoneInfo, user: str | None, password: str | None,
               transport: Any = None) -> Discovery:
    base, _ = split_url(url)
    async with ForumClient(base, transport=transport) as client:
        if user and password:
            await client.login(user, password)
        try:
            return await discover(client, url, tag, tz)
        except LoginRequired as e:
            if client.logged_in:
                raise
            raise LoginRequired(f"{str(e).split(';')[0]}; log in: --user NAME with the password in DAOYAN_PASSWORD") from None


def init_game(url: str, out: Path, *, tag: str | None = None, timezone: str = "Asia/Shanghai",
              user: str | None = None, password: str | None = None,
              login_env: tuple[str, str] = ("DAOYAN_USER", "DAOYAN_PASSWORD"), transport: Any = None) -> InitResult:
    try:
        tz = ZoneInfo(timezone)
    except Exception:
        raise DaoyanError(f"--timezone: unknown time zone {timezone!r}; expected one like Asia/Shanghai") from None
    existing = None
    if out.exists():
        try:
            existing = out.read_text("utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise DaoyanError(f"{out}: cannot read it to add to it ({e})") from None
    d = asyncio.run(_run(url, tag, tz, user, password, transport))
    if existing is not None:
        _add_stored_floors(d, out)
    rs_value, rs_comment, derived = choose_ruleset(d, out)
    ruleset = _ruleset_for(existing, out, rs_value, derived)
    plans, notes = plan_days(d, ruleset)
    sugg = suggestions(d)
    rs_file = None
    if existing is None:
        text = write_new(d, plans, notes, sugg, (rs_value, rs_comment), tz, login_env if user else None, url)
        said = [f"day {p.number}" for p in plans]
        added = len(sugg)
    else:
        text, said, added = merge(existing, d, plans, notes, sugg, tz, out)
    if derived is not None and not (out.parent / rs_value).exists():
        rs_file = out.parent / rs_value
        _write(rs_file, to_toml(derived))
    _write(out, text)
    return InitResult(out, existing is None, [p.number for p in plans], said, notes, added, rs_value, rs_file)


def _add_stored_floors(d: Discovery, out: Path) -> None:
    """On a re-run of a scanned game, the directors' later floors too (a 公示 of acceleration or of a
    mid-day 出局 is rarely on the first page): from the game's store, never from more requests."""
    from gamedef.gamefile import load_game

    from .store import Store

    try:
        game = load_game(out)
    except DaoyanError:
        return
    if not game.store_path.exists():
        return
    try:
        with Store(game.store_path) as store:
            for ft in d.threads:
                stored = store.posts(ft.tid)
                if stored:
                    seen = {p.pid for p in ft.posts}
                    ft.posts = sorted(ft.posts + [p for p in stored if p.pid not in seen], key=lambda p: p.floor)
                    d.roster += [a for a in dict.fromkeys(p.author for p in stored)
                                 if a and a not in d.directors and a not in d.roster]
    except DaoyanError:
        return


def _ruleset_for(existing: str | None, out: Path, value: str, derived: Derived | None) -> Ruleset:
    """The ruleset the days are planned with: the file's own on a re-run, else the chosen one."""
    if existing is not None:
        try:
            spec = tomlkit.parse(existing).get("game", {}).get("ruleset")
            if spec:
                return load_ruleset(str(spec), out.parent)
        except Exception:
            pass
    if derived is not None:
        return validated(derived)
    return load_ruleset(value)


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(text, "utf-8")
        tmp.replace(path)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise DaoyanError(f"{path}: cannot write: {e.strerror}; nothing changed") from None
