"""Faults a busy forum throws at a scan: 5xx bursts, timeouts, resets, cut pages, 429s.

Every test injects `sleep`, so the waits are asserted and nothing really sleeps."""
from __future__ import annotations

import asyncio
import math

import httpx
import pytest

from gamedef.errors import ForumError
from scraper import ForumClient
from scraper.retry import MAX_RETRY_AFTER, backoff, retry_after

BASE = "http://127.0.0.1:8080/"
PAGE = b"<html><head><meta charset='utf-8'></head><body>\xe7\x89\x88\xe6\x9d\x80</body></html>"


def run(coro):
    return asyncio.run(coro)


class Script:
    """A transport that plays a list of answers (Response, exception class, or callable)."""

    def __init__(self, *steps):
        self.steps = list(steps)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        step = self.steps.pop(0) if len(self.steps) > 1 else self.steps[0]
        if isinstance(step, type) and issubclass(step, Exception):
            raise step("injected fault", request=request)
        if callable(step):
            return step(request)
        return step


def ok() -> httpx.Response:
    return httpx.Response(200, headers={"Content-Type": "text/html; charset=utf-8"}, content=PAGE)


def status(code: int, **headers: str) -> httpx.Response:
    return httpx.Response(code, headers={"Content-Type": "text/html", **headers}, content=b"busy")


async def fetch(script: Script, sleeps: list[float], retries: int = 4, tid: int = 1):
    async def fake_sleep(seconds: float) -> None:
        sleeps.append(seconds)

    async with ForumClient(BASE, transport=httpx.MockTransport(script), rate=math.inf,
                           retries=retries, sleep=fake_sleep) as forum:
        page = await forum.thread_page(tid, 2)
        return page, forum.stats


def assert_backoffs(sleeps: list[float], n: int) -> None:
    assert len(sleeps) == n
    for attempt, wait in enumerate(sleeps):
        base = 0.5 * 2 ** attempt
        assert base <= wait <= base * 1.1 + 1e-9


def test_burst_of_503_then_page():
    sleeps: list[float] = []
    script = Script(status(503), status(503), status(502), ok())
    page, stats = run(fetch(script, sleeps))
    assert page.status == 200 and "版杀" in page.text
    assert_backoffs(sleeps, 3)
    assert stats["requests"] == 4 and stats["retries"] == 3
    assert stats["statuses"] == {503: 2, 502: 1, 200: 1}
    assert all(str(r.url) == BASE + "forum.php?mod=viewthread&tid=1&page=2" for r in script.requests)


@pytest.mark.parametrize("fault", [httpx.ReadTimeout, httpx.ConnectTimeout, httpx.PoolTimeout])
def test_timeouts_are_retried(fault):
    sleeps: list[float] = []
    page, stats = run(fetch(Script(fault, fault, ok()), sleeps))
    assert page.status == 200
    assert_backoffs(sleeps, 2)
    assert stats["errors"] == {fault.__name__: 2}


@pytest.mark.parametrize("fault", [httpx.ReadError, httpx.ConnectError, httpx.RemoteProtocolError])
def test_connection_reset_is_retried(fault):
    sleeps: list[float] = []
    page, _ = run(fetch(Script(fault, ok()), sleeps))
    assert page.status == 200 and len(sleeps) == 1


def test_truncated_body_is_retried():
    def cut(request):
        return httpx.Response(200, headers={"Content-Type": "text/html", "Content-Length": str(len(PAGE))},
                              stream=httpx.ByteStream(PAGE[: len(PAGE) // 3]))

    sleeps: list[float] = []
    page, stats = run(fetch(Script(cut, cut, ok()), sleeps))
    assert page.content == PAGE
    assert stats["errors"] == {"Truncated": 2}
    assert_backoffs(sleeps, 2)


def test_429_with_retry_after_seconds():
    sleeps: list[float] = []
    page, _ = run(fetch(Script(status(429, **{"Retry-After": "7"}), ok()), sleeps))
    assert page.status == 200
    assert sleeps == [pytest.approx(7, abs=0.05)]


def test_429_with_retry_after_http_date():
    answer = status(429, **{"Date": "Wed, 02 Dec 2026 14:05:01 GMT",
                            "Retry-After": "Wed, 02 Dec 2026 14:05:13 GMT"})
    sleeps: list[float] = []
    page, _ = run(fetch(Script(answer, ok()), sleeps))
    assert page.status == 200
    assert sleeps == [pytest.approx(12, abs=0.05)]


def test_429_without_retry_after_backs_off():
    sleeps: list[float] = []
    run(fetch(Script(status(429), ok()), sleeps))
    assert_backoffs(sleeps, 1)


def test_429_retry_after_is_capped():
    sleeps: list[float] = []
    run(fetch(Script(status(429, **{"Retry-After": "86400"}), ok()), sleeps))
    assert sleeps == [pytest.approx(MAX_RETRY_AFTER, abs=0.05)]


@pytest.mark.parametrize("code", [404, 403, 400])
def test_other_4xx_are_answers_not_retried(code):
    sleeps: list[float] = []
    page, stats = run(fetch(Script(status(code)), sleeps))
    assert page.status == code and sleeps == []
    assert stats["requests"] == 1 and stats["retries"] == 0


def test_gives_up_with_a_clear_error():
    sleeps: list[float] = []
    with pytest.raises(ForumError) as err:
        run(fetch(Script(status(503)), sleeps, retries=2))
    msg = str(err.value)
    assert "HTTP 503" in msg and "3 attempts" in msg
    assert "forum.php?mod=viewthread&tid=1&page=2" in msg
    assert_backoffs(sleeps, 2)


def test_gives_up_on_timeouts_naming_them():
    with pytest.raises(ForumError, match="timed out"):
        run(fetch(Script(httpx.ReadTimeout), [], retries=1))


def test_no_retries_means_one_attempt():
    sleeps: list[float] = []
    with pytest.raises(ForumError, match="1 attempt\\b"):
        run(fetch(Script(httpx.ConnectError), sleeps, retries=0))
    assert sleeps == []


def test_429_pauses_every_task():
    """While one task waits out Retry-After, another task's request is held back too."""
    events: list[tuple[str, object]] = []
    answers = [status(429, **{"Retry-After": "5"})]

    async def handler(request):
        events.append(("request", request.url.params["tid"]))
        await asyncio.sleep(0)  # let the other task queue up meanwhile
        return answers.pop(0) if answers else ok()

    async def fake_sleep(seconds: float) -> None:
        await asyncio.sleep(0)  # a real sleep lets other tasks run
        events.append(("sleep", round(seconds)))

    async def go():
        async with ForumClient(BASE, transport=httpx.MockTransport(handler), rate=math.inf,
                               connections=1, sleep=fake_sleep) as forum:
            pages = await asyncio.gather(forum.thread_page(1), forum.thread_page(2))
        assert [p.status for p in pages] == [200, 200]

    run(go())
    assert events[:2] == [("request", "1"), ("sleep", 5)]
    assert sorted(events[2:]) == [("request", "1"), ("request", "2")]
    assert events.index(("request", "2")) > events.index(("sleep", 5))


@pytest.mark.parametrize("value, date, want", [
    ("3", None, 3.0), (" 10 ", None, 10.0), ("0", None, 0.0), ("soon", None, None), ("", None, None),
    (None, None, None), ("100000", None, MAX_RETRY_AFTER),
    ("Wed, 02 Dec 2026 14:05:31 GMT", "Wed, 02 Dec 2026 14:05:01 GMT", 30.0),
    ("Wed, 02 Dec 2026 14:04:00 GMT", "Wed, 02 Dec 2026 14:05:01 GMT", 0.0),
])
def test_retry_after_values(value, date, want):
    assert retry_after(value, date) == want


def test_retry_after_date_without_date_header_uses_now():
    assert retry_after("Wed, 02 Dec 2026 14:05:31 GMT", None, now=1796220301.0) == 30.0


def test_backoff_grows_and_is_capped():
    import random
    rng = random.Random(1)
    waits = [backoff(n, rng) for n in range(12)]
    assert waits[0] < waits[1] < waits[2] < waits[3]
    assert max(waits) <= 30 * 1.1


def test_garbled_compressed_body_is_retried():
    def bad_gzip(request):
        return httpx.Response(200, headers={"Content-Encoding": "gzip", "Content-Type": "text/html"},
                              content=b"this is not gzip")

    sleeps: list[float] = []
    page, stats = run(fetch(Script(bad_gzip, ok()), sleeps))
    assert page.content == PAGE and stats["errors"] == {"DecodingError": 1}


def test_redirect_loop_is_a_clear_error_at_once():
    def loop(request):
        return httpx.Response(302, headers={"Location": BASE + "forum.php?mod=viewthread&tid=1&page=2"})

    sleeps: list[float] = []
    with pytest.raises(ForumError, match="TooManyRedirects"):
        run(fetch(Script(loop), sleeps))
    assert sleeps == []
