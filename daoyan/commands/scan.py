"""`daoyan scan GAME`: fetch every configured thread into the game's store, incrementally."""
from __future__ import annotations

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from gamedef.gamefile import load_game
from ..scan import scan_game


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

        def waiting(message: str) -> None:
            if not quiet:
                console.print(message, markup=False, highlight=False)

        result = scan_game(g, full=full, progress=progress, waiting=waiting)
    for t in result.threads:
        click.echo(f"tid {t.tid} {t.subject}: {t.posts} floors on {t.pages} pages"
                   f" ({t.new} new, {t.changed} changed{', ' + str(t.gone) + ' gone' if t.gone else ''})"
                   f"{' [API]' if t.api else ''}")
    click.echo(f"{result.requests} requests; store: {g.store_path}")
    _warn_rules(g)


def _warn_rules(g) -> None:  # type: ignore[no-untyped-def]
    """Field by field, where the game's ruleset says something else than its scanned rules thread."""
    from ..derive import rules_thread_warnings
    from ..store import Store

    with Store(g.store_path) as store:
        tid, found = rules_thread_warnings(g, store)
    for d in found:
        click.echo(f"warning: ruleset {g.ruleset.name} vs rules thread {tid}: {d.message()}", err=True)
    if found:
        click.echo(f"warning: {len(found)} rule(s) of the rules thread differ from the game's ruleset; "
                   f"check them, or use `daoyan ruleset derive {g.path}`", err=True)
