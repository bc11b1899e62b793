"""`daoyan votes GAME --day N [--json]`: the vote count."""
from __future__ import annotations

import click
from rich.console import Console

from ..analysis import analyze_day
from ..views import votes_view
from ._common import at_option, day_option, echo_json, json_option, open_game, parse_at


@click.command("votes")
@click.argument("game", type=click.Path(dir_okay=False))
@day_option
@at_option
@json_option
def command(game: str, day: int, at: str | None, as_json: bool) -> None:
    """Who voted for whom, which ballots count, and who goes out."""
    g, store = open_game(game)
    with store:
        a = analyze_day(g, store, day, parse_at(g, at), flags=False)
    if as_json:
        echo_json(a.votes_json())
    else:
        Console().print(votes_view(a))
