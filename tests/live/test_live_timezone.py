"""A login account with its own 时区 (time zone) setting: Discuz writes every time it shows that
member in the member's zone. The times daoyan stores must be right whatever the setting (defect 2)."""
from __future__ import annotations

from datetime import datetime

import pytest

from .conftest import DIRECTOR_B, daoyan, login_env, seed_game, store_rows, votes_json

pytestmark = pytest.mark.live

# the first ballot 10 minutes after the day opened: 8 hours early it would fall before the opening
VOTES = [
    {"key": "v_jz", "author": "饺子", "message": "投票对象：包子\n投票理由：矛盾", "minutes": 10},
    {"key": "v_bz", "author": "包子", "message": "投票对象：饺子\n投票理由：带节奏", "minutes": 600},
    {"key": "v_hd", "author": "馄饨", "message": "投票对象：包子\n投票理由：跟票", "minutes": 620},
]


@pytest.mark.parametrize("api", ["never", "always"])
def test_a_member_time_zone_does_not_shift_the_times(forum, tmp_path, api):
    g = seed_game(forum, votes=VOTES, private=True)
    gf = g.game_file(tmp_path, api=api, login=DIRECTOR_B)
    forum.dz("timeoffset", DIRECTOR_B, 0)
    try:
        r = daoyan("scan", gf, "-q", env=login_env(forum, DIRECTOR_B))
    finally:
        forum.dz("timeoffset", DIRECTOR_B, "default")
    assert r.exit_code == 0, r.output
    assert "GMT+0" in r.output and "Asia/Shanghai" in r.output   # it says what it corrected
    pid = g.pid("v_jz")
    [(posted_at,)] = store_rows(gf, "select posted_at from posts where pid=?", (pid,))
    expected = g.opens.timestamp() + 10 * 60
    assert datetime.fromisoformat(posted_at).timestamp() == expected
    assert {t["target"]: t["weight"] for t in votes_json(gf)["tally"]} == {"包子": 2, "饺子": 1}


def test_a_member_zone_east_of_the_game(forum_utf8, tmp_path):
    g = seed_game(forum_utf8, votes=VOTES, private=True)
    gf = g.game_file(tmp_path, api="never", login=DIRECTOR_B)
    forum_utf8.dz("timeoffset", DIRECTOR_B, 9.5)
    try:
        r = daoyan("scan", gf, "-q", env=login_env(forum_utf8, DIRECTOR_B))
    finally:
        forum_utf8.dz("timeoffset", DIRECTOR_B, "default")
    assert r.exit_code == 0, r.output
    assert "GMT+9.5" in r.output
    rows = dict(store_rows(gf, "select pid, posted_at from posts"))
    assert datetime.fromisoformat(rows[g.pid("v_bz")]).timestamp() == g.opens.timestamp() + 600 * 60
