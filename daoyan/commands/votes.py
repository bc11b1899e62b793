"""`daoyan votes GAME --day N [--json]`: the vote count."""
from __future__ import annotations

import click

from ..views import votes_view
from ._common import at_option, day_option, json_option, show_day


@click.command("votes")
@click.argument("game", type=click.Path(dir_okay=False))
@day_option
@at_option
@json_option
def command(game: str, day: int, at: str | None, as_json: bool) -> None:
    """Who voted for whom, which ballots count, and who goes out."""
    show_day(game, day, at, as_json, lambda a: a.votes_json(), votes_view)
