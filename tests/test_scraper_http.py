"""The client over real HTTP: the shared replay server serving the genuine captures, with and
without faults; and a vcrpy cassette of it that replays with no server at all."""
from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
import vcr

from scraper import ForumClient

from .conftest import CAPTURES, SHARED, free_port

REPLAY = SHARED / "tools" / "replay.py"
CASSETTES = Path(__file__).resolve().parent / "cassettes"
CASSETTE = CASSETTES / "scraper_replay_utf8.yaml"


def start_replay(folder: str, *extra: str):
    """A replay server on a free loopback port: (process, base_url)."""
    if not REPLAY.is_file() or not (CAPTURES / folder).is_dir():
        pytest.skip("../shared/tools/replay.py and ../shared/discuz are not beside this checkout")
    port = free_port()
    proc = subprocess.Popen([sys.executable, str(REPLAY), "--port", str(port),
                             "--dir", str(CAPTURES / folder), *extra],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        try:
            if httpx.get(base + "__stats", timeout=1).status_code == 200:
                return proc, base
        except httpx.TransportError:
            time.sleep(0.05)
    proc.kill()
    pytest.fail("the replay server did not start")


@pytest.fixture(scope="module")
def replay_utf8():
    proc, base = start_replay("x35-utf8")
    yield base
    proc.terminate()
    proc.wait(10)


@pytest.fixture(scope="module")
def replay_gbk():
    proc, base = start_replay("x35-gbk")
    yield base
    proc.terminate()
    proc.wait(10)


def capture(folder: str, name: str) -> bytes:
    return (CAPTURES / folder / name).read_bytes()


def thread(truth: dict, tid: int) -> dict:
    return next(t for t in truth["threads"] if t["tid"] == tid)


def test_thread_page_and_api_over_http(replay_utf8, truth):
    async def go():
        async with ForumClient(replay_utf8, rate=50) as forum:
            page = await forum.thread_page(1)
            api = await forum.api_thread(3, page=1, ppp=50)
            api2 = await forum.api_thread(3, page=2, ppp=50)
            missing = await forum.thread_page(9999)
            return page, api, api2, missing, forum.stats

    page, api, api2, missing, stats = asyncio.run(go())
    assert page.status == 200 and page.charset == "utf-8"
    assert page.content == capture("x35-utf8", "pages/viewthread-tid1-p1.html")
    assert thread(truth, 1)["subject"] in page.text
    floors = thread(truth, 3)["floors"]
    posts = json.loads(api.text)["Variables"]["postlist"]
    more = json.loads(api2.text)["Variables"]["postlist"]
    assert json.loads(api.text)["Variables"]["ppp"] == "50"
    assert [int(p["pid"]) for p in posts + more][:len(floors)] == [f["pid"] for f in floors][:len(posts + more)]
    assert len(posts) == min(50, len(floors))
    assert missing.status == 404 and "抱歉，指定的主题不存在或已被删除或正在被审核" in missing.text
    assert stats["statuses"] == {200: 3, 404: 1} and stats["retries"] == 0


def test_gbk_forum_over_http(replay_gbk, truth):
    async def go():
        async with ForumClient(replay_gbk, rate=50) as forum:
            return await forum.thread_page(1), await forum.api_thread(1)

    page, api = asyncio.run(go())
    assert page.charset == "gb18030" and api.charset == "utf-8"
    assert thread(truth, 1)["subject"] in page.text
    assert json.loads(api.text)["Charset"] == "GBK"
    assert "\ufffd" not in page.text


def test_every_page_survives_a_faulty_forum(truth):
    """A forum that answers 500, 503, 429, cut pages and stalls: every page still arrives whole."""
    proc, base = start_replay("x35-utf8", "--faults", "0.5", "--seed", "11")
    sleeps: list[float] = []

    async def fake_sleep(seconds: float) -> None:
        sleeps.append(seconds)

    async def go():
        async with ForumClient(base, rate=200, timeout=1.0, retries=4, sleep=fake_sleep) as forum:
            wanted = [(t["tid"], p) for t in truth["threads"] for p in range(1, t["pages"] + 1)]
            pages = await asyncio.gather(*(forum.thread_page(tid, p) for tid, p in wanted))
            return wanted, pages, forum.stats

    try:
        wanted, pages, stats = asyncio.run(go())
    finally:
        proc.terminate()
        proc.wait(10)
    for (tid, p), page in zip(wanted, pages):
        folder = "private" if thread(truth, tid)["role"] == "private" else "pages"
        assert page.content == capture("x35-utf8", f"{folder}/viewthread-tid{tid}-p{p}.html")
    assert stats["retries"] > 0 and sleeps


# -- vcrpy: a recorded scan replays offline ------------------------------------------------------

def cassette_vcr(mode: str) -> vcr.VCR:
    return vcr.VCR(
        record_mode=mode,
        match_on=["method", "scheme", "host", "path", "query"],   # not the port: it was random
        filter_headers=["cookie", "set-cookie", "authorization"],
        decode_compressed_response=True,
    )


async def scan_a_little(base: str):
    async with ForumClient(base, rate=50) as forum:
        return [await forum.thread_page(1), await forum.api_thread(3, page=2, ppp=5),
                await forum.thread_page(9999)]


def record(path: Path, base: str) -> None:
    with cassette_vcr("once").use_cassette(str(path)):
        asyncio.run(scan_a_little(base))


def test_record_a_cassette(replay_utf8, tmp_path):
    path = tmp_path / "scan.yaml"
    record(path, replay_utf8)
    text = path.read_text("utf-8")
    assert text.count("uri: http://127.0.0.1:") == 3
    assert "Set-Cookie" not in text and "Cookie:" not in text
    if not CASSETTE.exists():  # keep the first recording for offline runs
        CASSETTES.mkdir(exist_ok=True)
        CASSETTE.write_text(text, "utf-8")


def test_cassette_replays_offline():
    if not CASSETTE.exists():
        pytest.skip("tests/cassettes/scraper_replay_utf8.yaml is recorded by test_record_a_cassette")
    nobody = f"http://127.0.0.1:{free_port()}/"   # nothing listens there
    with cassette_vcr("none").use_cassette(str(CASSETTE)) as tape:
        page, api, missing = asyncio.run(scan_a_little(nobody))
        assert tape.play_count == 3
    assert page.status == 200 and page.charset == "utf-8" and "版杀" in page.text
    posts = json.loads(api.text)["Variables"]["postlist"]
    assert json.loads(api.text)["Variables"]["ppp"] == "5"
    assert [int(p["position"]) for p in posts] == [6, 7, 8, 9, 10]
    assert missing.status == 404 and "指定的主题不存在" in missing.text
    if CAPTURES.is_dir():
        assert page.content == capture("x35-utf8", "pages/viewthread-tid1-p1.html")
