"""`daoyan check GAME --day N [--json]`: flagged posts for review."""
from __future__ import annotations

import click
from rich.console import Console

from ..analysis import day_flags
from ..views import flags_view
from ._common import check_day, day_option, echo_json, json_option, open_game


@click.command("check")
@click.argument("game", type=click.Path(dir_okay=False))
@day_option
@json_option
def command(game: str, day: int, as_json: bool) -> None:
    """Posts of the day's threads that may break the speech rules — suggestions for review."""
    g, store = open_game(game)
    check_day(g, day)
    with store:
        flags = day_flags(g, store, day)
    if as_json:
        echo_json({"day": day, "flags": flags})
    else:
        Console().print(flags_view(day, flags))
