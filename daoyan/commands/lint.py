"""`daoyan lint --ruleset R [--whistled]`: JSON Lines in (stdin), JSON Lines out (stdout)."""
from __future__ import annotations

import gc
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
    from moderation.startup_cache import paused_gc

    # The cyclic collector stays paused over the whole stream, with one full pass every
    # COLLECT_EVERY chunks: a checked chunk makes no cycles (a run over 17,000 posts leaves a
    # dozen unreachable objects, the same as over 2,000), but switched back on after each chunk
    # the collector walked that chunk's surviving results straight away, some 2 % of a run.
    with paused_gc():
        for n, block in enumerate(lint_chunks(infile, rs, whistled=whistled), 1):
            sys.stdout.write("\n".join(block) + "\n")
            if n % COLLECT_EVERY == 0:
                gc.collect()


COLLECT_EVERY = 8  # chunks of up to 4,096 posts
