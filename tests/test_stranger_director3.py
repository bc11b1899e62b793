"""A director reads the activity table and the counts the way a stranger would, and two things must
not mislead them: a player who went out during the day and then posted a ballot must not show as
"voted ✓", and a count made from a store that missed the forum's latest posts must say so. Each
test names the rule sentence the decision rests on."""
from __future__ import annotations

import json
import shutil
import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner

from daoyan.cli import cli
from daoyan.demo.server import DemoForum
from daoyan.scan import scan_game
from engine.activity import activity_json, count_activity
from engine.state import DayState
from engine.votes import count_votes, voter_statuses
from gamedef.gamefile import Day, load_game
from gamedef.ruleset import load_ruleset
from parsers.models import Post

from .reliability_support import fast_game, game_variant, scanned_demo


def run(*args: object, env: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, [str(a) for a in args], env=env)


def run_json(*args: object) -> dict:
    r = run(*args, "--json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


# 1 ------------------------------------------------------------------------------------------------
# A player out in the middle of the day, then a ballot: what the count and the activity table say.

TZ = timezone(timedelta(hours=8))
PLAYERS = ("饺子", "包子", "馄饨", "汤圆", "烧卖")
DAY = Day(number=1, discussion_tid=1, vote_tid=2, opens=datetime(2026, 12, 1, 10, tzinfo=TZ),
          closes=datetime(2026, 12, 2, 22, tzinfo=TZ))
OUT_AT = datetime(2026, 12, 2, 15, tzinfo=TZ)


def at(day: int, hh: int, mm: int = 0) -> datetime:
    return datetime(2026, 12, day, hh, mm, tzinfo=TZ)


def ballot(floor: int, author: str, target: str, when: datetime) -> Post:
    text = f"投票对象：{target}\n投票理由：看他不顺眼"
    return Post(tid=2, pid=100 + floor, floor=floor, author=author, uid=None, posted_at=when,
                time_precision="second", message_html=text, text=text)


STATE = DayState(day=1, at=DAY.opens, players=PLAYERS, living=PLAYERS, out=(), priest=None, whistled=(),
                 excused=(), accelerated_event=False, directors=("导演A",))

M84_OUT = "M84 出局: 已公示出局的角色不允许在讨论帖、投票帖、进程帖中发言，不允许被选为技能或投票的目标"
O04_OUT = "004 出局: 角色出局结算结束后，不能继续参与讨论、投票、行使特权"
O04_RED = "004 出局: 白天红牌罚下在被投票出局之前"
M84_RED = "M84 出局: 白天红牌罚下导致的出局结算在投票结算之后执行"

# (preset, how 包子 leaves at 15:00 on the closing day, 包子's ballots, status, voted, replied, rule)
LEAVES = [
    ("m84", "out", [at(2, 16)], "after_out", False, False, M84_OUT),
    ("004", "out", [at(2, 16)], "after_out", False, False, O04_OUT),
    ("004", "red", [at(2, 16)], "after_out", False, False, O04_RED),
    ("m84", "red", [at(2, 16)], "counted", True, True, M84_RED),
    # voted while in the game, then went out: it was an answer either way; whether the vote stays is
    # vote.ballot_before_out (M84 counts: only posting once out is barred; 004 dropped: 不能继续参与投票)
    ("m84", "out", [at(1, 12)], "counted", True, True, M84_OUT),
    ("004", "out", [at(1, 12)], "not_counted", False, True, O04_OUT),
    # voted, went out, voted again: the second ballot is what it is (M84: the first still counts)
    ("m84", "out", [at(1, 12), at(2, 16)], "counted", True, True, M84_OUT),
    ("004", "red", [at(1, 12), at(2, 16)], "after_out", False, True, O04_RED),
]


@pytest.mark.parametrize("preset, how, times, status, voted, replied, rule", LEAVES)
def test_a_ballot_after_going_out_is_not_a_vote(preset: str, how: str, times: list[datetime], status: str,
                                                voted: bool, replied: bool, rule: str) -> None:
    """The votes engine decides whether 包子's ballot counts; the activity table says the same:
    `voted` is a counted ballot, and a ballot posted once out shows as that (`after_out`), with the
    count's own reason — never as a vote."""
    rules = load_ruleset(preset)
    posts = [ballot(2, "饺子", "馄饨", at(1, 11))] + [ballot(3 + i, "包子", "饺子", t) for i, t in enumerate(times)]
    out_at = {"包子": OUT_AT} if how == "out" else {}
    ejected = {"包子": OUT_AT} if how == "red" else {}
    c = count_votes(posts, rules=rules, day=DAY, state=STATE, out_at=out_at, ejected=ejected)
    mine = [b for b in c.ballots if b.voter == "包子"]
    late = [b for b in mine if b.posted_at > OUT_AT]
    if status == "counted":
        assert any(b.counted and b.valid for b in mine), rule
        if how == "red":
            assert late and late[0].counted and late[0].valid, rule
    if how == "out":  # whatever counts, a ballot posted once out never does
        assert all(not b.valid and "voter_out" in b.codes for b in late), rule
    for b in late if status == "after_out" else []:
        assert not b.valid and not b.counted and "voter_out" in b.codes, rule
        msg = next(p.message for p in b.problems if p.code == "voter_out")
        assert "不能投票" in msg and "诈尸" in msg
        assert ("红牌罚下" in msg) == (how == "red")
    assert ("包子" in c.replied) is replied

    st = voter_statuses(c, PLAYERS)
    assert (st["包子"].status, st["包子"].voted) == (status, voted), rule
    assert st["饺子"].voted and st["饺子"].status == "counted"

    # the activity JSON takes `voted` from the count, whatever `invalid_counts_as_voted` says
    gone = out_at or (ejected if rules.cards.red_resolves == "before_vote" else {})
    act = count_activity({"vote": posts}, ruleset=rules, day=DAY, state=STATE, out_at=gone)
    js = activity_json(act, [], [p for p, s in st.items() if s.voted], vote_status=st)
    row = next(r for r in js["players"] if r["player"] == "包子")
    assert row["voted"] is voted and row["vote"]["status"] == status
    assert ("out_at" in row) is bool(gone)
    if status == "after_out":
        assert row["vote"]["label"] == "出局后投票（不计）"
        assert [p["code"] for p in row["vote"]["problems"]] == ["voter_out"] * len(late)


def test_an_invalid_ballot_is_not_shown_as_a_vote() -> None:
    """M84 投票规则: 投票格式或投票对象有误的票无效。无效票须通过重新发帖来更正. Whether an invalid
    ballot still answers the vote thread is the ruleset's `invalid_counts_as_voted` (`replied`); it is
    not a vote."""
    text = "投票对象：包仔\n投票理由：x"
    bad = Post(tid=2, pid=102, floor=2, author="饺子", uid=None, posted_at=at(1, 12), time_precision="second",
               message_html=text, text=text)
    for preset in ("m84", "004"):
        c = count_votes([bad], rules=load_ruleset(preset), day=DAY, state=STATE)
        st = voter_statuses(c, PLAYERS)["饺子"]
        assert (st.status, st.voted, st.replied) == ("invalid", False, True)
        assert voter_statuses(c, PLAYERS)["包子"].status == "none"


# 2 ------------------------------------------------------------------------------------------------
# The same through the commands, on the demo game: 寒露 votes at 22:10 on the first evening.

@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return scanned_demo(tmp_path_factory.mktemp("director3"))


variant = game_variant


LEFT = "2026-11-10T22:00:00"  # ten minutes before 寒露's ballot (#14, 22:10:40)
OUT_EVENT = f'\n[[event]]\nday = 1\nkind = "out"\nplayer = "寒露"\nreason = "lovers"\nat = {LEFT}\n'
RED_CARD = f'\n[[card]]\nday = 1\nplayer = "寒露"\ncard = "red"\nrule = "违规判定 2(4)"\nreason = "嘲讽"\nat = {LEFT}\n'

# (preset, what the game file adds, 寒露's row: voted, status, whether 寒露 is out at 22:00, rule)
GAME_FILES = [
    ("m84", OUT_EVENT, False, "after_out", True, M84_OUT),
    ("004", OUT_EVENT, False, "after_out", True, O04_OUT),
    ("004", RED_CARD, False, "after_out", True, O04_RED),
    ("m84", RED_CARD, True, "counted", False, M84_RED),
]


@pytest.mark.parametrize("preset, extra, voted, status, out, rule", GAME_FILES)
def test_the_commands_agree_on_a_ballot_after_going_out(scanned: Path, tmp_path: Path, preset: str, extra: str,
                                                        voted: bool, status: str, out: bool, rule: str) -> None:
    path = variant(scanned, tmp_path, lambda t: t.replace('ruleset = "m84"', f'ruleset = "{preset}"') + extra)
    v = run_json("votes", path, "--day", 1)
    b14 = next(b for b in v["ballots"] if b["floor"] == 14)
    assert b14["counted"] is voted and ("voter_out" in [p["code"] for p in b14["problems"]]) is (not voted), rule
    a = run_json("activity", path, "--day", 1)
    row = next(r for r in a["players"] if r["player"] == "寒露")
    assert (row["voted"], row["vote"]["status"], "out_at" in row) == (voted, status, out), rule
    assert "寒露" not in [p["player"] for p in a["penalties"]]  # out during the day: no lurking card
    # every other player's ✓ is a counted ballot in `votes`
    counted = {b["voter"] for b in v["ballots"] if b["counted"]}
    assert {r["player"] for r in a["players"] if r["voted"]} == counted
    text = run("activity", path, "--day", 1, env={"COLUMNS": "200"}).output
    line = next(ln for ln in text.splitlines() if "寒露" in ln and "│" in ln)
    assert ("✓" in line) is voted and ("出局后投票" in line) is (not voted)
    r = run("report", path, "--day", 1, "--out", tmp_path / "reports")
    assert r.exit_code == 0, r.output
    html = (tmp_path / "reports" / "day1.html").read_text("utf-8")
    cell = html[html.index('<section id="activity"'):]
    cell = cell[cell.index("<td>寒露"):][:600]
    assert ("已投" in cell) is voted and ("出局后投票" in cell) is (not voted)


# 3 ------------------------------------------------------------------------------------------------
# A count made from a store that may miss the forum's latest posts says so, in text and in JSON.

def stale_copy(scanned: Path, folder: Path, *, scanned_at: str, replies: int | None = None) -> Path:
    """The demo game with its store as if last read at `scanned_at` (UTC), the vote thread's reply
    count as the forum printed it then set to `replies`."""
    for name in ("game.toml", "game.sqlite"):
        shutil.copy(scanned.parent / name, folder / name)
    con = sqlite3.connect(folder / "game.sqlite")
    with con:
        con.execute("update threads set scanned_at=?", [scanned_at])
        if replies is not None:
            con.execute("update threads set replies=?, replies_at=? where tid=22", [replies, scanned_at])
    con.close()
    return folder / "game.toml"


VOTE_FLOORS = 23  # the demo's day-1 vote thread as scanned

# (scanned_at UTC, vote thread replies, --at, the causes expected; day 1 closes 2026-11-11 22:00 +08:00)
STALE = [
    # the scan ran at 21:50 and the day closed at 22:00: the last ten minutes are unread
    ("2026-11-11T13:50:00+00:00", None, None, ["scanned_before"]),
    # the forum printed more floors than were stored during a reading that began before the close
    ("2026-11-11T13:55:00+00:00", VOTE_FLOORS + 2, None, ["scanned_before", "forum_reported_more"]),
    # counting at 21:58, three minutes after the scan: recent enough by time, but the forum said more
    ("2026-11-11T13:55:00+00:00", VOTE_FLOORS + 2, "2026-11-11T21:58", ["forum_reported_more"]),
    ("2026-11-11T13:55:00+00:00", VOTE_FLOORS - 1, "2026-11-11T21:58", []),
    # read after the close: whatever the forum had more came after it
    ("2026-11-11T14:05:00+00:00", VOTE_FLOORS + 2, None, []),
]


@pytest.mark.parametrize("scanned_at, replies, when, causes", STALE)
def test_a_count_that_may_miss_posts_says_so(scanned: Path, tmp_path: Path, scanned_at: str, replies: int | None,
                                             when: str | None, causes: list[str]) -> None:
    """M84 投票: 在白天结束时，统计投票结果并公布; 004 投票规则: 投票截止时间是当天白天结束 … 时间以论坛发帖时间为准.
    The count is of every ballot posted by the close; a store that has not read them all must not
    print a normal-looking count. What it rests on is only what the store knows: when each thread's
    last reading began, and the reply count the forum printed during it (no request is made)."""
    path = stale_copy(scanned, tmp_path, scanned_at=scanned_at, replies=replies)
    at_args = ("--at", when) if when else ()
    for command in ("votes", "activity"):
        js = run_json(command, path, "--day", 1, *at_args)
        got = [w["cause"] for w in js["warnings"] if w["kind"] == "stale_scan"]
        assert got == causes, command
        text = run(command, path, "--day", 1, *at_args, env={"COLUMNS": "200"}).output
        assert ("可能不全" in text) is bool(causes)
        if causes:  # before the first count is read
            assert text.index("可能不全") < text.index("第1天")
    v = run_json("votes", path, "--day", 1, *at_args)
    assert v["provisional"] is (bool(causes) or when is not None)
    more = [w for w in v["warnings"] if w.get("cause") == "forum_reported_more"]
    for w in more:
        assert (w["forum_floors"], w["stored_floors"], w["thread"]) == (replies + 1, VOTE_FLOORS, "vote")
        assert f"共{replies + 1}楼" in w["message"] and f"只有{VOTE_FLOORS}楼" in w["message"]
    a = run_json("activity", path, "--day", 1, *at_args)
    if causes:
        assert a["penalties_final"] is False

    # remind --json already carried `stale_scan`; it now carries the same warnings as votes
    r = run("remind", path, "--day", 1, "--at", when or "2026-11-11T22:00", "--json")
    assert [w["cause"] for w in json.loads(r.stdout)["warnings"]] == \
        [w["cause"] for w in run_json("votes", path, "--day", 1, "--at", when or "2026-11-11T22:00")["warnings"]
         if w["kind"] == "stale_scan"]

    # the announcement: the command warns on stderr, the JSON has the warnings, the BBCode says 暂时结果
    r = run("report", path, "--day", 1, *at_args, "--out", tmp_path / "out")
    assert r.exit_code == 0, r.output
    assert ("可能不全" in r.stderr) is bool(causes) and "可能不全" not in r.stdout
    data = json.loads((tmp_path / "out" / "day1.json").read_text("utf-8"))
    assert [w["cause"] for w in data["warnings"] if w["kind"] == "stale_scan"] == causes
    bb = (tmp_path / "out" / "day1.bbcode.txt").read_text("utf-8")
    assert ("暂时结果" in bb) is (bool(causes) or when is not None)

    # the card ledger rests on the same counts
    r = run("cards", path, "--day", 1, "--json")
    assert r.exit_code == 0, r.output
    if when is None:
        assert [w["cause"] for w in json.loads(r.stdout).get("warnings", [])] == causes
        assert ("可能不全" in r.stderr) is bool(causes)


def test_a_scan_records_when_its_reading_began_and_what_the_forum_counted(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """What the store holds is the forum as of when a thread's reading began: a post made while a
    long thread is read may land on a page already read. Each thread keeps that moment
    (`threads.scanned_at`) and the reply count the forum printed while it was read
    (`threads.replies`, `replies_at`); after a whole scan the two agree with the floors stored."""
    import daoyan.scan as scan_mod

    class Ticking(datetime):
        """A clock that moves a minute each time it is read, so a reading's start and end differ."""
        t = datetime(2026, 12, 5, 8, 0, tzinfo=timezone.utc)

        @classmethod
        def now(cls, tz=None):  # type: ignore[no-untyped-def, override]
            cls.t += timedelta(minutes=1)
            return cls.t.astimezone(tz) if tz else cls.t.replace(tzinfo=None)

    with DemoForum() as forum:
        path = fast_game(tmp_path, forum.base_url)
        monkeypatch.setattr(scan_mod, "datetime", Ticking)
        scan_game(load_game(path))
        monkeypatch.undo()
    con = sqlite3.connect(tmp_path / "game.sqlite")
    rows = con.execute("select t.tid, t.scanned_at, t.replies, t.replies_at, "
                       "(select count(*) from posts p where p.tid=t.tid and p.gone_at is null) "
                       "from threads t where t.tid in (21, 22, 23, 24, 31, 32)").fetchall()
    con.close()
    assert len(rows) == 6
    for tid, began, replies, replies_at, stored in rows:
        assert began < replies_at, tid  # the moment kept is the start, not the end
        assert replies + 1 == stored, tid
    assert not [w for w in run_json("votes", path, "--day", 1)["warnings"] if w["kind"] == "stale_scan"]


# 4 ------------------------------------------------------------------------------------------------
# A post after a red card that took its author out in the middle of the day is 诈尸 in `check` too.

@pytest.mark.parametrize("preset, dead, rule", [
    ("004", True, O04_RED + "; 004 违规判定 6(1): 已出局角色在讨论帖、投票帖、进程帖中发言（即“诈尸”）"),
    ("m84", False, M84_RED),
])
def test_a_post_after_a_red_card_mid_day_is_a_dead_post_where_the_card_takes_effect_at_once(
        scanned: Path, tmp_path: Path, preset: str, dead: bool, rule: str) -> None:
    path = variant(scanned, tmp_path, lambda t: t.replace('ruleset = "m84"', f'ruleset = "{preset}"') + RED_CARD)
    c = run_json("check", path, "--day", 1)
    flags = c["flags"] if isinstance(c, dict) else c
    late = [f for f in flags if f["author"] == "寒露" and f["category"] == "dead_post"]
    assert bool(late) is dead, rule
    if dead:
        assert 14 in {f["floor"] for f in late if f["thread"] == "vote"}
