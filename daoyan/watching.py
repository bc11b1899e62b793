"""`daoyan watch`: what changed between two rounds of the day's analysis, in the director's words."""
from __future__ import annotations

from typing import Any


def _ballot_key(b: dict[str, Any]) -> tuple:
    return (b.get("pid"), b.get("voter"), b.get("kind"), b.get("target"))


def changes(prev: dict[str, Any] | None, cur: dict[str, Any]) -> list[str]:
    """Lines for what is new in `cur` since `prev`: ballots, problems, flags, the outcome."""
    out: list[str] = []
    pv = prev or {"votes": {"ballots": [], "outcome": {}}, "flags": []}
    old_ballots = {_ballot_key(b): b for b in pv["votes"]["ballots"]}
    for b in cur["votes"]["ballots"]:
        k = _ballot_key(b)
        target = b.get("target") or ("弃权" if b.get("kind") == "abstain" else "?")
        if k not in old_ballots:
            state = "有效" if b["valid"] else "无效"
            out.append(f"新票 #{b.get('floor')} {b.get('voter')} {b.get('kind')} → {target}（{state}）")
        old = old_ballots.get(k, {"problems": []})
        old_codes = {p["code"] for p in old.get("problems", [])}
        for p in b.get("problems", []):
            if p["code"] not in old_codes:
                out.append(f"问题 #{b.get('floor')} {b.get('voter')}: [{p['code']}] {p['message']}")
    old_flags = {f["id"] for f in pv.get("flags", [])}
    for f in cur.get("flags", []):
        if f["id"] not in old_flags:
            out.append(f"新标记 {f['id']} {f.get('author')} #{f.get('floor')} {f['category']}（{f['rule']}）: {f.get('evidence')}")
    po, co = pv["votes"].get("outcome") or {}, cur["votes"]["outcome"]
    if po != co:
        out.append("当前结果：" + (f"{co['out']} 出局" if co.get("out") else f"平票 {'、'.join(co.get('tie') or [])}" if co.get("tie") else "无有效票"))
    return out


def summary(cur: dict[str, Any]) -> str:
    """One line a director reads each round: standings, margins, who is missing, time left."""
    v = cur["votes"]
    standings = "，".join(f"{t['target']} {t['weight']:g}" for t in v["tally"]) or "无票"
    m = v.get("margins") or {}
    r = cur.get("remind") or {}
    bits = [f"票型：{standings}"]
    if m.get("leader") and m.get("runner_up"):
        bits.append(f"{m['runner_up']} 追平差 {m.get('to_tie', 0):g}，反超差 {m.get('to_overtake', 0):g}" + ("（已成定局）" if m.get("decided") else ""))
    if r:
        bits.append(f"未投票 {len(r.get('not_voted', []))} 人，发言不足 {len(r.get('below', []))} 人，"
                    f"距关门 {max(0, int(r.get('closes_in_s', 0))) // 60} 分钟")
    return "；".join(bits)
