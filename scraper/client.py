"""A polite httpx client for one Discuz X3.x forum: pages, the mobile API, login.

Polite because the forum belongs to someone else: a shared request-rate limit, a few
connections, retries that back off, and 429s that pause every task. It knows nothing of games;
it hands back what the forum said (`Fetched`), decoded in the charset the answer declares.
Secrets stay inside: cookies and passwords never reach a `Fetched`, an exception, a repr or stats.
"""
from __future__ import annotations

import asyncio
import random
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, Awaitable, Callable
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import httpx

from gamedef.errors import ForumError, LoginFailed

from . import login as login_steps
from .scrub import scrub
from .body import ACCEPT_ENCODING, DEFAULT_MAX_BODY, BadEncoding, BodyTooLarge, read_limited
from .charset import decode, detect_charset, normalize_charset
from .cookies import load_cookies, save_cookies
from .ratelimit import RateLimiter
from .retry import backoff, is_retryable_status, retry_after


def _version() -> str:
    try:
        return metadata.version("daoyan")
    except metadata.PackageNotFoundError:
        return "0"


USER_AGENT = f"daoyan/{_version()} (+forum game director's assistant)"

# Query parameters whose values are never shown in a message.
_SECRET_PARAMS = {"formhash", "loginhash", "auth", "sid", "saltkey", "password", "hash", "seccode"}
# Response headers a Fetched never carries (it may be stored as evidence).
_PRIVATE_HEADERS = {"set-cookie", "cookie", "authorization"}
# A logged-in mobile-API answer echoes the session back: `Variables.auth` is the auth cookie itself.
_SECRET_JSON = re.compile(rb'("(?:auth|saltkey)"\s*:\s*")((?:[^"\\]|\\.)+)(")')


@dataclass
class Fetched:
    """One answer of the forum. `set_cookies` holds the NAMES of cookies it set, never values."""
    url: str
    status: int
    headers: dict[str, str]
    content: bytes = field(repr=False)
    text: str = field(repr=False)
    charset: str
    elapsed: float
    set_cookies: list[str]

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "")


def safe_url(url: str | httpx.URL) -> str:
    """The URL with secret-bearing query values masked, for messages."""
    parts = urlsplit(str(url))
    query = [(k, "***" if k.lower() in _SECRET_PARAMS else v)
             for k, v in parse_qsl(parts.query, keep_blank_values=True)]
    netloc = parts.hostname or ""
    if parts.port:
        netloc += f":{parts.port}"
    return urlunsplit((parts.scheme, netloc, parts.path, urlencode(query, safe="*"), ""))


class _Truncated(Exception):
    """The body ended before its Content-Length."""


class ForumClient:
    """One forum, one session: use as `async with ForumClient(base_url) as forum:`."""

    def __init__(self, base_url: str, *, charset: str = "auto", rate: float = 4.0,
                 connections: int = 4, timeout: float = 20.0, retries: int = 4,
                 user_agent: str | None = None,
                 transport: httpx.AsyncBaseTransport | None = None,
                 cookie_file: str | Path | None = None,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                 max_body: int = DEFAULT_MAX_BODY, deadline: float | None = None) -> None:
        if connections < 1:
            raise ValueError(f"connections must be at least 1, not {connections!r}")
        if retries < 0:
            raise ValueError(f"retries cannot be negative, not {retries!r}")
        if charset != "auto" and normalize_charset(charset) is None:
            raise ValueError(f"unknown charset {charset!r}")
        self.base_url = base_url if base_url.endswith("/") else base_url + "/"
        self.charset = "auto" if charset == "auto" else normalize_charset(charset)
        self.retries = retries
        # `timeout` bounds each read; a forum sending a byte every few seconds never trips it, so
        # a request also has a deadline: the time its attempts may spend waiting for the forum,
        # all retries together (the pauses between them and a 429's Retry-After do not count)
        self.deadline = deadline if deadline is not None else max(60.0, 3 * timeout)
        self.max_body = max_body
        self._pending: dict[int, tuple[str, float]] = {}  # requests in flight: what and since when
        self.cookie_file = Path(cookie_file) if cookie_file is not None else None
        self._sleep = sleep
        self._limiter = RateLimiter(rate, sleep=sleep)
        self._in_flight = asyncio.Semaphore(connections)
        self._rng = random.Random()
        self._stats: dict[str, Any] = {"requests": 0, "retries": 0, "bytes": 0}
        self._statuses: Counter[int] = Counter()
        self._errors: Counter[str] = Counter()
        self._forum_charset: str | None = None if self.charset == "auto" else self.charset
        self._cookiepre: str | None = None
        self._http = httpx.AsyncClient(
            base_url=self.base_url,
            headers={"User-Agent": user_agent or USER_AGENT, "Accept-Encoding": ACCEPT_ENCODING},
            timeout=httpx.Timeout(timeout),
            limits=httpx.Limits(max_connections=connections,
                                max_keepalive_connections=connections),
            transport=transport,
            follow_redirects=True,
            event_hooks={"response": [_skip_redirect_body]},
        )
        if self.cookie_file is not None:
            load_cookies(self._http.cookies.jar, self.cookie_file)

    def __repr__(self) -> str:
        return f"ForumClient({safe_url(self.base_url)!r})"

    async def __aenter__(self) -> "ForumClient":
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the connections; keep the session in the cookie file if there is one."""
        try:
            if self.cookie_file is not None:
                self.save_cookies()
        finally:
            await self._http.aclose()

    def save_cookies(self) -> None:
        """Write the session to the cookie file (mode 0600)."""
        if self.cookie_file is None:
            raise ValueError("this client has no cookie_file")
        save_cookies(self._http.cookies.jar, self.cookie_file)

    @property
    def stats(self) -> dict:
        """Requests sent (every attempt), retries, body bytes, and counts per status and error."""
        return {**self._stats, "statuses": dict(self._statuses), "errors": dict(self._errors)}

    def scrubbed(self, content: bytes) -> bytes:
        """An answer's body as it may be stored: without this session's values (its cookies, the
        formhash, the session id in captcha ids), which the page as read still has."""
        names = ("sid", "auth", "saltkey")
        values = [c.value for c in self._http.cookies.jar
                  if c.value and c.value != "deleted" and c.name.rsplit("_", 1)[-1] in names]
        return scrub(content, values)

    @property
    def waiting(self) -> list[tuple[str, float]]:
        """The requests in flight now, each as (its URL without secrets, seconds since it left)."""
        now = time.monotonic()
        return [(u, now - t) for u, t in sorted(self._pending.values(), key=lambda x: x[1])]

    @property
    def logged_in(self) -> bool:
        """Whether the session holds a Discuz auth cookie (it may still have expired forum-side)."""
        names = {c.name for c in self._http.cookies.jar if c.value and c.value != "deleted"}
        if self._cookiepre:
            return f"{self._cookiepre}auth" in names
        return any(n.endswith("_auth") for n in names)

    # -- pages -------------------------------------------------------------------------------

    async def get(self, path: str, params: dict | None = None) -> Fetched:
        """GET a path relative to base_url. 4xx other than 429 come back as answers."""
        return await self._request("GET", path, params=params)

    async def thread_page(self, tid: int, page: int = 1) -> Fetched:
        """A desktop thread page at the forum's own page size."""
        return await self.get("forum.php", {"mod": "viewthread", "tid": int(tid), "page": int(page)})

    async def api_thread(self, tid: int, page: int = 1, ppp: int | None = None) -> Fetched:
        """A page of the mobile API's viewthread (JSON); `ppp` asks for that many posts a page."""
        params: dict[str, Any] = {"version": "4", "module": "viewthread",
                                  "tid": int(tid), "page": int(page)}
        if ppp is not None:
            params["ppp"] = int(ppp)
        return await self.get("api/mobile/index.php", params)

    # -- login -------------------------------------------------------------------------------

    async def login(self, username: str, password: str) -> None:
        """Log in with the form's formhash; LoginFailed carries the forum's own message."""
        page = await self.get(login_steps.LOGIN_FORM_PATH, login_steps.LOGIN_FORM_PARAMS)
        form = login_steps.parse_login_form(page.text)
        if form is None:
            raise LoginFailed(f"no login form at {safe_url(page.url)} (HTTP {page.status}): "
                              "is this a Discuz X forum, and is its login page reachable?")
        self._cookiepre = form.cookiepre or self._cookiepre
        charset = self._forum_charset or page.charset
        self._forum_charset = charset
        try:
            body = login_steps.login_body(form, username, password, charset, self.base_url)
        except UnicodeEncodeError:
            raise LoginFailed(f"the username {username!r} cannot be written in the forum's "
                              f"charset {charset}") from None
        answer = await self._request(
            "POST", login_steps.LOGIN_FORM_PATH, params=login_steps.submit_params(form),
            content=body,
            headers={"Content-Type": "application/x-www-form-urlencoded",
                     "Referer": str(page.url)})
        verdict = login_steps.parse_login_answer(answer.text)
        auth = login_steps.auth_cookie_name(self._cookiepre)
        if verdict.ok or (verdict.ok is None and auth in answer.set_cookies and self.logged_in):
            if self.cookie_file is not None:
                self.save_cookies()
            return
        message = verdict.message
        if len(password) >= 4:
            message = message.replace(password, "***")
        raise LoginFailed(f"the forum refused the login of {username!r}: {message}")

    # -- the request loop --------------------------------------------------------------------

    async def _request(self, method: str, path: str, *, params: dict | None = None,
                       content: bytes | None = None,
                       headers: dict[str, str] | None = None) -> Fetched:
        url: httpx.URL | str = path
        what = ""
        spent = 0.0  # seconds the attempts so far spent waiting for the forum
        tries = 0
        for attempt in range(self.retries + 1):
            wait: float | None = None
            if spent >= self.deadline:
                break
            tries += 1
            try:
                async with self._in_flight:
                    await self._limiter.acquire()
                    # built when it leaves, so that it carries the session's cookies as they are
                    # then (another task may have logged in again meanwhile)
                    request = self._http.build_request(method, path, params=params, content=content,
                                                       headers=headers)
                    url = request.url
                    self._stats["requests"] += 1
                    started = time.monotonic()
                    key = id(request)
                    self._pending[key] = (f"{method} {safe_url(url)}", started)
                    try:
                        async with asyncio.timeout(self.deadline - spent):
                            resp = await self._http.send(request, stream=True)
                            try:
                                body = await self._body(resp)
                            finally:
                                await resp.aclose()
                    finally:
                        self._pending.pop(key, None)
                        spent += time.monotonic() - started
                    elapsed = time.monotonic() - started
                    self._check_length(resp, body)
            except TimeoutError:
                self._errors["Deadline"] += 1
                what = f"no whole answer within {self.deadline:g} s (the forum sends too slowly or hangs)"
            except BodyTooLarge:
                self._errors["TooLarge"] += 1
                raise ForumError(f"{method} {safe_url(url)}: the answer unpacks to more than "
                                 f"{self.max_body // 2**20} MB (forum.max_page_mb): refused, "
                                 "nothing of it stored") from None
            except BadEncoding as exc:
                self._errors["BadEncoding"] += 1
                what = f"the page arrived garbled ({exc})"
            except httpx.TimeoutException as exc:
                self._errors[type(exc).__name__] += 1
                what = f"timed out ({type(exc).__name__})"
            except _Truncated as exc:
                self._errors["Truncated"] += 1
                what = f"the page was cut short ({exc})"
            except httpx.TransportError as exc:
                self._errors[type(exc).__name__] += 1
                what = f"connection failed ({type(exc).__name__}: {_short(exc)})"
            except httpx.DecodingError as exc:
                self._errors[type(exc).__name__] += 1
                what = f"the page arrived garbled ({_short(exc)})"
            except httpx.HTTPError as exc:
                self._errors[type(exc).__name__] += 1
                raise ForumError(f"{method} {safe_url(url)}: {type(exc).__name__}: "
                                 f"{_short(exc)}") from None
            else:
                self._statuses[resp.status_code] += 1
                self._stats["bytes"] += len(body)
                if not is_retryable_status(resp.status_code):
                    # the freed connection goes to a waiting request before this answer is decoded,
                    # parsed and stored: that work then overlaps the next request's round trip
                    await asyncio.sleep(0)
                    return self._fetched(resp, body, elapsed)
                what = f"HTTP {resp.status_code}"
                if resp.status_code == 429:
                    wait = retry_after(resp.headers.get("Retry-After"), resp.headers.get("Date"))
                    what += " (too many requests)"
            if attempt == self.retries:
                break
            self._stats["retries"] += 1
            if wait is not None and wait > 0:
                self._limiter.pause(wait)
            else:
                await self._sleep(backoff(attempt, self._rng))
        raise ForumError(f"{method} {safe_url(url)}: {what}, "
                         f"gave up after {tries} attempt{'s' if tries != 1 else ''}")

    async def _body(self, resp: httpx.Response) -> bytes:
        if resp.is_stream_consumed:  # an answer built in memory (a test's transport): already whole
            if len(resp.content) > self.max_body:
                raise BodyTooLarge()
            return resp.content
        return await read_limited(resp.aiter_raw(), resp.headers.get("Content-Encoding", ""), self.max_body)

    @staticmethod
    def _check_length(resp: httpx.Response, body: bytes) -> None:
        declared = resp.headers.get("Content-Length")
        if declared is None or not declared.strip().isdigit():
            return
        if resp.status_code in (204, 304):
            return
        encoded = resp.headers.get("Content-Encoding", "identity").strip().lower() not in ("", "identity")
        if resp.num_bytes_downloaded:
            got = resp.num_bytes_downloaded
        elif not encoded:
            got = len(body)
        else:
            return
        if got < int(declared):
            raise _Truncated(f"{got} of {int(declared)} bytes")

    def _fetched(self, resp: httpx.Response, body: bytes, elapsed: float) -> Fetched:
        content = _redact(body)
        content_type = resp.headers.get("Content-Type") or ""
        charset = detect_charset(content, content_type)
        if self.charset != "auto" and not (charset == "utf-8" and "json" in content_type.lower()):
            charset = self.charset
        headers = {k.lower(): v for k, v in resp.headers.items()
                   if k.lower() not in _PRIVATE_HEADERS}
        cookies = [_cookie_name(v) for v in resp.headers.get_list("set-cookie")]
        return Fetched(url=str(resp.url), status=resp.status_code, headers=headers,
                       content=content, text=decode(content, charset), charset=charset,
                       elapsed=elapsed, set_cookies=[c for c in cookies if c])


async def _skip_redirect_body(response: httpx.Response) -> None:
    """A redirect's own body is never read: httpx would unpack it whole before following (a gzip
    bomb behind a 302), so it is drained raw, a little at most, and left empty."""
    if not response.has_redirect_location or response.is_stream_consumed:
        return
    drained = 0
    async for chunk in response.aiter_raw():
        drained += len(chunk)
        if drained > 2**20:
            break
    await response.aclose()
    response._content = b""  # what httpx's aread() hands back for a body already read


def _redact(content: bytes) -> bytes:
    """A JSON answer without the session secrets it echoes (the body may be stored as evidence)."""
    if content.lstrip()[:1] != b"{":
        return content
    return _SECRET_JSON.sub(rb"\1***\3", content)


def _cookie_name(set_cookie: str) -> str:
    return set_cookie.split(";", 1)[0].split("=", 1)[0].strip()


def _short(exc: Exception) -> str:
    text = str(exc) or type(exc).__name__
    return text if len(text) <= 120 else text[:117] + "..."
