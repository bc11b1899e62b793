"""Passwords and session cookies stay secret: a whole logged-in run (scan, every day command,
reports, watch) is grepped artefact by artefact — the SQLite file and its WAL (raw responses
decompressed too), the reports, each command's stdout and stderr, the game file — for the
password and every auth cookie the forum issued. Only the cookie file may hold a cookie, and it
is created mode 0600.
"""
from __future__ import annotations

import json
import os
import sqlite3
import stat
import subprocess
import sys
import zlib
from pathlib import Path
from urllib.parse import quote

import pytest

from daoyan.demo import DemoForum

from .reliability_support import NOW, fast_game

ROOT = Path(__file__).resolve().parents[1]
USER = "说书人"
PASSWORD = "Sec-8f3a-不可外传-pw"
ENV = ("DAOYAN_TEST_USER", "DAOYAN_TEST_PASS")


def daoyan(*args: str, password: str = PASSWORD) -> subprocess.CompletedProcess:
    env = {**os.environ, ENV[0]: USER, ENV[1]: password}
    return subprocess.run([sys.executable, "-m", "daoyan.cli", *args], cwd=ROOT, env=env, capture_output=True,
                          timeout=180)


def forms(secret: str) -> list[bytes]:
    """The ways a secret can be written down: raw, URL-encoded, JSON-escaped, in UTF-8 and GB18030."""
    out = set()
    for s in (secret, quote(secret, safe=""), json.dumps(secret)[1:-1], json.dumps(secret, ensure_ascii=False)[1:-1]):
        out.add(s.encode("utf-8"))
        out.add(s.encode("gb18030"))
    return sorted(out)


def leaks(blob: bytes, secrets: list[str]) -> list[str]:
    return [s for s in secrets if any(f in blob for f in forms(s))]


def login_forum() -> DemoForum:
    return DemoForum(now=NOW, require_login=True, users={USER: PASSWORD})


def login_game(folder: Path, forum: DemoForum) -> Path:
    return fast_game(folder, forum.base_url, login_env=ENV, login_extra='cookie_file = "session.json"\n')


def store_blobs(db: Path) -> dict[str, bytes]:
    """The store's files byte for byte, and every raw response it keeps, decompressed."""
    blobs = {p.name: p.read_bytes() for p in db.parent.glob(db.name + "*")}
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        for i, (url, body) in enumerate(con.execute("select url, body from responses")):
            blobs[f"responses[{i}] {url}"] = zlib.decompress(body)
        for table in ("posts", "revisions", "threads", "pages", "scans", "meta", "cards", "decisions"):
            blobs[f"table {table}"] = json.dumps(con.execute(f"select * from {table}").fetchall(),
                                                 ensure_ascii=False, default=str).encode("utf-8")
    finally:
        con.close()
    return blobs


def test_a_logged_in_run_leaks_no_password_and_no_cookie(tmp_path: Path) -> None:
    with login_forum() as forum:
        game = login_game(tmp_path, forum)
        db = tmp_path / "game.sqlite"
        outputs: dict[str, bytes] = {}
        r = daoyan("scan", str(game), "-q")
        assert r.returncode == 0, r.stderr.decode()
        keeper = sqlite3.connect(db)  # an open reader keeps the -wal file on disk for the grep
        try:
            keeper.execute("select count(*) from posts").fetchone()
            runs = [("scan", str(game), "-q"), ("votes", str(game), "--day", "1", "--json"),
                    ("activity", str(game), "--day", "2", "--json"), ("check", str(game), "--day", "1", "--json"),
                    ("votes", str(game), "--day", "2"), ("report", str(game), "--day", "1"),
                    ("report", str(game), "--day", "2"), ("watch", str(game), "--day", "2", "--rounds", "1")]
            for args in runs:
                if args[0] == "watch":
                    # a saved session is reused while it lives: drop it so that a second login,
                    # with its own new cookie, is held to the same standard
                    (tmp_path / "session.json").unlink()
                r = daoyan(*args)
                assert r.returncode == 0, (args, r.stderr.decode())
                outputs[" ".join(args[:1] + args[2:]) + " stdout"] = r.stdout
                outputs[" ".join(args[:1] + args[2:]) + " stderr"] = r.stderr
            assert (tmp_path / "game.sqlite-wal").exists()
            artefacts = {**store_blobs(db), **outputs}
        finally:
            keeper.close()
        with forum._lock:
            cookies = sorted(forum._sessions)  # every auth cookie the forum handed out in this run
    assert len(cookies) >= 2, "each command should have logged in"
    reports = sorted((tmp_path / "reports").iterdir())
    assert {p.name for p in reports} >= {"day1.html", "day1.bbcode.txt", "day1.json", "day2.html"}
    artefacts.update({f"reports/{p.name}": p.read_bytes() for p in reports if p.is_file()})
    artefacts["game.toml"] = game.read_bytes()
    assert sum(1 for k in artefacts if k.startswith("responses[")) > 10

    found = {name: leaks(blob, [PASSWORD, *cookies]) for name, blob in artefacts.items()}
    assert {k: v for k, v in found.items() if v} == {}

    jar = (tmp_path / "session.json").read_bytes()
    assert not leaks(jar, [PASSWORD])
    assert leaks(jar, cookies), "the cookie file keeps the session (else the grep above proves little)"
    assert stat.S_IMODE((tmp_path / "session.json").stat().st_mode) == 0o600
    assert not list(tmp_path.glob(".session.json.*"))  # no temporary copy left beside it


def test_the_api_answer_echoing_the_session_is_stored_without_it(tmp_path: Path) -> None:
    """Discuz's logged-in mobile API sends `Variables.auth` (the auth cookie) and `saltkey` back."""
    with login_forum() as forum:
        game = login_game(tmp_path, forum)
        assert daoyan("scan", str(game), "-q").returncode == 0
    con = sqlite3.connect(tmp_path / "game.sqlite")
    try:
        bodies = [json.loads(zlib.decompress(b)) for u, b in con.execute("select url, body from responses")
                  if "api/mobile" in u]
    finally:
        con.close()
    assert bodies and all(b["Variables"]["auth"] == "***" and b["Variables"]["saltkey"] == "***" for b in bodies)
    assert all(b["Variables"]["member_username"] == USER for b in bodies)  # it was a logged-in answer


def test_a_refused_login_says_so_without_the_password(tmp_path: Path) -> None:
    wrong = "Wr0ng-" + PASSWORD[::-1]
    with login_forum() as forum:
        game = login_game(tmp_path, forum)
        r = daoyan("scan", str(game), "-q", password=wrong)
    err = r.stderr.decode()
    assert r.returncode == 2 and "Traceback" not in err
    assert "refused the login" in err and USER in err
    assert not leaks(r.stdout + r.stderr, [wrong, PASSWORD])
    if (tmp_path / "game.sqlite").exists():
        assert not any(leaks(b, [wrong, PASSWORD]) for b in store_blobs(tmp_path / "game.sqlite").values())


def test_a_missing_password_variable_names_the_variable(tmp_path: Path, monkeypatch) -> None:
    with login_forum() as forum:
        game = login_game(tmp_path, forum)
        env = {k: v for k, v in os.environ.items() if k not in ENV}
        env[ENV[0]] = USER
        r = subprocess.run([sys.executable, "-m", "daoyan.cli", "scan", str(game), "-q"], cwd=ROOT, env=env,
                           capture_output=True, timeout=60)
    assert r.returncode == 2 and ENV[1].encode() in r.stderr and b"Traceback" not in r.stderr


def test_an_old_world_readable_cookie_file_is_replaced_private(tmp_path: Path) -> None:
    (tmp_path / "session.json").write_text('{"format": 1, "cookies": []}', "utf-8")
    os.chmod(tmp_path / "session.json", 0o644)
    with login_forum() as forum:
        game = login_game(tmp_path, forum)
        assert daoyan("scan", str(game), "-q").returncode == 0
    assert stat.S_IMODE((tmp_path / "session.json").stat().st_mode) == 0o600


@pytest.mark.parametrize("secret_query", ["auth", "formhash", "sid", "saltkey"])
def test_urls_in_messages_mask_secret_values(secret_query: str) -> None:
    from scraper.client import safe_url

    url = f"http://u:pw@bbs.example.com/forum.php?mod=viewthread&{secret_query}=TOPSECRET&tid=3"
    shown = safe_url(url)
    assert "TOPSECRET" not in shown and "pw@" not in shown and "tid=3" in shown
