"""Session values out of a body before it is stored as evidence.

A logged-in Discuz page carries its session: the `formhash` (in forms and in every logout or
search link), the session id inside the captcha's element ids (`seccode_cS<sid>`,
`updateseccode('cS<sid>', …)`), and the mobile API echoes the auth cookie itself. The store is
a file a director may share, so what it keeps of a page has none of them; the page as parsed
is unchanged.
"""
from __future__ import annotations

import re
from typing import Iterable
from urllib.parse import quote, unquote

MASK = b"***"
_PATTERNS = [
    # formhash=VALUE in links (also &amp;-escaped), formhash: 'VALUE' in scripts
    re.compile(rb"(?i)((?:formhash|loginhash|seccodehash|sechash)\s*(?:=|:\s*['\"]|%3D))([0-9A-Za-z]{4,64})"),
    # <input name="formhash" value="VALUE">, and value before name
    re.compile(rb"(?i)(name=[\"']?(?:formhash|loginhash|seccodehash|sechash)[\"']?[^>]*?value=[\"']?)([^\"'\s>]{4,64})"),
    re.compile(rb"(?i)(value=[\"']?)([^\"'\s>]{4,64})(?=[\"']?[^>]*name=[\"']?(?:formhash|loginhash)\b)"),
    # the session id Discuz builds captcha element ids from: seccode_cS<sid>, 'cS<sid>'
    re.compile(rb"((?:seccode|secqaa|sec)_?c[SQ]|['\"]c[SQ])([0-9A-Za-z]{4,16})"),
    # a JSON answer echoing the session (the mobile API's Variables.auth, saltkey, formhash)
    re.compile(rb'("(?:auth|saltkey|formhash|sid)"\s*:\s*")((?:[^"\\]|\\.)+)(?=")'),
]


def scrub(body: bytes, secrets: Iterable[str] = ()) -> bytes:
    """`body` with every session value masked: the known patterns, and each of `secrets` (the
    session's own cookie values) wherever it appears, raw or URL-encoded."""
    found: set[bytes] = set()

    def mask(m: re.Match[bytes]) -> bytes:
        found.add(m.group(2))
        return m.group(1) + MASK

    for pattern in _PATTERNS:
        body = pattern.sub(mask, body)
    for value_bytes in sorted(found, key=len, reverse=True):  # the same value elsewhere (`&hash=`)
        if len(value_bytes) >= 6 and value_bytes != MASK:
            body = body.replace(value_bytes, MASK)
    for value in secrets:
        for form in {value, unquote(value), quote(unquote(value), safe="")}:
            if len(form) >= 4:
                body = body.replace(form.encode("utf-8", "ignore"), MASK)
    return body
