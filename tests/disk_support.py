"""Disks that refuse: a small full one, a read-only one. As root (a container, CI with sudo) they are
real tmpfs mounts, so the errors are the kernel's own (ENOSPC, EROFS); otherwise a full disk is a
file-size limit (RLIMIT_FSIZE) on the command's process and a read-only folder is one without
write permission, which a non-root process cannot get round either."""
from __future__ import annotations

import os
import resource
import shutil
import stat
import subprocess
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

ROOT = (os.geteuid() == 0 if hasattr(os, "geteuid") else False) and not os.environ.get("DAOYAN_TEST_NO_MOUNT")


def _mount(folder: Path, size_kb: int) -> bool:
    folder.mkdir(parents=True, exist_ok=True)
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_kb}k,mode=0755", "tmpfs", str(folder)],
                       capture_output=True)
    return r.returncode == 0


def _umount(folder: Path) -> None:
    subprocess.run(["umount", "-l", str(folder)], capture_output=True)


@contextmanager
def small_disk(folder: Path, size_kb: int, file_kb: int | None = None) -> Iterator[Callable[[], None] | None]:
    """`folder` on a disk of `size_kb`; yields None (a real small disk) or a `preexec_fn` that
    limits the size of any file the command writes to `file_kb` (default `size_kb`)."""
    if ROOT and _mount(folder, size_kb):
        try:
            yield None
        finally:
            _umount(folder)
        return
    folder.mkdir(parents=True, exist_ok=True)

    most = (file_kb or size_kb) * 1024

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (most, most))

    yield limit


def fill(folder: Path, leave_kb: int) -> None:
    """Fill the disk of `folder` but `leave_kb` (a real small disk only)."""
    free = shutil.disk_usage(folder).free
    with open(folder / "filler", "wb") as f:
        f.write(b"\0" * max(0, free - leave_kb * 1024))


@contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """`folder`, with what it holds, made read-only (a read-only mount as root)."""
    if ROOT:
        keep = folder.with_name(folder.name + ".content")
        shutil.copytree(folder, keep)
        if _mount(folder, 65536):
            try:
                shutil.copytree(keep, folder, dirs_exist_ok=True)
                if subprocess.run(["mount", "-o", "remount,ro", str(folder)], capture_output=True).returncode == 0:
                    yield
                    return
            finally:
                _umount(folder)
                shutil.rmtree(keep, ignore_errors=True)
        # root ignores file permissions, and this machine lets it mount nothing: no way to make a
        # folder root cannot write (the non-root path below is what CI runners take)
        import pytest

        shutil.rmtree(keep, ignore_errors=True)
        pytest.skip("running as root without permission to mount: cannot make a read-only folder")
    modes = {}
    for p in [folder, *folder.rglob("*")]:
        modes[p] = p.stat().st_mode
        p.chmod(p.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    try:
        yield
    finally:
        for p, m in modes.items():
            p.chmod(m)
