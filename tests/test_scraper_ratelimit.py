"""Politeness: the request rate never bursts past `rate`, and no more than `connections` at once."""
from __future__ import annotations

import asyncio
import math
import time

import httpx
import pytest
from hypothesis import given, settings, strategies as st

from scraper import ForumClient
from scraper.client import USER_AGENT
from scraper.ratelimit import RateLimiter

BASE = "http://127.0.0.1:8080/"


class FakeClock:
    """Virtual time: sleeping moves the clock, nothing waits."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds
        await asyncio.sleep(0)  # let other callers arrive and queue meanwhile


def departures(rate: float, arrivals: list[float]) -> tuple[list[float], list[int]]:
    """When each caller left the limiter, and in which order, for callers arriving at those offsets."""
    clock = FakeClock()
    limiter = RateLimiter(rate, clock=clock, sleep=clock.sleep)
    times: list[float] = []
    order: list[int] = []

    async def caller(i: int) -> None:
        await limiter.acquire()
        times.append(clock.now)
        order.append(i)

    async def go() -> None:
        tasks = []
        for i, gap in enumerate(arrivals):
            clock.now += gap
            tasks.append(asyncio.create_task(caller(i)))
            await asyncio.sleep(0)
        await asyncio.gather(*tasks)

    asyncio.run(go())
    return times, order


@pytest.mark.parametrize("rate, n", [(4.0, 10), (1.0, 3), (0.5, 5), (25.0, 40)])
def test_n_requests_take_at_least_n_minus_one_intervals(rate, n):
    times, order = departures(rate, [0.0] * n)
    assert times[-1] - times[0] >= (n - 1) / rate - 1e-9
    assert all(b - a >= 1 / rate - 1e-9 for a, b in zip(times, times[1:]))
    assert order == list(range(n))  # first come, first served


@settings(max_examples=60, deadline=None)
@given(st.floats(min_value=0.2, max_value=50), st.lists(st.floats(min_value=0, max_value=3), min_size=1, max_size=25))
def test_never_bursts_whatever_the_arrivals(rate, arrivals):
    times, order = departures(rate, arrivals)
    assert all(b - a >= 1 / rate - 1e-9 for a, b in zip(times, times[1:]))
    assert order == sorted(order)


def test_idle_limiter_does_not_wait():
    times, _ = departures(2.0, [0.0, 5.0, 5.0])
    assert times == [0.0, 5.0, 10.0]


def test_unlimited_rate_never_sleeps():
    times, _ = departures(math.inf, [0.0] * 20)
    assert times == [0.0] * 20


@pytest.mark.parametrize("rate", [0, -1, float("nan")])
def test_rate_must_be_positive(rate):
    with pytest.raises(ValueError):
        RateLimiter(rate)


def test_client_paces_concurrent_tasks():
    """Through the client with an injected sleep: waits plus real time cover (N-1)/rate."""
    n, rate = 9, 4.0
    sleeps: list[float] = []

    async def fake_sleep(seconds: float) -> None:
        sleeps.append(seconds)

    def handler(request):
        return httpx.Response(200, content=b"<p>ok</p>", headers={"Content-Type": "text/html"})

    async def go() -> float:
        started = time.monotonic()
        async with ForumClient(BASE, transport=httpx.MockTransport(handler), rate=rate,
                               sleep=fake_sleep) as forum:
            await asyncio.gather(*(forum.thread_page(1, p) for p in range(1, n + 1)))
            assert forum.stats["requests"] == n
        return time.monotonic() - started

    real = asyncio.run(go())
    assert len(sleeps) == n - 1
    assert sum(sleeps) + real >= (n - 1) / rate


@pytest.mark.parametrize("connections", [1, 2, 4])
def test_never_more_than_connections_in_flight(connections):
    in_flight = 0
    most = 0

    async def handler(request):
        nonlocal in_flight, most
        in_flight += 1
        most = max(most, in_flight)
        await asyncio.sleep(0.005)
        in_flight -= 1
        return httpx.Response(200, content=b"{}", headers={"Content-Type": "application/json"})

    async def go() -> None:
        async with ForumClient(BASE, transport=httpx.MockTransport(handler), rate=math.inf,
                               connections=connections) as forum:
            await asyncio.gather(*(forum.api_thread(3, p) for p in range(1, 13)))

    asyncio.run(go())
    assert most == connections


def test_user_agent_names_the_tool_and_can_be_overridden():
    seen: list[str] = []

    def handler(request):
        seen.append(request.headers["User-Agent"])
        return httpx.Response(200, content=b"")

    async def go(**kw) -> None:
        async with ForumClient(BASE, transport=httpx.MockTransport(handler), **kw) as forum:
            await forum.get("forum.php")

    asyncio.run(go())
    asyncio.run(go(user_agent="my-bot/1"))
    assert seen[0] == USER_AGENT and seen[0].startswith("daoyan/")
    assert "director" in seen[0]
    assert seen[1] == "my-bot/1"


def test_a_pause_asked_while_a_caller_waits_holds_that_caller_too():
    """A 429's Retry-After (`pause`) that arrives while a caller sleeps out the interval holds
    that caller and every later one back: the pause is not overwritten by the sleeper's own
    departure (the cause of a Retry-After scan that once took 0.2 s instead of 1 s)."""
    clock = FakeClock()
    limiter = RateLimiter(1.0, clock=clock, sleep=clock.sleep)
    times: dict[str, float] = {}

    async def caller(name: str) -> None:
        await limiter.acquire()
        times[name] = clock.now

    async def go() -> None:
        await caller("a")  # leaves at 0; the next may leave at 1
        b = asyncio.create_task(caller("b"))
        await asyncio.sleep(0)  # b is now asleep in acquire, until 1
        limiter.pause(5)  # another request's 429: nobody leaves before 1 + 5
        await b
        await caller("c")

    asyncio.run(go())
    assert times["a"] == 0.0
    assert times["b"] >= 6.0
    assert times["c"] >= times["b"] + 1.0
