"""A moderator deletes a post during the day (defects 4 and 5 of issue 19): Discuz answers the next
mobile-API request with a 302, and renumbers the floors its pages show after the deleted one.
Posts are known by pid: the deleted one is marked gone (kept as evidence), no floor holds two."""
from __future__ import annotations

import json
import re

import pytest

from .conftest import daoyan, seed_game, store_rows, votes_json

pytestmark = pytest.mark.live

VOTES = [
    {"key": "v_jz", "author": "饺子", "message": "投票对象：包子\n投票理由：矛盾"},
    {"key": "v_bz", "author": "包子", "message": "投票对象：饺子\n投票理由：带节奏"},
    {"key": "v_hd", "author": "馄饨", "message": "投票对象：包子\n投票理由：跟票"},
    {"key": "v_ty", "author": "汤圆", "message": "投票对象：饺子\n投票理由：感觉不对"},
]


def requests_of(output: str) -> int:
    return int(re.search(r"(\d+) requests; store", output).group(1))


def tally(gf) -> dict[str, float]:
    return {t["target"]: t["weight"] for t in votes_json(gf)["tally"]}


@pytest.mark.parametrize("api", ["always", "never", "auto"])
def test_a_deleted_ballot_is_gone_and_kept(forum, tmp_path, api):
    # 12 chatter floors first: the ballots sit on page 2, the deleted one's followers move a floor
    g = seed_game(forum, votes=VOTES, vote_floors=12,
                  discussion=[{"author": "饺子", "message": f"第{i}句" } for i in range(12)])
    gf = g.game_file(tmp_path, api=api)
    r = daoyan("scan", gf, "-q")
    assert r.exit_code == 0, r.output
    assert tally(gf) == {"包子": 2, "饺子": 2}

    victim = g.pid("v_bz")
    forum.delete(victim)
    forum.delete(g.pid("d3"))   # and a discussion post on page 1
    r = daoyan("scan", gf, "-q")
    assert r.exit_code == 0, r.output
    assert tally(gf) == {"包子": 2, "饺子": 1}
    [(gone_at, text)] = store_rows(gf, "select gone_at, text from posts where pid=?", (victim,))
    assert gone_at and "饺子" in text          # kept, with its words, marked gone
    dup = store_rows(gf, "select tid, floor, count(*) from posts where gone_at is null "
                         "group by tid, floor having count(*) > 1")
    assert dup == []

    # a desktop-only re-scan (no API to say what changed) reads the vote thread whole; with the
    # API an unchanged thread costs one request
    r = daoyan("scan", gf, "-q")
    assert r.exit_code == 0, r.output
    if api == "never":
        assert requests_of(r.output) <= 2 + 2
    else:
        assert requests_of(r.output) == 2
    assert tally(gf) == {"包子": 2, "饺子": 1}


@pytest.mark.parametrize("api", ["never"])
def test_full_rescan_marks_a_deleted_discussion_post_gone(forum_utf8, tmp_path, api):
    g = seed_game(forum_utf8, votes=VOTES[:1],
                  discussion=[{"author": "饺子", "message": f"第{i}句"} for i in range(15)])
    gf = g.game_file(tmp_path, api=api)
    assert daoyan("scan", gf, "-q").exit_code == 0
    victim = g.pid("d4")
    forum_utf8.delete(victim)
    r = daoyan("scan", gf, "-q", "--full")
    assert r.exit_code == 0, r.output
    [(gone_at,)] = store_rows(gf, "select gone_at from posts where pid=?", (victim,))
    assert gone_at
    r = daoyan("activity", gf, "--day", 1, "--json")
    assert r.exit_code == 0
    posts = {p["player"]: p["posts"] for p in json.loads(r.stdout)["players"]}
    assert posts["饺子"] == 14   # 15 posted, one deleted by a moderator
    [w] = [w for w in json.loads(r.stdout)["warnings"] if w["kind"] == "deleted_post"]
    assert (w["pid"], w["player"], w["thread"]) == (victim, "饺子", "discussion")
    assert "删除" in w["message"]
