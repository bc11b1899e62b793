"""Session values never reach the store: the raw HTML of a logged-in page keeps no formhash and no
session id (Discuz writes it into captcha ids, `seccode_cS<sid>`), the API answer no auth cookie;
and the cookie is in the cookie file only, as docs/reliability.md says."""
from __future__ import annotations

import asyncio
import math
import re
from pathlib import Path

import httpx
import pytest

from scraper.client import ForumClient
from scraper.scrub import scrub

from .test_secrets import PASSWORD, daoyan, leaks, login_forum, login_game, store_blobs

AUTH = "148bVforkF3VyjWXwBIcSR%2Bc6chlNT9outgVjn46a2X9f4oYAEyWhJRPpMTxZmTsH21jVDspoDKE7VpceH12"


@pytest.mark.parametrize("build", ["x35-utf8", "x35-gbk"])
def test_the_genuine_logged_in_page_is_stored_without_its_session(captures: Path, build: str) -> None:
    page = (captures / build / "session" / "viewthread-tid2-p1-logged-in.html").read_bytes()
    sid = re.search(rb"updateseccode\('cS(\w+)'", page).group(1).decode()
    formhash = re.search(rb"formhash=(\w+)", page).group(1).decode()
    page = page.replace(b"</body>", f"<!-- {AUTH} -->".encode() + b"</body>")  # as if the page echoed the cookie

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=page, headers=[
            ("Content-Type", "text/html; charset=" + ("gbk" if "gbk" in build else "utf-8")),
            ("Set-Cookie", f"AL8z_2132_sid={sid}; path=/"), ("Set-Cookie", f"AL8z_2132_auth={AUTH}; path=/")])

    async def go():
        async with ForumClient("http://127.0.0.1:8080/", transport=httpx.MockTransport(answer), rate=math.inf) as f:
            got = await f.thread_page(2, 1)
            return got, f.scrubbed(got.content)

    fetched, stored = asyncio.run(go())
    assert formhash in fetched.text  # the page as read keeps it: a login reads the formhash of its form
    for secret in (sid, formhash, AUTH, "148bVforkF3VyjWXwBIcSR+c6chlNT9outgVjn46a2X9f4oYAEyWhJRPpMTxZmTsH21jVDspoDKE7VpceH12"):
        assert secret.encode() not in stored, secret
    assert b"updateseccode('cS***'" in stored and b"formhash=***" in stored
    assert len(stored) > 0.99 * len(page)  # the posts are all still there


def test_scrub_leaves_ordinary_words_alone() -> None:
    text = "投票对象：饺子 hash 表 formhash 这个词 cSS 样式 sid 是什么".encode()
    assert scrub(text) == text


def test_a_logged_in_scan_stores_no_formhash_and_the_cookie_is_only_in_the_cookie_file(tmp_path: Path) -> None:
    with login_forum() as forum:
        game = login_game(tmp_path, forum)
        r = daoyan("scan", str(game), "-q")
        assert r.returncode == 0, r.stderr.decode()
        with forum._lock:
            cookies = sorted(forum._sessions)
    from daoyan.demo.render import View

    formhash = View.__dataclass_fields__["formhash"].default
    blobs = store_blobs(tmp_path / "game.sqlite")
    assert any(b"formhash=***" in b or b'"formhash":"***"' in b for b in blobs.values())
    assert {k for k, b in blobs.items() if formhash.encode() in b} == set()
    # every file of the game's folder but the cookie file: none holds a session cookie
    holders = {p.name for p in tmp_path.rglob("*") if p.is_file() and leaks(p.read_bytes(), cookies)}
    assert holders == {"session.json"}
    assert not any(leaks(p.read_bytes(), [PASSWORD]) for p in tmp_path.rglob("*") if p.is_file())
