"""A careless director's settings and a machine that refuses: each is one line on stderr and exit
status 2, never a traceback, and nothing stored or written before is lost."""
from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from daoyan.cli import cli
from daoyan.demo import DemoForum
from gamedef.gamefile import load_game
from gamedef.ruleset import load_ruleset
from daoyan.scan import scan_game

from .disk_support import fill, read_only, small_disk
from .reliability_support import NOW, fast_game, one_line_exit_2

REPO = Path(__file__).resolve().parents[1]

GAME = """
[forum]
base_url = "http://127.0.0.1:8080/"

[game]
ruleset = "m84"
players = ["饺子", "包子", "馄饨"]

[[day]]
number = 1
discussion_tid = 101
vote_tid = 102
opens = 2026-12-01T10:00:00
closes = 2026-12-02T22:00:00
"""



def votes(tmp_path: Path, text: str, *extra: str):
    p = tmp_path / "game.toml"
    p.write_text(text, "utf-8")
    return CliRunner().invoke(cli, ["votes", str(p), "--day", "1", *extra])


def _m84() -> str:
    from importlib import resources

    return resources.files("gamedef.rulesets").joinpath("m84.toml").read_text("utf-8")


@pytest.mark.parametrize("change,words", [
    (("lock_minutes = 60", 'lock_minutes = "sixty"'), "vote.lock_minutes: expected a whole number"),
    (("reason_required = true", 'reason_required = "yes"'), "vote.reason_required: expected true or false"),
    (('change_reference = ["reply", "quote"]', 'change_reference = "reply"'), "vote.change_reference: expected a list"),
    (('change_reference = ["reply", "quote"]', 'change_reference = [1, 2]'), "vote.change_reference[0]: expected text"),
    (('abstain_word = "弃权"', "abstain_word = 5"), "vote.abstain_word: expected text"),
    (("blue_per_yellow = 3", "blue_per_yellow = 0"), "cards.blue_per_yellow: expected 1 or more"),
    (('winner = "first_to_reach_top"', 'winner = "most_votes"'), "election.winner"),
    (('threshold = "at_least_half"', 'threshold = "half"'), "acceleration.threshold"),
    (("priest = 1.5", "priest = nan"), "weights.priest: expected a number"),
    (("lock_minutes = 60", "lock_minutes = 99999999999999"), "vote.lock_minutes: expected a whole number"),
])
def test_a_ruleset_of_wrong_types_is_one_line(tmp_path: Path, change: tuple[str, str], words: str) -> None:
    text = _m84()
    assert change[0] in text
    (tmp_path / "rules.toml").write_text(text.replace(*change), "utf-8")
    err = one_line_exit_2(votes(tmp_path, GAME.replace('ruleset = "m84"', 'ruleset = "rules.toml"')))
    assert words in err and "[game.ruleset]" in err


def test_a_ruleset_not_utf8_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "rules.toml").write_bytes(_m84().encode("gb18030"))
    err = one_line_exit_2(votes(tmp_path, GAME.replace('ruleset = "m84"', 'ruleset = "rules.toml"')))
    assert "not UTF-8" in err


def test_the_presets_still_load() -> None:
    assert load_ruleset("m84").vote.lock_minutes == 60 and load_ruleset("004").name


@pytest.mark.parametrize("change,field", [
    (("opens = 2026-12-01T10:00:00", "opens = 0001-01-01T00:00:00"), "opens"),
    (("closes = 2026-12-02T22:00:00", "closes = 9999-12-31T23:59:59"), "closes"),
    (("opens = 2026-12-01T10:00:00", "opens = 0001-01-01T00:00:00+14:00"), "opens"),
    (('base_url = "http://127.0.0.1:8080/"', 'base_url = "http://[::1/"'), "base_url"),
    (('base_url = "http://127.0.0.1:8080/"', 'base_url = "http://127.0.0.1:99999/"'), "base_url"),
    (('base_url = "http://127.0.0.1:8080/"', 'base_url = "http://127.0.0.1\\u0000:8080/"'), "base_url"),
    (('base_url = "http://127.0.0.1:8080/"', 'base_url = "http://bbs..example/"'), "base_url"),
    (("[game]", 'user_agent = "导演助手"\n\n[game]'), "user_agent"),
    (("[game]", 'user_agent = "daoyan\\r\\nX-Evil: 1"\n\n[game]'), "user_agent"),
    (("[game]", "rate = 1e-300\n\n[game]"), "rate"),
    (("[game]", "rate = 1e300\n\n[game]"), "rate"),
    (("[game]", "connections = 100000\n\n[game]"), "connections"),
    (("[game]", "timeout = 1e300\n\n[game]"), "timeout"),
    (("[game]", "retries = 1000000\n\n[game]"), "retries"),
    (("[game]", "api_page_size = 1000000000\n\n[game]"), "api_page_size"),
    (("[game]", "max_page_mb = 0.0001\n\n[game]"), "max_page_mb"),
    (("[game]", "deadline = 0\n\n[game]"), "deadline"),
])
def test_bad_settings_are_one_line_at_load(tmp_path: Path, change: tuple[str, str], field: str) -> None:
    text = GAME.replace(*change)
    assert text != GAME
    err = one_line_exit_2(votes(tmp_path, text))
    assert field in err, err


def test_dates_at_the_ends_of_time_in_at(tmp_path: Path) -> None:
    (tmp_path / "game.sqlite").write_bytes(b"")
    err = one_line_exit_2(votes(tmp_path, GAME, "--at", "9999-12-31T23:59"))
    assert "--at" in err


def test_credentials_in_base_url_are_refused_without_repeating_them(tmp_path: Path) -> None:
    text = GAME.replace("http://127.0.0.1:8080/", "http://director:hunter22@127.0.0.1:8080/")
    err = one_line_exit_2(votes(tmp_path, text))
    assert "[forum.login]" in err and "hunter22" not in err and "director" not in err


def test_a_cookie_file_that_is_a_folder_is_refused_at_load(tmp_path: Path) -> None:
    (tmp_path / "cookies").mkdir()
    text = GAME.replace("[game]", '[forum.login]\nusername_env = "U"\npassword_env = "P"\ncookie_file = "cookies"\n\n[game]')
    err = one_line_exit_2(votes(tmp_path, text))
    assert "cookie_file" in err and "not a regular file" in err


@pytest.mark.parametrize("store", ["/dev/null", "."])
@pytest.mark.parametrize("command", [["votes", "--day", "1"], ["scan"]])
def test_a_store_that_is_no_file_is_one_line(tmp_path: Path, store: str, command: list[str]) -> None:
    p = tmp_path / "game.toml"
    p.write_text(GAME.replace("[game]", f'[game]\nstore = "{store}"'), "utf-8")
    r = CliRunner().invoke(cli, [command[0], str(p), *command[1:]])
    err = one_line_exit_2(r)
    assert "cannot be the store" in err


# ------------------------------------------------------------------ disks that refuse


@pytest.fixture(scope="module")
def scanned(tmp_path_factory):
    folder = tmp_path_factory.mktemp("scanned")
    with DemoForum(now=NOW) as forum:
        game = fast_game(folder, forum.base_url)
        scan_game(load_game(game))
        r = CliRunner().invoke(cli, ["report", str(game), "--day", "1"])
        assert r.exit_code == 0, r.output
        yield folder, forum.base_url


def cli_process(*args: str, preexec=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "daoyan.cli", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=180, preexec_fn=preexec)


def proc_one_line_exit_2(r: subprocess.CompletedProcess) -> str:
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    err = r.stderr.strip()
    assert err.startswith("daoyan: ") and "\n" not in err and "Traceback" not in err, err
    return err


def _copy_game(src: Path, dst: Path, base_url: str) -> Path:
    dst.mkdir(parents=True, exist_ok=True)
    for name in ("game.toml", "game.sqlite"):
        shutil.copy(src / name, dst / name)
    return dst / "game.toml"


@pytest.mark.parametrize("command", [["report", "--day", "1"], ["cards"], ["scan", "-q"]])
def test_a_read_only_store_is_one_line(scanned, tmp_path: Path, command: list[str]) -> None:
    folder, base_url = scanned
    ro = tmp_path / "ro"
    game = _copy_game(folder, ro, base_url)
    before = (ro / "game.sqlite").read_bytes()
    with read_only(ro):
        r = cli_process(command[0], str(game), *command[1:])
        err = proc_one_line_exit_2(r)
        assert "read-only" in err or "readonly" in err or "Permission denied" in err or "unable to open" in err, err
        assert (ro / "game.sqlite").read_bytes() == before


def test_report_into_a_read_only_folder_is_one_line(scanned, tmp_path: Path) -> None:
    folder, _ = scanned
    out = tmp_path / "out"
    out.mkdir()
    (out / "day1.html").write_text("the old page", "utf-8")
    with read_only(out):
        r = CliRunner().invoke(cli, ["report", str(folder / "game.toml"), "--day", "1", "--out", str(out)])
        err = one_line_exit_2(r)
    assert str(out) in err
    assert sorted(p.name for p in out.iterdir()) == ["day1.html"]
    assert (out / "day1.html").read_text("utf-8") == "the old page"


def test_report_onto_a_full_disk_leaves_the_old_set(scanned, tmp_path: Path) -> None:
    """The announcement is small and the review page large: with room for the one and not the
    other, the old announcement, page and data stay together, and no temporary file is left."""
    folder, _ = scanned
    old = {p.name: p.read_bytes() for p in (folder / "reports").iterdir()}
    assert set(old) == {"day1.bbcode.txt", "day1.html", "day1.json"}
    out = tmp_path / "out"
    with small_disk(out, 1024, file_kb=16) as limit:
        for name, data in old.items():
            (out / name).write_bytes(b"OLD " + data)
        if limit is None:
            fill(out, 8)
        r = cli_process("report", str(folder / "game.toml"), "--day", "1", "--out", str(out), preexec=limit)
        proc_one_line_exit_2(r)
        left = {p.name: p.read_bytes() for p in out.iterdir() if p.name != "filler"}
    assert left == {name: b"OLD " + data for name, data in old.items()}


def test_a_scan_onto_a_full_disk_is_one_line_and_keeps_the_store(tmp_path: Path) -> None:
    disk = tmp_path / "disk"
    with DemoForum(now=NOW) as forum:
        with small_disk(disk, 600) as limit:
            game = fast_game(disk, forum.base_url)
            r = cli_process("scan", str(game), "-q", preexec=limit)
            err = proc_one_line_exit_2(r)
            if limit is None:
                assert "disk is full" in err, err
            con = sqlite3.connect(disk / "game.sqlite")
            try:
                assert con.execute("pragma integrity_check").fetchone() == ("ok",)
                stored = con.execute("select count(*) from posts").fetchone()[0]
            finally:
                con.close()
            shutil.copytree(disk, tmp_path / "bigger", ignore=shutil.ignore_patterns("filler"))
        # moved to a disk with room, the same store completes and keeps every post it had
        r = cli_process("scan", str(tmp_path / "bigger" / "game.toml"), "-q")
        assert r.returncode == 0, r.stderr
    con = sqlite3.connect(tmp_path / "bigger" / "game.sqlite")
    try:
        assert con.execute("select count(*) from posts").fetchone()[0] >= stored > 0
        statuses = [s for (s,) in con.execute("select status from scans order by id")]
    finally:
        con.close()
    assert statuses[-1] == "ok" and all(s in ("failed", "interrupted", "ok") for s in statuses[:-1]), statuses
