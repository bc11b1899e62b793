"""Loose HTML (a `lint` record with `"html"`) to the post fields the checker reads.

Deliberately simple: `<br>` becomes a newline, quoted blocks are dropped (they are someone
else's words), tags are stripped; font colours and sizes are collected for the font check.
The real Post parser is `parsers/discuz.py`; this is only for records outside a thread.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from selectolax.lexbor import LexborHTMLParser as HTMLParser

_BR = re.compile(r"<br\s*/?>", re.I)


@dataclass
class LooseHtml:
    text: str
    colors: list[str] = field(default_factory=list)
    sizes: list[str] = field(default_factory=list)
    links: list[str] = field(default_factory=list)
    smilies: int = 0


def from_html(html: str) -> LooseHtml:
    tree = HTMLParser(_BR.sub("\n", html))
    for node in tree.css("blockquote, div.quote, script, style"):
        node.decompose()
    colors: list[str] = []
    sizes: list[str] = []
    for node in tree.css("font, span, div, p, strong, b"):
        attrs = node.attributes
        if attrs.get("color"):
            colors.append(attrs["color"])
        if attrs.get("size"):
            sizes.append(attrs["size"])
        style = attrs.get("style") or ""
        m = re.search(r"(?<![\w-])color\s*:\s*([^;]+)", style, re.I)
        if m:
            colors.append(m.group(1).strip())
        m = re.search(r"font-size\s*:\s*([^;]+)", style, re.I)
        if m:
            sizes.append(m.group(1).strip())
    links = [a.attributes.get("href") or "" for a in tree.css("a") if a.attributes.get("href")]
    smilies = len(tree.css("img[smilieid]"))
    root = tree.body if tree.body is not None else tree.root
    text = root.text(deep=True) if root is not None else ""
    return LooseHtml(text.strip(), colors, sizes, links, smilies)
