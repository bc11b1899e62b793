"""`daoyan report GAME --day N [--out DIR]`: the announcement (BBCode), the review page (HTML), the data (JSON)."""
from __future__ import annotations

from pathlib import Path

import click

from ..reporting import write_day_reports
from ._common import at_option, day_option, open_game, parse_at


@click.command("report")
@click.argument("game", type=click.Path(dir_okay=False))
@day_option
@at_option
@click.option("--out", "out", type=click.Path(file_okay=False), default=None,
              help="Folder for the files (default: reports/ beside the game file).")
def command(game: str, day: int, at: str | None, out: str | None) -> None:
    """Write dayN.bbcode.txt, dayN.html and dayN.json."""
    g, store = open_game(game)
    with store:
        paths = write_day_reports(g, store, day, Path(out) if out else g.path.parent / "reports", parse_at(g, at))
    for kind, p in paths.items():
        click.echo(f"{kind}: {p}")
