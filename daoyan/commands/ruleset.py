"""`daoyan ruleset derive SOURCE`: a rule post (a text file, or a scanned game's rules thread) to a
ruleset TOML, every field with the sentence it came from."""
from __future__ import annotations

import tomllib
from pathlib import Path

import click

from gamedef.errors import DaoyanError, RulesetError, StoreError
from gamedef.ruleset import PRESETS
from gamedef.textfile import read_utf8

from ..derive import derive, rules_thread_floors, rules_thread_tid, to_json, to_toml, validated
from ._common import echo_json


def _is_game_file(path: Path, text: str) -> bool:
    if path.suffix.lower() != ".toml":
        return False
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return False
    return "game" in data and "forum" in data


def read_source(source: str) -> tuple[list[str] | str, str | None]:
    """The rule post's text (or floors) and its title, from a text file or a scanned game."""
    path = Path(source)
    if not path.is_file():
        raise DaoyanError(f"{source}: no such file (expected a rule post as text, or a game file)")
    text = read_utf8(path, lambda reason: DaoyanError(f"{source}: {reason}"))
    if not _is_game_file(path, text):
        if not text.strip():
            raise DaoyanError(f"{source}: the file is empty (expected a rule post)")
        return text, None
    from gamedef.gamefile import load_game
    from ..store import Store

    game = load_game(path)
    if not game.store_path.exists():
        raise StoreError(f"{game.store_path}: no store yet; run `daoyan scan {source}` first (it reads the rules thread)")
    with Store(game.store_path) as store:
        tid = rules_thread_tid(game, store)
        if tid is None:
            raise DaoyanError(f"{source}: the scan found no rules thread; set game.rules_tid and scan again")
        subject, floors = rules_thread_floors(store, tid, game.directors)
    if not floors:
        raise DaoyanError(f"{source}: the rules thread (tid {tid}) has no stored floors; run `daoyan scan {source}`")
    return floors, subject or None


@click.group("ruleset")
def command() -> None:
    """Rulesets: derive one from a game's rule post."""


@command.command("derive")
@click.argument("source", type=click.Path(dir_okay=False))
@click.option("--base", default=None, help=f"Preset ({', '.join(PRESETS)}) or ruleset TOML for what the post "
                                            "does not settle (default: the preset nearest the post).")
@click.option("--out", "out", type=click.Path(dir_okay=False), default=None, help="Write the TOML here (default: print it).")
@click.option("--json", "as_json", is_flag=True, help="Print every field with its value and source sentence as JSON.")
def derive_command(source: str, base: str | None, out: str | None, as_json: bool) -> None:
    """Read a rule post (text file, or a game file whose rules thread is scanned) into a ruleset TOML."""
    text, title = read_source(source)
    d = derive(text, base, title=title)
    try:
        validated(d)
    except RulesetError as e:  # what we would write does not load: say so, write nothing
        raise DaoyanError(f"the derived ruleset does not load ({e}); nothing written") from None
    toml_text = to_toml(d)
    if out:
        try:
            Path(out).write_text(toml_text, "utf-8")
        except OSError as e:
            raise DaoyanError(f"{out}: cannot write: {e.strerror}") from None
    if as_json:
        echo_json(to_json(d))
    elif out:
        n = sum(1 for f in d.sources.values() if f.how in ("text", "inferred"))
        click.echo(f"wrote {out}: {n} fields read from the post, the rest from {d.base}")
    else:
        click.echo(toml_text, nl=False)
