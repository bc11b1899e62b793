"""Terminal views (rich) of the engine's results: rendering only, no rule is computed here."""
from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from reports._text import clauses

CARD_ZH = {"green": "绿牌", "blue": "蓝牌", "yellow": "黄牌", "red": "红牌"}
CARD_STYLE = {"green": "green", "blue": "blue", "yellow": "yellow", "red": "bold red"}


def _num(x: float) -> str:
    return f"{x:g}"


def votes_view(a: Any) -> Group:
    v = a.votes_json()
    parts: list[Any] = []
    for w in v.get("warnings") or []:
        if w.get("kind") == "stale_scan":  # before the counts: they may be missing the last posts
            parts.append(Text("注意 warning: " + w.get("message", ""), style="bold red"))
    if v.get("provisional"):
        seen = (v.get("seen_until") or "")[:16] or "从未"
        parts.append(Text(f"暂时结果 provisional: 投票尚未结束或关门后还没有扫描（最后扫描 {seen}），票数还会变。",
                          style="bold yellow"))
    t = Table(title=f"第{v['day']}天 票型{'（暂时结果）' if v.get('provisional') else ''} (as of {v.get('at', '')[:16]})",
              title_justify="left")
    t.add_column("投票对象 target")
    t.add_column("票数 weight", justify="right")
    t.add_column("投票者 voters")
    for row in v["tally"]:
        t.add_row(escape(row["target"]), _num(row["weight"]), escape("、".join(row["voters"])))
    if v.get("abstained"):
        t.add_row("弃权", str(len(v["abstained"])), escape("、".join(v["abstained"])))
    parts.append(t)
    o = v["outcome"]
    if o.get("survives"):
        sv = o["survives"]
        parts.append(Text(f"无人出局 nobody out: {sv.get('player')} 得票最多但不出局"
                          + (f"（{sv.get('reason')}）" if sv.get("reason") else ""), style="bold"))
    elif o.get("out"):
        parts.append(Text(f"出局 out: {o['out']}", style="bold"))
    elif o.get("tie"):
        parts.append(Text(f"平票 tie: {'、'.join(o['tie'])} — 无人出局", style="bold"))
    else:
        parts.append(Text("无有效票 no counted votes"))
    if o.get("red_carded"):
        when = "投票出局之前结算" if o.get("red_resolves") == "before_vote" else "投票结算之后执行"
        parts.append(Text(f"红牌罚下 sent off: {'、'.join(o['red_carded'])}（{when}）", style="bold red"))
    m = v.get("margins") or {}
    if m.get("leader"):
        decided = "已成定局 decided" if m.get("decided") else "未定 not decided"
        parts.append(Text(f"领先 {m['leader']} {_num(m.get('leader_weight', 0))}；"
                          f"{m.get('runner_up') or '—'} 追平还需 {_num(m.get('to_tie', 0))}，"
                          f"反超还需 {_num(m.get('to_overtake', 0))}；{decided}"))
    el = v.get("election")
    if el and el.get("winner"):
        parts.append(Text(f"神父推举 priest election: {el['winner']}"))
    bad = [b for b in v["ballots"] if b["problems"]]
    if bad:
        bt = Table(title="无效或未计入的票 ballots with problems", title_justify="left")
        for col in ("楼层 floor", "投票者 voter", "类型 kind", "对象 target", "问题 problems"):
            bt.add_column(col)
        for b in bad:
            shown = b.get("written_target") or b["target"] or ("弃权" if b["kind"] == "abstain" else "—")
            bt.add_row(str(b["floor"] or "—"), escape(b["voter"] or ""), b["kind"], escape(shown),
                       escape(clauses(f"[{p['code']}] {p['message']}" for p in b["problems"])))
        parts.append(bt)
    parts.append(Text("未投票 not voted: " + ("、".join(v["not_voted"]) or "无")))
    if v.get("only_invalid"):
        parts.append(Text("只有无效票 only invalid ballots: " + "、".join(v["only_invalid"]), style="bold yellow"))
    acc = v.get("acceleration") or {}
    if acc.get("readings"):
        state = "已加速 accelerated" if acc.get("accelerated") else "未加速 not accelerated"
        got = "、".join(f"{r['player']}（#{r['floor']}）" for r in acc.get("counted_requests") or [])
        when = acc.get("judged_at")
        moment = f"{when[5:10]} {when[11:16]}" if isinstance(when, str) and len(when) >= 16 else "—"
        how = "截止时刻为准" if acc.get("judged") == "at_cutoff" else "达到即加速"
        parts.append(Text(f"进程帖 progress: {state}；计入申请 {acc.get('counted', len(acc.get('counted_requests') or []))}"
                          f"/{acc.get('needed')}（{moment} 时存活 {acc.get('living')} 人，需 {acc.get('needed')} 人；"
                          f"{how}，acceleration.judged = {acc.get('judged')}）"
                          + (f"，{acc['granted_on_departure']}出局后达到" if acc.get("granted_on_departure") else "")
                          + (f"：{got}" if got else "")))
    for w in [w for w in v.get("warnings") or [] if w.get("kind") != "stale_scan"]:
        parts.append(Text("注意 warning: " + w.get("message", ""), style="bold yellow"))
    return Group(*parts)


def _voted_cell(p: dict[str, Any]) -> str:
    """✓ only for a counted ballot; otherwise what the ballots were (出局后投票, 无效票, 票未计入) or ✗."""
    if p["voted"]:
        return "✓"
    vote = p.get("vote") or {}
    return "✗" if vote.get("status", "none") == "none" else f"✗ {vote.get('label', '')}"


def activity_view(a: Any) -> Group:
    j = a.activity_json()
    t = Table(title=f"第{j['day']}天 发言统计 posts (加速 accelerated: {'是' if j.get('accelerated') else '否'})",
              title_justify="left")
    for col, just in (("玩家 player", "left"), ("发帖 posts", "right"), ("计入 counted", "right"), ("投票 voted", "center")):
        t.add_column(col, justify=just)
    notes: list[Text] = []
    for p in j["players"]:
        t.add_row(escape(p["player"]) + (f"（{p['out_at'][5:16].replace('T', ' ')} 出局）" if p.get("out_at") else ""),
                  str(p["posts"]), str(p["counted_posts"]), _voted_cell(p))
        vote = p.get("vote") or {}
        if not p["voted"] and vote.get("problems"):  # what the ballots were, in the count's words
            floors = "、".join(f"#{f}" if f is not None else "代投" for f in vote.get("floors") or [])
            notes.append(Text(f"{p['player']} {floors} {vote.get('label', '')}："
                              + clauses(q.get("message") or q.get("code") for q in vote["problems"])))
    parts: list[Any] = [t, *notes]
    if j["penalties"]:
        final = j.get("penalties_final", True)
        pt = Table(title="潜水判罚 lurking penalties" + ("" if final else "（暂定 provisional：当天关门后还没有统计过）"),
                   title_justify="left")
        for col in ("玩家 player", "判罚 card", "规则 rule", "理由 reason"):
            pt.add_column(col)
        for p in j["penalties"]:
            reason = p["reason"] + (f"（{p['note']}）" if p.get("note") else "") \
                + ("（暂定：名单上的名字没有发帖，另有不在名单上的帐号发帖，见下方提醒）" if p.get("provisional_why") == "unknown_account" else "")
            pt.add_row(escape(p["player"]), Text(CARD_ZH.get(p["card"], p["card"]), style=CARD_STYLE.get(p["card"], "")),
                       escape(p["rule"]), escape(reason))
        parts.append(pt)
    else:
        parts.append(Text("无潜水判罚 no lurking penalties"))
    for w in j.get("warnings") or []:
        if w.get("kind") == "stale_scan":  # before the counts: they may be missing the last posts
            parts.insert(0, Text("注意 warning: " + w["message"], style="bold red"))
        else:
            parts.append(Text("注意 warning: " + w["message"], style="bold yellow"))
    return Group(*parts)


def flags_view(day: int, flags: list[dict[str, Any]]) -> Group:
    if not flags:
        return Group(Text(f"第{day}天 没有需要复核的帖子 nothing flagged"))
    t = Table(title=f"第{day}天 待复核 flags for review ({len(flags)})", title_justify="left")
    for col in ("id", "楼层 floor", "作者 author", "类别 category", "规则 rule", "证据 evidence", "建议 card", "状态 state"):
        t.add_column(col)
    for f in flags:
        t.add_row(escape(str(f.get("id"))), f"{f.get('tid', '')}#{f.get('floor', '')}", escape(f.get("author") or ""),
                  f["category"], escape(f["rule"]), escape(f.get("evidence") or ""),
                  CARD_ZH.get(f.get("suggested_card") or "", f.get("suggested_card") or ""), f.get("state", "open"))
    return Group(t)


def cards_view(ledger_json: dict[str, Any]) -> Group:
    players = ledger_json.get("players") or []
    if isinstance(players, dict):
        players = list(players.values())
    if not players:
        return Group(Text("还没有判罚 no cards yet"))
    t = Table(title="判罚记录 card ledger", title_justify="left")
    for col in ("玩家 player", "蓝 blue", "黄 yellow", "红 red", "罚下 ejected", "明细 entries"):
        t.add_column(col)
    for p in players:
        entries = "；".join(f"D{e.get('day')} {CARD_ZH.get(e.get('card'), e.get('card'))} {e.get('rule')} {e.get('reason') or ''}".strip()
                           + ("（暂定）" if e.get("provisional") else "") for e in p.get("entries", []))
        t.add_row(escape(p.get("player", "")), str(p.get("blue", 0)), str(p.get("yellow", 0)), str(p.get("red", p.get("reds", 0))),
                  "是" if p.get("ejected") else "", escape(entries))
    parts: list[Any] = [t]
    for w in ledger_json.get("warnings") or []:
        if w.get("kind") == "unknown_account":
            parts.append(Text("注意 warning: " + w.get("message", ""), style="bold yellow"))
    for c in ledger_json.get("camps") or []:
        if c.get("limit_reached"):
            parts.append(Text(f"注意: {c.get('camp')} 阵营累计红牌 {c.get('reds')} 张 — 请导演决定是否判负", style="bold red"))
    return Group(*parts)
