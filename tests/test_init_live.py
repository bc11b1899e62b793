"""`daoyan init` against a live Discuz X3.5 (../shared/discuz-live): a seeded game with its rule post,
then a day that opens later; the board hidden from guests needs the login.

Marked `live`: it starts its own forum (its own DZ_HOME and port) and skips cleanly where the
forum cannot start (no PHP or MariaDB on the machine, no ../shared/discuz-live)."""
from __future__ import annotations

import json
import os
import shlex
import subprocess
import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner

from daoyan.cli import cli
from gamedef.gamefile import load_game

from .conftest import SHARED

pytestmark = pytest.mark.live
LIVE = SHARED / "discuz-live"
TZ = timezone(timedelta(hours=8))
MON = datetime(2026, 11, 30, 10, 0, tzinfo=TZ)  # a Monday


def _t(day: int, minutes: int = 0) -> int:
    return int((MON + timedelta(days=day - 1, minutes=minutes)).timestamp())


RULES_1 = ("投票规则\n每名存活玩家每个讨论日只能投一票。投票后可以改票两次，改票时须引用原投票楼层。\n"
           "关门前半个小时内不得改票。\n平票则无人出局。\n【投票格式】\n投票对象：某某\n投票理由：某某")
RULES_2 = ("潜水\n（1）任一讨论日发言少于３帖，判罚一张黄牌\n（2）讨论日未投票者判罚一张黄牌\n"
           "讨论日长短\n讨论日为期一天，逢周末延长一天。关门时间一般为晚上十点。\n"
           "加速\n申请加速的人数超过存活人数的一半即执行加速；进程加速后不允许改票。\n"
           "判罚\n累计三张蓝牌合并为一张黄牌，累计三张黄牌合并为一张红牌。红牌罚下在投票结算之后执行。")
PLAYERS = ["阿一", "阿二", "阿三", "阿四"]


def _seed() -> dict:
    users = [{"name": "导演甲", "group": 1}, {"name": "导演乙", "group": 1}] + [{"name": p, "group": 10} for p in PLAYERS]
    talk = [{"author": p, "time": _t(1, 30 + 10 * i), "message": f"{p}的第一天发言"} for i, p in enumerate(PLAYERS)]
    votes = [{"author": p, "time": _t(1, 200 + 10 * i), "message": "投票对象：阿四\n投票理由：可疑"} for i, p in enumerate(PLAYERS[:3])]
    return {
        "users": users,
        "forums": [{"fid": 2, "name": "版杀"}],
        "threads": [
            {"key": "rules", "fid": 2, "subject": "[T9] 规则帖", "author": "导演甲", "time": _t(0),
             "message": RULES_1,
             "posts": [{"author": "导演甲", "time": _t(0, 1 + i), "message": f"身份说明 {i}\n本节没有投票规则。"}
                       for i in range(1, 10)]  # floors 2-10: the rule post runs onto page 2
             + [{"author": "导演甲", "time": _t(0, 20), "message": RULES_2},
                {"author": "阿一", "time": _t(0, 60), "message": "收到"}]},
            {"key": "d1", "fid": 2, "subject": "[T9] 第1天 讨论帖", "author": "导演甲", "time": _t(1),
             "message": "第一天讨论帖开门，关门时间 11月30日 22:00。", "posts": talk},
            {"key": "v1", "fid": 2, "subject": "[T9] 第1天 投票帖", "author": "导演乙", "time": _t(1, 1),
             "message": "请按格式投票。", "posts": votes},
            {"key": "d2", "fid": 2, "subject": "[T9] D2 讨论帖", "author": "导演甲", "time": _t(2),
             "message": "公示：第一天投票出局：阿四。黑哨：阿二。\n第二天讨论帖开门。",
             "posts": [{"author": "阿一", "time": _t(2, 20), "message": "第二天早"}]},
        ],
    }


@pytest.fixture(scope="module")
def forum():
    if not (LIVE / "start").is_file():
        pytest.skip("../shared/discuz-live is not beside this checkout")
    home = tempfile.mkdtemp(prefix="daoyan-init-live-")
    try:
        out = subprocess.run([str(LIVE / "start")], env={**os.environ, "DZ_HOME": home}, capture_output=True,
                             text=True, timeout=900)
    except (OSError, subprocess.TimeoutExpired) as e:
        pytest.skip(f"the live forum could not start: {e}")
    if out.returncode:
        subprocess.run([str(LIVE / "stop"), home, "--rm"], capture_output=True)
        pytest.skip("the live forum could not start: " + out.stderr[-500:])
    env = {k: shlex.split(v)[0] for k, v in (ln.split("=", 1) for ln in out.stdout.splitlines()
                                             if "=" in ln and not ln.startswith("export"))}
    try:
        seed = Path(home) / "t9.json"
        seed.write_text(json.dumps(_seed(), ensure_ascii=False), "utf-8")
        env["posts"] = _dz(env, "seed", str(seed), "--with-users")
        yield env
    finally:
        subprocess.run([str(LIVE / "stop"), home, "--rm"], capture_output=True)


def _dz(env: dict, *args: str) -> dict:
    r = subprocess.run([str(LIVE / "dz"), "--url", env["DZ_URL"], "--home", env["DZ_HOME"], *args],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def _init(url: str, out: Path, env: dict | None = None):
    return CliRunner(env=env).invoke(cli, ["init", url, "--out", str(out)], catch_exceptions=False)


def test_live_game_then_a_new_day(forum: dict, tmp_path: Path) -> None:
    tid_d1 = forum["posts"]["posts"]["d1"]["tid"]
    out = tmp_path / "game.toml"
    r = _init(f"{forum['DZ_URL']}forum.php?mod=viewthread&tid={tid_d1}", out)
    assert r.exit_code == 0, r.output
    g = load_game(out)
    tids = {k: v["tid"] for k, v in forum["posts"]["posts"].items() if k in ("rules", "d1", "v1", "d2")}
    assert [(d.number, d.discussion_tid, d.vote_tid) for d in g.days] == [(1, tids["d1"], tids["v1"])]
    assert g.days[0].opens == MON and g.days[0].closes == MON.replace(hour=22)
    assert g.rules_tid == tids["rules"]
    assert set(g.directors) == {"导演甲", "导演乙"} and sorted(g.players) == sorted(PLAYERS)
    # the rule post of eleven floors over two pages (a player's 收到 after them is not part of it) became the ruleset
    assert g.ruleset.vote.max_changes == 2 and g.ruleset.vote.lock_minutes == 30
    assert g.ruleset.vote.change_reference == ("quote",)
    assert g.ruleset.acceleration.threshold == "more_than_half"
    assert [(lr.kind, lr.threshold) for lr in g.ruleset.lurking] == [("posts_below", 3), ("no_vote", 0)]
    text = out.read_text("utf-8")
    assert "day 2: discussion tid" in text and "no vote thread yet" in text
    assert "suggested: day=2 kind=out player=阿四" in text and "suggested: day=2 kind=whistled player=阿二" in text

    # the director edits, then day 2's vote thread opens
    out.write_text(text.replace("players = [", "# checked\nplayers = ["), "utf-8")
    users = forum["posts"]["users"]
    v2 = _dz(forum, "newthread", "导演甲", users["导演甲"]["password"], "2", "[T9] D2 投票帖", "第二天投票帖。",
             "--at", str(_t(2, 2)))
    r = _init(forum["DZ_URL"], out)
    assert r.exit_code == 0, r.output
    g = load_game(out)
    assert [(d.number, d.discussion_tid, d.vote_tid) for d in g.days] == \
        [(1, tids["d1"], tids["v1"]), (2, tids["d2"], v2["tid"])]
    # no 关门时间 in day 2's opening post: the rule post's day length (一天, 关门时间一般为晚上十点), marked
    assert g.days[1].closes == (MON + timedelta(days=1)).replace(hour=22)
    again = out.read_text("utf-8")
    assert "# checked" in again and "GUESS" in again
    assert again.count("suggested: day=2 kind=out player=阿四") == 1


def test_live_hidden_board_needs_the_login(forum: dict, tmp_path: Path) -> None:
    _dz(forum, "hide-board", "2")
    try:
        tid = forum["posts"]["posts"]["d1"]["tid"]
        url = f"{forum['DZ_URL']}forum.php?mod=forumdisplay&fid=2"
        r = CliRunner().invoke(cli, ["init", url, "--out", str(tmp_path / "g.toml")])
        assert r.exit_code == 2 and "--user" in r.output, r.output
        pw = forum["posts"]["users"]["导演甲"]["password"]
        r = _init(url, tmp_path / "g.toml", {"DAOYAN_USER": "导演甲", "DAOYAN_PASSWORD": pw})
        assert r.exit_code == 0, r.output
        g = load_game(tmp_path / "g.toml")
        assert g.days[0].discussion_tid == tid and g.forum.login is not None
        assert pw not in (tmp_path / "g.toml").read_text("utf-8")
    finally:
        _dz(forum, "hide-board", "2", "--undo")
