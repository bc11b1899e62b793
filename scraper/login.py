"""Discuz X3.x login, as pure steps: read the form, build the POST body, read the answer.

The form carries a `formhash` (tied to the session's saltkey cookie) and a `loginhash` in its
action; the answer to `inajax=1` is an XML CDATA that calls `succeedhandle_` or
`errorhandle_('message', …)`. A GBK forum reads the form body as GBK bytes, so the body is
encoded here in the forum's charset rather than left to httpx (which would send UTF-8).
"""
from __future__ import annotations

import html as html_lib
from dataclasses import dataclass
from urllib.parse import parse_qs, urlencode, urlsplit

import regex
from selectolax.lexbor import LexborHTMLParser

LOGIN_FORM_PATH = "member.php"
LOGIN_FORM_PARAMS = {"mod": "logging", "action": "login"}
COOKIE_TIME = "2592000"   # Discuz's "remember me for 30 days"

_COOKIEPRE = regex.compile(r"""cookiepre\s*=\s*['"]([^'"]*)['"]""")
_CDATA = regex.compile(r"<!\[CDATA\[(.*?)\]\]>", regex.S)
_ERROR = regex.compile(r"""errorhandle_\(\s*'((?:[^'\\]|\\.)*)'""", regex.S)
_SUCCEED = regex.compile(r"succeedhandle_\(")
_WELCOME = regex.compile(r"""succeedlocation'\)\.innerHTML\s*=\s*'((?:[^'\\]|\\.)*)'""")
_SCRIPT = regex.compile(r"<script\b.*?</script>", regex.S | regex.I)
_TAG = regex.compile(r"<[^>]+>")
_UID = regex.compile(r"""discuz_uid\s*=\s*['"](\d+)['"]""")
_CAPTCHA = regex.compile(r"""updateseccode\(|id=["']seccode_|name=["']seccodeverify""")
_MESSAGETEXT = regex.compile(r"""<div id="messagetext"[^>]*>\s*<p>(.*?)</p>""", regex.S)


@dataclass(frozen=True)
class LoginForm:
    """What the login page gives us for the POST."""
    formhash: str
    loginhash: str | None
    referer: str | None
    cookiepre: str | None
    captcha: bool = False   # the form has a seccode (验证码) slot; the forum may or may not check it


@dataclass(frozen=True)
class LoginAnswer:
    """The forum's verdict in its own words; `ok` is None when the answer calls neither handler."""
    ok: bool | None
    message: str


def parse_login_form(page: str) -> LoginForm | None:
    """The login form's hidden fields; None when the page has no login form."""
    tree = LexborHTMLParser(page)
    m = _COOKIEPRE.search(page)
    cookiepre = m.group(1) if m else None
    for form in tree.css("form"):
        action = html_lib.unescape(form.attributes.get("action") or "")
        query = parse_qs(urlsplit(action).query)
        if query.get("mod") != ["logging"] or "loginsubmit" not in query:
            continue
        fields = {i.attributes.get("name"): i.attributes.get("value") or ""
                  for i in form.css("input[type=hidden]")}
        if not fields.get("formhash"):
            continue
        loginhash = (query.get("loginhash") or [None])[0]
        captcha = bool(_CAPTCHA.search(form.html or ""))
        return LoginForm(fields["formhash"], loginhash, fields.get("referer"), cookiepre, captcha)
    return None


def session_uid(page: str) -> int:
    """The uid a page was rendered for (`discuz_uid = 'N'` in its script): 0 for a guest."""
    m = _UID.search(page)
    return int(m.group(1)) if m else 0


def cookiepre_of(page: str) -> str | None:
    """The forum's cookie prefix, from the `cookiepre = '…'` of any page."""
    m = _COOKIEPRE.search(page)
    return m.group(1) if m else None


def page_message(page: str) -> str:
    """The words of a Discuz message page (欢迎您回来… on the login page of a live session)."""
    m = _MESSAGETEXT.search(page)
    return _plain(m.group(1)) if m else ""


def submit_params(form: LoginForm) -> dict[str, str]:
    """Query of the POST: `inajax=1` makes Discuz answer with a small XML instead of a page."""
    params = {"mod": "logging", "action": "login", "loginsubmit": "yes"}
    if form.loginhash:
        params["loginhash"] = form.loginhash
    params["inajax"] = "1"
    return params


def login_body(form: LoginForm, username: str, password: str, charset: str,
               referer: str, question: tuple[int, str] | None = None) -> bytes:
    """The urlencoded form, every field in the forum's charset (UnicodeEncodeError if it cannot).
    `question`: the account's security question (安全提问) id 1-7 and its answer."""
    qid, answer = question if question else (0, "")
    fields = {
        "formhash": form.formhash,
        "referer": form.referer or referer,
        "loginfield": "username",
        "username": username,
        "password": password,
        "questionid": str(int(qid)),
        "answer": answer,
        "cookietime": COOKIE_TIME,
    }
    return urlencode(fields, encoding=charset, errors="strict").encode("ascii")


def _js_string(s: str) -> str:
    return regex.sub(r"\\(.)", r"\1", s)


def _plain(s: str) -> str:
    return " ".join(html_lib.unescape(_TAG.sub(" ", _SCRIPT.sub(" ", s))).split())


def parse_login_answer(text: str) -> LoginAnswer:
    """Success when the answer calls `succeedhandle_`; otherwise the message it shows."""
    m = _CDATA.search(text)
    body = m.group(1) if m else text
    if _SUCCEED.search(body):
        w = _WELCOME.search(body)
        return LoginAnswer(True, _plain(_js_string(w.group(1))) if w else "")
    e = _ERROR.search(body)
    if e:
        return LoginAnswer(False, _plain(_js_string(e.group(1))))
    return LoginAnswer(None, _plain(body)[:200] or "the forum gave no answer to the login")


def auth_cookie_name(cookiepre: str | None) -> str | None:
    """Name of the cookie that proves a session is logged in (`<cookiepre>auth`)."""
    return f"{cookiepre}auth" if cookiepre is not None else None
