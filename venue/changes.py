"""The changes of one tournament since a cursor: the incremental form of the export that a
spare laptop (`bin/venue follow URL`) pulls every few seconds to stay a few seconds behind.

The rows are the export's own (`export.row_of`: every concrete field by column name) and the
models are the export's (`graph.owned_models`), so a model or field added to a tournament is
followed without a change here. What a pull carries:

- rows of the append-only models (game records, snapshots, audits, revisions, clock history,
  idempotency records, ...) written after the cursor: a primary key above the highest one the
  spare holds, or (on PostgreSQL, where concurrent transactions may commit out of key order)
  written in the `MARGIN` before the previous pull;
- rows of the other models changed since the previous pull (less the `MARGIN`) when the model
  keeps an `auto_now` time (a game's position), every row otherwise (rounds, tables, seats: few and small), with the
  ids of every row so the spare drops what was deleted (a seat swapped away);
- the shared rows they refer to (people, series) and the accounts; to a spare paired with this
  laptop (it proves it holds the event key, `venue.pairing.spare_proof`) with their privileges,
  and the password hashes only of the accounts that agreed to judge this tournament and nothing
  else (`tournament.judges.sign_in_accounts`), so that they sign in on the spare with their own
  passwords after a take-over (the caller is a head judge of the tournament).

The cursor is a small JSON object the spare keeps: `{"since": A's time of the previous pull,
"pk": {model label: highest primary key held}}`; an empty cursor gives the whole tournament.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.db import connection, models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament import judges
from tournament.models import Tournament
from venue import export, graph, installation, moment

FORMAT = "dune-changes/1"
#: Rows written this long before the previous pull are sent again (the spare skips what it has):
#: a row saved before the pull began but committed after the pull read the database.
MARGIN = dt.timedelta(seconds=10)
#: Append-only models and the time each row was written: never updated, never deleted while
#: the tournament runs (records are corrected by new records). Any other model is sent whole.
APPEND_ONLY: dict[str, str] = {
    "tournament.playerchange": "at",
    "tournament.seatingaudit": "at",
    "tournament.personlink": "at",
    "gameplay.gameevent": "created_at",
    "gameplay.gamesnapshot": "created_at",
    "scoring.reportrevision": "at",
    "clocks.clockextension": "at",
    "clocks.clockhistory": "at",
    graph.IDEMPOTENCY: "created_at",
}


class CursorRefused(ValueError):
    """A cursor that is not the object this module hands out."""


@dataclass(frozen=True)
class Cursor:
    since: dt.datetime | None
    pk: dict[str, int]

    @classmethod
    def parse(cls, raw: Any) -> Cursor:
        if raw in (None, "", {}):
            return cls(None, {})
        if not isinstance(raw, dict) or not isinstance(raw.get("pk", {}), dict):
            raise CursorRefused(_("cursor: expected {\"since\": time, \"pk\": {model: number}}"))
        since = raw.get("since")
        at = None
        if since is not None:
            try:
                at = dt.datetime.fromisoformat(str(since))
            except ValueError:
                raise CursorRefused(_("cursor.since: %(since)s is not a time") % {"since": repr(since)}) from None
            if at.tzinfo is None:
                raise CursorRefused(_("cursor.since: %(since)s has no time zone") % {"since": repr(since)})
            if not 1990 <= at.year <= 2100:  # the time of a previous pull, never the first or last moment
                raise CursorRefused(_("cursor.since: %(since)s is not the time of a pull") % {"since": repr(since)})
        pks: dict[str, int] = {}
        for label, number in raw.get("pk", {}).items():
            if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number < 2**63:
                raise CursorRefused(_("cursor.pk.%(label)s: %(number)s is not a record number") % {"label": label, "number": repr(number)})
            pks[str(label)] = number
        return cls(at, pks)


def _auto_now(model: type[models.Model]) -> str | None:
    for f in model._meta.concrete_fields:
        if getattr(f, "auto_now", False):
            return f.attname
    return None


def _queryset(owned: graph.Owned, tournament: Tournament, table_ids: set[int]) -> models.QuerySet[Any]:
    if owned.label == graph.IDEMPOTENCY:
        scopes = Q(pk__in=[])
        for table_id in sorted(table_ids):
            scopes |= Q(scope__startswith=f"table:{table_id}:")
        return owned.model.objects.filter(scopes)
    return owned.model.objects.filter(**{owned.path: tournament.pk})


def _keys_in_commit_order() -> bool:
    """SQLite (venue mode) lets one writer at a time hold the database from its first insert to
    its commit, so primary keys become visible in order and a key above the cursor is enough.
    PostgreSQL hands out keys to concurrent transactions that may commit in another order."""
    return connection.vendor == "sqlite"


def _pairs(owned: graph.Owned, ids: list[Any], refs: export._References) -> dict[str, list[list[Any]]]:
    """Every many-to-many link of the rows `ids` (a tournament's head judges), noting their targets."""
    many: dict[str, list[list[Any]]] = {}
    for field in owned.model._meta.many_to_many:
        through = field.remote_field.through
        source, target = field.m2m_field_name(), field.m2m_reverse_field_name()
        pairs = sorted(through.objects.filter(**{f"{source}__in": ids}).values_list(f"{source}_id", f"{target}_id"))
        many[f"{owned.label}.{field.name}"] = [list(p) for p in pairs]
        refs.note_many(field.related_model, (p[1] for p in pairs))
    return many


def changes(tournament: Tournament, cursor: Cursor, *, spare: bool = False) -> dict[str, Any]:
    """The tournament's changes since `cursor`, as plain JSON, with the next cursor, every part
    read at one moment (`venue.moment`): no answer kept for a key without the record it answered."""
    installation.current()  # written on first use: before the moment, which only reads
    with moment.one_moment():
        return _changes(tournament, cursor, spare=spare)


def _changes(tournament: Tournament, cursor: Cursor, *, spare: bool) -> dict[str, Any]:
    now = timezone.now()
    since = cursor.since - MARGIN if cursor.since is not None else None
    appended_since = None if _keys_in_commit_order() else since
    refs = export._References()
    rows: dict[str, list[dict[str, Any]]] = {}
    ids: dict[str, list[Any]] = {}
    many: dict[str, list[list[Any]]] = {}
    next_pk: dict[str, int] = dict(cursor.pk)
    table_ids: set[int] = set()
    for owned in graph.owned_models():
        everything = _queryset(owned, tournament, table_ids)
        if owned.label == "tournament.table":
            table_ids = set(everything.values_list("pk", flat=True))
        written = APPEND_ONLY.get(owned.label)
        if written is not None:
            held = cursor.pk.get(owned.label, 0)
            wanted = Q(pk__gt=held)
            if appended_since is not None:
                wanted |= Q(**{f"{written}__gte": appended_since})
            objects = list(everything.filter(wanted).order_by("pk"))
            if objects:
                next_pk[owned.label] = max(held, max(int(o.pk) for o in objects))
        else:
            touched = _auto_now(owned.model)
            chosen = everything.filter(**{f"{touched}__gte": since}) if touched and since else everything
            objects = list(chosen.order_by("pk"))
            ids[owned.label] = sorted(everything.values_list("pk", flat=True))
            many.update(_pairs(owned, ids[owned.label], refs))
        for obj in objects:
            refs.note(obj)
        if objects:
            rows[owned.label] = [export.row_of(obj) for obj in objects]
    shared: dict[str, list[dict[str, Any]]] = {}
    for name in graph.SHARED_MATCH:
        found = list(apps.get_model(name).objects.filter(pk__in=refs.ids.get(name, ())).order_by("pk"))
        for obj in found:
            refs.note(obj)
        shared[name] = [export.row_of(obj) for obj in found]
    users = graph.user_model().objects.filter(pk__in=refs.ids.get(graph.label(graph.user_model()), ()))
    carried = set(judges.sign_in_accounts(tournament).values_list("pk", flat=True)) if spare else set()
    shared[graph.label(graph.user_model())] = [_account(user, spare=spare, carried=user.pk in carried)
                                               for user in users.order_by("pk")]
    return {
        "format": FORMAT,
        "tournament": tournament.pk,
        "name": tournament.name,
        # Where the tournament was first made: the spare's own exports carry it on, so a backup
        # of the serving laptop imported on the spare later is known as the same tournament.
        "origin": export.origin_of(tournament),
        "at": now.isoformat(),
        "cursor": {"since": now.isoformat(), "pk": next_pk},
        "shared": shared,
        "rows": rows,
        "ids": ids,
        "many_to_many": many,
    }


#: What a paired spare keeps of an account beyond the export's fields: its password hash (judges
#: sign in after a take-over as before), whether it is staff or a superuser (a head judge's pages,
#: a superuser acting as head judge), when it was made.
SPARE_ACCOUNT_FIELDS = ("password", "is_staff", "is_superuser", "date_joined")


def _account(user: Any, *, spare: bool, carried: bool) -> dict[str, Any]:
    """An account as the feed carries it: who it is; to a paired spare (`spare`) also its
    privileges and, for the accounts the tournament's sign-in content may carry (`carried`:
    `tournament.judges.sign_in_accounts`), its password hash."""
    row = {"id": user.pk, **{f: export.plain(getattr(user, f)) for f in export.USER_FIELDS if hasattr(user, f)}}
    if spare:
        fields = [f for f in SPARE_ACCOUNT_FIELDS if f != "password" or carried]
        row.update({f: export.plain(getattr(user, f)) for f in fields if hasattr(user, f)})
    return row
