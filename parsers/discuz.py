"""Discuz! X3.x thread pages (desktop HTML and mobile API JSON) → `ThreadPage` of `Post`s.

Pure functions over decoded text. Both sources are read into the same `Post`, so the same thread
gives the same floors whichever way it was fetched: the desktop page carries what the API drops
(font sizes, the 本帖最后由 … 编辑 marker), the API what the page may round (exact seconds).
"""
from __future__ import annotations

import html as htmllib
import json
import re
from datetime import datetime, timezone, tzinfo
from typing import Any, Iterable

from selectolax.lexbor import LexborHTMLParser as HTMLParser, LexborNode as Node

from gamedef.errors import LoginRequired, PageFormatError, ThreadMissing

from .models import EditMark, Post, Quote, ReplyRef, ThreadPage
from .surrogates import replace_lone_surrogates

FLOOR_NAMES = {"楼主": 1, "沙发": 2, "板凳": 3, "地板": 4}
_MISSING = ("不存在", "已被删除", "正在被审核", "thread_nonexistence")
_NEED_LOGIN = ("没有权限", "无权", "需要登录", "请先登录", "登录后", "nopermission", "to_login", "login")
_BANNED = ("作者被禁止或删除", "内容自动屏蔽")
_HIDDEN = ("该帖被管理员或版主屏蔽",)
_TIME = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?")
_EXACT_TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}")
_PID_IN_URL = re.compile(r"[?&;]pid=(\d+)")
_UID_IN_URL = re.compile(r"uid=(\d+)")
_EDIT = re.compile(r"本帖最后由\s*(.+?)\s*于\s*(\d{4}-\d{1,2}-\d{1,2}\s+\d{1,2}:\d{2}(?::\d{2})?)\s*编辑")
# Every number read from a page is checked against these: a forum (or a page in between) that
# claims 10^9 pages or a floor beyond 64 bits would otherwise exhaust memory or the store.
MAX_ID = 2**63 - 1  # pid, tid, uid, fid: what SQLite holds
MAX_FLOOR = 1_000_000  # floors of one thread; Discuz threads of a game have a few thousand
MAX_PAGES = 100_000  # pages of one thread at any page size
_BLOCK = {"div", "p", "li", "tr", "table", "blockquote", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "hr"}


# ---------------------------------------------------------------- notices


def notice_of_html(doc: HTMLParser) -> str | None:
    """The text of a Discuz message page (`#messagetext`), if this is one."""
    node = doc.css_first("#messagetext")
    if node is None:
        return None
    p = node.css_first("p")
    return (p.text() if p else node.text()).strip()


def raise_for_notice(text: str, what: str) -> None:
    if any(w in text for w in _MISSING):
        raise ThreadMissing(f"{what}: the forum says the thread does not exist, was deleted or is under review ({text})")
    if any(w in text.lower() for w in _NEED_LOGIN):
        raise LoginRequired(f"{what}: the forum says you must log in or have no permission ({text}); "
                            "set [forum.login] in the game file with a role or director account")
    raise PageFormatError(f"{what}: the forum answered a notice instead of the thread: {text}")


# ---------------------------------------------------------------- message HTML → parts


def _attr(node: Node, name: str) -> str:
    return (node.attributes.get(name) or "").strip()


def _style_value(style: str, prop: str) -> str | None:
    m = re.search(rf"(?:^|;)\s*{prop}\s*:\s*([^;]+)", style, re.I)
    return m.group(1).strip() if m else None


class _Message:
    """What a rendered message body holds, read once."""

    def __init__(self) -> None:
        self.lines: list[str] = [""]
        self.quotes: list[Quote] = []
        self.reply_to: ReplyRef | None = None
        self.edit: EditMark | None = None
        self.edit_text = ""  # the edit marker's time as printed, read in the forum's zone by the page parser
        self.smilies = 0
        self.colors: list[str] = []
        self.sizes: list[str] = []
        self.links: list[str] = []
        self.attachments = 0

    def newline(self) -> None:
        self.lines.append("")

    def add(self, s: str) -> None:
        s = s.replace("\r", "").replace("\n", "")
        if s:
            self.lines[-1] += s.replace("\xa0", " ")

    def text(self) -> str:
        return "\n".join(ln.strip() for ln in self.lines if ln.strip())


def _quote_of(node: Node) -> Quote:
    pid, author = None, None
    for a in node.css("a"):
        m = _PID_IN_URL.search(_attr(a, "href").replace("&amp;", "&"))
        if m:
            pid = _int(m.group(1))
            t = a.text().strip()
            am = re.match(r"(.+?)\s+发表于", t)
            author = am.group(1).strip() if am else (t or None)
            break
    return Quote(pid=pid, author=author)


def _reply_header(node: Node) -> ReplyRef | None:
    """`<strong>回复 <a …pid=P…>N#</a> <i>NAME</i> </strong>` (the <i> is absent in the API)."""
    t = node.text().strip()
    if not t.startswith("回复"):
        return None
    a = node.css_first("a")
    if a is None:
        return None
    m = _PID_IN_URL.search(_attr(a, "href").replace("&amp;", "&"))
    fm = re.match(r"\s*(\d+)\s*#", a.text())
    if not m and not fm:
        return None
    i = node.css_first("i")
    name = i.text().strip() if i else re.sub(r"^回复\s*\d+\s*#\s*", "", t).strip()
    return ReplyRef(pid=_int(m.group(1)) if m else None, floor=_int(fm.group(1)) if fm else None, author=name or None)


def _is_mention(href: str, node: Node) -> bool:
    """Discuz's @名字 (a link to the member's space whose text starts with @): a name, not a pasted link."""
    return "mod=space" in href and node.text().lstrip().startswith(("@", "＠"))


def _is_smilie(img: Node) -> bool:
    src = _attr(img, "src")
    return "smilieid" in img.attributes or "/smiley/" in src or "static/image/smiley" in src


def _open(child: Node, out: _Message) -> None:
    """What an element that holds more markup adds before its content: colours, sizes, links."""
    tag, attrs = child.tag, child.attributes
    if tag == "font":
        color, size = (attrs.get("color") or "").strip(), (attrs.get("size") or "").strip()
        if color:
            out.colors.append(color)
        if size:
            out.sizes.append(size)
    style = (attrs.get("style") or "").strip()
    if style:
        c = _style_value(style, "color")
        if c:
            out.colors.append(c)
        s = _style_value(style, "font-size")
        if s:
            out.sizes.append(s)
    href = (attrs.get("href") or "").strip() if tag == "a" else ""
    if href and not _is_mention(href, child):
        out.links.append(htmllib.unescape(href))
    if tag in _BLOCK:
        out.newline()


def _walk(node: Node, out: _Message) -> None:
    """The message tree in document order, with an explicit stack: a post of a thousand nested
    tags (any player can write one within Discuz's post length) is read like any other, never a
    RecursionError that would stop every scan of the game. A frame is [the next node of its
    level, whether no content came yet at the top level (where a reply header may open)]."""
    stack: list[list[Any]] = [[node.child, True]]
    while stack:
        frame = stack[-1]
        child = frame[0]
        if child is None:
            stack.pop()
            if stack:  # the element whose content just ended
                outer = stack[-1]
                element = outer[0]
                if element.tag in _BLOCK:
                    out.newline()
                if outer[1] and element.text().strip():
                    outer[1] = False
                outer[0] = element.next
            continue
        tag = child.tag
        first_content = frame[1]
        if tag == "-text":
            s = child.text(deep=False)
            out.add(s)
            if first_content and s.strip():
                frame[1] = False
        elif tag == "br":
            out.newline()
        elif tag in ("script", "style", "-comment"):
            pass
        elif tag == "i" and "pstatus" in _attr(child, "class"):
            m = _EDIT.search(child.text())
            if m:
                out.edit_text = m.group(2)
                out.edit = EditMark(editor=m.group(1), at=None)
        elif tag == "div" and any(c in _attr(child, "class").split() for c in ("quote", "reply_wrap")):
            out.quotes.append(_quote_of(child))
            out.newline()
        elif tag == "blockquote":
            out.quotes.append(_quote_of(child))
            out.newline()
        elif tag == "strong" and first_content and out.reply_to is None and _reply_header(child):
            out.reply_to = _reply_header(child)
        elif tag == "img":
            if _is_smilie(child):
                out.smilies += 1
            elif "aid" in child.attributes or "zoomfile" in child.attributes or "file" in child.attributes:
                out.attachments += 1
        elif tag == "ignore_js_op" or (tag == "span" and "attach" in _attr(child, "id")):
            out.attachments += 1
        else:
            _open(child, out)
            stack.append([child.child, False])  # its content; the frame resumes after it
            continue
        frame[0] = child.next


def parse_message(fragment: Node) -> _Message:
    out = _Message()
    _walk(fragment, out)
    return out


def _post_from_parts(*, tid: int, pid: int, floor: int, author: str, uid: int | None, posted_at: datetime | None,
                     precision: str, message_html: str, parts: _Message | None, hidden: bool, banned: bool,
                     first: bool, tz: tzinfo = timezone.utc) -> Post:
    p = parts or _Message()
    if p.edit is not None and p.edit.at is None and p.edit_text:
        p.edit = EditMark(editor=p.edit.editor, at=parse_local_time(p.edit_text, tz)[0])
    return Post(tid=tid, pid=pid, floor=floor, author=author, uid=uid, posted_at=posted_at,
                time_precision=precision, message_html=message_html, text="" if (hidden or banned) else p.text(),
                quotes=p.quotes, reply_to=p.reply_to, edit=p.edit, smilies=p.smilies, colors=p.colors,
                sizes=p.sizes, links=p.links, attachments=p.attachments, hidden=hidden, author_banned=banned,
                first=first)


# ---------------------------------------------------------------- times


def parse_local_time(text: str, tz: tzinfo) -> tuple[datetime | None, str]:
    """`2026-11-26 20:00:00` (or without seconds) in the forum's time zone → (aware datetime, precision)."""
    try:
        if _EXACT_TIME.fullmatch(text):  # the usual <span title>: the C parser reads it the same
            return datetime.fromisoformat(text).replace(tzinfo=tz), "second"
        m = _TIME.search(text)
        if not m:
            return None, "unknown"
        y, mo, d, h, mi, s = m.groups()
        dt = datetime(int(y), int(mo), int(d), int(h), int(mi), int(s or 0), tzinfo=tz)
    except ValueError:  # 2026-13-40 99:99: a broken page's date is no date
        return None, "unknown"
    return dt, "second" if s is not None else "minute"


_STATED_ZONE = re.compile(r"GMT\s*([+-]\s*\d{1,2}(?:\.\d+)?)?\s*,\s*\d{4}-\d{1,2}-\d{1,2}")


def stated_utc_offset(html: str) -> float | None:
    """The time zone a desktop page says its times are in, in hours (`GMT+8, 2026-12-4 02:29` in
    the footer): the logged-in member's own 时区 setting, else the forum's. None when absent."""
    tail = html[-20000:]
    m = None
    for m in _STATED_ZONE.finditer(tail):
        pass
    if m is None:
        return None
    return float(m.group(1).replace(" ", "")) if m.group(1) else 0.0


# ---------------------------------------------------------------- desktop page


_POST_ID = re.compile(r"post_\d+")


def _first(node: Node, tag: str, attr: str | None = None) -> Node | None:
    """`node.css_first("tag")` / `("tag[attr]")` for a small subtree, walked in Python: each
    selector query has a fixed cost (its own memory pool) far above a walk of a few nodes."""
    for n in node.traverse():
        if n.tag == tag and (attr is None or attr in n.attributes):
            return n
    return None


class _BlockNodes:
    """The nodes of one post block the parser reads, each the first in document order as
    `css_first` of its own selector would give, sorted out of one grouped selector walk: a query
    costs a fixed setup far above its walk, so one per page instead of one per field keeps page
    parsing near the cost of lexbor's own parse. The page query holds what every post has; what
    only an anonymous or 屏蔽 post needs is asked of its block when missing (`complete`)."""

    __slots__ = ("ids", "author_link", "authi_link", "authi", "postnum", "poston", "message", "locked",
                 "attachments", "whole")

    def __init__(self, pid: int, whole: bool = False) -> None:
        self.ids = (f"postnum{pid}", f"authorposton{pid}", f"postmessage_{pid}")
        self.author_link = self.authi_link = self.authi = None
        self.postnum = self.poston = self.message = self.locked = None
        self.attachments = 0
        self.whole = whole  # fed by the block's own query (every selector), not the page's

    def take(self, n: Node, tag: str, nid: str | None, nested: bool) -> None:
        """`nested`: the node matched a selector besides its id's (`div.authi a[.xw1]`, a class),
        which for a descendant selector its own attributes cannot tell."""
        ids = self.ids
        if nid in ids:
            if nid == ids[0]:
                if self.postnum is None:
                    self.postnum = n
            elif nid == ids[1]:
                if self.poston is None:
                    self.poston = n
            elif self.message is None:
                self.message = n
        if tag == "a":
            if nested:
                if not self.whole:
                    if self.author_link is None:
                        self.author_link = n
                    return
                if self.authi_link is None:
                    self.authi_link = n
                if self.author_link is None and "xw1" in _attr(n, "class").split():
                    self.author_link = n
        elif tag == "div":
            if nested:
                classes = _attr(n, "class").split()
                if self.whole:
                    if "authi" in classes and self.authi is None:
                        self.authi = n
                    if "locked" in classes and self.locked is None:
                        self.locked = n
                if "pattl" in classes:
                    self.attachments += _attachment_list(n)
        elif tag == "dl" and nested and "tattl" in _attr(n, "class").split():
            self.attachments += 1

    def complete(self, b: Node) -> None:
        """The lookups the page query leaves out, for the posts that need them."""
        if not self.whole:
            if self.author_link is None:
                self.authi_link = b.css_first("div.authi a")
            if self.message is None:
                self.locked = b.css_first("div.locked")
        if self.author_link is None and self.authi_link is None:
            self.authi = b.css_first("td.pls div.pi") or self.authi or b.css_first("div.authi")

    @classmethod
    def of_block(cls, b: Node, pid: int) -> "_BlockNodes":
        """One query over the block itself (the fallback when post blocks nest)."""
        out = cls(pid, whole=True)
        ids = out.ids
        found = b.css(f"div.authi a, div.authi, #{ids[0]}, #{ids[1]}, #{ids[2]}, div.locked, [class*=attl]")
        for n, k in _runs(found):
            nid = n.id
            out.take(n, n.tag, nid, k - (nid in ids) > 0)
        return out


def _attachment_list(pattl: Node) -> int:
    """The entries of a post's attachment list (`div.pattl`): its <ignore_js_op> wrappers, once
    each however the lists nest (a nested list's own entries are counted by its parent)."""
    if _within_class(pattl, "pattl"):
        return 0
    return sum(1 for n in pattl.traverse(include_text=False) if n.tag == "ignore_js_op")


def _within_class(n: Node, cls: str) -> bool:
    p = n.parent
    while p is not None and p.tag != "html":
        if p.tag == "div" and cls in _attr(p, "class").split():
            return True
        p = p.parent
    return False


def _runs(found: list[Node]) -> Iterable[tuple[Node, int]]:
    """(node, k) from a grouped query's answer: lexbor lists matches in document order, a node once
    per selector of the group it matches, in a row."""
    i, total = 0, len(found)
    while i < total:
        n = found[i]
        k, mid = 1, n.mem_id
        while i + k < total and found[i + k].mem_id == mid:
            k += 1
        i += k
        yield n, k


# Each selector of a group costs lexbor a test of every element, so the group is kept short: one
# `[id*=post]` brings the blocks and their id'd fields (post_N, postnumN, authorpostonN,
# postmessage_N, and decoys sorted out by id), one `[class*=attl]` both attachment lists.
_PAGE_QUERY = "[id*=post], #thread_subject, div.pg, div.authi a.xw1, td.pls.ptn.pbn span.xi1, [class*=attl]"


def _by_id(nid: str | None) -> int:
    """1 when the page query matched the node by its id (its first selectors), else 0."""
    return 1 if nid and ("post" in nid or nid == "thread_subject") else 0


class _PageNodes:
    """Everything `parse_thread_page` reads by selector, from one grouped query of the page. The
    nodes after a post block's own go to that block; when the next block turns out not to be its
    next element (something lies between posts), and for the last block, the block is read again
    from the same nodes, keeping only its own subtree (a run in document order)."""

    def __init__(self, doc: HTMLParser) -> None:
        self.blocks: list[Node] = []
        self.counters: list[Node] = []  # td.pls.ptn.pbn span.xi1 (views, replies)
        self.subject: Node | None = None
        self.pager: Node | None = None
        self.per_block: list[_BlockNodes] = []
        nested_blocks = False
        cur: _BlockNodes | None = None
        start = 0  # where the current block's nodes begin in `found`
        found = doc.css(_PAGE_QUERY)
        i, total = 0, len(found)
        while i < total:  # the runs of `_runs`, inline: this loop is the parser's hottest
            n = found[i]
            k, mid = 1, n.mem_id
            while i + k < total and found[i + k].mem_id == mid:
                k += 1
            run_start, i = i, i + k
            tag, nid = n.tag, n.id
            by_id = _by_id(nid)
            if by_id and self.subject is None and nid == "thread_subject":
                self.subject = n
            if tag == "div":
                if self.pager is None and "pg" in _attr(n, "class").split():
                    self.pager = n
                if nid and nid.startswith("post_") and _POST_ID.fullmatch(nid.strip()):
                    if cur is not None and _next_element(self.blocks[-1]) != mid:
                        prev = self.blocks[-1]
                        nested_blocks = nested_blocks or _within(n, prev)
                        self.per_block[-1] = _reread(prev, found, start, run_start)
                    self.blocks.append(n)
                    cur = _BlockNodes(_block_pid(n))
                    self.per_block.append(cur)
                    cur.take(n, tag, nid, False)
                    start = i
                    continue
            elif tag == "span" and k > by_id:
                self.counters.append(n)
            if cur is not None:
                cur.take(n, tag, nid, k > by_id)
        if cur is not None:
            self.per_block[-1] = _reread(self.blocks[-1], found, start, total)
        if nested_blocks:
            self.per_block = [_BlockNodes.of_block(b, _block_pid(b)) for b in self.blocks]


def _reread(block: Node, found: list[Node], start: int, end: int) -> _BlockNodes:
    """A block's record from the page query's nodes `found[start:end]` that lie inside it."""
    out = _BlockNodes(_block_pid(block))
    out.take(block, block.tag, block.id, False)
    for n, k in _runs(found[start:end]):
        if not _within(n, block):
            break
        nid = n.id
        out.take(n, n.tag, nid, k > _by_id(nid))
    return out


def _next_element(n: Node) -> int | None:
    nx = n.next
    while nx is not None and not nx.is_element_node:
        nx = nx.next
    return nx.mem_id if nx is not None else None


def _within(n: Node, block: Node) -> bool:
    target = block.mem_id
    p = n.parent
    while p is not None:
        if p.mem_id == target:
            return True
        p = p.parent
    return False


def _locked_notice_before(msg: Node) -> Node | None:
    """The `div.locked` notice (提示: 该帖被管理员或版主屏蔽) an administrator's page puts before a
    hidden post's words: a sibling before the `div.t_fsz` that holds `#postmessage_N`."""
    box = msg
    for _ in range(5):
        box = box.parent
        if box is None:
            return None
        if box.tag == "div" and "t_fsz" in _attr(box, "class").split():
            break
    else:
        return None
    prev = box.prev
    while prev is not None:
        if prev.tag == "div" and "locked" in _attr(prev, "class").split():
            return prev
        if prev.is_element_node and prev.tag != "div":
            break
        prev = prev.prev
    return None


def _bare_name(node: Node) -> str:
    """`匿名`, `游客 <em>ip</em>`, `NAME <em>该用户已被删除</em>`: the name without the note in <em>."""
    parts = []
    child = node.child
    while child is not None:
        if child.tag != "em":
            parts.append(child.text())
        child = child.next
    return " ".join("".join(parts).split())


def _int(s: str | None) -> int | None:
    """A number as a page writes it, or None: not a number, or beyond what any id can be."""
    if s is None:
        return None
    s = s.strip()
    if len(s) > 20:
        return None
    try:
        v = int(s)
    except ValueError:
        return None
    return v if -MAX_ID - 1 <= v <= MAX_ID else None


def _block_pid(block: Node) -> int:
    """The pid of a `post_N` block; 0 when N is no pid (refused when the post is read)."""
    return _int(_attr(block, "id")[5:]) or 0


def _checked(value: int | None, what: str, name: str, high: int) -> int:
    """A number the scan relies on: a page claiming more is refused, not believed."""
    if value is None or not 0 < value <= high:
        raise PageFormatError(f"{what}: {name} {value if value is not None else '(not a number)'} is "
                              f"{'beyond' if value is not None and value > high else 'not'} a possible {name} "
                              f"(1 to {high:,}): the page is broken or hostile")
    return value


# A page larger than this is read a post block at a time: lexbor's tree of a whole Discuz page
# takes about twelve times the page (a 23 MB page of 5,000 floors took 446 MB), one block's
# tree next to nothing. Smaller pages are read whole, as they always were.
CHUNKED_FROM = 2 * 2**20  # characters
_BLOCK_START = re.compile(r'<div id="post_\d+"')


def _block_pieces(html: str) -> list[tuple[int, int]] | None:
    """Where each post block of a large page begins and the next begins; None for a small page."""
    if len(html) < CHUNKED_FROM:
        return None
    starts = [m.start() for m in _BLOCK_START.finditer(html)]
    if len(starts) < 2:
        return None
    return list(zip(starts, starts[1:] + [len(html)]))


def _blocks_one_by_one(html: str, pieces: list[tuple[int, int]]) -> Iterable[tuple[Node, _BlockNodes]]:
    """Each piece parsed on its own; its tree is dropped once its posts are read."""
    for a, b in pieces:
        found = _PageNodes(HTMLParser(html[a:b]))
        yield from zip(found.blocks, found.per_block)


def parse_thread_page(html: str, *, tz: tzinfo = timezone.utc, edit_tz: tzinfo | None = None, tid_hint: int | None = None,
                      what: str = "thread page") -> ThreadPage:
    """A desktop `forum.php?mod=viewthread` page. Raises ThreadMissing / LoginRequired / PageFormatError.

    `tz`: the zone the page shows times in (the viewer's own 时区). `edit_tz`: the zone of the
    本帖最后由 … 编辑 markers, written into the post once in the editor's zone (Discuz's
    `dgmdate(TIMESTAMP)` at edit time) and shown alike to every viewer; default `tz`."""
    pieces = _block_pieces(html)
    if pieces is not None:
        found = _PageNodes(HTMLParser(html[:pieces[0][0]]))  # the subject, the pager, the counters
        blocks: Iterable[tuple[Node, _BlockNodes]] = _blocks_one_by_one(html, pieces)
    else:
        doc = HTMLParser(html)
        found = _PageNodes(doc)
        if not found.blocks:
            notice = notice_of_html(doc)
            if notice:
                raise_for_notice(notice, what)
            if doc.css_first("form[name=login]") is not None or "loginsubmit" in html:
                raise LoginRequired(f"{what}: the forum answered its login page instead of the thread; "
                                    "set [forum.login] in the game file")
            raise PageFormatError(f"{what}: no posts found: not a Discuz thread page, or the page is cut short")
        blocks = zip(found.blocks, found.per_block)
    tail = html[-4000:]
    if "</html>" not in tail and "</html>" not in tail.lower():  # lower() only for odd pages
        raise PageFormatError(f"{what}: the page is cut short (no closing </html>)")

    m = re.search(r"var fid = parseInt\('(\d+)'\), tid = parseInt\('(\d+)'\)", html)
    fid = _int(m.group(1)) if m else None
    tid = _checked(_int(m.group(2)), what, "thread id", MAX_ID) if m else tid_hint
    if tid is None:
        m2 = re.search(r"[?&;]tid=(\d+)", html)
        tid = (_int(m2.group(1)) or 0) if m2 else 0
    if fid is None:
        m3 = re.search(r"forumdisplay&(?:amp;)?fid=(\d+)", html)
        fid = _int(m3.group(1)) if m3 else None
    subj = found.subject
    subject = subj.text().strip() if subj else ""
    page, last = 1, 1
    pg = found.pager
    if pg is not None:
        cur = _first(pg, "strong")
        page = _int(cur.text().strip()) if cur else 1
        tm = re.search(r"共\s*(\d+)\s*页", pg.html or "")
        nums = [_int(a.text().strip().lstrip(". ")) for a in pg.traverse() if a.tag == "a" and re.fullmatch(r"[. ]*\d+", a.text().strip())]
        last = _int(tm.group(1)) if tm else max([page or 1, *(n if n is not None else MAX_PAGES + 1 for n in nums)])
        page = _checked(page or 1, what, "page number", MAX_PAGES)
        last = _checked(last, what, "page count", MAX_PAGES)
    replies = None
    for sp in found.counters:
        replies = _int(sp.text().strip())
    posts: list[Post] = []
    prev_floor = None
    for b, nodes in blocks:
        pid = _checked(_block_pid(b), what, "post id", MAX_ID)
        nodes.complete(b)
        a = nodes.author_link or nodes.authi_link
        if a is not None:
            author = a.text().strip()
            um = _UID_IN_URL.search(_attr(a, "href"))
            uid = _int(um.group(1)) if um else None
        else:  # 匿名, a guest or a deleted user: the name stands bare in the card, an <em> after it
            au = nodes.authi
            author = _bare_name(au) if au else ""
            uid = None
        num = nodes.postnum
        floor = None
        if num is not None:
            em = _first(num, "em")
            label = (em.text() if em else num.text()).strip()
            floor = _int(label) if label.isdigit() else FLOOR_NAMES.get(label)
        if floor is None:
            floor = (prev_floor + 1) if prev_floor is not None else None
        on = nodes.poston
        posted_at, precision = None, "unknown"
        if on is not None:
            span = _first(on, "span", "title")
            posted_at, precision = parse_local_time(_attr(span, "title") if span else on.text(), tz)
        msg = nodes.message
        locked = nodes.locked
        if locked is None and msg is not None:
            locked = _locked_notice_before(msg)
        locked_text = locked.text() if locked is not None else ""
        # an administrator is shown a 屏蔽 post's words under the notice; everyone else only the
        # notice: either way the post is hidden and read alike (the words are not the post's now)
        hidden = any(w in locked_text for w in _HIDDEN)
        banned = msg is None and any(w in locked_text for w in _BANNED)
        if hidden:
            msg = None
        parts = parse_message(msg) if msg is not None else None
        if parts is not None:
            parts.attachments += nodes.attachments
        if floor is None:
            raise PageFormatError(f"{what}: post {pid} has no floor number")
        _checked(floor, what, "floor", MAX_FLOOR)
        first = floor == 1
        posts.append(_post_from_parts(tid=tid, pid=pid, floor=floor, author=author, uid=uid, posted_at=posted_at,
                                      precision=precision, message_html=(msg.html if msg is not None else (locked.html if locked is not None else "")) or "",
                                      parts=parts, hidden=hidden, banned=banned, first=first,
                                      tz=edit_tz or tz))
        prev_floor = floor
    return ThreadPage(tid=tid, page=page, last_page=max(last, page), subject=subject, fid=fid, posts=posts,
                      replies=replies, per_page=None, source="html")


# ---------------------------------------------------------------- mobile API


def load_api_json(text: str, what: str = "API answer") -> dict[str, Any]:
    try:
        doc = json.loads(text)
    except ValueError as e:
        raise PageFormatError(f"{what}: not JSON ({e.msg} at {e.pos}); the answer may be cut short") from None
    if not isinstance(doc, dict):
        raise PageFormatError(f"{what}: unexpected JSON (not an object)")
    return replace_lone_surrogates(doc)


def parse_api_thread(doc: dict[str, Any], *, tz: tzinfo = timezone.utc, what: str = "API answer") -> ThreadPage:
    """A mobile API `module=viewthread` answer. Raises ThreadMissing / LoginRequired / PageFormatError."""
    var = doc.get("Variables")
    msg = doc.get("Message") or {}
    if isinstance(msg, dict) and msg.get("messageval"):
        val = str(msg.get("messageval"))
        if not (isinstance(var, dict) and var.get("postlist")):
            raise_for_notice(val + " " + str(msg.get("messagestr", "")), what)
    if not isinstance(var, dict) or not isinstance(var.get("postlist"), list):
        raise PageFormatError(f"{what}: no postlist in the answer")
    th = var.get("thread")
    th = th if isinstance(th, dict) else {}
    tid = _int(str(th.get("tid"))) or 0
    ppp = _int(str(var.get("ppp"))) or 10
    ppp = ppp if 0 < ppp <= MAX_FLOOR else 10
    replies = _int(str(th.get("replies")))
    maxpos = _int(str(th.get("maxposition")))
    posts: list[Post] = []
    for p in var["postlist"]:
        if not isinstance(p, dict):
            raise PageFormatError(f"{what}: a post that is not an object")
        try:
            pid = _int(str(p["pid"]))
            floor = _int(str(p.get("position") or p.get("number")))
        except KeyError:
            raise PageFormatError(f"{what}: a post without pid or position") from None
        if pid is None or floor is None:
            raise PageFormatError(f"{what}: a post without pid or position")
        _checked(pid, what, "post id", MAX_ID)
        _checked(floor, what, "floor", MAX_FLOOR)
        raw = str(p.get("message") or "")
        status = _int(str(p.get("status"))) or 0
        hidden = bool(status & 1) or any(w in raw for w in _HIDDEN)
        banned = str(p.get("groupid")) in ("4", "5") and any(w in raw for w in _BANNED) or any(w in raw for w in _BANNED)
        body = raw.replace("&amp;", "&")  # the API escapes every & of the rendered message once more
        frag = HTMLParser(f"<div>{body}</div>").css_first("div")
        parts = parse_message(frag) if not (hidden or banned) and frag is not None else None
        ts = _int(str(p.get("dbdateline")))
        try:
            at = datetime.fromtimestamp(ts, tz) if ts else None
        except (OverflowError, OSError, ValueError):  # a timestamp no clock can hold
            at = None
        if at is not None:
            posted_at, precision = at, "second"
        else:
            posted_at, precision = parse_local_time(htmllib.unescape(str(p.get("dateline", ""))), tz)
        posts.append(_post_from_parts(tid=_int(str(p.get("tid"))) or tid, pid=pid, floor=floor,
                                      author=str(p.get("author") or p.get("username") or ""),
                                      uid=_int(str(p.get("authorid"))), posted_at=posted_at, precision=precision,
                                      message_html=body, parts=parts, hidden=hidden, banned=banned,
                                      first=str(p.get("first")) == "1", tz=tz))
    page_count = max(1, -(-((replies or 0) + 1) // ppp)) if replies is not None else 1
    if maxpos:
        page_count = max(page_count, -(-maxpos // ppp))
    _checked(page_count, what, "page count", MAX_PAGES)
    page = 1
    if posts:
        page = (posts[0].floor - 1) // ppp + 1
    return ThreadPage(tid=tid, page=page, last_page=page_count, subject=htmllib.unescape(str(th.get("subject", ""))),
                      fid=_int(str(th.get("fid"))), posts=posts, replies=replies, max_position=maxpos, per_page=ppp,
                      source="api")


def parse_forum_threads(html: str) -> list[tuple[int, str]]:
    """(tid, subject) of the threads a desktop board page (`mod=forumdisplay`) lists."""
    doc = HTMLParser(html)
    out: list[tuple[int, str]] = []
    for a in doc.css("a.xst"):
        m = re.search(r"tid=(\d+)", _attr(a, "href"))
        if m:
            tid = _int(m.group(1))
            if tid is not None and tid > 0:
                out.append((tid, a.text().strip()))
    return out


def game_tag(subjects: Iterable[str]) -> str | None:
    """The bracket tag the game's thread subjects share (`[M84]`, `【004】`), if any."""
    tags = set()
    for s in subjects:
        m = re.match(r"\s*([\[【][^\]】]{1,20}[\]】])", s)
        tags.add(m.group(1) if m else None)
    return tags.pop() if len(tags) == 1 else None
