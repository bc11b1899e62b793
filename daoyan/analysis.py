"""One day of a game, read from the store: votes, election, activity, penalties, flags, cards.

The commands and reports all start here, so every view of a day agrees: the same count, the
same posts, the same flags. The engine does the arithmetic; this module only gathers its inputs
(posts per thread, revisions, events, the days before for multi-day lurking) and its outputs.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any

from engine.acceleration import Acceleration, acceleration
from engine.activity import ROLE_NAMES, DayActivity, activity_json, count_activity, deleted_post_warnings, water_heavy
from engine.cards import CardEntry, Ledger, entries_from_penalties, entry_from_manual, ledger, red_moments
from engine.election import Election, elect_priest
from engine.lurking import Penalty, day_record, lurking_penalties
from engine.schedule import check_close, opening_post_close
from engine.state import DayState, out_during, state_at, state_at_moment
from engine.votes import (VoteCount, count_votes, deleted_ballot_warnings, only_invalid_warnings,
                          voter_statuses, wrong_thread_warnings)
from parsers.models import Post

from gamedef.gamefile import Event, Game
from gamedef.ruleset import PRESETS, load_ruleset
from gamedef.names import normalize_name
from gamedef.errors import StoreError
from .ownership import require_scanned
from .store import Store


@dataclass
class DayAnalysis:
    game: Game
    day: int
    at: datetime
    state: DayState
    votes: VoteCount
    election: Election | None
    activity: DayActivity
    acceleration: Acceleration
    penalties: list[Penalty]
    flags: list[dict[str, Any]] = field(default_factory=list)
    ledger: Ledger | None = None
    posts: dict[str, list[Post]] = field(default_factory=dict)
    history: list[Any] = field(default_factory=list)  # DayRecord of this day and the days before
    card_entries: list[CardEntry] = field(default_factory=list)
    warnings: list[dict[str, Any]] = field(default_factory=list)  # e.g. a close time the rule post disagrees with
    seen_until: datetime | None = None  # the oldest last read of the day's threads: posts after it are unseen
    rules_subject: str = ""  # the subject of the game's scanned rule thread (规则帖), if any
    sent_off: dict[str, datetime] = field(default_factory=dict)  # taken out by a red card mid-day (004)

    @property
    def provisional(self) -> bool:
        """Counts as of a moment before close, or from threads last read before close, or from a
        store that may miss posts the forum showed (`stale_scan`), can still change."""
        closes = self.game.day(self.day).closes
        return self.at < closes or self.seen_until is None or self.seen_until < closes \
            or any(w.get("kind") == "stale_scan" for w in self.warnings)

    @property
    def stale(self) -> list[dict[str, Any]]:
        """The warnings that the day's counts may miss posts (printed before any count)."""
        return [w for w in self.warnings if w.get("kind") == "stale_scan"]

    @property
    def count_warnings(self) -> list[dict[str, Any]]:
        """The warnings a count or a card list may be wrong by: `stale_scan` (the store may miss posts)
        and `unknown_account` (a player's posts may sit under a name the roster does not know)."""
        return [w for w in self.warnings if w.get("kind") in ("stale_scan", "unknown_account")]

    @property
    def unsure_players(self) -> dict[str, str]:
        """Players whose lurking cards are provisional whatever the hour, with why (`unknown_account`)."""
        return {w["player"]: w["message"] for w in self.warnings if w.get("kind") == "unknown_account" and w.get("player")}

    def cards_json(self) -> dict[str, Any]:
        """The ledger, its lurking cards for an `unsure_players` player marked provisional."""
        data = self.ledger.to_json() if self.ledger else {}
        unsure = self.unsure_players
        players = data.get("players") or []
        for p in (players.values() if isinstance(players, dict) else players):
            if p.get("player") in unsure:
                for e in p.get("entries") or []:
                    if e.get("source") == "lurking":
                        e["provisional"] = True
                        e["provisional_why"] = "unknown_account"
        return data

    def votes_json(self) -> dict[str, Any]:
        d = self.votes.to_json()
        d["provisional"] = self.provisional
        d["seen_until"] = self.seen_until.isoformat() if self.seen_until else None
        d["acceleration"] = self.acceleration.to_json()  # every progress-thread post and how it was read
        d["readings"] = self.game.ruleset.readings()
        d["warnings"] = list(self.warnings)
        if self.election is not None:
            d["election"] = self.election.to_json()
        return d

    def activity_json(self) -> dict[str, Any]:
        status = voter_statuses(self.votes, [p.player for p in self.activity.players])
        d = activity_json(self.activity, self.penalties, [p for p, st in status.items() if st.voted],
                          self.acceleration, vote_status=status)
        d["readings"] = self.game.ruleset.readings()
        final = not self.provisional  # a lurking card needs the whole day, read after close
        d["penalties_final"] = final
        unsure = self.unsure_players
        for p in d["penalties"]:
            p["provisional"] = not final or p.get("player") in unsure
            if p.get("player") in unsure:  # final by the clock, not by the roster: see the warning
                p["provisional_why"] = "unknown_account"
        d["warnings"] = [w for w in self.warnings if w.get("kind") in ("stale_scan", "deleted_post", "unknown_account")]
        return d

    def reminder(self) -> Any:
        from engine.remind import reminders

        return reminders(ruleset=self.game.ruleset, day=self.game.day(self.day), at=self.at, activity=self.activity,
                         not_voted=self.votes.not_voted, only_invalid=self.votes.only_invalid, history=self.history,
                         accelerated=self.acceleration.accelerated)

    def flags_json(self) -> dict[str, Any]:
        return {"day": self.day, "flags": self.flags}

    def to_dict(self) -> dict[str, Any]:
        """Everything as plain data: the input of every report."""
        g, d = self.game, self.game.day(self.day)
        return {
            "game": {"name": game_name(g, self.rules_subject), "ruleset": g.ruleset.name, "cite": g.ruleset.cite,
                     "base_url": g.forum.base_url, "timezone": str(g.timezone), "players": list(g.players),
                     "directors": list(g.directors)},
            "day": self.day, "opens": d.opens.isoformat(), "closes": d.closes.isoformat(),
            "at": self.at.isoformat(), "generated_at": datetime.now(timezone.utc).astimezone(g.timezone).isoformat(),
            "threads": d.tids,
            "state": {"living": list(self.state.living), "out": list(self.state.out), "priest": self.votes.priest,
                      "whistled": list(self.state.whistled)},
            "provisional": self.provisional,
            "seen_until": self.seen_until.isoformat() if self.seen_until else None,
            "votes": self.votes_json(),
            "election": self.election.to_json() if self.election else None,
            "activity": self.activity_json(),
            "flags": self.flags,
            "cards": self.cards_json() if self.ledger else None,
            "readings": self.game.ruleset.readings(),
            "warnings": list(self.warnings),
        }


def _posts_by_role(game: Game, store: Store, day: int) -> dict[str, list[Post]]:
    require_scanned(store, game, day)
    return {role: roster_posts(game, store, tid) for role, tid in game.day(day).tids.items()}


def roster_posts(game: Game, store: Store, tid: int) -> list[Post]:
    """A thread's stored posts, each under the roster name of its player: a renamed account's (by
    uid) and those of an account the game file names in `[game] aliases` (by name)."""
    return as_roster(store.posts(tid), renamed_accounts(game, store), game.alias_names())


def renamed_accounts(game: Game, store: Store) -> dict[int, str]:
    """uid → the roster (or director) name of an account the forum now shows under another name.
    The role account is the player (GLOSSARY: the forum username of a role account is the player's
    name in the game), so a rename on the forum must not turn the player into a stranger. A uid
    seen under two roster names is left alone (two roles, one account: the director's to judge).
    A name the game file lists in `[game] aliases` is its player's already: no rename to report."""
    known = {normalize_name(n): n for n in game.players + game.directors}
    known.update(game.alias_names())
    out: dict[int, str] = {}
    for uid, names in store.member_names().items():
        ours = {known[normalize_name(n)] for n in names if normalize_name(n) in known}
        others = [n for n in names if normalize_name(n) not in known]
        if len(ours) == 1 and others:
            out[uid] = next(iter(ours))
    return out


def as_roster(posts: list[Post], names: dict[int, str], by_name: dict[str, str] | None = None) -> list[Post]:
    """The posts with a renamed account's posts (uid → roster name) and an alias's posts (normalised
    name → roster name, the game file's `[game] aliases`) under the roster name."""
    if not names and not by_name:
        return posts
    by_name = by_name or {}
    out = []
    for p in posts:
        name = names.get(p.uid) if p.uid is not None else None
        if name is None and by_name:
            name = by_name.get(normalize_name(p.author))
        out.append(dataclasses.replace(p, author=name) if name is not None and p.author != name else p)
    return out


def account_aliases(game: Game, store: Store) -> tuple[tuple[str, str], ...]:
    """(another name of a player's account, its roster name): a ballot naming the account by that
    name is a ballot for the player. The names the forum showed for a renamed account, and the
    game file's `[game] aliases`."""
    members = store.member_names()
    known = {normalize_name(n) for n in game.players + game.directors}
    declared = tuple((a, p) for p, names in game.aliases.items() for a in names)
    have = {normalize_name(a) for a, _ in declared}
    return declared + tuple((n, name) for uid, name in sorted(renamed_accounts(game, store).items())
                            for n in members.get(uid, []) if normalize_name(n) not in known | have)


def rename_warnings(game: Game, store: Store) -> list[dict[str, Any]]:
    """One warning per renamed account: which roster name its posts are counted under."""
    out = []
    members = store.member_names()
    for uid, name in sorted(renamed_accounts(game, store).items()):
        now = [n for n in members.get(uid, []) if normalize_name(n) != normalize_name(name)]
        out.append({"kind": "renamed_account", "player": name, "uid": uid, "names": now,
                    "message": f"论坛帐号 uid {uid} 以前叫{name}，现在显示为{'、'.join(now)}（论坛改了用户名）："
                               f"这个帐号的帖子和票都按{name}计，投票对象写新名字的票也算投{name}；"
                               f"若要以新名字为准，请改游戏文件的名单。"})
    return out


def unknown_account_warnings(game: Game, day: int, by_role: dict[str, list[Post]], st: DayState
                             ) -> list[dict[str, Any]]:
    """A warning (`unknown_account`) for each rostered player with no post at all in the day's threads
    while an account that is neither on the roster nor a director posts there: most likely the player's
    role account, renamed on the forum before daoyan's first scan (the store never saw the old name,
    so the uid cannot tie the two). Both are named; the player's lurking cards are provisional until
    the director says which account is whose."""
    d = game.day(day)
    known = {normalize_name(n) for n in (*game.players, *game.directors)} | set(game.alias_names())
    posted: set[str] = set()
    strangers: dict[str, dict[str, Any]] = {}
    seen: set[tuple[int, int]] = set()
    for role, posts in by_role.items():
        for p in posts:
            if (p.tid, p.pid) in seen or p.posted_at is None or not (d.opens <= p.posted_at <= d.closes):
                continue
            seen.add((p.tid, p.pid))
            key = normalize_name(p.author)
            if key in known:
                posted.add(key)
                continue
            acc = strangers.setdefault(key, {"name": p.author, "uid": p.uid, "posts": 0, "threads": {}})
            acc["posts"] += 1
            where = ROLE_NAMES.get(role, role)
            acc["threads"][where] = acc["threads"].get(where, 0) + 1
    silent = [n for n in st.living if normalize_name(n) not in posted]
    if not silent or not strangers:
        return []
    accounts = sorted(strangers.values(), key=lambda a: (-a["posts"], a["name"]))
    named = "、".join(f"{a['name']}" + (f"（uid {a['uid']}）" if a["uid"] is not None else "")
                     + "，" + "、".join(f"{w}{k}帖" for w, k in a["threads"].items()) for a in accounts)
    out = []
    for name in silent:
        out.append({"kind": "unknown_account", "day": day, "player": name,
                    "accounts": [{"name": a["name"], "uid": a["uid"], "posts": a["posts"]} for a in accounts],
                    "message": f"第{day}天名单上的{name}在本场的帖子里一帖也没有，而不在名单上、也不是导演的帐号在本场的帖子里发了帖："
                               f"{named}。可能是{name}的角色帐号在 daoyan 第一次扫描之前就在论坛改了名（店里从没见过旧名，"
                               f"按 uid 也对不上），或是导演允许{name}使用的另一个帐号，它的发帖和票都被当成了“不是本场玩家”。"
                               f"{name}的潜水判罚暂定，请导演核对；若确是{name}的帐号，请在游戏文件 [game] 里加上别名"
                               f"（aliases = {{ \"{name}\" = [\"{accounts[0]['name']}\"] }}），这个帐号的帖子和票就算{name}的，"
                               f"重新统计即可。"})
    return out


def priest_for(game: Game, store: Store, day: int) -> str | None:
    """The priest on `day`: a `priest` event wins; else the election of an earlier day decides."""
    st = state_at(game, day)
    if st.priest or not game.ruleset.election.enabled:
        return st.priest
    for d in game.days:
        if d.number < day and d.election_tid and d.number == game.ruleset.election.day:
            e = elect_priest(roster_posts(game, store, d.election_tid), rules=game.ruleset, day=d, state=state_at(game, d.number))
            winner = e.winner
            return winner if winner in st.living else None
    return None


def _one_day(game: Game, store: Store, day: int, at: datetime | None, *,
             ejected_before: dict[str, int] | None = None, ejected: dict[str, datetime | None] | None = None,
             sent_off: dict[str, datetime] | None = None
             ) -> tuple[DayState, VoteCount, Election | None, DayActivity, Acceleration, dict[str, list[Post]]]:
    d = game.day(day)
    st = state_at(game, day)
    gone = [p for p, n in (ejected_before or {}).items() if n < day and p in st.living]
    if gone:  # sent off by a red card on an earlier day (红牌罚下)
        st = dataclasses.replace(st, living=tuple(p for p in st.living if p not in gone), out=st.out + tuple(gone),
                                 whistled=tuple(w for w in st.whistled if w not in gone),
                                 priest=None if st.priest in gone else st.priest)
    aliases = account_aliases(game, store)
    if aliases:
        st = dataclasses.replace(st, aliases=aliases)
    mid = out_during(game, day)
    by_role = _posts_by_role(game, store, day)
    left = dict(mid)
    for p, t in (sent_off or {}).items():  # sent off mid-day before the vote (004): gone from then, as an out
        left[p] = min(t, left[p]) if p in left else t
    # 004 超过所有存活玩家的二分之一: a player sent off before the vote is not living from then
    acc = acceleration(by_role.get("progress", []), ruleset=game.ruleset, day=d, state=st, out_at=left, at=at)
    vote_posts = by_role.get("vote", [])
    revs = store.revisions(p.pid for p in vote_posts if p.edited)
    votes = count_votes(vote_posts, rules=game.ruleset, day=d, state=st, at=at, accelerated=acc.accelerated,
                        proxies=[p for p in game.proxies if p.day == day], revisions=revs,
                        priest=priest_for(game, store, day) or "", out_at=mid,
                        accelerated_since=acc.granted_at if acc.accelerated else None,
                        accelerated_window=acc.was_accelerated,
                        ejected={p: (t if t is not None else d.closes) for p, t in (ejected or {}).items()})
    election = None
    if d.election_tid and game.ruleset.election.enabled:
        election = elect_priest(by_role.get("election", []), rules=game.ruleset, day=d, state=st, at=at)
    act = count_activity(by_role, ruleset=game.ruleset, day=d, state=st, out_at=left, at=at)
    return st, votes, election, act, acc, by_role


def analyze_day(game: Game, store: Store, day: int, at: datetime | None = None, *, flags: bool = True) -> DayAnalysis:
    """The whole of `day` as of `at` (default: the day's close).

    Red cards are part of the count: a player whose first red comes on a day is counted per
    `cards.red_resolves` that day (004: out of the count; M84: counted, then sent off) and is out
    from the next day on."""
    d = game.day(day)
    history = []
    penalties: list[Penalty] = []
    entries: list[CardEntry] = []
    manual = [entry_from_manual(c, game.ruleset) for c in game.cards]
    flagged = accepted_flag_cards(store, game, day)
    ejected_on: dict[str, int] = {}
    inferred_outs: list[tuple[int, Event]] = []
    sent_off_today: dict[str, datetime] = {}
    result = None
    for earlier in game.days:
        if earlier.number > day:
            break
        when = at if earlier.number == day else None
        n = earlier.number
        st, votes, election, act, acc, by_role = _one_day(game, store, n, when, ejected_before=ejected_on)
        rec = day_record(act, accelerated=acc.accelerated, voted=votes.replied, whistled=st.whistled,
                         excused=st.excused)
        pens = lurking_penalties(history + [rec], ruleset=game.ruleset)
        today = entries + entries_from_penalties(pens, at=None) + [e for e in manual + flagged if e.day <= n]
        reds = red_moments(today, ruleset=game.ruleset, day=n)
        reds = {p: t for p, t in reds.items() if p in st.living and (when is None or t is None or t <= when)}
        if reds:
            # 004 (before_vote): a red with its own moment in the day takes the player out from then, so no
            # lurking card for the rest of the day; a red at the settlement (merged yellows) leaves the day as it was
            early = {p: t for p, t in reds.items() if t is not None and t < earlier.closes} \
                if game.ruleset.cards.red_resolves == "before_vote" else {}
            st, votes, election, act, acc, by_role = _one_day(game, store, n, when, ejected_before=ejected_on,
                                                              ejected=reds, sent_off=early)
            if n == day:
                sent_off_today = early
            if early:
                rec = day_record(act, accelerated=acc.accelerated, voted=votes.replied, whistled=st.whistled,
                                 excused=st.excused)
                pens = lurking_penalties(history + [rec], ruleset=game.ruleset)
        for p in reds:
            ejected_on.setdefault(p, n)
            sent = sent_off_event(game, n, p) if n < day else None
            if sent is not None:  # 红牌罚下: out of the game from the next day, in every view (诈尸 included)
                game = dataclasses.replace(game, events=game.events + (sent,))
        if n < day:
            inferred = vote_out_event(game, n, votes.outcome.out)
            if inferred is not None:  # DESIGN: votes decide who goes out by vote, unless an event says otherwise
                game = dataclasses.replace(game, events=game.events + (inferred,))
                inferred_outs.append((n, inferred))
        history.append(rec)
        entries += entries_from_penalties(pens)
        if n == day:
            penalties = pens
            result = (st, votes, election, act, acc, by_role)
    assert result is not None
    st, votes, election, act, acc, by_role = result
    a = DayAnalysis(game=game, day=day, at=at or d.closes, state=st, votes=votes, election=election, activity=act,
                    acceleration=acc, penalties=penalties, posts=by_role, history=history)
    a.seen_until = seen_until(store, d.tids.values(), game.timezone)
    a.sent_off = sent_off_today
    a.rules_subject = rules_subject(game, store)
    gone = {tid: gone_posts(store, tid, game.timezone) for tid in set(d.tids.values())}
    deleted_ballots = deleted_ballot_warnings(gone[d.vote_tid], rules=game.ruleset.vote,
                                              players=st.players, directors=game.directors, day=day)
    ballot_pids = {w["pid"] for w in deleted_ballots}
    gone_today = {p.pid: (role, p, when) for role, tid in d.tids.items()
                  for p, when in gone[tid] if p.pid not in ballot_pids}
    a.warnings = stale_warnings(a.seen_until, a.at, d.closes, day, thread_readings(store, d.tids, game.timezone)) \
        + close_warnings(game, day, by_role) + only_invalid_warnings(votes, game.ruleset.vote) \
        + deleted_ballots + deleted_post_warnings(list(gone_today.values()), ruleset=game.ruleset, day=d, state=st,
                                                  activity=act) \
        + wrong_thread_warnings([(role, p) for role in ("discussion", "progress") for p in by_role.get(role, [])],
                                rules=game.ruleset.vote, players=st.players, directors=game.directors, day=d)
    a.warnings += [vote_out_warning(n, ev) for n, ev in inferred_outs if ev.day == day]
    a.warnings += priest_warnings(game, store, day, votes.priest, st)
    a.warnings += event_day_warnings(game, day, votes)
    a.warnings += rename_warnings(game, store)
    a.warnings += unknown_account_warnings(game, day, by_role, st)
    if flags:
        a.flags = day_flags(game, store, day, by_role, act, sent_off=sent_off_today, acc=acc)
    entries += [e for e in manual if e.day <= day]
    entries += flagged
    a.ledger = ledger(entries, ruleset=game.ruleset, camps=game.camps)
    a.card_entries = entries
    return a


VOTE_REASONS = ("vote", "投票", "票")  # an `out` event whose reason says the vote decided it
INFERRED_REASON = "vote (counted by daoyan)"


_RULES_SUFFIX = re.compile(r"[\s·•\-—_:：|｜/]*(?:规则|規則)[帖贴貼]?\s*$")


def rules_subject(game: Game, store: Store) -> str:
    """The subject of the game's rule thread as scanned ("" when unknown)."""
    tid = game.rules_tid
    if tid is None:
        row = store.db.execute("select value from meta where key='rules_tid'").fetchone() \
            if store.db["meta"].exists() else None
        tid = int(row[0]) if row and str(row[0]).isdigit() else None
    t = store.thread(tid) if tid is not None else None
    return str((t or {}).get("subject") or "")


def game_name(game: Game, rules_subject: str = "") -> str:
    """The game's name for titles: the game file's `name`, else its rule thread's subject without
    the trailing 规则帖, else the ruleset's title unless that is a built-in preset's (a preset's title
    names the game its rules were taken from, not this one); "" when none is known."""
    if game.name:
        return game.name
    stripped = _RULES_SUFFIX.sub("", rules_subject).strip(" ·-—")
    if stripped:
        return stripped
    if game.ruleset.name in PRESETS and game.ruleset.title == load_ruleset(game.ruleset.name).title:
        return ""
    return game.ruleset.title


def vote_out_event(game: Game, day: int, out: str | None) -> Event | None:
    """The `out` event the count of `day` implies for the next configured day: DESIGN.md has the
    votes decide who goes out by vote unless an event says otherwise. None when nobody led, when
    there is no next day, when the game file already puts that player out, or when an `out` event
    of the next day already names who went out by vote (the director has said it)."""
    later = [d.number for d in game.days if d.number > day]
    if out is None or not later:
        return None
    nxt = min(later)
    for ev in game.events:
        if ev.kind != "out" or ev.day > nxt:
            continue
        if ev.player == out:
            return None
        if ev.day == nxt and ev.at is None and any(w in (ev.reason or "").lower() for w in VOTE_REASONS):
            return None
    return Event(day=nxt, kind="out", player=out, reason=INFERRED_REASON)


SENT_OFF_REASON = "red card (counted by daoyan)"


def sent_off_event(game: Game, day: int, player: str) -> Event | None:
    """The `out` event of the next configured day for a player sent off by a red card on `day`
    (None when there is no next day or the game file already has the player out)."""
    later = [d.number for d in game.days if d.number > day]
    if not later or any(ev.kind == "out" and ev.player == player and ev.day <= min(later) for ev in game.events):
        return None
    return Event(day=min(later), kind="out", player=player, reason=SENT_OFF_REASON)


def with_vote_outs(game: Game, store: Store, day: int) -> Game:
    """The game with the `out` events the counts of the days before `day` imply (as `analyze_day`
    adds them), for views that read the day without counting it; unchanged when an earlier day was
    never scanned."""
    if not any(d.number < day for d in game.days):
        return game
    try:
        return analyze_day(game, store, day, flags=False).game
    except StoreError:
        return game


def last_priest(game: Game, store: Store, day: int) -> tuple[str | None, int | None]:
    """The last priest named before or on `day` (a `priest` event, else the election) and the day
    from which they held it, whether or not still in the game."""
    named = [ev for ev in game.events if ev.kind == "priest" and ev.player and ev.day <= day]
    if named:
        ev = max(named, key=lambda e: e.day)
        return ev.player, ev.day
    rules = game.ruleset.election
    for d in game.days:
        if d.number < day and d.election_tid and rules.enabled and d.number == rules.day:
            try:
                require_scanned(store, game, d.number)
            except StoreError:
                return None, None
            e = elect_priest(roster_posts(game, store, d.election_tid), rules=game.ruleset, day=d, state=state_at(game, d.number))
            return e.winner, d.number + 1
    return None, None


def priest_warnings(game: Game, store: Store, day: int, priest: str | None, st: DayState) -> list[dict[str, Any]]:
    """M84 殉职: a priest who went out passes the office on. When the last priest is out and the game
    file names no successor, the day is counted without a priest's weight: say so, never silently."""
    if game.ruleset.weights.priest is None or priest is not None:
        return []
    was, since = last_priest(game, store, day)
    if was is None or was in st.living:
        return []
    w = game.ruleset.weights
    return [{"kind": "priest_missing", "day": day, "player": was,
             "message": f"神父{was}（第{since}天起）已出局，游戏文件没有写继任神父（[[event]] kind = \"priest\"）；"
                        f"本日按无神父计票，每票{w.default:g}票、没有{w.priest:g}票。"
                        f"若已有继任者，请写 [[event]] day = {day}、kind = \"priest\"、player = 继任者。"}]


def event_day_warnings(game: Game, day: int, votes: VoteCount) -> list[dict[str, Any]]:
    """Events dated a day too early. An `out` event counts from its day's opening, so "霜降 went out
    on day 1" written as day = 1 strikes his day-1 ballot and every vote for him from day 1's count,
    and may change who goes out; a `priest` event on the election day weighs that day's vote before
    the election has ended. Warn when the threads show the day went on with that player in it."""
    out: list[dict[str, Any]] = []
    for ev in game.events:
        if ev.day != day or ev.at is not None or not ev.player:
            continue
        if ev.kind == "out":
            voters = sorted({b.voter for b in votes.ballots if b.target == ev.player and "target_out" in b.codes})
            if len(voters) >= 2:
                out.append({"kind": "event_day", "day": day, "player": ev.player,
                            "message": f"游戏文件的 out 事件写着{ev.player}从第{day}天开门起出局（day = {day}），"
                                       f"但第{day}天有{len(voters)}人投{ev.player}（{'、'.join(voters)}），这些票都按“已出局”不计，"
                                       f"可能改变当天的结果。若{ev.player}是在第{day}天投票结算或当晚出局的，"
                                       f"事件应写 day = {day + 1}（白天中途出局请写 at）。"})
        elif ev.kind == "priest" and game.ruleset.election.enabled and day <= game.ruleset.election.day:
            out.append({"kind": "event_day", "day": day, "player": ev.player,
                        "message": f"游戏文件的 priest 事件写着{ev.player}从第{day}天开门起是神父（day = {day}），"
                                   f"但神父在第{game.ruleset.election.day}天投票结束后才推举产生；"
                                   f"这样第{day}天{ev.player}的票会按神父计。若是推举的结果，事件应写 "
                                   f"day = {game.ruleset.election.day + 1}。"})
    return out


def vote_out_warning(day: int, ev: Event) -> dict[str, Any]:
    """Tells the director a player was taken out by the count, not by a line of the game file."""
    return {"kind": "vote_out_inferred", "day": ev.day, "player": ev.player, "from_day": day,
            "message": f"{ev.player}按第{day}天的票数被投票出局，第{ev.day}天起不再计票、计帖（游戏文件没有写这条 out 事件）。"
                       f"如实际结果不同，请在游戏文件写 [[event]] day = {ev.day}、kind = \"out\"、reason = \"vote\" 写明谁被投出。"}


STALE_BEFORE_CLOSE = timedelta(minutes=10)  # before close, a scan this recent is as good as now


@dataclass(frozen=True)
class ThreadReading:
    """What the store knows of how complete one thread's copy is, without asking the forum again."""

    tid: int
    role: str  # discussion | vote | progress | election
    scanned_at: datetime | None  # when the last complete reading of the thread began
    replies: int | None  # the reply count the forum printed during that reading (API, desktop page 1)
    replies_at: datetime | None
    stored: int  # floors stored and not gone


def stale_warnings(seen: datetime | None, at: datetime, closes: datetime, day: int,
                   readings: Any = ()) -> list[dict[str, Any]]:
    """Warnings (`stale_scan`) that the counts may miss posts the forum has, from what the store
    knows (no request to the forum is made to find out):

    - `scanned_before`: the store was last read before the moment counted: after close, any scan
      older than the close; before close, one more than STALE_BEFORE_CLOSE older than the moment;
    - `forum_reported_more`: while a thread was read, the forum printed a reply count (the mobile
      API's, or desktop page 1's 回复) above the floors stored — posts came in that no page read
      held. Not when that reading began after the moment counted: everything up to it was read.
    """
    until = min(at, closes)
    out: list[dict[str, Any]] = []
    if seen is None or not (seen >= closes or seen >= until - (STALE_BEFORE_CLOSE if until < closes else timedelta())):
        last = f"最后一次扫描在{seen:%m-%d %H:%M}" if seen else "当天的帖子还没有全部扫描过"
        what = f"早于关门（{closes:%m-%d %H:%M}）" if until >= closes else f"早于统计时刻（{until:%m-%d %H:%M}）"
        out.append({"kind": "stale_scan", "cause": "scanned_before", "day": day,
                    "seen_until": seen.isoformat() if seen else None,
                    "message": f"{last}，{what}：之后的票和帖子没有读到，以下票数可能不全。请先运行 daoyan scan。"})
    for r in readings:
        if r.replies is None or r.replies + 1 <= r.stored:
            continue
        if r.scanned_at is not None and r.scanned_at >= until:
            continue  # the floors it lacks came after the moment counted
        where = f"{ROLE_NAMES.get(r.role, r.role)}（tid {r.tid}）"
        when = f"{r.replies_at:%m-%d %H:%M}" if r.replies_at else "最后一次扫描时"
        out.append({"kind": "stale_scan", "cause": "forum_reported_more", "day": day, "tid": r.tid, "thread": r.role,
                    "forum_floors": r.replies + 1, "stored_floors": r.stored,
                    "seen_until": r.scanned_at.isoformat() if r.scanned_at else None,
                    "message": f"论坛在{when}显示{where}共{r.replies + 1}楼，数据库里只有{r.stored}楼："
                               "扫描时已有帖子没有读到，以下票数和发言数可能不全。请先运行 daoyan scan。"})
    return out


def thread_readings(store: Store, tids: dict[str, int], tz: Any) -> list[ThreadReading]:
    """For each of the day's threads (role → tid), what the store knows of its last reading."""
    out = []
    for role, tid in tids.items():
        row = store.thread(tid) or {}

        def when(key: str) -> datetime | None:
            v = row.get(key)
            return datetime.fromisoformat(v).astimezone(tz) if v else None

        replies = row.get("replies")
        out.append(ThreadReading(tid=tid, role=role, scanned_at=when("scanned_at"),
                                 replies=int(replies) if replies is not None else None,
                                 replies_at=when("replies_at"), stored=store.stored_floors(tid)))
    return out


def seen_until(store: Store, tids: Any, tz: Any) -> datetime | None:
    """When the least recently read of these threads was last read (None: one was never read)."""
    times = []
    for tid in tids:
        row = store.thread(tid)
        if not row or not row.get("scanned_at"):
            return None
        times.append(datetime.fromisoformat(row["scanned_at"]).astimezone(tz))
    return min(times, default=None)


def gone_posts(store: Store, tid: int, tz: Any) -> list[tuple[Post, datetime]]:
    """The thread's stored posts a scan found deleted on the forum, with when (in the game's zone)."""
    rows = store.db["posts"].rows_where("tid = ? and gone_at is not null", [tid], order_by="floor")
    return [(Post.from_row(r), datetime.fromisoformat(r["gone_at"]).astimezone(tz)) for r in rows]


def close_warnings(game: Game, day: int, by_role: dict[str, list[Post]]) -> list[dict[str, Any]]:
    """A warning when the day's `closes` disagrees with the rule post's day length and with the
    director's opening post (its 关门时间), naming what each says."""
    d = game.day(day)
    opening = ""
    for role in ("discussion", "vote"):
        first = next((p for p in by_role.get(role, []) if p.floor == 1), None)
        if first is not None and opening_post_close(first.text, d.opens)[0] is not None:
            opening = first.text
            break
    first_day = min(x.number for x in game.days)
    c = check_close(d, game.ruleset.schedule, opening, first_day=first_day)
    return [c.to_json()] if c.warn else []


def flag_id(pid: int | None, category: str) -> str:
    """A flag's id, stable across re-scans so a director's decision sticks to it."""
    return f"{pid}-{category}"


def _extra_threads(game: Game, store: Store, day: int) -> dict[str, list[Post]]:
    """The rule thread and the older days' threads: posts made while `day` was open are checked
    with the day (004 违规判定 6(1): 讨论帖、投票帖、进程帖或规则帖; an older day's thread is still the game's)."""
    d = game.day(day)
    today = set(d.tids.values())
    out: dict[str, list[Post]] = {}
    tids: list[tuple[str, int]] = []
    rules_tid = game.rules_tid
    if rules_tid is None:
        row = store.db.execute("select value from meta where key='rules_tid'").fetchone()
        rules_tid = int(row[0]) if row and row[0] else None
    if rules_tid:
        tids.append(("rules", rules_tid))
    for earlier in game.days:
        if earlier.number < day:
            tids += [(f"day{earlier.number}_{role}", tid) for role, tid in earlier.tids.items()]
    for role, tid in tids:
        if tid in today:
            continue
        posts = [p for p in roster_posts(game, store, tid)
                 if p.posted_at is not None and d.opens <= p.posted_at <= d.closes]
        if posts:
            out.setdefault(role, []).extend(posts)
    return out


def day_flags(game: Game, store: Store, day: int, by_role: dict[str, list[Post]] | None = None,
              activity: DayActivity | None = None, *, sent_off: dict[str, datetime] | None = None,
              acc: Acceleration | None = None) -> list[dict[str, Any]]:
    """Speech and posting flags of the day's threads (and of posts made that day in the rule thread
    and older days' threads), each with its id and the director's decision. Who is out is judged at
    each post's own moment; `sent_off`: players a red card took out in the middle of this day (004:
    白天红牌罚下在被投票出局之前), whose later posts are 诈尸 like any out player's."""
    from moderation.checker import get_checker

    if by_role is None:  # called on its own: who went out (by an earlier day's vote, by a red card) as the counts judge it
        try:
            counted = analyze_day(game, store, day, flags=False)
            game, sent_off = counted.game, {**counted.sent_off, **(sent_off or {})}
            acc = acc if acc is not None else counted.acceleration
        except StoreError:
            pass
    by_role = by_role if by_role is not None else _posts_by_role(game, store, day)
    checker = get_checker(game.ruleset)
    players = {normalize_name(p): p for p in game.players}
    directors = {normalize_name(p) for p in game.directors}
    decisions = {r["flag_id"]: r for r in store.db["decisions"].rows}
    out: list[dict[str, Any]] = []
    seen: set[int] = set()

    def decided(j: dict[str, Any]) -> dict[str, Any]:
        dec = decisions.get(j["id"])
        j["state"] = dec["state"] if dec else "open"
        j["note"] = dec["note"] if dec else None
        j["card"] = dec["card"] if dec else None
        return j

    everything = dict(by_role)
    for role, posts in _extra_threads(game, store, day).items():
        everything[role] = posts
    gone_at: dict[int, datetime] = {}
    for role, tid in game.day(day).tids.items():  # a post deleted after it was read still said what it said
        deleted = gone_posts(store, tid, game.timezone)
        gone_at.update((post.pid, when) for post, when in deleted)
        if deleted:
            everything[role] = [*everything.get(role, []), *(post for post, _ in deleted)]
    for role, posts in everything.items():
        for post in posts:
            if post.pid in seen:
                continue
            seen.add(post.pid)
            key = normalize_name(post.author)
            if key in directors or key not in players:
                continue  # directors use red and big fonts by right; spectators are not in the game
            st = state_at_moment(game, post.posted_at, day) if post.posted_at else state_at(game, day)
            name = players[key]
            dead = name in st.out or (name in (sent_off or {}) and post.posted_at is not None
                                      and post.posted_at > (sent_off or {})[name])
            whistled = name in st.whistled
            for f in checker.check_post(post, game.ruleset, whistled=whistled, dead=dead, is_director=False):
                j = f.to_json()
                j.update(pid=post.pid, floor=post.floor, author=post.author, tid=post.tid, thread=role)
                j["id"] = flag_id(post.pid, f.category)
                if post.pid in gone_at:
                    when = gone_at[post.pid]
                    j["gone_at"] = when.isoformat()
                    j["evidence"] = f"{j.get('evidence') or ''}（此帖已从论坛删除，{when:%m-%d %H:%M}的扫描发现；daoyan 存有原文）"
                out.append(decided(j))
    threshold = game.ruleset.activity.water_flag_per_day
    if threshold and activity is None:
        activity = count_activity(by_role, ruleset=game.ruleset, day=game.day(day), state=state_at(game, day),
                                  out_at=out_during(game, day))
    if threshold and activity is not None:
        have = {(f["pid"], f["category"]) for f in out}
        for player, posts in water_heavy(activity, by_role, threshold=threshold, acceleration=acc).items():
            first = posts[0]
            if (first.pid, "water") in have:
                continue
            floors = "、".join(f"#{p.floor}" for p in posts[:12]) + ("…" if len(posts) > 12 else "")
            j = {"category": "water", "rule": game.ruleset.rule_for("water"),
                 "evidence": f"第{day}天纯水帖{len(posts)}帖（{floors}），达到大量无意义水帖的提示线{threshold}帖",
                 "suggested_card": game.ruleset.suggested_card("water"), "pid": first.pid, "floor": first.floor,
                 "author": first.author, "context": "", "span": [0, 0], "note": "per-day water threshold (activity.water_flag_per_day)",
                 "tid": first.tid, "thread": "discussion", "id": flag_id(first.pid, "water")}
            out.append(decided(j))
    return out


def accepted_flag_cards(store: Store, game: Game, day: int) -> list[CardEntry]:
    """Accepted flags of days up to `day` as ledger entries (the card the director chose)."""
    rows = store.db.execute("select flag_id, day, pid, category, card, note from decisions "
                            "where state='accepted' and day<=?", [day]).fetchall()
    out = []
    for fid, dnum, pid, cat, card, note in rows:
        post = store.db.execute("select author, floor, posted_at from posts where pid=?", [pid]).fetchone()
        if post is None or not card:
            continue
        players = {normalize_name(p): p for p in game.players}
        players.update(game.alias_names())  # a flagged post of an alias's is its player's card
        when = datetime.fromisoformat(post[2]) if post[2] else None
        out.append(CardEntry(player=players.get(normalize_name(post[0]), post[0]), card=card, day=dnum,
                             rule=game.ruleset.rule_for(cat), reason=note or cat, source="flag", pid=pid,
                             floor=post[1], at=when))
    return out

