"""Shared by the desk's tests: the demo game scanned once from a running demo forum, and a fresh
copy of its game file and store for each test (the forum keeps running, so a rescan works)."""
from __future__ import annotations

import html
import json
import shutil
from pathlib import Path
from typing import Iterator

import pytest
from click.testing import CliRunner

from daoyan.cli import cli
from daoyan.demo import DemoForum
from gamedef.gamefile import load_game
from daoyan.scan import scan_game

from .reliability_support import NOW, fast_game
from .test_hostile_content import INSULT, RAW_HTML, REASON, TARGET, at


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The demo game with the hostile posts of test_hostile_content added, scanned; the forum runs on."""
    folder = tmp_path_factory.mktemp("desk")
    with DemoForum(now=NOW) as forum:
        forum.add_post(31, "青梅", html.escape(INSULT) + "<br />\n" + RAW_HTML, at(13, 21, 40))
        forum.add_post(32, "惊蛰", f"投票对象：{html.escape(TARGET)}<br />\n投票理由：{html.escape(REASON)}",
                       at(13, 12, 30))
        path = fast_game(folder, forum.base_url)
        scan_game(load_game(path))
        yield path


@pytest.fixture
def game(scanned: Path, tmp_path: Path) -> Path:
    """A private copy of the scanned game: its game file and its store."""
    for name in ("game.toml", "game.sqlite", "game.sqlite-wal"):
        if (scanned.parent / name).exists():
            shutil.copy(scanned.parent / name, tmp_path / name)
    return tmp_path / "game.toml"


def cli_json(*args: str) -> dict:
    r = CliRunner().invoke(cli, list(args))
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def tally(votes: dict) -> dict[str, tuple[float, list[str]]]:
    return {t["target"]: (float(t["weight"]), list(t["voters"])) for t in votes["tally"]}
