"""Every message the pure cores build for a person goes through the known translated calls.

A core's refusal reaches a page as its English message, matched there against the cores'
message templates (foundation/core_words.REFUSALS) and shown in the reader's language. This
check walks the cores' modules for the messages they hand a refusal (`msg=`, `message=`, the
message argument of `refuse`, `_bad`, `bad`, `shape`, of a battle's ruling (`note`) and of
every refusal class), turns each literal or f-string (each branch of a conditional) into its
template, and fails on one the catalogue's list lacks. The
messages not yet translated are listed apart (`core_messages_in_english.txt`); a message
translated leaves that list, and a new one joins REFUSALS to be translated. What the walk takes
for a message but no person reads (a programmer's check, a field's name) is named in
NOT_FOR_A_READER with the reason.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from foundation.core_words import REFUSALS

ROOT = Path(__file__).resolve().parents[2]
STILL_ENGLISH = Path(__file__).with_name("core_messages_in_english.txt")
#: Helpers whose argument at this position is a message a person reads.
HELPERS = {"refuse": 2, "_bad": 1, "bad": 1, "shape": 0, "_bad_option": 2, "note": 1}
#: Calls of refusal classes: their first argument is the message.
REFUSAL_CLASS = re.compile(
    r".*(Error|Refused|Refusal|Violation|Action|Position|Identifier|Event|Phase|Over|OutOfTime|Exhausted|Count|"
    r"Players?|Tables|Format|Limit|Duration)$"
)


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Call | ast.Subscript):
        return _name(node.func if isinstance(node, ast.Call) else node.value)
    return "value"


def template(node: ast.expr) -> str | None:
    """A literal's or f-string's template, its fields as `%(name)s`; None for other expressions."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.replace("%", "%%")
    if isinstance(node, ast.JoinedStr):
        out, used = "", {}
        for value in node.values:
            if isinstance(value, ast.Constant):
                out += str(value.value).replace("%", "%%")
            else:
                name = _name(value.value)  # type: ignore[attr-defined]
                used[name] = used.get(name, 0) + 1
                out += f"%({name}{used[name] if used[name] > 1 else ''})s"
        return out
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = template(node.left), template(node.right)
        return None if left is None or right is None else left + right
    return None


def templates(node: ast.expr) -> list[str]:
    """Every template an expression builds: a literal's or f-string's, each branch of a
    conditional, each joining of `+`."""
    if isinstance(node, ast.IfExp):
        return templates(node.body) + templates(node.orelse)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return [left + right for left in templates(node.left) for right in templates(node.right)]
    text = template(node)
    return [] if text is None else [text]


def _messages(call: ast.Call) -> list[ast.expr]:
    name = _name(call.func)
    found = [k.value for k in call.keywords if k.arg in ("msg", "message", "why")]
    at = HELPERS.get(name)
    if name == "refuse" and call.args and _name(call.args[0]) != "pos":
        found += call.args[:1]  # a checker's own refuse(msg, ...), not the engine's refuse(pos, key, msg)
    elif at is not None:
        found += call.args[at:at + 1] if name != "refuse" or len(call.args) > 2 else call.args[1:2]
    elif name == "Refusal":  # a points system's line it refuses: Refusal(rule, why)
        found += call.args[1:2]
    elif REFUSAL_CLASS.match(name) and call.args:
        found.append(call.args[0])
    return found


def shape(text: str) -> str:
    """A template with its fields' names dropped: how a message is matched."""
    return re.sub(r"%\(\w+\)s", "%s", text)


def core_templates() -> dict[str, str]:
    """Every message template the cores build, with where it is first built."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / "dune").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            for arg in _messages(node):
                for text in templates(arg):
                    if re.search(r"[A-Za-z]{2}", shape(text).replace("%s", "")):
                        found.setdefault(text, f"{path.relative_to(ROOT)}:{arg.lineno}")
    return found


#: What the walk takes for a message but no person reads, each with why: a programmer's own
#: checks (raised while the code loads or on a call the platform never makes from a person's
#: input) and arguments that are not messages at all.
NOT_FOR_A_READER: dict[str, str] = {
    "module 'dune.engine' has no attribute %s": "Python's AttributeError for a name a programmer imports",
    "a view default is immutable": "a check of the snapshot schema's declaration, raised while the code loads",
    "no coercer for %s.%s: %s": "a check of the event classes' declaration, raised while the code loads",
    "unknown fields %s": "the TypeError of a dataclass replace called with a field the class lacks",
    "a %s needs the log it changes": "a ValueError for a caller that records a correction without its log",
    "result kinds without exactly one row: %s": "a check of the points table's declaration, raised while the code loads",
    "preset file %s.toml names the key %s": "a check of the format presets shipped with the platform",
    "cannot write %s as TOML": "a TypeError for a value a format document never holds",
    "finalist_seats must be a positive int, got %s": "a check of a points system's declaration in code",
    "tiebreaker %s appears twice in the precedence": "a check of a points system's declaration in code",
    "tiebreaker %s returned %s, expected %s values": "a check of a tiebreaker written in code",
    "turns and players must be positive, got turns=%s, players=%s": "a precondition on reports the platform checked already",
    "turns must be positive and strongholds not negative, got turns=%s, strongholds=%s": (
        "a precondition on reports the platform checked already"
    ),
    "limit must be positive, got %s": "a precondition on an awards list's length, set in code",
    "finalist seats must be positive, got %s": "a precondition on the final's size, which the format checked already",
}


def _still_english() -> set[str]:
    return {line for line in STILL_ENGLISH.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")}


def test_the_walk_finds_the_messages_of_refusals_and_their_helpers() -> None:
    source = (
        "refuse(pos, 'storm', f'no move into {place_name(t)}: it is in storm', t)\n"
        "raise IllegalAction(rule='1.06', msg=f'{faction_name(f)} has no spice')\n"
        "raise SeatingUserError(f'player {p!r} is seated twice')\n"
        "log(f'not a message {x}')\n"
    )
    found = [template(arg) for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Call)
             for arg in _messages(node)]
    assert found == [
        "no move into %(place_name)s: it is in storm",
        "%(faction_name)s has no spice",
        "player %(p)s is seated twice",
    ]


def test_every_core_message_is_a_translated_template() -> None:
    listed = {shape(t) for t in REFUSALS}
    left = _still_english()
    new = sorted(f"{where}: {text}" for text, where in core_templates().items()
                 if shape(text) not in listed and shape(text) not in left and shape(text) not in NOT_FOR_A_READER)
    assert new == [], (
        "add these templates to foundation/core_words.REFUSALS (the catalogue's owner translates them), "
        f"or list them in {STILL_ENGLISH.name} until they are"
    )


def test_a_translated_message_leaves_the_list_of_messages_still_in_english() -> None:
    listed = {shape(t) for t in REFUSALS}
    assert sorted(line for line in _still_english() if line in listed) == [], f"remove from {STILL_ENGLISH.name}"


def test_a_message_no_person_reads_is_one_the_cores_build_and_says_why() -> None:
    built = {shape(t) for t in core_templates()}
    listed = {shape(t) for t in REFUSALS}
    assert sorted(t for t in NOT_FOR_A_READER if t not in built) == [], "no core builds these any more"
    assert sorted(t for t in NOT_FOR_A_READER if t in listed or t in _still_english()) == []
    assert all(len(why.split()) >= 4 for why in NOT_FOR_A_READER.values())


def test_each_branch_of_a_conditional_message_is_a_template() -> None:
    source = "refuse(pos, 'k', f'{a} has none' + (' (advisors do not)' if b else ''), x)\n"
    call = next(node for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Call))
    assert [t for arg in _messages(call) for t in templates(arg)] == [
        "%(a)s has none (advisors do not)",
        "%(a)s has none",
    ]
