"""`daoyan serve GAME [--port N] [--host H] [--no-browser] [--as NAME]`: the review desk in a browser."""
from __future__ import annotations

import threading
import webbrowser

import click

from gamedef.errors import StoreError
from gamedef.gamefile import load_game


@click.command("serve")
@click.argument("game", type=click.Path(dir_okay=False))
@click.option("--port", type=int, default=8024, show_default=True, help="The port (0: any free one).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on; anything but loopback lets other machines in (with the token).")
@click.option("--no-browser", is_flag=True, help="Do not open the desk in a browser.")
@click.option("--as", "who", default=None, help="Your name in the action log (default: the game's first director).")
def command(game: str, port: int, host: str, no_browser: bool, who: str | None) -> None:
    """Review a day in the browser: count, flags, cards, events, announcement — saved in the store."""
    from ..desk.server import DeskServer, is_loopback

    g = load_game(game)  # a broken game file is one clear message before anything listens
    if not g.store_path.exists():
        raise StoreError(f"{g.store_path}: no store yet; run `daoyan scan {game}` first")
    desk = DeskServer(game, host=host, port=port, who=who)
    where = ("only this machine can connect (loopback)" if is_loopback(host)
             else "WARNING: other machines can connect; anyone with the address (it holds the token) can act")
    click.echo(f"daoyan desk: listening on {host}:{desk.port} — {where}")
    click.echo(f"open: {desk.url}")
    click.echo("Ctrl-C stops it; every action is already saved in the store.")
    if not no_browser:
        threading.Timer(0.5, webbrowser.open, [desk.url]).start()
    desk.serve_forever()
