"""The review page: one self-contained HTML file a director opens in a browser.

Post text is hostile, so the template runs with autoescaping on and the page carries a
Content-Security-Policy that forbids scripts and any network access; the only links are built
here from integer tids and pids. The view is shaped in Python so the template only lays it out.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from ._text import (CARD_ORDER, CARD_ZH, CATEGORY_ZH, FLAG_STATE_ZH, KIND_ZH, as_int, card_key, card_zh,
                    clauses, clean, clean_block, findpost_url, floor_label, fmt_duration, fmt_time, num, safe_base, thread_url, zone)
from .chart import build_chart

_THREAD_ZH = {"discussion": "讨论帖", "vote": "投票帖", "progress": "进程帖", "election": "推举帖"}

_MARGIN_LABELS = (
    ("leader", "领先", False), ("leader_weight", "领先票数", True), ("runner_up", "第二", False),
    ("runner_up_weight", "第二票数", True), ("to_tie", "追平还差", True), ("to_overtake", "反超还差", True),
    ("remaining_weight", "未投票权重", True),
)


@lru_cache(maxsize=1)
def _env() -> Environment:
    env = Environment(loader=FileSystemLoader(str(Path(__file__).parent / "templates")),
                      autoescape=True, undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    return env


def _maps(items: Any) -> list[Mapping[str, Any]]:
    return [x for x in items or [] if isinstance(x, Mapping)]


def _names(items: Any) -> list[str]:
    return [clean(n) for n in items or [] if clean(n)]


class _Links:
    def __init__(self, base: str | None, threads: Mapping[str, Any]):
        self.base, self.threads = base, threads

    def tid(self, item: Mapping[str, Any], default_role: str) -> int | None:
        t = as_int(item.get("tid"))
        if t is not None:
            return t
        role = item.get("thread") if isinstance(item.get("thread"), str) else default_role
        return as_int(self.threads.get(role))

    def post(self, item: Mapping[str, Any], default_role: str) -> str | None:
        return findpost_url(self.base, self.tid(item, default_role), item.get("pid"))


def _ballot_rows(ballots: list[Mapping[str, Any]], links: _Links, tz: Any) -> list[dict[str, Any]]:
    rows = []
    for b in ballots:
        problems = [clean(p.get("message") or p.get("code")) for p in _maps(b.get("problems"))]
        valid, counted = bool(b.get("valid", True)), bool(b.get("counted"))
        status = "counted" if counted else ("invalid" if not valid else "replaced")
        rows.append({
            "floor": floor_label(b.get("floor")), "url": links.post(b, "vote"), "voter": clean(b.get("voter")),
            "kind": KIND_ZH.get(clean(b.get("kind")), clean(b.get("kind"))),
            "target": clean(b.get("target") or b.get("written_target")), "time": fmt_time(b.get("posted_at"), tz, seconds=True),
            "status": status, "status_zh": {"counted": "计入", "invalid": "无效", "replaced": "不计"}[status],
            "problems": problems, "proxy": bool(b.get("proxy")),
        })
    return rows


def _tally_rows(tally: list[Mapping[str, Any]], ballots: list[Mapping[str, Any]], links: _Links,
                colours: Mapping[str, str]) -> list[dict[str, Any]]:
    standing: dict[str, Mapping[str, Any]] = {}
    for b in ballots:
        if b.get("counted"):
            standing[clean(b.get("voter"))] = b
    top = max((float(t.get("weight") or 0) for t in tally if isinstance(t.get("weight"), (int, float))), default=0.0)
    rows = []
    for t in tally:
        w = t.get("weight")
        share = round(100 * float(w) / top, 1) if top and isinstance(w, (int, float)) else 0
        voters = []
        for v in _names(t.get("voters")):
            b = standing.get(v, {})
            voters.append({"name": v, "floor": floor_label(b.get("floor")), "url": links.post(b, "vote") if b else None})
        target = clean(t.get("target"))
        rows.append({"target": target, "weight": num(w), "share": share, "voters": voters,
                     "colour": colours.get(target, "#888"), "reached_at": t.get("reached_at")})
    return rows


def _margins(m: Any) -> dict[str, Any] | None:
    if not isinstance(m, Mapping) or not m:
        return None
    rows, known = [], {k for k, _, _ in _MARGIN_LABELS} | {"decided", "remaining"}
    for key, label, is_num in _MARGIN_LABELS:
        if key in m and m[key] is not None:
            rows.append({"label": label, "key": key, "value": num(m[key]) if is_num else clean(m[key])})
    for key, value in m.items():
        if key not in known and isinstance(value, (str, int, float, bool)) and value is not None:
            rows.append({"label": clean(key), "key": clean(key), "value": clean(value)})
    return {"rows": rows, "decided": m.get("decided"), "remaining": _names(m.get("remaining"))}


def _remind(r: Any) -> dict[str, Any] | None:
    if not isinstance(r, Mapping):
        return None
    below = [{"player": clean(b.get("player")), "posts": num(b.get("posts")), "needed": num(b.get("needed"))}
             for b in _maps(r.get("below"))]
    return {"closes_in": fmt_duration(r.get("closes_in_s")), "lock_in": fmt_duration(r.get("lock_in_s")),
            "not_voted": _names(r.get("not_voted")), "below": below}


def _activity(activity: Mapping[str, Any], tz: Any = None) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    penalties = [{"player": clean(p.get("player")), "card": card_key(p.get("card")), "card_zh": card_zh(p.get("card")),
                  "rule": clean(p.get("rule")),
                  "reason": clean(p.get("reason")) + (f"（{clean(p.get('note'))}）" if clean(p.get("note")) else "")
                  + ("（暂定，待导演核对帐号）" if p.get("provisional_why") == "unknown_account" else "")}
                 for p in _maps(activity.get("penalties"))]
    by_player: dict[str, list[dict[str, Any]]] = {}
    for p in penalties:
        by_player.setdefault(p["player"], []).append(p)
    rows = []
    for a in _maps(activity.get("players")):
        vote = a.get("vote") if isinstance(a.get("vote"), Mapping) else {}
        status = clean(vote.get("status"))
        rows.append({"player": clean(a.get("player")), "posts": num(a.get("posts")), "counted": num(a.get("counted_posts")),
                     "voted": a.get("voted"), "cards": by_player.get(clean(a.get("player")), []),
                     # a ballot the count threw out (after going out above all) is named, never shown as 已投
                     "vote_status": status if status in ("after_out", "not_counted", "invalid") else "",
                     "vote_label": clean(vote.get("label")),
                     "vote_note": clauses(clean(p.get("message") or p.get("code")) for p in _maps(vote.get("problems"))),
                     "out_at": fmt_time(a.get("out_at"), tz) if a.get("out_at") else ""})
    return rows, penalties


def _flag_groups(flags: list[Mapping[str, Any]], links: _Links) -> list[dict[str, Any]]:
    groups: dict[str, list[dict[str, Any]]] = {}
    for f in flags:
        state = clean(f.get("state")) or "open"
        state = state if state in FLAG_STATE_ZH else "open"
        cat = clean(f.get("category")) or "other"
        groups.setdefault(cat, []).append({
            "id": clean(f.get("id")), "rule": clean(f.get("rule")), "evidence": clean(f.get("evidence")),
            "context": clean_block(f.get("context")), "author": clean(f.get("author")),
            "floor": floor_label(f.get("floor")), "url": links.post(f, "discussion"),
            "state": state, "state_zh": FLAG_STATE_ZH[state], "note": clean(f.get("note")),
            "suggested": card_key(f.get("suggested_card")), "suggested_zh": card_zh(f.get("suggested_card")),
            "card": card_key(f.get("card")), "card_zh": card_zh(f.get("card")),
        })
    out = []
    for cat in sorted(groups, key=lambda c: (-len(groups[c]), c)):
        items = groups[cat]
        out.append({"category": cat, "label": CATEGORY_ZH.get(cat, cat), "entries": items,
                    "open": sum(1 for i in items if i["state"] == "open")})
    return out


def _ledger(cards: Any) -> list[dict[str, Any]]:
    """Card counts per player, from either a name-keyed mapping or a list of player records."""
    if not isinstance(cards, Mapping):
        return []
    players = cards.get("players")
    items: list[tuple[str, Mapping[str, Any]]] = []
    if isinstance(players, Mapping):
        items = [(clean(k), v) for k, v in players.items() if isinstance(v, Mapping)]
    elif isinstance(players, list):
        items = [(clean(p.get("player")), p) for p in _maps(players)]
    rows = []
    for name, counts in items:
        cells = []
        for c in CARD_ORDER:
            v = counts.get("reds" if c == "red" and "red" not in counts else c)
            cells.append({"card": c, "value": num(v) if isinstance(v, (int, float)) else "0"})
        rows.append({"player": name, "cells": cells, "ejected": bool(counts.get("ejected"))})
    return rows


def _survives(s: Any) -> dict[str, str] | None:
    if not isinstance(s, Mapping) or not clean(s.get("player")):
        return None
    return {"player": clean(s.get("player")), "reason": clean(s.get("reason"))}


def _progress(acc: Any, links: _Links, tz: Any) -> dict[str, Any] | None:
    """The progress thread as read: every post's reading, the requests that counted with their floors."""
    if not isinstance(acc, Mapping):
        return None
    posts = []
    for p in _maps(acc.get("readings")):
        posts.append({"floor": floor_label(p.get("floor")), "url": links.post(p, "progress"),
                      "player": clean(p.get("player")), "time": fmt_time(p.get("posted_at"), tz, seconds=True),
                      "reading": clean(p.get("reading_zh")), "counted": bool(p.get("counted")),
                      "why": clean(p.get("why"))})
    counted = [{"player": clean(r.get("player")), "floor": floor_label(r.get("floor")),
                "url": links.post(r, "progress")} for r in _maps(acc.get("counted_requests"))]
    return {"posts": posts, "counted": counted, "needed": num(acc.get("needed")), "living": num(acc.get("living")),
            "accelerated": bool(acc.get("accelerated")), "source": clean(acc.get("source")),
            "granted_at": fmt_time(acc.get("granted_at"), tz), "granted_floor": floor_label(acc.get("granted_floor")),
            "seconding": clean(acc.get("seconding"))}


def _readings(items: Any) -> list[dict[str, str]]:
    return [{"field": clean(r.get("field")), "reading": clean(r.get("reading")), "rule": clean(r.get("rule")),
             "note": clean(r.get("note"))} for r in _maps(items)]


def _view(a: Mapping[str, Any]) -> dict[str, Any]:
    game = a.get("game") if isinstance(a.get("game"), Mapping) else {}
    tz = zone(game.get("timezone"))
    threads = a.get("threads") if isinstance(a.get("threads"), Mapping) else {}
    links = _Links(safe_base(game.get("base_url")), threads)
    votes = a.get("votes") if isinstance(a.get("votes"), Mapping) else {}
    activity = a.get("activity") if isinstance(a.get("activity"), Mapping) else {}
    ballots = _maps(votes.get("ballots"))
    tally = _maps(votes.get("tally"))

    chart = build_chart(votes.get("timeline"), start=a.get("opens"), end=votes.get("at") or a.get("at") or a.get("closes"),
                        tz=tz, order=[clean(t.get("target")) for t in tally], lock=votes.get("lock_starts"))
    colours = {s.target: s.colour for s in chart.series}
    rows = _ballot_rows(ballots, links, tz)
    act_rows, penalties = _activity(activity, tz)
    outcome = votes.get("outcome") if isinstance(votes.get("outcome"), Mapping) else {}
    election = a.get("election") if isinstance(a.get("election"), Mapping) else None
    uncounted = [{"floor": floor_label(u.get("floor")), "url": links.post(u, "discussion"),
                  "player": clean(u.get("player")), "why": clean(u.get("message") or u.get("why"))}
                 for u in _maps(activity.get("uncounted"))]
    flags = _maps(a.get("flags"))
    return {
        "name": clean(game.get("name") or game.get("cite")), "ruleset": clean(game.get("ruleset")),
        "day": num(a.get("day")),
        "opens": fmt_time(a.get("opens"), tz), "closes": fmt_time(a.get("closes"), tz),
        "at": fmt_time(votes.get("at") or a.get("at"), tz), "generated_at": fmt_time(a.get("generated_at"), tz, seconds=True),
        "timezone": clean(game.get("timezone")),
        "threads": [{"role": _THREAD_ZH.get(k, clean(k)), "tid": as_int(v), "url": thread_url(links.base, v)}
                    for k, v in threads.items() if as_int(v) is not None],
        "out": clean(outcome.get("out")), "tie": _names(outcome.get("tie")),
        "survives": _survives(outcome.get("survives")), "red_carded": _names(outcome.get("red_carded")),
        "red_resolves": clean(outcome.get("red_resolves")),
        "progress": _progress(activity.get("acceleration"), links, tz),
        "readings": _readings(a.get("readings")),
        "warnings": [clean(w.get("message")) for w in _maps(a.get("warnings")) if clean(w.get("message"))],
        "accelerated": bool(activity.get("accelerated")),
        "tally": _tally_rows(tally, ballots, links, colours),
        "abstained": _names(votes.get("abstained")), "not_voted": _names(votes.get("not_voted")),
        "margins": _margins(votes.get("margins")), "remind": _remind(a.get("remind")),
        "chart": chart,
        "ballots": rows, "problem_ballots": [r for r in rows if r["problems"] or r["status"] == "invalid"],
        "activity": act_rows, "penalties": penalties, "uncounted": uncounted,
        "flag_groups": _flag_groups(flags, links),
        "flag_counts": {s: sum(1 for f in flags if (clean(f.get("state")) or "open") == s) for s in FLAG_STATE_ZH},
        "ledger": _ledger(a.get("cards")),
        "election": None if election is None else {
            "winner": clean(election.get("winner")), "reached_at": fmt_time(election.get("reached_at"), tz),
            "tally": [{"target": clean(t.get("target")), "weight": num(t.get("weight")), "voters": _names(t.get("voters"))}
                      for t in _maps(election.get("tally"))]},
        "card_zh": CARD_ZH,
    }


def render_html(analysis: Mapping[str, Any]) -> str:
    """The whole review page as one HTML string (inline CSS and SVG, nothing fetched)."""
    return _env().get_template("day.html.j2").render(v=_view(analysis))
