"""One day of a game, read from the store: votes, election, activity, penalties, flags, cards.

The commands and reports all start here, so every view of a day agrees: the same count, the
same posts, the same flags. The engine does the arithmetic; this module only gathers its inputs
(posts per thread, revisions, events, the days before for multi-day lurking) and its outputs.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from engine.acceleration import Acceleration, acceleration
from engine.activity import DayActivity, activity_json, count_activity
from engine.cards import CardEntry, Ledger, entries_from_penalties, entry_from_manual, ledger
from engine.election import Election, elect_priest
from engine.lurking import Penalty, day_record, lurking_penalties
from engine.state import DayState, out_during, state_at
from engine.votes import VoteCount, count_votes
from parsers.models import Post

from .gamefile import Game, normalize_name
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

    def votes_json(self) -> dict[str, Any]:
        d = self.votes.to_json()
        if self.election is not None:
            d["election"] = self.election.to_json()
        return d

    def activity_json(self) -> dict[str, Any]:
        return activity_json(self.activity, self.penalties, self.votes.replied, self.acceleration)

    def reminder(self) -> Any:
        from engine.remind import reminders

        return reminders(ruleset=self.game.ruleset, day=self.game.day(self.day), at=self.at, activity=self.activity,
                         not_voted=self.votes.not_voted, history=self.history)

    def flags_json(self) -> dict[str, Any]:
        return {"day": self.day, "flags": self.flags}

    def to_dict(self) -> dict[str, Any]:
        """Everything as plain data: the input of every report."""
        g, d = self.game, self.game.day(self.day)
        return {
            "game": {"name": g.name or g.ruleset.title, "ruleset": g.ruleset.name, "cite": g.ruleset.cite,
                     "base_url": g.forum.base_url, "timezone": str(g.timezone), "players": list(g.players),
                     "directors": list(g.directors)},
            "day": self.day, "opens": d.opens.isoformat(), "closes": d.closes.isoformat(),
            "at": self.at.isoformat(), "generated_at": datetime.now(timezone.utc).astimezone(g.timezone).isoformat(),
            "threads": d.tids,
            "state": {"living": list(self.state.living), "out": list(self.state.out), "priest": self.votes.priest,
                      "whistled": list(self.state.whistled)},
            "votes": self.votes_json(),
            "election": self.election.to_json() if self.election else None,
            "activity": self.activity_json(),
            "flags": self.flags,
            "cards": self.ledger.to_json() if self.ledger else None,
        }


def _posts_by_role(game: Game, store: Store, day: int) -> dict[str, list[Post]]:
    require_scanned(store, game, day)
    return {role: store.posts(tid) for role, tid in game.day(day).tids.items()}


def priest_for(game: Game, store: Store, day: int) -> str | None:
    """The priest on `day`: a `priest` event wins; else the election of an earlier day decides."""
    st = state_at(game, day)
    if st.priest or not game.ruleset.election.enabled:
        return st.priest
    for d in game.days:
        if d.number < day and d.election_tid and d.number == game.ruleset.election.day:
            e = elect_priest(store.posts(d.election_tid), rules=game.ruleset, day=d, state=state_at(game, d.number))
            winner = e.winner
            return winner if winner in st.living else None
    return None


def _one_day(game: Game, store: Store, day: int, at: datetime | None) -> tuple[DayState, VoteCount, Election | None,
                                                                           DayActivity, Acceleration, dict[str, list[Post]]]:
    d = game.day(day)
    st = state_at(game, day)
    mid = out_during(game, day)
    by_role = _posts_by_role(game, store, day)
    acc = acceleration(by_role.get("progress", []), ruleset=game.ruleset, day=d, state=st, out_at=mid, at=at)
    vote_posts = by_role.get("vote", [])
    revs = store.revisions(p.pid for p in vote_posts if p.edited)
    votes = count_votes(vote_posts, rules=game.ruleset, day=d, state=st, at=at, accelerated=acc.accelerated,
                        proxies=[p for p in game.proxies if p.day == day], revisions=revs,
                        priest=priest_for(game, store, day) or "", out_at=mid)
    election = None
    if d.election_tid and game.ruleset.election.enabled:
        election = elect_priest(by_role.get("election", []), rules=game.ruleset, day=d, state=st, at=at)
    act = count_activity(by_role, ruleset=game.ruleset, day=d, state=st, out_at=mid, at=at)
    return st, votes, election, act, acc, by_role


def analyze_day(game: Game, store: Store, day: int, at: datetime | None = None, *, flags: bool = True) -> DayAnalysis:
    """The whole of `day` as of `at` (default: the day's close)."""
    d = game.day(day)
    history = []
    penalties: list[Penalty] = []
    entries: list[CardEntry] = []
    result = None
    for earlier in game.days:
        if earlier.number > day:
            break
        when = at if earlier.number == day else None
        st, votes, election, act, acc, by_role = _one_day(game, store, earlier.number, when)
        history.append(day_record(act, accelerated=acc.accelerated, voted=votes.replied,
                                  whistled=st.whistled, excused=st.excused))
        pens = lurking_penalties(history, ruleset=game.ruleset)
        entries += entries_from_penalties(pens)
        if earlier.number == day:
            penalties = pens
            result = (st, votes, election, act, acc, by_role)
    assert result is not None
    st, votes, election, act, acc, by_role = result
    a = DayAnalysis(game=game, day=day, at=at or d.closes, state=st, votes=votes, election=election, activity=act,
                    acceleration=acc, penalties=penalties, posts=by_role, history=history)
    if flags:
        a.flags = day_flags(game, store, day, by_role)
    entries += [entry_from_manual(c, game.ruleset) for c in game.cards if c.day <= day]
    entries += accepted_flag_cards(store, game, day)
    a.ledger = ledger(entries, ruleset=game.ruleset, camps=game.camps)
    a.card_entries = entries
    return a


def flag_id(pid: int | None, category: str) -> str:
    """A flag's id, stable across re-scans so a director's decision sticks to it."""
    return f"{pid}-{category}"


def day_flags(game: Game, store: Store, day: int, by_role: dict[str, list[Post]] | None = None) -> list[dict[str, Any]]:
    """Speech and posting flags of the day's threads, each with its id and the director's decision."""
    from moderation.checker import get_checker

    by_role = by_role if by_role is not None else _posts_by_role(game, store, day)
    checker = get_checker(game.ruleset)
    players = {normalize_name(p): p for p in game.players}
    directors = {normalize_name(p) for p in game.directors}
    decisions = {r["flag_id"]: r for r in store.db["decisions"].rows}
    out: list[dict[str, Any]] = []
    seen: set[int] = set()
    for role, posts in by_role.items():
        for post in posts:
            if post.pid in seen:
                continue
            seen.add(post.pid)
            key = normalize_name(post.author)
            if key in directors or key not in players:
                continue  # directors use red and big fonts by right; spectators are not in the game
            st = state_at(game, day, post.posted_at) if post.posted_at else state_at(game, day)
            name = players[key]
            dead = name in st.out
            whistled = name in st.whistled
            for f in checker.check_post(post, game.ruleset, whistled=whistled, dead=dead, is_director=False):
                j = f.to_json()
                j.update(pid=post.pid, floor=post.floor, author=post.author, tid=post.tid, thread=role)
                j["id"] = flag_id(post.pid, f.category)
                dec = decisions.get(j["id"])
                j["state"] = dec["state"] if dec else "open"
                j["note"] = dec["note"] if dec else None
                j["card"] = dec["card"] if dec else None
                out.append(j)
    return out


def accepted_flag_cards(store: Store, game: Game, day: int) -> list[CardEntry]:
    """Accepted flags of days up to `day` as ledger entries (the card the director chose)."""
    rows = store.db.execute("select flag_id, day, pid, category, card, note from decisions "
                            "where state='accepted' and day<=?", [day]).fetchall()
    out = []
    for fid, dnum, pid, cat, card, note in rows:
        post = store.db.execute("select author, floor from posts where pid=?", [pid]).fetchone()
        if post is None or not card:
            continue
        out.append(CardEntry(player=post[0], card=card, day=dnum, rule=game.ruleset.rule_for(cat),
                             reason=note or cat, source="flag", pid=pid, floor=post[1]))
    return out

