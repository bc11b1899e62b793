"""What the day commands share: load the game and its store, parse --at, print JSON."""
from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import click

from gamedef.errors import DaoyanError, GameFileError, StoreError
from gamedef.gamefile import Game, load_game
from ..records import with_records
from ..ownership import check_owner
from ..store import Store


def open_game(path: str) -> tuple[Game, Store]:
    """The game file and its store; the events and cards recorded in the store (at the desk) join the
    game file's, so every command sees what the desk sees."""
    game = load_game(path)
    if not game.store_path.exists():
        raise StoreError(f"{game.store_path}: no store yet; run `daoyan scan {path}` first")
    store = Store(game.store_path)
    try:
        check_owner(store, game)
    except BaseException:
        store.close()
        raise
    return with_records(game, store), store


def parse_at(game: Game, at: str | None) -> datetime | None:
    """`--at 2026-11-27T21:30` (or with a space, or `now`) in the game's time zone."""
    if at is None:
        return None
    if at.strip().lower() == "now":
        return game.now()
    try:
        t = datetime.fromisoformat(at.strip().replace(" ", "T"))
    except ValueError:
        raise DaoyanError(f"--at: expected a local time like 2026-11-27T21:30, got {at!r}") from None
    if not 2000 <= t.year <= 2200:
        raise DaoyanError(f"--at: expected a time between the years 2000 and 2200, got {at!r}")
    return t.replace(tzinfo=game.timezone) if t.tzinfo is None else t.astimezone(game.timezone)


def check_day(game: Game, day: int) -> None:
    game.day(day)  # raises a GameFileError naming the known days


def echo_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2, default=str))


day_option = click.option("--day", "day", type=int, required=True, help="The game day (1, 2, …).")
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON (the shape in DESIGN.md).")
at_option = click.option("--at", "at", default=None, help="Count as of this local time (default: the day's close).")
__all__ = ["open_game", "parse_at", "check_day", "echo_json", "day_option", "json_option", "at_option", "GameFileError",
           "warn_stale"]


def warn_stale(a: Any) -> None:
    """The day's `stale_scan` warnings on stderr, for commands whose stdout is a count, a file list
    or a post to paste: whoever reads it must know the count may miss the forum's latest posts, or
    count a player's posts under a name the roster does not know (`unknown_account`)."""
    for w in getattr(a, "count_warnings", a.stale):
        click.echo(f"daoyan: warning: {w['message']}", err=True)


def show_day(game_path: str, day: int, at: str | None, as_json: bool, to_json, view) -> None:  # type: ignore[no-untyped-def]
    """The shape of `votes` and `activity`: the day's analysis (no speech flags), as JSON or a view."""
    from rich.console import Console

    from ..analysis import analyze_day

    g, store = open_game(game_path)
    with store:
        a = analyze_day(g, store, day, parse_at(g, at), flags=False)
    if as_json:
        echo_json(to_json(a))
    else:
        Console().print(view(a))
