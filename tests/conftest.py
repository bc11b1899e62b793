"""Shared fixtures: where the genuine captures are, skipped with a reason where ../shared is absent."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CAPTURES = SHARED / "discuz"
EVAL = SHARED / "eval"


def need_shared() -> Path:
    if not CAPTURES.is_dir():
        pytest.skip("../shared/discuz (the genuine Discuz captures) is not beside this checkout")
    return CAPTURES


@pytest.fixture(scope="session")
def captures() -> Path:
    return need_shared()


@pytest.fixture(scope="session")
def truth(captures: Path) -> dict:
    return json.loads((captures / "x35-utf8" / "ground_truth.json").read_text("utf-8"))
