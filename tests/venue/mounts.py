"""Real file-system failures for the backups' tests (root only: chmod does not stop root).

- `read_only(path)`: `path` bind-mounted onto itself read-only; writes fail with EROFS.
- `small_disk(path, size)`: a tmpfs of `size` bytes mounted at `path`; filling it makes writes
  fail with ENOSPC, as a full disk does.

Both undo their mount when the block ends, whatever happened in it."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def _run(*args: str) -> None:
    subprocess.run(list(args), check=True, capture_output=True, text=True)


@contextmanager
def read_only(path: Path) -> Iterator[Path]:
    path.mkdir(parents=True, exist_ok=True)
    _run("mount", "--bind", str(path), str(path))
    try:
        _run("mount", "-o", "remount,ro,bind", str(path))
        yield path
    finally:
        _run("umount", str(path))


@contextmanager
def small_disk(path: Path, size: int) -> Iterator[Path]:
    path.mkdir(parents=True, exist_ok=True)
    _run("mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "dune-test-backups", str(path))
    try:
        yield path
    finally:
        _run("umount", str(path))


def fill(path: Path, *, leave: int) -> Path:
    """Fill the disk of `path` with one file until about `leave` bytes are free."""
    import shutil

    filler = path / "filler.bin"
    free = shutil.disk_usage(path).free
    with filler.open("ab") as handle:
        handle.write(b"\0" * max(0, free - leave))
    return filler
