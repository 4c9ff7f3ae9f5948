"""The spare laptop's side of `bin/venue follow URL`: apply one tournament's changes
(`venue.changes`) to this installation, in one transaction, keeping every id of the serving
laptop, so that after `bin/venue take-over` the phones' links, queued actions and record
numbers are the same.

The spare is a mirror: a row is written under the serving laptop's id (inserted, or updated
in place), an append-only row only inserted, a row the serving laptop deleted is deleted here
too. Accounts keep their password hashes, so judges sign in after a take-over as before. A row
whose id is held here by something else (this laptop served events of its own) is a refusal:
follow on an empty installation (move `var/` aside).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.core.management.color import no_style
from django.db import connection, models, transaction
from django.utils.translation import gettext as _

from venue import changes as feed
from venue import export, graph
from venue.models import ImportedTournament


class FollowRefused(ValueError):
    """A change this installation cannot mirror; nothing of it was written."""


@dataclass
class Applied:
    tournament: int
    #: Rows written (inserted or updated) per model label, and rows deleted.
    written: dict[str, int] = field(default_factory=dict)
    deleted: dict[str, int] = field(default_factory=dict)
    #: (table id, record number, when the serving laptop wrote it) of every new game record.
    records: list[tuple[int, int, dt.datetime]] = field(default_factory=list)


def _value(f: models.Field[Any, Any], raw: Any) -> Any:
    if raw is None or f.is_relation or isinstance(f, models.JSONField):
        return raw
    try:
        return f.to_python(raw)
    except Exception as exc:  # a malformed value: refuse the change, naming where
        raise FollowRefused(_("%(label)s.%(name)s: %(raw)s is not a valid value (%(exc)s)") % {"label": graph.label(f.model), "name": f.name, "raw": repr(raw), "exc": exc}) from None


def _values(model: type[models.Model], row: dict[str, Any]) -> dict[str, Any]:
    fields = {f.attname: f for f in model._meta.concrete_fields}
    unknown = sorted(set(row) - set(fields))
    if unknown:
        raise FollowRefused(_("%(label)s has fields this laptop does not know (%(value)s): run the same version of the platform on both laptops") % {"label": graph.label(model), "value": ', '.join(unknown)})
    return {name: _value(fields[name], raw) for name, raw in row.items()}


def _upsert(model: type[models.Model], rows: list[dict[str, Any]], *, append_only: bool) -> int:
    """Insert the rows this installation lacks; update those that differ (unless append-only).
    Returns how many rows were written."""
    pk = model._meta.pk.attname
    incoming = {row[pk]: row for row in rows}
    held = {obj.pk: obj for obj in model.objects.filter(pk__in=list(incoming))}
    model.objects.bulk_create([model(**_values(model, row)) for key, row in incoming.items() if key not in held],
                              batch_size=500)
    written = len(incoming) - len(held)
    if append_only:
        return written
    names = [f.attname for f in model._meta.concrete_fields if f.attname != pk]
    for key, obj in held.items():
        if export.row_of(obj) != incoming[key]:
            values = _values(model, incoming[key])
            model.objects.filter(pk=key).update(**{name: values[name] for name in names if name in values})
            written += 1
    return written


def _accounts(rows: list[dict[str, Any]]) -> None:
    model = graph.user_model()
    for row in rows:
        found = model.objects.filter(pk=row["id"]).first()
        if found is not None and found.get_username() != row.get("username"):
            raise FollowRefused(_("account %(row)s is %(get_username)s here and %(value)s on the serving laptop: follow on an empty installation (move var/ aside)") % {"row": row['id'], "get_username": repr(found.get_username()), "value": repr(row.get('username'))})
        fields = {f.attname: f for f in model._meta.concrete_fields}
        values = {k: _value(fields[k], row[k]) for k in (*export.USER_FIELDS, *feed.SPARE_ACCOUNT_FIELDS)
                  if k in row and k in fields}
        if found is None:
            user = model(pk=row["id"], **values)
            if "password" not in row:
                user.set_unusable_password()
            user.save()
        else:
            model.objects.filter(pk=row["id"]).update(**values)


def apply(change: dict[str, Any]) -> Applied:
    """Write one pull's changes; returns what was written. Raises FollowRefused, writing nothing."""
    if change.get("format") != feed.FORMAT:
        raise FollowRefused(_("the serving laptop sent %(value)s, this one reads %(FORMAT)s: run the same version of the platform on both laptops") % {"value": repr(change.get('format')), "FORMAT": repr(feed.FORMAT)})
    owned = graph.owned_models()
    applied = Applied(tournament=int(change["tournament"]))
    touched: list[type[models.Model]] = []
    shared = [apps.get_model(name) for name in graph.SHARED_MATCH]
    with transaction.atomic(), graph.timestamps_as_given([o.model for o in owned] + shared):
        _accounts(change["shared"].get(graph.label(graph.user_model()), []))
        for model in shared:
            applied.written[graph.label(model)] = _upsert(model, change["shared"].get(graph.label(model), []),
                                                          append_only=False)
            touched.append(model)
        for item in owned:
            rows = change["rows"].get(item.label, [])
            if rows:
                applied.written[item.label] = _upsert(item.model, rows, append_only=item.label in feed.APPEND_ONLY)
                touched.append(item.model)
        for item in reversed(owned):  # children before parents
            if item.label not in change["ids"]:
                continue
            gone = item.model.objects.filter(**{item.path: applied.tournament}).exclude(pk__in=change["ids"][item.label])
            count = gone.delete()[0] if gone.exists() else 0
            if count:
                applied.deleted[item.label] = count
        for item in owned:
            for f in item.model._meta.many_to_many:
                key = f"{item.label}.{f.name}"
                if key not in change["many_to_many"]:
                    continue
                through = f.remote_field.through
                source, target = f.m2m_field_name(), f.m2m_reverse_field_name()
                mine = change["ids"].get(item.label, [])
                through.objects.filter(**{f"{source}__in": mine}).delete()
                through.objects.bulk_create(
                    [through(**{f"{source}_id": a, f"{target}_id": b}) for a, b in change["many_to_many"][key]],
                    ignore_conflicts=True)
        _reset_sequences(touched)
        _remember_origin(applied.tournament, change.get("origin"))
    applied.records = _records(change)
    return applied


def _records(change: dict[str, Any]) -> list[tuple[int, int, dt.datetime]]:
    games = {row["id"]: row["table_id"] for row in change["rows"].get("gameplay.game", [])}
    if "gameplay.gameevent" in change["rows"]:
        missing = {row["game_id"] for row in change["rows"]["gameplay.gameevent"]} - set(games)
        if missing:
            game = apps.get_model("gameplay.game")
            games.update(dict(game.objects.filter(pk__in=missing).values_list("pk", "table_id")))
    return [(games.get(row["game_id"], 0), int(row["seq"]), dt.datetime.fromisoformat(row["created_at"]))
            for row in change["rows"].get("gameplay.gameevent", [])]


def _reset_sequences(models_: list[type[models.Model]]) -> None:
    """After rows were written with their ids, the next id this installation hands out follows
    them (PostgreSQL's sequences; SQLite follows by itself)."""
    statements = connection.ops.sequence_reset_sql(no_style(), models_)
    if statements:
        with connection.cursor() as cursor:
            for sql in statements:
                cursor.execute(sql)


def _remember_origin(tournament_id: int, origin: Any) -> None:
    """The followed tournament keeps the serving laptop's origin (as an import does), so that
    importing one of that laptop's backups here is refused as the same tournament."""
    if not isinstance(origin, dict) or not isinstance(origin.get("installation"), str) \
            or not isinstance(origin.get("tournament"), int):
        raise FollowRefused(_("the serving laptop did not say where the tournament was first made"))
    ImportedTournament.objects.update_or_create(
        tournament_id=tournament_id,
        defaults={"origin_installation": origin["installation"][:64], "origin_tournament": origin["tournament"],
                  "checksum": "followed", "imported_by": "bin/venue follow"},
    )
