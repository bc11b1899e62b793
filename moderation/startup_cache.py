"""What the checker derives at start-up, kept between runs: the fold table, the lexicon's entries
(homophone and look-alike variants spelled out) and its patterns' required literals.

Deriving them takes about a third of a second in pure Python; reading them back takes a few
milliseconds. A cached value is used only under the same fingerprint: the bytes of every file
of this package (code, lexicon, tables), the Python version (its Unicode tables), and the
pypinyin and OpenCC data files the variants and folds come from. Anything else (a missing,
unwritable or corrupt cache) just means deriving again. Values are stored with `marshal`, which
holds plain data only (no code runs when it is read).

The folder is `$DAOYAN_CACHE_DIR`, else `$XDG_CACHE_HOME/daoyan`, else `~/.cache/daoyan`;
`DAOYAN_CACHE_DIR=off` turns the cache off.
"""
from __future__ import annotations

import gc
import hashlib
import importlib.util
import marshal
import os
import sys
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterator, TypeVar

T = TypeVar("T")
PACKAGE = Path(__file__).resolve().parent
_FORMAT = b"daoyan-startup-2"


def cache_dir() -> Path | None:
    """Where the cache lives, or None when it is turned off."""
    env = os.environ.get("DAOYAN_CACHE_DIR")
    if env:
        return None if env.lower() in ("off", "0", "none") else Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        return Path(xdg) / "daoyan"
    try:
        return Path.home() / ".cache" / "daoyan"
    except (RuntimeError, KeyError, OSError):  # no HOME and no passwd entry (a container's uid)
        return None


def _data_file(package: str, relative: str) -> bytes:
    """Path, size and mtime of a data file of another package, found without importing it."""
    try:
        spec = importlib.util.find_spec(package)
        if spec is None or spec.origin is None:
            return b"-"
        p = Path(spec.origin).parent / relative
        st = p.stat()
        return f"{p}|{st.st_size}|{st.st_mtime_ns}".encode()
    except (ImportError, OSError, ValueError):
        return b"-"


@lru_cache(maxsize=1)
def fingerprint() -> str:
    """Changes whenever anything a cached value is derived from may have changed."""
    h = hashlib.sha256(_FORMAT)
    h.update(sys.version.encode())
    for p in sorted(PACKAGE.rglob("*")):
        if p.is_file() and p.suffix in (".py", ".toml", ".txt", ".json"):
            h.update(str(p.relative_to(PACKAGE)).encode() + b"\0")
            h.update(p.read_bytes())
    h.update(_data_file("pypinyin", "pinyin_dict.py"))
    h.update(_data_file("opencc", "dictionary/TSCharacters.txt"))
    from gamedef import hanzi  # the fold's traditional table is read there

    h.update(Path(hanzi.__file__).read_bytes())
    h.update(_data_file("jieba", "dict.txt"))
    return h.hexdigest()


@contextmanager
def paused_gc() -> Iterator[None]:
    """The cyclic collector paused: reading back a cached value makes some hundred thousand
    tuples and strings at once, no cycles among them, and each few hundred of them set off a
    collection that walks every younger object (the engine's tables took twice as long)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def cached(name: str, build: Callable[[], T], *, extra: str = "") -> T:
    """`build()`, or the value it gave under the same fingerprint (and `extra`) before."""
    folder = cache_dir()
    if folder is None:
        return build()
    try:
        key = hashlib.sha256(f"{fingerprint()}|{name}|{extra}".encode()).hexdigest()[:24]
    except OSError:
        return build()
    path = folder / f"{name}-{key}.marshal"
    try:
        with paused_gc():
            value = marshal.loads(path.read_bytes())
            if isinstance(value, tuple) and len(value) == 2 and value[0] == key:
                return _unpack(value[1])  # type: ignore[no-any-return]
    except (OSError, EOFError, ValueError, TypeError):
        pass
    value = build()
    _store(folder, name, path, key, value)
    return value


# A dict's long lists of strings (the engine's 74,000 keys) are kept as one string each, split
# when read: marshal decodes each string of a list on its own, four times slower than one split.
_PACKED = "\x00daoyan-packed-dict"
PACK_FROM = 256  # strings in a list, from which it is packed


def _packable(v: object) -> bool:
    return (type(v) is list and len(v) >= PACK_FROM and all(type(x) is str for x in v)
            and not any("\x00" in x for x in v))


def _pack(value: object) -> object:
    """A dict with lists of strings packed (see _PACKED), or the value itself."""
    if type(value) is tuple and value and value[0] == _PACKED:
        return (_PACKED, None, value)  # a value that looks packed is kept as it is
    if type(value) is not dict or not any(map(_packable, value.values())):
        return value
    return (_PACKED, {k: ("\x00".join(v), len(v)) if _packable(v) else [v] for k, v in value.items()})


def _unpack(value: object) -> object:
    if type(value) is not tuple or not value or value[0] != _PACKED:
        return value
    if len(value) == 3:
        return value[2]
    out = {}
    for k, v in value[1].items():
        if type(v) is tuple:
            got = v[0].split("\x00")
            if len(got) != v[1]:
                raise ValueError("a packed list of another length")  # read as corrupt: built again
            out[k] = got
        else:
            out[k] = v[0]
    return out


# A long list read by index, a few entries a run (the engine's per-key entries: 64,000 tuples
# and frozensets, most never asked for), is kept as marshalled chunks and each chunk is read
# back on first use: unmarshalling the whole lists was a tenth of start-up.
CHUNK_BITS = 8  # 256 entries a chunk


def chunked(values: list) -> tuple[int, list[bytes]]:
    """`values` as the start-up cache keeps it for `Chunked`: its length and its chunks."""
    size = 1 << CHUNK_BITS
    return len(values), [marshal.dumps(values[i:i + size]) for i in range(0, len(values), size)]


class Chunked:
    """A read-only list of `chunked`'s value: indexing and iterating give what the list gave,
    each chunk unmarshalled when an entry of it is first read."""

    __slots__ = ("_n", "_chunks", "_open")

    def __init__(self, packed: tuple[int, list[bytes]]):
        self._n, self._chunks = packed
        self._open: list[list | None] = [None] * len(self._chunks)

    def __len__(self) -> int:
        return self._n

    def _chunk(self, c: int) -> list:
        got = self._open[c]
        if got is None:
            got = self._open[c] = marshal.loads(self._chunks[c])
        return got

    def __getitem__(self, i: int):  # type: ignore[no-untyped-def]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("Chunked index out of range")
        got = self._open[i >> CHUNK_BITS]
        if got is None:
            got = self._chunk(i >> CHUNK_BITS)
        return got[i & ((1 << CHUNK_BITS) - 1)]

    def __iter__(self) -> Iterator:
        for c in range(len(self._chunks)):
            yield from self._chunk(c)


KEEP = 8  # values of one name kept (checkouts or lexicons sharing the folder), newest first


def _store(folder: Path, name: str, path: Path, key: str, value: object) -> None:
    """Write atomically; of this name's values keep the KEEP most recently written."""
    try:
        data = marshal.dumps((key, _pack(value)))
    except ValueError:
        return  # not plain data: nothing to keep
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)
        others = sorted((p for p in folder.glob(f"{name}-*.marshal") if p != path),
                        key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for old in others[KEEP - 1:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass
