"""Lone UTF-16 surrogates out of decoded JSON.

JSON may spell half of a surrogate pair (`"\\ud800"`); Python keeps it as a code point that no
UTF-8 file, SQLite column or terminal accepts, so one hostile post would stop a whole scan or lint
at its first write. Each lone surrogate becomes U+FFFD, one character for one, so spans found in
the text still point at the same places.
"""
from __future__ import annotations

import re
from typing import Any

_LONE = re.compile("[\ud800-\udfff]")


def replace_lone_surrogates(value: Any) -> Any:
    """`value` with every string in it (keys too, at any depth) free of lone surrogates."""
    if isinstance(value, str):
        return _LONE.sub("\ufffd", value)
    if isinstance(value, dict):
        return {replace_lone_surrogates(k): replace_lone_surrogates(v) for k, v in value.items()}
    if isinstance(value, list):
        return [replace_lone_surrogates(v) for v in value]
    return value
