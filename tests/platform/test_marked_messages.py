"""Every message a person reads that the Django layers write is marked for translation.

The check reads the source of the apps above the pure cores and fails on a refusal, a page
message or an edit's answer whose words are a bare literal (a string or an f-string with
letters) instead of a `gettext` call: `raise Refused("...")`, `messages.success(request, f"...")`,
`ValidationError({"field": "..."})`. The cores (dune/) stay English by the layer rule; their
words are translated where a page shows them (foundation/core_words.py).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APPS = ("web", "config", "foundation", "mail", "tournament", "gameplay", "scoring", "clocks", "venue", "insights",
        "ratings")
#: Calls whose first argument (or `message` / `msg` / `detail`) is what a person reads.
REFUSALS = {
    "Refused", "Refusal", "PeopleRefused", "TextRefused", "NoBoard", "CommandRefused", "ReportFiled",
    "ReportRefused", "ReportRejected", "ReportLocked", "NothingChanged", "ClockStateError", "ClockError",
    "ValidationError", "PermissionDenied", "ParseError", "NotFound", "Edited",
}
#: Calls whose second argument is what a person reads (the first names the field, or the request).
SECOND = {"ActionError"}
PAGE_MESSAGES = {"success", "info", "warning", "error", "add_message"}


def _name(func: ast.expr) -> str | None:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def _has_words(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return any(c.isalpha() for c in node.value)
    if isinstance(node, ast.JoinedStr):
        return any(_has_words(v) for v in node.values if isinstance(v, ast.Constant))
    if isinstance(node, ast.BinOp):
        return _has_words(node.left) or _has_words(node.right)
    if isinstance(node, ast.IfExp):
        return _has_words(node.body) or _has_words(node.orelse)
    if isinstance(node, ast.Dict):
        return any(v is not None and _has_words(v) for v in node.values)
    return False


def _read_arguments(call: ast.Call) -> list[ast.expr]:
    name = _name(call.func)
    keywords = [k.value for k in call.keywords if k.arg in ("message", "msg", "detail")]
    if name in SECOND:
        return call.args[1:2] + keywords
    if name in REFUSALS:
        return call.args[:1] + keywords
    if name in PAGE_MESSAGES and isinstance(call.func, ast.Attribute) and _name(call.func.value) == "messages":
        return call.args[1:2]
    return []


def unmarked_messages(source: str) -> list[str]:
    """The read messages of `source` written as bare literals, as `line: text`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            found += [f"{arg.lineno}: {ast.unparse(arg)[:80]}" for arg in _read_arguments(node) if _has_words(arg)]
    return found


def _modules() -> list[str]:
    return sorted(
        str(path.relative_to(ROOT))
        for app in APPS
        for path in (ROOT / app).rglob("*.py")
        if "migrations" not in path.parts
    )


def test_the_check_finds_a_bare_message_and_passes_a_marked_one() -> None:
    source = (
        "raise Refused(f'{name} is already registered', field='name')\n"
        "messages.success(request, 'Saved.')\n"
        "raise ValidationError({'reason': 'a reason is required'})\n"
        "raise ActionError('sector', 'choose a sector')\n"
        "raise Refused(_('%(name)s is already registered') % {'name': name}, field='name')\n"
        "messages.success(request, done.message)\n"
        "raise ActionError('sector', _('choose a sector'))\n"
    )
    assert [line.split(":")[0] for line in unmarked_messages(source)] == ["1", "2", "3", "4"]


@pytest.mark.parametrize("module", _modules())
def test_a_message_a_person_reads_is_marked(module: str) -> None:
    assert unmarked_messages((ROOT / module).read_text(encoding="utf-8")) == []
