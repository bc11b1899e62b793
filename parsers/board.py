"""A Discuz board listing (`forum.php?mod=forumdisplay`) and the forum index, read into threads
and boards. Pure functions over HTML; the fetching is the caller's."""
from __future__ import annotations

import html as htmllib
import re
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

from selectolax.lexbor import LexborHTMLParser as HTMLParser


@dataclass(frozen=True)
class BoardThread:
    tid: int
    subject: str
    author: str  # who opened the thread (the listing's first 作者 cell)
    uid: int | None
    created: str  # the listing's date as written in its title attribute (2026-11-26), or its text


@dataclass(frozen=True)
class BoardPage:
    fid: int | None
    name: str
    threads: list[BoardThread]
    next_page: int | None  # the pager's next page, if any
    notice: str | None = None  # the forum's message instead of a listing (no permission, no such board)


def _q(href: str, key: str) -> str | None:
    v = parse_qs(urlsplit(htmllib.unescape(href)).query).get(key)
    return v[0] if v else None


def _int(s: str | None) -> int | None:
    return int(s) if s and s.isdigit() else None


def parse_board_page(html: str) -> BoardPage:
    doc = HTMLParser(html)
    fid = name = None
    h1 = doc.css_first("div.bm_h h1 a, h1.xs2 a")
    if h1 is not None:
        fid = _int(_q(h1.attributes.get("href") or "", "fid"))
        name = h1.text(strip=True)
    threads: list[BoardThread] = []
    for tb in doc.css("tbody"):
        tb_id = tb.attributes.get("id") or ""
        if not re.match(r"(normal|stick)thread_\d+$", tb_id):
            continue
        a = tb.css_first("a.xst") or tb.css_first("th a[href*='tid=']")
        if a is None:
            continue
        tid = _int(_q(a.attributes.get("href") or "", "tid")) or _int(tb_id.rsplit("_", 1)[1])
        if tid is None:
            continue
        author, uid, created = "", None, ""
        by = tb.css_first("td.by")
        if by is not None:
            cite = by.css_first("cite a")
            if cite is not None:
                author = cite.text(strip=True)
                uid = _int(_q(cite.attributes.get("href") or "", "uid"))
            span = by.css_first("em span[title]")
            created = (span.attributes.get("title") or "") if span is not None else (
                by.css_first("em").text(strip=True) if by.css_first("em") is not None else "")
        threads.append(BoardThread(tid, a.text(strip=True), author, uid, created))
    nxt = doc.css_first("div.pg a.nxt")
    next_page = _int(_q(nxt.attributes.get("href") or "", "page")) if nxt is not None else None
    notice = None
    if not threads:
        msg = doc.css_first("#messagetext p")
        notice = msg.text(strip=True) if msg is not None else None
    return BoardPage(fid, name or "", threads, next_page, notice)


def parse_index_boards(html: str) -> list[tuple[int, str]]:
    """(fid, name) of the boards the forum index links to, in page order, each once."""
    doc = HTMLParser(html)
    seen: dict[int, str] = {}
    for a in doc.css("a[href*='forumdisplay']"):
        fid = _int(_q(a.attributes.get("href") or "", "fid"))
        text = a.text(strip=True) or (a.attributes.get("title") or "")
        if fid is not None and (fid not in seen or (not seen[fid] and text)):
            seen[fid] = text
    return list(seen.items())
