"""Ballots from the stranger-4 report: a conditional 【代投】, ballots in traditional characters, and a
reason that quotes a ballot line. Each case quotes the rule sentence it rests on (seeds: 000_… is M84,
001_… is 004)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from engine.state import DayState
from engine.votes import NOTE_CODES, count_votes
from gamedef.gamefile import Day
from gamedef.ruleset import load_ruleset, parse_ruleset
from gamedef.errors import RulesetError
from parsers.ballot import is_ballot_attempt, is_conditional, parse_ballot, to_simplified
from parsers.models import Post

TZ = timezone(timedelta(hours=8))
PLAYERS = ("青梅", "竹马", "白露", "清明", "惊蛰")
DIRECTORS = ("说书人",)
PRESETS = ("m84", "004")

M84_PROXY = "M84 投票规则：演员可以委托导演代投，代投时需给出明确的投票对象（不可设立投票条件）。"
M84_INVALID = "M84 投票规则：请严格依照投票格式或改票格式进行投票。投票格式或投票对象有误的票无效。"
M84_ONE = "M84 投票规则：每名存活角色每个讨论日限投一票"
R004_PROXY = "004 玩家须知 9：代投必须明确指定投票对象，不允许给出条件让导演确定投票对象，否则视为弃权。"
R004_FORMAT = "004 投票规则：投票格式有误的投票将算作废票。"
R004_ABSTAIN = "004 投票规则：投票对象：弃权 / 投票理由：搞不清楚"
M84_ABSTAIN = "M84 投票规则：投弃权票时，须在投票对象中填写“弃权”。"
M84_WIDTH = "M84 投票规则：特别地，投票格式中标点符号不区分全半角。投票对象与投票理由之间可以不换行。"


def post(text: str, author: str, floor: int = 2, at: datetime | None = None) -> Post:
    return Post(tid=2, pid=100 + floor, floor=floor, author=author, uid=None,
                posted_at=at or datetime(2026, 12, 1, 12, tzinfo=TZ), time_precision="second",
                message_html=text, text=text)


def parse(text: str, author: str, preset: str, players: tuple[str, ...] = PLAYERS):
    return parse_ballot(post(text, author), load_ruleset(preset).vote, players, DIRECTORS)


# --- (3) a 【代投】 that gives the director a condition instead of a player -------------------------------
# (rule, preset, text, kind, target, problem codes, note codes, words the message must carry)
CONDITIONAL = [
    (R004_PROXY, "004", "【代投】清明\n投票对象：谁票多投谁\n投票理由：清明委托", "abstain", None, (),
     ("conditional_proxy_abstain",), ("谁票多投谁", "视为清明弃权", "不允许给出条件让导演确定投票对象")),
    (R004_PROXY, "004", "【代投】清明\n投票对象：谁票多投谁", "abstain", None, (),
     ("conditional_proxy_abstain",), ("视为清明弃权",)),
    (R004_PROXY, "004", "【代投】清明\n投票对象：如果白露没出局就投白露，否则弃权", "abstain", None, (),
     ("conditional_proxy_abstain",), ("否则视为弃权",)),
    (R004_PROXY, "004", "【代投】清明\n投票对象：跟竹马投", "abstain", None, (), ("conditional_proxy_abstain",), ()),
    (R004_PROXY, "004", "【代投】清明\n投票对象：看情况，票少的那个", "abstain", None, (),
     ("conditional_proxy_abstain",), ()),
    (R004_PROXY, "004", "【代投】清明\n改票对象：最高票\n改票理由：清明委托", "abstain", None, (),
     ("conditional_proxy_abstain",), ()),
    (M84_PROXY + M84_INVALID, "m84", "【代投】清明\n投票对象：谁票多投谁\n投票理由：清明委托", "vote", None,
     ("conditional_proxy",), (), ("谁票多投谁", "不可设立投票条件", "投票对象有误的票无效", "重新发帖")),
    (M84_PROXY + M84_INVALID, "m84", "【代投】清明\n投票对象：如果白露没出局就投白露", "vote", None,
     ("conditional_proxy",), (), ("不可设立投票条件",)),
    # a named player stays a proxy vote for that player
    (R004_PROXY, "004", "【代投】惊蛰\n投票对象：青梅\n投票理由：惊蛰委托", "vote", "青梅", (), (), ()),
    (M84_PROXY, "m84", "【代投】惊蛰\n投票对象：青梅", "vote", "青梅", (), (), ()),
    # a misspelt name is no condition: still a wrong target
    (R004_FORMAT, "004", "【代投】清明\n投票对象：狼人", "vote", None, ("unknown_target",), (), ()),
    (M84_INVALID, "m84", "【代投】清明\n投票对象：竹码", "vote", None, ("unknown_target",), (), ("竹马",)),
]


@pytest.mark.parametrize("rule,preset,text,kind,target,codes,notes,words", CONDITIONAL)
def test_a_conditional_proxy_is_read_as_its_ruleset_says(rule, preset, text, kind, target, codes, notes, words):
    b = parse(text, "说书人", preset)
    assert b is not None and b.proxy, rule
    assert (b.kind, b.target) == (kind, target), rule
    assert b.codes == codes, (rule, b.problems)
    assert tuple(n.code for n in b.notes) == notes, (rule, b.notes)
    said = " ".join(p.message for p in b.problems + b.notes)
    for w in words:
        assert w in said, (rule, w, said)


@pytest.mark.parametrize("preset", PRESETS)
def test_a_player_writing_a_condition_is_a_wrong_target(preset):
    """004 玩家须知 9 speaks of 代投 only; a player's own conditional ballot is a wrong target
    (M84: 投票格式或投票对象有误的票无效; 004: 投票格式有误的投票将算作废票)."""
    b = parse("投票对象：谁票多投谁\n投票理由：跟大流", "竹马", preset)
    assert b.codes == ("unknown_target",) and b.notes == ()


def test_the_reading_is_a_ruleset_field_refused_when_misspelt():
    """M84 has no 否则视为弃权 of its own (代投时需给出明确的投票对象（不可设立投票条件）), 004 has:
    the difference is `vote.conditional_proxy`, shown among the readings."""
    assert load_ruleset("004").vote.conditional_proxy == "abstain"
    assert load_ruleset("m84").vote.conditional_proxy == "invalid"
    for preset, sentence in (("004", "否则视为弃权"), ("m84", "不可设立投票条件")):
        rs = load_ruleset(preset)
        assert sentence in rs.vote.conditional_proxy_rule
        r = next(r for r in rs.readings() if r["field"] == "vote.conditional_proxy")
        assert r["reading"] == rs.vote.conditional_proxy and sentence in r["note"]
    with pytest.raises(RulesetError, match="conditional_proxy"):
        parse_ruleset('name = "x"\ncite = "x"\n[vote]\nconditional_proxy = "弃权"\n', "test")


@pytest.mark.parametrize("written,conditional", [
    ("谁票多投谁", True), ("票多的那个", True), ("如果白露没出局就投白露", True), ("跟票", True),
    ("看情况", True), ("青梅或竹马", True), ("誰票多投誰", True),
    ("狼人", False), ("竹码", False), ("小明", False),
])
def test_which_targets_are_conditions(written, conditional):
    """004 玩家须知 9: 不允许给出条件让导演确定投票对象 — a condition leaves the choice to the director;
    a misspelt name does not."""
    assert is_conditional(written) is conditional


@pytest.mark.parametrize("preset", PRESETS)
def test_a_condition_word_inside_a_name_is_no_condition(preset):
    """M84 投票对象有误的票无效 / 004 投票格式有误的投票将算作废票: 若页 is 若叶 misspelt (若 is a condition
    word, but here part of a name), a wrong target pointing at 若叶, not a condition."""
    roster = PLAYERS + ("若叶",)
    b = parse("【代投】清明\n投票对象：若页", "说书人", preset, players=roster)
    assert b.codes == ("unknown_target",) and "若叶" in b.problems[0].message
    assert parse("【代投】清明\n投票对象：若叶", "说书人", preset, players=roster).target == "若叶"
    assert not is_conditional("若叶白露", roster) and is_conditional("若叶出局就投白露", roster)


# --- (8) ballots in traditional characters -----------------------------------------------------------
# (rule, preset, text, kind, target, notes); every one of these was read as invalid before
TRADITIONAL = [
    (M84_INVALID, "m84", "投票對象：青梅\n投票理由：帶節奏", "vote", "青梅", ()),
    (M84_INVALID, "m84", "投票对象：竹馬\n投票理由：好", "vote", "竹马", ("traditional_folded",)),
    (M84_INVALID, "m84", "投票對象：竹馬\n投票理由：好", "vote", "竹马", ("traditional_folded",)),
    (M84_ABSTAIN, "m84", "投票对象：棄權\n投票理由：搞不清楚", "abstain", None, ("traditional_folded",)),
    (R004_ABSTAIN, "004", "投票對象：棄權\n投票理由：搞不清楚", "abstain", None, ("traditional_folded",)),
    (R004_FORMAT, "004", "改票對象：竹馬\n改票理由：想通了", "change", "竹马", ("traditional_folded",)),
    (M84_WIDTH, "m84", "投票對象:竹馬 投票理由:好", "vote", "竹马", ("traditional_folded",)),
    (R004_PROXY, "004", "【代投】清明\n投票對象：竹馬", "vote", "竹马", ("traditional_folded",)),
]


@pytest.mark.parametrize("rule,preset,text,kind,target,notes", TRADITIONAL)
def test_traditional_labels_and_names_are_read_folded(rule, preset, text, kind, target, notes):
    author = "说书人" if text.startswith("【代投】") else "白露"
    b = parse(text, author, preset)
    assert b is not None and b.problems == (), (rule, b and b.problems)
    assert (b.kind, b.target) == (kind, target), rule
    assert tuple(n.code for n in b.notes) == notes, rule
    if notes:
        assert "繁体" in b.notes[0].message and b.written_target in b.notes[0].message


def test_the_reason_keeps_its_own_characters():
    """The labels are read folded; what the player wrote after them is kept as written."""
    b = parse("投票對象：青梅\n投票理由：帶節奏", "竹马", "m84")
    assert b.reason == "帶節奏" and b.written_target == "青梅"


def test_a_roster_name_in_traditional_characters_is_met_by_its_simplified_spelling():
    """M84 投票格式或投票对象有误的票无效: 竹马 names the player 竹馬 (the same name folded)."""
    b = parse("投票对象：竹马\n投票理由：好", "青梅", "m84", players=("青梅", "竹馬"))
    assert (b.target, b.codes) == ("竹馬", ()) and b.notes[0].code == "traditional_folded"
    exact = parse("投票对象：竹馬\n投票理由：好", "青梅", "m84", players=("青梅", "竹馬"))
    assert (exact.target, exact.notes) == ("竹馬", ())


def test_two_players_alike_once_folded_are_named_by_neither():
    """发哥 and 髮哥 both fold to 发哥: 發哥 names neither, a wrong target (投票对象有误的票无效);
    each exact spelling still names its player."""
    roster = ("发哥", "髮哥", "青梅")
    assert parse("投票对象：發哥\n投票理由：x", "青梅", "m84", roster).codes == ("unknown_target",)
    assert parse("投票对象：髮哥\n投票理由：x", "青梅", "m84", roster).target == "髮哥"
    assert parse("投票对象：发哥\n投票理由：x", "青梅", "m84", roster).target == "发哥"


def test_folding_keeps_positions():
    assert to_simplified("投票對象：竹馬") == "投票对象：竹马"
    assert to_simplified("abc") == "abc"
    s = "【代投】棄權 投票對象：竹馬 投票理由：帶節奏"
    assert len(to_simplified(s)) == len(s)
    assert is_ballot_attempt("投票對象：青梅", load_ruleset("m84").vote)


# --- (9) a reason quoting a ballot line -------------------------------------------------------------
# (rule, text, target, codes)
QUOTED = [
    (M84_ONE, "投票对象：竹马\n投票理由：他说“投票对象：青梅”很可疑", "竹马", ()),
    (M84_ONE, "投票对象：竹马\n投票理由：他说「投票对象：青梅」很可疑", "竹马", ()),
    (M84_ONE, "投票对象：竹马\n投票理由：他说『改票对象：青梅』又不改", "竹马", ()),
    (M84_ONE, '投票对象：竹马\n投票理由：他说"投票对象：青梅"很可疑', "竹马", ()),
    (M84_WIDTH, "投票对象：竹马 投票理由：他昨天写“投票对象：青梅 投票理由：好”", "竹马", ()),
    (M84_ONE, "投票对象：竹马\n投票理由：他的“投票理由：随便”太敷衍", "竹马", ()),
    # a whole ballot in quotation marks is still the ballot
    (M84_INVALID, "“投票对象：竹马\n投票理由：好”", "竹马", ()),
    # two ballot lines outside quotation marks are still two
    (M84_ONE, "投票对象：竹马\n投票理由：好\n投票对象：青梅\n投票理由：不对还是青梅", None, ("bad_format",)),
    (M84_ONE, "投票对象：竹马\n投票理由：好\n“附注”\n投票对象：青梅", None, ("bad_format",)),
]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("rule,text,target,codes", QUOTED)
def test_a_label_quoted_in_the_reason_is_not_a_second_ballot_line(preset, rule, text, target, codes):
    b = parse(text, "白露", preset)
    assert (b.target, b.codes) == (target, codes), (rule, b.problems)


def test_the_quoted_reason_is_kept_whole():
    b = parse("投票对象：竹马\n投票理由：他说“投票对象：青梅”很可疑", "白露", "m84")
    assert b.reason == "他说“投票对象：青梅”很可疑"


# --- the count: a note leaves the ballot as cast -------------------------------------------------------
DAY = Day(number=1, discussion_tid=1, vote_tid=2, opens=datetime(2026, 12, 1, 10, tzinfo=TZ),
          closes=datetime(2026, 12, 1, 22, tzinfo=TZ))


def _count(posts, preset):
    st = DayState(day=1, at=DAY.opens, players=PLAYERS, living=PLAYERS, out=(), priest=None, whistled=(),
                  excused=(), accelerated_event=False, directors=DIRECTORS)
    return count_votes(posts, rules=load_ruleset(preset), day=DAY, state=st)


@pytest.mark.parametrize("preset,counted,abstained", [("004", True, ("清明",)), ("m84", False, ())])
def test_the_count_keeps_notes_and_follows_the_ruleset(preset, counted, abstained):
    """004 否则视为弃权: 清明 abstains (and has answered the vote thread); M84 投票对象有误的票无效: no vote
    counts for 清明. The traditional and the quoting ballots count for 竹马 under both."""
    at = datetime(2026, 12, 1, 12, tzinfo=TZ)
    posts = [post("【代投】清明\n投票对象：谁票多投谁\n投票理由：清明委托", "说书人", 2, at),
             post("投票對象：竹馬\n投票理由：帶節奏", "青梅", 3, at + timedelta(minutes=1)),
             post("投票对象：竹马\n投票理由：他说“投票对象：青梅”很可疑", "白露", 4, at + timedelta(minutes=2))]
    c = _count(posts, preset)
    by_floor = {b.floor: b for b in c.ballots}
    assert by_floor[2].valid is counted and by_floor[3].valid and by_floor[4].valid
    assert by_floor[3].target == by_floor[4].target == "竹马"
    assert "traditional_folded" in by_floor[3].codes and {"traditional_folded", "conditional_proxy_abstain"} <= NOTE_CODES
    assert c.abstained == abstained
    assert {e.target: e.voters for e in c.tally}["竹马"] == ("青梅", "白露")
