"""What a player or a misbehaving forum can send, and what a scan then does: a post of a thousand
nested tags, a gzip bomb, a server that trickles a byte at a time or hangs, numbers no thread can
hold. Each is read, or refused with one clear message, in bounded time and memory."""
from __future__ import annotations

import asyncio
import gzip
import math
import re
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
from click.testing import CliRunner

from daoyan.cli import cli
from daoyan.demo import DemoForum, LoopbackServer
from gamedef.errors import ForumError, PageFormatError
from gamedef.gamefile import load_game
from daoyan.scan import Scanner, scan_game
from daoyan.store import Store
from parsers.discuz import MAX_FLOOR, MAX_PAGES, parse_api_thread, parse_thread_page
from scraper.client import ForumClient

from .reliability_support import NOW, fast_game, stored_floors

CAPTURE = "x35-utf8/pages/viewthread-tid3-p1.html"


# ------------------------------------------------------------------ nested tags


@pytest.mark.parametrize("depth", [995, 20_000])
def test_a_post_of_nested_tags_is_read_and_the_scan_goes_on(tmp_path: Path, depth: int) -> None:
    """`[b]`×995 is within Discuz's default post length; it raised RecursionError in the scan's
    page reader, nothing was stored and every rescan failed the same way."""
    with DemoForum(now=NOW) as forum:
        body = "<strong>" * depth + "深埋的发言" + "</strong>" * depth + "<br />\n后面的话"
        pid = forum.add_post(21, "白露", body, NOW)
        game = fast_game(tmp_path, forum.base_url)
        r = CliRunner().invoke(cli, ["scan", str(game), "-q"])
        assert r.exit_code == 0, r.output
        want = {t: f for t, f in stored_floors(tmp_path / "game.sqlite").items()}
    assert any(p == pid for _, p, _ in want[21])
    with Store(tmp_path / "game.sqlite") as store:
        post = next(p for p in store.posts(21) if p.pid == pid)
    assert post.text == "深埋的发言\n后面的话"


def test_nested_tags_keep_the_reading_of_ordinary_markup(captures: Path) -> None:
    """Deep markup keeps what it says: every colour of 3,000 nested fonts, the text after them."""
    html = _capture(captures)
    m = re.search(r'(<td class="t_f" id="postmessage_\d+">)', html)
    deep = html.replace(m.group(1), m.group(1) + '<font color="red">' * 3000 + "红" + "</font>" * 3000, 1)
    plain = parse_thread_page(html).posts[0]
    post = parse_thread_page(deep).posts[0]
    assert post.text == "红" + plain.text and post.colors == ["red"] * 3000 + plain.colors


# ------------------------------------------------------------------ numbers no thread holds


def _capture(captures: Path) -> str:
    return (captures / CAPTURE).read_text("utf-8")


@pytest.mark.parametrize("edit,words", [
    (lambda h: h.replace("共 13 页", "共 1000000000 页"), "page count"),
    (lambda h: h.replace("共 13 页", "共 " + "9" * 5000 + " 页"), "page count"),
    (lambda h: re.sub(r'(<div class="pg">)', r'\1<a href="x">1000000000</a>', h.replace("共 13 页", ""), count=1),
     "page count"),
    (lambda h: h.replace('id="post_4"', 'id="post_18446744073709551617"', 1), "post id"),
    (lambda h: h.replace('id="post_4"', 'id="post_' + "7" * 5000 + '"', 1), "post id"),
    (lambda h: re.sub(r'(id="postnum4"[^>]*>\s*)楼主', r"\g<1><em>18446744073709551617</em>", h, count=1), "floor"),
    (lambda h: re.sub(r'(id="postnum4"[^>]*>\s*)楼主', rf"\g<1><em>{MAX_FLOOR + 1}</em>", h, count=1), "floor"),
])
def test_numbers_beyond_any_thread_are_refused(captures: Path, edit, words: str) -> None:
    html = _capture(captures)
    bad = edit(html)
    assert bad != html
    with pytest.raises(PageFormatError) as e:
        parse_thread_page(bad, what="thread 3 page 1")
    assert words in str(e.value) and str(e.value).startswith("thread 3 page 1")


@pytest.mark.parametrize("thread,post,words", [
    ({"replies": "1000000000000"}, {}, "page count"),
    ({"maxposition": "999999999999999999"}, {}, "page count"),
    ({}, {"pid": "18446744073709551617"}, "pid"),
    ({}, {"position": str(2**70)}, "pid or position"),
    ({}, {"position": str(MAX_FLOOR + 1)}, "floor"),
])
def test_api_numbers_beyond_any_thread_are_refused(thread: dict, post: dict, words: str) -> None:
    doc = {"Variables": {"ppp": "1", "thread": {"tid": "3", "replies": "1", **thread},
                         "postlist": [{"pid": "4", "position": "1", "message": "x", "dbdateline": "1", **post}]}}
    with pytest.raises(PageFormatError) as e:
        parse_api_thread(doc, what="API")
    assert words in str(e.value)


# ------------------------------------------------------------------ a forum of our own making


class _Hostile(BaseHTTPRequestHandler):
    """Answers every GET with what the test put in `server.answer`: (headers, body, trickle)."""

    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:  # noqa: N802
        headers, body, trickle = self.server.answer  # type: ignore[attr-defined]
        self.send_response(200)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            if trickle:
                for i in range(len(body)):
                    self.wfile.write(body[i:i + 1])
                    self.wfile.flush()
                    if self.server.stop.wait(trickle):  # type: ignore[attr-defined]
                        return
            else:
                self.wfile.write(body)
        except OSError:
            pass

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def hostile():
    server = LoopbackServer(("127.0.0.1", 0), _Hostile)
    server.daemon_threads = True
    server.stop = threading.Event()  # type: ignore[attr-defined]
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    yield server
    server.stop.set()  # type: ignore[attr-defined]
    server.shutdown()
    server.server_close()


def _url(server) -> str:
    return f"http://127.0.0.1:{server.server_address[1]}/"


def _fetch(server, **kw) -> tuple[float, BaseException | None]:
    async def go():
        async with ForumClient(_url(server), rate=math.inf, **kw) as forum:
            await forum.thread_page(3, 1)

    started = time.monotonic()
    try:
        asyncio.run(go())
    except BaseException as e:  # noqa: BLE001 - the test looks at what it was
        return time.monotonic() - started, e
    return time.monotonic() - started, None


def _peak_rss_kb() -> int:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


@pytest.mark.parametrize("layers", [1, 2])
def test_a_gzip_bomb_is_refused_within_the_limit(hostile, layers: int) -> None:
    """A page that unpacks to 300 MB (a 2-layer one to far more) is refused, never unpacked whole."""
    body = b"\0" * (300 * 2**20)
    for _ in range(layers):
        body = gzip.compress(body, 9)
    hostile.answer = ({"Content-Type": "text/html", "Content-Encoding": ", ".join(["gzip"] * layers)}, body, 0)
    before = _peak_rss_kb()
    took, err = _fetch(hostile, max_body=8 * 2**20, retries=0)
    assert isinstance(err, ForumError), err
    assert ("max_page_mb" in str(err)) if layers == 1 else ("stacked" in str(err)), str(err)
    assert (_peak_rss_kb() - before) < 100 * 1024  # kB: nowhere near the 300 MB it unpacks to


def test_a_page_within_the_limit_still_arrives_gzipped(hostile) -> None:
    page = "<html><body>版杀" + "好" * 100_000 + "</body></html>"
    hostile.answer = ({"Content-Type": "text/html; charset=utf-8", "Content-Encoding": "gzip"},
                      gzip.compress(page.encode()), 0)

    async def go():
        async with ForumClient(_url(hostile), rate=math.inf, max_body=2**20) as forum:
            return await forum.thread_page(3, 1)

    assert asyncio.run(go()).text == page


def test_a_trickling_server_meets_the_deadline(hostile) -> None:
    """Slowloris: a byte every 0.2 s never trips the per-read timeout (2 s); the request has a
    deadline (1 s, its retries included) and the client gives up then, not at the server's whim."""
    hostile.answer = ({"Content-Type": "text/html"}, b"<html>" + b"x" * 10_000 + b"</html>", 0.2)
    took, err = _fetch(hostile, timeout=2, deadline=1, retries=3, sleep=lambda s: asyncio.sleep(0))
    assert isinstance(err, ForumError) and "no whole answer within 1 s" in str(err), err
    assert "gave up after 1 attempt" in str(err)
    assert took < 3


def test_the_scan_says_what_it_waits_for(hostile, tmp_path: Path) -> None:
    hostile.answer = ({"Content-Type": "text/html"}, b"<html>" + b"x" * 10_000 + b"</html>", 0.1)
    game = fast_game(tmp_path, _url(hostile), extra="deadline = 2\n")
    text = game.read_text("utf-8").replace("retries = 6", "retries = 0")
    game.write_text(text, "utf-8")
    said: list[str] = []
    Scanner.wait_notice, old = 0.5, Scanner.wait_notice
    try:
        with pytest.raises(ForumError) as e:
            scan_game(load_game(game), waiting=said.append)
    finally:
        Scanner.wait_notice = old
    assert "no whole answer within 2 s" in str(e.value)
    assert said and all(s.startswith("waiting for the forum: GET http://127.0.0.1:") for s in said), said
    assert "forum.php?mod=viewthread&tid=" in said[0] and "gives up after 2 s of waiting (forum.deadline)" in said[0]


def test_a_server_that_never_answers_meets_the_deadline(tmp_path: Path) -> None:
    """A socket that accepts and then says nothing at all."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    try:
        class _S:
            server_address = sock.getsockname()

        took, err = _fetch(_S, timeout=30, deadline=1, retries=0)
    finally:
        sock.close()
    assert isinstance(err, ForumError) and "no whole answer within 1 s" in str(err), err
    assert took < 3


def test_limits_exist_in_the_game_file() -> None:
    from gamedef.gamefile import FORUM_LIMITS

    assert FORUM_LIMITS["max_page_mb"][1] >= 64 and MAX_PAGES >= 10_000


class _Redirecting(_Hostile):
    """A 302 whose own body is a gzip bomb, to a page that is fine."""

    def do_GET(self) -> None:  # noqa: N802
        if "page=1" in self.path:
            bomb = self.server.bomb  # type: ignore[attr-defined]
            self.send_response(302)
            self.send_header("Location", self.path.replace("page=1", "page=2"))
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(bomb)))
            self.end_headers()
            self.wfile.write(bomb)
            return
        body = "<html><body>版杀</body></html>".encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def test_a_gzip_bomb_in_a_redirect_is_never_unpacked() -> None:
    server = LoopbackServer(("127.0.0.1", 0), _Redirecting)
    server.daemon_threads = True
    server.bomb = gzip.compress(b"\0" * (300 * 2**20), 9)  # type: ignore[attr-defined]
    threading.Thread(target=server.serve_forever, daemon=True).start()

    async def go():
        async with ForumClient(_url(server), rate=math.inf, retries=0) as forum:
            return await forum.thread_page(3, 1)

    try:
        before = _peak_rss_kb()
        page = asyncio.run(go())
    finally:
        server.shutdown()
        server.server_close()
    assert page.status == 200 and "版杀" in page.text and "page=2" in page.url
    assert (_peak_rss_kb() - before) < 100 * 1024
