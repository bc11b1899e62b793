"""The BBCode the director will paste, shown roughly as Discuz will show it.

Only the tags daoyan itself writes become HTML (b, color, size, table, list, url); the text is
HTML-escaped first, so a name or reason from a post can only ever be text. A url becomes a link
only when it is plain http(s); colours and sizes become classes of the desk's style sheet.
"""
from __future__ import annotations

import re

from markupsafe import Markup, escape

# the colours daoyan writes, as classes: the desk's CSP allows no inline style
_COLOURS = {"gray": "gray", "grey": "gray", "red": "red", "blue": "blue", "green": "green",
            "#d00000": "red", "#1e6fd9": "blue", "#d4a000": "yellow", "#2e8b3a": "green"}
_URL = re.compile(r"https?://[^\s\"'<>\[\]]+")
_SIZES = ("1", "2", "3", "4", "5", "6", "7")

_SIMPLE = {
    "[b]": "<b>", "[/b]": "</b>", "[table=98%]": '<table class="bb">', "[table]": '<table class="bb">',
    "[/table]": "</table>", "[tr]": "<tr>", "[/tr]": "</tr>", "[td]": "<td>", "[/td]": "</td>",
    "[list]": "<ul>", "[/list]": "</ul>", "[*]": "<li>", "[/color]": "</span>", "[/size]": "</span>",
    "[/url]": "</a>",
}
_TAG = re.compile(r"\[(?:/?(?:b|table|tr|td|list|color|size|url)|\*|table=98%)\]|\[(color|size|url)=([^\]]{1,300})\]")


def _open(kind: str, arg: str) -> str | None:
    if kind == "color":
        return f'<span class="bb-{_COLOURS[arg.lower()]}">' if arg.lower() in _COLOURS else "<span>"
    if kind == "size":
        return f'<span class="bb-s{arg}">' if arg in _SIZES else "<span>"
    if kind == "url" and _URL.fullmatch(arg):
        return f'<a href="{escape(arg)}" target="_blank" rel="noopener noreferrer">'
    return None


def bbcode_to_html(text: str) -> Markup:
    """Escaped text with daoyan's own tags turned into HTML; anything else stays as typed, and a
    closing tag with no opening one before it stays text, so the preview cannot close the page's own."""
    out: list[str] = []
    depth: dict[str, int] = {}
    pos = 0
    for m in _TAG.finditer(text):
        out.append(str(escape(text[pos:m.start()])))
        tag = m.group(0)
        name = (m.group(1) or tag.strip("[]/").split("=")[0]).lower()
        if m.group(1) is not None:
            html = _open(m.group(1), m.group(2))
        elif tag.startswith("[/"):
            html = _SIMPLE[tag] if depth.get(name, 0) > 0 else None
            if html is not None:
                depth[name] -= 1
        else:
            html = _SIMPLE.get(tag)
        if html is not None and not tag.startswith("[/") and tag != "[*]":
            depth[name] = depth.get(name, 0) + 1
        out.append(html if html is not None else str(escape(tag)))
        pos = m.end()
    out.append(str(escape(text[pos:])))
    body = "".join(out).replace("\n", "<br>\n")
    # Discuz keeps the line breaks inside tables and lists out of the cells
    body = re.sub(r"(<(?:/?table[^>]*|/?tr|/td|/?ul)>)<br>\n", r"\1\n", body)
    return Markup(body)
