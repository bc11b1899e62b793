"""Edits to ballots while the day runs (defect 6 of issue 19): a desktop-only scan has no API to
list what changed, so the vote thread is read whole on every re-scan; its cost is printed."""
from __future__ import annotations

import re

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
