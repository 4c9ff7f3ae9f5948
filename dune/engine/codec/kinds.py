"""The kinds a snapshot field can be: its JSON shape (checked before anything reads it) and its
codec, the one place that says how the field is read into a position, written back, and read
by the pages' typed view.

A `Part` is a field's metadata in the declaration (`schema`): its shape, what it holds (with
its rule), its codec, the position's attribute it fills, and whether it is written always or
only when it differs from its default (so a snapshot written before the part existed loads
unchanged).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from dune.engine.board import TERRITORIES
from dune.engine.errors import InvalidPosition, UnknownIdentifier

# --- shapes -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shape:
    """A JSON shape: `kind` is "int", "bool", "text", "number" (an int or decimal text),
    "list" (of `item`), "pair" (a two-item list: `item` then `second`), "object" (its values
    `item`; any when None) or "any"; `null` when null is allowed. `fits(value)` is compiled
    once from the shape."""

    kind: str
    item: Shape | None = None
    second: Shape | None = None
    null: bool = False
    fits: Callable[[Any], bool] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "fits", _compile(self))

    @property
    def words(self) -> str:
        what = {
            "int": "an integer", "bool": "true or false", "text": "a string", "number": "a number or decimal text",
            "any": "a value",
        }.get(self.kind)
        if what is None and self.kind == "list":
            what = f"a list of {self.item.words if self.item else 'values'}"
        elif what is None and self.kind == "pair":
            what = f"a pair [{self.item.words if self.item else 'value'}, {self.second.words if self.second else 'value'}]"
        elif what is None:
            what = f"an object of {self.item.words}" if self.item else "an object"
        return what + (" or null" if self.null else "")


def _compile(shape: Shape) -> Callable[[Any], bool]:
    """A fast test of a JSON value against `shape` (exact JSON types: a bool is no integer)."""
    kind, null = shape.kind, shape.null
    test: Callable[[Any], bool]
    scalar = {"int": (int,), "bool": (bool,), "text": (str,), "number": (int, str)}.get(kind)
    if kind == "any":
        def test(v: Any) -> bool:
            return True
    elif scalar is not None:
        types = frozenset(scalar) | ({type(None)} if null else set())

        def test(v: Any) -> bool:
            return type(v) in types
        return test
    elif kind == "list":
        item = shape.item.fits if shape.item else None

        def test(v: Any) -> bool:
            return type(v) is list and (item is None or all(map(item, v)))
    elif kind == "pair":
        first = shape.item.fits if shape.item else None
        second = shape.second.fits if shape.second else None

        def test(v: Any) -> bool:
            return (
                type(v) is list and len(v) == 2
                and (first is None or first(v[0])) and (second is None or second(v[1]))
            )
    else:
        values = shape.item.fits if shape.item else None

        def test(v: Any) -> bool:
            return (type(v) is dict or isinstance(v, Mapping)) and all(type(k) is str for k in v) and (
                values is None or all(map(values, v.values()))
            )
    if not null:
        return test

    def or_null(v: Any) -> bool:
        return v is None or test(v)

    return or_null


INT, BOOL, TEXT, NUMBER, ANY = Shape("int"), Shape("bool"), Shape("text"), Shape("number"), Shape("any")
OBJECT = Shape("object")


def or_null(shape: Shape) -> Shape:
    return Shape(shape.kind, shape.item, shape.second, null=True)


def list_of(item: Shape) -> Shape:
    return Shape("list", item)


TEXTS = list_of(TEXT)


# --- refusals -------------------------------------------------------------------------------


def bad(rule: str, msg: str, value: Any, field: str | None = None) -> InvalidPosition:
    return InvalidPosition(rule=rule, msg=msg, input=value, field=field)


def need_mapping(v: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(v, Mapping):
        raise bad("snapshot", f"{what} must be an object", v)
    return v


def count(v: Any, key: str, *, low: int = 0, high: int | None = None) -> Any:
    """`v` (None stays None) as an integer in low..high. Raises InvalidPosition naming `key`."""
    if v is None:
        return None
    if type(v) is not int or v < low or (high is not None and v > high):
        rng = f"{low}..{high}" if high is not None else f">= {low}"
        raise bad("snapshot", f"{key!r} must be an integer {rng}", v)
    return v


# --- codecs ---------------------------------------------------------------------------------


class Context:
    """What reading a field may need of the game: its ruleset and factions in seat order, and
    the values of the parts read before it (`read`)."""

    __slots__ = ("rs", "factions", "turn_limit", "read", "data")

    def __init__(self, rs: Any, factions: tuple[str, ...], turn_limit: int, data: Mapping[str, Any]) -> None:
        self.rs = rs
        self.factions = factions
        self.turn_limit = turn_limit
        self.read: dict[str, Any] = {}
        self.data = data


def to_json(value: Any) -> Any:
    """A position's value as JSON: a set sorted, a tuple a list, a mapping sorted by key (its
    tuple values lists)."""
    if isinstance(value, frozenset):
        return [list(v) if isinstance(v, tuple) else v for v in sorted(value)]
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, Mapping):
        return {k: list(v) if isinstance(v, tuple) else v for k, v in sorted(value.items())}
    return value


class Codec:
    """How a field is read into the position (`load`), written (`dump`) and read by the typed
    view (`view`, lenient: a stored snapshot, possibly redacted). The default keeps the value."""

    def load(self, key: str, value: Any, ctx: Context) -> Any:
        return value

    def dump(self, value: Any) -> Any:
        return to_json(value)

    def view(self, value: Any) -> Any:
        return value


PLAIN = Codec()


class _AsTuple(Codec):
    """A list held as a tuple (null stays None)."""

    def load(self, key: str, value: Any, ctx: Context) -> Any:
        return None if value is None else tuple(value)

    def view(self, value: Any) -> Any:
        return None if value is None else tuple(value)


AS_TUPLE = _AsTuple()


class Count(Codec):
    """An integer in `low`..`high` (null allowed where the shape allows it)."""

    def __init__(self, low: int = 0, high: int | Callable[[Context], int] | None = None) -> None:
        self.low, self.high = low, high

    def load(self, key: str, value: Any, ctx: Context) -> Any:
        high = self.high(ctx) if callable(self.high) else self.high
        return count(value, key, low=self.low, high=high)

    def view(self, value: Any) -> Any:
        return value if value is None or type(value) is int else _int_or(value)


def _int_or(value: Any) -> Any:
    try:
        return int(value)
    except (TypeError, ValueError):
        return value


class Members(Codec):
    """A list of factions of the game (`of="factions"`) or territories, held as a frozenset
    and written sorted."""

    def __init__(self, of: str) -> None:
        self.of = of

    def load(self, key: str, value: Any, ctx: Context) -> Any:
        known = ctx.factions if self.of == "factions" else TERRITORIES
        if any(x not in known for x in value):
            raise bad("snapshot", f"{key!r} lists factions of the game" if self.of == "factions"
                      else f"{key!r} lists territories", value)
        return frozenset(value)

    def view(self, value: Any) -> Any:
        return frozenset(value or ())


class Listed(Members):
    """Like `Members`, read by the view in the order written (a tuple)."""

    def view(self, value: Any) -> Any:
        return tuple(value or ())


class One(Codec):
    """A faction of the game or a territory, or null."""

    def __init__(self, of: str) -> None:
        self.of = of

    def load(self, key: str, value: Any, ctx: Context) -> Any:
        if value is None:
            return None
        if self.of == "factions" and value not in ctx.factions:
            raise bad("snapshot", f"{key!r} is a faction of the game", value)
        if self.of == "territories" and value not in TERRITORIES:
            raise UnknownIdentifier(rule="board", msg=f"{key!r}: unknown territory", input=value)
        return str(value)


class Tally(Codec):
    """`[turn, count, ...]` (`size` counts, none negative), or a single turn when `size` is 0."""

    def __init__(self, size: int, meaning: str) -> None:
        self.size, self.meaning = size, meaning

    def load(self, key: str, value: Any, ctx: Context) -> Any:
        if value is None:
            return None
        values = value if self.size else [value]
        if (
            not isinstance(values, list) or len(values) != max(self.size, 1)
            or any(type(v) is not int or v < 0 for v in values)
        ):
            raise bad("snapshot", f"{key!r} is {self.meaning}", value)
        return tuple(int(v) for v in values) if self.size else int(values[0])


class Rows(Codec):
    """A list of records of `record` (the view reads each as one), or a bespoke reader."""

    def __init__(self, record: Any, read: Callable[[str, Any, Context], Any] | None = None,
                 write: Callable[[Any], Any] | None = None) -> None:
        self.record, self.read, self.write = record, read, write

    def load(self, key: str, value: Any, ctx: Context) -> Any:
        return value if self.read is None else self.read(key, value, ctx)

    def dump(self, value: Any) -> Any:
        return to_json(value) if self.write is None else self.write(value)

    def view(self, value: Any) -> Any:
        of = self.record.of
        return tuple(of(row) for row in value or () if isinstance(row, Mapping))


class Bespoke(Codec):
    """A field read and written by its own pair of functions (kept side by side in the schema)."""

    def __init__(self, read: Callable[[str, Any, Context], Any], write: Callable[[Any], Any] | None = None,
                 view: Callable[[Any], Any] | None = None) -> None:
        self.read, self.write, self.viewer = read, write, view

    def load(self, key: str, value: Any, ctx: Context) -> Any:
        return self.read(key, value, ctx)

    def dump(self, value: Any) -> Any:
        return to_json(value) if self.write is None else self.write(value)

    def view(self, value: Any) -> Any:
        return value if self.viewer is None else self.viewer(value)


#: A field without a default: written in every snapshot.
ALWAYS: Any = object()


@dataclass(frozen=True)
class Part:
    """One field's metadata: its JSON shape, what it holds (with its rule), its codec, the
    position's attribute it fills (`attr`; None: read with the setup or a group of keys), and
    its default: a part with one is written only when it differs from it."""

    shape: Shape
    holds: str
    codec: Codec = PLAIN
    attr: str | None = ""
    default: Any = ALWAYS


def part(shape: Shape, holds: str, codec: Codec = PLAIN, *, attr: str | None = "", default: Any = ALWAYS,
         view_default: Any = None) -> Any:
    """A dataclass field carrying its `Part` (the view's own default is `view_default`)."""
    meta = {"part": Part(shape, holds, codec, attr, default)}
    if isinstance(view_default, (list, dict, set)):
        raise TypeError("a view default is immutable")
    if isinstance(view_default, MappingProxyType):  # read-only, but unhashable
        return field(default_factory=lambda: view_default, metadata=meta)
    return field(default=view_default, metadata=meta)
