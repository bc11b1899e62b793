"""The desktop page parser on hand-made pages in X3.x post-block markup, runnable without the
captures: attachments (the list under a post and inline), anonymous posts, 屏蔽 posts, the
thread header (subject, counters, pager) and blocks with something between them.

The page query is one grouped selector walk whose matches are sorted out by id and class in
Python; these cases pin what each kind of node must end up as, so a cheaper query cannot
silently lose one.
"""
from __future__ import annotations

from zoneinfo import ZoneInfo

import pytest

from parsers.discuz import parse_thread_page

TZ = ZoneInfo("Asia/Shanghai")


def block(pid: int, floor: int, author: str, uid: int, message: str, *, after: str = "",
          locked: str | None = None) -> str:
    """One post block shaped like X3.5's viewthread_node (user card left, post right)."""
    card = (f'<div class="authi"><a href="home.php?mod=space&amp;uid={uid}" target="_blank" class="xw1">{author}</a></div>'
            if uid else author)  # X3.5 prints an anonymous or deleted author bare in div.pi
    only = f'<span class="pipe">|</span><a href="forum.php?mod=viewthread&amp;tid=9&amp;authorid={uid}" rel="nofollow">只看该作者</a>'

    body = (f'<div class="locked">{locked}</div>' if locked is not None else
            f'<div class="t_fsz"><table cellspacing="0" cellpadding="0"><tr><td class="t_f" id="postmessage_{pid}">'
            f"{message}</td></tr></table>{after}</div>")
    return f"""<div id="post_{pid}" ><table id="pid{pid}" class="plhin" summary="pid{pid}" cellspacing="0" cellpadding="0">
<tr><td class="pls" rowspan="2"><div id="favatar{pid}" class="pls cl favatar"><div class="pi">
{card}</div>
<div class="i y"><strong><a href="home.php?mod=space&amp;uid={uid}" class="xi2">{author}</a></strong></div>
</div></td>
<td class="plc"><div class="pi"><strong>
<a href="forum.php?mod=redirect&goto=findpost&ptid=9&pid={pid}" id="postnum{pid}"><em>{floor}</em><sup>#</sup></a>
</strong><div class="pti"><div class="authi">
<em id="authorposton{pid}">发表于 <span title="2026-11-26 14:4{floor % 10}:00">6&nbsp;天前</span></em>
{only if uid else ""}
</div></div></div>
<div class="pct"><div class="pcb">{body}
<div id="comment_{pid}" class="cm"></div><div id="post_rate_div_{pid}"></div></div></div>
</td></tr></table></div>
"""


def page(*blocks: str, between: str = "", pager: str = "") -> str:
    return f"""<!DOCTYPE html><html><head><title>t</title></head><body>
<script type="text/javascript">var fid = parseInt('2'), tid = parseInt('9');</script>
<div id="pgt" class="pgs mbm cl">{pager}</div>
<div id="postlist" class="pl bm"><table cellspacing="0" cellpadding="0"><tr>
<td class="pls ptn pbn"><div class="hm ptn"><span class="xg1">查看:</span> <span class="xi1">321</span>
<span class="pipe">|</span><span class="xg1">回复:</span> <span class="xi1">{len(blocks) + 40}</span></div></td>
<td class="plc ptm pbn vwthd"><h1 class="ts"><span id="thread_subject">[M84] 第二天 讨论帖</span></h1></td>
</tr></table>
{between.join(blocks)}
</div><div id="postlistreply" class="pl"><div id="post_new" class="viewthread_table"></div></div>
</body></html>"""


IMAGE = '<ignore_js_op><img id="aimg_{0}" aid="{0}" zoomfile="data/attachment/forum/{0}.jpg" file="data/attachment/forum/{0}.jpg" /></ignore_js_op>'
FILE = '<ignore_js_op><dl class="tattl"><dt><img src="static/image/filetype/zip.gif" /></dt><dd><a href="forum.php?mod=attachment&amp;aid={0}">a{0}.zip</a></dd></dl></ignore_js_op>'


def parse(html: str):
    return {p.pid: p for p in parse_thread_page(html, tz=TZ).posts}


def test_the_thread_header_and_every_field_of_a_plain_post() -> None:
    html = page(block(11, 1, "饺子", 3, "我是好人。<br />投 汤圆"), block(12, 2, "汤圆", 7, "你才是狼"),
                pager='<div class="pg"><strong>1</strong><a href="forum.php?mod=viewthread&amp;tid=9&amp;page=2">2</a>'
                      '<label><span title="共 2 页"> / 2 页</span></label></div>')
    tp = parse_thread_page(html, tz=TZ)
    assert (tp.tid, tp.fid, tp.subject, tp.page, tp.last_page, tp.replies) == (9, 2, "[M84] 第二天 讨论帖", 1, 2, 42)
    p = tp.posts[0]
    assert (p.pid, p.floor, p.author, p.uid, p.first, p.text) == (11, 1, "饺子", 3, True, "我是好人。\n投 汤圆")
    assert p.posted_at.isoformat() == "2026-11-26T14:41:00+08:00" and p.time_precision == "second"
    assert [(p.pid, p.floor, p.uid) for p in tp.posts[1:]] == [(12, 2, 7)]


@pytest.mark.parametrize("message, after, want", [
    ("没有附件", "", 0),
    ("看图", '<div class="pattl">' + IMAGE.format(5) + IMAGE.format(6) + "</div>", 2),
    ("见附件", '<div class="pattl">' + FILE.format(7) + "</div>", 2),  # the <ignore_js_op> and its <dl class="tattl">
    ("行内" + FILE.format(8), "", 2),
    ("行内图" + IMAGE.format(9), "", 1),
    ("两处" + IMAGE.format(9), '<div class="pattl">' + IMAGE.format(10) + "</div>", 2),
])
def test_attachments_under_and_inside_a_post_are_counted(message: str, after: str, want: int) -> None:
    posts = parse(page(block(21, 1, "饺子", 3, "开始"), block(22, 2, "汤圆", 7, message, after=after),
                       block(23, 3, "馄饨", 8, "后面一楼")))
    assert posts[22].attachments == want
    assert posts[21].attachments == 0 and posts[23].attachments == 0


def test_an_anonymous_post_and_a_blocked_one() -> None:
    posts = parse(page(block(31, 1, "饺子", 3, "开始"), block(32, 2, "匿名", 0, "我不说是谁"),
                       block(33, 3, "汤圆", 7, "", locked="提示: <em>作者被禁止或删除 内容自动屏蔽</em>"),
                       block(34, 4, "馄饨", 8, "", locked="提示: <em>该帖被管理员或版主屏蔽</em>"),
                       block(35, 5, "老王 <em>该用户已被删除</em>", 0, "人走了话还在")))
    assert (posts[32].author, posts[32].uid, posts[32].text) == ("匿名", None, "我不说是谁")
    assert (posts[33].author_banned, posts[33].hidden, posts[33].text) == (True, False, "")
    assert (posts[34].author_banned, posts[34].hidden, posts[34].text) == (False, True, "")
    assert (posts[35].author, posts[35].uid, posts[35].text) == ("老王", None, "人走了话还在")


@pytest.mark.parametrize("between", ["", '<div class="ad">广告</div>\n', "<!-- x -->"])
def test_something_between_blocks_does_not_move_a_field(between: str) -> None:
    posts = parse(page(block(41, 1, "饺子", 3, "一", after='<div class="pattl">' + IMAGE.format(1) + "</div>"),
                       block(42, 2, "汤圆", 7, "二"), block(43, 3, "馄饨", 8, "三"), between=between))
    assert [(p.floor, p.author, p.text, p.attachments) for p in posts.values()] == [
        (1, "饺子", "一", 1), (2, "汤圆", "二", 0), (3, "馄饨", "三", 0)]


def test_ids_that_merely_contain_post_are_not_fields() -> None:
    decoys = ('<div id="postlist_extra"><a id="postnumber" class="xw1">冒充</a></div>'
              '<span id="_postposition41" class="xi1">99</span>')
    posts = parse(page(block(41, 1, "饺子", 3, "一" + decoys), block(42, 2, "汤圆", 7, "二")))
    assert (posts[41].author, posts[41].floor, posts[41].text) == ("饺子", 1, "一\n冒充\n99")
    assert (posts[42].author, posts[42].floor) == ("汤圆", 2)


def test_blocks_nested_in_a_broken_page_keep_their_own_fields() -> None:
    inner = block(62, 2, "汤圆", 7, "二", after='<div class="pattl">' + IMAGE.format(3) + "</div>")
    outer = block(61, 1, "饺子", 3, "一").replace('<div id="comment_61"', inner + '<div id="comment_61"')
    posts = parse(page(outer, block(63, 3, "馄饨", 8, "三")))
    assert [(p.pid, p.floor, p.author, p.attachments) for p in posts.values()] == [
        (61, 1, "饺子", 1), (62, 2, "汤圆", 1), (63, 3, "馄饨", 0)]
