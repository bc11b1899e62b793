"""`daoyan activity GAME --day N [--json]`: posts per player and lurking penalties."""
from __future__ import annotations

import click

from ..views import activity_view
from ._common import at_option, day_option, json_option, show_day


@click.command("activity")
@click.argument("game", type=click.Path(dir_okay=False))
@day_option
@at_option
@json_option
def command(game: str, day: int, at: str | None, as_json: bool) -> None:
    """Posts per player in the day's window, and the lurking (潜水) cards they earn."""
    show_day(game, day, at, as_json, lambda a: a.activity_json(), activity_view)
