"""The game file for the demo game, pointing at a running demo forum (DESIGN.md contract)."""
from __future__ import annotations

import json
from pathlib import Path

from .sample import Sample, build_sample


def _q(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)  # a TOML basic string is a JSON string


def _local(dt) -> str:  # type: ignore[no-untyped-def]
    return dt.strftime("%Y-%m-%dT%H:%M:%S")


def game_file_text(base_url: str, sample: Sample | None = None, *,
                   login_env: tuple[str, str] | None = None) -> str:
    """The TOML text; `login_env` names the environment variables holding a login, if one is needed."""
    s = sample or build_sample()
    lines = [f"# {s.name}: the demo game, served by daoyan's built-in demo forum", "",
             "[forum]", f"base_url = {_q(base_url if base_url.endswith('/') else base_url + '/')}"]
    if login_env:
        lines += ["", "[forum.login]", f"username_env = {_q(login_env[0])}", f"password_env = {_q(login_env[1])}"]
    lines += ["", "[game]", f"ruleset = {_q(s.ruleset)}", f"timezone = {_q(s.timezone)}",
              "players = [" + ", ".join(_q(p) for p in s.players) + "]",
              "directors = [" + ", ".join(_q(d) for d in s.directors) + "]"]
    for d in s.days:
        lines += ["", "[[day]]", f"number = {d.number}", f"discussion_tid = {d.discussion_tid}",
                  f"vote_tid = {d.vote_tid}"]
        if d.progress_tid:
            lines.append(f"progress_tid = {d.progress_tid}")
        if d.election_tid:
            lines.append(f"election_tid = {d.election_tid}")
        lines += [f"opens = {_local(d.opens)}", f"closes = {_local(d.closes)}"]
    for e in s.events:
        lines += ["", "[[event]]", f"day = {e.day}", f"kind = {_q(e.kind)}"]
        if e.player:
            lines.append(f"player = {_q(e.player)}")
        if e.reason:
            lines.append(f"reason = {_q(e.reason)}")
    return "\n".join(lines) + "\n"


def write_game_file(path: str | Path, base_url: str, sample: Sample | None = None, *,
                    login_env: tuple[str, str] | None = None) -> Path:
    """Write the demo game's TOML game file at `path` (parent folders made) and return its path."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(game_file_text(base_url, sample, login_env=login_env), encoding="utf-8")
    return p
