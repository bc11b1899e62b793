"""The optional cookie file: a logged-in session kept between scans, readable by its owner only.

Cookies are as good as a password (Discuz's `auth` cookie logs anyone in), so the file is created
mode 0600 and written atomically; a file that is unreadable is ignored rather than trusted.
"""
from __future__ import annotations

import json
import os
import time
from http.cookiejar import Cookie, CookieJar
from pathlib import Path

FORMAT = 1


def _cookie(name: str, value: str, domain: str, path: str, expires: int | None,
            secure: bool) -> Cookie:
    return Cookie(
        version=0, name=name, value=value, port=None, port_specified=False,
        domain=domain, domain_specified=domain.startswith("."),
        domain_initial_dot=domain.startswith("."), path=path, path_specified=True,
        secure=secure, expires=expires, discard=expires is None, comment=None,
        comment_url=None, rest={}, rfc2109=False)


def save_cookies(jar: CookieJar, path: str | Path) -> None:
    """Write the jar's live cookies as JSON, mode 0600, replacing the file in one step."""
    path = Path(path)
    now = time.time()
    rows = [{"name": c.name, "value": c.value, "domain": c.domain, "path": c.path,
             "expires": c.expires, "secure": bool(c.secure)}
            for c in jar if c.value is not None and not (c.expires and c.expires < now)]
    data = json.dumps({"format": FORMAT, "cookies": rows}, ensure_ascii=False, indent=1)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(data)
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def load_cookies(jar: CookieJar, path: str | Path) -> int:
    """Put the file's unexpired cookies into the jar; how many. A missing or broken file adds none."""
    try:
        doc = json.loads(Path(path).read_text("utf-8"))
        rows = doc["cookies"]
    except (OSError, ValueError, KeyError, TypeError):
        return 0
    now = time.time()
    n = 0
    for row in rows if isinstance(rows, list) else []:
        try:
            expires = int(row["expires"]) if row.get("expires") is not None else None
            if expires is not None and expires < now:
                continue
            jar.set_cookie(_cookie(str(row["name"]), str(row["value"]), str(row["domain"]),
                                   str(row.get("path") or "/"), expires, bool(row.get("secure"))))
            n += 1
        except (KeyError, TypeError, ValueError, AttributeError):
            continue
    return n
