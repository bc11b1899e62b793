"""Run the desk with uvicorn on a socket bound here first, so the address is known (and a port in
use is one clear message) before anything is printed or a browser opened."""
from __future__ import annotations

import ipaddress
import socket
import threading
from pathlib import Path
from typing import Any

import uvicorn

from gamedef.errors import DaoyanError
from .app import create_app


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as e:
        sock.close()
        raise DaoyanError(f"cannot listen on {host}:{port}: {e.strerror or e}; try another --port") from None
    sock.listen(64)
    sock.set_inheritable(True)
    return sock


class DeskServer:
    """The desk for one game on host:port (port 0: any free one); `url` carries this start's token.

    `with DeskServer(path) as s:` serves from a thread (tests); `s.serve_forever()` in the foreground."""

    def __init__(self, game_path: str | Path, *, host: str = "127.0.0.1", port: int = 0, who: str | None = None):
        self.host = host
        self.sock = bind(host, port)
        self.port = self.sock.getsockname()[1]
        shown = f"[{host}]" if ":" in host else host
        allowed = None
        if is_loopback(host):
            names = {shown.lower(), "localhost"} | ({"127.0.0.1"} if host == "localhost" else set())
            allowed = {f"{n}:{self.port}" for n in names} | (names if self.port == 80 else set())
        self.app = create_app(game_path, who=who, allowed_hosts=allowed)
        self.token = self.app.desk.token
        self.url = f"http://{shown}:{self.port}/{self.token}/"
        config = uvicorn.Config(self.app, log_level="warning", access_log=False, lifespan="off")
        self.server = uvicorn.Server(config)
        self._thread: threading.Thread | None = None

    def serve_forever(self) -> None:
        self.server.run(sockets=[self.sock])

    def __enter__(self) -> "DeskServer":
        self._thread = threading.Thread(target=self.serve_forever, name="daoyan-desk", daemon=True)
        self._thread.start()
        for _ in range(200):
            if self.server.started:
                break
            self._thread.join(0.05)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        if self._thread:
            self._thread.join(10)
        self.sock.close()
