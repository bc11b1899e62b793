"""`daoyan watch GAME --day N [--every 10m]`: re-scan until the day closes, print what changed."""
from __future__ import annotations

import re
import time
from datetime import datetime
from pathlib import Path

import click

from ..analysis import analyze_day
from gamedef.errors import DaoyanError, ForumError, LoginFailed
from ..reporting import day_dict, write_analysis_reports
from ..scan import ScanIncomplete, scan_game, stored_lines
from ..records import with_records
from ..store import Store
from ..watching import changes, summary
from ._common import day_option
from gamedef.gamefile import load_game


def _newest_post(store: Store, tids) -> "datetime | None":
    """When the newest stored post of these threads was posted (the forum's clock)."""
    marks = ", ".join("?" for _ in tids)
    rows = store.db.execute(f"select posted_at from posts where tid in ({marks}) and posted_at is not null "
                            "and gone_at is null", list(tids)).fetchall()
    times = [datetime.fromisoformat(r[0]) for r in rows]
    return max(times, default=None)


def parse_every(s: str) -> float:
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smh]?)\s*", s)
    if not m:
        raise DaoyanError(f"--every: expected a period like 30s, 10m or 1h, got {s!r}")
    return float(m.group(1)) * {"": 60, "s": 1, "m": 60, "h": 3600}[m.group(2)]


@click.command("watch")
@click.argument("game", type=click.Path(dir_okay=False))
@day_option
@click.option("--every", default="10m", help="How often to re-scan (30s, 10m, 1h).")
@click.option("--out", "out", type=click.Path(file_okay=False), default=None, help="Where the reports are rewritten.")
@click.option("--rounds", type=int, default=None, help="Stop after this many rounds (default: at the close).")
def command(game: str, day: int, every: str, out: str | None, rounds: int | None) -> None:
    """Scan incrementally until the day closes; print only what changed; rewrite the reports each round."""
    period = parse_every(every)
    g = load_game(game)
    d = g.day(day)
    folder = Path(out) if out else g.path.parent / "reports"
    prev = None
    n = 0
    failed: list[int] = []
    last_error = ""
    try:
        while True:
            n += 1
            stored: list[str] = []
            try:
                res = scan_game(g)
                scanned = f"{res.new} new, {res.changed} changed floors ({res.requests} requests)"
                stored = [f"note: {w}" for w in res.warnings]
            except LoginFailed:
                raise  # a refused password is never sent again: five lock the forum for 15 minutes
            except ForumError as e:  # a bad round is reported; the next round tries again
                failed.append(n)
                last_error = str(e)
                scanned = f"SCAN FAILED this round: {e}"
                click.echo(f"daoyan watch: round {n}: scan failed: {e}", err=True)
                if isinstance(e, ScanIncomplete):
                    stored = stored_lines(e.result)
            now = g.now()
            with Store(g.store_path) as store:
                # the count is as of everything this scan brought in: a ballot that landed during
                # the scan, or stamped by a forum clock ahead of this machine's, is reported in
                # this round, not the next; the close still cuts off
                at = min(max(now, _newest_post(store, d.tids.values()) or now), d.closes)
                gr = with_records(g, store)
                a = analyze_day(gr, store, day, at)
                cur = day_dict(a, remind=True)
                write_analysis_reports(a, store, folder, remind=True)
            click.echo(f"[{now:%H:%M:%S}] round {n}: {scanned}")
            for line in stored:
                click.echo("  " + (line if line.startswith("note: ") else "stored: " + line))
            for w in a.stale:  # this round's counts may miss posts the forum already showed
                click.echo("  注意 warning: " + w["message"])
            for line in changes(prev, cur):
                click.echo("  " + line)
            click.echo("  " + summary(cur))
            prev = cur
            if (rounds is not None and n >= rounds) or g.now() >= d.closes:
                click.echo("day closed: final count written" if g.now() >= d.closes else "done")
                break
            time.sleep(max(0.0, min(period, (d.closes - g.now()).total_seconds() + 1)))
    except KeyboardInterrupt:
        click.echo("watch stopped; the store and the last reports are intact")
    if failed:
        rounds_s = ", ".join(map(str, failed))
        raise ForumError(f"{len(failed)} of {n} watch round(s) failed to scan (round {rounds_s}); "
                         f"the counts of those rounds come from what was stored before. Last error: {last_error}")
