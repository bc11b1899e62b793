"""The `daoyan` command: parse arguments, call one library function, print.

Every `DaoyanError` (a broken game file, a strange page, a forum that refuses) becomes one clear
message on stderr and exit status 2, never a traceback.
"""
from __future__ import annotations

import importlib
import sqlite3
import sys

import click

from . import __version__
from gamedef.errors import DaoyanError, environment_error

COMMANDS = ("scan", "votes", "activity", "check", "lint", "report", "flags", "cards", "watch", "remind", "demo",
            "serve", "init", "ruleset")


class _Group(click.Group):
    """Commands are imported when run (or listed by --help): `daoyan lint` need not load the scraper."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        return importlib.import_module(f"daoyan.commands.{cmd_name}").command

    def invoke(self, ctx: click.Context):  # type: ignore[override]
        try:
            return super().invoke(ctx)
        except DaoyanError as e:
            click.echo(f"daoyan: {e}", err=True)
            ctx.exit(e.exit_code)
        except (OSError, sqlite3.Error, MemoryError) as e:  # a full or read-only disk, a store gone bad
            click.echo(f"daoyan: {environment_error(e)}", err=True)
            ctx.exit(2)
        except KeyboardInterrupt:
            click.echo("daoyan: stopped", err=True)
            ctx.exit(130)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="daoyan")
def cli() -> None:
    """导演: reads a Discuz! forum game for its director — votes, activity, speech, reports."""


def main() -> None:
    cli(prog_name="daoyan")


if __name__ == "__main__":
    main()
    sys.exit(0)
