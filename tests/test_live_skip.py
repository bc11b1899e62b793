"""The live group's gate (tests/live/conftest.py): on a machine that cannot run a forum it skips
with one line, unless CI is set, where the same machine fails the run."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.live import conftest as live


def test_without_root_and_without_php_it_skips_with_one_line(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setattr(live.os, "geteuid", lambda: 1000)
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: subprocess.CompletedProcess(a, 1))
    monkeypatch.setattr(live.Path, "exists", lambda self: False)
    reason = live.why_not_startable()
    assert reason == "no root and no php/mariadb: the live Discuz forum cannot be installed here"
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception) as skipped:
        live._unavailable(reason)
    assert "\n" not in str(skipped.value)
    monkeypatch.setenv("CI", "1")
    with pytest.raises(pytest.fail.Exception) as failed:
        live._unavailable(reason)
    assert "CI is set" in str(failed.value)


def test_as_root_the_start_script_installs_what_is_missing(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setattr(live.os, "geteuid", lambda: 0)
    assert live.why_not_startable() is None
