"""The count under both presets: every problem code, weights, ties, abstentions, proxies, outs, margins."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from gamedef.gamefile import Day, ProxyVote
from gamedef.ruleset import load_ruleset
from engine.election import elect_priest
from engine.state import DayState
from engine.votes import count_votes
from parsers.models import Post, Quote, ReplyRef

TZ = timezone(timedelta(hours=8))
PLAYERS = ("饺子", "包子", "馄饨", "汤圆", "烧卖")
DIRECTORS = ("导演A",)
DAY = Day(number=1, discussion_tid=1, vote_tid=2, opens=datetime(2026, 12, 1, 10, tzinfo=TZ),
          closes=datetime(2026, 12, 2, 22, tzinfo=TZ))
PRESETS = ("m84", "004")


def t(s: str) -> datetime:
    """'1 12:00' → day 1 of December at 12:00 (+08:00)."""
    d, hm = s.split()
    h, m = hm.split(":")
    return datetime(2026, 12, int(d), int(h), int(m), tzinfo=TZ)


def P(floor: int, author: str, text: str, at: str, *, reply: int | None = None, quote: int | None = None) -> Post:
    """A vote-thread post; `reply`/`quote` name the floor pointed at (pid = 100 + floor)."""
    return Post(tid=2, pid=100 + floor, floor=floor, author=author, uid=None, posted_at=t(at),
                time_precision="second", message_html=text, text=text,
                quotes=[Quote(100 + quote, None)] if quote else [],
                reply_to=ReplyRef(100 + reply, reply, None) if reply else None)


def V(target: str, reason: str = "理由") -> str:
    return f"投票对象：{target}\n投票理由：{reason}"


def C(target: str, reason: str = "改票理由") -> str:
    return f"改票对象：{target}\n改票理由：{reason}"


def state(living: tuple[str, ...] = PLAYERS, priest: str | None = None, excused: tuple[str, ...] = (),
          accelerated: bool = False) -> DayState:
    return DayState(day=1, at=DAY.opens, players=PLAYERS, living=living,
                    out=tuple(p for p in PLAYERS if p not in living), priest=priest, whistled=(), excused=excused,
                    accelerated_event=accelerated, directors=DIRECTORS)


def count(posts, preset: str = "m84", st: DayState | None = None, **kw: Any):
    return count_votes(posts, rules=load_ruleset(preset), day=DAY, state=st or state(), **kw)


def ballot(c, floor: int):
    return next(b for b in c.ballots if b.floor == floor)


def tally(c) -> dict[str, tuple[float, tuple[str, ...]]]:
    return {e.target: (e.weight, e.voters) for e in c.tally}


# --- every problem code, under both presets -------------------------------------------------------
# (name, posts, floor judged, code expected or None for a good ballot, {preset: override})
BASE = [P(2, "饺子", V("包子"), "1 12:00"), P(3, "馄饨", V("汤圆"), "1 13:00")]
CASES = [
    ("vote", BASE, 2, None, {}),
    ("bad_format", [P(2, "饺子", "投票对象包子\n投票理由：x", "1 12:00")], 2, "bad_format", {}),
    ("missing_reason", [P(2, "饺子", "投票对象：包子", "1 12:00")], 2, "missing_reason", {}),
    ("unknown_target", [P(2, "饺子", V("包仔"), "1 12:00")], 2, "unknown_target", {}),
    ("not_a_player", [P(2, "路人甲", V("包子"), "1 12:00")], 2, "not_a_player", {}),
    ("after_close", [P(2, "饺子", V("包子"), "2 22:05")], 2, "after_close", {}),
    ("before_open", [P(2, "饺子", V("包子"), "1 09:00")], 2, "before_open", {}),
    ("duplicate_vote", BASE + [P(4, "饺子", V("馄饨"), "1 14:00")], 4, "duplicate_vote", {}),
    ("change by quote", BASE + [P(4, "饺子", C("馄饨"), "1 14:00", quote=2)], 4, None, {}),
    ("change by reply", BASE + [P(4, "饺子", C("馄饨"), "1 14:00", reply=2)], 4, None,
     {"004": "change_without_reference"}),
    ("change_without_reference", BASE + [P(4, "饺子", C("馄饨"), "1 14:00")], 4, "change_without_reference", {}),
    ("change_wrong_reference", BASE + [P(4, "饺子", C("馄饨"), "1 14:00", quote=3, reply=3)], 4,
     "change_wrong_reference", {}),
    ("second_change", BASE + [P(4, "饺子", C("馄饨"), "1 14:00", quote=2, reply=2),
                              P(5, "饺子", C("汤圆"), "1 15:00", quote=2, reply=2)], 5, "second_change", {}),
    ("change_in_lock_window", BASE + [P(4, "饺子", C("馄饨"), "2 21:20", quote=2, reply=2)], 4,
     "change_in_lock_window", {}),
    ("change just before the lock", BASE + [P(4, "饺子", C("馄饨"), "2 20:59", quote=2, reply=2)], 4, None, {}),
    ("change at the lock", BASE + [P(4, "饺子", C("馄饨"), "2 21:00", quote=2, reply=2)], 4,
     "change_in_lock_window", {}),
    ("change_without_vote", [P(2, "饺子", C("馄饨"), "1 14:00")], 2, "change_without_vote", {}),
    ("change after an invalid vote", [P(2, "饺子", V("包仔"), "1 12:00"),
                                      P(3, "饺子", C("馄饨"), "1 14:00", quote=2, reply=2)], 3,
     "change_without_vote", {}),
    ("correction by a new vote", [P(2, "饺子", V("包仔"), "1 12:00"), P(3, "饺子", V("包子"), "1 12:10")], 3, None, {}),
    ("a second invalid post is not a duplicate", BASE + [P(4, "饺子", V("包仔"), "1 14:00")], 4, "unknown_target", {}),
]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("name,posts,floor,code,override", CASES, ids=[c[0] for c in CASES])
def test_problem_codes(preset, name, posts, floor, code, override):
    code = override.get(preset, code)
    c = count(posts, preset)
    b = ballot(c, floor)
    if code is None:
        assert b.valid and b.counted, b.problems
        assert b.problems == []
    else:
        assert code in b.codes, b.problems
        assert not b.valid and not b.counted
        assert all(p.message and p.code for p in b.problems)


@pytest.mark.parametrize("preset", PRESETS)
def test_change_with_a_problem_leaves_the_earlier_ballot_counted(preset):
    posts = BASE + [P(4, "饺子", C("馄饨"), "2 21:30", quote=2, reply=2)]
    c = count(posts, preset)
    assert ballot(c, 2).counted and not ballot(c, 4).counted
    assert tally(c)["包子"] == (1, ("饺子",))


@pytest.mark.parametrize("preset", PRESETS)
def test_valid_change_replaces_the_vote(preset):
    c = count(BASE + [P(4, "饺子", C("馄饨"), "1 14:00", quote=2, reply=2)], preset)
    vote, change = ballot(c, 2), ballot(c, 4)
    assert vote.valid and not vote.counted and vote.replaced_by == change.pid
    assert change.counted and change.kind == "change"
    assert tally(c) == {"馄饨": (1, ("饺子",)), "汤圆": (1, ("馄饨",))}


@pytest.mark.parametrize("preset", PRESETS)
def test_change_while_accelerated(preset):
    posts = BASE + [P(4, "饺子", C("馄饨"), "1 14:00", quote=2, reply=2)]
    for c in (count(posts, preset, accelerated=True), count(posts, preset, st=state(accelerated=True))):
        assert "change_while_accelerated" in ballot(c, 4).codes
        assert ballot(c, 2).counted


@pytest.mark.parametrize("preset", PRESETS)
def test_dead_voter_and_dead_target(preset):
    st = state(living=("饺子", "包子", "馄饨", "汤圆"))
    c = count([P(2, "烧卖", V("包子"), "1 12:00"), P(3, "饺子", V("烧卖"), "1 13:00")], preset, st=st)
    assert ballot(c, 2).codes == ["voter_out"]
    assert ballot(c, 3).codes == ["target_out"]
    assert c.tally == () and "烧卖" not in c.not_voted


# --- edits ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", PRESETS)
def test_edited_after_lock_keeps_the_target_as_cast(preset):
    posts = [P(2, "饺子", V("馄饨"), "1 12:00")]
    revs = {102: [(t("1 12:00"), V("包子")), (t("2 21:30"), V("馄饨"))]}
    c = count(posts, preset, revisions=revs)
    b = ballot(c, 2)
    assert "edited_after_lock" in b.codes and b.counted and b.target == "包子"
    assert tally(c) == {"包子": (1, ("饺子",))}


@pytest.mark.parametrize("preset", PRESETS)
def test_edit_before_the_lock_is_not_a_change(preset):
    revs = {102: [(t("1 12:00"), V("包子")), (t("1 15:00"), V("馄饨"))]}
    b = ballot(count([P(2, "饺子", V("馄饨"), "1 12:00")], preset, revisions=revs), 2)
    assert b.target == "包子" and "edited_target" in b.codes and b.counted


@pytest.mark.parametrize("preset", PRESETS)
def test_editing_the_reason_is_nothing(preset):
    revs = {102: [(t("1 12:00"), V("包子", "错字")), (t("2 21:30"), V("包子", "改正"))]}
    b = ballot(count([P(2, "饺子", V("包子", "改正"), "1 12:00")], preset, revisions=revs), 2)
    assert b.problems == [] and b.counted


@pytest.mark.parametrize("preset", PRESETS)
def test_placeholder_edited_into_a_ballot(preset):
    posts = [P(2, "饺子", V("包子"), "1 12:00")]
    early = {102: [(t("1 12:00"), "占楼"), (t("1 15:00"), V("包子"))]}
    b = ballot(count(posts, preset, revisions=early), 2)
    assert b.counted and "edited_target" in b.codes
    late = {102: [(t("1 12:00"), "占楼"), (t("2 22:30"), V("包子"))]}
    shown = ballot(count(posts, preset, revisions=late), 2)  # as of the close it was no ballot: shown, not counted
    assert not shown.counted and "after_close" in shown.codes
    assert count(posts, preset, revisions=late, at=t("2 21:59")).ballots == ()
    b = ballot(count(posts, preset, revisions=late, at=t("3 09:00")), 2)
    assert not b.counted and "after_close" in b.codes


def test_revisions_after_the_moment_are_not_seen():
    revs = {102: [(t("1 12:00"), V("包子")), (t("2 21:30"), V("馄饨"))]}
    b = ballot(count([P(2, "饺子", V("馄饨"), "1 12:00")], revisions=revs, at=t("2 12:00")), 2)
    assert b.problems == [] and b.target == "包子"


def test_typo_fixed_by_edit_counts_under_004_not_m84():
    revs = {102: [(t("1 12:00"), V("包仔")), (t("1 12:05"), V("包子"))]}
    posts = [P(2, "饺子", V("包子"), "1 12:00")]
    m84 = ballot(count(posts, "m84", revisions=revs), 2)
    assert not m84.valid and {"unknown_target", "invalid_fixed_by_edit"} <= set(m84.codes)
    v004 = ballot(count(posts, "004", revisions=revs), 2)
    assert v004.valid and v004.counted and v004.target == "包子" and v004.kind == "vote"


# --- proxies --------------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", PRESETS)
def test_in_thread_proxy(preset):
    c = count([P(2, "导演A", "【代投】馄饨\n" + V("包子", "委托代投"), "1 12:00")], preset)
    b = ballot(c, 2)
    assert (b.voter, b.target, b.proxy, b.counted) == ("馄饨", "包子", True, True)
    assert "馄饨" not in c.not_voted


@pytest.mark.parametrize("preset", PRESETS)
def test_game_file_proxy(preset):
    pv = ProxyVote(day=1, player="汤圆", target="饺子", at=t("2 12:00"))
    c = count(BASE, preset, proxies=[pv, ProxyVote(day=2, player="烧卖", target="饺子", at=t("2 12:00"))])
    b = next(b for b in c.ballots if b.source == "gamefile")
    assert (b.voter, b.target, b.counted, b.pid) == ("汤圆", "饺子", True, None)
    assert tally(c)["饺子"] == (1, ("汤圆",)) and len([b for b in c.ballots if b.proxy]) == 1
    assert b.to_json()["pid"] is None


@pytest.mark.parametrize("preset,at,ok", [("m84", "2 21:15", False), ("004", "2 21:15", True),
                                          ("m84", "2 21:40", False), ("004", "2 21:40", False),
                                          ("m84", "2 20:30", True), ("004", "2 20:30", True)])
def test_proxy_inside_the_lock_window(preset, at, ok):
    thread = count([P(2, "导演A", "【代投】馄饨\n" + V("包子"), at)], preset)
    book = count([], preset, proxies=[ProxyVote(day=1, player="馄饨", target="包子", at=t(at))])
    for c in (thread, book):
        b = c.ballots[0]
        assert b.counted is ok
        assert ok or "change_in_lock_window" in b.codes


@pytest.mark.parametrize("preset", PRESETS)
def test_proxy_change_needs_no_reference_but_keeps_the_lock(preset):
    pv = ProxyVote(day=1, player="饺子", target="馄饨", at=t("1 15:00"), change=True)
    c = count(BASE, preset, proxies=[pv])
    assert tally(c)["馄饨"] == (1, ("饺子",)) and not ballot(c, 2).counted
    late = ProxyVote(day=1, player="饺子", target="馄饨", at=t("2 21:10"), change=True)
    c = count(BASE, preset, proxies=[late])
    assert ballot(c, 2).counted
    assert "change_in_lock_window" in next(b for b in c.ballots if b.source == "gamefile").codes


def test_director_talk_in_the_vote_thread_is_ignored():
    c = count([P(1, "导演A", "第一天投票帖。投票对象：每人一票", "1 10:00"), P(2, "饺子", "大家记得按格式投票", "1 11:00")])
    assert c.ballots == ()


# --- weights, ties, abstentions -------------------------------------------------------------------
def test_priest_weighs_one_and_a_half_in_m84_only():
    posts = [P(2, "饺子", V("包子"), "1 12:00"), P(3, "馄饨", V("汤圆"), "1 13:00")]
    m84 = count(posts, "m84", st=state(priest="饺子"))
    assert [(e.target, e.weight) for e in m84.tally] == [("包子", 1.5), ("汤圆", 1)]
    assert m84.outcome.out == "包子" and m84.outcome.tie == ()
    assert m84.to_json()["tally"][0]["weight"] == 1.5
    v004 = count(posts, "004", st=state(priest="饺子"))
    assert v004.outcome.out is None and set(v004.outcome.tie) == {"包子", "汤圆"}
    assert count(posts, "m84", st=state(priest="饺子"), priest="").outcome.out is None


@pytest.mark.parametrize("preset", PRESETS)
def test_tie_sends_nobody_out(preset):
    posts = [P(2, "饺子", V("包子"), "1 12:00"), P(3, "馄饨", V("汤圆"), "1 13:00"),
             P(4, "包子", V("汤圆"), "1 14:00"), P(5, "汤圆", V("包子"), "1 15:00")]
    c = count(posts, preset)
    assert c.outcome.out is None and c.outcome.tie == ("汤圆", "包子")  # 汤圆 reached 2 first
    assert c.to_json()["outcome"] == {"out": None, "tie": ["汤圆", "包子"]}


@pytest.mark.parametrize("preset", PRESETS)
def test_abstain(preset):
    posts = [P(2, "饺子", V("弃权", "不清楚"), "1 12:00"), P(3, "馄饨", V("汤圆"), "1 13:00"),
             P(4, "馄饨", C("弃权", "还是弃权"), "1 14:00", quote=3, reply=3)]
    c = count(posts, preset)
    assert ballot(c, 2).kind == "abstain" and ballot(c, 2).target is None and ballot(c, 2).counted
    b4 = ballot(c, 4)
    assert b4.kind == "abstain" and b4.is_change and b4.counted
    assert c.abstained == ("饺子", "馄饨") and c.tally == () and c.outcome.out is None
    assert "饺子" not in c.not_voted
    assert c.timeline[-1].counts == {}


def test_no_ballots_at_all():
    c = count([])
    assert c.outcome.out is None and c.tally == () and c.not_voted == PLAYERS
    assert c.margins.leader is None and c.margins.decided


# --- who has not voted ----------------------------------------------------------------------------
def test_not_voted_invalid_ballot_is_a_reply_unless_the_ruleset_says_otherwise():
    import dataclasses

    posts = [P(2, "饺子", V("包仔"), "1 12:00"), P(3, "路人甲", V("包子"), "1 12:00"),
             P(4, "馄饨", V("包子"), "2 22:30")]
    assert count(posts, "m84").not_voted == ("包子", "馄饨", "汤圆", "烧卖")
    assert count(posts, "004").not_voted == ("包子", "馄饨", "汤圆", "烧卖")
    rs = load_ruleset("004")
    strict = dataclasses.replace(rs, vote=dataclasses.replace(rs.vote, invalid_counts_as_voted=False))
    c = count_votes(posts, rules=strict, day=DAY, state=state())
    assert c.not_voted == ("饺子", "包子", "馄饨", "汤圆", "烧卖")


def test_not_voted_leaves_out_the_excused_and_the_dead():
    st = state(living=("饺子", "包子", "馄饨", "汤圆"), excused=("汤圆",))
    assert count([P(2, "饺子", V("包子"), "1 12:00")], st=st).not_voted == ("包子", "馄饨")


# --- mid-day outs ---------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", PRESETS)
def test_player_out_mid_day(preset):
    posts = [P(2, "饺子", V("包子"), "1 12:00"), P(3, "包子", V("馄饨"), "1 13:00"),
             P(4, "饺子", V("汤圆"), "1 16:00"), P(5, "包子", V("汤圆"), "1 17:00"), P(6, "汤圆", V("包子"), "1 18:00")]
    c = count(posts, preset, out_at={"包子": t("1 15:00")})
    assert "target_out" in ballot(c, 2).codes and not ballot(c, 2).counted and ballot(c, 2).valid
    # 包子's ballot cast before going out: vote.ballot_before_out (M84 counts, 004 dropped)
    if preset == "m84":
        assert "voter_out_ballot_counts" in ballot(c, 3).codes and ballot(c, 3).counted
    else:
        assert "voter_out" in ballot(c, 3).codes and not ballot(c, 3).counted
    assert ballot(c, 4).counted  # a new vote after the target went out is no duplicate
    assert "voter_out" in ballot(c, 5).codes and "target_out" in ballot(c, 6).codes
    assert tally(c) == ({"汤圆": (1, ("饺子",)), "馄饨": (1, ("包子",))} if preset == "m84"
                        else {"汤圆": (1, ("饺子",))})
    assert "包子" not in c.not_voted  # out: no longer a player of the day
    assert "汤圆" in c.replied  # 汤圆 cast only an invalid ballot: still a vote post in both presets
    before = count(posts, preset, out_at={"包子": t("1 15:00")}, at=t("1 14:00"))
    assert tally(before) == {"包子": (1, ("饺子",)), "馄饨": (1, ("包子",))}


# --- the moment of the count ----------------------------------------------------------------------
def test_count_at_a_moment_sees_only_earlier_posts():
    posts = BASE + [P(4, "汤圆", V("包子"), "2 12:00")]
    c = count(posts, at=t("1 18:00"))
    assert [b.floor for b in c.ballots] == [2, 3]
    assert c.not_voted == ("包子", "汤圆", "烧卖")
    assert c.to_json()["at"] == t("1 18:00").isoformat()
    assert count(posts).at == DAY.closes


def test_timeline_follows_each_change_of_standings():
    posts = BASE + [P(4, "汤圆", V("包子"), "1 14:00"), P(5, "汤圆", V("包子"), "1 15:00"),
                    P(6, "饺子", C("馄饨"), "1 16:00", quote=2, reply=2)]
    c = count(posts)
    assert [p.counts for p in c.timeline] == [{"包子": 1}, {"包子": 1, "汤圆": 1}, {"包子": 2, "汤圆": 1},
                                               {"汤圆": 1, "包子": 1, "馄饨": 1}]
    assert c.to_json()["timeline"][0]["at"] == t("1 12:00").isoformat()


# --- margins --------------------------------------------------------------------------------------
def test_margins_with_players_left_to_vote():
    posts = [P(2, "饺子", V("包子"), "1 12:00"), P(3, "馄饨", V("包子"), "1 13:00"), P(4, "汤圆", V("包子"), "1 14:00")]
    m = count(posts, at=t("1 15:00")).margins
    assert (m.leader, m.leader_weight, m.runner_up, m.to_tie, m.to_overtake) == ("包子", 3, None, 3, 4)
    assert m.remaining == ("包子", "烧卖") and m.decided  # two votes cannot reach three
    m = count(posts[:2], at=t("1 15:00")).margins
    assert m.remaining_weight == 3 and not m.decided


def test_margins_count_the_priest_weight():
    posts = [P(2, "饺子", V("包子"), "1 12:00"), P(3, "馄饨", V("包子"), "1 13:00"), P(4, "汤圆", V("烧卖"), "1 14:00")]
    m = count(posts, at=t("1 15:00"), st=state(priest="包子")).margins
    assert (m.to_tie, m.to_overtake) == (1, 1.5)  # the priest alone overtakes
    assert m.remaining_weight == 2.5 and not m.decided
    m = count(posts, at=t("1 15:00")).margins
    assert (m.to_tie, m.to_overtake) == (1, 2)


def test_margins_on_a_tie_and_when_everyone_voted():
    posts = [P(2, "饺子", V("包子"), "1 12:00"), P(3, "馄饨", V("汤圆"), "1 13:00")]
    m = count(posts, at=t("1 15:00")).margins
    assert (m.to_tie, m.to_overtake, m.decided) == (0, 1, False)
    everyone = posts + [P(4, "包子", V("汤圆"), "1 14:00"), P(5, "汤圆", V("包子"), "1 14:10"),
                        P(6, "烧卖", V("弃权"), "1 14:20")]
    m = count(everyone, at=t("1 15:00")).margins
    assert m.remaining == () and m.decided and m.to_tie == 0
    assert count(posts).margins.decided  # after the close nobody can vote


def test_json_shape():
    c = count(BASE + [P(4, "饺子", C("馄饨"), "1 14:00", quote=2, reply=2), P(5, "路人甲", V("包子"), "1 15:00")])
    j = c.to_json()
    assert {"day", "at", "ballots", "tally", "abstained", "not_voted", "outcome", "timeline", "margins"} <= set(j)
    for b in j["ballots"]:
        assert {"voter", "kind", "target", "pid", "floor", "posted_at", "valid", "counted", "problems"} <= set(b)
        assert b["kind"] in ("vote", "change", "abstain")
        assert all(set(p) >= {"code", "message"} for p in b["problems"])
    assert j["tally"][0] == {"target": "汤圆", "weight": 1, "voters": ["馄饨"], "reached_at": j["tally"][0]["reached_at"]}
    assert set(j["outcome"]) == {"out", "tie"}
    assert {"to_tie", "to_overtake", "decided"} <= set(j["margins"])


# --- the priest election --------------------------------------------------------------------------
def test_election_first_to_reach_the_top_wins():
    posts = [P(2, "饺子", V("包子"), "1 11:00"), P(3, "包子", V("馄饨"), "1 11:10"),
             P(4, "汤圆", V("馄饨"), "1 11:20"), P(5, "烧卖", V("包子"), "1 11:30")]
    e = elect_priest(posts, rules=load_ruleset("m84"), day=DAY, state=state())
    assert e.winner == "馄饨" and e.tied_at_top == ("馄饨", "包子") and e.top == 2
    assert e.to_json()["winner"] == "馄饨"


def test_election_clock_restarts_when_a_count_dips():
    posts = [P(2, "饺子", V("包子"), "1 11:00"), P(3, "烧卖", V("包子"), "1 11:05"),
             P(4, "包子", V("馄饨"), "1 11:10"), P(5, "饺子", C("汤圆"), "1 11:15", quote=2),
             P(6, "汤圆", V("馄饨"), "1 11:20"), P(7, "馄饨", V("包子"), "1 11:30")]
    e = elect_priest(posts, rules=load_ruleset("m84"), day=DAY, state=state())
    assert e.winner == "馄饨"  # 包子 reached 2 first but fell back, 馄饨 held 2 from 11:20


def test_election_ignores_the_priest_weight_and_rulesets_without_one():
    posts = [P(2, "饺子", V("包子"), "1 11:00"), P(3, "馄饨", V("汤圆"), "1 11:10")]
    e = elect_priest(posts, rules=load_ruleset("m84"), day=DAY, state=state(priest="馄饨"))
    assert e.winner == "包子" and e.top == 1
    assert elect_priest(posts, rules=load_ruleset("004"), day=DAY, state=state()).winner is None
