"""No snapshot key is read by string outside `dune/`: the pages read a stored position through
its typed read model (`dune.engine.codec.schema.SnapshotView`), whose attributes are the keys
the snapshot's declaration holds. A `snapshot.get("turn")`, `position["factions"]` or a
template's `game.position.phase` elsewhere fails here, naming the file and line."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from dune.engine.codec.schema import POSITION_FIELDS
from tests.test_architecture import ROOT, parsed, product_files

#: The declared keys of a position.
KEYS = frozenset(field.key for field in POSITION_FIELDS)
#: Names of values that hold a stored snapshot.
HOLDERS = re.compile(r"(snapshot|position|shown)$")
TEMPLATE_READ = re.compile(r"\b(?:snapshot|position)\.(" + "|".join(sorted(KEYS)) + r")\b")


def _holder(node: ast.expr) -> bool:
    """A value named like a snapshot (`snapshot`, `game.position`, `shown`), or read from a key
    so named (`body.get("position")`)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" and node.args:
        name = _key(node.args[0]) or ""
    else:
        name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
    return bool(HOLDERS.search(name))


def _key(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def string_reads(source: str) -> list[tuple[int, str]]:
    """(line, key) of each declared snapshot key read by string from a snapshot-holding value:
    `snapshot.get("turn")`, `position["phase"]`, `(x.position or {}).get("storm")`."""
    found = []
    for node in ast.walk(parsed(source)):
        target, key = None, None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" and node.args:
            target, key = node.func.value, _key(node.args[0])
        elif isinstance(node, ast.Subscript):
            target, key = node.value, _key(node.slice)
        if isinstance(target, ast.BoolOp):
            target = target.values[0]
        if target is not None and key in KEYS and _holder(target):
            found.append((node.lineno, str(key)))
    return found


def test_no_snapshot_key_is_read_by_string_outside_dune() -> None:
    offenders = []
    for path in product_files(".py", ".html"):
        relative = path.relative_to(ROOT)
        if relative.parts[0] == "dune":
            continue
        text = path.read_text()
        if path.suffix == ".html":
            offenders += [f"{relative}: {m.group(0)}" for m in TEMPLATE_READ.finditer(text)]
        else:
            offenders += [f"{relative}:{line} {key!r}" for line, key in string_reads(text)]
    assert offenders == [], "read the snapshot through dune.engine.codec.schema.SnapshotView"


def test_the_check_finds_a_read_by_string() -> None:
    assert string_reads('turn = snapshot.get("turn")') == [(1, "turn")]
    assert string_reads('phase = (recorded.body.get("position") or {}).get("phase")') == [(1, "phase")]
    assert string_reads('sheets = game.position["factions"]') == [(1, "factions")]
    assert string_reads('kind = event.get("type"); turn = SnapshotView.of(snapshot).turn') == []
    assert TEMPLATE_READ.search("{{ r.game.position.turn }}") and not TEMPLATE_READ.search("{{ r.position_label }}")
    assert Path(__file__).name == "test_snapshot_reads.py"
