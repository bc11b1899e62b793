"""What a director records outside the threads, kept in the store: events, cards given by hand, and
the log of every action taken at the review desk (who, when, and how to undo it).

The game file may hold events and cards too; `with_records` merges both into one `Game`, and every
command and the desk read the game through it, so the CLI and the desk never disagree.
"""
from __future__ import annotations

import dataclasses
import json
import sqlite3
from datetime import datetime, timezone
from typing import Any

from gamedef.errors import DaoyanError
from gamedef.gamefile import EVENT_KINDS, Day, Event, Game, ManualCard
from gamedef.names import normalize_name

from .store import Store, decide_flag

def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def ensure_tables(store: Store) -> None:
    """Create the record tables if this store has none yet (an older store gains them here)."""
    db = store.db
    db["director_events"].create({"id": int, "day": int, "kind": str, "player": str, "reason": str, "at": str,
                                  "created_at": str, "created_by": str}, pk="id", if_not_exists=True)
    db["director_cards"].create({"id": int, "day": int, "player": str, "card": str, "rule": str, "reason": str,
                                 "pid": int, "at": str, "created_at": str, "created_by": str}, pk="id",
                                if_not_exists=True)
    if "at" not in db["director_cards"].columns_dict:  # a store from before cards kept their moment
        db["director_cards"].add_column("at", str)
    db["desk_actions"].create({"id": int, "at": str, "who": str, "action": str, "day": int, "summary": str,
                               "undo": str, "undone_at": str, "undone_by": str}, pk="id", if_not_exists=True)


def _rows(store: Store, sql: str, args: list[Any] | None = None) -> list[sqlite3.Row | tuple]:
    try:
        return store.db.execute(sql, args or []).fetchall()
    except sqlite3.OperationalError as e:  # a store written before the desk: no records yet
        if "no such table" in str(e):
            return []
        raise


def _table(store: Store, table: str) -> list[dict[str, Any]]:
    """Every row of a record table as a dict (a column added later is simply absent from older rows)."""
    try:
        cur = store.db.execute(f"select * from [{table}] order by id")
    except sqlite3.OperationalError as e:  # a store written before the desk: no records yet
        if "no such table" in str(e):
            return []
        raise
    names = [c[0] for c in cur.description]
    return [dict(zip(names, row)) for row in cur.fetchall()]


def _moment(text: str | None, game: Game) -> datetime | None:
    return datetime.fromisoformat(text).astimezone(game.timezone) if text else None


def stored_events(store: Store, game: Game) -> tuple[Event, ...]:
    return tuple(Event(day=r["day"], kind=r["kind"], player=r.get("player") or None, reason=r.get("reason") or None,
                       at=_moment(r.get("at"), game)) for r in _table(store, "director_events"))


def given_at(game: Game, day: int, at: str | None, created_at: str | None) -> datetime | None:
    """When a hand-given card takes effect: the moment the director entered, else the moment the
    director gave it when that lies inside the day (a red during the day ejects from then, per
    `cards.red_resolves`); a card given after the day closed takes effect at the settlement (None)."""
    if at:
        return datetime.fromisoformat(at).astimezone(game.timezone)
    if not created_at:
        return None
    try:
        d = game.day(day)
    except DaoyanError:
        return None
    given = datetime.fromisoformat(created_at).astimezone(game.timezone)
    return given if d.opens <= given <= d.closes else None


def stored_cards(store: Store, game: Game) -> tuple[ManualCard, ...]:
    return tuple(ManualCard(day=r["day"], player=r["player"], card=r["card"], rule=r.get("rule") or "",
                            reason=r.get("reason") or "", pid=r.get("pid"),
                            at=given_at(game, r["day"], r.get("at"), r.get("created_at")))
                 for r in _table(store, "director_cards"))


def with_records(game: Game, store: Store) -> Game:
    """The game as the engine should see it: the game file's events and cards, then the store's."""
    events, cards = stored_events(store, game), stored_cards(store, game)
    if not events and not cards:
        return game
    return dataclasses.replace(game, events=game.events + events, cards=game.cards + cards)


# ------------------------------------------------------------------ actions (each logged, each undoable)

def roster_name(game: Game, name: str) -> str:
    """The roster name `name` stands for: the name itself (as the roster spells it) or one of a player's
    `aliases`; anything else is refused with the roster in the message."""
    key = normalize_name(name or "")
    for p in game.players:
        if normalize_name(p) == key:
            return p
    if key in game.alias_names():  # another account of the player (`[game] aliases`)
        return game.alias_names()[key]
    raise DaoyanError(f"{name!r} is not a player of this game ({'、'.join(game.players)})")


def _log(store: Store, who: str, action: str, day: int | None, summary: str, undo: dict[str, Any] | None) -> int:
    return store.db["desk_actions"].insert({"at": _now(), "who": who, "action": action, "day": day,
                                            "summary": summary, "undo": json.dumps(undo, ensure_ascii=False)
                                            if undo is not None else None}).last_pk


def decide(store: Store, game: Game, flag: dict[str, Any], state: str, card: str | None, who: str,
           note: str | None = None) -> int:
    """Accept (with a card of the ruleset's colours), dismiss or reopen a flag; returns the log id."""
    if state not in ("accepted", "dismissed", "open"):
        raise DaoyanError(f"unknown decision {state!r}")
    if state == "accepted":
        card = card or flag.get("suggested_card")
        if card not in game.ruleset.cards.colors:
            raise DaoyanError(f"{card!r} is not a card of this ruleset ({', '.join(game.ruleset.cards.colors)})")
    else:
        card = None
    ensure_tables(store)
    prev = store.db.execute("select flag_id, day, pid, category, state, card, note, decided_at from decisions "
                            "where flag_id=?", [flag["id"]]).fetchone()
    with store.transaction():
        decide_flag(store, flag["id"], day=int(flag["day"]), pid=int(flag["pid"]), category=flag["category"],
                    state=state, card=card, note=note)
        words = {"accepted": f"accepted ({card})", "dismissed": "dismissed", "open": "reopened"}[state]
        return _log(store, who, "flag", int(flag["day"]), f"flag {flag['id']} {words}: {flag.get('author')} "
                    f"#{flag.get('floor')} {flag.get('category')}",
                    {"kind": "decision", "flag_id": flag["id"], "prev": list(prev) if prev else None,
                     "set": [state, card, note]})


def add_card(store: Store, game: Game, *, day: int, player: str, card: str, rule: str, reason: str, who: str,
             pid: int | None = None, at: datetime | None = None, now: datetime | None = None) -> int:
    """A card given by hand; `at` (optional) is when it takes effect, so a red during the day ejects from
    then. Without one, the card is dated by when the director gave it (`now`, default the clock) if that
    is inside the day; after the day's close it takes effect at the settlement."""
    d = game.day(day)
    at = _within(d, at, game)
    if at is None:
        given = (now or datetime.now(timezone.utc)).astimezone(game.timezone)
        at = given if d.opens <= given <= d.closes else None
    name = roster_name(game, player)
    if card not in game.ruleset.cards.colors:
        raise DaoyanError(f"{card!r} is not a card of this ruleset ({', '.join(game.ruleset.cards.colors)})")
    if not (rule or "").strip():
        raise DaoyanError("a card needs the rule it rests on")
    ensure_tables(store)
    with store.transaction():
        cid = store.db["director_cards"].insert({"day": day, "player": name, "card": card, "rule": rule.strip(),
                                                 "reason": (reason or "").strip(), "pid": pid,
                                                 "at": at.isoformat() if at else None, "created_at": _now(),
                                                 "created_by": who}).last_pk
        return _log(store, who, "card", day, f"card {card} to {name} ({rule.strip()})",
                    {"kind": "row", "table": "director_cards", "id": cid})


def add_event(store: Store, game: Game, *, day: int, kind: str, player: str | None, at: datetime | None,
              reason: str, who: str) -> int:
    d = game.day(day)
    if kind not in EVENT_KINDS:
        raise DaoyanError(f"unknown event {kind!r} (one of {', '.join(EVENT_KINDS)})")
    name = roster_name(game, player) if player else None
    if kind not in ("accelerated", "delayed") and name is None:
        raise DaoyanError(f"a {kind} event needs a player")
    at = _within(d, at, game)
    ensure_tables(store)
    with store.transaction():
        eid = store.db["director_events"].insert({"day": day, "kind": kind, "player": name, "reason": reason or None,
                                                  "at": at.isoformat() if at else None, "created_at": _now(),
                                                  "created_by": who}).last_pk
        when = f" at {at:%m-%d %H:%M}" if at else ""
        return _log(store, who, "event", day, f"event {kind}{' ' + name if name else ''}{when}",
                    {"kind": "row", "table": "director_events", "id": eid})


def _within(d: Day, at: datetime | None, game: Game) -> datetime | None:
    if at is None:
        return None
    if at.tzinfo is None:
        at = at.replace(tzinfo=game.timezone)
    if not (d.opens <= at <= d.closes):
        raise DaoyanError(f"the moment {at:%Y-%m-%d %H:%M} is outside day {d.number} "
                          f"({d.opens:%m-%d %H:%M} – {d.closes:%m-%d %H:%M})")
    return at


def log_only(store: Store, who: str, action: str, day: int | None, summary: str) -> int:
    """An action with nothing to undo (a rescan)."""
    ensure_tables(store)
    return _log(store, who, action, day, summary, None)


def undo(store: Store, action_id: int, who: str) -> str:
    """Undo one logged action: restore the flag's previous decision, or remove the event or card."""
    ensure_tables(store)
    row = store.db.execute("select undo, undone_at, summary from desk_actions where id=?", [action_id]).fetchone()
    if row is None:
        raise DaoyanError(f"no action {action_id}")
    spec, undone, summary = row
    if undone:
        raise DaoyanError(f"action {action_id} was already undone")
    if not spec:
        raise DaoyanError(f"action {action_id} ({summary}) cannot be undone")
    u = json.loads(spec)
    if u["kind"] == "decision":
        now = store.db.execute("select state, card, note from decisions where flag_id=?", [u["flag_id"]]).fetchone()
        if now is None or list(now) != u["set"]:
            raise DaoyanError(f"flag {u['flag_id']} was decided again since this action; decide it anew instead")
    with store.transaction():
        if u["kind"] == "decision":
            store.db.execute("delete from decisions where flag_id=?", [u["flag_id"]])
            if u["prev"]:
                store.db.execute("insert into decisions (flag_id, day, pid, category, state, card, note, decided_at) "
                                 "values (?, ?, ?, ?, ?, ?, ?, ?)", u["prev"])
        elif u["kind"] == "row" and u["table"] in ("director_cards", "director_events"):
            store.db.execute(f"delete from {u['table']} where id=?", [u["id"]])
        store.db.execute("update desk_actions set undone_at=?, undone_by=? where id=?", [_now(), who, action_id])
    return summary


def actions(store: Store, limit: int = 50) -> list[dict[str, Any]]:
    """The newest actions first, with whether each can still be undone."""
    rows = _rows(store, "select id, at, who, action, day, summary, undo, undone_at, undone_by from desk_actions "
                        "order by id desc limit ?", [limit])
    keys = ("id", "at", "who", "action", "day", "summary", "undo", "undone_at", "undone_by")
    out = []
    for r in rows:
        d = dict(zip(keys, r))
        d["undoable"] = bool(d.pop("undo")) and not d["undone_at"]
        out.append(d)
    return out


__all__ = ["with_records", "ensure_tables", "decide", "add_card", "add_event", "log_only", "undo", "actions",
           "stored_events", "stored_cards"]
