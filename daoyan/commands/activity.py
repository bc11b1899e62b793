"""`daoyan activity GAME --day N [--json]`: posts per player and lurking penalties."""
from __future__ import annotations

import click
from rich.console import Console

from ..analysis import analyze_day
from ..views import activity_view
from ._common import at_option, day_option, echo_json, json_option, open_game, parse_at


@click.command("activity")
@click.argument("game", type=click.Path(dir_okay=False))
@day_option
@at_option
@json_option
def command(game: str, day: int, at: str | None, as_json: bool) -> None:
    """Posts per player in the day's window, and the lurking (潜水) cards they earn."""
    g, store = open_game(game)
    with store:
        a = analyze_day(g, store, day, parse_at(g, at), flags=False)
    if as_json:
        echo_json(a.activity_json())
    else:
        Console().print(activity_view(a))
