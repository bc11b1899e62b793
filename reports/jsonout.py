"""The day's analysis as JSON: the same dict the other reports render, for scripts and diffs."""
from __future__ import annotations

import json
from datetime import date, datetime
from pathlib import Path
from typing import Any, Mapping


def _plain(value: Any) -> Any:
    """A fallback for values the engine may hand over unconverted, so a report never fails on them."""
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=str)
    if isinstance(value, Path):
        return str(value)
    if hasattr(value, "to_json"):
        return value.to_json()
    raise TypeError(f"not JSON-able: {type(value).__name__}")


def render_json(analysis: Mapping[str, Any]) -> str:
    """Pretty, UTF-8 readable, keys sorted so two runs over the same data give the same bytes."""
    return json.dumps(analysis, ensure_ascii=False, indent=2, sort_keys=True, default=_plain) + "\n"
