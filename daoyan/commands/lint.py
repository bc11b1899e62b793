"""`daoyan lint --ruleset R [--whistled]`: JSON Lines in (stdin), JSON Lines out (stdout)."""
from __future__ import annotations

import sys

import click

from ..linting import check_ruleset, lint_chunks


@click.command("lint")
@click.option("--ruleset", "ruleset", required=True, help="A preset (m84, 004) or a ruleset TOML.")
@click.option("--whistled", is_flag=True, help="Treat every post as by a whistled (黑哨) player unless it says otherwise.")
@click.argument("infile", type=click.File("rb"), default="-")
def command(ruleset: str, whistled: bool, infile) -> None:  # type: ignore[no-untyped-def]
    """Check loose posts: lines like {"id": "x1", "text": "…", "whistled": false} (or "html")."""
    rs = check_ruleset(ruleset)
    for block in lint_chunks(infile, rs, whistled=whistled):
        sys.stdout.write("\n".join(block) + "\n")
