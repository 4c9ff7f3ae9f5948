"""Rules coverage: which rule numbers the engine cites, which tests check them, and what the
engine leaves to the table.

`python -m dune.engine.coverage` writes `docs/rules-coverage.md`; `--check` exits non-zero
when the file is stale, a rule cited in the engine has no test, or a listed rule has neither a
test nor a reason. Pure: it reads source files, imports nothing of the engine's rules.

Rule numbers are read as the engine writes them (README): LoLV bare (`1.06.04.06`), AH 1979 as
`AH VI.D` (and `AH questions C.3`), WBC as `WBC IX.2`. A test checks the rules its name starts
with (`test_1_06_02_04_...`, `test_wbc_ix_2_...`, `test_ah_vi_d_...`) and those its docstring
cites. A test of a rule also covers the rules above it (`1.06.04.06` covers `1.06.04`).
Ranges are expanded (`1.06.04.06-07`, `WBC XV.7-9`, `AH IX.C.2.a-c`).
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = Path(__file__).resolve().parent
TESTS = ROOT / "tests" / "engine"
DOC = ROOT / "docs" / "rules-coverage.md"
#: Rules the engine leaves to the table, each with a one-line reason.
LEFT_TO_TABLE = ROOT / "docs" / "rules-left-to-the-table.json"

_ROMAN = r"[IVX]+"
_LOLV = r"(?<![\w.])([0-4]\.\d\d(?:\.\d\d){0,2})((?:-\d\d)?)(?![\w.]*\d)"
_AH = rf"\bAH ({_ROMAN}(?:\.[A-Z](?:\.\d+(?:\.[a-z](?:\.[ivx]+)?)?)?)?)((?:-[a-z0-9]+)?)"
_AH_Q = r"\bAH questions ([A-Z]\.\d+)"
_WBC = rf"\bWBC ({_ROMAN}(?:\.\d+)?)((?:-\d+)?)"
_PATTERNS = (("", _LOLV), ("AH ", _AH), ("AH questions ", _AH_Q), ("WBC ", _WBC))


def _expand(prefix: str, base: str, tail: str) -> list[str]:
    """`1.06.04.06` + `-07` -> both; `IX.C.2.a` + `-c` -> a, b, c."""
    out = [prefix + base]
    if not tail:
        return out
    end = tail[1:]
    head, _, last = base.rpartition(".")
    if last.isdigit() and end.isdigit():
        width = len(last)
        out = [
            f"{prefix}{head}.{str(n).zfill(width)}" if head else f"{prefix}{n}"
            for n in range(int(last), int(end) + 1)
        ]
    elif len(last) == 1 and len(end) == 1 and last.isalpha() and end.isalpha():
        out = [f"{prefix}{head}.{chr(c)}" for c in range(ord(last), ord(end) + 1)]
    return out


def rules_in(text: str) -> set[str]:
    """Every rule number cited in a piece of text (ranges expanded)."""
    found: set[str] = set()
    for prefix, pattern in _PATTERNS:
        for m in re.finditer(pattern, text):
            tail = m.group(2) if m.lastindex and m.lastindex >= 2 else ""
            found.update(_expand(prefix, m.group(1), tail or ""))
    return found


def rule_of_test_name(name: str) -> str | None:
    """The rule a test's name starts with: `test_1_06_02_04_x` -> `1.06.02.04`."""
    m = re.match(r"test_(\d)_(\d\d)((?:_\d\d){0,2})(?:_|$)", name)
    if m:
        return ".".join([m.group(1), m.group(2), *m.group(3).split("_")[1:]])
    m = re.match(r"test_(wbc|ah)_([ivx]+)(?:_(\w))?(?:_|$)", name)
    if m:
        text = f"{m.group(1).upper()} {m.group(2).upper()}"
        part = m.group(3)
        if part:
            text += "." + (part if part.isdigit() else part.upper())
        return text
    return None


def parents(rule: str) -> Iterable[str]:
    """`1.06.04.06` -> `1.06.04`, `1.06`; `AH IX.C.2` -> `AH IX.C`, `AH IX`."""
    while "." in rule:
        rule = rule.rpartition(".")[0]
        yield rule


@dataclass
class Coverage:
    cited: dict[str, set[str]] = field(default_factory=dict)  # rule -> engine files citing it
    tests: dict[str, set[str]] = field(default_factory=dict)  # rule -> test ids
    reasons: dict[str, str] = field(default_factory=dict)
    #: rules some test names or cites itself (parents are covered but not listed for it)
    direct: set[str] = field(default_factory=set)

    def tests_for(self, rule: str) -> set[str]:
        return self.tests.get(rule, set())

    @property
    def listed(self) -> list[str]:
        return sorted(set(self.cited) | self.direct | set(self.reasons), key=_sort_key)

    def untested_citations(self) -> list[str]:
        return [r for r in sorted(self.cited, key=_sort_key) if not self.tests_for(r)]

    def unexplained(self) -> list[str]:
        return [r for r in self.listed if not self.tests_for(r) and r not in self.reasons]


def _sort_key(rule: str) -> tuple[int, str]:
    kind = 0 if rule[0].isdigit() else (1 if rule.startswith("AH") else 2)
    return kind, rule


def collect(engine: Path = ENGINE, tests: Path = TESTS, reasons: Path = LEFT_TO_TABLE) -> Coverage:
    cov = Coverage()
    for path in sorted(engine.rglob("*.py")):
        if path.name == "coverage.py":
            continue
        for rule in rules_in(path.read_text(encoding="utf-8")):
            cov.cited.setdefault(rule, set()).add(path.relative_to(engine).as_posix())
    for path in sorted(tests.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        # A rule suite's module docstring names the rules its rule-numbered tests check.
        suite = rules_in(ast.get_docstring(tree) or "") if path.name.startswith("test_rules_") else set()
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef) or not node.name.startswith("test_"):
                continue
            checked = rules_in(ast.get_docstring(node) or "")
            named = rule_of_test_name(node.name)
            if named is not None:
                checked.add(named)
                checked |= suite
            test_id = f"{path.name}::{node.name}"
            cov.direct |= checked
            for rule in checked:
                for r in (rule, *parents(rule)):
                    cov.tests.setdefault(r, set()).add(test_id)
    if reasons.exists():
        cov.reasons = dict(json.loads(reasons.read_text(encoding="utf-8")))
    return cov


def render(cov: Coverage) -> str:
    lines = [
        "# Rules coverage",
        "",
        "Generated by `python -m dune.engine.coverage` from the rule-numbered tests in",
        "`tests/engine/` and the rule numbers cited in `dune/engine/`; do not edit by hand.",
        "Rules the engine leaves to the table carry a one-line reason",
        "(`docs/rules-left-to-the-table.json`).",
        "",
        "Reading of LoLV 2.11.14 (a stronghold shared by the Ecaz and its ally): it counts once",
        "for the alliance and the Ecaz controls it, so the per-faction statistics and the",
        "4.01.10.02 tiebreak (strongholds *controlled*) credit the Ecaz; the ruleset flag",
        '`ecaz_shared_credit="both"` credits the ally as well.',
        "",
        "| Rule | Cited in the engine | Tests | Left to the table |",
        "|---|---|---|---|",
    ]
    for rule in cov.listed:
        tests = sorted(cov.tests_for(rule))
        shown = "<br>".join(f"`{t}`" for t in tests[:6]) + (
            f"<br>and {len(tests) - 6} more" if len(tests) > 6 else ""
        )
        lines.append(
            f"| {rule} | {', '.join(sorted(cov.cited.get(rule, ())))} | {shown} | {cov.reasons.get(rule, '')} |"
        )
    lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="fail if the file is stale or a rule is uncovered"
    )
    args = parser.parse_args(argv)
    cov = collect()
    text = render(cov)
    problems = [f"cited in the engine without a test: {r}" for r in cov.untested_citations()]
    problems += [f"listed without a test or a reason: {r}" for r in cov.unexplained()]
    if args.check:
        if not DOC.exists() or DOC.read_text(encoding="utf-8") != text:
            problems.append(f"{DOC.relative_to(ROOT)} is stale: run python -m dune.engine.coverage")
    else:
        DOC.write_text(text, encoding="utf-8")
        print(f"wrote {DOC.relative_to(ROOT)}: {len(cov.listed)} rules")
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
