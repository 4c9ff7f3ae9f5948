"""Model instances from written-out SQL, for the few requests an event day sends by the
hundred (a table judge's post, its token): there, building the ORM's query cost more CPU than
the database spent answering it.

Only plain columns are read (numbers, text, moments, which the driver already hands over as
Python values); a JSON column is left deferred and loaded by the ORM if something reads it.
The statements are the same on PostgreSQL and SQLite (the venue laptop) but for the
placeholders below.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, connection, models

M = TypeVar("M", bound=models.Model)


def plain_fields(model: type[models.Model]) -> list[str]:
    """The attribute names of the model's concrete columns that are not JSON, in model order."""
    return [f.attname for f in model._meta.concrete_fields if not isinstance(f, models.JSONField)]


def select_list(model: type[models.Model], fields: Sequence[str], alias: str) -> str:
    """`alias."column", ...` for `fields` (attribute names)."""
    quote = connection.ops.quote_name
    return ", ".join(f"{alias}.{quote(model._meta.get_field(name).column)}" for name in fields)


def table_name(model: type[models.Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def column(model: type[models.Model], name: str) -> str:
    return connection.ops.quote_name(model._meta.get_field(name).column)


def instance(model: type[M], fields: Sequence[str], values: Sequence[Any]) -> M:
    """A model instance as the ORM would load it from these columns (the others deferred)."""
    return model.from_db(DEFAULT_DB_ALIAS, list(fields), list(values))


def json_placeholder() -> str:
    """The placeholder of a JSON value sent as text (PostgreSQL casts it; SQLite keeps text)."""
    return "%s::jsonb" if connection.vendor == "postgresql" else "%s"


def for_update() -> str:
    """` FOR UPDATE` where the database locks rows that way (SQLite locks the whole file)."""
    return " FOR UPDATE" if connection.features.has_select_for_update else ""


@dataclass(frozen=True)
class Along:
    """Rows a statement reads along with its own (its `LEFT JOIN`s, all NULL when none matches),
    and what takes them: a request that needs a row anyway reads it in the statement it sends
    first (config.token_auth: the token of a table judge's post reads its table too)."""

    #: The select list (`x."id", ...`) and the joins, whose placeholders take `params`.
    columns: str
    joins: str
    params: tuple[Any, ...]
    #: Called with this along's `width` columns of the row.
    take: Callable[[Sequence[Any]], None]
    width: int
