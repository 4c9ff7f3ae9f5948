"""Export one tournament as a sealed document (`dune.export_document`): every row it owns, the
people, series and accounts it refers to, and the figures it stood at when exported.

Two parts are there for this installation's own import only, which alone can check the seal:

- `origin`: the installation and tournament id that first made the tournament (carried from
  import to export), so the same tournament is never imported twice;
- `sign_in`: the password hashes of the judges that agreed to judge this tournament and hold no
  other role (`tournament.judges.sign_in_accounts`), so they sign in after a restore without
  new passwords. A superuser's, a player's or another tournament's account is never carried.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import decimal
import uuid
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from django.apps import apps
from django.db import models
from django.utils import timezone
from django.utils.duration import duration_iso_string

from dune import export_document as document
from dune.points import StandingsError
from scoring import services as scoring
from tournament import judges
from tournament.models import Tournament
from venue import graph, installation, moment
from venue.models import ImportedTournament


def plain(value: Any) -> Any:
    """A field's value as JSON, exactly (full microseconds, exact decimals)."""
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return duration_iso_string(value)
    if isinstance(value, decimal.Decimal | uuid.UUID | Fraction):
        return str(value)
    if isinstance(value, bytes | memoryview):
        return bytes(value).hex()
    return value


def row_of(obj: models.Model) -> dict[str, Any]:
    """Every concrete field of `obj` by its column name (`table_id` for a foreign key)."""
    return {f.attname: plain(f.value_from_object(obj)) for f in obj._meta.concrete_fields}


def jsonable(value: Any) -> Any:
    """Computed figures (dataclasses of tuples, Fractions, dates) as plain JSON values."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [jsonable(v) for v in value]
    return plain(value)


class _References:
    """The shared rows and accounts the exported rows point at."""

    def __init__(self) -> None:
        self.ids: dict[str, set[Any]] = {}

    def note(self, obj: models.Model) -> None:
        for field in obj._meta.concrete_fields:
            if not field.is_relation:
                continue
            target = field.related_model
            value = getattr(obj, field.attname)
            if value is not None and (graph.is_shared(target) or graph.is_user(target)):
                self.ids.setdefault(graph.label(target), set()).add(value)

    def note_many(self, target: Any, values: Iterable[Any]) -> None:
        if graph.is_shared(target) or graph.is_user(target):
            self.ids.setdefault(graph.label(target), set()).update(values)


def _idempotency_rows(table_ids: set[int]) -> list[models.Model]:
    model = apps.get_model(graph.IDEMPOTENCY)
    return [
        record
        for record in model.objects.filter(scope__startswith="table:").order_by("pk")
        if (parsed := graph.parse_scope(record.scope)) is not None and parsed[0] in table_ids
    ]


def _figures(tournament: Tournament) -> dict[str, Any]:
    """The standings and awards as the original computed them (an import recomputes its own)."""
    try:
        computed = scoring.compute_scoring(tournament)
        awards = scoring.compute_awards(tournament)
    except StandingsError as exc:
        return {"problem": str(exc)}
    return {"standings": jsonable(computed.standings), "awards": jsonable(awards.awards)}


def origin_of(tournament: Tournament) -> dict[str, Any]:
    """The installation and id that first made the tournament (its import's, if imported)."""
    imported = ImportedTournament.objects.filter(tournament=tournament).first()
    if imported is not None:
        return {"installation": imported.origin_installation, "tournament": imported.origin_tournament}
    return {"installation": installation.identity(), "tournament": tournament.pk}


def _sign_in(tournament: Tournament, *, superusers: bool) -> dict[str, str]:
    """Password hashes of the accounts that agreed to judge the tournament and nothing else
    (`tournament.judges.sign_in_accounts`: never a superuser, a player's or another
    tournament's account). `superusers` is kept for the callers; no superuser is carried."""
    users = judges.sign_in_accounts(tournament)
    return {u.get_username(): u.password for u in users if u.has_usable_password()}


def export_content(tournament: Tournament, *, superusers_sign_in: bool = True) -> dict[str, Any]:
    """The content of the tournament's document (plain JSON values), every part of it read at
    one moment (`venue.moment`): no answer kept for a key without the record it answered."""
    installation.current()  # written on first use: before the moment, which only reads
    with moment.one_moment():
        content = _content(tournament, superusers_sign_in=superusers_sign_in)
        content[PRIVILEGES] = _privileges(tournament)
        return content


#: The content's part only a file sealed for this installation's spares carries (with `sign_in`):
#: whether each account holding a role in the tournament is staff or a superuser, so that a
#: restore on a paired spare keeps the head judges' pages (`/healthz` details, the admin).
PRIVILEGES = "privileges"
#: The parts of the content only a file sealed for this installation's spares carries.
FOR_SPARES_ONLY = ("sign_in", PRIVILEGES)


def _privileges(tournament: Tournament) -> dict[str, dict[str, bool]]:
    users = graph.user_model().objects.filter(
        models.Q(head_judge_of=tournament)
        | models.Q(table_judge_of=tournament)
        | models.Q(judged_tables__round__tournament=tournament)
    ).distinct().order_by("pk")
    return {u.get_username(): {"is_staff": bool(getattr(u, "is_staff", False)),
                               "is_superuser": bool(getattr(u, "is_superuser", False))} for u in users}


def _content(tournament: Tournament, *, superusers_sign_in: bool) -> dict[str, Any]:
    refs = _References()
    rows: dict[str, list[dict[str, Any]]] = {}
    many: dict[str, list[list[Any]]] = {}
    table_ids: set[int] = set()
    for owned in graph.owned_models():
        if owned.label == graph.IDEMPOTENCY:
            objects = _idempotency_rows(table_ids)
        else:
            objects = list(owned.model.objects.filter(**{owned.path: tournament.pk}).order_by("pk"))
        if owned.label == "tournament.table":
            table_ids = {t.pk for t in objects}
        for obj in objects:
            refs.note(obj)
        rows[owned.label] = [row_of(obj) for obj in objects]
        ids = [obj.pk for obj in objects]
        for field in owned.model._meta.many_to_many:
            through = field.remote_field.through
            source = field.m2m_field_name()
            target = field.m2m_reverse_field_name()
            pairs = sorted(
                through.objects.filter(**{f"{source}__in": ids}).values_list(f"{source}_id", f"{target}_id")
            )
            many[f"{owned.label}.{field.name}"] = [list(p) for p in pairs]
            refs.note_many(field.related_model, (p[1] for p in pairs))
    shared: dict[str, list[dict[str, Any]]] = {}
    for name in graph.SHARED_MATCH:
        objects = list(_model(name).objects.filter(pk__in=refs.ids.get(name, ())).order_by("pk"))
        for obj in objects:  # a series' or a person's own links to accounts come along
            refs.note(obj)
        shared[name] = [row_of(obj) for obj in objects]
    users = graph.user_model().objects.filter(pk__in=refs.ids.get(graph.label(graph.user_model()), ()))
    shared[graph.label(graph.user_model())] = [_account(obj) for obj in users.order_by("pk")]
    return {
        "tournament": tournament.pk,
        "name": tournament.name,
        "exported_at": timezone.now().isoformat(),
        "shared": shared,
        "rows": rows,
        "many_to_many": many,
        "figures": _figures(tournament),
        "origin": origin_of(tournament),
        "sign_in": _sign_in(tournament, superusers=superusers_sign_in),
    }


#: Account fields carried: who someone is, never their password or privileges.
USER_FIELDS = ("username", "first_name", "last_name", "email", "is_active")


def _account(obj: models.Model) -> dict[str, Any]:
    return {"id": obj.pk, **{f: plain(getattr(obj, f)) for f in USER_FIELDS if hasattr(obj, f)}}


def _model(name: str) -> type[models.Model]:
    return apps.get_model(name)


def seal(content: dict[str, Any], *, for_spares: bool = True) -> dict[str, Any]:
    """The document of `content`, sealed with this installation's key for its own import and its
    paired spares' (`venue.pairing`). The password hashes and privileges (`FOR_SPARES_ONLY`)
    stay only in a file sealed so (`for_spares`): never in a download, never in the file of an
    installation whose key is public (it seals nothing as trusted, so nothing could trust them)."""
    key = installation.sealing_key()
    if key is None or not for_spares:
        content = {**content, **{part: {} for part in FOR_SPARES_ONLY if part in content}}
    return document.seal(content, key)


def export_document(tournament: Tournament, *, superusers_sign_in: bool = True,
                    for_spares: bool = True) -> dict[str, Any]:
    return seal(export_content(tournament, superusers_sign_in=superusers_sign_in), for_spares=for_spares)


def export_text(tournament: Tournament, *, superusers_sign_in: bool = True, for_spares: bool = True) -> str:
    return document.canonical(
        export_document(tournament, superusers_sign_in=superusers_sign_in, for_spares=for_spares)
    ).decode("utf-8")


