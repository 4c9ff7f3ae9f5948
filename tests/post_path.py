"""The path one request takes through the product's own files, recorded as it runs.

`follow(call)` runs `call()` under a profile hook (`sys.setprofile`) and records, in call
order, each product file a Python function is entered in (the product packages of
`[tool.importlinter]`, without tests and migrations; a pure core counts by the file the path
enters it by, not the files it calls inside itself). `Path.files` lists the distinct files;
`Path.climbs` counts how often the path goes back up the layers: a call that enters a file of
a higher layer than the file the path was last in (the path returned up from a lower layer,
or a lower layer called back up). docs/architecture.md draws the path of the table page's post.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path as FilePath
from typing import Any

ROOT = FilePath(__file__).resolve().parents[1]

#: The layers, highest first, as the layers contract of pyproject.toml orders them.
LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"config", "web"}),
    frozenset({"venue"}),
    frozenset({"insights", "ratings"}),
    frozenset({"clocks"}),
    frozenset({"scoring"}),
    frozenset({"gameplay"}),
    frozenset({"tournament"}),
    frozenset({"foundation"}),
    frozenset({"dune"}),
)
PACKAGES = frozenset().union(*LAYERS)


def layer_of(relative: str) -> int:
    top = relative.split("/", 1)[0]
    return next(i for i, names in enumerate(LAYERS) if top in names)


@dataclass
class Path:
    """The product files a request entered, in order (each once per stay)."""

    steps: list[str] = field(default_factory=list)

    @property
    def files(self) -> list[str]:
        return list(dict.fromkeys(self.steps))

    @property
    def climbs(self) -> int:
        layers = [layer_of(step) for step in self.steps]
        return sum(1 for before, after in zip(layers, layers[1:], strict=False) if after < before)

    def drawn(self) -> str:
        return "\n".join(f"{'  ' * layer_of(step)}{step}" for step in self.steps)


#: The pure cores: a path enters them and comes back with the answer; the functions a core
#: calls inside itself are its own business (pure, no database, no request), so only the file
#: a path enters them by counts.
CORES = "dune/"


def _inside_the_cores(caller: Any, cache: dict[str, str | None]) -> bool:
    """Whether the calling frame runs in a pure core's file too (a core calling itself)."""
    while caller is not None:
        found = _product_file(caller.f_code.co_filename, cache)
        if found is not None:
            return found.startswith(CORES)
        caller = caller.f_back
    return False


def _product_file(filename: str, cache: dict[str, str | None]) -> str | None:
    if filename in cache:
        return cache[filename]
    found: str | None = None
    try:
        relative = FilePath(filename).resolve().relative_to(ROOT).as_posix()
    except ValueError:
        relative = ""
    top = relative.split("/", 1)[0]
    if top in PACKAGES and "/migrations/" not in relative and relative.endswith(".py"):
        found = relative
    cache[filename] = found
    return found


def follow(call: Callable[[], Any]) -> tuple[Any, Path]:
    """`call()`'s result and the path it took through the product's files (this thread only)."""
    path = Path()
    cache: dict[str, str | None] = {}
    me = threading.get_ident()

    def hook(frame: Any, event: str, arg: Any) -> None:
        if event != "call" or threading.get_ident() != me:
            return
        relative = _product_file(frame.f_code.co_filename, cache)
        if relative is None or (relative.startswith(CORES) and _inside_the_cores(frame.f_back, cache)):
            return
        if not path.steps or path.steps[-1] != relative:
            path.steps.append(relative)

    previous = sys.getprofile()
    sys.setprofile(hook)
    try:
        result = call()
    finally:
        sys.setprofile(previous)
    return result, path


def within(path: Path, entry: str) -> Path:
    """The part of `path` from its first step into `entry` (a view's file) until it leaves the
    view's layer's work for the request's wrappers (`config/`): the event's own path, without
    the middleware every request passes."""
    start = path.steps.index(entry)
    end = next((i for i in range(start, len(path.steps)) if path.steps[i].startswith("config/")), len(path.steps))
    return Path(steps=path.steps[start:end])
