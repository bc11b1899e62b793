"""A 屏蔽 (hidden) post reads the same whatever the account (defect 7 of issue 19): an
administrator is shown its words under 提示: 该帖被管理员或版主屏蔽, others only the notice."""
from __future__ import annotations

import pytest

from .conftest import DIRECTOR_B, daoyan, login_env, seed_game, store_rows, votes_json

pytestmark = pytest.mark.live

VOTES = [
    {"key": "v_jz", "author": "饺子", "message": "投票对象：包子\n投票理由：矛盾"},
    {"key": "v_bz", "author": "包子", "message": "投票对象：饺子\n投票理由：带节奏", "banned": True},
    {"key": "v_hd", "author": "馄饨", "message": "投票对象：包子\n投票理由：跟票"},
]


@pytest.mark.parametrize("api", ["never", "always"])
def test_hidden_post_is_the_same_for_admin_and_director(forum, tmp_path, api):
    g = seed_game(forum, votes=VOTES, private=True)
    admin_env = {"DAOYAN_LIVE_USER": forum.env["DZ_ADMIN"], "DAOYAN_LIVE_PW": forum.env["DZ_ADMIN_PASSWORD"]}
    seen = {}
    for who, env in (("admin", admin_env), ("director", login_env(forum, DIRECTOR_B))):
        gf = g.game_file(tmp_path / who, api=api, login="yes")
        r = daoyan("scan", gf, "-q", env=env)
        assert r.exit_code == 0, r.output
        [(hidden, text)] = store_rows(gf, "select hidden, text from posts where pid=?", (g.pid("v_bz"),))
        seen[who] = (hidden, text, {t["target"]: t["weight"] for t in votes_json(gf)["tally"]})
    assert seen["admin"] == seen["director"]
    assert seen["admin"][0] == 1 and seen["admin"][1] == ""
