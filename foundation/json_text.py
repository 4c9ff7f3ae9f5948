"""JSON text on the path of every table judge's post, written and read by orjson.

A post writes its whole answer once, for the stored idempotency record and the response alike
(the game's new position, its evaluation and the event are written by the engine itself, with
the same options: `dune.engine.recording`); a web process that did not record the game's last
event reads the stored position back. The
standard library's encoder spent more of such a post's CPU than any other single step but the
database driver; orjson writes the same JSON (compact, keys in their order, non-text keys as
text) in a fraction of the time.

What is not plain JSON (a moment, a decimal) is written as Django's encoder writes it, so an
answer reads the same whichever way it was made.
"""

from __future__ import annotations

from typing import Any

import orjson
from django.core.serializers.json import DjangoJSONEncoder

_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
_DJANGO = DjangoJSONEncoder()


def dumps(value: Any) -> str:
    """`value` as compact JSON text; moments and decimals as Django writes them."""
    return orjson.dumps(value, default=_DJANGO.default, option=_OPTIONS).decode()


def loads(text: str | bytes) -> Any:
    return orjson.loads(text)


def dumps_noting_conversions(value: Any) -> tuple[str, bool]:
    """`dumps(value)`, and whether anything in it was not plain JSON (so that reading the text
    back would not give `value` again)."""
    converted = False

    def convert(item: Any) -> Any:
        nonlocal converted
        converted = True
        return _DJANGO.default(item)

    return orjson.dumps(value, default=convert, option=_OPTIONS).decode(), converted
