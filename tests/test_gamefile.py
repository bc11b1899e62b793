"""Every mistake in a game file gets one clear message naming the file and the field, exit 2."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from daoyan.cli import cli
from gamedef.errors import GameFileError
from gamedef.gamefile import load_game, parse_game

GOOD = """
[forum]
base_url = "http://127.0.0.1:8080/"

[game]
ruleset = "m84"
timezone = "Asia/Shanghai"
players = ["饺子", "包子", "馄饨"]
directors = ["导演A"]

[[day]]
number = 1
discussion_tid = 101
vote_tid = 102
opens = 2026-12-01T10:00:00
closes = 2026-12-02T22:00:00

[[event]]
day = 1
kind = "whistled"
player = "包子"
"""


def test_contract_fields_alone_work(tmp_path: Path) -> None:
    g = parse_game(GOOD, tmp_path / "game.toml")
    assert g.players == ("饺子", "包子", "馄饨") and g.ruleset.name == "m84"
    assert g.day(1).closes.utcoffset().total_seconds() == 8 * 3600
    assert g.store_path == tmp_path / "game.sqlite"
    assert g.tids == [101, 102]


@pytest.mark.parametrize("change,field,words", [
    (("ruleset = \"m84\"", "ruleset = \"m99\""), "game.ruleset", "unknown ruleset"),
    (("discussion_tid = 101\n", ""), "discussion_tid", "missing"),
    (("closes = 2026-12-02T22:00:00", "closes = 2026-11-30T22:00:00"), "closes", "before it opens"),
    (("player = \"包子\"", "player = \"豆浆\""), "player", "unknown player"),
    (("[game]", "[game]\ncolour = 1"), "colour", "unknown field"),
    (("kind = \"whistled\"", "kind = \"exploded\""), "kind", "unknown kind"),
    (("timezone = \"Asia/Shanghai\"", "timezone = \"Mars/Olympus\""), "timezone", "unknown time zone"),
    (("vote_tid = 102", "vote_tid = \"102\""), "vote_tid", "expected a thread id"),
    (("base_url = \"http://127.0.0.1:8080/\"", "base_url = \"ftp:/x\""), "base_url", "http"),
    (("players = [\"饺子\", \"包子\", \"馄饨\"]", "players = [\"饺子\", \"饺子\"]"), "players", "twice"),
])
def test_mistakes_name_the_field(tmp_path: Path, change: tuple[str, str], field: str, words: str) -> None:
    text = GOOD.replace(*change)
    assert text != GOOD
    with pytest.raises(GameFileError) as e:
        parse_game(text, tmp_path / "game.toml")
    msg = str(e.value)
    assert "game.toml" in msg and field in msg and words in msg


def test_bad_toml_gives_its_line(tmp_path: Path) -> None:
    with pytest.raises(GameFileError) as e:
        parse_game(GOOD.replace("number = 1", "number = = 1"), tmp_path / "game.toml")
    assert e.value.line is not None and "line" in str(e.value)


def test_cli_exit_status_two_never_a_traceback(tmp_path: Path) -> None:
    p = tmp_path / "game.toml"
    p.write_text(GOOD.replace("vote_tid = 102\n", ""), "utf-8")
    r = CliRunner().invoke(cli, ["scan", str(p)])
    assert r.exit_code == 2
    assert "vote_tid" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(cli, ["scan", str(tmp_path / "nope.toml")])
    assert r.exit_code == 2 and "no such game file" in r.output


def test_credentials_come_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = GOOD.replace("[game]", "[forum.login]\nusername_env = \"DY_USER\"\npassword_env = \"DY_PASS\"\n\n[game]")
    g = parse_game(text, tmp_path / "game.toml")
    monkeypatch.delenv("DY_USER", raising=False)
    with pytest.raises(GameFileError) as e:
        g.credentials()
    assert "DY_USER" in str(e.value)
    monkeypatch.setenv("DY_USER", "导演A")
    monkeypatch.setenv("DY_PASS", "s3cret")
    assert g.credentials() == ("导演A", "s3cret")


def test_the_capture_game_file_loads(captures: Path) -> None:
    g = load_game(captures / "x35-utf8" / "game.toml")
    assert [d.number for d in g.days] == [1, 2] and g.day(1).election_tid == 6
    assert {e.kind for e in g.events} == {"out", "priest", "whistled"}
