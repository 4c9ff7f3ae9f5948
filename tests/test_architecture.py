"""The layer order of DESIGN.md principle 7, as docs/architecture.md describes it.

The import contracts live in pyproject.toml ([tool.importlinter]) and are checked by
import-linter; these tests run it on the tree, show that each contract breaks on a violating
import, and keep out the two ways a cycle used to be hidden (an import inside a function, an
`except ImportError` around our own module) and format names compared outside the registry.
"""

from __future__ import annotations

import ast
import functools
import itertools
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OUR_PACKAGES = ("config", "web", "dune", "foundation", "mail", "tournament", "gameplay", "scoring", "clocks", "insights", "ratings", "venue")
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def product_files(*suffixes: str) -> list[Path]:
    files: list[Path] = []
    for package in (*OUR_PACKAGES, "templates", "static"):
        for path in sorted((ROOT / package).rglob("*")):
            if path.suffix in suffixes and "migrations" not in path.parts and "vendor" not in path.parts:
                files.append(path)
    return files


@functools.cache
def parsed(source: str) -> ast.Module:
    """The syntax tree of `source`, parsed once per test process: several checks walk every
    product module (they only read the trees)."""
    return ast.parse(source)


def lint_imports(cwd: Path, *, cache: bool = False) -> subprocess.CompletedProcess[str]:
    """import-linter on the tree at `cwd`; with `cache`, it keeps each module's imports in
    `cwd/.import_linter_cache` and parses again only the modules whose modification time
    changed (the tree copy below: one module changes between runs)."""
    return subprocess.run(
        [str(LINT_IMPORTS), "--cache-dir", str(cwd / ".import_linter_cache")] if cache else [str(LINT_IMPORTS), "--no-cache"],
        cwd=cwd,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(cwd)},
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_import_contracts_hold() -> None:
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.fixture(scope="module")
def tree_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the product packages, to break on purpose."""
    copy = tmp_path_factory.mktemp("tree")
    for package in OUR_PACKAGES:
        shutil.copytree(ROOT / package, copy / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    return copy


_writes = itertools.count(1)


def write_module(path: Path, text: str) -> None:
    """Write `text` and give the file a modification time it never had before, so the import
    cache of the tree copy reads it again whatever the file system's clock resolution."""
    path.write_text(text)
    moment = path.stat().st_mtime_ns + next(_writes) * 10**9
    os.utime(path, ns=(moment, moment))


@pytest.mark.parametrize(
    ("module", "line", "broken"),
    [
        # A lower app reaching up: the seating services asking scoring directly.
        ("tournament/services/rounds.py", "from scoring import services as _scoring", "Layers run one way"),
        # An app importing a page: only the top layer may.
        ("scoring/services.py", "from web.tournament import views as _views", "Layers run one way"),
        # A pure core loading Django through another module.
        ("dune/formats/__init__.py", "from tournament import models as _models", "pure cores import no Django"),
        # A core reaching above its place: the engine asking the format registry.
        ("dune/engine/ids.py", "from dune import formats as _formats", "pure cores in one order"),
        # The layer under the apps reaching up into one, or answering as one door only (DRF).
        ("foundation/idempotency.py", "from tournament import models as _models", "Layers run one way"),
        # The outbox knowing a tournament model: it keeps a tournament's number only.
        ("mail/outbox.py", "from tournament import models as _models", "Layers run one way"),
        ("foundation/idempotency.py", "from rest_framework import response as _response", "answers every door"),
        # An app reading a request or writing a response: only the web layer and config may.
        ("gameplay/services.py", "from django.http import HttpRequest as _HttpRequest", "read requests"),
        ("tournament/permissions.py", "from django.shortcuts import render as _render", "read requests"),
    ],
)
def test_a_violating_import_breaks_its_contract(tree_copy: Path, module: str, line: str, broken: str) -> None:
    path = tree_copy / module
    original = path.read_text()
    write_module(path, original + f"\n{line}\n")
    try:
        result = lint_imports(tree_copy, cache=True)
    finally:
        write_module(path, original)
    assert result.returncode != 0, result.stdout
    assert re.search(re.escape(broken) + r"[^\n]*\n?[^\n]*BROKEN", result.stdout), result.stdout


def test_no_except_import_error_in_product_code() -> None:
    """A cycle is redesigned away, never hidden behind a failed import."""
    offenders = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in product_files(".py")
        for n, text in enumerate(path.read_text().splitlines(), start=1)
        if re.search(r"except\s*\(?[^:]*\b(ImportError|ModuleNotFoundError)\b", text)
    ]
    assert offenders == []


def test_no_import_of_our_modules_inside_a_function() -> None:
    """Imports of our own packages sit at the top of the module, where the contracts see them."""
    offenders: list[str] = []
    for path in product_files(".py"):
        tree = parsed(path.read_text())
        for func in ast.walk(tree):
            if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(func):
                names: list[str] = []
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    names = [node.module]
                if any(name.split(".")[0] in OUR_PACKAGES for name in names):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {names[0]}")
    assert offenders == []


FORMAT_COMPARISON = re.compile(
    r"""(==|!=)\s*["'](wbc|lolv)["']|["'](wbc|lolv)["']\s*(==|!=)|\bin\s*[\(\[{]\s*["'](wbc|lolv)["']"""
)


def test_no_format_comparison_outside_the_registry() -> None:
    """Everything a format decides is asked of `formats.get_format(key)` (DESIGN.md principle 8)."""
    offenders = [
        f"{path.relative_to(ROOT)}:{n}: {text.strip()}"
        for path in product_files(".py", ".html", ".js")
        if path.relative_to(ROOT).parts[:2] != ("dune", "formats")
        for n, text in enumerate(path.read_text().splitlines(), start=1)
        if FORMAT_COMPARISON.search(text)
    ]
    assert offenders == []


KEY_LOOKUP = re.compile(r"\b(get_system|build_system|limit_for)\(|\bLIMITS\[|\bSYSTEMS\[")


def test_no_points_system_or_clock_limit_is_looked_up_by_key_outside_the_cores() -> None:
    """A format owns its points system and clock limits as objects (`tournament.rules.points`,
    `tournament.rules.clock(kind)`); only `dune/` builds them from keys."""
    offenders = [
        f"{path.relative_to(ROOT)}:{n}: {text.strip()}"
        for path in product_files(".py", ".html")
        if path.relative_to(ROOT).parts[0] != "dune"
        for n, text in enumerate(path.read_text().splitlines(), start=1)
        if KEY_LOOKUP.search(text)
    ]
    assert offenders == []
    assert KEY_LOOKUP.search('system = get_system(tournament.format)')


def test_the_format_comparison_check_would_see_one() -> None:
    assert FORMAT_COMPARISON.search('if tournament.format == "wbc":')
    assert FORMAT_COMPARISON.search("{% if scoring.format != 'lolv' %}")
    assert not FORMAT_COMPARISON.search('get_format("wbc").turn_limit("final")')


#: A function longer than this says in its docstring why it is long ("Long because ...").
LONG_FUNCTION = 60


def test_long_functions_say_why_they_are_long() -> None:
    """Small rooms: a function over ~60 lines is split, or its docstring gives the reason."""
    offenders: list[str] = []
    for path in product_files(".py"):
        tree = parsed(path.read_text())
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > LONG_FUNCTION and "Long because" not in (ast.get_docstring(node) or ""):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({length} lines)")
    assert offenders == []


def test_the_layers_contract_needs_no_exemptions() -> None:
    """The web layer (pages, API views, URLs, admin, template tags, commands) sits above the
    apps in its own package, so the layers contract ignores no import at all."""
    import tomllib

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    layers = next(c for c in contracts if c["id"] == "layers")
    assert "ignore_imports" not in layers
    assert layers["layers"][0] == "config : web" and layers["layers"][-1] == "dune"
    apps = ("tournament", "gameplay", "scoring", "clocks", "insights", "ratings", "venue")
    web_modules = [p for app in apps for p in (ROOT / app).glob("*.py")
                   if p.stem in ("views", "api", "urls", "api_urls", "admin", "page", "schemas")
                   or p.stem.endswith(("_views", "_api")) or p.stem.startswith("page_")]
    assert web_modules == [], "pages and API views live in web/"


#: Methods that write rows through the ORM (a model's, a manager's or a queryset's).
ORM_WRITES = {"save", "create", "bulk_create", "bulk_update", "get_or_create", "update_or_create", "update",
              "delete"}
#: Calls in a receiver chain that make it a queryset (`X.objects`, `.filter(...)`...).
QUERYSET_STEPS = {"objects", "filter", "exclude", "all", "select_for_update", "select_related"}


def _chain(node: ast.AST) -> list[str]:
    """The attribute and call names a receiver is built from (`Player.objects.filter` ->
    [Player, objects, filter])."""
    names: list[str] = []
    while True:
        if isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Attribute):
            names.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Name):
            names.append(node.id)
            return names[::-1]
        else:
            return names[::-1]


def orm_writes(source: str) -> list[tuple[int, str]]:
    """(line, method) of every ORM write in `source`: `save`, `create`, `bulk_create`... on any
    receiver, `update` and `delete` on a queryset, `delete()` of an instance."""
    found = []
    for node in ast.walk(parsed(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        method = node.func.attr
        if method not in ORM_WRITES:
            continue
        receiver = _chain(node.func.value)
        on_queryset = bool(QUERYSET_STEPS & set(receiver))
        if method in ("update", "delete") and not on_queryset and (method == "update" or node.args):
            continue  # a dict's update, a cache's delete(key)
        found.append((node.lineno, method))
    return found


def test_the_web_layer_writes_nothing_itself() -> None:
    """Pages, API views and commands translate; every write is an app's command or service."""
    offenders = [
        f"{path.relative_to(ROOT)}:{line} .{method}()"
        for path in sorted((ROOT / "web").rglob("*.py"))
        for line, method in orm_writes(path.read_text())
    ]
    assert offenders == []


def test_the_orm_write_check_would_see_one() -> None:
    assert orm_writes("tournament.save(update_fields=['name'])") == [(1, "save")]
    assert orm_writes("CheckIn.objects.bulk_create(rows)") == [(1, "bulk_create")]
    assert orm_writes("Table.objects.filter(pk=1).update(judge=None)") == [(1, "update")]
    assert orm_writes("player.delete()") == [(1, "delete")]
    assert orm_writes("context.update(a=1)\ncache.delete(key)") == []


# --- every API body is its command's declaration ----------------------------------------------


def _serializer_classes(tree: ast.Module) -> dict[str, int]:
    """The serializer classes a module writes by hand (`class X(serializers.Serializer)`), by name."""
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and any(ast.unparse(b).rsplit(".", 1)[-1].endswith("Serializer")
                                                  for b in node.bases):
            found[node.name] = node.lineno
    return found


def _request_values(tree: ast.Module) -> list[ast.expr]:
    """What each `extend_schema(request=...)` names (each value of a per-content-type dict)."""
    values: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and ast.unparse(node.func).rsplit(".", 1)[-1] == "extend_schema":
            for keyword in node.keywords:
                if keyword.arg == "request":
                    value = keyword.value
                    values.extend(v for v in value.values if v is not None) if isinstance(value, ast.Dict) else (
                        values.append(value))
    return values


def hand_written_inputs(sources: dict[str, str]) -> list[str]:
    """The API bodies written by hand beside a command's declaration, in `sources` (path: text):
    a serializer class named as an input (`...In`, `...Request`, `...Body`) or given as a
    write's `request=`, and a `request=` built in place (`inline_serializer`, a serializer
    called). A body is `web.api_fields.body_of(...)` of its command's fields (or no serializer
    at all: None, a free object); answers (`responses=`) are the pages' own business."""
    trees = {path: ast.parse(text) for path, text in sources.items()}
    requested: set[str] = set()
    found: list[str] = []
    for path, tree in trees.items():
        for value in _request_values(tree):
            if isinstance(value, ast.Name | ast.Attribute):
                requested.add(ast.unparse(value).rsplit(".", 1)[-1])
            elif isinstance(value, ast.Call) and ast.unparse(value.func).rsplit(".", 1)[-1] != "body_of":
                found.append(f"{path}:{value.lineno} request={ast.unparse(value.func)}(...)")
    for path, tree in trees.items():
        for name, line in _serializer_classes(tree).items():
            if name in requested or name.endswith(("In", "Request", "Body")):
                found.append(f"{path}:{line} class {name}")
        for node in tree.body:  # `X = inline_serializer(...)`, then `request=X`
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                made_by = ast.unparse(node.value.func).rsplit(".", 1)[-1]
                for target in node.targets:
                    if isinstance(target, ast.Name) and target.id in requested and made_by != "body_of":
                        found.append(f"{path}:{node.lineno} {target.id} = {made_by}(...)")
    return sorted(found)


def test_every_api_body_is_built_from_its_commands_declaration() -> None:
    """A write's body is declared once, with its command (`foundation.commands.Field`): the
    OpenAPI schema and the refusal of unknown fields read the same declaration as the command."""
    sources = {str(path.relative_to(ROOT)): path.read_text() for path in sorted((ROOT / "web").rglob("*.py"))}
    assert hand_written_inputs(sources) == []


def test_the_hand_written_body_check_would_see_one() -> None:
    by_hand = (
        "class InviteIn(serializers.Serializer):\n    username = serializers.CharField(max_length=150)\n"
        "class Answer(Serializer):\n    done = serializers.BooleanField()\n"
        "class Judges(APIView):\n"
        "    @extend_schema(request=Answer, responses={200: Answer})\n    def post(self): ...\n"
        "    @extend_schema(request={'application/json': inline_serializer('X', {})})\n    def put(self): ...\n"
        "_REPORT_POST = inline_serializer('GameReportPost', {'turns': serializers.IntegerField()})\n"
        "@extend_schema(request=_REPORT_POST)\ndef patch(self): ...\n"
    )
    assert hand_written_inputs({"web/a.py": by_hand}) == [
        "web/a.py:1 class InviteIn", "web/a.py:10 _REPORT_POST = inline_serializer(...)", "web/a.py:3 class Answer",
        "web/a.py:8 request=inline_serializer(...)",
    ]
    declared = (
        "InviteIn = body_of('InviteIn', commands.Username.FIELDS)\n"
        "class Answer(serializers.Serializer):\n    done = serializers.BooleanField()\n"
        "@extend_schema(request=InviteIn, responses={200: Answer})\ndef post(self): ...\n"
        "@extend_schema(request=body_of('Reopen', REOPEN_FIELDS))\ndef put(self): ...\n"
        "@extend_schema(request=None)\ndef delete(self): ...\n"
    )
    assert hand_written_inputs({"web/b.py": declared}) == []
