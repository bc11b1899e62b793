"""Which charset a forum answer is in, read from the answer itself (never guessed from the forum).

Discuz X ships UTF-8 and GBK builds. A GBK page says so in its Content-Type and its
`<meta charset>`; its mobile API says `"Charset":"GBK"` yet sends UTF-8 JSON. Every GBK or
GB2312 label is decoded as GB18030, the superset browsers use, so no character is lost.
"""
from __future__ import annotations

import codecs

import regex

UTF8 = "utf-8"
GB18030 = "gb18030"

# WHATWG treats these labels as windows-1252 / GB18030; Python's codecs would be stricter.
_ALIASES = {
    "gbk": GB18030, "gb2312": GB18030, "gb_2312": GB18030, "gb_2312-80": GB18030,
    "x-gbk": GB18030, "cp936": GB18030, "euc-cn": GB18030, "csgb2312": GB18030,
    "chinese": GB18030, "iso-ir-58": GB18030, "gb18030": GB18030,
    "latin1": "cp1252", "iso-8859-1": "cp1252", "iso8859-1": "cp1252", "us-ascii": "cp1252",
    "ascii": "cp1252",
}
_PRESCAN = 4096
_CT_CHARSET = regex.compile(r"""charset\s*=\s*["']?([\w.:-]+)""", regex.I)
_META = regex.compile(
    rb"""<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([\w.:-]+)""", regex.I)
_XML_DECL = regex.compile(rb"""^\s*<\?xml\b[^>]*?\bencoding\s*=\s*["']([\w.:-]+)["']""", regex.I)


def normalize_charset(label: str | None) -> str | None:
    """The codec name a label means, GBK family → gb18030; None when the label is unknown."""
    if not label:
        return None
    key = label.strip().strip("\"'").lower()
    if key in _ALIASES:
        return _ALIASES[key]
    try:
        name = codecs.lookup(key).name
    except LookupError:
        return None
    return _ALIASES.get(name, name)


def _is_utf8(content: bytes) -> bool:
    try:
        content.decode(UTF8)
    except UnicodeDecodeError:
        return False
    return True


def _looks_json(content: bytes, content_type: str | None) -> bool:
    media = (content_type or "").split(";", 1)[0].strip().lower()
    if media.endswith("json") or media.endswith("+json"):
        return True
    if media in ("", "text/plain", "text/javascript", "application/javascript"):
        return content.lstrip()[:1] in (b"{", b"[")
    return False


def detect_charset(content: bytes, content_type: str | None) -> str:
    """The charset to decode `content` with: JSON that is valid UTF-8, then the BOM, the
    Content-Type label, `<meta charset>` / `<meta http-equiv>`, the XML declaration, strict
    UTF-8, and finally GB18030 (the only other charset Discuz is built in)."""
    if _looks_json(content, content_type) and _is_utf8(content):
        return UTF8
    if content.startswith(codecs.BOM_UTF8):
        return UTF8
    if content_type:
        m = _CT_CHARSET.search(content_type)
        found = normalize_charset(m.group(1)) if m else None
        if found:
            return found
    head = content[:_PRESCAN]
    for pattern in (_META, _XML_DECL):
        m = pattern.search(head)
        found = normalize_charset(m.group(1).decode("ascii", "replace")) if m else None
        if found:
            return found
    if _is_utf8(content):
        return UTF8
    return GB18030


def decode(content: bytes, charset: str) -> str:
    """Text of `content`; a stray bad byte becomes U+FFFD instead of losing the page."""
    if charset == UTF8 and content.startswith(codecs.BOM_UTF8):
        content = content[len(codecs.BOM_UTF8):]
    return content.decode(charset, errors="replace")
