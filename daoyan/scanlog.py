"""The `scans` table's bookkeeping: which process runs a scan, and which scans were interrupted.

A scan killed with SIGKILL (or by a power cut) never writes its end; without this its row says
`running` forever. Each scan records its process, and the next scan marks the rows of
processes that are gone as `interrupted`, leaving a scan that still runs beside it alone.
"""
from __future__ import annotations

import os
import socket
from datetime import datetime, timezone

from .store import Store


def _process_start(pid: int) -> str | None:
    """When process `pid` started (clock ticks since boot, Linux), so a reused pid is no match."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read().decode("ascii", "replace")
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[-1].split()
    return fields[19] if len(fields) > 19 else None


def _alive(pid: int, started: str | None) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process of that pid: alive, maybe not ours
        pass
    except (OSError, OverflowError, ValueError):
        return False
    now = _process_start(pid)
    return started is None or now is None or now == started


def mark_interrupted(store: Store) -> int:
    """Rows of scans still `running` whose process is gone become `interrupted`; how many."""
    cols = {r[1] for r in store.db.execute("pragma table_info(scans)")}
    if "pid" not in cols:
        rows = [(i, None, None, None) for (i,) in store.db.execute("select id from scans where status='running'")]
    else:
        rows = store.db.execute("select id, pid, host, proc_start from scans where status='running'").fetchall()
    host = socket.gethostname()
    gone = []
    for i, pid, h, started in rows:
        if pid is None or h is None:  # recorded before scans named their process: long gone
            gone.append(i)
        elif h == host and not _alive(int(pid), started):  # another machine's process cannot be asked
            gone.append(i)
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    with store.transaction():
        for i in gone:
            store.db.execute("update scans set status='interrupted', finished_at=coalesce(finished_at, ?), "
                             "note=coalesce(note, 'the scan stopped before it ended (killed, or the machine "
                             "stopped); everything it stored is kept') where id=? and status='running'", [now, i])
    return len(gone)


def begin_scan(store: Store) -> int:
    """A new row in `scans` for this process, after marking the interrupted ones."""
    row = {"started_at": datetime.now(timezone.utc).isoformat(timespec="seconds"), "status": "running",
           "pid": os.getpid(), "host": socket.gethostname(), "proc_start": _process_start(os.getpid())}
    with store.transaction():  # two scans starting at once add the columns once
        cols = {r[1] for r in store.db.execute("pragma table_info(scans)")}
        for c, t in (("pid", "integer"), ("host", "text"), ("proc_start", "text")):
            if c not in cols:
                store.db.execute(f"alter table scans add column {c} {t}")
    mark_interrupted(store)
    return store.db["scans"].insert(row).last_pk
