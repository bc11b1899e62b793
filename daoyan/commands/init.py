"""`daoyan init URL`: write (or bring up to date) a game file from the forum's threads."""
from __future__ import annotations

import os
from pathlib import Path

import click

from gamedef.errors import DaoyanError

from ..init import init_game


@click.command("init")
@click.argument("url")
@click.option("--tag", default=None, help="The game's subject tag, like [M84] (default: from the thread or the board).")
@click.option("--out", "out", type=click.Path(dir_okay=False), default="game.toml", show_default=True,
              help="The game file to write; if it exists, new days and suggestions are added and your edits kept.")
@click.option("--user", default=None, help="Log in as this user (the password in the environment variable "
                                           "DAOYAN_PASSWORD); default: $DAOYAN_USER, else a guest.")
@click.option("--timezone", default="Asia/Shanghai", show_default=True, help="The forum's display time zone.")
def command(url: str, tag: str | None, out: str, user: str | None, timezone: str) -> None:
    """Find the game's threads on the forum and write a game file with every value's source."""
    user = user or os.environ.get("DAOYAN_USER") or None
    password = os.environ.get("DAOYAN_PASSWORD") or None
    if user and not password:
        raise DaoyanError("--user given but DAOYAN_PASSWORD is not set (the password is read only from there)")
    r = init_game(url, Path(out), tag=tag, timezone=timezone, user=user, password=password)
    verb = "wrote" if r.created else "updated"
    click.echo(f"{verb} {r.path}: " + (", ".join(r.said) if r.said else "nothing new"))
    click.echo(f"ruleset: {r.ruleset}" + (f" (written to {r.ruleset_file})" if r.ruleset_file else ""))
    for n in r.notes:
        click.echo(f"note: {n}")
    if r.suggestions:
        click.echo(f"{r.suggestions} announced event(s) suggested as comments in {r.path}: check and un-comment them")
    click.echo("check the players and any closing time marked GUESS before `daoyan scan`")
