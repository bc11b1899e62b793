"""The review desk: a Starlette app over one game's file and store.

Safe by default: every request must carry this start's random token as the first path segment;
every action is a POST that must carry the CSRF secret (a form field or htmx's header) and come
from the desk's own origin; the Host header must be the one the desk was bound to (no DNS
rebinding); pages allow no inline script and no other origin (Content-Security-Policy), and
send no Referer, so the token never leaves in a link to the forum. Post text goes through
Jinja's autoescaping, always.
"""
from __future__ import annotations

import getpass
import logging
import re
import secrets
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Awaitable, Callable
from urllib.parse import quote

from jinja2 import Environment, FileSystemLoader
from markupsafe import Markup, escape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from gamedef.errors import DaoyanError
from gamedef.gamefile import Game
from gamedef.names import normalize_name

from .. import records
from ..analysis import day_flags, game_name, rules_subject
from ..commands._common import open_game, parse_at
from ..store import Store
from .shaping import EVENT_ZH, day_page, days_list, store_version, sync_ledger

HERE = Path(__file__).parent
log = logging.getLogger("daoyan.desk")
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
SECURITY_HEADERS = [(b"content-security-policy", CSP.encode()), (b"referrer-policy", b"no-referrer"),
                    (b"x-frame-options", b"DENY"), (b"x-content-type-options", b"nosniff"),
                    (b"cache-control", b"no-store"), (b"cross-origin-opener-policy", b"same-origin")]


@dataclass
class DeskConfig:
    game_path: Path
    token: str = field(default_factory=lambda: secrets.token_urlsafe(18))
    csrf: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    who: str = ""
    allowed_hosts: set[str] | None = None  # Host header values accepted; None: any (--host given)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def base(self) -> str:
        return "/" + self.token


class _Guard:
    """ASGI middleware: host check, token check (the token becomes the app's root path), headers."""

    def __init__(self, app: Any, cfg: DeskConfig):
        self.app, self.cfg = app, cfg
        self.desk = cfg  # what a caller (the command, a test) reads the token from

    async def __call__(self, scope: dict, receive: Callable[[], Awaitable[dict]], send: Callable) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = dict(scope.get("headers") or [])
        host = headers.get(b"host", b"").decode("latin-1").lower()
        if self.cfg.allowed_hosts is not None and host not in self.cfg.allowed_hosts:
            return await _plain(403, "daoyan desk: unknown Host header", scope, receive, send)
        path: str = scope.get("path") or "/"
        first, _, _ = path.lstrip("/").partition("/")
        if not secrets.compare_digest(first.encode(), self.cfg.token.encode()):
            return await _plain(403, "daoyan desk: open the address `daoyan serve` printed — it carries this "
                                "start's token", scope, receive, send)
        scope = dict(scope, root_path=scope.get("root_path", "") + self.cfg.base)

        async def send_with_headers(message: dict) -> None:
            if message["type"] == "http.response.start":
                message = dict(message, headers=list(message.get("headers") or []) + SECURITY_HEADERS)
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def _plain(status: int, text: str, scope: dict, receive: Any, send: Any) -> None:
    resp = PlainTextResponse(text + "\n", status_code=status,
                             headers={"referrer-policy": "no-referrer", "cache-control": "no-store"})
    await resp(scope, receive, send)


def _env() -> Environment:
    env = Environment(loader=FileSystemLoader(str(HERE / "templates")), autoescape=True,
                      trim_blocks=True, lstrip_blocks=True)
    env.filters["hm"] = lambda t: t.strftime("%m-%d %H:%M") if t else ""
    env.filters["hms"] = lambda t: t.strftime("%m-%d %H:%M:%S") if t else ""
    env.filters["num"] = lambda x: f"{x:g}" if isinstance(x, (int, float)) else x
    env.filters["iso"] = lambda t: t.isoformat(timespec="seconds") if t else ""
    env.filters["visible"] = visible
    return env


_CONTROLS = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")


def _named(game: Game, name: str) -> str:
    """The player an action was recorded for, as the notice names them: the roster name, and the alias
    it was picked by when it was one (`霜降（别名 Frost）`)."""
    player = records.roster_name(game, name)
    return player if normalize_name(name) == normalize_name(player) else f"{player}（别名 {name.strip()}）"


def visible(text: object) -> Markup:
    """Post text, escaped, with its invisible and direction-changing characters shown as marks:
    they cannot reorder the page, and the director sees the trick as evidence."""
    s = "" if text is None else str(text)
    out, pos = [], 0
    for m in _CONTROLS.finditer(s):
        out.append(str(escape(s[pos:m.start()])))
        out.append(f'<span class="ctl" title="invisible character">U+{ord(m.group()):04X}</span>')
        pos = m.end()
    out.append(str(escape(s[pos:])))
    return Markup("".join(out))


def create_app(game_path: str | Path, *, token: str | None = None, who: str | None = None,
               allowed_hosts: set[str] | None = None) -> "_Guard":
    """The desk for one game file, as an ASGI app; `token` defaults to a fresh random one (app.desk.token)."""
    cfg = DeskConfig(game_path=Path(game_path), who=who or "", allowed_hosts=allowed_hosts)
    if token:
        cfg.token = token
    env = _env()

    def load() -> tuple[Game, Store]:
        return open_game(str(cfg.game_path))  # as every command opens it: the store's records merged in

    def who_am_i(game: Game) -> str:
        if not cfg.who:
            cfg.who = game.directors[0] if game.directors else getpass.getuser()
        return cfg.who

    def render(name: str, status: int = 200, **ctx: Any) -> HTMLResponse:
        ctx.setdefault("error", None)
        ctx.setdefault("notice", None)
        html = env.get_template(name).render(base=cfg.base, csrf=cfg.csrf, who=cfg.who, **ctx)
        return HTMLResponse(html, status_code=status)

    def show_day(request: Request, day: int, at_text: str | None, *, fragment: bool, error: str | None = None,
                 notice: str | None = None, status: int = 200) -> HTMLResponse:
        game, store = load()
        with store:
            who_am_i(game)
            at = parse_at(game, at_text) if at_text else None
            i = request.query_params.get("i")
            page = day_page(game, store, day, at, now=game.now(), index=int(i) if i and i.isdigit() else None)
        return render("_day.j2" if fragment else "day.j2", status=status, error=error, notice=notice, **page)

    def index_page() -> Response:
        try:
            game, store = load()
            with store:
                who_am_i(game)
                rows = days_list(game, store, game.now())
                name = game_name(game, rules_subject(game, store))
        except DaoyanError as e:
            return render("error.j2", status=400, message=str(e))
        return render("index.j2", game=game, game_title=name, days=rows)

    async def index(request: Request) -> Response:
        return await run_in_threadpool(index_page)

    def day_page_or_error(request: Request) -> Response:
        day = int(request.path_params["day"])
        # htmx asks for the day's part only; a reload, or htmx restoring history, gets the whole page
        fragment = request.headers.get("hx-request") == "true" and "hx-history-restore-request" not in request.headers
        try:
            return show_day(request, day, _at_from(request.query_params), fragment=fragment)
        except DaoyanError as e:
            return render("_error.j2" if fragment else "error.j2", status=400, message=str(e))

    async def day_view(request: Request) -> Response:
        return await run_in_threadpool(day_page_or_error, request)

    def version_now() -> Response:
        try:
            game, store = load()
            with store:
                return PlainTextResponse(store_version(store, game))
        except DaoyanError as e:
            return PlainTextResponse(str(e), status_code=400)

    async def version(request: Request) -> Response:
        return await run_in_threadpool(version_now)

    def act(fn: Callable[[Game, Store, dict[str, str], int], str | None]) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            form = {k: str(v) for k, v in (await request.form()).items()}
            if not _csrf_ok(request, form, cfg):
                return PlainTextResponse("daoyan desk: this action lacks the page's CSRF token; reload the page\n",
                                         status_code=403)
            return await run_in_threadpool(perform, request, form)

        def perform(request: Request, form: dict[str, str]) -> Response:
            day = int(request.path_params["day"])
            at_text = _at_from(form)
            htmx = request.headers.get("hx-request") == "true"
            error = notice = None
            try:
                with cfg.lock:
                    game, store = load()
                    with store:
                        who_am_i(game)
                        game.day(day)
                        notice = fn(game, store, form, day) or None
                    game, store = load()  # the records as they are now
                    with store:
                        sync_ledger(game, store)
            except DaoyanError as e:
                error = str(e)
            except Exception as e:  # a defect must not cost the director the page: say what failed
                log.exception("desk action failed")
                error = f"内部错误 internal error ({type(e).__name__}): {e}"
            if not htmx and error is None:
                q = f"?at={quote(at_text)}" if at_text else ""
                return RedirectResponse(f"{cfg.base}/day/{day}{q}", status_code=303)
            try:
                return show_day(request, day, at_text, fragment=htmx, error=error, notice=notice,
                                status=200 if htmx or error is None else 400)
            except DaoyanError as e:
                return render("_error.j2" if htmx else "error.j2", status=400, message=str(e))
        return endpoint

    def find_flag(game: Game, store: Store, day: int, fid: str) -> dict[str, Any]:
        for f in day_flags(game, store, day):
            if f["id"] == fid:
                return dict(f, day=day)
        raise DaoyanError(f"no flag {fid!r} on day {day}")

    def flag_action(state: str) -> Callable[[Game, Store, dict[str, str], int], str]:
        def run(game: Game, store: Store, form: dict[str, str], day: int) -> str:
            fid = form.get("flag", "")
            f = find_flag(game, store, day, fid)
            records.decide(store, game, f, state, form.get("card") or None, cfg.who, form.get("note") or None)
            return f"{f['author']} #{f['floor']}：" + {"accepted": "已采纳", "dismissed": "已驳回", "open": "已重开"}[state]
        return run

    def add_card(game: Game, store: Store, form: dict[str, str], day: int) -> str:
        when = (form.get("when") or "").strip()
        records.add_card(store, game, day=day, player=form.get("player", ""), card=form.get("card", ""),
                         rule=form.get("rule", ""), reason=form.get("reason", ""), who=cfg.who,
                         at=parse_at(game, when) if when else None)
        return f"已记牌：{_named(game, form.get('player', ''))}"

    def add_event(game: Game, store: Store, form: dict[str, str], day: int) -> str:
        when = (form.get("when") or "").strip()
        at = parse_at(game, when) if when else None
        records.add_event(store, game, day=day, kind=form.get("kind", ""), player=form.get("player") or None,
                          at=at, reason=form.get("reason", ""), who=cfg.who)
        kind = form.get("kind", "")
        who = _named(game, form["player"]) if form.get("player") else ""
        return f"已记事件：{EVENT_ZH.get(kind, kind)} {who}".strip()

    def undo(game: Game, store: Store, form: dict[str, str], day: int) -> str:
        try:
            aid = int(form.get("action", ""))
        except ValueError:
            raise DaoyanError("which action to undo?") from None
        return "已撤销：" + records.undo(store, aid, cfg.who)

    def rescan(game: Game, store: Store, form: dict[str, str], day: int) -> str:
        from ..scan import scan_game

        res = scan_game(game)
        summary = f"rescan: {res.new} new, {res.changed} changed floors ({res.requests} requests)"
        records.log_only(store, cfg.who, "rescan", day, summary)
        return f"已重新扫描：新 {res.new} 楼，改 {res.changed} 楼"

    day_routes = [
        Route("/", day_view, methods=["GET"]),
        Route("/version", version, methods=["GET"]),
        Route("/accept", act(flag_action("accepted")), methods=["POST"]),
        Route("/dismiss", act(flag_action("dismissed")), methods=["POST"]),
        Route("/reopen", act(flag_action("open")), methods=["POST"]),
        Route("/card", act(add_card), methods=["POST"]),
        Route("/event", act(add_event), methods=["POST"]),
        Route("/undo", act(undo), methods=["POST"]),
        Route("/rescan", act(rescan), methods=["POST"]),
    ]
    app = Starlette(routes=[
        Route("/", index, methods=["GET"]),
        Route("/day/{day:int}", day_view, methods=["GET"]),
        Mount("/day/{day:int}", routes=day_routes),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ])
    return _Guard(app, cfg)


def _at_from(source: Any) -> str | None:
    at = (source.get("at") or "").strip()
    return at or None


def _csrf_ok(request: Request, form: dict[str, str], cfg: DeskConfig) -> bool:
    """The page's secret in the form or htmx's header, and (when the browser says) our own origin."""
    given = form.get("csrf") or request.headers.get("x-csrf-token") or ""
    if not secrets.compare_digest(given.encode(), cfg.csrf.encode()):
        return False
    site = request.headers.get("sec-fetch-site")
    if site not in (None, "same-origin", "none"):
        return False
    origin = request.headers.get("origin")
    host = request.headers.get("host", "")
    return origin is None or origin in (f"http://{host}", f"https://{host}")
