"""`daoyan watch` against a forum that changes between its rounds (defects 1 and 10 of issue 19):
a ballot posted between two rounds is reported in the round that first scans it, even when the
forum's clock runs ahead of the director's (here by 40 s) or the ballot lands during the scan."""
from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from tests.conftest import ROOT

from .conftest import PASSWORD, seed_game

pytestmark = pytest.mark.live

VOTES = [
    {"key": "v_jz", "author": "饺子", "message": "投票对象：包子\n投票理由：矛盾"},
    {"key": "v_bz", "author": "包子", "message": "投票对象：饺子\n投票理由：带节奏"},
]


@pytest.mark.parametrize("api", ["always", "never"])
def test_watch_reports_a_new_ballot_in_the_round_it_appears(forum_utf8, tmp_path, api):
    g = seed_game(forum_utf8, votes=VOTES)
    gf = g.game_file(tmp_path, api=api)
    proc = subprocess.Popen([sys.executable, "-m", "daoyan.cli", "watch", str(gf), "--day", "1", "--rounds", "2",
                             "--every", "4s"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    rounds: dict[int, list[str]] = {}
    current = 0
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + 120
        for line in proc.stdout:
            if " round " in line and line.startswith("["):
                current = int(line.split(" round ", 1)[1].split(":", 1)[0])
            rounds.setdefault(current, []).append(line.rstrip("\n"))
            if current == 1 and line.startswith("  票型："):
                forum_utf8.dz("reply", "馄饨", PASSWORD, g.vote, "投票对象：包子\n投票理由：跟着饺子投一票",
                              "--at", int(time.time()) + 40)
            assert time.monotonic() < deadline, rounds
        assert proc.wait(60) == 0, rounds
    finally:
        if proc.poll() is None:
            proc.kill()
    assert not any("馄饨" in ln for ln in rounds[1])
    assert any(ln.startswith("  新票") and "馄饨" in ln for ln in rounds[2]), rounds
