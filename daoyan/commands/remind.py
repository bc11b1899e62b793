"""`daoyan remind GAME --day N [--at TIME] [--json] [--bbcode]`: who still has to act before close."""
from __future__ import annotations

import click

from ..analysis import analyze_day
from ..bbcode import escape_bbcode
from ._common import day_option, echo_json, json_option, open_game, parse_at, warn_stale
from engine.remind import reminder_bbcode


@click.command("remind")
@click.argument("game", type=click.Path(dir_okay=False))
@day_option
@click.option("--at", "at", default=None, help="As of this local time (default: now).")
@json_option
@click.option("--bbcode", is_flag=True, help="Print a reminder post (催票/催帖) ready to paste.")
def command(game: str, day: int, at: str | None, as_json: bool, bbcode: bool) -> None:
    """Who has no ballot yet, who is short of posts, and how long until the lock and the close."""
    g, store = open_game(game)
    moment = parse_at(g, at) or g.now()
    with store:
        a = analyze_day(g, store, day, moment, flags=False)
    r = a.reminder()
    warn_stale(a)
    if as_json:
        # a script reading the JSON must see that the lists may miss the latest posts
        echo_json({**r.to_json(), "seen_until": a.seen_until.isoformat() if a.seen_until else None,
                   "warnings": a.count_warnings})
    elif bbcode:
        click.echo(reminder_bbcode(r, escape_bbcode), nl=False)
    else:
        click.echo(reminder_bbcode(r).replace("[b]", "").replace("[/b]", ""), nl=False)
