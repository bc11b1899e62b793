"""Rule decisions that change the count (issue 18): each case quotes the rule sentence it rests on.

Acceleration by stance and the moment it voids changes, proxies, red cards, the survivor, edits
the scanner never saw, the readings where the rule posts are open, colon look-alikes, 诈尸 at the
post's moment, and the close-time check.
"""
from __future__ import annotations

import dataclasses
import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from gamedef.gamefile import Day, ManualCard, ProxyVote
from gamedef.ruleset import load_ruleset
from daoyan.store import Store
from engine.acceleration import acceleration, read_post
from engine.activity import count_activity, water_heavy
from engine.cards import CardEntry, entry_from_manual, red_moments
from engine.election import elect_priest
from engine.lurking import day_record, lurking_penalties
from engine.schedule import check_close, opening_post_close, rule_close_date
from engine.state import DayState
from engine.votes import count_votes
from parsers.ballot import parse_ballot
from parsers.models import EditMark, Post, Quote, ReplyRef
from reports.bbcode import render_bbcode

TZ = timezone(timedelta(hours=8))
M84 = load_ruleset("m84")
R004 = load_ruleset("004")
RS = {"m84": M84, "004": R004}
PLAYERS = ("饺子", "包子", "馄饨", "汤圆", "烧卖", "春卷")
DAY = Day(number=1, discussion_tid=1, vote_tid=2, progress_tid=3, opens=datetime(2026, 12, 1, 10, tzinfo=TZ),
          closes=datetime(2026, 12, 2, 22, tzinfo=TZ))


def t(s: str) -> datetime:
    """'1 12:00' → December 1st, 12:00 (+08:00)."""
    d, hm = s.split()
    h, m = hm.split(":")
    return datetime(2026, 12, int(d), int(h), int(m), tzinfo=TZ)


def state(living=PLAYERS, whistled=(), survives=()) -> DayState:
    return DayState(day=1, at=DAY.opens, players=PLAYERS, living=tuple(living),
                    out=tuple(p for p in PLAYERS if p not in living), priest=None, whistled=tuple(whistled),
                    excused=(), accelerated_event=False, directors=("导演A",), survives=tuple(survives))


def P(floor: int, author: str, text: str, at: str, *, tid: int = 2, quote: int | None = None,
      reply: int | None = None, edit: datetime | None = None) -> Post:
    return Post(tid=tid, pid=100 * tid + floor, floor=floor, author=author, uid=None, posted_at=t(at),
                time_precision="second", message_html=text, text=text,
                quotes=[Quote(100 * tid + quote, None)] if quote else [],
                reply_to=ReplyRef(100 * tid + reply, reply, None) if reply else None,
                edit=EditMark(author, edit) if edit else None)


def V(target: str, reason: str = "理由") -> str:
    return f"投票对象：{target}\n投票理由：{reason}"


def C(target: str, reason: str = "改票理由") -> str:
    return f"改票对象：{target}\n改票理由：{reason}"


def ballot(c, floor):
    return next(b for b in c.ballots if b.floor == floor)


def tally(c) -> dict[str, float]:
    return {e.target: e.weight for e in c.tally}


# --- 进程帖: each post read by its stance ----------------------------------------------------------
# M84 讨论日长短: 未出局角色可在进程帖中申请加速或延时。当日申请人数 … 大于等于存活人数的一半，即判定加速
# 004 讨论日长短: 如果在进程帖中申请加速的玩家超过所有存活玩家的二分之一则游戏进程加速
STANCES = [
    ("申请加速", "request"), ("加速", "request"), ("加速！", "request"), ("我也申请加速", "request"),
    ("同意加速", "request"), ("求加速", "request"), ("加速+1", "request"), ("不如加速吧", "request"),
    ("申请加速，可以吗？", "request"), ("我不反对加速", "request"), ("加速加速", "request"), ("快点加速吧", "request"),
    ("说的不错申请加速", "request"), ("申请延时", "request"), ("提议加快进程", "request"), ("我真的不是很想加速", "objection"),
    ("我不想加速，还没聊够", "objection"), ("不申请加速", "objection"), ("先别急着加速", "objection"),
    ("没必要加速", "objection"), ("反对加速", "objection"), ("不要延时", "objection"),
    ("撤回加速申请", "withdrawal"), ("我撤回申请，不加速了", "withdrawal"),
    ("谁申请加速了？", "question"), ("要不要加速？", "question"), ("能加速吗", "question"),
    ("大家都申请加速了吗", "question"),
    ("饺子申请加速了", "mention"), ("他说“申请加速”", "mention"), ("昨天加速以后节奏好快", "mention"),
    ("有人申请加速", "mention"),
]


@pytest.mark.parametrize("text, want", STANCES)
def test_progress_post_stance(text, want):
    got = read_post(text, M84.acceleration, author="包子", players=PLAYERS)
    kind = "delay" if "延" in text else "accelerate"
    assert got == {kind: want}


def posts3(*items) -> list[Post]:
    """Progress-thread posts: (author, text, 'D HH:MM'[, reply floor])."""
    out = []
    for i, it in enumerate(items):
        a, txt, at = it[:3]
        out.append(P(i + 2, a, txt, at, tid=3, reply=it[3] if len(it) > 3 else None))
    return out


def test_objections_questions_and_withdrawals_do_not_accelerate():
    """The issue's M84 day: a single objection made the day accelerated. 3 of 6 ask = 至少一半."""
    ps = posts3(("饺子", "申请加速", "1 11:00"), ("包子", "申请加速", "1 12:00"),
                ("馄饨", "我不想加速，还没聊够", "1 13:00"), ("汤圆", "谁申请加速了？", "1 14:00"),
                ("烧卖", "先别急着加速", "1 15:00"), ("饺子", "撤回加速申请", "1 16:00"))
    a = acceleration(ps, ruleset=M84, day=DAY, state=state())
    assert not a.accelerated and a.requests == ("包子",)
    assert [r.reading for r in a.readings] == [{"accelerate": x} for x in
                                               ("request", "request", "objection", "question", "objection", "withdrawal")]
    j = a.to_json()
    assert [r["floor"] for r in j["counted_requests"]] == [3]
    assert len(j["readings"]) == 6 and all(r["reading_zh"] for r in j["readings"])


@pytest.mark.parametrize("preset", ["m84", "004"])
@pytest.mark.parametrize("seconding, granted", [("request", True), ("ignored", False)])
def test_plus_one_under_a_request_counts_per_ruleset_field(preset, seconding, granted):
    """004 玩家须知 8: 若场上未出局的玩家过半数同意加速则执行加快进程 — agreeing is asking."""
    rs = RS[preset]
    rs = dataclasses.replace(rs, acceleration=dataclasses.replace(rs.acceleration, seconding=seconding))
    ps = posts3(("饺子", "申请加速", "1 11:00"), ("包子", "+1", "1 11:10", 2), ("馄饨", "附议", "1 11:20"),
                ("汤圆", "申请加速", "1 11:30"))
    a = acceleration(ps, ruleset=rs, day=DAY, state=state())
    assert a.accelerated is granted
    assert ("包子" in a.requests) is granted and ("馄饨" in a.requests) is granted
    assert "附议第2楼" in a.readings[1].note


# --- acceleration voids changes: by the moment (M84) or the whole day (004) --------------------------
ACC_DAY = [P(2, "饺子", V("包子"), "1 11:00"), P(3, "馄饨", V("汤圆"), "1 11:30"),
           P(4, "饺子", C("馄饨"), "1 12:00", quote=2),  # before the acceleration
           P(5, "馄饨", C("包子"), "1 16:00", quote=3)]  # after it


@pytest.mark.parametrize("preset, before_counts", [("m84", True), ("004", False)])
def test_acceleration_voids_changes_by_its_moment(preset, before_counts):
    """M84: 执行加速时，所有人不可改票 (only after it took effect); 004: 进程加速后不允许改票，所有改票作废."""
    c = count_votes(ACC_DAY, rules=RS[preset], day=DAY, state=state(), accelerated=True,
                    accelerated_since=t("1 15:00"))
    assert ballot(c, 4).counted is before_counts
    assert ("change_while_accelerated" in ballot(c, 4).codes) is not before_counts
    assert not ballot(c, 5).counted and "change_while_accelerated" in ballot(c, 5).codes
    assert c.to_json()["accelerated_voids"] == RS[preset].vote.accelerated_voids


# --- proxies --------------------------------------------------------------------------------------
def test_m84_proxy_needs_a_target_not_a_reason():
    """M84 投票规则: 代投时需给出明确的投票对象（不可设立投票条件）."""
    c = count_votes([P(2, "导演A", "【代投】饺子\n投票对象：包子", "1 12:00")], rules=M84, day=DAY, state=state())
    b = ballot(c, 2)
    assert b.proxy and b.counted and b.codes == [] and tally(c) == {"包子": 1}


@pytest.mark.parametrize("requested, posted, counted, code", [
    ("2 20:30", "2 21:20", True, None),                    # asked 90 min before, posted 40 min before
    ("2 21:10", "2 21:20", False, "proxy_request_late"),   # asked 50 min before close
    ("2 20:30", "2 21:40", False, "change_in_lock_window"),  # posted 20 min before close
    (None, "2 20:50", True, None),                         # no request time, but the post itself is ≥ 1 h before
    (None, "2 21:20", False, "change_in_lock_window"),     # no request time: judged on the post
])
def test_004_proxy_change_request_and_post_deadlines(requested, posted, counted, code):
    """004 玩家须知 9: 如需代投改票，需在投票截止前1个小时，联系导演代投。若导演在投票截止前30分钟内再让导演代投，该票作废。"""
    pv = ProxyVote(day=1, player="饺子", target="馄饨", at=t(posted), change=True,
                   requested_at=t(requested) if requested else None)
    c = count_votes(ACC_DAY[:2], rules=R004, day=DAY, state=state(), proxies=[pv])
    b = next(x for x in c.ballots if x.source == "gamefile")
    assert b.counted is counted
    assert (code in b.codes) if code else b.codes == []


# --- red cards ------------------------------------------------------------------------------------
RED_DAY = [P(2, "饺子", V("包子"), "1 11:00"), P(3, "馄饨", V("包子"), "1 11:30"),
           P(4, "包子", V("汤圆"), "1 12:00"), P(5, "汤圆", V("饺子"), "1 12:30"), P(6, "烧卖", V("汤圆"), "1 13:00")]


def test_m84_red_card_resolves_after_the_vote():
    """M84 出局: 白天红牌罚下导致的出局结算在投票结算之后执行 — the vote first, with the ejected's ballot."""
    c = count_votes(RED_DAY, rules=M84, day=DAY, state=state(), ejected={"包子": t("1 15:00")})
    assert tally(c) == {"包子": 2, "汤圆": 2, "饺子": 1} and ballot(c, 4).counted
    assert c.outcome.red_carded == ("包子",) and c.outcome.red_resolves == "after_vote"


def test_004_red_card_resolves_before_the_vote():
    """004 出局: 白天红牌罚下在被投票出局之前 — the ejected's ballot and the votes for them leave the count."""
    c = count_votes(RED_DAY, rules=R004, day=DAY, state=state(), ejected={"包子": t("1 15:00")})
    assert tally(c) == {"汤圆": 1, "饺子": 1}
    assert not ballot(c, 4).counted and "voter_out" in ballot(c, 4).codes
    assert "target_out" in ballot(c, 2).codes and "红牌罚下" in ballot(c, 2).problems[-1].message
    assert c.outcome.red_carded == ("包子",)
    bb = render_bbcode({"day": 1, "votes": c.to_json(), "activity": {}, "game": {}})
    assert "红牌罚下" in bb


def test_a_red_during_the_day_from_a_card_a_flag_or_three_yellows():
    """M84 判罚制度: 累计三张“黄牌”合并为一张“红牌”; 玩家受到红牌判罚时出局（称为“红牌罚下”）."""
    manual = entry_from_manual(ManualCard(day=1, player="包子", card="red", rule="违规判定 8(1)", at=t("1 15:00")), M84)
    flag = CardEntry(player="馄饨", card="red", day=1, rule="M84 违规判定 2(3)", reason="", source="flag", at=t("1 16:00"))
    yellows = [CardEntry(player="汤圆", card="yellow", day=d, rule="x", reason="", source="lurking") for d in (0, 0, 1)]
    got = red_moments([manual, flag, *yellows], ruleset=M84, day=1)
    assert got == {"包子": t("1 15:00"), "馄饨": t("1 16:00"), "汤圆": None}
    assert red_moments(yellows[:2], ruleset=M84, day=1) == {}


# --- 004 捍卫 / 尊贵: the leader stays in -------------------------------------------------------------
def test_survives_names_the_leader_and_nobody_is_out():
    """004 总体流程 6: 高票者出局，但若触发<捍卫>或<尊贵>，或平票则无人出局."""
    posts = [P(2, "饺子", V("包子"), "1 11:00"), P(3, "馄饨", V("包子"), "1 11:30"), P(4, "包子", V("汤圆"), "1 12:00")]
    c = count_votes(posts, rules=R004, day=DAY, state=state(survives=(("包子", "捍卫"),)))
    assert c.outcome.out is None and c.outcome.survives == "包子" and c.outcome.survives_reason == "捍卫"
    j = c.to_json()["outcome"]
    assert j["survives"] == {"player": "包子", "reason": "捍卫"} and j["out"] is None
    bb = render_bbcode({"day": 1, "votes": c.to_json(), "activity": {}, "game": {}})
    assert "包子[/b] 出局" not in bb and "出局[/b]" not in bb.replace("无人出局", "") and "因捍卫不出局" in bb


# --- edits ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("edit_at, flagged", [("2 20:30", False), ("2 21:10", True), ("2 22:30", True)])
def test_edit_inside_the_lock_is_flagged_when_the_original_was_never_seen(edit_at, flagged):
    """M84 投票规则: 关门前一小时不允许改票 — an edit there may be a change nobody saw."""
    post = P(2, "饺子", V("包子"), "1 11:00", edit=t(edit_at))
    c = count_votes([post], rules=M84, day=DAY, state=state(), revisions={post.pid: [(t("2 22:40"), post.text)]})
    b = ballot(c, 2)
    assert b.counted and tally(c) == {"包子": 1}
    assert ("edited_original_unknown" in b.codes) is flagged
    if flagged:
        assert "原文未知" in b.problems[0].message


def test_004_typo_fix_is_judged_by_the_edit_time_not_the_scan():
    """004 投票规则: 修改错别字不算做改票 — fixed at 21:50 (before close), first seen by a scan at 22:30."""
    post = P(2, "饺子", V("包仔"), "1 11:00", edit=t("2 21:50"))
    revs = {post.pid: [(t("1 11:05"), V("包仔")), (t("2 21:50"), V("包子"))]}
    c = count_votes([post], rules=R004, day=DAY, state=state(), revisions=revs)
    assert ballot(c, 2).counted and tally(c) == {"包子": 1}


def test_store_keeps_edit_times_as_times_and_migrates_old_text(tmp_path: Path):
    path = tmp_path / "g.sqlite"
    post = P(2, "饺子", V("包子"), "1 11:00", edit=t("1 11:05"))
    with Store(path) as st:
        st.save_posts([post], "html")
        assert st.db.execute("select edited_at from posts").fetchone()[0] == "2026-12-01T11:05:00+08:00"
        assert st.posts(2)[0].edit.at == t("1 11:05")
    con = sqlite3.connect(path)  # a schema-1 store held the forum's text
    con.execute("update posts set edited_at='2026-12-01 11:07'")
    con.execute("update revisions set edited_at='2026-12-01 11:07'")
    con.execute("update meta set value='1' where key='schema_version'")
    con.commit()
    con.close()
    with Store(path) as st:
        assert st.db.execute("select edited_at from posts").fetchone()[0] == "2026-12-01T11:07:00+08:00"
        assert st.db.execute("select edited_at from revisions").fetchone()[0] == "2026-12-01T11:07:00+08:00"
        assert st.db.execute("select value from meta where key='schema_version'").fetchone()[0] == "2"


# --- colons and @ -----------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["投票对象∶包子\n投票理由∶x", "投票对象︰包子\n投票理由︰x", "投票对象꞉包子\n投票理由꞉x",
                                  "投票对象：@包子\n投票理由：x", "投票对象：＠包子 投票理由：x"])
def test_colon_look_alikes_and_at_names_read_as_the_ballot(text):
    """M84 投票规则: 特别地，投票格式中标点符号不区分全半角 — never silently "not voted"."""
    b = parse_ballot(P(2, "饺子", text, "1 11:00"), M84.vote, PLAYERS, ())
    assert b is not None and b.target == "包子" and b.valid


# --- readings -----------------------------------------------------------------------------------
def _act(posts, rs, day=DAY, st=None):
    return count_activity({"discussion": posts}, ruleset=rs, day=day, state=st or state())


@pytest.mark.parametrize("mode, cards", [("skip", 1), ("break", 0)])
def test_accelerated_day_inside_a_run(mode, cards):
    """M84 违规判定 5(2): 连续三个未执行加速的讨论日发言均不足十帖 — an accelerated day 2 is skipped (or breaks)."""
    rs = dataclasses.replace(M84, activity=dataclasses.replace(M84.activity, accelerated_in_run=mode))
    hist = []
    for n, acc in ((1, False), (2, True), (3, False), (4, False)):
        d = dataclasses.replace(DAY, number=n, opens=DAY.opens + timedelta(days=2 * (n - 1)),
                                closes=DAY.closes + timedelta(days=2 * (n - 1)))
        posts = [P(10 + i, "饺子", "我觉得包子有问题", "1 11:00", tid=1) for i in range(7)]
        posts = [dataclasses.replace(p, posted_at=d.opens + timedelta(hours=1)) for p in posts]
        act = count_activity({"discussion": posts}, ruleset=rs, day=d, state=state(living=("饺子",)))
        hist.append(day_record(act, accelerated=acc, voted=("饺子",)))
    pens = [p for p in lurking_penalties(hist, ruleset=rs) if p.rule.endswith("5(2)")]
    assert len(pens) == cards


def test_004_no_post_follows_violations_and_water_is_no_post():
    """004 违规判定 5(1): 在未加快进程的单个讨论日没有发言 … （不含纯水帖）; 玩家须知 2 says 不足五贴 (not followed)."""
    posts = [P(10, "饺子", "顶", "1 11:00", tid=1), P(11, "饺子", "哈哈哈", "1 12:00", tid=1),
             P(12, "包子", "我觉得馄饨有问题", "1 12:00", tid=1)]
    act = _act(posts, R004, st=state(living=("饺子", "包子")))
    pens = lurking_penalties([day_record(act, accelerated=False, voted=("饺子", "包子"))], ruleset=R004)
    assert [(p.player, p.threshold) for p in pens] == [("饺子", 1)]
    assert "没有发言" in pens[0].reason and "玩家须知 2" in pens[0].note and pens[0].to_json()["note"] == pens[0].note


def test_election_reading_when_the_leader_dips_and_returns():
    """M84 推举<强制>: 最先获得投票数最多的角色当选神父."""
    posts = [P(2, "饺子", V("包子"), "1 11:00"), P(3, "烧卖", V("包子"), "1 11:05"),
             P(4, "包子", V("馄饨"), "1 11:10"), P(5, "饺子", C("汤圆"), "1 11:15", quote=2),
             P(6, "汤圆", V("馄饨"), "1 11:20"), P(7, "馄饨", V("包子"), "1 11:30")]
    kept = elect_priest(posts, rules=M84, day=DAY, state=state())
    ever = dataclasses.replace(M84, election=dataclasses.replace(M84.election, winner="first_ever"))
    first = elect_priest(posts, rules=ever, day=DAY, state=state())
    assert kept.winner == "馄饨" and kept.to_json()["rule"] == "first_to_reach_top"
    assert first.winner == "包子" and first.to_json()["rule"] == "first_ever"


@pytest.mark.parametrize("required, valid", [(True, False), (False, True)])
def test_abstention_without_a_reason(required, valid):
    """M84 投票规则: 投弃权票时，须在投票对象中填写“弃权” — and the format has a 投票理由 line too."""
    rules = dataclasses.replace(M84.vote, abstain_reason_required=required)
    b = parse_ballot(P(2, "饺子", "投票对象：弃权", "1 11:00"), rules, PLAYERS, ())
    assert b.kind == "abstain" and b.valid is valid


@pytest.mark.parametrize("counts", [True, False])
def test_whistled_players_ballot(counts):
    """M84 黑哨: 在游戏日白天只能发出动物叫声 … vs 每名存活角色每个讨论日限投一票."""
    rs = dataclasses.replace(M84, whistle=dataclasses.replace(M84.whistle, ballot_counts=counts))
    c = count_votes([P(2, "饺子", V("包子"), "1 11:00")], rules=rs, day=DAY, state=state(whistled=("饺子",)))
    assert ballot(c, 2).counted is counts
    assert ("whistled_ballot" if counts else "whistled_voter") in ballot(c, 2).codes


def test_m84_many_water_posts_are_flagged_per_day():
    """M84 违规判定 6(5): 大量无意义水帖 — at the ruleset's per-day threshold."""
    posts = [P(10 + i, "饺子", "顶", "1 11:00", tid=1) for i in range(10)] + [P(30, "包子", "哈哈", "1 11:00", tid=1)]
    act = _act(posts, M84)
    heavy = water_heavy(act, {"discussion": posts}, threshold=M84.activity.water_flag_per_day)
    assert list(heavy) == ["饺子"] and len(heavy["饺子"]) == 10
    assert water_heavy(act, {"discussion": posts}, threshold=R004.activity.water_flag_per_day) == {}


def test_readings_are_listed_with_their_fields():
    fields = {r["field"] for r in M84.readings()}
    assert {"acceleration.seconding", "vote.accelerated_voids", "activity.accelerated_in_run",
            "election.winner", "whistle.ballot_counts", "vote.abstain_reason_required"} <= fields


# --- close times ----------------------------------------------------------------------------------
def _day(n: int, opens: str, closes: str) -> Day:
    o = datetime.fromisoformat(opens).replace(tzinfo=TZ)
    c = datetime.fromisoformat(closes).replace(tzinfo=TZ)
    return Day(number=n, discussion_tid=1, vote_tid=2, opens=o, closes=c)


@pytest.mark.parametrize("preset, n, opens, want", [
    ("m84", 1, "2026-12-01T10:00", "2026-12-02"),  # Tue: 一般讨论日持续两天
    ("m84", 2, "2026-12-04T10:00", "2026-12-06"),  # Fri-Sat meets the weekend: 每逢周末时讨论日延长一天
    ("004", 2, "2026-12-01T10:00", "2026-12-01"),  # A日上午开帖，到A日晚上关帖
    ("004", 2, "2026-12-05T10:00", "2026-12-06"),  # Saturday: 每逢周末就延长一天，也就是A+1日晚上关帖
    ("004", 1, "2026-12-05T10:00", "2026-12-05"),  # 例外的，第一天讨论日不因周末而延长
])
def test_rule_post_day_length(preset, n, opens, want):
    d = _day(n, opens, opens)
    assert rule_close_date(d, RS[preset].schedule).isoformat() == want


def test_close_warning_names_the_rule_and_the_opening_post():
    d = _day(2, "2026-12-01T10:00", "2026-12-03T22:00")
    c = check_close(d, M84.schedule, "第二天开门！关门时间：12月2日 22:00，请大家积极发言。")
    assert c.warn and "12月02日" in c.message and "开门帖" in c.message and "规则帖" in c.message
    ok = check_close(d, M84.schedule, "关门时间：12月3日晚上10点")
    assert not ok.warn and ok.post_time == datetime(2026, 12, 3, 22, tzinfo=TZ)
    assert not check_close(_day(2, "2026-12-01T10:00", "2026-12-02T22:00"), M84.schedule, "").warn
    assert opening_post_close("关门时间：2026-12-02 21:30", d.opens) == (datetime(2026, 12, 2, 21, 30, tzinfo=TZ), True)


def test_an_accelerated_event_with_a_moment_voids_from_that_moment():
    """M84 讨论日长短: 未出局角色减少到一定程度时，导演将自动执行加速 — the director's event says when."""
    st = dataclasses.replace(state(), accelerated_since=t("1 15:00"))
    a = acceleration([], ruleset=M84, day=DAY, state=st)
    assert a.accelerated and a.source == "override" and a.granted_at == t("1 15:00")
    c = count_votes(ACC_DAY, rules=M84, day=DAY, state=st, accelerated=a.accelerated, accelerated_since=a.granted_at)
    assert ballot(c, 4).counted and not ballot(c, 5).counted
    assert not acceleration([], ruleset=M84, day=DAY, state=st, at=t("1 14:00")).accelerated


def test_a_post_in_an_older_days_thread_is_judged_at_its_own_moment(tmp_path: Path):
    """004 违规判定 6(1): 禁止已出局角色在讨论帖、投票帖、进程帖或规则帖中发言 — out at night after day 1,
    a post in day 1's thread during day 2 is 诈尸."""
    from gamedef.gamefile import parse_game
    from engine.state import state_at, state_at_moment

    text = ('[forum]\nbase_url = "http://127.0.0.1:1/"\n[game]\nruleset = "004"\nplayers = ["饺子", "包子"]\n'
            '[[day]]\nnumber = 1\ndiscussion_tid = 1\nvote_tid = 2\nopens = 2026-12-01T10:00:00\ncloses = 2026-12-01T22:00:00\n'
            '[[day]]\nnumber = 2\ndiscussion_tid = 3\nvote_tid = 4\nopens = 2026-12-02T10:00:00\ncloses = 2026-12-02T22:00:00\n'
            '[[event]]\nday = 2\nkind = "out"\nplayer = "包子"\nreason = "night"\n')
    g = parse_game(text, tmp_path / "g.toml")
    moment = datetime(2026, 12, 2, 12, tzinfo=g.timezone)
    assert "包子" not in state_at(g, 1, moment).out  # the old way: day 1's state
    assert "包子" in state_at_moment(g, moment, 1).out


def test_an_at_mention_is_a_name_not_a_pasted_link():
    """Discuz renders @名字 as a link to the member's space: the ballot reads the name, and 贴证
    (M84 违规判定 1(3), 004 违规判定 7(1) 网址) does not see a pasted link."""
    from selectolax.lexbor import LexborHTMLParser

    from parsers.discuz import parse_message

    html = ('<div>投票对象：<a href="home.php?mod=space&amp;username=%E5%8C%85%E5%AD%90" target="_blank" '
            'class="xi2">@包子</a><br />投票理由：看 <a href="http://example.com/x">http://example.com/x</a></div>')
    m = parse_message(LexborHTMLParser(html).css_first("div"))
    assert m.links == ["http://example.com/x"]
    post = dataclasses.replace(P(2, "饺子", "", "1 11:00"), text=m.text())
    assert parse_ballot(post, M84.vote, PLAYERS, ()).target == "包子"


@pytest.mark.parametrize("head, counted", [("【代投】饺子（20:30委托）", True), ("【代投】饺子（21:10委托）", False)])
def test_004_in_thread_proxy_change_states_when_the_player_asked(head, counted):
    """004 玩家须知 9: 如需代投改票，需在投票截止前1个小时，联系导演代投 — read from the 【代投】 post itself."""
    post = P(4, "导演A", head + "\n" + C("馄饨"), "2 21:20")
    c = count_votes(ACC_DAY[:2] + [post], rules=R004, day=DAY, state=state())
    b = ballot(c, 4)
    assert b.proxy and b.voter == "饺子" and b.counted is counted
    assert counted or "proxy_request_late" in b.codes


def test_an_api_read_first_then_the_page_keeps_the_edit_time(tmp_path: Path):
    """The mobile API has no 本帖最后由 … 编辑 marker; the desktop page read after it dates the revision."""
    first = P(2, "饺子", V("包仔"), "1 11:00")
    edited_api = dataclasses.replace(first, text=V("包子"))
    edited_page = dataclasses.replace(edited_api, edit=EditMark("饺子", t("2 21:50")))
    with Store(tmp_path / "g.sqlite") as st:
        st.save_posts([first], "html")
        st.db.execute("update revisions set first_seen='2026-12-01T03:05:00+00:00'")  # seen on day 1
        st.save_posts([edited_api], "api")
        st.save_posts([edited_page], "html")
        revs = st.revisions([first.pid])[first.pid]
        assert [r[1] for r in revs] == [V("包仔"), V("包子")] and revs[1][0] == t("2 21:50")  # not the scan's time
        c = count_votes(st.posts(2), rules=R004, day=DAY, state=state(), revisions={first.pid: revs})
        assert ballot(c, 2).counted and tally(c) == {"包子": 1}  # 修改错别字不算做改票, fixed before close


@pytest.mark.parametrize("text", ["附议楼上", "同楼上", "+1楼上", "附议楼上的申请", "我也是", "附议2楼"])
def test_seconding_forms(text):
    """004 玩家须知 8: 若场上未出局的玩家过半数同意加速 — a bare agreement under a request."""
    ps = posts3(("汤圆", "申请延时", "1 10:30"), ("饺子", "申请加速", "1 11:00"), ("包子", text, "1 11:10"))
    if text == "附议2楼":
        ps = posts3(("饺子", "申请加速", "1 10:30"), ("汤圆", "申请延时", "1 11:00"), ("包子", text, "1 11:10"))
    a = acceleration(ps, ruleset=R004, day=DAY, state=state())
    assert a.readings[2].reading == {"accelerate": "second"} and "包子" in a.requests


@pytest.mark.parametrize("text, want", [("楼上申请加速了", "mention"), ("他说要加速", "mention"),
                                        ("支持饺子加速", "request"), ("附议楼上的加速申请", "request")])
def test_someone_elses_request_or_joining_it(text, want):
    assert read_post(text, M84.acceleration, author="包子", players=PLAYERS) == {"accelerate": want}


from hypothesis import given, settings, strategies as st  # noqa: E402

_WIDTH = str.maketrans({"?": "？", "!": "！", ",": "，", "+": "＋", "1": "１"})


@settings(max_examples=150, deadline=None)
@given(case=st.sampled_from(STANCES), spaces=st.lists(st.integers(min_value=0, max_value=40), max_size=4),
       wide=st.booleans())
def test_stance_ignores_spaces_and_width(case, spaces, wide):
    """M84 投票规则: 标点符号不区分全半角 — the same leniency for the progress thread: spacing and width
    never change how a post reads."""
    text, _ = case
    chars = list(text.translate(_WIDTH) if wide else text)
    for i in sorted(spaces, reverse=True):
        chars.insert(min(i, len(chars)), " ")
    assert read_post("".join(chars), M84.acceleration, author="包子", players=PLAYERS) == \
        read_post(text, M84.acceleration, author="包子", players=PLAYERS)
