"""Stranger director 5, item 5: the engine carries the players' words of each problem beside the
director's, and the announcement renders those (reports/_public.py no longer reshapes messages).

The announcement is the director's 公示 to players: M84 用语定义 公示 — 讨论日进行时、投票结束时都会随时
公示游戏流程相关信息; 004 用语定义 公示 — 游戏流程发生变化时需要在讨论贴或投票贴中公示. Players read the rule's
words and the facts; ruleset fields, game-file entries and notes to the director (请导演核对) stay on the
director's side (`message`, the review page, `votes`).
"""
from __future__ import annotations

import ast
import dataclasses
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from engine.state import DayState
from engine.votes import count_votes
from gamedef.gamefile import Day, ProxyVote
from gamedef.ruleset import load_ruleset
from parsers.ballot import Problem
from parsers.models import Post, Quote
from reports._public import public_reasons, public_text, uncounted

ROOT = Path(__file__).resolve().parents[1]
TZ = timezone(timedelta(hours=8))
PLAYERS = ("饺子", "包子", "馄饨", "汤圆")
DAY = Day(number=1, discussion_tid=1, vote_tid=2, opens=datetime(2026, 12, 1, 10, tzinfo=TZ),
          closes=datetime(2026, 12, 1, 22, tzinfo=TZ))
DIRECTOR_WORDS = ("请导演", "导演复核", "导演核对", "daoyan", "规则集", "游戏文件", "[[", " = ")
M84_PUBLIC = "M84 用语定义 公示：讨论日进行时、投票结束时都会随时公示游戏流程相关信息"
O04_PUBLIC = "004 用语定义 公示：游戏流程发生变化时需要在讨论贴或投票贴中公示"


def at(hhmm: str) -> datetime:
    h, m = hhmm.split(":")
    return DAY.opens.replace(hour=int(h), minute=int(m))


def post(floor: int, author: str, text: str, when: str | None, *, quote: int | None = None,
         precision: str = "second") -> Post:
    return Post(tid=2, pid=100 + floor, floor=floor, author=author, uid=None, posted_at=at(when) if when else None,
                time_precision=precision, message_html=text, text=text,
                quotes=[Quote(100 + quote, None)] if quote else [])


def state(whistled=()) -> DayState:
    return DayState(day=1, at=DAY.opens, players=PLAYERS, living=PLAYERS, out=(), priest=None, whistled=whistled,
                    excused=(), accelerated_event=False, directors=("导演A",))


V = "投票对象：{}\n投票理由：x"
C = "改票对象：{}\n改票理由：y"


def _scenario(name: str):
    """(ruleset, posts, keyword arguments of count_votes, state) for each case below."""
    m84, r004 = load_ruleset("m84"), load_ruleset("004")
    if name == "whole_day":
        return r004, [post(2, "饺子", V.format("包子"), "11:00"), post(3, "饺子", C.format("馄饨"), "12:00", quote=2)], \
            {"accelerated": True}, state()
    if name == "after_granted":
        return m84, [post(2, "饺子", V.format("包子"), "11:00"), post(3, "饺子", C.format("馄饨"), "15:00", quote=2)], \
            {"accelerated": True, "accelerated_since": at("14:00")}, state()
    if name == "whistled_voter":
        rs = dataclasses.replace(m84, whistle=dataclasses.replace(m84.whistle, ballot_counts=False))
        return rs, [post(2, "饺子", V.format("包子"), "11:00")], {}, state(whistled=("饺子",))
    if name == "whistled_ballot":
        return m84, [post(2, "饺子", V.format("包子"), "11:00")], {}, state(whistled=("饺子",))
    if name == "close_minute":
        return m84, [post(2, "饺子", V.format("包子"), "22:00", precision="minute")], {}, state()
    if name == "no_time":
        return m84, [post(2, "饺子", V.format("包子"), None)], {}, state()
    if name == "missing_reason":
        return m84, [post(2, "饺子", "投票对象：弃权", "11:00")], {}, state()
    if name == "duplicate_vote":
        return m84, [post(2, "饺子", V.format("包子"), "11:00")], \
            {"proxies": [ProxyVote(day=1, player="饺子", target="馄饨", at=at("12:00"))]}, state()
    if name == "proxy_change":
        return r004, [post(2, "饺子", V.format("包子"), "11:00")], \
            {"proxies": [ProxyVote(day=1, player="饺子", target="馄饨", at=at("21:10"), change=True)]}, state()
    if name == "voter_out":
        return r004, [post(2, "饺子", V.format("包子"), "11:00")], {"out_at": {"饺子": at("15:00")}}, state()
    raise KeyError(name)


# (case, problem code, the players' words, rule)
CASES = [
    ("whole_day", "change_while_accelerated", "本讨论日进程加速，所有改票作废，原票仍有效。",
     "004 讨论日长短：进程加速后不允许改票，所有改票作废"),
    ("after_granted", "change_while_accelerated", "本讨论日自12-01 14:00起执行加速，此后不允许改票，此次改票作废，原票仍有效。",
     "M84 讨论日长短：执行加速时，所有人不可改票"),
    ("whistled_voter", "whistled_voter", "饺子处于黑哨状态，只能发出动物叫声或表情，此票不计。",
     "M84 黑哨：在游戏日白天只能发出动物叫声，或使用小镇的表情"),
    ("whistled_ballot", "whistled_ballot", "", M84_PUBLIC + " — the whistle is a flag for the director"),
    ("close_minute", "close_minute", "", M84_PUBLIC + " — the minute-only time is the director's to check"),
    ("no_time", "no_time", "无法确定此帖的发帖时间，此票暂不计入。", M84_PUBLIC),
    ("missing_reason", "missing_reason", "缺少投票理由（格式：投票理由：……）（弃权票也须写投票理由），此票无效，须重新发帖更正。",
     "M84 投票规则：请严格依照投票格式 … 投票格式或投票对象有误的票无效"),
    ("duplicate_vote", "duplicate_vote", "饺子已在第2楼投过票，每人限投一票；此票不计。",
     "M84 投票规则：每名存活角色每个讨论日限投一票"),
    ("proxy_change", "change_in_lock_window",
     "代投改票须在关门前60分钟（12-01 21:00）以前向导演请求；没有记录请求时间，按代投发帖时间12-01 21:10判断，"
     "此代投改票作废，原票（第2楼）仍有效。", "004 玩家须知 9：如需代投改票，需在投票截止前1个小时，联系导演代投"),
    ("voter_out", "voter_out", "饺子于12-01 15:00出局，此票虽发于出局之前，从出局时起不再计入。",
     "004 出局：角色出局结算结束后，不能继续参与讨论、投票"),
]


@pytest.mark.parametrize("case, code, words, rule", CASES)
def test_the_engine_says_it_to_players_too(case, code, words, rule):
    rs, posts, kw, st = _scenario(case)
    c = count_votes(posts, rules=rs, day=DAY, state=st, **kw)
    problems = [p for b in c.ballots for p in b.problems if p.code == code]
    assert problems, (case, [b.codes for b in c.ballots])
    p = problems[0]
    assert p.public_message == words, (rule, p.public_message)
    assert p.to_json()["public"] == words and p.to_json()["message"] == p.message
    for w in DIRECTOR_WORDS:
        assert w not in p.public_message, (rule, w)
    # what the announcement renders is exactly the engine's public words
    assert public_text(p.to_json()) == words, rule


def test_a_traditional_spelling_note_keeps_its_facts_and_loses_the_request():
    """The traditional_folded note (M84 投票对象有误的票无效: the director may judge the spelling) asks the
    director to check; players read only what was read."""
    from parsers.ballot import parse_ballot

    b = parse_ballot(post(2, "饺子", "投票對象：竹馬\n投票理由：x", "11:00"), load_ruleset("m84").vote,
                     ("饺子", "竹马"), ("导演A",))
    (note,) = [p for p in b.notes if p.code == "traditional_folded"]
    assert "请导演核对" in note.message
    assert note.public_message == "投票对象“竹馬”含繁体字，按简体读作“竹马”（繁简转换后与之一致）。"


def test_a_plain_problem_is_the_same_for_both():
    p = Problem("unknown_target", "投票对象“豆浆”不是本场玩家，投票对象有误的票无效，须重新发帖更正。")
    assert p.public_message == p.message and p.to_json()["public"] == p.message


def test_data_without_public_words_never_shows_the_director_s_message():
    """A problem from an older daoyan's JSON: no words rather than a director's note; the ballot keeps
    its label (无效 / 不计入)."""
    old = {"voter": "饺子", "kind": "vote", "target": "包子", "valid": False, "counted": False,
           "problems": [{"code": "no_time", "message": "无法确定此帖的发帖时间，请导演核对。"}]}
    assert public_reasons(old["problems"]) == ""
    [(b, label, why)] = uncounted([old])
    assert label == "无效" and "请导演" not in why


def _problem_calls(path: Path):
    tree = ast.parse(path.read_text("utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Problem":
            yield node


def _literal_text(node: ast.AST) -> str:
    return "".join(n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str))


@pytest.mark.parametrize("source", ["engine/votes.py", "parsers/ballot.py"])
def test_every_message_for_the_director_has_words_for_players(source):
    """A problem whose message names a setting or asks the director carries `public=`: nothing is left
    for a renderer to reshape."""
    missing = []
    for call in _problem_calls(ROOT / source):
        if any(k.arg == "public" for k in call.keywords) or len(call.args) < 2:
            continue
        text = _literal_text(call.args[1])
        if any(w in text for w in DIRECTOR_WORDS) or "（[" in text:
            missing.append((call.lineno, text[:60]))
    assert not missing, missing


def test_the_renderer_does_not_reshape_messages():
    src = (ROOT / "reports" / "_public.py").read_text("utf-8")
    assert "import re" not in src and "re.sub" not in src
    assert 'get("public")' in src
