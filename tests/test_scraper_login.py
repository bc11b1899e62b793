"""Login against the forum's real answers (the captures), the cookie file, and secrets kept secret."""
from __future__ import annotations

import asyncio
import json
import math
import os
import stat
from pathlib import Path
from urllib.parse import parse_qs, quote

import httpx
import pytest

from gamedef.errors import DaoyanError, ForumError, LoginFailed
from scraper import ForumClient
from scraper.login import parse_login_answer, parse_login_form

BASE = "http://127.0.0.1:8080/"
PASSWORD = "Hunter2-secret!"
WRONG = "not-the-Password"


def captured(folder: Path, name: str) -> httpx.Response:
    """The forum's genuine answer `name` (body and headers, every Set-Cookie)."""
    meta = json.loads((folder / f"{name}.meta.json").read_text("utf-8"))
    headers: list[tuple[str, str]] = []
    for key, value in meta["headers"].items():
        for v in value if isinstance(value, list) else [value]:
            headers.append((key, v))
    return httpx.Response(meta["status"], headers=headers,
                          content=(folder / meta["body"]).read_bytes())


def auth_value(folder: Path) -> str:
    meta = json.loads((folder / "session" / "login-ok.meta.json").read_text("utf-8"))
    for line in meta["headers"]["Set-Cookie"]:
        name, _, rest = line.partition("=")
        if name.endswith("_auth"):
            return rest.split(";", 1)[0]
    raise AssertionError("the capture has no auth cookie")


class Forum:
    """A Discuz login built from the captures: the right password gets login-ok."""

    def __init__(self, folder: Path, charset: str) -> None:
        self.folder, self.charset = folder, charset
        self.posts: list[dict[str, list[str]]] = []
        self.raw_bodies: list[bytes] = []
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        q = request.url.params
        if request.method == "GET" and q.get("mod") == "logging":
            return captured(self.folder / "errors", "login-form")
        if request.method == "POST" and q.get("loginsubmit") == "yes":
            assert q.get("inajax") == "1" and q.get("loginhash")
            self.raw_bodies.append(request.content)
            form = parse_qs(request.content.decode("ascii"), encoding=self.charset, errors="strict")
            self.posts.append(form)
            if form["password"] == [PASSWORD] and form["username"] == ["导演A"]:
                return captured(self.folder / "session", "login-ok")
            return captured(self.folder / "errors", "login-wrong-password")
        if q.get("mod") == "viewthread":
            return captured(self.folder / "session", "viewthread-tid2-p1-logged-in")
        return httpx.Response(404, content=b"not captured")


def login(forum: Forum, password: str, **kw) -> ForumClient:
    async def go() -> ForumClient:
        async with ForumClient(BASE, transport=httpx.MockTransport(forum), rate=math.inf, **kw) as c:
            await c.login("导演A", password)
            assert c.logged_in
            await c.thread_page(2)
            return c
    return asyncio.run(go())


@pytest.fixture(params=["x35-utf8", "x35-gbk"])
def forum(request, captures) -> Forum:
    return Forum(captures / request.param, "gbk" if request.param == "x35-gbk" else "utf-8")


def test_login_success(forum):
    client = login(forum, PASSWORD)
    [form] = forum.posts
    html_form = parse_login_form((forum.folder / "errors" / "login-form.html").read_bytes()
                                 .decode("gb18030" if forum.charset == "gbk" else "utf-8"))
    assert form["formhash"] == [html_form.formhash]
    assert form["loginfield"] == ["username"] and form["questionid"] == ["0"]
    assert form["cookietime"] == ["2592000"] and "referer" in form
    post = next(r for r in forum.requests if r.method == "POST")
    assert post.url.params["loginhash"] == html_form.loginhash
    assert post.headers["Content-Type"] == "application/x-www-form-urlencoded"
    # the session's auth cookie goes with the next page
    page_request = forum.requests[-1]
    assert auth_value(forum.folder) in page_request.headers.get("Cookie", "")
    assert client.stats["statuses"] == {200: 3}


def test_login_failure_carries_the_forums_message(forum):
    with pytest.raises(LoginFailed) as err:
        login(forum, WRONG)
    assert "登录失败，您还可以尝试 4 次" in str(err.value)
    assert isinstance(err.value, DaoyanError) and err.value.exit_code == 2
    assert WRONG not in str(err.value)


def test_gbk_forum_receives_a_gbk_encoded_username(captures):
    forum = Forum(captures / "x35-gbk", "gbk")
    login(forum, PASSWORD)
    [raw] = forum.raw_bodies
    assert ("username=" + quote("导演A".encode("gbk"))).encode() in raw
    assert quote("导演A".encode("utf-8")).encode() not in raw


def test_utf8_forum_receives_a_utf8_username(captures):
    forum = Forum(captures / "x35-utf8", "utf-8")
    login(forum, PASSWORD)
    assert ("username=" + quote("导演A".encode("utf-8"))).encode() in forum.raw_bodies[0]


def test_forced_charset_encodes_the_username(captures):
    forum = Forum(captures / "x35-gbk", "gbk")
    login(forum, PASSWORD, charset="gbk")
    assert quote("导演A".encode("gbk")).encode() in forum.raw_bodies[0]


def test_no_login_form_is_a_clear_error():
    def handler(request):
        return httpx.Response(200, content=b"<html><body>maintenance</body></html>",
                              headers={"Content-Type": "text/html"})

    async def go():
        async with ForumClient(BASE, transport=httpx.MockTransport(handler), rate=math.inf) as c:
            await c.login("导演A", PASSWORD)

    with pytest.raises(LoginFailed, match="no login form"):
        asyncio.run(go())


def test_cookie_file_is_0600_and_resumes_the_session(forum, tmp_path):
    path = tmp_path / "sub" / "cookies.json"
    login(forum, PASSWORD, cookie_file=path)
    mode = stat.S_IMODE(os.stat(path).st_mode)
    assert mode == 0o600
    saved = json.loads(path.read_text("utf-8"))
    assert any(c["name"].endswith("_auth") for c in saved["cookies"])
    assert not list(path.parent.glob(".*.tmp"))

    seen: list[str] = []

    def handler(request):
        seen.append(request.headers.get("Cookie", ""))
        return httpx.Response(200, content=b"<p>ok</p>", headers={"Content-Type": "text/html"})

    async def again():
        async with ForumClient(BASE, transport=httpx.MockTransport(handler), rate=math.inf,
                               cookie_file=path) as c:
            assert c.logged_in
            await c.thread_page(2)

    asyncio.run(again())
    assert auth_value(forum.folder) in seen[0]
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_existing_loose_cookie_file_is_tightened(forum, tmp_path):
    path = tmp_path / "cookies.json"
    path.write_text("{}")
    os.chmod(path, 0o644)
    login(forum, PASSWORD, cookie_file=path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_broken_cookie_file_is_ignored(tmp_path):
    path = tmp_path / "cookies.json"
    path.write_text("not json")

    async def go():
        async with ForumClient(BASE, transport=httpx.MockTransport(lambda r: httpx.Response(200)),
                               cookie_file=path) as c:
            assert not c.logged_in

    asyncio.run(go())


def test_no_secret_in_messages_reprs_or_stats(captures, tmp_path):
    folder = captures / "x35-utf8"
    secret_cookie = auth_value(folder)
    forum = Forum(folder, "utf-8")
    kept: list[object] = []
    fetched = []

    async def go():
        async with ForumClient(BASE, transport=httpx.MockTransport(forum), rate=math.inf,
                               cookie_file=tmp_path / "c.json") as c:
            await c.login("导演A", PASSWORD)
            fetched.append(await c.thread_page(2))
            kept.extend([repr(c), str(c.stats)])
            try:
                await c.login("导演A", WRONG)
            except LoginFailed as e:
                kept.append(str(e))
                kept.append(repr(e))

        def busy(request):
            return httpx.Response(503, content=b"busy")

        async def nosleep(_):
            return None

        async with ForumClient(BASE, transport=httpx.MockTransport(busy), rate=math.inf,
                               cookie_file=tmp_path / "c.json", retries=1, sleep=nosleep) as c:
            try:
                await c.login("导演A", PASSWORD)
            except ForumError as e:
                kept.append(str(e))
            try:
                await c.get("member.php", {"mod": "logging", "formhash": "75e48cdc", "sid": "JGn4N4"})
            except ForumError as e:
                kept.append(str(e))

    asyncio.run(go())
    kept.extend(repr(f) for f in fetched)
    kept.extend(json.dumps(f.headers) + str(f.set_cookies) for f in fetched)
    blob = "\n".join(map(str, kept))
    assert len(kept) >= 7
    for secret in (PASSWORD, WRONG, secret_cookie, "75e48cdc", "JGn4N4"):
        assert secret not in blob


def test_fetched_carries_cookie_names_not_values(captures):
    folder = captures / "x35-utf8"

    async def go():
        async with ForumClient(BASE, transport=httpx.MockTransport(
                lambda r: captured(folder / "session", "login-ok")), rate=math.inf) as c:
            return await c.get("member.php")

    page = asyncio.run(go())
    assert "AL8z_2132_auth" in page.set_cookies
    assert "set-cookie" not in page.headers
    assert auth_value(folder) not in repr(page) + str(page.set_cookies)


@pytest.mark.parametrize("folder", ["x35-utf8", "x35-gbk"])
def test_parse_the_real_answers(captures, folder):
    d = captures / folder
    enc = "gb18030" if folder == "x35-gbk" else "utf-8"
    ok = parse_login_answer((d / "session" / "login-ok.xml").read_bytes().decode(enc))
    bad = parse_login_answer((d / "errors" / "login-wrong-password.xml").read_bytes().decode(enc))
    assert ok.ok is True and "导演A" in ok.message
    assert bad.ok is False and bad.message == "登录失败，您还可以尝试 4 次"
    form = parse_login_form((d / "errors" / "login-form.html").read_bytes().decode(enc))
    assert form is not None and len(form.formhash) == 8 and form.loginhash
    assert form.cookiepre and form.cookiepre.endswith("_2132_")


def test_parse_unknown_answer():
    assert parse_login_answer("<root><![CDATA[请输入验证码]]></root>").ok is None
    assert parse_login_answer("").message
    assert parse_login_form("<html><form action='search.php'></form></html>") is None
