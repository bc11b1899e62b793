"""`DemoForum`: the sample game served over loopback HTTP as a Discuz! X3.5 forum would serve it.

It binds a free port, answers the desktop and mobile-API thread URLs, the board list, the login
form and its inajax answer, and the notice pages, and it can misbehave on purpose (`FaultPlan`)
the way a real forum does minutes before a deadline: 5xx bursts, slow answers, resets, cut-short
bodies, 429s, logins that expire, threads that vanish, posts deleted mid-scan. Every fault is
decided per URL from a seed and served at most `max_per_url` times, so a retrying client gets
through and a test is repeatable.
"""
from __future__ import annotations

import json
import random
import secrets
import sys
import socket
import struct
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from . import render
from .sample import GAME_FID, Sample, SamplePost, SampleThread, build_sample

DEMO_PASSWORD = "daoyan-demo"
FAULT_KINDS = ("5xx", "timeout", "reset", "truncate", "429")


@dataclass
class FaultPlan:
    """What goes wrong, deterministically. A URL chosen for a fault (probability `rate`, decided
    from `seed` and the URL) fails its first `max_per_url` requests with one kind from `kinds`,
    then answers normally."""

    seed: int = 7
    rate: float = 0.0
    kinds: tuple[str, ...] = FAULT_KINDS
    max_per_url: int = 2
    targets: tuple[str, ...] = ("viewthread",)  # which requests may fault (viewthread, forumdisplay, login, all)
    timeout_seconds: float = 3.0  # how long a "timeout" answer sleeps: longer than the client's timeout
    retry_after: int = 1  # seconds, sent with 429
    login_expires_after: int | None = None  # an auth cookie stops working after this many requests with it
    missing_tids: frozenset[int] = frozenset()  # these threads answer "does not exist"
    delete_after: tuple[tuple[int, int], ...] = ()  # (K, pid): the post is deleted once K requests are served

    def __post_init__(self) -> None:
        unknown = set(self.kinds) - set(FAULT_KINDS)
        if unknown:
            raise ValueError(f"unknown fault kinds {sorted(unknown)}; expected some of {FAULT_KINDS}")
        self.missing_tids = frozenset(self.missing_tids)


@dataclass
class RequestLog:
    """Every request the forum answered (path with query), for benchmarks and tests."""

    paths: list[str] = field(default_factory=list)
    faults: list[tuple[str, str]] = field(default_factory=list)  # (kind, path)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def count(self) -> int:
        return len(self.paths)

    def add(self, path: str) -> int:
        with self._lock:
            self.paths.append(path)
            return len(self.paths)

    def fault(self, kind: str, path: str) -> None:
        with self._lock:
            self.faults.append((kind, path))

    def matching(self, needle: str) -> list[str]:
        return [p for p in self.paths if needle in p]

    def clear(self) -> None:
        with self._lock:
            self.paths.clear()
            self.faults.clear()


@dataclass
class _Session:
    username: str
    uid: int
    uses: int = 0


class LoopbackServer(ThreadingHTTPServer):
    """A loopback server that treats a client hanging up as normal.

    The stdlib prints a traceback to stderr for every dropped connection; daoyan drops
    connections on purpose (timeouts, cancelled pages), and a traceback in the middle of a
    director's terminal output reads like daoyan itself failed.
    """

    daemon_threads = True
    block_on_close = False

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


class DemoForum:
    """The demo forum; use as a context manager: `with DemoForum() as forum: forum.base_url`."""

    def __init__(self, sample: Sample | None = None, host: str = "127.0.0.1", port: int = 0,
                 charset: str = "utf-8", latency: float = 0.0, faults: FaultPlan | None = None,
                 require_login: bool = False, users: dict[str, str] | None = None,
                 now: datetime | None = None, per_page: int = 10):
        """`latency` is each answer's response time in seconds, counted from the request: the
        forum's own work of rendering a page is inside it, as it is in a real forum's response
        time, so a client's ideal (requests x latency / connections) is reachable in principle."""
        cs = charset.lower().replace("_", "-")
        if cs in ("utf8", "utf-8"):
            cs = "utf-8"
        elif cs in ("gbk", "gb2312", "gb18030"):
            cs = "gbk"
        else:
            raise ValueError(f"charset must be utf-8 or gbk, not {charset!r}")
        self.sample = (sample or build_sample()).copy()
        self.host, self.port, self.charset = host, port, cs
        self.latency = latency
        self.faults = faults or FaultPlan()
        self.require_login = require_login
        self.users = dict(users) if users is not None else {
            u: DEMO_PASSWORD for u in (*self.sample.directors, *self.sample.players)}
        self.fixed_now = now
        self.per_page = per_page
        self.requests = RequestLog()
        self.formhash = secrets.token_hex(4)
        self.cookiepre = "dY7k_2132_"
        self._sessions: dict[str, _Session] = {}
        self._tries: dict[str, int] = {}
        self._fault_counts: dict[str, int] = {}
        self._deleted_after: set[tuple[int, int]] = set()
        self._lock = threading.RLock()
        self._server: LoopbackServer | None = None
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------ lifecycle

    def __enter__(self) -> "DemoForum":
        self.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def start(self) -> None:
        handler = _make_handler(self)
        srv = LoopbackServer((self.host, self.port), handler)
        self._server = srv
        self.port = srv.server_address[1]
        self._thread = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05},
                                        name=f"demo-forum-{self.port}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}/"

    @property
    def now(self) -> datetime:
        return self.fixed_now or datetime.now(self.sample.tz)

    # ------------------------------------------------------------ changing the forum

    def add_post(self, tid: int, author: str, message_html: str, posted_at: datetime | None = None, *,
                 quote_pid: int | None = None, reply_pid: int | None = None) -> int:
        """A new floor at the end of the thread; returns its pid."""
        with self._lock:
            t = self.sample.threads[tid]
            at = posted_at or self.now
            p = SamplePost(pid=self.sample.next_pid, author=author, uid=self.sample.uid_of(author), posted_at=at,
                           body=message_html, position=max((x.position for x in t.posts), default=0) + 1,
                           quote_pid=quote_pid, reply_pid=reply_pid)
            self.sample.next_pid += 1
            t.posts.append(p)
            return p.pid

    def add_thread(self, subject: str, *, fid: int = GAME_FID, author: str | None = None, first_html: str = "",
                   posted_at: datetime | None = None, role: str = "discussion", day: int = 0) -> int:
        """A new thread with its opening post; returns its tid."""
        with self._lock:
            tid = max(self.sample.threads) + 1
            self.sample.threads[tid] = SampleThread(tid=tid, fid=fid, subject=subject, role=role, day=day)
            self.add_post(tid, author or self.sample.directors[0], first_html or subject, posted_at)
            return tid

    def fill_thread(self, tid: int, floors: int, *, start: datetime | None = None, step_seconds: int = 37) -> None:
        """Append floors of ordinary talk by the players, for big-thread benchmarks."""
        with self._lock:
            t = self.sample.threads[tid]
            at = start or (t.posts[-1].posted_at if t.posts else self.now)
            players = self.sample.players
            for i in range(floors):
                at = at + timedelta(seconds=step_seconds)
                a, b = players[i % len(players)], players[(i * 7 + 3) % len(players)]
                self.add_post(tid, a, f"第{i + 1}条：我觉得{b}今天的发言还需要再看看。", at)

    def edit_post(self, pid: int, new_html: str, editor: str | None = None, at: datetime | None = None) -> None:
        """Replace a post's words and set the 本帖最后由 … 编辑 marker."""
        with self._lock:
            _, p = self.sample.find(pid)
            p.body = new_html
            p.edited_by = editor or p.author
            p.edited_at = at or self.now

    def delete_post(self, pid: int) -> None:
        """Remove a post. Floors keep their numbers, but every later post moves up one slot, so
        posts shift back across page boundaries, as Discuz pages them."""
        with self._lock:
            t, p = self.sample.find(pid)
            t.posts.remove(p)

    def rename_member(self, old: str, new: str) -> None:
        """An administrator's 用户改名: as Discuz X3.5 does (uc_note renameuser), every post, old or
        new, shows the new name; the uid stays."""
        with self._lock:
            uid = self.sample.users.pop(old)
            self.sample.users[new] = uid
            for t in self.sample.threads.values():
                for p in t.posts:
                    if p.uid == uid:
                        p.author = new

    def hide_post(self, pid: int, hidden: bool = True) -> None:
        """屏蔽 a post: floor and pid stay, the text gives way to the moderator notice."""
        with self._lock:
            _, p = self.sample.find(pid)
            p.hidden = hidden

    def expire_logins(self) -> None:
        """Every session cookie stops working now (as when the forum's session store is flushed)."""
        with self._lock:
            self._sessions.clear()

    # ------------------------------------------------------------ request handling (server threads)

    def _view(self, token: str | None, count_use: bool = True) -> render.View:
        s = None
        with self._lock:
            if token and token in self._sessions:
                s = self._sessions[token]
                limit = self.faults.login_expires_after
                if count_use:
                    s.uses += 1
                if limit is not None and s.uses > limit:
                    del self._sessions[token]
                    s = None
        if s is None:
            return render.View(base_url=self.base_url, now=self.now, charset=self.charset, formhash=self.formhash,
                               cookiepre=self.cookiepre, per_page=self.per_page)
        return render.View(base_url=self.base_url, now=self.now, charset=self.charset, formhash=self.formhash,
                           cookiepre=self.cookiepre, uid=s.uid, username=s.username, auth=token,
                           per_page=self.per_page)

    def _may_read(self, t: SampleThread, view: render.View) -> bool:
        board = self.sample.boards.get(t.fid)
        if board is not None and board.private:
            return bool(view.uid) and view.username in self.sample.directors
        if self.require_login:
            return bool(view.uid)
        return True

    def _apply_scheduled(self, n: int) -> None:
        for k, pid in self.faults.delete_after:
            if n > k and (k, pid) not in self._deleted_after:
                self._deleted_after.add((k, pid))
                try:
                    self.delete_post(pid)
                except (KeyError, ValueError):
                    pass

    def _fault_for(self, key: str, target: str) -> str | None:
        f = self.faults
        if not f.rate or not f.kinds or (target not in f.targets and "all" not in f.targets):
            return None
        rng = random.Random(f"{f.seed}|{key}")
        if rng.random() >= f.rate:
            return None
        kind = rng.choice(f.kinds)
        with self._lock:
            n = self._fault_counts.get(key, 0)
            if n >= f.max_per_url:
                return None
            self._fault_counts[key] = n + 1
        return kind

    def _login(self, form: dict[str, str], view: render.View) -> tuple[bytes, list[str]]:
        lastact = f"{self.cookiepre}lastact={int(time.time())}%09member.php%09logging; Max-Age=86400; path=/"
        if form.get("formhash") != self.formhash:
            return render.encode_page(render.bad_formhash_xml(view), view), [lastact]
        name, pw = form.get("username", ""), form.get("password", "")
        with self._lock:
            left = self._tries.get(name, 5)
            if left <= 0:
                return render.encode_page(render.login_locked_xml(view), view), [lastact]
            if name in self.users and secrets.compare_digest(self.users[name].encode(), pw.encode()):
                token = secrets.token_urlsafe(24)
                self._sessions[token] = _Session(username=name, uid=self.sample.uid_of(name))
                self._tries.pop(name, None)
                cookies = [lastact, f"{self.cookiepre}sid={secrets.token_hex(3)}; Max-Age=86400; path=/",
                           f"{self.cookiepre}auth={token}; path=/; HttpOnly"]
                body = render.login_ok_xml(view, name, admin=name in self.sample.directors)
                return render.encode_page(body, view), cookies
            self._tries[name] = left - 1
        return render.encode_page(render.login_failed_xml(view, left - 1), view), [lastact]


def _make_handler(forum: DemoForum) -> type[BaseHTTPRequestHandler]:
    pycs = "gb18030" if forum.charset == "gbk" else "utf-8"

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body go out in two writes: don't wait for the ACK
        server_version = "DemoDiscuz/X3.5"
        _due = 0.0  # when the answer to the request being served may go out (monotonic clock)

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the stdlib's name
            pass

        def do_GET(self) -> None:
            self._serve(None)

        def do_POST(self) -> None:
            n = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(n) if n else b""
            self._serve(dict(parse_qsl(raw.decode("latin-1"), keep_blank_values=True, encoding=pycs)))

        # -------------------------------------------------------- plumbing

        def _token(self) -> str | None:
            for part in (self.headers.get("Cookie") or "").split(";"):
                k, _, v = part.strip().partition("=")
                if k == forum.cookiepre + "auth" and v:
                    return v
            return None

        def _wait_latency(self) -> None:
            """Hold the answer until `latency` has passed since the request came in."""
            wait = self._due - time.monotonic()
            if wait > 0:
                time.sleep(wait)

        def _send(self, status: int, ctype: str, body: bytes, cookies: list[str] | None = None,
                  extra: dict[str, str] | None = None) -> None:
            self._wait_latency()
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            for c in cookies or ():
                self.send_header("Set-Cookie", c)
            for k, v in (extra or {}).items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def _fault(self, kind: str, body: bytes, ctype: str) -> bool:
            """Serve the fault; True when the normal answer must not follow."""
            forum.requests.fault(kind, self.path)
            if kind == "5xx":
                status = random.Random(self.path).choice((500, 502, 503))
                self._send(status, "text/html", b"<html><body>Service Unavailable</body></html>")
                return True
            if kind == "429":
                self._send(429, "text/html", b"<html><body>Too Many Requests</body></html>",
                           extra={"Retry-After": str(forum.faults.retry_after)})
                return True
            if kind == "timeout":
                time.sleep(forum.faults.timeout_seconds)
                return False
            if kind == "reset":
                self._wait_latency()
                try:
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    self.connection.close()
                except OSError:
                    pass
                self.close_connection = True
                return True
            if kind == "truncate":
                self._wait_latency()
                self.send_response(200)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body[: max(1, len(body) // 3)])
                self.wfile.flush()
                self.close_connection = True
                return True
            return False

        # -------------------------------------------------------- routes

        def _serve(self, form: dict[str, str] | None) -> None:
            try:
                self._due = time.monotonic() + forum.latency
                n = forum.requests.add(self.path)
                with forum._lock:
                    forum._apply_scheduled(n)
                self._route(form)
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True

        def _route(self, form: dict[str, str] | None) -> None:
            u = urlsplit(self.path)
            q = dict(parse_qsl(u.query, keep_blank_values=True))
            path = u.path.lstrip("/")
            view = forum._view(self._token())
            if path == "api/mobile/index.php":
                return self._api(q, view)
            if path in ("forum.php", "", "index.php"):
                mod = q.get("mod", "")
                if mod == "viewthread":
                    return self._viewthread(q, view)
                if mod == "forumdisplay":
                    return self._forumdisplay(q, view)
                if not mod:
                    return self._page(200, render.index_page(forum.sample, view), view, "index")
            if path == "member.php" and q.get("mod") == "logging":
                if q.get("action") == "login":
                    if form is not None and (q.get("loginsubmit") == "yes" or form.get("loginsubmit")):
                        body, cookies = forum._login(form, view)
                        return self._send(200, render.content_type("xml", view), body, cookies)
                    html = render.login_page(view, secrets.token_hex(3)[:5])
                    return self._page(200, html, view, "login")
                if q.get("action") == "logout":
                    tok = self._token()
                    with forum._lock:
                        forum._sessions.pop(tok or "", None)
                    return self._send(200, render.content_type("html", view),
                                      render.encode_page(render.notice_page(view, "您已退出站点", error=False), view),
                                      [f"{forum.cookiepre}auth=deleted; Max-Age=0; path=/"])
            self._send(404, "text/plain; charset=utf-8", b"not found")

        def _page(self, status: int, html: str, view: render.View, target: str) -> None:
            body = render.encode_page(html, view)
            ctype = render.content_type("html", view)
            kind = forum._fault_for(self.path, target)
            if kind and self._fault(kind, body, ctype):
                return
            self._send(status, ctype, body)

        def _json(self, status: int, doc: dict[str, Any], view: render.View, target: str) -> None:
            body = render.api_json(doc)
            kind = forum._fault_for(self.path, target)
            if kind and self._fault(kind, body, "application/json"):
                return
            self._send(status, "application/json", body)

        def _tid(self, q: dict[str, str]) -> int | None:
            try:
                return int(q.get("tid", ""))
            except ValueError:
                return None

        def _page_no(self, q: dict[str, str]) -> int:
            try:
                return max(1, int(q.get("page") or 1))
            except ValueError:
                return 1

        def _viewthread(self, q: dict[str, str], view: render.View) -> None:
            tid = self._tid(q)
            with forum._lock:
                t = forum.sample.threads.get(tid) if tid is not None else None
                if t is None or tid in forum.faults.missing_tids:
                    return self._page(404, render.notice_page(view, render.MISSING_TEXT), view, "viewthread")
                if not forum._may_read(t, view):
                    html = render.notice_page(view, render.NOPERM_TEXT, error=False, login_hint=True)
                    return self._page(200, html, view, "viewthread")
                html = render.thread_page(forum.sample, t.tid, self._page_no(q), view)
            self._page(200, html, view, "viewthread")

        def _forumdisplay(self, q: dict[str, str], view: render.View) -> None:
            try:
                fid = int(q.get("fid", ""))
            except ValueError:
                fid = -1
            with forum._lock:
                board = forum.sample.boards.get(fid)
                if board is None:
                    return self._page(200, render.notice_page(view, "抱歉，指定的版块不存在"), view, "forumdisplay")
                if (board.private and view.username not in forum.sample.directors) or (forum.require_login and not view.uid):
                    html = render.notice_page(view, render.NOPERM_TEXT, error=False, login_hint=True)
                    return self._page(200, html, view, "forumdisplay")
                html = render.forumdisplay_page(forum.sample, fid, view)
            self._page(200, html, view, "forumdisplay")

        def _api(self, q: dict[str, str], view: render.View) -> None:
            module = q.get("module", "")
            try:
                ppp = int(q.get("ppp") or 10)
            except ValueError:
                ppp = 10
            ppp = max(1, ppp)
            with forum._lock:
                if module == "viewthread":
                    tid = self._tid(q)
                    t = forum.sample.threads.get(tid) if tid is not None else None
                    if t is None or tid in forum.faults.missing_tids:
                        doc, status = render.api_missing(view, ppp), 404
                    elif not forum._may_read(t, view):
                        doc, status = render.api_noperm(forum.sample, t.tid, view, ppp), 200
                    else:
                        doc, status = render.api_thread(forum.sample, t.tid, self._page_no(q), ppp, view), 200
                    target = "viewthread"
                elif module == "forumdisplay":
                    try:
                        fid = int(q.get("fid", ""))
                    except ValueError:
                        fid = -1
                    board = forum.sample.boards.get(fid)
                    if board is None or (board.private and view.username not in forum.sample.directors) \
                            or (forum.require_login and not view.uid):
                        v = render.api_missing(view)
                        v["Message"] = {"messageval": "forum_nonexistence" if board is None else
                                        "viewperm_none_nopermission//1",
                                        "messagestr": "mobile:forum_nonexistence" if board is None else
                                        "mobile:viewperm_none_nopermission"}
                        doc, status = v, 200
                    else:
                        doc, status = render.api_forumdisplay(forum.sample, fid, view), 200
                    target = "forumdisplay"
                else:
                    doc, status = {"Version": "4", "Message": {"messageval": "module_not_exists",
                                                               "messagestr": "module_not_exists"}}, 200
                    target = "api"
            self._json(status, doc, view, target)

    return Handler


def serve_forever(port: int = 8080, **kw: Any) -> None:  # pragma: no cover - a manual convenience
    """Run the demo forum in the foreground (Ctrl-C stops it)."""
    with DemoForum(port=port, **kw) as forum:
        print(json.dumps({"base_url": forum.base_url}))
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
