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


def _write_temp(folder: Path, name: str, text: str) -> Path:
    """The text in a new hidden file beside its target, flushed to disk."""
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return Path(tmp)


def write_reports(analysis: Mapping[str, Any], out_dir: Path) -> dict[str, Path]:
    """Write dayN.bbcode.txt, dayN.html and dayN.json into out_dir; returns them by kind.

    All three are written under temporary names first and renamed only when every one is
    whole: a full disk or a folder that refuses leaves the previous set as it was, never a new
    announcement beside an old review page."""
    day = analysis.get("day")
    if isinstance(day, bool) or not isinstance(day, int):
        raise ValueError(f"analysis['day'] must be an integer, not {day!r}")
    out_dir = Path(out_dir)
    # Render everything first, so a rendering error leaves the previous files untouched.
    texts = {"bbcode": render_bbcode(analysis), "html": render_html(analysis), "json": render_json(analysis)}
    names = {"bbcode": f"day{day}.bbcode.txt", "html": f"day{day}.html", "json": f"day{day}.json"}
    written: list[tuple[Path, Path]] = []
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        for kind, text in texts.items():
            written.append((_write_temp(out_dir, names[kind], text), out_dir / names[kind]))
        for tmp, path in written:
            os.replace(tmp, path)
    except OSError as e:
        for tmp, _ in written:
            tmp.unlink(missing_ok=True)
        raise OSError(e.errno, e.strerror, str(out_dir)) from None  # the folder, not a temporary name
    except BaseException:
        for tmp, _ in written:
            tmp.unlink(missing_ok=True)
        raise
    return {kind: out_dir / names[kind] for kind in texts}
