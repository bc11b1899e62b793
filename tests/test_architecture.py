"""The layers of the project, as pyproject's import-linter contracts state them, hold.

daoyan (the application) → reports → engine → moderation | parsers | scraper → gamedef (the game's
definition): a package imports only what lies below it, and siblings of one layer do not know each
other. A lower package importing the application would turn the flow upside down again.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_import_contracts_are_kept() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    out = subprocess.run([str(lint), "--config", str(ROOT / "pyproject.toml")], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert "0 broken" in out.stdout


def test_the_game_definition_imports_no_other_package_of_the_project() -> None:
    above = ("daoyan", "reports", "engine", "moderation", "parsers", "scraper")
    for path in (ROOT / "gamedef").rglob("*.py"):
        text = path.read_text("utf-8")
        for pkg in above:
            assert f"from {pkg}" not in text and f"import {pkg}" not in text, (path.name, pkg)
