"""Import an exported tournament into this installation, in one transaction.

The document is checked first (`dune.export_document`: known format_version, matching checksum);
then every row is written with its references remapped:

- accounts are matched by username; one this installation lacks is created without a usable
  password (the organiser sets one: `manage.py changepassword NAME`);
- people are matched by email (in any letter case), series by name and format;
- a tournament's own rows keep their ids where this installation has none of them (an empty
  installation keeps every id, so the phones' links and queued actions still name the right
  table); otherwise they get new ids and the references inside stored JSON (report rows'
  players, the final's pick order, idempotency scopes) are rewritten to match.

Anything refused (an unknown model or field, a broken reference) raises DocumentRefused and
writes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.core.exceptions import ValidationError
from django.core.management.color import no_style
from django.db import IntegrityError, connection, models, transaction

from dune import export_document as document
from dune.export_document import DocumentRefused
from dune.text_rules import email_key
from ratings import signals as ratings_signals
from venue import graph

Ids = dict[Any, Any]


@dataclass
class Imported:
    tournament: Any
    #: Rows written per model label.
    counts: dict[str, int]
    #: Accounts created without a password, to be given one before their owners sign in.
    new_accounts: list[str] = field(default_factory=list)
    #: True when every row kept its original id.
    same_ids: bool = True


@contextmanager
def _timestamps_as_given(models_: list[type[models.Model]]) -> Iterator[None]:
    """Let auto_now / auto_now_add fields take the exported times instead of now."""
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


def _value(f: models.Field[Any, Any], raw: Any) -> Any:
    if raw is None or f.is_relation:
        return raw
    if isinstance(f, models.JSONField):
        return raw
    try:
        return f.to_python(raw)
    except Exception as exc:  # a malformed value: refuse the file, naming where
        raise DocumentRefused(f"{f.model._meta.label_lower}.{f.name}: {raw!r} is not a valid value ({exc})",
                              field="content") from None


class _Loader:
    def __init__(self, content: dict[str, Any]) -> None:
        self.content = content
        self.maps: dict[str, Ids] = {}
        self.new_accounts: list[str] = []
        self.counts: dict[str, int] = {}
        self.same_ids = True

    # --- shared rows ---------------------------------------------------------------------

    def accounts(self, rows: list[dict[str, Any]]) -> None:
        model = graph.user_model()
        ids: Ids = {}
        for row in rows:
            username = row.get("username")
            if not isinstance(username, str) or not username:
                raise DocumentRefused(f"an account has no username ({row!r})", field="content")
            user = model.objects.filter(username=username).first()
            if user is None:
                extra = {k: row[k] for k in ("first_name", "last_name", "email", "is_active") if k in row}
                user = model(username=username, **extra)
                user.set_unusable_password()
                user.save()
                self.new_accounts.append(username)
            ids[row["id"]] = user.pk
        self.maps[graph.label(model)] = ids

    def shared(self, name: str, rows: list[dict[str, Any]]) -> None:
        model = apps.get_model(name)
        keys = graph.SHARED_MATCH[name]
        ids: Ids = {}
        for row in rows:
            values = self._values(model, row)
            found = None
            if all(values.get(k) for k in keys):
                # An email is matched by the one form emails are compared by (`email_key`).
                lookup = {k: values[k] for k in keys if k != "email"}
                if "email" in keys:
                    lookup["email_key"] = email_key(values["email"])
                found = model.objects.filter(**lookup).order_by("pk").first()
            if found is None:
                values.pop(model._meta.pk.attname, None)
                found = model.objects.create(**values)
            ids[row[model._meta.pk.attname]] = found.pk
        self.maps[name] = ids

    # --- owned rows ----------------------------------------------------------------------

    def _values(self, model: type[models.Model], row: dict[str, Any]) -> dict[str, Any]:
        fields = {f.attname: f for f in model._meta.concrete_fields}
        unknown = sorted(set(row) - set(fields))
        if unknown:
            raise DocumentRefused(
                f"{graph.label(model)} has fields this installation does not know ({', '.join(unknown)}); "
                "update the platform to import this file", field="content",
            )
        values: dict[str, Any] = {}
        for attname, raw in row.items():
            f = fields[attname]
            value = _value(f, raw)
            if f.is_relation and value is not None:
                value = self._remap(f, value)
            values[attname] = value
        return values

    def _remap(self, f: models.Field[Any, Any], value: Any) -> Any:
        target = graph.label(f.related_model)
        if target not in self.maps:
            if graph.label(f.model) in graph.SHARED_MATCH:
                return None  # a shared row's link to another installation's rows is not carried
            raise DocumentRefused(f"{graph.label(f.model)}.{f.name} refers to {target}, which the file "
                                  "does not carry", field="content")
        try:
            return self.maps[target][value]
        except KeyError:
            if f.null:
                return None
            raise DocumentRefused(f"{graph.label(f.model)}.{f.name} refers to {target} {value}, which is "
                                  "not in the file", field="content") from None

    def owned(self, owned: graph.Owned, rows: list[dict[str, Any]]) -> None:
        model = owned.model
        pk = model._meta.pk.attname
        old_ids = [row[pk] for row in rows]
        keep = not model.objects.filter(pk__in=old_ids).exists()
        self.same_ids &= keep
        rewrites = self._json_rewrites_for(owned.label)
        objects = []
        for row in rows:
            values = self._values(model, row)
            if not keep:
                values.pop(pk)
            for attname, rewrite in rewrites.items():
                values[attname] = rewrite(values[attname])
            objects.append(model(**values))
        created = model.objects.bulk_create(objects, batch_size=500)
        self.maps[owned.label] = {old: obj.pk for old, obj in zip(old_ids, created, strict=True)}
        self.counts[owned.label] = len(created)

    def many_to_many(self, owned: graph.Owned, pairs: dict[str, list[list[Any]]]) -> None:
        for f in owned.model._meta.many_to_many:
            through = f.remote_field.through
            source, target = f.m2m_field_name(), f.m2m_reverse_field_name()
            ours, theirs = self.maps[owned.label], self.maps.get(graph.label(f.related_model), {})
            links = [
                through(**{f"{source}_id": ours[a], f"{target}_id": theirs[b]})
                for a, b in pairs.get(f"{owned.label}.{f.name}", [])
                if a in ours and b in theirs
            ]
            through.objects.bulk_create(links, ignore_conflicts=True)

    # --- ids inside stored JSON ------------------------------------------------------------

    def _json_rewrites_for(self, label: str) -> dict[str, Callable[[Any], Any]]:
        """How ids kept inside this model's JSON values change, before its rows are written
        (append-only tables are never updated afterwards). Players, tables and people are
        loaded before every model whose JSON names them (`graph` orders the models)."""
        players = self.maps.get("tournament.player", {})
        tables = self.maps.get("tournament.table", {})
        people = self.maps.get("tournament.person", {})
        if all(k == v for ids in (players, tables, people) for k, v in ids.items()):
            return {}
        return {
            name.rpartition(".")[2]: rewrite
            for name, rewrite in _json_rewrites(players, tables, people).items()
            if name.rpartition(".")[0] == label
        }

    def reset_sequences(self, models_: list[type[models.Model]]) -> None:
        statements = connection.ops.sequence_reset_sql(no_style(), models_)
        if statements:
            with connection.cursor() as cursor:
                for sql in statements:
                    cursor.execute(sql)


def _json_rewrites(players: Ids, tables: Ids, people: Ids) -> dict[str, Callable[[Any], Any]]:
    def player(value: Any) -> Any:
        return players.get(value, value)

    def player_list(values: Any) -> Any:
        return [player(v) for v in values] if isinstance(values, list) else values

    def report(data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        data = dict(data)
        data["results"] = [{**r, "player": player(r.get("player"))} for r in data.get("results", [])]
        if "alliances" in data:
            data["alliances"] = [player_list(a) for a in data["alliances"]]
        return data

    def scope(value: str) -> str:
        parsed = graph.parse_scope(value)
        if parsed is None:
            return value
        return f"table:{tables.get(parsed[0], parsed[0])}:{parsed[1]}"

    def person(value: Any) -> Any:
        return people.get(value, value)

    return {
        "scoring.gamereport.data": report,
        "scoring.reportrevision.data": report,
        "tournament.round.waiting": player_list,
        "tournament.round.pick_order": player_list,
        "tournament.round.alternates_seated": player_list,
        "gameplay.idempotencyrecord.scope": scope,
        "tournament.personlink.from_person": person,
        "tournament.personlink.to_person": person,
    }


def import_text(text: str | bytes) -> Imported:
    """Import the document in `text`. Raises DocumentRefused (nothing written)."""
    content = document.open_sealed(document.parse(text))
    return import_content(content)


def import_content(content: dict[str, Any]) -> Imported:
    owned = graph.owned_models()
    rows = content.get("rows")
    shared = content.get("shared")
    if not isinstance(rows, dict) or not isinstance(shared, dict):
        raise DocumentRefused("the content has no rows or no shared rows", field="content")
    known = {o.label for o in owned}
    unknown = sorted(set(rows) - known)
    if unknown:
        raise DocumentRefused(f"the file carries records this installation does not know ({', '.join(unknown)}); "
                              "update the platform to import it", field="content")
    if len(rows.get(graph.ROOT, [])) != 1:
        raise DocumentRefused("the file does not hold exactly one tournament", field="content")
    try:
        return _load(content, owned)
    except (IntegrityError, ValidationError, ValueError, TypeError, KeyError) as exc:
        if isinstance(exc, DocumentRefused):
            raise
        raise DocumentRefused(f"the file does not fit this installation's records ({exc})", field="content") from exc


def _load(content: dict[str, Any], owned: list[graph.Owned]) -> Imported:
    rows, shared = content["rows"], content["shared"]
    loader = _Loader(content)
    with transaction.atomic(), _timestamps_as_given([o.model for o in owned] + _shared_models()):
        loader.accounts(shared.get(graph.label(graph.user_model()), []))
        for name in graph.SHARED_MATCH:
            loader.shared(name, shared.get(name, []))
        for o in owned:
            loader.owned(o, rows.get(o.label, []))
        for o in owned:
            loader.many_to_many(o, content.get("many_to_many", {}))
        loader.reset_sequences([o.model for o in owned] + _shared_models())
        tournament = apps.get_model(graph.ROOT).objects.get(pk=next(iter(loader.maps[graph.ROOT].values())))
        # Cached standings are keyed by a fingerprint of the reports read from the database:
        # the imported rows make their own, so nothing cached before can answer for them.
        # Ratings are derived, never carried: recompute them with the imported games.
        ratings_signals.schedule()
    return Imported(tournament, loader.counts, loader.new_accounts, loader.same_ids)


def _shared_models() -> list[type[models.Model]]:
    return [apps.get_model(name) for name in graph.SHARED_MATCH]


__all__ = ["Imported", "import_text", "import_content", "DocumentRefused"]
