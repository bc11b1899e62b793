"""`daoyan demo` end to end: the demo forum, a real scan over HTTP, the counts the sample game's
author worked out by hand from the rules (daoyan.demo.sample.EXPECTED)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from daoyan.cli import cli
from daoyan.demo.sample import EXPECTED


@pytest.fixture(scope="module")
def demo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("demo")
    r = CliRunner().invoke(cli, ["demo", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "第1天" in r.output and "票型" in r.output
    return out


def _json(args: list[str]) -> dict:
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


@pytest.mark.parametrize("day", [1, 2])
def test_votes_match_the_hand_count(demo_dir: Path, day: int) -> None:
    want = EXPECTED["days"][day]
    got = _json(["votes", str(demo_dir / "game.toml"), "--day", str(day), "--json"])
    assert {t["target"]: (float(t["weight"]), sorted(t["voters"])) for t in got["tally"]} == \
        {t["target"]: (float(t["weight"]), sorted(t["voters"])) for t in want["tally"]}
    assert got["outcome"]["out"] == want["outcome"]["out"]
    assert sorted(got["not_voted"]) == sorted(want["not_voted"])
    assert sorted(got["abstained"]) == sorted(want["abstained"])
    ballots = {b["pid"]: b for b in got["ballots"]}
    for pid, w in EXPECTED["ballots"].items():
        b = ballots.get(int(pid))
        if b is None:
            assert w["voter"] not in EXPECTED["days"][day]["players"] or int(pid) not in _day_pids(demo_dir, day), (pid, w)
            continue
        assert (b["valid"], b["counted"]) == (w["valid"], w["counted"]), (pid, w)


def _day_pids(demo_dir: Path, day: int) -> set[int]:
    from gamedef.gamefile import load_game
    from daoyan.store import Store

    g = load_game(demo_dir / "game.toml")
    with Store(g.store_path) as s:
        return {p.pid for p in s.posts(g.day(day).vote_tid)}


@pytest.mark.parametrize("day", [1, 2])
def test_activity_matches_the_hand_count(demo_dir: Path, day: int) -> None:
    want = EXPECTED["days"][day]
    got = _json(["activity", str(demo_dir / "game.toml"), "--day", str(day), "--json"])
    assert {p["player"]: p["posts"] for p in got["players"]} == want["posts"]
    assert sorted((p["player"], p["card"], p["rule"]) for p in got["penalties"]) == \
        sorted((p["player"], p["card"], p["rule"]) for p in want["penalties"])


def test_demo_writes_reports_and_a_store(demo_dir: Path) -> None:
    assert (demo_dir / "game.sqlite").is_file()
    for name in ("day1.bbcode.txt", "day1.html", "day1.json", "day2.html"):
        assert (demo_dir / "reports" / name).is_file(), name


def test_demo_flags_the_planted_violations(demo_dir: Path) -> None:
    flagged: dict[int, set[str]] = {}
    for day in (1, 2):
        for f in _json(["check", str(demo_dir / "game.toml"), "--day", str(day), "--json"])["flags"]:
            flagged.setdefault(int(f["pid"]), set()).add(f["category"])
    for pid, cats in EXPECTED["flags"].items():
        assert set(cats) <= flagged.get(int(pid), set()), (pid, cats, flagged.get(int(pid)))
