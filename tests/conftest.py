"""Shared fixtures: where the genuine captures are, skipped with a reason where ../shared is absent."""
from __future__ import annotations

import atexit
import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

# the checker's start-up cache (moderation/startup_cache.py) of this test run, not the user's
if "DAOYAN_CACHE_DIR" not in os.environ:
    os.environ["DAOYAN_CACHE_DIR"] = tempfile.mkdtemp(prefix="daoyan-test-cache-")
    atexit.register(shutil.rmtree, os.environ["DAOYAN_CACHE_DIR"], True)

# Property tests check behaviour, never speed: no per-example deadline (a shared 2-core machine
# can take 300 ms for a 1 ms example), the same everywhere that does not set its own.
settings.register_profile("daoyan", deadline=None)
settings.load_profile("daoyan")

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CAPTURES = SHARED / "discuz"
EVAL = SHARED / "eval"


def need_shared() -> Path:
    if not CAPTURES.is_dir():
        pytest.skip("../shared/discuz (the genuine Discuz captures) is not beside this checkout")
    return CAPTURES


@pytest.fixture(scope="session")
def captures() -> Path:
    return need_shared()


@pytest.fixture(scope="session")
def truth(captures: Path) -> dict:
    return json.loads((captures / "x35-utf8" / "ground_truth.json").read_text("utf-8"))


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Replay:
    """The shared tools' replay of a capture, on a free loopback port, as a subprocess."""

    def __init__(self, capture: Path, *extra: str):
        import subprocess
        import sys
        import time
        import urllib.request

        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}/"
        self.proc = subprocess.Popen([sys.executable, str(SHARED / "tools" / "replay.py"), "--port", str(self.port),
                                      "--dir", str(capture), *extra],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                urllib.request.urlopen(self.base_url, timeout=1).read()
                break
            except OSError:
                time.sleep(0.05)

    def stats(self) -> dict:
        import urllib.request

        return json.loads(urllib.request.urlopen(self.base_url + "__stats", timeout=2).read())

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(5)


@pytest.fixture()
def replay_utf8(captures: Path):
    r = Replay(captures / "x35-utf8")
    yield r
    r.close()


def capture_game_file(captures: Path, build: str, base_url: str, out: Path, extra: str = "") -> Path:
    """The capture's own game file, pointed at a replay, with fast politeness for tests."""
    text = (captures / build / "game.toml").read_text("utf-8").replace("http://127.0.0.1:8080/", base_url)
    text = text.replace("[forum]\n", "[forum]\nrate = 200\nconnections = 4\n" + extra, 1)
    out.mkdir(parents=True, exist_ok=True)
    p = out / "game.toml"
    p.write_text(text, "utf-8")
    return p
