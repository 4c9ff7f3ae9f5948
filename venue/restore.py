"""Import an exported tournament into this installation, in one transaction.

The document is checked first (`dune.export_document`: known format_version, matching checksum).
Its seal says who wrote it. A document this installation sealed is its own records (a restore
on the same laptop, or on a spare given the same secret key): its accounts are matched by
username and its judges' password hashes are given to the accounts the import creates, so
they sign in as before. Any other document, from another installation or edited by anyone
(its checksum recomputed), is untrusted input and links nothing it could not have made:

- accounts: an account of this installation is never taken for one the file names; each
  account of the file becomes a new account without a password (renamed when the name is
  taken), so the file makes nobody a head judge, a table judge or "the person" of anyone;
- series: the tournament joins only a series of the same name and format that the importing
  account (`by`) may manage; otherwise a new series is made, owned by that account;
- people: matched by email as the registration desk matches them (which gives no rights);
- the importing account, when named, becomes a head judge of the imported tournament.

Either way every value is checked as the API would check it (lengths, choices, names, formats,
time zones), stored JSON may name only the file's own players and tables (idempotency scopes
included), and a tournament already here (the same origin) is refused: a rated game never
counts twice. A tournament's own rows keep their ids where this installation has none of them
(an empty installation keeps every id, so the phones' links and queued actions still name the
right table); otherwise they get new ids and the references inside stored JSON are rewritten.

Anything refused raises DocumentRefused naming the record and field, and writes nothing.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.conf import settings
from django.contrib.auth.hashers import identify_hasher
from django.core.exceptions import ValidationError
from django.core.management.color import no_style
from django.db import DatabaseError, IntegrityError, connection, models, transaction
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext as _

from dune import export_document as document
from dune.export_document import DocumentRefused
from dune.formats import FORMATS, FormatDocumentError, format_from_document, preset_document
from dune.text_rules import email_key, name_problem
from gameplay import engine_adapter as rules
from ratings import effects as ratings_effects
from tournament import people, private_links
from tournament.time_zones import zone_name
from venue import graph, installation
from venue.models import ImportedTournament

Ids = dict[Any, Any]


#: Name fields checked by the one name rule (dune.text_rules.name_problem), as the API does.
NAME_FIELDS = frozenset({
    "tournament.tournament.name", "tournament.series.name", "tournament.player.name", "tournament.person.name",
})


@dataclass
class Imported:
    tournament: Any
    #: Rows written per model label.
    counts: dict[str, int]
    #: Accounts created without a password, to be given one before their owners sign in.
    new_accounts: list[str] = field(default_factory=list)
    #: True when every row kept its original id.
    same_ids: bool = True
    #: True when this installation sealed the file (its own records).
    own: bool = False
    #: Accounts created with the password they had (the file's judges, from an own file).
    signed_in_as_before: list[str] = field(default_factory=list)
    #: The file's account names taken here by someone else: the name each got instead.
    renamed_accounts: dict[str, str] = field(default_factory=dict)
    #: What the import did not take from an untrusted file, in words.
    not_trusted: list[str] = field(default_factory=list)
    #: How the file's seal stands here (`installation.seal_trust`): own, paired, public or none.
    trust: str = ""
    #: Accounts the import gave the privileges the file carries (a trusted file only).
    privileged: list[str] = field(default_factory=list)
    #: Answers kept for idempotency keys whose records the file does not hold (a file read
    #: while records were written): dropped, so a phone sending the key again is recorded.
    dropped_answers: int = 0


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
    def __init__(self, content: dict[str, Any], *, own: bool, by: Any = None) -> None:
        self.content = content
        self.own = own
        self.by = by
        self.maps: dict[str, Ids] = {}
        self.new_accounts: list[str] = []
        self.signed_in_as_before: list[str] = []
        self.renamed: dict[str, str] = {}
        self.not_trusted: list[str] = []
        self.counts: dict[str, int] = {}
        self.same_ids = True
        self.dropped_answers = 0
        self.privileged: list[str] = []

    # --- shared rows ---------------------------------------------------------------------

    def _hashes(self) -> dict[str, str]:
        """The judges' password hashes, from this installation's own file only."""
        given = self.content.get("sign_in") or {}
        if not isinstance(given, dict):
            raise DocumentRefused("sign_in is not an object of account names and password hashes", field="sign_in")
        if given and not self.own:
            self.not_trusted.append(
                f"the password hashes of {len(given)} accounts (only a file this installation sealed carries them)"
            )
            return {}
        return {k: v for k, v in given.items() if isinstance(k, str) and isinstance(v, str)}

    def _privileges(self) -> dict[str, dict[str, bool]]:
        """Whether the file's judges were staff or superusers: from a file sealed here or by the
        laptop this spare was paired with only, given to the accounts the import creates."""
        given = self.content.get("privileges") or {}
        if not isinstance(given, dict):
            raise DocumentRefused("privileges is not an object of account names", field="privileges")
        if not self.own:
            return {}
        return {name: {flag: flags[flag] for flag in ("is_staff", "is_superuser") if isinstance(flags.get(flag), bool)}
                for name, flags in given.items() if isinstance(name, str) and isinstance(flags, dict)}

    def accounts(self, rows: list[dict[str, Any]]) -> None:
        model = graph.user_model()
        fields = {f.name: f for f in model._meta.concrete_fields}
        hashes = self._hashes()
        privileges = self._privileges()
        ids: Ids = {}
        taken_here = 0
        for row in rows:
            if not isinstance(row, dict):
                raise DocumentRefused(f"an account is not an object ({row!r:.80})", field="content")
            username = row.get("username")
            if not isinstance(username, str) or not username:
                raise DocumentRefused(f"an account has no username ({row!r:.80})", field="content")
            extra = {k: row[k] for k in ("first_name", "last_name", "email", "is_active") if k in row}
            for name, raw in {"username": username, **extra}.items():
                _checked(fields[name], raw, "auth.user")
            user = model.objects.filter(username=username).first()
            if user is not None and not self.own:
                taken_here += 1
                self.renamed[username] = free_username(model, username)
                user = None
            if user is None:
                user = model(username=self.renamed.get(username, username), **extra)
                user.set_unusable_password()
                password = hashes.get(username)
                if password and _is_hash(password):
                    user.password = password
                    self.signed_in_as_before.append(user.get_username())
                for flag, value in privileges.get(username, {}).items():
                    setattr(user, flag, value)
                if privileges.get(username):
                    self.privileged.append(user.get_username())
                user.save()
                if not user.has_usable_password():
                    self.new_accounts.append(user.get_username())
            ids[row.get("id")] = user.pk
        if taken_here:
            self.not_trusted.append(
                f"{taken_here} account names that are taken here: the file's accounts are new accounts "
                "(an account of this installation is never taken for one a file names)"
            )
        self.maps[graph.label(model)] = ids

    def shared(self, name: str, rows: list[dict[str, Any]]) -> None:
        model = apps.get_model(name)
        keys = graph.SHARED_MATCH[name]
        ids: Ids = {}
        for row in rows:
            if not isinstance(row, dict):
                raise DocumentRefused(f"a {name} row is not an object ({row!r:.80})", field="content")
            values = self._values(model, row)
            found = None
            if all(values.get(k) for k in keys):
                # An email is matched by the one form emails are compared by (`email_key`).
                lookup = {k: values[k] for k in keys if k != "email"}
                if "email" in keys:
                    lookup["email_key"] = email_key(values["email"])
                candidates = model.objects.filter(**lookup)
                if name == "tournament.series":
                    candidates = self._series_to_join(candidates, values)
                found = candidates.order_by("pk").first()
            if found is None:
                values.pop(model._meta.pk.attname, None)
                if name == "tournament.series" and not self.own:
                    values["owner_id"] = getattr(self.by, "pk", None)
                found = model.objects.create(**values)
            ids[row.get(model._meta.pk.attname)] = found.pk
        self.maps[name] = ids

    def _series_to_join(self, candidates: Any, values: dict[str, Any]) -> Any:
        """An own file joins the series its owner owns; another file only one the importing
        account may manage (people.may_manage_series): never another organiser's series."""
        if self.own:
            return candidates.filter(owner_id=values.get("owner_id"))
        allowed = [s.pk for s in candidates if self.by is not None and people.may_manage_series(self.by, s)]
        if candidates.exists() and not allowed:
            self.not_trusted.append(
                f"the series {values.get('name')!r}: one of that name here belongs to another organiser, "
                "so the tournament is in a new series of its own"
            )
        return candidates.filter(pk__in=allowed)

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
        where = graph.label(model)
        for attname, raw in row.items():
            f = fields[attname]
            value = _checked(f, raw, where)
            if f.is_relation and value is not None:
                value = self._remap(f, value)
            values[attname] = value
        if where == graph.ROOT:
            _check_tournament(values)
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
        if not isinstance(rows, list) or not all(isinstance(r, dict) and r.get(pk) is not None for r in rows):
            raise DocumentRefused(f"{owned.label}: every row must be an object with its {pk}", field="content")
        if owned.label == graph.IDEMPOTENCY:
            rows = self._answered_records_only(rows)
        if owned.label == "tournament.privatelink":
            rows = self._links_not_here(model, rows)
        if owned.label == "tournament.registration":
            rows = self._confirmations_of_their_own(model, rows)
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

    def _links_not_here(self, model: type[models.Model], rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """A private link this installation already has (a copy imported beside its original)
        stays the original's: the copy's player gets a link of its own when one is asked for."""
        taken = _digests_here(model, rows)
        return [row for row in rows if row.get("digest") not in taken]

    def _confirmations_of_their_own(
        self, model: type[models.Model], rows: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """A registration whose confirmation link this installation already has (a copy imported
        beside its original) is kept with the digest of a new token nobody holds: the mailed link
        still confirms the original only."""
        taken = _digests_here(model, rows)
        return [
            row | {"digest": private_links.digest(secrets.token_urlsafe(private_links.TOKEN_BYTES))}
            if row.get("digest") in taken
            else row
            for row in rows
        ]

    def _answered_records_only(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The answers whose records the file holds: an answer naming a table's record number
        (`seq`, `event.seq`) beyond the records the file holds for that table's game is dropped,
        never served (the server would say "recorded" for a record it lacks)."""
        content_rows = self.content["rows"]
        game_of = {g.get("id"): g.get("table_id") for g in content_rows.get("gameplay.game", []) if isinstance(g, dict)}
        held: dict[Any, set[int]] = {}
        for event in content_rows.get("gameplay.gameevent", []):
            if isinstance(event, dict) and isinstance(event.get("seq"), int):
                held.setdefault(game_of.get(event.get("game_id")), set()).add(event["seq"])
        tables = self.maps.get("tournament.table", {})
        kept = []
        for row in rows:  # a scope naming another table is refused afterwards (`_json_rewrites`)
            parsed = graph.parse_scope(str(row.get("scope", "")))
            if parsed is not None and parsed[0] in tables and not _answer_held(row.get("response"), held.get(parsed[0], set())):
                self.dropped_answers += 1
                continue
            kept.append(row)
        return kept

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

    def importer_runs(self, tournament: Any) -> None:
        """The importing account becomes a head judge of what it imported."""
        if self.by is not None:
            tournament.head_judges.add(self.by)

    # --- ids inside stored JSON ------------------------------------------------------------

    def _json_rewrites_for(self, label: str) -> dict[str, Callable[[Any], Any]]:
        """How ids kept inside this model's JSON values change, before its rows are written
        (append-only tables are never updated afterwards). Players, tables and people are
        loaded before every model whose JSON names them (`graph` orders the models)."""
        players = self.maps.get("tournament.player", {})
        tables = self.maps.get("tournament.table", {})
        people = self.maps.get("tournament.person", {})
        return {
            name.rpartition(".")[2]: rewrite
            for name, rewrite in _json_rewrites(players, tables, people, self.maps.get(graph.ROOT, {})).items()
            if name.rpartition(".")[0] == label
        }

    def reset_sequences(self, models_: list[type[models.Model]]) -> None:
        statements = connection.ops.sequence_reset_sql(no_style(), models_)
        if statements:
            with connection.cursor() as cursor:
                for sql in statements:
                    cursor.execute(sql)


def _json_rewrites(players: Ids, tables: Ids, people: Ids, tournaments: Ids) -> dict[str, Callable[[Any], Any]]:
    """Rewrites of the ids inside stored JSON; each refuses an id that is not one of the file's
    own players or tables (a crafted file must not reach another tournament's).

    Long because each rewrite closes over the file's own id maps: one small closure per kind
    of stored JSON, kept together so the table at the end reads as the whole list."""

    def player(value: Any) -> Any:
        if value is None:
            return None
        if isinstance(value, bool) or value not in players:
            raise DocumentRefused(f"a stored record names player {value!r}, who is not one of the file's players",
                                  field="content")
        return players[value]

    def player_list(values: Any) -> Any:
        if values is None:
            return values
        if not isinstance(values, list):
            raise DocumentRefused(f"a stored list of players is not a list ({values!r:.60})", field="content")
        return [player(v) for v in values]

    def report(data: Any) -> Any:
        if data is None or data == {}:
            return data
        if not isinstance(data, dict):
            raise DocumentRefused("a game report's data is not an object", field="content")
        data = dict(data)
        results = data.get("results", [])
        if not isinstance(results, list) or not all(isinstance(r, dict) for r in results):
            raise DocumentRefused("a game report's results are not a list of rows", field="content")
        data["results"] = [{**r, "player": player(r.get("player"))} for r in results]
        if "alliances" in data:
            alliances = data["alliances"]
            if not isinstance(alliances, list):
                raise DocumentRefused("a game report's alliances are not a list", field="content")
            data["alliances"] = [player_list(a) for a in alliances]
        return data

    def scope(value: str) -> str:
        parsed = graph.parse_scope(value)
        if parsed is None or parsed[0] not in tables:
            raise DocumentRefused(
                f"an idempotency record's scope {value!r:.80} is not one of the file's own tables", field="content"
            )
        return f"table:{tables[parsed[0]]}:{parsed[1]}"

    def person(value: Any) -> Any:
        return people.get(value) if value is not None else None

    def tournament(value: Any) -> Any:
        if isinstance(value, bool) or value not in tournaments:
            raise DocumentRefused(f"a message names tournament {value!r:.40}, which is not the file's", field="content")
        return tournaments[value]

    return {
        "scoring.gamereport.data": report,
        "scoring.reportrevision.data": report,
        "tournament.round.waiting": player_list,
        "tournament.round.pick_order": player_list,
        "tournament.round.alternates_seated": player_list,
        f"{graph.IDEMPOTENCY}.scope": scope,
        "tournament.personlink.from_person": person,
        "tournament.personlink.to_person": person,
        f"{graph.OUTBOX}.tournament_id": tournament,
    }


def _digests_here(model: type[models.Model], rows: list[dict[str, Any]]) -> set[str]:
    """The rows' link digests this installation already has."""
    return set(model.objects.filter(digest__in=[r.get("digest") for r in rows]).values_list("digest", flat=True))


def _answer_held(response: Any, held: set[int]) -> bool:
    """Whether the record numbers a stored answer names are in `held` (the table's records in
    the file): the game's number after it (`seq`) and the record it made (`event.seq`)."""
    if not isinstance(response, dict):
        return True
    after = response.get("seq")
    if _number(after) and after > max(held, default=0):
        return False
    event = response.get("event")
    return not (isinstance(event, dict) and _number(event.get("seq")) and event["seq"] not in held)


def _number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _checked(f: Any, raw: Any, where: str) -> Any:
    """`raw` as the field stores it, checked as the API would check it: its type, length,
    choices and validators, and the one name rule for names. Raises DocumentRefused naming the
    record and field."""
    value = _value(f, raw)
    if value is None:
        if not f.null and not f.is_relation and not getattr(f, "has_default", lambda: False)():
            raise DocumentRefused(f"{where}.{f.name} is empty, and it may not be", field="content")
        return value
    if f.is_relation or isinstance(f, models.JSONField):
        return value
    try:
        f.run_validators(value)
        if f.choices and value not in {str(k) for k, _ in f.flatchoices} | {k for k, _ in f.flatchoices}:
            raise ValidationError(gettext("%(value)s is not one of the choices") % {"value": repr(value)})
    except ValidationError as exc:
        said = "; ".join(exc.messages)
        raise DocumentRefused(f"{where}.{f.name}: {str(value)[:60]!r} is refused ({said})", field="content") from None
    if f"{where}.{f.name}" in NAME_FIELDS and isinstance(value, str):
        problem = name_problem(value) or (None if value.strip() else "is empty")
        if problem:
            raise DocumentRefused(f"{where}.{f.name} {value[:60]!r} {problem}", field="content")
    return value


def _check_tournament(values: dict[str, Any]) -> None:
    if values.get("format") not in FORMATS:
        raise DocumentRefused(f"tournament.format {values.get('format')!r} is not a known format", field="content")
    if not values.get("format_document"):
        # A file written before formats were documents: the tournament played its preset's.
        values["format_document"] = preset_document(values["format"])
        values["format_version"] = values["format_document"]["version"]
    try:
        fmt = format_from_document(values["format_document"])
    except FormatDocumentError as exc:
        raise DocumentRefused(f"tournament.format_document is refused: {exc.message}", field="content") from None
    if fmt.key != values["format"]:
        raise DocumentRefused(
            f"tournament.format_document is of the preset {fmt.key!r}, the tournament of {values['format']!r}",
            field="content",
        )
    if "time_zone" in values and zone_name(values["time_zone"]) is None:
        raise DocumentRefused(f"tournament.time_zone {values['time_zone']!r} is not a time zone", field="content")


def _is_hash(value: str) -> bool:
    try:
        identify_hasher(value)
    except ValueError:
        return False
    return True


def free_username(model: Any, username: str) -> str:
    """`username` with the first free suffix (`alia-2`), within the field's length."""
    limit = model._meta.get_field("username").max_length or 150
    for n in range(2, 10_000):
        candidate = f"{username[: limit - len(str(n)) - 1]}-{n}"
        if not model.objects.filter(username=candidate).exists():
            return candidate
    raise DocumentRefused(f"no free account name like {username!r}", field="content")


def venue_command(command: str) -> str:
    """`command` as the organiser runs it on this installation (`bin/venue …` in venue mode)."""
    if getattr(settings, "VENUE_URL", ""):
        return f"bin/venue {command}"
    return f"manage.py {command}"


def passwords_line(imported: Imported) -> str:
    """One line telling the head judge how the judges without a password here sign in."""
    return ngettext(
        "%(count)d judge has no password here (%(names)s): `%(codes)s` gives a one-time sign-in code to hand "
        "out. To keep passwords next time, pair this laptop with the serving one before the event "
        "(`%(pair)s`, the code its bin/venue prints).",
        "%(count)d judges have no password here (%(names)s): `%(codes)s` gives each a one-time sign-in code to "
        "hand out. To keep passwords next time, pair this laptop with the serving one before the event "
        "(`%(pair)s`, the code its bin/venue prints).",
        len(imported.new_accounts),
    ) % {"count": len(imported.new_accounts), "names": ", ".join(imported.new_accounts),
         "codes": venue_command(f"sign_in_codes {imported.tournament.pk}"), "pair": venue_command("pair CODE")}


def import_text(text: str | bytes, *, by: Any = None) -> Imported:
    """Import the document in `text`; `by` is the account importing it (it becomes a head judge
    of the tournament). Raises DocumentRefused (nothing written)."""
    sealed = document.parse(text)
    content = document.open_sealed(sealed)
    trust = installation.seal_trust(sealed)
    own = trust in (installation.OWN, installation.PAIRED)
    imported = import_content(content, own=own, by=by, checksum=str(sealed.get("checksum", "")))
    imported.trust = trust
    if trust == installation.PUBLIC:
        imported.not_trusted.insert(0, _(
            "the seal: it was made with the public development key (or this installation runs with it, "
            "as `make run` does), which anyone can use, so it proves nothing. Give the installation a "
            "secret key of its own (SECRET_KEY; `bin/venue` makes one) to restore its own backups"))
    return imported


def _origin(content: dict[str, Any]) -> tuple[str, int] | None:
    origin = content.get("origin")
    if origin is None:
        return None
    if (
        not isinstance(origin, dict)
        or not isinstance(origin.get("installation"), str)
        or isinstance(origin.get("tournament"), bool)
        or not isinstance(origin.get("tournament"), int)
    ):
        raise DocumentRefused("origin is not an installation and a tournament id", field="origin")
    return origin["installation"][:64], origin["tournament"]


def already_here(origin: tuple[str, int] | None) -> Any:
    """The tournament of this installation with the same origin, if any."""
    if origin is None:
        return None
    imported = ImportedTournament.objects.filter(
        origin_installation=origin[0], origin_tournament=origin[1]
    ).select_related("tournament").first()
    if imported is not None:
        return imported.tournament
    if origin[0] == installation.identity():
        return apps.get_model(graph.ROOT).objects.filter(pk=origin[1], origin__isnull=True).first()
    return None


def import_content(content: dict[str, Any], *, own: bool = False, by: Any = None, checksum: str = "") -> Imported:
    owned = graph.owned_models()
    rows = content.get("rows")
    shared = content.get("shared")
    if not isinstance(rows, dict) or not isinstance(shared, dict):
        raise DocumentRefused("the content has no rows or no shared rows", field="content")
    # A document written before a model moved names it by its old label.
    rows = {graph.RENAMED.get(name, name): value for name, value in rows.items()}
    known = {o.label for o in owned}
    unknown = sorted(set(rows) - known)
    if unknown:
        raise DocumentRefused(f"the file carries records this installation does not know ({', '.join(unknown)}); "
                              "update the platform to import it", field="content")
    root_rows = rows.get(graph.ROOT, [])
    if not isinstance(root_rows, list) or len(root_rows) != 1:
        raise DocumentRefused("the file does not hold exactly one tournament", field="content")
    origin = _origin(content)
    present = already_here(origin)
    if present is not None:
        raise DocumentRefused(
            f"this tournament is already here as {present.name} (tournament {present.pk}): the file comes "
            "from the same origin, so importing it again would count every rated game twice. Nothing was "
            "written", field="origin",
        )
    try:
        if not own:
            _check_games(rows)
        return _load(content, owned, own=own, by=by, origin=origin, checksum=checksum)
    except DocumentRefused:
        raise
    except (IntegrityError, DatabaseError, ValidationError, ValueError, TypeError, KeyError, AttributeError) as exc:
        raise DocumentRefused(f"the file does not fit this installation's records ({exc})"[:500],
                              field="content") from exc


def _check_games(rows: dict[str, Any]) -> None:
    """An untrusted file's game logs must be games: each one's events, replayed through the
    rules engine in order, fold to the position the file stores for it (as every recorded
    event went through the engine when it was recorded). Raises DocumentRefused naming the game."""
    events: dict[Any, list[dict[str, Any]]] = {}
    for event in rows.get("gameplay.gameevent", []):
        events.setdefault(event.get("game_id"), []).append(event)
    for game in rows.get("gameplay.game", []):
        log = sorted(events.get(game.get("id"), []), key=lambda e: (e.get("seq") or 0))
        if not log:
            continue
        try:
            folded = rules.dump(rules.replay_bodies(e.get("body") for e in log))
        except Exception as exc:  # any refusal or crash of the engine on the file's events
            raise DocumentRefused(
                f"the game log of game {game.get('id')!r} is not one the rules engine accepts "
                f"({type(exc).__name__}: {str(exc)[:200]})", field="content",
            ) from None
        if folded != game.get("position"):
            raise DocumentRefused(
                f"the game log of game {game.get('id')!r} does not fold to the position the file stores for it",
                field="content",
            )


def _load(content: dict[str, Any], owned: list[graph.Owned], *, own: bool, by: Any,
          origin: tuple[str, int] | None, checksum: str) -> Imported:
    rows, shared = content["rows"], content["shared"]
    loader = _Loader(content, own=own, by=by)
    with transaction.atomic(), graph.timestamps_as_given([o.model for o in owned] + _shared_models()):
        loader.accounts(shared.get(graph.label(graph.user_model()), []))
        for name in graph.SHARED_MATCH:
            loader.shared(name, shared.get(name, []))
        for o in owned:
            loader.owned(o, rows.get(o.label, []))
        for o in owned:
            loader.many_to_many(o, content.get("many_to_many", {}))
        loader.reset_sequences([o.model for o in owned] + _shared_models())
        tournament = apps.get_model(graph.ROOT).objects.get(pk=next(iter(loader.maps[graph.ROOT].values())))
        loader.importer_runs(tournament)
        if origin is not None:
            ImportedTournament.objects.create(
                tournament=tournament, origin_installation=origin[0], origin_tournament=origin[1],
                checksum=checksum[:80], imported_by=getattr(by, "username", "") or "",
            )
        # Cached answers are keyed by the installation and its imports: none written before
        # this import is read again. Ratings are derived, never carried: recompute them with
        # the imported games.
        installation.forget_cached_answers()
        ratings_effects.schedule()
    return Imported(
        tournament, loader.counts, loader.new_accounts, loader.same_ids, own=own,
        signed_in_as_before=loader.signed_in_as_before, renamed_accounts=loader.renamed,
        not_trusted=loader.not_trusted, dropped_answers=loader.dropped_answers, privileged=loader.privileged,
    )


def _shared_models() -> list[type[models.Model]]:
    return [apps.get_model(name) for name in graph.SHARED_MATCH]


__all__ = ["Imported", "import_text", "import_content", "DocumentRefused"]
