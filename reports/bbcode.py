"""The announcement (公示) in Discuz! BBCode, ready to paste into the vote thread.

It says only what players may know: the count, the outcome, every ballot that does not count and
why (invalid, replaced by a change, its voter or target out during the day), who did not vote, the
lurking cards and the priest election, each reason in the rule's words (reports/_public.py); notes
for the director (ruleset fields, 请导演核对) stay in the review page. Flags under review, roles and post
details stay out. Every name and reason comes from posts or the game file, so each is made
inert before it goes in: a zero-width joiner after `[` and `<` keeps Discuz from reading a tag.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from ._public import public_reasons, uncounted
from ._text import CARD_ZH, KIND_ZH, card_key, clean, findpost_url, floor_label, fmt_time, num, safe_base, zone

ZWJ = "\u200d"

# Discuz colours per card; yellow is darkened to stay readable on a white post.
_CARD_COLOUR = {"yellow": "#D4A000", "blue": "#1E6FD9", "red": "#D00000", "green": "#2E8B3A"}


def inert(value: Any) -> str:
    """Text that Discuz shows as written: no tag, smiley-code or HTML can start inside it."""
    return clean(value).replace("[", "[" + ZWJ).replace("<", "<" + ZWJ)


def _names(names: Iterable[Any]) -> str:
    return "、".join(inert(n) for n in names if clean(n)) or "无"


def _voters(voters: Iterable[Any], floors: Mapping[str, int], links: Mapping[str, str]) -> str:
    out = []
    for v in voters:
        name = clean(v)
        if not name:
            continue
        f = floors.get(name)
        label = f"#{f}" if name not in links else f"[url={links[name]}]#{f}[/url]"
        out.append(inert(name) + (f"[color=gray]（{label}）[/color]" if f is not None else ""))
    return "、".join(out) or "—"


def _counted_floors(ballots: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """Each voter's standing floor, so readers can check the count against the thread."""
    floors: dict[str, int] = {}
    for b in ballots:
        f = b.get("floor")
        if b.get("counted") and isinstance(f, int) and not isinstance(f, bool):
            floors[clean(b.get("voter"))] = f
    return floors


def _floor_links(analysis: Mapping[str, Any], ballots: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """Each counted voter's floor on the forum (findpost), built only from the forum root and integers."""
    base = safe_base((analysis.get("game") or {}).get("base_url"))
    if base is None or "[" in base or "]" in base:
        return {}
    tid = (analysis.get("threads") or {}).get("vote")
    links: dict[str, str] = {}
    for b in ballots:
        url = findpost_url(base, tid, b.get("pid")) if b.get("counted") and b.get("source", "thread") == "thread" else None
        if url:
            links[clean(b.get("voter"))] = url
    return links


def _card(card: Any) -> str:
    key = card_key(card)
    if not key:
        return inert(card)
    return f"[color={_CARD_COLOUR[key]}][b]{CARD_ZH[key]}[/b][/color]"


def _tally_table(tally: list[Mapping[str, Any]], floors: Mapping[str, int], links: Mapping[str, str]) -> list[str]:
    rows = ["[table=98%]",
            "[tr][td][b]投票对象[/b][/td][td][b]票数[/b][/td][td][b]投票者（按楼层）[/b][/td][/tr]"]
    for t in tally:
        rows.append(f"[tr][td][b]{inert(t.get('target'))}[/b][/td][td]{num(t.get('weight'))}[/td]"
                    f"[td]{_voters(t.get('voters') or [], floors, links)}[/td][/tr]")
    rows.append("[/table]")
    return rows


def _outcome(outcome: Mapping[str, Any]) -> str:
    tie = [n for n in outcome.get("tie") or [] if clean(n)]
    out = clean(outcome.get("out"))
    surv = outcome.get("survives")
    if isinstance(surv, Mapping) and clean(surv.get("player")) and not out:
        why = clean(surv.get("reason"))
        return (f"[b]结果：[/b][b]{inert(surv.get('player'))}[/b] 得票最多，但{('因' + inert(why)) if why else ''}"
                "不出局，[color=#D00000][b]无人出局[/b][/color]")
    if tie and not out:
        return f"[b]结果：[/b]{_names(tie)} [color=#D00000][b]平票，无人出局[/b][/color]"
    if out:
        extra = f"（{_names(tie)} 平票）" if tie else ""
        return f"[b]结果：[/b][color=#D00000][b]{inert(out)}[/b][/color] 出局{extra}"
    return "[b]结果：[/b]无人得票，无人出局"


def _head(b: Mapping[str, Any]) -> str:
    """`#9 立夏（投票：寒露）`: the floor (or 代投), the voter, the kind and what was written."""
    kind = KIND_ZH.get(clean(b.get("kind")), "投票")
    target = clean(b.get("target") or b.get("written_target"))
    if clean(b.get("kind")) == "abstain":
        target = ""
    where = floor_label(b.get("floor")) or ("代投" if b.get("proxy") else "")
    return f"{where} {inert(b.get('voter'))}（{kind}{'：' + inert(target) if target else ''}）".strip()


def _uncounted(ballots: list[Mapping[str, Any]]) -> list[str]:
    """Every ballot that does not count, with why: invalid, replaced by a change, or no longer
    counted because its voter or its target went out during the day."""
    return [f"[*]{_head(b)}：[b]{label}[/b]，{inert(why)}" for b, label, why in uncounted(ballots)]


EDIT_CODES = ("edited_after_lock", "edited_after_close", "edited_target", "edited_original_unknown")


def _edit_notes(ballots: Iterable[Mapping[str, Any]]) -> list[str]:
    """Counted ballots whose post was edited: players see that the edit was read and how it counted."""
    lines = []
    for b in ballots:
        if not b.get("valid", True):
            continue
        why = public_reasons(b.get("problems") or [], EDIT_CODES)
        if why:
            head = f"{floor_label(b.get('floor'))} {inert(b.get('voter'))}"
            lines.append(f"[*]{head.strip()}：{inert(why)}")
    return lines


def _penalties(penalties: Iterable[Mapping[str, Any]]) -> list[str]:
    lines = []
    for p in penalties:
        reason = clean(p.get("reason"))
        unsure = "（暂定，待导演核对帐号）" if p.get("provisional_why") == "unknown_account" else ""
        lines.append(f"[*][b]{inert(p.get('player'))}[/b] {_card(p.get('card'))}"
                     f"（{inert(p.get('rule'))}）{'：' + inert(reason) if reason else ''}{unsure}")
    return lines


def render_bbcode(analysis: Mapping[str, Any], *, floor_links: bool = False) -> str:
    """The day's 公示 as BBCode text, ending in a newline; with `floor_links` each voter's floor is
    a link to the post on the forum (the review desk's announcement)."""
    game = analysis.get("game") or {}
    tz = zone(game.get("timezone"))
    votes = analysis.get("votes") or {}
    activity = analysis.get("activity") or {}
    day = analysis.get("day")
    ballots = [b for b in votes.get("ballots") or [] if isinstance(b, Mapping)]
    name = inert(game.get("name") or game.get("cite") or "")

    out = [f"[size=5][b]{name + ' ' if name else ''}第{num(day)}天 投票公示[/b][/size]"]
    at = votes.get("at") or analysis.get("at")
    line = f"[color=gray]统计截至 {fmt_time(at, tz)}"
    if analysis.get("closes"):
        line += f"，关门 {fmt_time(analysis.get('closes'), tz)}"
    out.append(line + "[/color]")
    if votes.get("provisional"):
        out.append("[color=#D00000][b]暂时结果[/b]：投票尚未结束（或关门后尚未重新统计），以关门后的公示为准。[/color]")
    if activity.get("accelerated"):
        since = votes.get("accelerated_since")
        if votes.get("accelerated_voids") == "after_granted" and since:
            out.append(f"[color=#D00000]本讨论日自 {fmt_time(since, tz)} 起执行加速，此后的改票作废。[/color]")
        else:
            out.append("[color=#D00000]本讨论日已加速，改票作废。[/color]")
    out.append("")

    out.append("[size=4][b]票数统计[/b][/size]")
    tally = [t for t in votes.get("tally") or [] if isinstance(t, Mapping)]
    floors = _counted_floors(ballots)
    if tally:
        out.extend(_tally_table(tally, floors, _floor_links(analysis, ballots) if floor_links else {}))
    else:
        out.append("暂无有效票。")
    if votes.get("abstained"):
        out.append(f"弃权：{_voters(votes['abstained'], floors, {})}")
    heavy = [b for b in ballots if b.get("counted") and b.get("target") and clean(b.get("voter")) == clean(votes.get("priest"))
             and isinstance(b.get("weight"), (int, float)) and b.get("weight") != 1]
    if heavy:  # a count of 4.5 from four voters needs its reason beside it
        out.append(f"[color=gray]神父 {inert(votes.get('priest'))} 的票计 {num(heavy[0]['weight'])} 票。[/color]")
    out.append("")
    outcome = votes.get("outcome") or {}
    out.append(_outcome(outcome))
    reds = [n for n in (outcome.get("red_carded") or []) if clean(n)] if isinstance(outcome, Mapping) else []
    if reds:
        when = "（在投票出局之前结算，其票及投给其的票不计）" if outcome.get("red_resolves") == "before_vote" else "（在投票结算之后执行）"
        out.append(f"[b]红牌罚下：[/b][color=#D00000][b]{_names(reds)}[/b][/color]{when}")
    out.append("")

    # every ballot posted is in the table, the abstentions or this list, so players can check the count
    dropped = _uncounted(ballots)
    counted = sum(1 for b in ballots if b.get("counted"))
    out.append("[size=4][b]未计入的票[/b][/size]"
               + (f"（共 {len(ballots)} 张票：{counted} 张计入，{len(dropped)} 张未计入）" if ballots else ""))
    out.extend(["[list]", *dropped, "[/list]"] if dropped else ["无"])
    out.append("")

    edits = _edit_notes(ballots)
    if edits:
        out.append("[size=4][b]编辑说明[/b][/size]")
        out.extend(["[list]", *edits, "[/list]", ""])

    out.append(f"[b]未投票：[/b]{_names(votes.get('not_voted') or [])}")
    out.append("")

    penalties = [p for p in activity.get("penalties") or [] if isinstance(p, Mapping)]
    out.append("[size=4][b]潜水处罚[/b][/size]" + ("（暂定，以关门后的统计为准）" if activity.get("penalties_final") is False else ""))
    out.extend(["[list]", *_penalties(penalties), "[/list]"] if penalties else ["无"])

    election = analysis.get("election")
    if isinstance(election, Mapping) and clean(election.get("winner")):
        out.append("")
        out.append(f"[b]神父推举：[/b][color=#1E6FD9][b]{inert(election['winner'])}[/b][/color] 当选")
        rows = [f"{inert(t.get('target'))} {num(t.get('weight'))}"
                for t in election.get("tally") or [] if isinstance(t, Mapping)]
        if rows:
            out.append("[color=gray]推举票数：" + "，".join(rows) + "[/color]")
        tied = [clean(x) for x in election.get("tied_at_top") or [] if clean(x)]
        if len(tied) > 1:  # players see equal counts: say what made the winner the winner
            how = "最先达到" if election.get("rule") == "first_ever" else "最先达到并一直保持"
            when = f"于 {fmt_time(election.get('reached_at'), tz)} " if election.get("reached_at") else ""
            out.append(f"[color=gray]{_names(tied)} 同为 {num(election.get('top'))} 票；"
                       f"{inert(election['winner'])} {when}{how}这一票数，按“最先获得投票数最多的角色当选神父”当选。[/color]")

    out.append("")
    out.append("[color=gray]以上为导演统计，如有疑问请向导演反映。[/color]")
    return "\n".join(out) + "\n"
