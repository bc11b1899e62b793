"""reports: renders the engine's results as BBCode, HTML and JSON; never computes a rule."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any, Mapping

from .bbcode import render_bbcode
from .html import render_html
from .jsonout import render_json

__all__ = ["render_bbcode", "render_html", "render_json", "write_reports"]


def _write_atomic(path: Path, text: str) -> None:
    """Write beside the target, then rename: a reader (or `watch`) never sees half a file."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_reports(analysis: Mapping[str, Any], out_dir: Path) -> dict[str, Path]:
    """Write dayN.bbcode.txt, dayN.html and dayN.json into out_dir; returns them by kind."""
    day = analysis.get("day")
    if isinstance(day, bool) or not isinstance(day, int):
        raise ValueError(f"analysis['day'] must be an integer, not {day!r}")
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    # Render everything first, so a rendering error leaves the previous files untouched.
    texts = {"bbcode": render_bbcode(analysis), "html": render_html(analysis), "json": render_json(analysis)}
    names = {"bbcode": f"day{day}.bbcode.txt", "html": f"day{day}.html", "json": f"day{day}.json"}
    paths = {}
    for kind, text in texts.items():
        path = out_dir / names[kind]
        _write_atomic(path, text)
        paths[kind] = path
    return paths
