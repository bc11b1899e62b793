"""The desk's page data, shaped from the same analysis every command prints: no rule is computed here.

`day_page` gathers one day as of a moment: the count (`analyze_day`, as `votes --at`), the flags
with their posts' context, the ledger, the reminder (as `remind`), the announcement (as `report`).
"""
from __future__ import annotations

import hashlib
import sqlite3
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from engine.remind import reminder_bbcode
from gamedef.gamefile import EVENT_KINDS, Game
from gamedef.names import normalize_name
from reports import render_bbcode
from reports._text import findpost_url, safe_base

from ..analysis import DayAnalysis, analyze_day, game_name
from ..bbcode import escape_bbcode
from ..records import actions
from ..reporting import day_dict
from ..store import Store, sync_cards


def sync_ledger(game: Game, store: Store) -> None:
    """The store's `cards` table after an action: the whole game's ledger, as `daoyan cards` writes it."""
    sync_cards(store, analyze_day(game, store, game.days[-1].number, flags=False).card_entries)
from .preview import bbcode_to_html

CARD_ZH = {"green": "绿牌", "blue": "蓝牌", "yellow": "黄牌", "red": "红牌"}
STATE_ZH = {"open": "待复核", "accepted": "已采纳", "dismissed": "已驳回"}
THREAD_ZH = {"discussion": "讨论帖", "vote": "投票帖", "progress": "进程帖", "election": "推举帖"}
EVENT_ZH = {"out": "出局", "priest": "神父", "whistled": "黑哨", "unwhistled": "解除黑哨", "accelerated": "加速",
            "delayed": "延时", "excused": "免投", "survives": "存活"}


@dataclass
class Moment:
    at: datetime
    label: str


def moments(a: DayAnalysis) -> list[Moment]:
    """The slider's stops: the opening, every ballot that changed the count, the close."""
    d = a.game.day(a.day)
    out = [Moment(d.opens, "开门")]
    v = a.votes.to_json()
    who = {b.get("pid"): b for b in v.get("ballots") or []}
    for t in v.get("timeline") or []:
        at = datetime.fromisoformat(t["at"]).astimezone(a.game.timezone)
        b = who.get(t.get("pid")) or {}
        if d.opens < at < d.closes:
            out.append(Moment(at, f"#{b.get('floor') or '?'} {b.get('voter') or ''}".strip()))
    out.append(Moment(d.closes, "关门"))
    uniq: dict[datetime, Moment] = {}
    for m in out:
        uniq.setdefault(m.at, m)
    return sorted(uniq.values(), key=lambda m: m.at)


def _post_index(a: DayAnalysis) -> dict[int, tuple[list[Any], int]]:
    idx: dict[int, tuple[list[Any], int]] = {}
    for posts in a.posts.values():
        for i, p in enumerate(posts):
            idx[p.pid] = (posts, i)
    return idx


def _snippet(text: str, limit: int = 160) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[:limit] + "…"


def _highlight(text: str, flag: dict[str, Any]) -> tuple[str, str, str]:
    """The post's text split around the evidence: (before, evidence, after); spans index post.text."""
    span = flag.get("span") or [0, 0]
    s, e = (int(span[0]), int(span[1])) if len(span) == 2 else (0, 0)
    if 0 <= s < e <= len(text):
        return text[:s], text[s:e], text[e:]
    ev = flag.get("evidence") or ""
    i = text.find(ev) if ev else -1
    if i >= 0:
        return text[:i], ev, text[i + len(ev):]
    return text, "", ""


def flag_cards(a: DayAnalysis) -> list[dict[str, Any]]:
    """Each flag with its post highlighted, the floors before and after it, and its forum link."""
    base = safe_base(a.game.forum.base_url)
    idx = _post_index(a)
    out = []
    for f in a.flags:
        f = dict(f, day=a.day)
        posts, i = idx.get(f.get("pid"), ([], -1))
        text = posts[i].text if i >= 0 else (f.get("context") or "")
        f["before"], f["hit"], f["after"] = _highlight(text, f)
        f["neighbours"] = [{"floor": p.floor, "author": p.author, "text": _snippet(p.text), "pid": p.pid,
                            "url": findpost_url(base, p.tid, p.pid), "mark": "前" if j < i else "后"}
                           for j, p in ((j, posts[j]) for j in (i - 1, i + 1) if i >= 0 and 0 <= j < len(posts))]
        f["url"] = findpost_url(base, f.get("tid"), f.get("pid"))
        f["posted_at"] = posts[i].posted_at if i >= 0 else None
        out.append(f)
    order = {"open": 0, "accepted": 1, "dismissed": 2}
    return sorted(out, key=lambda f: (order.get(f["state"], 3), f.get("tid") or 0, f.get("floor") or 0))


def roster(game: Game) -> list[dict[str, Any]]:
    """The players as the desk's pickers list them: each roster name with its `aliases` from the game
    file, labelled `正名 (别名: a, b)`, and the folded names (as `normalize_name` compares them) that
    the picker's search looks in, so a director finds a player by any of their forum names."""
    out = []
    for p in game.players:
        aliases = list(game.aliases.get(p, ()))
        out.append({"name": p, "aliases": aliases,
                    "label": f"{p} (别名: {', '.join(aliases)})" if aliases else p,
                    "search": "\n".join(dict.fromkeys(normalize_name(n) for n in (p, *aliases)))})
    return out


def day_page(game: Game, store: Store, day: int, at: datetime | None, *, now: datetime,
             index: int | None = None) -> dict[str, Any]:
    """Everything the day page shows, as of `at` (None: the day's close, as `votes` without --at),
    or as of the slider's stop `index` over the day's ballot timeline."""
    d = game.day(day)
    full = analyze_day(game, store, day)
    stops = moments(full)
    if index is not None:
        index = max(0, min(index, len(stops) - 1))
        at = None if index == len(stops) - 1 else stops[index].at
    a = full if at is None else analyze_day(game, store, day, at)
    data = day_dict(a)
    votes = data["votes"]
    base = safe_base(game.forum.base_url)
    for b in votes["ballots"]:
        b["url"] = findpost_url(base, d.vote_tid, b.get("pid")) if b.get("source", "thread") == "thread" else None
    chosen = a.at
    index = max((i for i, m in enumerate(stops) if m.at <= chosen), default=0)
    remind_at = min(max(at or now, d.opens), d.closes)
    r = (a if at is not None and remind_at == a.at else analyze_day(game, store, day, remind_at, flags=False)).reminder()
    announcement = render_bbcode(data, floor_links=True)
    reminder = reminder_bbcode(r, escape_bbcode)
    return {
        "game": full.game,  # with the outs the earlier days' counts and red cards imply, so the event list shows them
        "game_title": game_name(game, a.rules_subject), "day": d, "analysis": a, "data": data, "votes": votes,
        "bad_ballots": [b for b in votes["ballots"] if b["problems"]],
        "activity": data["activity"], "ledger": data["cards"] or {},
        "flags": flag_cards(a), "open_flags": sum(1 for f in a.flags if f["state"] == "open"),
        "moments": stops, "index": index, "at": at, "shown_at": a.at,
        "remind": r.to_json(), "remind_at": remind_at, "reminder_bbcode": reminder,
        "reminder_html": bbcode_to_html(reminder),
        "announcement": announcement, "announcement_html": bbcode_to_html(announcement),
        "colors": list(game.ruleset.cards.colors), "event_kinds": list(EVENT_KINDS), "roster": roster(game),
        "actions": _local_actions(actions(store), game), "thread_zh": THREAD_ZH,
        "live": d.opens <= now < d.closes, "last_scan": last_scan(store, game),
        "version": store_version(store, game), "card_zh": CARD_ZH, "state_zh": STATE_ZH, "event_zh": EVENT_ZH,
    }


def store_version(store: Store, game: Game) -> str:
    """A fingerprint of what the page is made of — scans, decisions, the desk's records, the game file —
    so a page open while `scan`, `watch` or `flags` write can tell that it is stale."""
    parts = [str(game.path.stat().st_mtime_ns) if game.path.exists() else ""]
    for sql in ("select max(id), max(finished_at) from scans", "select count(*), max(decided_at) from decisions",
                "select max(id), count(undone_at) from desk_actions", "select max(id), count(*) from director_events",
                "select max(id), count(*) from director_cards"):
        try:
            parts.append(repr(store.db.execute(sql).fetchone()))
        except sqlite3.OperationalError:  # a record table this store does not have yet
            parts.append("-")
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:16]


def last_scan(store: Store, game: Game) -> dict[str, Any] | None:
    """The newest scan that finished, and whether it went well: how fresh the page's posts are."""
    row = store.db.execute("select finished_at, status from scans where finished_at is not null "
                           "order by id desc limit 1").fetchone()
    if row is None:
        return None
    return {"at": datetime.fromisoformat(row[0]).astimezone(game.timezone), "ok": row[1] == "ok", "status": row[1]}


def _local_actions(rows: list[dict[str, Any]], game: Game) -> list[dict[str, Any]]:
    for r in rows:
        r["at"] = datetime.fromisoformat(r["at"]).astimezone(game.timezone).strftime("%m-%d %H:%M:%S")
    return rows


def days_list(game: Game, store: Store, now: datetime) -> list[dict[str, Any]]:
    """Each day with its state, its outcome so far and how many flags still wait for review."""
    out = []
    for d in game.days:
        a = analyze_day(game, store, d.number)
        status = "未开门" if now < d.opens else ("进行中" if now < d.closes else "已关门")
        o = a.votes.to_json().get("outcome") or {}
        result = o.get("out") and f"{o['out']} 出局" or (o.get("tie") and "平票：" + "、".join(o["tie"])) or "—"
        out.append({"day": d, "status": status, "result": result, "flags": len(a.flags),
                    "open_flags": sum(1 for f in a.flags if f["state"] == "open")})
    return out
