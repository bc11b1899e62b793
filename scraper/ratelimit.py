"""A request-rate limit shared by every task of one client: fair, and never a burst.

Callers queue on a FIFO lock and leave one at a time, each at least `1/rate` seconds after the
one before. A forum's 429 can pause the whole queue, so no concurrent task keeps hammering it.
"""
from __future__ import annotations

import asyncio
import math
import time
from typing import Awaitable, Callable


class RateLimiter:
    """At most `rate` departures per second; `rate=math.inf` means no limit."""

    def __init__(self, rate: float, *, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        if not rate > 0:
            raise ValueError(f"rate must be a positive number of requests per second, not {rate!r}")
        self.interval = 0.0 if math.isinf(rate) else 1.0 / rate
        self._clock, self._sleep = clock, sleep
        self._next: float | None = None
        self._lock = asyncio.Lock()

    async def acquire(self) -> None:
        """Wait for this caller's turn; asyncio.Lock wakes waiters in arrival order."""
        async with self._lock:
            # looked at again after each sleep: a 429 answered meanwhile may have paused the queue
            # (taking the old departure time would drop the forum's Retry-After for everyone)
            while self._next is not None:
                until = self._next
                wait = until - self._clock()
                if wait <= 0:
                    break
                await self._sleep(wait)
                if self._next == until:
                    break  # nobody paused meanwhile: this caller's turn
            self._next = self._clock() + self.interval

    def pause(self, seconds: float) -> None:
        """Hold every later departure back for `seconds` from now (the forum asked us to)."""
        until = self._clock() + seconds
        if self._next is None or until > self._next:
            self._next = until
