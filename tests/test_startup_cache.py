"""The start-up cache: a value derived once is read back under the same fingerprint, and
anything wrong with the cache (corrupt, unwritable, turned off, out of date) only means
deriving again. What the checker reads back is exactly what it would derive."""
from __future__ import annotations

from pathlib import Path

import pytest

from moderation import normalize, startup_cache
from moderation.checker import Checker, _derive, _derived
from moderation.loader import load_lexicon


@pytest.fixture
def folder(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setenv("DAOYAN_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


class Builds:
    def __init__(self, value: object):
        self.value, self.calls = value, 0

    def __call__(self) -> object:
        self.calls += 1
        return self.value


VALUE = ([("孙子", "word", "insult_kin", "孙子")], {"curse": [("天打", "雷劈"), None]})


def test_derived_once_then_read_back(folder: Path) -> None:
    b = Builds(VALUE)
    assert startup_cache.cached("x", b) == VALUE
    assert startup_cache.cached("x", b) == VALUE
    assert b.calls == 1
    assert [p.name.split("-")[0] for p in folder.iterdir()] == ["x"]


@pytest.mark.parametrize("garbage", [b"", b"\x00\x01 not marshal", b"\xe9" * 40])
def test_a_corrupt_file_is_derived_again_and_replaced(folder: Path, garbage: bytes) -> None:
    b = Builds(VALUE)
    startup_cache.cached("x", b)
    (path,) = folder.iterdir()
    path.write_bytes(garbage)
    assert startup_cache.cached("x", b) == VALUE and b.calls == 2
    assert startup_cache.cached("x", b) == VALUE and b.calls == 2


def test_another_fingerprint_derives_again_and_old_values_are_kept_a_while(folder: Path) -> None:
    b = Builds(VALUE)
    startup_cache.cached("x", b, extra="one")
    startup_cache.cached("x", b, extra="two")
    startup_cache.cached("x", b, extra="one")
    assert b.calls == 2 and len(list(folder.iterdir())) == 2  # two checkouts sharing it take turns
    for n in range(20):
        startup_cache.cached("x", b, extra=str(n))
    assert len(list(folder.iterdir())) == startup_cache.KEEP


def test_turned_off_or_unwritable_still_gives_the_value(tmp_path: Path, monkeypatch) -> None:
    b = Builds(VALUE)
    monkeypatch.setenv("DAOYAN_CACHE_DIR", "off")
    assert startup_cache.cached("x", b) == VALUE and startup_cache.cached("x", b) == VALUE
    assert b.calls == 2
    monkeypatch.delenv("DAOYAN_CACHE_DIR")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)

    def no_home() -> Path:
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.setattr(Path, "home", staticmethod(no_home))
    assert startup_cache.cache_dir() is None
    assert startup_cache.cached("x", b) == VALUE and b.calls == 3
    monkeypatch.undo()
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("DAOYAN_CACHE_DIR", str(blocker / "cache"))
    assert startup_cache.cached("x", b) == VALUE and b.calls == 4


def test_the_fingerprint_follows_the_package_files(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "lexicon").mkdir()
    f = tmp_path / "lexicon" / "curse.toml"
    f.write_text('terms = ["一"]\n', "utf-8")
    monkeypatch.setattr(startup_cache, "PACKAGE", tmp_path)
    startup_cache.fingerprint.cache_clear()
    try:
        first = startup_cache.fingerprint()
        f.write_text('terms = ["二"]\n', "utf-8")
        startup_cache.fingerprint.cache_clear()
        assert startup_cache.fingerprint() != first
    finally:
        startup_cache.fingerprint.cache_clear()


def test_the_checker_reads_back_exactly_what_it_derives(folder: Path) -> None:
    lexicon = load_lexicon()
    want = _derive(lexicon)
    first = _derived(lexicon)  # derives and writes
    again = _derived(lexicon)  # reads back
    assert first == want and again == want
    assert [type(e) for e in again[0]] == [tuple] * len(want[0])
    assert any(p.name.startswith("lexicon-") for p in folder.iterdir())


def test_a_lexicon_changed_after_loading_is_not_served_the_old_entries(folder: Path) -> None:
    lexicon = load_lexicon()
    Checker(lexicon=lexicon)  # fills the cache
    lexicon.categories["curse"].terms.append("香蕉皮")
    assert [f.category for f in Checker(lexicon=lexicon).check_text("你是香蕉皮")] == ["curse"]
    assert any(e[3] == "香蕉皮" for e in _derived(lexicon)[0])


def test_the_fold_table_read_back_is_the_derived_one(folder: Path) -> None:
    want = normalize._fold_changes()
    assert startup_cache.cached("fold-table", normalize._fold_changes) == want
    assert startup_cache.cached("fold-table", lambda: pytest.fail("derived again")) == want
    size, changes = want
    assert size >= 0x10000 and changes[ord("Ａ")] == "a" and changes[ord("說")] == "说"


def test_a_lexicon_of_other_files_has_its_own_entry(tmp_path: Path, folder: Path) -> None:
    d = tmp_path / "lex"
    d.mkdir()
    (d / "curse.toml").write_text('terms = ["天打雷劈"]\n', "utf-8")
    # every entry (the term and its derived spellings) is the term's
    assert {e[3] for e in _derived(load_lexicon(d))[0]} == {"天打雷劈"}
    (d / "curse.toml").write_text('terms = ["天打五雷轰"]\n', "utf-8")
    assert {e[3] for e in _derived(load_lexicon(d))[0]} == {"天打五雷轰"}
