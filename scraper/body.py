"""Reading an answer's body within a size limit, unpacking it ourselves.

httpx unpacks gzip without a bound: a page of 1 MB on the wire that unpacks to 1 GB (a gzip
bomb, or `Content-Encoding: gzip, gzip` for a million-fold one) would take all the memory the
machine has. Here the raw bytes are unpacked a slice at a time with zlib's `max_length`, so the
body never grows past the limit and the answer is refused the moment it would.
"""
from __future__ import annotations

import zlib
from typing import AsyncIterator

DEFAULT_MAX_BODY = 64 * 2**20  # bytes, unpacked: the largest genuine thread page seen was 23 MB
ACCEPT_ENCODING = "gzip, deflate"  # what `Inflater` unpacks; httpx would add br/zstd when installed


class BodyTooLarge(Exception):
    """The answer unpacks to more than the limit."""


class BadEncoding(Exception):
    """The body is not what its Content-Encoding says (or an encoding we never asked for)."""


class Inflater:
    """One body's Content-Encoding undone, with a bound on what it may produce."""

    def __init__(self, encoding: str) -> None:
        codings = [c.strip().lower() for c in encoding.split(",") if c.strip()]
        codings = [c for c in codings if c != "identity"]
        if len(codings) > 1:
            raise BadEncoding(f"stacked content encodings ({encoding}) were never asked for")
        self.coding = codings[0] if codings else ""
        if self.coding in ("gzip", "x-gzip"):
            self._z: zlib._Decompress | None = zlib.decompressobj(zlib.MAX_WBITS | 16)
        elif self.coding == "deflate":
            self._z = zlib.decompressobj(zlib.MAX_WBITS)
        elif self.coding == "":
            self._z = None
        else:
            raise BadEncoding(f"content encoding {self.coding!r} was never asked for")
        self._first = True

    def feed(self, data: bytes, room: int) -> bytes:
        """The unpacked bytes of `data`; BodyTooLarge when they would pass `room`."""
        if self._z is None:
            if len(data) > room:
                raise BodyTooLarge()
            return data
        try:
            out = self._z.decompress(data, room + 1)
        except zlib.error:
            if self._first and self.coding == "deflate":  # some servers send raw deflate
                self._z = zlib.decompressobj(-zlib.MAX_WBITS)
                self._first = False
                return self.feed(data, room)
            raise BadEncoding(f"the {self.coding} body is corrupt") from None
        self._first = False
        if len(out) > room or self._z.unconsumed_tail:
            raise BodyTooLarge()
        return out

    def flush(self, room: int) -> bytes:
        if self._z is None:
            return b""
        out = self._z.flush()
        if len(out) > room:
            raise BodyTooLarge()
        return out


async def read_limited(raw: AsyncIterator[bytes], encoding: str, limit: int) -> bytes:
    """The whole body of `raw` (the bytes as they came), unpacked, at most `limit` bytes."""
    inflater = Inflater(encoding)
    parts: list[bytes] = []
    size = 0
    async for chunk in raw:
        out = inflater.feed(chunk, limit - size)
        size += len(out)
        parts.append(out)
    tail = inflater.flush(limit - size)
    parts.append(tail)
    return b"".join(parts)
