"""Discuz! X3.5 markup for the demo forum: desktop pages and mobile-API JSON, as pure functions.

The surrounding page is much smaller than Discuz's own, but every element a parser reads is
written the way Discuz writes it: post blocks, author links, floor labels, dates (relative with the
exact time in a title, absolute for old posts), message bodies with quotes, reply headers, edit
markers, 屏蔽 notices and smilies, the pager, and the notice pages. The API variant applies the
differences the genuine captures show (no font sizes, no edit marker, `&` escaped once more,
quotes as `reply_wrap`, absolute smiley URLs, exact `dbdateline`).
"""
from __future__ import annotations

import html as htmllib
import json
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .sample import Sample, SamplePost, SampleThread

FLOOR_NAMES = {1: "楼主", 2: "沙发", 3: "板凳", 4: "地板"}
HIDDEN_NOTICE = "提示: <em>该帖被管理员或版主屏蔽</em>"
SITE = "节气小镇"
MISSING_TEXT = "抱歉，指定的主题不存在或已被删除或正在被审核"
NOPERM_TEXT = "抱歉，您没有权限访问该版块"


@dataclass(frozen=True)
class View:
    """Who is looking and how the forum is set up, for one response."""

    base_url: str
    now: datetime
    charset: str = "utf-8"  # utf-8 | gbk
    formhash: str = "d3m0f0rm"
    cookiepre: str = "dY7k_2132_"
    uid: int = 0  # 0: a guest
    username: str = ""
    auth: str | None = None
    per_page: int = 10

    @property
    def meta_charset(self) -> str:
        return "gbk" if self.charset == "gbk" else "utf-8"


def esc(s: str) -> str:
    return htmllib.escape(s, quote=True)


# ---------------------------------------------------------------- dates


def _abs(at: datetime, seconds: bool) -> str:
    return at.strftime("%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M")


def post_date(at: datetime, now: datetime, *, span: bool = True) -> str:
    """A post time as Discuz's `dgmdate(…, 'u')` prints it: relative within a week (with the
    exact time in a `<span title>` on desktop pages), absolute minutes otherwise."""
    at = at.astimezone(now.tzinfo)
    today = now.replace(hour=0, minute=0, second=0, microsecond=0)
    diff = int((now - at).total_seconds())
    full = _abs(at, True)
    if at >= today:
        if diff < 0:
            return _abs(at, False)
        if diff > 3600:
            text = f"{diff // 3600}&nbsp;小时前"
        elif diff > 1800:
            text = "半小时前"
        elif diff > 60:
            text = f"{diff // 60}&nbsp;分钟前"
        elif diff > 0:
            text = f"{diff}&nbsp;秒前"
        else:
            text = "刚刚"
    else:
        days = int((today - at).total_seconds() // 86400)
        if days >= 7:
            return _abs(at, False)
        if days == 0:
            text = f"昨天&nbsp;{at:%H:%M}"
        elif days == 1:
            text = f"前天&nbsp;{at:%H:%M}"
        else:
            text = f"{days + 1}&nbsp;天前"
    return f'<span title="{full}">{text}</span>' if span else text


# ---------------------------------------------------------------- message bodies


def _plain_lines(body: str) -> list[str]:
    text = re.sub(r"<br\s*/?>", "\n", body)
    text = re.sub(r"<[^>]+>", "", text)
    return [ln.strip() for ln in text.split("\n") if ln.strip()]


def _findpost(base_url: str, pid: int, tid: int) -> str:
    return f"{base_url}forum.php?mod=redirect&amp;goto=findpost&amp;pid={pid}&amp;ptid={tid}"


def _target(sample: Sample, pid: int | None) -> tuple[SampleThread, SamplePost] | None:
    if pid is None:
        return None
    try:
        return sample.find(pid)
    except KeyError:
        return None


def desktop_message(sample: Sample, thread: SampleThread, post: SamplePost, view: View) -> str:
    """The content of `<td class="t_f" id="postmessage_PID">` for a post."""
    out = ""
    if post.edited_by and post.edited_at:
        out += (f'<i class="pstatus"> 本帖最后由 {esc(post.edited_by)} 于 '
                f'{post.edited_at.astimezone(view.now.tzinfo):%Y-%m-%d %H:%M} 编辑 </i><br />\n<br />\n')
    ref = _target(sample, post.reply_pid)
    if ref:
        rt, rp = ref
        out += (f'<strong>回复 <a href="{_findpost(view.base_url, rp.pid, rt.tid)}" target="_blank">'
                f'{rp.position}#</a> <i>{esc(rp.author)}</i> </strong><br />\n<br />\n')
    q = _target(sample, post.quote_pid)
    if q:
        qt, qp = q
        quoted = "<br />\n".join(_plain_lines(qp.body))
        out += (f'<div class="quote"><blockquote><font size="2"><a href="{_findpost(view.base_url, qp.pid, qt.tid)}" '
                f'target="_blank"><font color="#999999">{esc(qp.author)} 发表于 '
                f'{qp.posted_at.astimezone(view.now.tzinfo):%Y-%m-%d %H:%M}</font></a></font><br />\n'
                f'{quoted}</blockquote></div><br />\n')
    return out + post.body


_FONT_TOKEN = re.compile(r"<font\b([^>]*)>|</font>", re.I)
_SMILEY = re.compile(r'<img src="(static/image/smiley/[^"]+)" smilieid="\d+" border="0" alt="" />')


def _drop_font_sizes(body: str) -> str:
    """`<font size=…>` wrappers removed with their closing tags; colours kept (the API's form)."""
    out, stack, pos = [], [], 0
    for m in _FONT_TOKEN.finditer(body):
        out.append(body[pos:m.start()])
        pos = m.end()
        if m.group(0).startswith("</"):
            keep = stack.pop() if stack else True
            if keep:
                out.append(m.group(0))
        else:
            size_only = re.fullmatch(r'\s*size="?[^"\s]+"?\s*', m.group(1) or "") is not None
            stack.append(not size_only)
            if not size_only:
                out.append(m.group(0))
    out.append(body[pos:])
    return "".join(out)


def api_message(sample: Sample, thread: SampleThread, post: SamplePost, view: View) -> str:
    """The `message` field of the mobile API for a post."""
    if post.hidden:
        return HIDDEN_NOTICE
    out = ""
    ref = _target(sample, post.reply_pid)
    if ref:
        rt, rp = ref
        out += (f'<strong>回复 <a href="{_findpost(view.base_url, rp.pid, rt.tid)}">{rp.position}#</a> '
                f'{esc(rp.author)} </strong><br />\n<br />\n')
    q = _target(sample, post.quote_pid)
    if q:
        qt, qp = q
        quoted = "<br />\n".join(_plain_lines(qp.body))
        out += (f'<div class="reply_wrap"><a href="{_findpost(view.base_url, qp.pid, qt.tid)}"><font color="#999999">'
                f'{esc(qp.author)} 发表于 {qp.posted_at.astimezone(view.now.tzinfo):%Y-%m-%d %H:%M}</font></a><br />\n'
                f'{quoted}</div><br />\n')
    body = _drop_font_sizes(post.body)
    body = _SMILEY.sub(lambda m: f'<img src="{view.base_url}{m.group(1)}" />', body)
    return (out + body).replace("&", "&amp;")


# ---------------------------------------------------------------- page pieces


def page_count(thread: SampleThread, per_page: int) -> int:
    return max(1, -(-len(thread.posts) // per_page))


def page_slice(thread: SampleThread, page: int, per_page: int) -> tuple[int, list[SamplePost]]:
    """The page Discuz shows for `page` (clamped: a page past the last shows the last)."""
    last = page_count(thread, per_page)
    page = min(max(1, page), last)
    return page, thread.posts[(page - 1) * per_page: page * per_page]


def pager(tid: int, page: int, pages: int) -> str:
    """Discuz's `multi()` pager: ten page links around the current one, first/last shortcuts."""
    if pages <= 1:
        return ""
    mp = f"forum.php?mod=viewthread&tid={tid}&amp;extra=&amp;page="
    width, offset = 10, 5
    if pages <= width:
        lo, hi = 1, pages
    else:
        lo, hi = page - offset, page - offset + width - 1
        if lo < 1:
            hi, lo = page + 1 - lo, 1
            hi = max(hi, width)
        elif hi > pages:
            lo, hi = pages - width + 2, pages
    out = []
    if page - offset > 1 and pages > width:
        out.append(f'<a href="{mp}1" class="first">1 ...</a>')
    if page > 1:
        out.append(f'<a href="{mp}{page - 1}" class="prev">&nbsp;&nbsp;</a>')
    for i in range(lo, hi + 1):
        out.append(f"<strong>{i}</strong>" if i == page else f'<a href="{mp}{i}">{i}</a>')
    if hi < pages:
        out.append(f'<a href="{mp}{pages}" class="last">... {pages}</a>')
    out.append(f'<label><input type="text" name="custompage" class="px" size="2" title="输入页码，按回车快速跳转" '
               f'value="{page}" onkeydown="if(event.keyCode==13) {{window.location=\'{mp}\'+this.value;; '
               f'doane(event);}}" /><span title="共 {pages} 页"> / {pages} 页</span></label>')
    if page < pages:
        out.append(f'<a href="{mp}{page + 1}" class="nxt">下一页</a>')
    return '<div class="pg">' + "".join(out) + "</div>"


def _head(view: View, title: str, body_id: str, body_class: str) -> str:
    return f"""<!DOCTYPE html>
<html>
<head>
<meta charset="{view.meta_charset}" />
<meta name="renderer" content="webkit" />
<title>{esc(title)} -  {SITE} -  Powered by Discuz!</title>
<meta name="generator" content="Discuz! X3.5" />
<base href="{view.base_url}" /><script type="text/javascript">var STYLEID = '1', STATICURL = 'static/', IMGDIR = 'static/image/common', VERHASH = 'dY1', charset = '{view.meta_charset}', discuz_uid = '{view.uid}', cookiepre = '{view.cookiepre}', cookiedomain = '', cookiepath = '/', SITEURL = '{view.base_url}';</script>
</head>

<body id="{body_id}" class="{body_class}">
<div id="hd">
<div class="wp">
<div class="hdc cl"><h2><a href="./" title="{SITE}">{SITE}</a></h2>
{_userbox(view)}
</div>
</div>
</div>
"""


def _userbox(view: View) -> str:
    if view.uid:
        return (f'<div id="um"><p><strong class="vwmy"><a href="home.php?mod=space&amp;uid={view.uid}" target="_blank" '
                f'title="访问我的空间">{esc(view.username)}</a></strong><span class="pipe">|</span>'
                f'<a href="member.php?mod=logging&amp;action=logout&amp;formhash={view.formhash}">退出</a></p></div>')
    return f"""<form method="post" autocomplete="off" id="lsform" action="member.php?mod=logging&amp;action=login&amp;loginsubmit=yes&amp;infloat=yes&amp;lssubmit=yes" onsubmit="return lsSubmit();">
<div class="fastlg cl">
<div class="y pns">
<input type="text" name="username" id="ls_username" autocomplete="off" class="px vm" />
<input type="password" name="password" id="ls_password" class="px vm" autocomplete="off" />
<button type="submit" class="pn vm" style="width: 75px;"><em>登录</em></button>
<input type="hidden" name="formhash" value="{view.formhash}" />
<input type="hidden" name="quickforward" value="yes" />
<input type="hidden" name="handlekey" value="ls" />
</div>
</div>
</form>"""


def _foot(view: View) -> str:
    n = view.now
    return f"""<div id="ft" class="wp cl">
<div id="flk" class="y">
<p class="xs0">
GMT+8, {n.year}-{n.month}-{n.day} {n:%H:%M}
</p>
</div>
<div id="frt">
<p>Powered by <strong><a href="https://www.discuz.vip/" target="_blank">Discuz!</a></strong> <em>X3.5</em></p>
</div></div>
</body>
</html>
"""


def _group(sample: Sample, name: str) -> tuple[int, str]:
    return (1, "管理员") if name in sample.directors else (10, "新手上路")


def _post_block(sample: Sample, thread: SampleThread, post: SamplePost, page: int, first_on_page: bool,
                view: View) -> str:
    pid, uid, tid = post.pid, post.uid, thread.tid
    gid, gname = _group(sample, post.author)
    if post.position in FLOOR_NAMES:
        label = FLOOR_NAMES[post.position]
    else:
        label = f"<em>{post.position}</em><sup>#</sup>"
    href = (f"forum.php?mod=viewthread&tid={tid}" if post.position == 1
            else f"forum.php?mod=redirect&goto=findpost&ptid={tid}&pid={pid}")
    if post.hidden:
        content = f'<div class="locked">{HIDDEN_NOTICE}</div>'
    else:
        content = (f'<div class="t_fsz"><table cellspacing="0" cellpadding="0"><tr><td class="t_f" id="postmessage_{pid}">\n'
                   f'{desktop_message(sample, thread, post, view)}</td></tr></table>\n\n</div>\n'
                   f'<div id="comment_{pid}" class="cm">\n</div>\n')
    icon = "online_admin" if gid == 1 else "online_member"
    return f"""<div id="post_{pid}" ><table id="pid{pid}" class="plhin" summary="pid{pid}" cellspacing="0" cellpadding="0">
<tr>
{'<a name="newpost"></a>' if first_on_page else ''} <td class="pls" rowspan="2">
<div id="favatar{pid}" class="pls cl favatar">
<div class="pi">
<div class="authi"><a href="home.php?mod=space&amp;uid={uid}" target="_blank" class="xw1">{esc(post.author)}</a>
</div>
</div>
<div>
<div class="avatar"><a href="home.php?mod=space&amp;uid={uid}" class="avtm" target="_blank"><img src="{view.base_url}uc_server/avatar.php?uid={uid}&size=middle" class="user_avatar"></a></div>
</div>
<p><em><a href="home.php?mod=spacecp&amp;ac=usergroup&amp;gid={gid}" target="_blank">{gname}</a></em></p>
</div>
</td>
<td class="plc">
<div class="pi">
<strong>
<a href="{href}"   id="postnum{pid}" onclick="setCopy(this.href, '帖子地址复制成功');return false;">
{label}</a>
</strong>
<div class="pti">
<div class="pdbt">
</div>
<div class="authi">
<img class="authicn vm" id="authicon{pid}" src="static/image/common/{icon}.gif" />
<em id="authorposton{pid}">发表于 {post_date(post.posted_at, view.now)}</em>
<span class="pipe">|</span>
<a href="forum.php?mod=viewthread&amp;tid={tid}&amp;page={page}&amp;authorid={uid}" rel="nofollow">只看该作者</a>
</div>
</div>
</div><div class="pct"><div class="pcb">
{content}</div>
</div>

</td></tr>
<tr><td class="plc plm">
</td>
</tr>
<tr id="_postposition{pid}"></tr>
<tr>
<td class="pls"></td>
<td class="plc" style="overflow:visible;">
<div class="po hin">
<div class="pob cl">
<em>
<a class="fastre" href="forum.php?mod=post&amp;action=reply&amp;fid={thread.fid}&amp;tid={tid}&amp;repquote={pid}&amp;extra=&amp;page={page}" onclick="showWindow('reply', this.href)">回复</a>
</em>
</div>
</div>
</td>
</tr>
</table>
</div>"""


def thread_page(sample: Sample, tid: int, page: int, view: View) -> str:
    """A desktop `forum.php?mod=viewthread&tid=T&page=N` page (the thread must exist and be readable)."""
    t = sample.threads[tid]
    board = sample.boards[t.fid]
    pages = page_count(t, view.per_page)
    page, posts = page_slice(t, page, view.per_page)
    pg = pager(tid, page, pages)
    if page == 1:
        head_cell = (f'<div class="hm ptn">\n<span class="xg1">查看:</span> <span class="xi1">{t.views}</span>'
                     f'<span class="pipe">|</span><span class="xg1">回复:</span> <span class="xi1">{len(t.posts) - 1}'
                     f"</span>\n</div>")
    else:
        op = t.posts[0] if t.posts else None
        head_cell = (f'<div id="tath" class="cl">\n楼主: <a href="home.php?mod=space&amp;uid={op.uid}" '
                     f'title="{esc(op.author)}">{esc(op.author)}</a>\n</div>') if op else ""
    blocks = "".join(_post_block(sample, t, p, page, i == 0, view) for i, p in enumerate(posts))
    return _head(view, f"{t.subject} - {board.name}", "nv_forum", "pg_viewthread") + f"""
<div id="wp" class="wp">
<script type="text/javascript">var fid = parseInt('{t.fid}'), tid = parseInt('{tid}');</script>
<div id="pt" class="bm cl">
<div class="z">
<a href="./" class="nvhm" title="首页">{SITE}</a><em>&raquo;</em><a href="forum.php">论坛</a> <em>&rsaquo;</em> <a href="forum.php?mod=forumdisplay&amp;fid={t.fid}">{esc(board.name)}</a> <em>&rsaquo;</em> <a href="forum.php?mod=viewthread&amp;tid={tid}">{esc(t.subject)}</a>
</div>
</div>

<div id="ct" class="wp cl">
<div id="pgt" class="pgs mbm cl ">
{('<div class="pgt">' + pg + '</div>') if pg else ''}
<span class="y pgb"><a href="forum.php?mod=forumdisplay&amp;fid={t.fid}">返回列表</a></span>
</div>

<div id="postlist" class="pl bm">
<table cellspacing="0" cellpadding="0">
<tr>
<td class="pls ptn pbn">
{head_cell}
</td>
<td class="plc ptm pbn vwthd">
<h1 class="ts">
<span id="thread_subject">{esc(t.subject)}</span>
</h1>
</td>
</tr>
</table>
{blocks}<div id="postlistreply" class="pl"><div id="post_new" class="viewthread_table" style="display: none"></div></div>
</div>

<div class="pgs mtm mbm cl">
{pg}<span class="pgb y"><a href="forum.php?mod=forumdisplay&amp;fid={t.fid}">返回列表</a></span>
</div>
</div>
</div>
""" + _foot(view)


def notice_page(view: View, text: str, *, error: bool = True, login_hint: bool = False) -> str:
    """Discuz's `showmessage` page: the missing-thread (alert_error) or no-permission (alert_info) notice."""
    cls = "alert_error" if error else "alert_info"
    extra = ("\n<div id=\"messagelogin\"></div>\n<script type=\"text/javascript\">ajaxget('member.php?mod=logging"
             "&action=login&infloat=yes&frommessage', 'messagelogin');</script>") if login_hint else ""
    return _head(view, "提示信息", "nv_forum", "pg_viewthread") + f"""
<div id="wp" class="wp">
<div id="ct" class="wp cl w">
<div class="nfl" id="main_message">
<div class="f_c altw">
<div id="messagetext" class="{cls}">
<p>{text}</p>
</div>{extra}
</div>
</div>
</div>
</div>
""" + _foot(view)


def login_page(view: View, loginhash: str) -> str:
    """`member.php?mod=logging&action=login`: the login form with its formhash."""
    h = loginhash
    return _head(view, "登录", "nv_member", "pg_logging") + f"""
<div id="wp" class="wp">
<div id="ct" class="ptm wp w cl">
<div class="mn" id="main_message">
<div id="main_messaqge_{h}">
<div id="layer_login_{h}">
<h3 class="flb">
<em id="returnmessage_{h}">
</em>
</h3>
<form method="post" autocomplete="off" name="login" id="loginform_{h}" class="cl" onsubmit="pwdclear = 1;ajaxpost('loginform_{h}', 'returnmessage_{h}', 'returnmessage_{h}', 'onerror');return false;" action="member.php?mod=logging&amp;action=login&amp;loginsubmit=yes&amp;loginhash={h}">
<div class="c cl">
<input type="hidden" name="formhash" value="{view.formhash}" />
<input type="hidden" name="referer" value="{view.base_url}./" />
<div class="rfm">
<table>
<tr>
<th>
<span class="login_slct">
<select name="loginfield" style="float: left;" width="45" id="loginfield_{h}">
<option value="username">用户名</option>
<option value="email">Email</option>
</select>
</span>
</th>
<td><input type="text" name="username" id="username_{h}" autocomplete="off" size="30" class="px p_fre" value="" /></td>
</tr>
</table>
</div>
<div class="rfm">
<table>
<tr>
<th><label for="password3_{h}">密码:</label></th>
<td><input type="password" id="password3_{h}" name="password" size="30" class="px p_fre" /></td>
</tr>
</table>
</div>
<div class="rfm">
<table>
<tr>
<th>安全提问:</th>
<td><select id="loginquestionid_{h}" width="213" name="questionid">
<option value="0">安全提问(未设置请忽略)</option>
<option value="1">母亲的名字</option>
</select></td>
</tr>
</table>
</div>
<div class="rfm" id="loginanswer_row_{h}"  style="display:none">
<table>
<tr>
<th>答案:</th>
<td><input type="text" name="answer" id="loginanswer_{h}" autocomplete="off" size="30" class="px p_fre" /></td>
</tr>
</table>
</div>
<div class="rfm ">
<table>
<tr>
<th></th>
<td><label for="cookietime_{h}"><input type="checkbox" class="pc" name="cookietime" id="cookietime_{h}" value="2592000"  />自动登录</label></td>
</tr>
</table>
</div>
<div class="rfm mbw bw0">
<table width="100%">
<tr>
<th>&nbsp;</th>
<td>
<button class="pn pnc" type="submit" name="loginsubmit" value="true"><strong>登录</strong></button>
</td>
</tr>
</table>
</div>
</div>
</form>
</div>
</div>
</div>
</div>
</div>
""" + _foot(view)


def _xml(view: View, cdata: str) -> str:
    return f'<?xml version="1.0" encoding="{view.meta_charset}"?>\n<root><![CDATA[{cdata}]]></root>'


def login_ok_xml(view: View, username: str, admin: bool) -> str:
    """The inajax answer to a successful login."""
    who = ("管理员 " if admin else "") + username
    u = f"{view.base_url}./"
    return _xml(view, f"<script type=\"text/javascript\" reload=\"1\">if($('succeedmessage')) "
                      f"{{$('succeedmessage').innerHTML = '';}}if(typeof succeedhandle_=='function') "
                      f"{{succeedhandle_('{u}', '', {{}});}}</script><script type=\"text/javascript\">"
                      f"setTimeout(\"window.location.href ='{u}';\", 3000);$('succeedmessage_href').href = '{u}';"
                      f"$('main_message').style.display = 'none';$('main_succeed').style.display = '';"
                      f"$('succeedlocation').innerHTML = '欢迎您回来，{who}，现在将转入登录前页面';</script>")


def login_failed_xml(view: View, tries_left: int) -> str:
    """The inajax answer to a wrong name or password."""
    msg = f"登录失败，您还可以尝试 {tries_left} 次"
    return _xml(view, f"{msg}<script type=\"text/javascript\" reload=\"1\">if(typeof errorhandle_=='function') "
                      f"{{errorhandle_('{msg}', {{'loginperm':'{tries_left}'}});}}</script>")


def login_locked_xml(view: View) -> str:
    msg = "密码错误次数过多，请 15 分钟后重新登录"
    return _xml(view, f"{msg}<script type=\"text/javascript\" reload=\"1\">if(typeof errorhandle_=='function') "
                      f"{{errorhandle_('{msg}', {{'loginperm':'0'}});}}</script>")


def bad_formhash_xml(view: View) -> str:
    msg = "您的请求来路不正确或表单验证串不符，无法提交"
    return _xml(view, f"{msg}<script type=\"text/javascript\" reload=\"1\">if(typeof errorhandle_=='function') "
                      f"{{errorhandle_('{msg}', {{}});}}</script>")


def forumdisplay_page(sample: Sample, fid: int, view: View) -> str:
    """The board's thread list (`tbody id="normalthread_T"`, newest first)."""
    board = sample.boards[fid]
    rows = []
    for t in sorted((t for t in sample.threads.values() if t.fid == fid), key=lambda t: -t.tid):
        last = t.posts[-1] if t.posts else None
        rows.append(f"""<tbody id="normalthread_{t.tid}">
<tr>
<th class="common">
 <a href="forum.php?mod=viewthread&amp;tid={t.tid}&amp;extra=page%3D1" onclick="atarget(this)" class="s xst">{esc(t.subject)}</a>
</th>
<td class="by"><cite><a href="home.php?mod=space&amp;uid={t.posts[0].uid if t.posts else 0}" c="1">{esc(t.author)}</a></cite></td>
<td class="num"><a href="forum.php?mod=viewthread&amp;tid={t.tid}&amp;extra=page%3D1" class="xi2">{max(0, len(t.posts) - 1)}</a><em>{t.views}</em></td>
<td class="by"><cite><a href="home.php?mod=space&username={esc(last.author) if last else ''}" c="1">{esc(last.author) if last else ''}</a></cite></td>
</tr>
</tbody>""")
    return _head(view, board.name, "nv_forum", "pg_forumdisplay") + f"""
<div id="wp" class="wp">
<div id="ct" class="wp cl">
<div class="bm bml pbn"><div class="bm_h cl"><h1 class="xs2"><a href="forum.php?mod=forumdisplay&amp;fid={fid}">{esc(board.name)}</a></h1></div></div>
<div id="threadlist" class="tl bm bmw">
<div class="bm_c">
<form method="post" autocomplete="off" name="moderate" id="moderate" action="forum.php?mod=topicadmin&amp;action=moderate&amp;fid={fid}&amp;infloat=yes&amp;nopost=yes">
<table summary="forum_{fid}" id="threadlisttableid" cellspacing="0" cellpadding="0">
{''.join(rows)}
</table>
</form>
</div>
</div>
</div>
</div>
""" + _foot(view)


def index_page(sample: Sample, view: View) -> str:
    links = "".join(f'<h2><a href="forum.php?mod=forumdisplay&amp;fid={b.fid}">{esc(b.name)}</a></h2>\n'
                    for b in sample.boards.values() if view.uid or not b.private)
    return _head(view, "论坛", "nv_forum", "pg_index") + f"""
<div id="wp" class="wp"><div id="ct" class="wp cl"><div class="fl bm">
{links}</div></div></div>
""" + _foot(view)


# ---------------------------------------------------------------- mobile API


def _api_vars(view: View) -> dict[str, Any]:
    return {
        "cookiepre": view.cookiepre, "auth": view.auth, "saltkey": "dEm0SaLt",
        "member_uid": str(view.uid), "member_username": view.username,
        "member_avatar": f"{view.base_url}uc_server/avatar.php?uid={view.uid}&size=small&ts=1",
        "groupid": "7" if not view.uid else "10", "formhash": view.formhash, "ismoderator": "0", "readaccess": "1",
        "notice": {"newpush": "0", "newpm": "0", "newprompt": "0", "newmypost": "0"},
    }


def _api_tail(ppp: int) -> dict[str, Any]:
    return {"allowpostcomment": ["1", "2"], "comments": [], "commentcount": [], "ppp": str(ppp),
            "setting_rewriterule": "", "setting_rewritestatus": "", "forum_threadpay": "",
            "cache_custominfo_postno": ["<sup>#</sup>", "楼主", "沙发", "板凳", "地板"], "forum": {"password": "0"}}


def _api_thread_info(t: SampleThread, now: datetime) -> dict[str, Any]:
    first, last = (t.posts[0], t.posts[-1]) if t.posts else (None, None)
    return {
        "tid": str(t.tid), "fid": str(t.fid), "posttableid": "0", "typeid": "0", "sortid": "0", "readperm": "0",
        "price": "0", "author": first.author if first else "", "authorid": str(first.uid if first else 0),
        "subject": t.subject, "dateline": str(int(first.posted_at.timestamp())) if first else "0",
        "lastpost": last.posted_at.astimezone(now.tzinfo).strftime("%Y-%m-%d %H:%M") if last else "",
        "lastposter": last.author if last else "", "views": str(t.views), "replies": str(max(0, len(t.posts) - 1)),
        "displayorder": "0", "highlight": "0", "digest": "0", "special": "0", "attachment": "0", "closed": "0",
        "status": "32", "maxposition": str(max((p.position for p in t.posts), default=0)),
        "allreplies": str(max(0, len(t.posts) - 1)), "subjectenc": "", "short_subject": t.subject,
        "ordertype": "0", "recommend": "0",
    }


def api_post(sample: Sample, t: SampleThread, p: SamplePost, view: View) -> dict[str, Any]:
    gid, _ = _group(sample, p.author)
    return {
        "pid": str(p.pid), "tid": str(t.tid), "first": "1" if p.position == 1 else "0", "author": p.author,
        "authorid": str(p.uid), "dateline": post_date(p.posted_at, view.now, span=False),
        "message": api_message(sample, t, p, view), "anonymous": "0", "attachment": "0",
        "status": "1" if p.hidden else "0", "replycredit": "0", "position": str(p.position), "username": p.author,
        "adminid": "0", "groupid": str(gid), "memberstatus": "0", "number": str(p.position),
        "dbdateline": str(int(p.posted_at.timestamp())), "groupiconid": "admin" if gid == 1 else "1",
    }


def _envelope(view: View, variables: dict[str, Any], message: dict[str, str] | None = None) -> dict[str, Any]:
    doc: dict[str, Any] = {"Version": "4", "Charset": "GBK" if view.charset == "gbk" else "UTF-8",
                           "Variables": variables}
    if message:
        doc["Message"] = message
    return doc


def api_thread(sample: Sample, tid: int, page: int, ppp: int, view: View) -> dict[str, Any]:
    """`api/mobile/index.php?version=4&module=viewthread&tid=T&page=N&ppp=P` for a readable thread."""
    t = sample.threads[tid]
    last = max(1, -(-len(t.posts) // ppp))
    page = min(max(1, page), last)
    posts = t.posts[(page - 1) * ppp: page * ppp]
    v = _api_vars(view)
    v.update({"thread": _api_thread_info(t, view.now), "fid": str(t.fid),
              "postlist": [api_post(sample, t, p, view) for p in posts]})
    v.update(_api_tail(ppp))
    return _envelope(view, v)


def api_missing(view: View, ppp: int = 10) -> dict[str, Any]:
    v = _api_vars(view)
    v.update({"thread": {"allreplies": "0", "lastpost": "1970-1-1 08:00", "ordertype": None, "recommend": "0"},
              "fid": "0", "postlist": []})
    v.update(_api_tail(ppp))
    v["comments"] = v["commentcount"] = None
    return _envelope(view, v, {"messageval": "thread_nonexistence", "messagestr": "mobile:thread_nonexistence"})


def api_noperm(sample: Sample, tid: int, view: View, ppp: int = 10) -> dict[str, Any]:
    t = sample.threads[tid]
    v = _api_vars(view)
    v.update({"thread": _api_thread_info(t, view.now), "fid": str(t.fid), "postlist": []})
    v.update(_api_tail(ppp))
    return _envelope(view, v, {"messageval": "viewperm_none_nopermission//1",
                               "messagestr": "mobile:viewperm_none_nopermission"})


def api_forumdisplay(sample: Sample, fid: int, view: View) -> dict[str, Any]:
    board = sample.boards[fid]
    ts = sorted((t for t in sample.threads.values() if t.fid == fid), key=lambda t: -t.tid)
    v = _api_vars(view)
    v.update({
        "forum": {"fid": str(fid), "name": board.name, "threads": str(len(ts)),
                  "posts": str(sum(len(t.posts) for t in ts)), "password": "0"},
        "forum_threadlist": [{"tid": str(t.tid), "author": t.author, "authorid": str(t.posts[0].uid if t.posts else 0),
                              "subject": t.subject, "replies": str(max(0, len(t.posts) - 1)), "views": str(t.views),
                              "dbdateline": str(int(t.posts[0].posted_at.timestamp())) if t.posts else "0",
                              "dblastpost": str(int(t.posts[-1].posted_at.timestamp())) if t.posts else "0",
                              "lastposter": t.posts[-1].author if t.posts else ""} for t in ts],
        "tpp": "20", "page": "1",
    })
    return _envelope(view, v)


def api_json(doc: dict[str, Any]) -> bytes:
    """JSON as PHP's json_encode writes it (escaped slashes), UTF-8 whatever the forum's charset."""
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":")).replace("/", "\\/").encode("utf-8")


def encode_page(text: str, view: View) -> bytes:
    return text.encode("gb18030", errors="xmlcharrefreplace") if view.charset == "gbk" else text.encode("utf-8")


def content_type(kind: str, view: View) -> str:
    cs = view.meta_charset
    return {"html": f"text/html; charset={cs}", "xml": f"text/xml; charset={cs}",
            "json": "application/json"}[kind]

