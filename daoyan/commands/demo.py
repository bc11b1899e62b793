"""`daoyan demo`: the built-in demo forum on loopback, a sample game scanned, the day's report printed."""
from __future__ import annotations

import time
from pathlib import Path

import click
from rich.console import Console

from ..analysis import analyze_day
from gamedef.gamefile import load_game
from ..reporting import write_day_reports
from ..scan import scan_game
from ..store import Store
from ..views import activity_view, flags_view, votes_view


@click.command("demo")
@click.option("--out", "out", type=click.Path(file_okay=False), default="daoyan-demo",
              help="Where the game file, store and reports go (default: ./daoyan-demo).")
@click.option("--serve", is_flag=True, help="Keep the demo forum running afterwards (Ctrl-C stops it).")
def command(out: str, serve: bool) -> None:
    """Start the demo forum, scan its sample game, and show what daoyan reads."""
    from ..demo.gamefile import write_game_file
    from ..demo.server import DemoForum

    console = Console()
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    with DemoForum() as forum:
        path = write_game_file(folder / "game.toml", forum.base_url)
        game = load_game(path)
        if game.store_path.exists():
            for suffix in ("", "-wal", "-shm"):
                Path(str(game.store_path) + suffix).unlink(missing_ok=True)
        console.print(f"[bold]daoyan demo[/bold]: demo forum at {forum.base_url} — game file {path}")
        result = scan_game(game)
        console.print(f"scanned {sum(t.posts for t in result.threads)} floors of {len(result.threads)} threads "
                      f"in {result.requests} requests")
        with Store(game.store_path) as store:
            for d in game.days:
                a = analyze_day(game, store, d.number)
                console.rule(f"第{d.number}天 day {d.number}")
                console.print(votes_view(a))
                console.print(activity_view(a))
                console.print(flags_view(d.number, a.flags))
                paths = write_day_reports(game, store, d.number, folder / "reports")
                console.print("reports: " + ", ".join(str(p) for p in paths.values()))
        console.print(f"\nTry: daoyan votes {path} --day 1   ·   daoyan check {path} --day 2 --json   ·   "
                      f"daoyan report {path} --day 1")
        if serve:
            console.print(f"The demo forum keeps running at {forum.base_url} (Ctrl-C stops it).")
            try:
                while True:
                    time.sleep(3600)
            except KeyboardInterrupt:
                pass
