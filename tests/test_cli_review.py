"""The director's review loop on the genuine capture: flags listed, accepted and dismissed; accepted
flags become cards; a re-scan keeps every decision; reminders at several moments; watch; report."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from daoyan.cli import cli

from .conftest import Replay, capture_game_file


@pytest.fixture(scope="module")
def scanned(captures: Path, tmp_path_factory: pytest.TempPathFactory):
    out = tmp_path_factory.mktemp("review")
    rp = Replay(captures / "x35-utf8")
    game = capture_game_file(captures, "x35-utf8", rp.base_url, out)
    r = CliRunner().invoke(cli, ["scan", str(game), "-q"])
    assert r.exit_code == 0, r.output
    yield game, rp
    rp.close()


def run(*args: str) -> str:
    r = CliRunner().invoke(cli, list(args))
    assert r.exit_code == 0, r.output
    return r.output


def test_accepted_flags_become_cards_and_survive_a_rescan(scanned) -> None:
    game, _ = scanned
    flags = json.loads(run("flags", str(game), "--day", "1", "--json"))["flags"]
    oath = next(f for f in flags if f["category"] == "oath")
    face = next(f for f in flags if f["category"] == "face_based")
    assert oath["state"] == "open" and oath["author"] == "包子"
    run("flags", "accept", oath["id"], "--card", "yellow", "--note", "对天发誓", "--game", str(game))
    run("flags", "dismiss", face["id"], "--game", str(game), "--note", "语境无害")
    run("scan", str(game), "-q")
    flags = {f["id"]: f for f in json.loads(run("flags", str(game), "--day", "1", "--json"))["flags"]}
    assert flags[oath["id"]]["state"] == "accepted" and flags[oath["id"]]["card"] == "yellow"
    assert flags[face["id"]]["state"] == "dismissed" and flags[face["id"]]["note"] == "语境无害"
    ledger = json.loads(run("cards", str(game), "--json"))
    baozi = next(p for p in ledger["players"] if p["player"] == "包子")
    assert any(e["source"] == "flag" and e["card"] == "yellow" and e["pid"] == oath["pid"] for e in baozi["entries"])
    import sqlite3

    con = sqlite3.connect(game.with_suffix(".sqlite"))
    rows = con.execute("select player, card, source, pid from cards").fetchall()
    con.close()
    assert ("包子", "yellow", "flag", oath["pid"]) in rows and ("麻花", "yellow", "lurking", None) in rows


def test_unknown_flag_id_is_a_clear_error(scanned) -> None:
    game, _ = scanned
    r = CliRunner().invoke(cli, ["flags", "accept", "999999-oath", "--game", str(game)])
    assert r.exit_code == 2 and "999999-oath" in r.output


@pytest.mark.parametrize("at,not_voted,below", [
    ("2026-11-26T11:00:00", 12, 12),   # before anyone voted: everybody
    ("2026-11-27T21:30:00", 1, 2),     # inside the lock: only 月饼 left; 麻花 and 锅贴 short
    ("2026-11-28T09:00:00", 1, 2),     # after close: the final figures
])
def test_remind_at_several_moments(scanned, at: str, not_voted: int, below: int) -> None:
    game, _ = scanned
    r = json.loads(run("remind", str(game), "--day", "1", "--at", at, "--json"))
    assert len(r["not_voted"]) == not_voted and len(r["below"]) == below
    assert all(b["needed"] == 5 - b["posts"] for b in r["below"])
    if at.startswith("2026-11-27T21:30"):
        assert r["lock_in_s"] == -30 * 60 and r["closes_in_s"] == 30 * 60
    bb = run("remind", str(game), "--day", "1", "--at", at, "--bbcode")
    assert "[b]" in bb and "<" not in bb


def test_votes_table_and_margins(scanned) -> None:
    game, _ = scanned
    out = run("votes", str(game), "--day", "2")
    assert "平票" in out and "烧卖" in out
    v = json.loads(run("votes", str(game), "--day", "2", "--json"))
    assert v["margins"]["decided"] is True and v["outcome"]["tie"]


def test_report_files(scanned, tmp_path: Path) -> None:
    game, _ = scanned
    run("report", str(game), "--day", "1", "--out", str(tmp_path))
    bb = (tmp_path / "day1.bbcode.txt").read_text("utf-8")
    assert "包子" in bb and "[b]" in bb
    html = (tmp_path / "day1.html").read_text("utf-8")
    assert "<script>alert" not in html and "goto=findpost&amp;ptid=4&amp;pid=141" in html.replace("&amp;amp;", "&amp;")
    data = json.loads((tmp_path / "day1.json").read_text("utf-8"))
    assert data["votes"]["outcome"]["out"] == "包子" and data["remind"]["not_voted"] == ["月饼"]


def test_watch_one_round(scanned, tmp_path: Path) -> None:
    game, _ = scanned
    out = run("watch", str(game), "--day", "1", "--every", "1s", "--rounds", "1", "--out", str(tmp_path))
    assert "round 1" in out and "票型" in out
    assert (tmp_path / "day1.html").is_file()
