"""`daoyan scan GAME`: fetch every configured thread into the game's store, incrementally."""
from __future__ import annotations

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from ..gamefile import load_game
from ..scan import ScanIncomplete, scan_game, stored_lines


@click.command("scan")
@click.argument("game", type=click.Path(dir_okay=False))
@click.option("--full", is_flag=True, help="Read every page again (finds edits without the mobile API).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def command(game: str, full: bool, quiet: bool) -> None:
    """Fetch the game's threads into its SQLite store (only what can have changed)."""
    g = load_game(game)
    console = Console(stderr=True)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), console=console,
                  disable=quiet or not console.is_terminal, transient=True) as bar:
        tasks: dict[str, int] = {}

        def progress(label: str, done: int, total: int) -> None:
            if label not in tasks:
                tasks[label] = bar.add_task(label, total=total)
            bar.update(tasks[label], completed=done, total=total)

        try:
            result = scan_game(g, full=full, progress=progress)
        except ScanIncomplete as e:
            bar.stop()
            for line in stored_lines(e.result):
                click.echo(line)
            for w in e.result.warnings:
                click.echo(f"note: {w}", err=True)
            click.echo(f"{e.result.requests} requests; stored the threads above in {g.store_path}")
            raise
    for line in stored_lines(result):
        click.echo(line)
    for w in result.warnings:
        click.echo(f"note: {w}", err=True)
    if result.session:
        click.echo(f"session: {'saved session reused' if result.session == 'reused' else 'logged in'}")
    click.echo(f"{result.requests} requests; store: {g.store_path}")
