"""Edits to ballots while the day runs (defect 6 of issue 19): a desktop-only scan has no API to
list what changed, so the vote thread is read whole on every re-scan; its cost is printed."""
from __future__ import annotations

import re
import time

import pytest

from .conftest import PASSWORD, daoyan, seed_game, store_rows

pytestmark = pytest.mark.live


def test_desktop_only_rescan_sees_an_edit_on_an_early_page(forum, tmp_path):
    votes = [{"key": "v_jz", "author": "饺子", "message": "投票对象：包子\n投票理由：矛盾"}]
    votes += [{"author": "包子", "message": f"第{i}句闲聊，不投票。"} for i in range(14)]
    g = seed_game(forum, votes=votes)
    gf = g.game_file(tmp_path, api="never")
    r = daoyan("scan", gf, "-q")
    assert r.exit_code == 0, r.output
    forum.dz("edit", "饺子", PASSWORD, g.pid("v_jz"), "投票对象：馄饨\n投票理由：改主意了，还是投馄饨")
    r = daoyan("scan", gf, "-q")
    assert r.exit_code == 0, r.output
    [(text,)] = store_rows(gf, "select text from posts where pid=?", (g.pid("v_jz"),))
    assert "馄饨" in text
    # the cost is printed per thread: the vote thread's two pages, the discussion's last page
    vote_line = next(ln for ln in r.output.splitlines() if ln.startswith(f"tid {g.vote} "))
    assert re.search(r"; 2 requests\)", vote_line), vote_line


@pytest.mark.parametrize("api", ["always", "never"])
@pytest.mark.parametrize("zone", ["default", 0])
def test_a_ballot_edited_after_close_first_seen_after_the_edit(forum, tmp_path, api, zone):
    """[M84] 游戏进程 投票规则: 关门前一小时不允许改票 — a ballot edited after the close, which the
    store first sees after the edit, is flagged with the edit's time (original unknown), also when
    the director's account shows times in its own zone (GMT+0)."""
    from datetime import timedelta

    from .conftest import DIRECTOR_B, login_env

    votes = [{"key": "v_jz", "author": "饺子", "message": "投票对象：包子\n投票理由：矛盾", "minutes": 10},
             {"key": "v_bz", "author": "包子", "message": "投票对象：饺子\n投票理由：带节奏", "minutes": 20}]
    g = seed_game(forum, votes=votes, opens_ago=timedelta(hours=30), closes_in=timedelta(hours=-1),
                  private=True)
    forum.dz("edit", "饺子", PASSWORD, g.pid("v_jz"), "投票对象：馄饨\n投票理由：关门后悄悄改了票")
    edited = time.time()
    gf = g.game_file(tmp_path, api=api, login="yes")
    forum.dz("timeoffset", DIRECTOR_B, zone)
    try:
        r = daoyan("scan", gf, "-q", env=login_env(forum, DIRECTOR_B))
    finally:
        forum.dz("timeoffset", DIRECTOR_B, "default")
    assert r.exit_code == 0, r.output
    r = daoyan("votes", gf, "--day", 1, "--json")
    import json

    doc = json.loads(r.stdout)
    ballot = next(b for b in doc["ballots"] if b["pid"] == g.pid("v_jz"))
    codes = {p["code"] for p in ballot["problems"]}
    assert "edited_original_unknown" in codes, ballot
    [edited_at] = store_rows(gf, "select edited_at from posts where pid=?", (g.pid("v_jz"),))[0:1]
    from datetime import datetime

    # the marker is written once in the editor's zone (the forum's), whoever views it: its time
    # is the edit's, to the minute, whatever the director's account shows
    assert abs(datetime.fromisoformat(edited_at[0]).timestamp() - edited) < 120
