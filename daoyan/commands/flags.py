"""`daoyan flags GAME --day N`, `daoyan flags accept ID [--card C]`, `daoyan flags dismiss ID`.

The review of flags: list them with ids, then record a decision (with the director's note).
Accepted flags become cards in the ledger; a re-scan never resets a decision. The game file is
the GAME argument, or `--game`, or `$DAOYAN_GAME`, or `./game.toml`.
"""
from __future__ import annotations

import os

import click
from rich.console import Console

from ..analysis import day_flags
from gamedef.errors import DaoyanError
from ..store import decide_flag
from ..views import flags_view
from ._common import echo_json, open_game


@click.command("flags")
@click.argument("args", nargs=-1)
@click.option("--day", "day", type=int, default=None, help="The day whose flags to list.")
@click.option("--game", "game_opt", default=None, help="The game file (for accept/dismiss).")
@click.option("--card", default=None, help="accept: the card to give (default: the suggested one).")
@click.option("--note", default=None, help="The director's note on the decision.")
@click.option("--json", "as_json", is_flag=True)
def command(args: tuple[str, ...], day: int | None, game_opt: str | None, card: str | None, note: str | None,
            as_json: bool) -> None:
    """List flags for review, or accept / dismiss one by its id."""
    args = list(args)
    action = None
    if args and args[0] in ("accept", "dismiss", "reopen"):
        action = args.pop(0)
    elif len(args) >= 2 and args[1] in ("accept", "dismiss", "reopen"):
        action = args.pop(1)
    if action is None:
        if len(args) != 1 or day is None:
            raise DaoyanError("usage: daoyan flags GAME --day N | daoyan flags accept|dismiss ID [--card C] [--note N]")
        g, store = open_game(args[0])
        with store:
            flags = day_flags(g, store, day)
        echo_json({"day": day, "flags": flags}) if as_json else Console().print(flags_view(day, flags))
        return
    game = game_opt or (args.pop(0) if len(args) == 2 else None) or os.environ.get("DAOYAN_GAME") or "game.toml"
    if len(args) != 1:
        raise DaoyanError(f"usage: daoyan flags {action} ID [--card C] [--note N] [--game GAME]")
    fid = args[0]
    g, store = open_game(game)
    with store:
        for d in g.days:
            if day is not None and d.number != day:
                continue
            hit = next((f for f in day_flags(g, store, d.number) if f["id"] == fid), None)
            if hit is None:
                continue
            state = {"accept": "accepted", "dismiss": "dismissed", "reopen": "open"}[action]
            chosen = (card or hit.get("suggested_card")) if state == "accepted" else None
            if chosen and chosen not in g.ruleset.cards.colors:
                raise DaoyanError(f"--card: {chosen!r} is not a card of this ruleset ({', '.join(g.ruleset.cards.colors)})")
            decide_flag(store, fid, day=d.number, pid=int(hit["pid"]), category=hit["category"], state=state,
                        card=chosen, note=note)
            click.echo(f"{fid}: {state}" + (f" ({chosen})" if chosen else "") + f" — {hit['author']} #{hit['floor']}")
            return
    raise DaoyanError(f"no flag {fid!r} in {game}" + (f" on day {day}" if day else "") + "; list them with `daoyan flags GAME --day N`")
