"""Which rows make up one tournament, read from the models' own fields.

Nothing here lists a model's columns: every concrete field of every model is carried, so a
field added to a model (a tournament's time zone, a series' owner) is exported and imported
without a change here. A model belongs to a tournament when one of its required foreign keys
points at a model that does (found by walking the project's apps from `Tournament`); a new
model hung under a tournament, a round or a table is therefore carried too.

Three kinds of rows are apart:

- shared rows (people, series, user accounts) are not owned by one tournament: they are
  exported with it and matched on import (people by email, series by name and format,
  accounts by username);
- derived rows (ratings) are recomputed from the filed reports, never carried;
- idempotency records have no foreign key to the table they answer for, only their scope
  (`table:12:events`), and are selected by it;
- the outbox's messages (`mail.message`) name their tournament by number only (the mail app
  knows no tournament model): they are selected by `tournament_id`, which an import renumbers.
  They are carried as the record of what the players were told, and so that the messages kept
  without a mail server are read on a restored or following laptop too.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.conf import settings
from django.db import models

from dune.text_rules import whole_number

#: The apps whose models can belong to a tournament.
PROJECT_APPS = ("tournament", "gameplay", "scoring", "clocks", "insights", "ratings")
#: Computed from the filed reports and rebuilt after an import (ratings.services.recompute).
DERIVED = frozenset({"ratings.personrating", "ratings.ratinghistory", "ratings.ratingrun"})
#: Shared between tournaments: carried along and matched on import by these fields.
SHARED_MATCH: dict[str, tuple[str, ...]] = {
    "tournament.person": ("email",),
    "tournament.series": ("name", "format"),
}
#: Records of answers given to phones, found by the table in their scope.
IDEMPOTENCY = "foundation.idempotencyrecord"
#: The outbox's messages, found by the tournament's number they keep.
OUTBOX = "mail.message"
#: Labels a model had in documents written before it moved, and its label now.
RENAMED = {"gameplay.idempotencyrecord": IDEMPOTENCY}
ROOT = "tournament.tournament"


def label(model: type[models.Model]) -> str:
    return model._meta.label_lower


def user_model() -> type[models.Model]:
    return apps.get_model(settings.AUTH_USER_MODEL)


@dataclass(frozen=True)
class Owned:
    """A model whose rows belong to one tournament, and the lookup from it to the tournament."""

    model: type[models.Model]
    #: ORM lookup to the tournament's primary key ("table__round__tournament"); "pk" for the root.
    path: str

    @property
    def label(self) -> str:
        return label(self.model)


def _candidates() -> Iterator[type[models.Model]]:
    for model in apps.get_models():
        meta = model._meta
        if meta.app_label in PROJECT_APPS and not meta.proxy and label(model) not in DERIVED | set(SHARED_MATCH):
            yield model


def owned_models() -> list[Owned]:
    """Every model owned by a tournament, parents before children (the order rows are inserted)."""
    root = apps.get_model(ROOT)
    found: dict[type[models.Model], Owned] = {root: Owned(root, "pk")}
    changed = True
    while changed:
        changed = False
        for model in _candidates():
            if model in found or label(model) == IDEMPOTENCY:
                continue
            parents = [f for f in model._meta.concrete_fields if f.is_relation and not f.null]
            if not parents or not all(
                f.related_model in found or is_shared(f.related_model) or not _project_model(f.related_model)
                for f in parents
            ):
                continue
            via = next((f for f in parents if f.related_model in found), None)
            if via is None:
                continue
            parent = found[via.related_model]
            path = via.name if parent.path == "pk" else f"{via.name}__{parent.path}"
            found[model] = Owned(model, path)
            changed = True
    idempotency = apps.get_model(IDEMPOTENCY)
    return [*found.values(), Owned(idempotency, ""), Owned(apps.get_model(OUTBOX), "tournament_id")]


def _project_model(model: Any) -> bool:
    return isinstance(model, type) and model._meta.app_label in PROJECT_APPS


def is_shared(model: Any) -> bool:
    return isinstance(model, type) and label(model) in SHARED_MATCH


def is_user(model: Any) -> bool:
    return model is user_model()


def parse_scope(scope: str) -> tuple[int, str] | None:
    """(table id, endpoint) of an idempotency scope `table:12:events`; None for another scope."""
    kind, _, rest = scope.partition(":")
    number, _, endpoint = rest.partition(":")
    table = whole_number(number)
    if kind != "table" or table is None:
        return None
    return table, endpoint


@contextmanager
def timestamps_as_given(models_: list[type[models.Model]]) -> Iterator[None]:
    """Let auto_now / auto_now_add fields take the times a document or the serving laptop gives
    (an import, a spare following), instead of now."""
    saved = []
    for model in models_:
        for f in model._meta.concrete_fields:
            if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False):
                saved.append((f, f.auto_now, f.auto_now_add))
                f.auto_now = f.auto_now_add = False
    try:
        yield
    finally:
        for f, now, now_add in saved:
            f.auto_now, f.auto_now_add = now, now_add
