"""How Discuz X3.5 shows a reply made with a floor's 回复 button (item 11 of issue 19).

[M84] 游戏进程 投票规则: 【改票格式】改票需回复原投票楼层. X3.5's 回复 button leaves no mark: the
post's page and its mobile-API entry carry neither a 回复 N# header nor the replied floor's pid.
So such a change is reported without a reference, and the message says why; the quote (引用)
button still counts."""
from __future__ import annotations

import pytest

from .conftest import PASSWORD, daoyan, seed_game, votes_json

pytestmark = pytest.mark.live

VOTES = [
    {"key": "v_jz", "author": "饺子", "message": "投票对象：包子\n投票理由：矛盾"},
    {"key": "v_bz", "author": "包子", "message": "投票对象：饺子\n投票理由：带节奏"},
]


@pytest.mark.parametrize("api", ["always", "never"])
def test_a_reply_button_change_leaves_no_mark(forum, tmp_path, api):
    g = seed_game(forum, votes=VOTES)
    by_reply = forum.dz("reply", "饺子", PASSWORD, g.vote, "改票对象：馄饨\n改票理由：用回复按钮改票",
                        "--replyto", g.pid("v_jz"))
    by_quote = forum.dz("reply", "包子", PASSWORD, g.vote, "改票对象：馄饨\n改票理由：用引用按钮改票",
                        "--quote", g.pid("v_bz"))
    # the forum itself: nothing on the page or in the API points at the replied floor
    import httpx

    page = httpx.get(f"{forum.url}forum.php", params={"mod": "viewthread", "tid": g.vote}).content
    text = page.decode("gb18030" if forum.charset == "gbk" else "utf-8")
    block = text[text.index(f'id="post_{by_reply["pid"]}"'):]
    block = block[:block.index('id="post_', 10)] if 'id="post_' in block[10:] else block
    assert f"pid={g.pid('v_jz')}" not in block and "回复 " not in block.split("postmessage_")[1][:200]
    api_doc = httpx.get(f"{forum.url}api/mobile/index.php",
                        params={"version": 4, "module": "viewthread", "tid": g.vote}).json()
    entry = next(p for p in api_doc["Variables"]["postlist"] if p["pid"] == str(by_reply["pid"]))
    replied = str(g.pid("v_jz"))
    known = {"pid", "tid", "first", "author", "authorid", "dateline", "dbdateline", "message", "anonymous",
             "attachment", "status", "replycredit", "position", "username", "adminid", "groupid",
             "memberstatus", "number", "groupiconid"}
    assert set(entry) <= known, set(entry) - known     # no field beyond a plain post's
    assert entry["tid"] == str(g.vote)
    assert f"pid={replied}" not in entry["message"] and "回复" not in entry["message"].split("<br")[0][:4]

    gf = g.game_file(tmp_path, api=api)
    assert daoyan("scan", gf, "-q").exit_code == 0
    doc = votes_json(gf)
    ballots = {b["pid"]: b for b in doc["ballots"]}
    reply_ballot, quote_ballot = ballots[by_reply["pid"]], ballots[by_quote["pid"]]
    assert not reply_ballot["counted"]
    [problem] = [p for p in reply_ballot["problems"] if p["code"] == "change_without_reference"]
    assert "回复" in problem["message"] and "不在帖子里留下" in problem["message"]
    assert quote_ballot["counted"] and quote_ballot["target"] == "馄饨"
