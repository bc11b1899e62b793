"""`daoyan scan GAME`: fetch every configured thread into the game's store, incrementally."""
from __future__ import annotations

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from gamedef.gamefile import load_game
from ..scan import ScanIncomplete, ThreadScan, scan_game, stored_lines


@click.command("scan")
@click.argument("game", type=click.Path(dir_okay=False))
@click.option("--full", is_flag=True, help="Read every page again (finds edits without the mobile API).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def command(game: str, full: bool, quiet: bool) -> None:
    """Fetch the game's threads into its SQLite store (only what can have changed)."""
    g = load_game(game)
    console = Console(stderr=True)
    live = not quiet and console.is_terminal
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("pages"), console=console, disable=not live, transient=True) as bar:
        tasks: dict[str, int] = {}

        def progress(label: str, done: int, total: int) -> None:
            key = " ".join(label.split()[:2])  # "tid N": the subject joins the label once read
            if key not in tasks:
                tasks[key] = bar.add_task(label, total=total)
            bar.update(tasks[key], description=label, completed=done, total=total)

        def waiting(message: str) -> None:
            if not quiet:
                console.print(message, markup=False, highlight=False)

        def thread_done(t: ThreadScan) -> None:
            key = f"tid {t.tid}"
            if key in tasks:
                done = bar.tasks[tasks[key]].completed  # pages read again to fill a gap add to both
                bar.update(tasks[key], description=f"tid {t.tid} {t.subject} ({t.requests} requests)",
                           total=done)
            if not quiet and not live:
                # a log, a pipe, cron: one line per thread instead of bars
                click.echo(f"scanned tid {t.tid} {t.subject}: {t.pages} pages, {t.requests} requests", err=True)

        try:
            result = scan_game(g, full=full, progress=progress, on_thread=thread_done, waiting=waiting)
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
