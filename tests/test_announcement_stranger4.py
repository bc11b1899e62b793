"""The public announcement (公示), from the stranger-director report 4, points (5) and (6).

(5) Every ballot posted appears in the announcement: a counted one in the count table (or the
abstentions) with its floor, every other one in 未计入的票 with why it does not count — invalid,
replaced by a change, its voter or its target out during the day (M84 用语定义 出局: 已公示出局的
角色不允许在投票帖中发言，不允许被选为投票的目标), after the close — so players can check the count.

(6) The announcement is for players: no ruleset field name (`accelerated_voids = after_granted`),
no game-file entry (`[[proxy]] requested_at`), no note to the director (请导演核对, daoyan 没有见过…).
Those stay in the review page. Checked on the BBCode `report` writes and on the desk's HTML
rendering of it, table-driven over both presets, the demo game's days and scenario days that
raise every such message.
"""
from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from daoyan.cli import cli
from daoyan.demo.sample import GAME_FID
from daoyan.demo.server import DemoForum
from daoyan.desk.preview import bbcode_to_html
from daoyan.scan import scan_game
from gamedef.gamefile import load_game
from gamedef.ruleset import Ruleset
from reports._public import public_text
from reports.bbcode import render_bbcode

from .reliability_support import game_variant, scanned_demo
from .test_rule_decisions_e2e import A, B, C, D, DIRECTOR, E, F, G, C_, V, at, game_text

H = "惊蛰"


def _field_names(cls: type, out: set[str]) -> set[str]:
    """Every field name of the ruleset model, nested tables included."""
    for f in dataclasses.fields(cls):
        out.add(f.name)
        t = f.type if isinstance(f.type, type) else None
        default = f.default if f.default is not dataclasses.MISSING else None
        for sub in (t, type(default)):
            if sub is not None and dataclasses.is_dataclass(sub):
                _field_names(sub, out)
    return out


# names a player never needs: the settings' own (the long ones; short words like `day` are ordinary)
FIELDS = sorted(n for n in _field_names(Ruleset, set()) if "_" in n)
DIRECTOR_TEXT = ("请导演", "导演复核", "导演核对", "daoyan", "规则集", "游戏文件", "[[proxy]]", "[[event]]")
SETTING = re.compile(r"[A-Za-z_]+(?:\.[A-Za-z_]+)*\s*=\s*\S")


def _threads(forum: DemoForum, tag: str) -> dict[str, int]:
    return {role: forum.add_thread(f"[{tag}] 第一天{zh}", fid=GAME_FID, author=DIRECTOR, posted_at=at("1 10:00"))
            for role, zh in (("discussion", "讨论"), ("vote", "投票"), ("progress", "进程"))}


ABSTAIN_NO_REASON = "投票对象：弃权"


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("announce4")
    paths: dict[str, Path] = {}
    demo = scanned_demo(out / "demo")
    paths["demo_m84"] = demo
    (out / "demo004").mkdir()
    paths["demo_004"] = game_variant(demo, out / "demo004", lambda t: t.replace('ruleset = "m84"', 'ruleset = "004"'))

    with DemoForum() as forum:
        # M84: 谷雨 out at 12:00 on day 2 (voter of one ballot, target of another); 小满 whistled;
        # acceleration from 15:00 on day 1 (a change before it stands, one after it is void); an
        # abstention without 投票理由; an edit inside the lock no scan saw before; a second vote; a late one
        g = _threads(forum, "P1")
        va = forum.add_post(g["vote"], A, V(D), at("1 11:00"))
        vb = forum.add_post(g["vote"], B, V(C), at("1 11:10"))
        forum.add_post(g["vote"], C, V(G), at("1 11:20"))
        forum.add_post(g["vote"], G, V(A), at("1 11:30"))
        forum.add_post(g["vote"], D, ABSTAIN_NO_REASON, at("1 11:40"))
        forum.add_post(g["vote"], E, "投票对象：青梅<br />投票理由：喵喵喵", at("1 11:50"))
        forum.add_post(g["vote"], A, C_(C), at("1 13:00"), quote_pid=va)
        forum.add_post(g["vote"], B, C_(D), at("1 16:00"), quote_pid=vb)
        vf = forum.add_post(g["vote"], F, V(B), at("2 20:00"))
        forum.add_post(g["vote"], F, V(A), at("2 20:10"))
        forum.add_post(g["vote"], H, V(A), at("2 22:30"))
        forum.edit_post(vf, V(C), at=at("2 21:30"))
        extra = ('\n[[event]]\nday = 1\nkind = "out"\nplayer = "谷雨"\nreason = "night"\nat = 2026-12-02T12:00:00\n'
                 '\n[[event]]\nday = 1\nkind = "whistled"\nplayer = "小满"\n'
                 '\n[[event]]\nday = 1\nkind = "accelerated"\nat = 2026-12-01T15:00:00\n')
        paths["scenario_m84"] = out / "scenario_m84.toml"
        paths["scenario_m84"].write_text(game_text(forum.base_url, "m84", g, extra, more=(G, H)), "utf-8")
        scan_game(load_game(paths["scenario_m84"]))

        # 004: the same out; the whole day accelerated (所有改票作废); proxies from the game file: a
        # change with no request time recorded inside the lock, and a second vote not marked as a change
        g = _threads(forum, "P2")
        vc = forum.add_post(g["vote"], C, V(G), at("1 11:20"))
        forum.add_post(g["vote"], G, V(A), at("1 11:30"))
        forum.add_post(g["vote"], D, ABSTAIN_NO_REASON, at("1 11:40"))
        forum.add_post(g["vote"], E, V(A), at("1 11:50"))
        forum.add_post(g["vote"], B, V(C), at("1 12:00"))
        forum.add_post(g["vote"], C, C_(A), at("1 16:00"), quote_pid=vc)
        forum.add_post(g["vote"], H, V(A), at("2 22:30"))
        extra = ('\n[[event]]\nday = 1\nkind = "out"\nplayer = "谷雨"\nreason = "night"\nat = 2026-12-02T12:00:00\n'
                 '\n[[event]]\nday = 1\nkind = "accelerated"\n'
                 '\n[[proxy]]\nday = 1\nplayer = "竹马"\ntarget = "青梅"\nchange = true\nat = 2026-12-02T21:40:00\n'
                 '\n[[proxy]]\nday = 1\nplayer = "小满"\ntarget = "竹马"\nat = 2026-12-02T12:30:00\n')
        paths["scenario_004"] = out / "scenario_004.toml"
        paths["scenario_004"].write_text(game_text(forum.base_url, "004", g, extra, more=(G, H)), "utf-8")
        scan_game(load_game(paths["scenario_004"]))
    return paths


CASES = [("demo_m84", 1), ("demo_m84", 2), ("demo_004", 1), ("demo_004", 2), ("scenario_m84", 1), ("scenario_004", 1)]


@pytest.fixture(scope="module")
def written(games: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, int], dict]:
    """Each case's report files, as `daoyan report` writes them."""
    out: dict[tuple[str, int], dict] = {}
    for name, day in CASES:
        folder = tmp_path_factory.mktemp(f"{name}{day}")
        r = CliRunner().invoke(cli, ["report", str(games[name]), "--day", str(day), "--out", str(folder)])
        assert r.exit_code == 0, r.output
        data = json.loads((folder / f"day{day}.json").read_text("utf-8"))
        out[(name, day)] = {"data": data, "bbcode": (folder / f"day{day}.bbcode.txt").read_text("utf-8"),
                            "html": (folder / f"day{day}.html").read_text("utf-8")}
    return out


def _section(bb: str, title: str) -> list[str]:
    lines = bb.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"[size=4][b]{title}[/b][/size]"))
    end = next((i for i in range(start + 1, len(lines)) if not lines[i].strip()), len(lines))
    return lines[start:end]


def _visible(html: str) -> str:
    return re.sub(r"<[^>]*>", "", str(html))


def _public_texts(w: dict) -> dict[str, str]:
    """The BBCode (its tags' arguments dropped) and the desk's HTML rendering of the announcement."""
    desk = bbcode_to_html(render_bbcode(w["data"], floor_links=True))
    return {"bbcode": re.sub(r"\[[^\]\u200d]*\]", "", w["bbcode"]), "desk html": _visible(desk)}


@pytest.mark.parametrize("case", CASES, ids=[f"{n}-day{d}" for n, d in CASES])
def test_every_ballot_appears_with_why_it_does_not_count(written: dict, case: tuple[str, int]) -> None:
    w = written[case]
    bb, ballots = w["bbcode"].replace("\u200d", ""), w["data"]["votes"]["ballots"]
    table = [line for line in bb.splitlines() if line.startswith("[tr]") or line.startswith("弃权：")]
    dropped = _section(bb, "未计入的票")
    items = [line for line in dropped if line.startswith("[*]")]
    uncounted = [b for b in ballots if not b["counted"]]
    assert len(items) == len(uncounted), (dropped, uncounted)
    assert f"共 {len(ballots)} 张票：{len(ballots) - len(uncounted)} 张计入，{len(uncounted)} 张未计入" in dropped[0] \
        or not ballots
    for b in ballots:
        floor = f"#{b['floor']}" if b["floor"] is not None else ""
        if b["counted"]:
            assert any(f"{b['voter']}[color=gray]（{floor}）" in row if floor else b["voter"] in row for row in table), b
            continue
        head = f"[*]{floor or '代投'} {b['voter']}（"
        line = next((item for item in items if item.startswith(head)), None)
        assert line is not None, (b, dropped)
        label, _, why = line.partition("[/b]，")
        assert label.rsplit("[b]", 1)[1] in ("无效", "已改票", "已重新投票", "不再计入", "不计入")
        assert len(why.strip("。")) >= 4, line  # a reason, not a bare label


@pytest.mark.parametrize("case", CASES, ids=[f"{n}-day{d}" for n, d in CASES])
def test_no_director_note_or_setting_name_in_the_public_announcement(written: dict, case: tuple[str, int]) -> None:
    for where, text in _public_texts(written[case]).items():
        for word in DIRECTOR_TEXT:
            assert word not in text, (where, word, text)
        for field in FIELDS:
            assert field not in text, (where, field)
        assert not SETTING.search(text), (where, SETTING.search(text))


def test_the_reasons_players_needed_are_there(written: dict) -> None:
    """The two ballots of the stranger's m84b day 3, and the void changes in both rules' words."""
    m84 = written[("scenario_m84", 1)]["bbcode"]
    dropped = "\n".join(_section(m84, "未计入的票"))
    assert f"{C}（投票：{G}）：[b]不再计入[/b]，投票对象“{G}”于12-02 12:00出局，此票不再计入" in dropped
    # M84 vote.ballot_before_out = counts (出局: 已公示出局的角色不允许在…投票帖…中发言 bars only later posts):
    # 谷雨's ballot cast before going out at 12:00 stands, in the table, not among the uncounted
    assert f"{G}（投票：{A}）" not in dropped
    assert f"{G}[color=gray]（#" in m84.split("[/table]")[0]
    assert "此后不允许改票，此次改票作废，原票仍有效" in dropped  # M84: 执行加速时不允许改票
    assert f"{D}（弃权）：[b]无效[/b]，缺少投票理由" in dropped and "弃权票也须写投票理由" in dropped
    assert f"{A}已在#" in dropped and "以改票为准" in dropped
    assert "关门前60分钟内" in "\n".join(_section(m84, "编辑说明")) and "按现在的内容计" in m84
    assert E in m84.split("[/table]")[0]  # the whistled player's ballot counts; the whistle note is for review
    v004 = "\n".join(_section(written[("scenario_004", 1)]["bbcode"], "未计入的票"))
    assert "所有改票作废，原票仍有效" in v004  # 004: 进程加速后不允许改票，所有改票作废
    assert "代投" in v004 and "没有记录请求时间，按代投发帖时间" in v004


def test_the_review_page_keeps_the_director_notes(written: dict) -> None:
    """What the announcement leaves out is still shown to the director, on the review page."""
    html = _visible(written[("scenario_m84", 1)]["html"])
    assert "whistle.ballot_counts = true" in html and "请导演复核" in html
    assert "daoyan 没有见过编辑前的内容" in html
    assert "accelerated_voids" in html
    html004 = _visible(written[("scenario_004", 1)]["html"])
    assert "requested_at" in html004


@pytest.mark.parametrize("code, message, want", [
    ("change_while_accelerated", "本讨论日进程加速，所有改票作废（规则集 accelerated_voids = whole_day），原票仍有效。",
     "本讨论日进程加速，所有改票作废，原票仍有效。"),
    ("missing_reason", "缺少投票理由（格式：投票理由：……）（弃权票也须写理由：规则集 abstain_reason_required = true），"
     "此票无效，须重新发帖更正。", "缺少投票理由（格式：投票理由：……）（弃权票也须写投票理由），此票无效，须重新发帖更正。"),
    ("whistled_voter", "立夏处于黑哨状态，只能发出动物叫声或表情；按规则集（whistle.ballot_counts = false）此票不计。",
     "立夏处于黑哨状态，只能发出动物叫声或表情，此票不计。"),
    ("whistled_ballot", "立夏处于黑哨状态……按规则集（whistle.ballot_counts = true）此票计入，请导演复核。", ""),
    ("close_minute", "论坛页面只显示此帖发于12-02 21:59（不到秒）……（[forum] api = \"always\"）读到秒。", ""),
    ("no_time", "无法确定此帖的发帖时间，请导演核对。", "无法确定此帖的发帖时间，此票暂不计入。"),
    ("edited_target", "该楼原本不是投票，于12-02 20:00被编辑成投票，请导演核对。", "该楼原本不是投票，于12-02 20:00被编辑成投票。"),
    ("duplicate_vote", "小满已在12-02 11:00的代投投过票，每人限投一票；如是代投改票，请在游戏文件的这条 [[proxy]] 写 change = true。此票不计。",
     "小满已在12-02 11:00的代投投过票，每人限投一票；此票不计。"),
    ("target_out", "投票对象“寒露”于11-20 12:00出局，此票不再计入；立夏可重新发帖投票。",
     "投票对象“寒露”于11-20 12:00出局，此票不再计入；立夏可重新发帖投票。"),
])
def test_public_words_of_a_problem(code: str, message: str, want: str) -> None:
    # the engine carries the players' words beside the director's message (tests/test_director5_public.py
    # checks it makes these); the announcement renders them and never reshapes the director's message
    assert public_text({"code": code, "message": message, "public": want}) == want
    assert public_text({"code": code, "message": message}) == ""
