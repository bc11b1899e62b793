"""`daoyan cards GAME [--day N] [--json]`: the card ledger (lurking, accepted flags, the game file's cards)."""
from __future__ import annotations

import click
from rich.console import Console

from ..analysis import analyze_day
from ..ownership import scanned_days
from ..store import sync_cards
from ..views import cards_view
from ._common import echo_json, json_option, open_game, warn_stale


def _last_scanned(g, store) -> int:  # type: ignore[no-untyped-def]
    """The last day scanned (a later day may not have begun): the first day when none was, which says so."""
    done = scanned_days(store, g)
    return done[-1] if done else g.days[0].number


@click.command("cards")
@click.argument("game", type=click.Path(dir_okay=False))
@click.option("--day", "day", type=int, default=None, help="Up to this day (default: the last day).")
@json_option
def command(game: str, day: int | None, as_json: bool) -> None:
    """Every card so far, with its reason and floor; 3 blue make a yellow, 3 yellow a red."""
    g, store = open_game(game)
    with store:
        a = analyze_day(g, store, day or _last_scanned(g, store), flags=False)
        sync_cards(store, a.card_entries)
    data = a.cards_json()
    warn_stale(a)  # lurking cards rest on post counts the store may not have in full, under the roster's names
    if a.count_warnings:
        data["warnings"] = a.count_warnings
    if as_json:
        echo_json(data)
    else:
        Console().print(cards_view(data))
