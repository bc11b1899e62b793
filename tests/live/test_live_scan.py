"""The first scan of a live forum, as a director runs it: both builds, both API modes."""
from __future__ import annotations

import pytest

from .conftest import daoyan, seed_game, votes_json

pytestmark = pytest.mark.live

VOTES = [
    {"key": "v_jz", "author": "饺子", "message": "投票对象：包子\n投票理由：前后矛盾"},
    {"key": "v_bz", "author": "包子", "message": "投票对象：饺子\n投票理由：带节奏"},
    {"key": "v_hd", "author": "馄饨", "message": "投票对象：包子\n投票理由：跟票"},
    {"key": "v_ty", "author": "汤圆", "message": "投票对象：饺子\n投票理由：感觉不对"},
    {"key": "v_sm", "author": "烧卖", "message": "投票对象：弃权\n投票理由：信息不够"},
    {"key": "v_ty2", "author": "汤圆", "message": "改票对象：包子\n改票理由：被说服了", "quote": "v_ty"},
]


def tally(doc: dict) -> dict[str, float]:
    return {t["target"]: t["weight"] for t in doc["tally"]}


@pytest.mark.parametrize("api", ["always", "never"])
def test_first_scan_counts_the_day(forum, tmp_path, api):
    g = seed_game(forum, votes=VOTES, discussion=[{"author": "饺子", "message": "我先说两句。"}])
    gf = g.game_file(tmp_path, api=api)
    r = daoyan("scan", gf, "-q")
    assert r.exit_code == 0, r.output
    doc = votes_json(gf)
    assert tally(doc) == {"包子": 3, "饺子": 1}
    assert doc["outcome"]["out"] == "包子"
    assert doc["not_voted"] == ["春卷"]
    for cmd in (["activity", gf, "--day", 1, "--json"], ["check", gf, "--day", 1, "--json"],
                ["remind", gf, "--day", 1], ["report", gf, "--day", 1, "--out", tmp_path / "out"]):
        r = daoyan(*cmd)
        assert r.exit_code == 0, (cmd[0], r.output)


def test_progress_is_truthful_and_names_the_thread(forum_utf8, tmp_path):
    """Not on a terminal: one line per thread, with its subject, pages and requests. The progress
    calls end full (pages done = pages planned) and carry the subject once it is known."""
    from gamedef.gamefile import load_game
    from daoyan.scan import scan_game

    g = seed_game(forum_utf8, votes=VOTES + [{"author": "春卷", "message": f"第{i}句闲聊，等等看。"} for i in range(25)])
    gf = g.game_file(tmp_path, api="never")
    r = daoyan("scan", gf)
    assert r.exit_code == 0, r.output
    lines = [ln for ln in r.output.splitlines() if ln.startswith("scanned tid")]
    assert len(lines) == 2
    assert any(f"scanned tid {g.vote} {g.tag} 第一天投票帖: 4 pages, 4 requests" == ln for ln in lines), lines
    calls: list[tuple[str, int, int]] = []
    scan_game(load_game(gf), full=True, progress=lambda *a: calls.append(a))
    last = {}
    for label, done, total in calls:
        last[label.split()[1]] = (label, done, total)
    label, done, total = last[str(g.vote)]
    assert done == total == 4 and "第一天投票帖" in label
