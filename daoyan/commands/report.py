"""`daoyan report GAME --day N [--out DIR]`: the announcement (BBCode), the review page (HTML), the data (JSON)."""
from __future__ import annotations

from pathlib import Path

import click

from ..analysis import analyze_day
from ..reporting import write_analysis_reports
from ._common import at_option, day_option, open_game, parse_at, warn_stale


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
        a = analyze_day(g, store, day, parse_at(g, at))
        paths = write_analysis_reports(a, store, Path(out) if out else g.path.parent / "reports")
    warn_stale(a)  # the announcement says 暂时结果; the director is told why before pasting it
    for kind, p in paths.items():
        click.echo(f"{kind}: {p}")
