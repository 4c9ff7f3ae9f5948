"""A tournament's commands, one per head judge's action, whichever door they come through.

The pages (`web/tournament/views.py`, `desk_views.py`, `seat_views.py`: forms) and the API
(`web/tournament/api.py`: JSON) call the same function for each write: create a tournament;
at the registration desk add a player, check in, check out, check in all, withdraw, drop,
reinstate, open or close self check-in, import a CSV, link a player to a person; add a round,
appoint a table judge, keep clubs apart, close a round; seat a round (a heat or the final),
publish it, swap two players, seat a latecomer, put a judge at a table, trade factions, take
the undrawn faction, keep a dealt card, pick a final faction.

Each takes its target, the request's fields `data` as the door received them (a form's
`POST`, the API's JSON object, or the few fields a page builds from its own controls), the
actor and an idempotency key. It asks `tournament.permissions` who may, parses `data` once
into its frozen dataclass (a form's "on" and JSON's true read the same, a form's "7" and
JSON's 7 too), calls `tournament.services` inside the transaction `foundation.commands.run`
opens and stores its answer (the API's JSON body) with the key, so a retried "add player"
registers one player and a retried "check in all" answers the first answer. Refusals:
`Refused` (403 who may, 400 a malformed field, 400/422 the key) and the services' `Refused`
naming the field or the rule. Each answer carries the words a page shows (`Done.message`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from dataclasses import fields as dataclass_fields
from datetime import datetime
from typing import Any, ClassVar

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from dune.formats import FORMATS
from dune.text_rules import TITLE_LIMIT, whole_number
from foundation import idempotency
from foundation.commands import (
    Field,
    Refused,
    declared,
    number_field,
    read_fields,
    run,
    text_field,
    text_list,
    yes,
)
from tournament import desk, people, permissions, private_links, registration, services
from tournament.models import MAX_SEED, Player, Round, Table, Tournament
from tournament.presenters import (
    person_link_json,
    player_detail_json,
    player_json,
    round_json,
    seating_json,
    tournament_json,
)

__all__ = [
    "Done", "PLAYER_FIELDS", "CHECK_IN_FIELDS", "DESK_ACTIONS", "FACTION_ACTIONS", "FACTION_ACTION_FIELDS", "PICK_FIELDS",
    "create_tournament", "create_series", "add_player", "check_in", "check_out", "check_in_all", "withdraw", "drop", "reinstate",
    "open_self_check_in", "close_self_check_in", "import_players", "link_person",
    "create_round", "invite_table_judge", "make_table_judge_account", "withdraw_invitation", "accept_invitation", "decline_invitation",
    "invitation_json", "keep_clubs_apart", "finish_round",
    "seat_round", "publish_round", "swap", "seat_latecomer", "assign_table_judge", "mark_no_show", "clear_no_show",
    "trade", "take_undrawn", "keep_card", "pick_final_faction",
    "edit_tournament", "edit_round", "delete_round", "round_deleted", "remove_table_judge",
    "change_format", "replace_format", "reset_format",
    "edit_player", "self_check_in", "list_by_initials", "rename_series",
    "renew_private_link", "revoke_private_link", "withdraw_self", "register_online", "confirm_registration",
    "set_faction_preferences",
]


@dataclass(frozen=True)
class Done(idempotency.Answer):
    """A command's answer (the API's status and JSON body, stored with the key) and the words
    a page shows for it."""

    message: str = ""


# --- the frame each command shares ------------------------------------------------------------


def _allow(allowed: bool, text: str = permissions.HEAD_JUDGE_ONLY) -> None:
    if not allowed:
        raise Refused(text, status=403)


def _parse(parse: Callable[[Mapping[str, Any]], Any], data: Any) -> Any:
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise Refused(_("expected a JSON object, not %(name)s") % {"name": type(data).__name__}, offending=data)
    return parse(data)


def _done(
    name: str, given: Any, perform: Callable[[], tuple[int, dict[str, Any]]], *, actor: Any, key: str | None,
    scope: str, said: Callable[[dict[str, Any]], str], door_only: tuple[str, ...] = (), **more: Any,
) -> Done:
    """`perform` once per (actor, scope, key), its answer and the words for it. `door_only`
    names the fields one door sends and the other cannot (the desk's check-in box): they are
    left out of what the key is checked against, so one key through either door answers the same."""
    # Shallow: a moment keeps its zone.
    fields = {f.name: getattr(given, f.name) for f in dataclass_fields(given) if f.name not in door_only}
    answer = run(actor=actor, scope=scope, key=key, body={"command": name, **fields, **more}, perform=perform)
    return Done(**asdict(answer), message=said(answer.body))


def _desk(tournament: Tournament) -> str:
    """One scope for the tournament's registration and dashboard writes: a key names one action."""
    return idempotency.scope_for(tournament.pk, "desk", kind="tournament")


def _seating(round_: Round) -> str:
    return idempotency.scope_for(round_.pk, "seating", kind="round")


def _player(tournament_id: int, pk: int) -> Player:
    player = Player.objects.filter(pk=pk, tournament_id=tournament_id).first()
    if player is None:
        raise Refused(_("no player %(pk)s in this tournament") % {"pk": pk}, field="player", offending=pk)
    return player


def _seating_answer(round_: Round) -> tuple[int, dict[str, Any]]:
    round_.refresh_from_db()
    return 200, seating_json(round_, judge=True)


def _moment(data: Mapping[str, Any], name: str) -> datetime | None:
    """A moment given as ISO 8601 (the API) or a form's local date and time; a moment without
    an offset is in the time zone of the request (the tournament's). None when empty."""
    value = data.get(name)
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if not isinstance(value, str):
        raise Refused(_("expected a date and time, not %(value)s") % {"value": repr(value)}, field=name, offending=value)
    try:
        parsed = parse_datetime(value.strip())
    except ValueError:  # well formed but impossible, like 30 February
        parsed = None
    if parsed is None:
        raise Refused(_("cannot read the start time %(strip)s; type a day and a time") % {"strip": repr(value.strip())}, field=name, offending=value)
    if timezone.is_naive(parsed):
        parsed = timezone.make_aware(parsed)
    return parsed


# --- tournaments ------------------------------------------------------------------------------


@dataclass(frozen=True)
class NewTournament:
    name: str
    format: str
    series: int | str | None
    time_zone: str
    format_changes: Any = None

    #: The one declaration of the input: the command reads it, the API's schema shows it.
    FIELDS: ClassVar[dict[str, Field]] = declared(
        Field("name", required=True, max_length=TITLE_LIMIT, why=gettext_lazy("a tournament needs a name")),
        Field("format", required=True, max_length=200, choices=tuple(FORMATS)),
        Field("format_changes", kind="value", nullable=True,
              help=gettext_lazy('fields of the preset\'s document the event changes, e.g. {"rounds.heat.hours": 4}')),
        Field("series", kind="value", nullable=True, help=gettext_lazy("the series this tournament is an edition of")),
        Field("time_zone", max_length=64, help=gettext_lazy(
            "where it is played: an IANA name such as America/Los_Angeles (default: the platform's zone)")),
    )

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> NewTournament:
        read = read_fields(cls.FIELDS, data)
        return cls(**{**read, "series": _series(read["series"])})


def _series(series: Any) -> Any:
    """A series named by its id (JSON's 7, a form's "7") or by its name (the services look it up)."""
    if isinstance(series, str):
        series = series.strip() or None
        number = whole_number(series) if series else None
        series = number if number is not None else series
    return series


def create_tournament(data: Any, *, actor: Any, key: str | None) -> Done:
    """Create a tournament (a staff account's); its creator becomes its head judge. 201."""
    _allow(permissions.may_create_tournament(actor), permissions.STAFF_ONLY)
    given = _parse(NewTournament.parse, data)

    def perform() -> tuple[int, dict[str, Any]]:
        tournament = services.create_tournament(
            name=given.name, format=given.format, user=actor, series=given.series, time_zone=given.time_zone,
            format_changes=given.format_changes,
        )
        return 201, tournament_json(tournament)

    return _done("create_tournament", given, perform, actor=actor, key=key, scope="tournaments:new",
                 said=lambda body: f"Created {body['name']}.")


@dataclass(frozen=True)
class NewSeries:
    name: str
    format: str

    FIELDS: ClassVar[dict[str, Field]] = declared(
        Field("name", required=True, max_length=TITLE_LIMIT, why=gettext_lazy("a series needs a name")),
        Field("format", required=True, max_length=200, choices=tuple(FORMATS)),
    )

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> NewSeries:
        return cls(**read_fields(cls.FIELDS, data))


def create_series(
    data: Any, *, actor: Any, key: str | None, present: Callable[[Any], dict[str, Any]] | None = None
) -> Done:
    """Create a series of tournaments of one format, owned by the actor (a staff account).
    201, `present(series)` (the web layer hands in the series' page JSON) or its id, name and format."""
    _allow(permissions.may_create_tournament(actor), permissions.SERIES_STAFF_ONLY)
    given = _parse(NewSeries.parse, data)

    def perform() -> tuple[int, dict[str, Any]]:
        try:
            series = people.create_series(name=given.name, format=given.format, owner=actor)
        except people.PeopleRefused as error:
            raise Refused(error.message, field=error.field, status=error.status) from error
        body = present(series) if present is not None else {"id": series.pk, "name": series.name, "format": series.format}
        return 201, {"id": series.pk, **body}

    return _done("create_series", given, perform, actor=actor, key=key, scope="series:new",
                 said=lambda body: f"Created the series {body['name']}.")


# --- the registration desk --------------------------------------------------------------------


#: Who registers, at the desk or online, declared once: the forms, the API's bodies, their schema.
REGISTRANT_FIELDS = declared(
    Field("name", max_length=120, help=gettext_lazy("the player's name, as the pages show it")),
    Field("email", max_length=254, help=gettext_lazy("links the player to the person of that email")),
    Field("club", max_length=registration.MAX_CLUB),
)
#: A player registered at the desk (or by the API): a registrant and their household.
PLAYER_FIELDS = declared(
    *REGISTRANT_FIELDS.values(),
    Field("household", max_length=120, help=gettext_lazy("players of one household are seated apart")),
)


@dataclass(frozen=True)
class _Registrant:
    """Who registers, at the desk or online: a name, an email and a club, read the same way."""

    name: str
    email: str
    club: str

    @staticmethod
    def read(data: Mapping[str, Any]) -> dict[str, str]:
        return read_fields(REGISTRANT_FIELDS, data)


@dataclass(frozen=True)
class NewPlayer(_Registrant):
    household: str
    #: The desk's "check in now" box: checked in for the desk's round as well.
    check_in: bool

    FIELDS: ClassVar[dict[str, Field]] = PLAYER_FIELDS
    #: The desk's form: the same fields and its check-in box (the API checks in by its own call).
    FORM_FIELDS: ClassVar[dict[str, Field]] = declared(*PLAYER_FIELDS.values(), Field("check_in", kind="flag"))

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> NewPlayer:
        return cls(**read_fields(cls.FORM_FIELDS, data))


def add_player(tournament: Tournament, data: Any, *, actor: Any, key: str | None, round_: Round | None = None) -> Done:
    """Register one player (linked to a person by their email); with `check_in` and a round,
    check them in for it too. 201, the player."""
    _allow(permissions.may_run(actor, tournament))
    given = _parse(NewPlayer.parse, data)

    def perform() -> tuple[int, dict[str, Any]]:
        player = services.add_player(
            tournament, name=given.name, email=given.email, club=given.club, household=given.household
        )
        if round_ is not None and given.check_in:
            services.check_in(round_, player)
        return 201, player_json(player, private=True)

    return _done("add_player", given, perform, actor=actor, key=key, scope=_desk(tournament),
                 said=lambda body: _("Registered %(name)s.") % {"name": body["name"]}, door_only=("check_in",))


#: The player an action is about, by their id: declared once for every such action.
PLAYER_ID = Field("player", kind="number", required=True, help=gettext_lazy("a player's id"))


@dataclass(frozen=True)
class PlayerChoice:
    """The player a desk action is about (their id)."""

    player: int

    FIELDS: ClassVar[dict[str, Field]] = declared(PLAYER_ID)

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> PlayerChoice:
        return cls(**read_fields(cls.FIELDS, data))


#: The API's check-in body: the player, and whether they are checked in (true, the default) or out.
CHECK_IN_FIELDS = declared(
    PLAYER_ID,
    Field("checked_in", kind="flag", reader=lambda data, field: yes(data.get(field.name, True))),
)


def _checked_in(round_: Round) -> dict[str, Any]:
    return {"round": round_.pk, "checked_in": services.checked_in_ids(round_)}


def check_in(round_: Round, data: Any, *, actor: Any, key: str | None) -> Done:
    """Check a player in for the round (linked to a person too). 200, the round's check-ins."""
    return _check(round_, data, actor=actor, key=key, checking_in=True)


def check_out(round_: Round, data: Any, *, actor: Any, key: str | None) -> Done:
    """Take a player's check-in for the round back. 200, the round's check-ins."""
    return _check(round_, data, actor=actor, key=key, checking_in=False)


def _check(round_: Round, data: Any, *, actor: Any, key: str | None, checking_in: bool) -> Done:
    tournament = round_.tournament
    _allow(permissions.may_run(actor, tournament))
    given = _parse(PlayerChoice.parse, data)
    player = _player(tournament.pk, given.player)

    def perform() -> tuple[int, dict[str, Any]]:
        if checking_in:
            services.check_in(round_, player)
        else:
            services.undo_check_in(round_, player)
        return 200, _checked_in(round_)

    label = round_.label
    said = (
        f"{player.name} is checked in for {label}." if checking_in
        else f"{player.name} is no longer checked in for {label}."
    )
    return _done("check_in" if checking_in else "check_out", given, perform, actor=actor, key=key,
                 scope=_desk(tournament), said=lambda body: said, round=round_.pk)


@dataclass(frozen=True)
class Nothing:
    """An action with no fields of its own (publishing a seating, checking in all, closing a
    round): its declaration is empty, so any field sent is one it does not read."""

    FIELDS: ClassVar[dict[str, Field]] = declared()

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> Nothing:
        return cls(**read_fields(cls.FIELDS, data))


def check_in_all(round_: Round, data: Any = None, *, actor: Any, key: str | None) -> Done:
    """Check every active player in for the round, each linked to a person as one check-in
    links them (`services.check_in_all`). 200, the round's check-ins and `count`."""
    tournament = round_.tournament
    _allow(permissions.may_run(actor, tournament))
    given = _parse(Nothing.parse, data)

    def perform() -> tuple[int, dict[str, Any]]:
        count = services.check_in_all(round_)
        return 200, {**_checked_in(round_), "count": count}

    return _done("check_in_all", given, perform, actor=actor, key=key, scope=_desk(tournament),
                 said=lambda body: f"Checked in {body['count']} active players for {round_.label}.", round=round_.pk)


def _status(status: str) -> Callable[..., Done]:
    def change(tournament: Tournament, data: Any, *, actor: Any, key: str | None) -> Done:
        _allow(permissions.may_run(actor, tournament))
        given = _parse(PlayerChoice.parse, data)
        player = _player(tournament.pk, given.player)

        def perform() -> tuple[int, dict[str, Any]]:
            return 200, player_json(services.set_status(player, status), private=True)

        return _done(status, given, perform, actor=actor, key=key, scope=_desk(tournament),
                     said=lambda body: f"{body['name']}: {Player.Status(body['status']).label.lower()}.")

    return change


withdraw = _status(Player.Status.WITHDRAWN)
withdraw.__name__ = withdraw.__qualname__ = "withdraw"
withdraw.__doc__ = """Withdraw a player (registration cancelled; checked out of rounds not published). 200."""
drop = _status(Player.Status.DROPPED)
drop.__name__ = drop.__qualname__ = "drop"
drop.__doc__ = """Drop a player (leaves after playing; checked out of rounds not published). 200."""
reinstate = _status(Player.Status.ACTIVE)
reinstate.__name__ = reinstate.__qualname__ = "reinstate"
reinstate.__doc__ = """Make a withdrawn or dropped player active again. 200."""


def _self_check_in(opened: bool) -> Callable[..., Done]:
    def change(round_: Round, data: Any = None, *, actor: Any, key: str | None) -> Done:
        tournament = round_.tournament
        _allow(permissions.may_run(actor, tournament))
        given = _parse(Nothing.parse, data)

        def perform() -> tuple[int, dict[str, Any]]:
            desk.set_self_check_in(round_, open=opened)
            return 200, {"round": round_.pk, "self_check_in": opened}

        state = "open" if opened else "closed"
        return _done("self_check_in", given, perform, actor=actor, key=key, scope=_desk(tournament),
                     said=lambda body: f"Self check-in for {round_.label} is {state}.", round=round_.pk, open=opened)

    return change


open_self_check_in = _self_check_in(True)
open_self_check_in.__name__ = open_self_check_in.__qualname__ = "open_self_check_in"
open_self_check_in.__doc__ = """Players may check themselves in for the round (only one round at a time). 200."""
close_self_check_in = _self_check_in(False)
close_self_check_in.__name__ = close_self_check_in.__qualname__ = "close_self_check_in"
close_self_check_in.__doc__ = """Players check in at the desk again. 200."""

def _latecomer(data: Mapping[str, Any], field: Field) -> int | None:
    """The latecomer to seat (a player's id), asked for by name when none is chosen."""
    player = data.get(field.name)
    if player is None or (isinstance(player, str) and not player.strip()):
        raise Refused(_("choose the latecomer to seat"), field=field.name)
    return number_field(data, field.name, what=str(field.help))


#: A seating change's player (an id) and reason (it goes in the seating's history), declared once.
SEATING_PLAYER = PLAYER_ID
SEATING_REASON = Field("reason", max_length=2000, help=gettext_lazy("why: it goes in the seating's history"))


@dataclass(frozen=True)
class NoShowGiven:
    """The player who did not come, and why (the reason goes in the seating's history)."""

    player: int
    reason: str

    FIELDS: ClassVar[dict[str, Field]] = declared(SEATING_PLAYER, SEATING_REASON)

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> NoShowGiven:
        return cls(**read_fields(cls.FIELDS, data))


def _no_shows(round_: Round) -> dict[str, Any]:
    return {"round": round_.pk, "no_shows": services.no_show_ids(round_)}


def mark_no_show(round_: Round, data: Any, *, actor: Any, key: str | None) -> Done:
    """Mark a player a no-show for the round and take them off their table (not a dropout).
    200: the player, the table they were taken off, the warning about that table in words and
    the round's no-shows."""
    _allow(permissions.may_run(actor, round_.tournament))
    given = _parse(NoShowGiven.parse, data)
    player = _player(round_.tournament_id, given.player)

    def perform() -> tuple[int, dict[str, Any]]:
        marked = services.mark_no_show(round_, player, reason=given.reason, user=actor)
        return 200, {
            **_no_shows(round_),
            "player": player.pk,
            "name": player.name,
            "reason": marked.no_show.reason,
            "table_number": marked.table_number,
            "warning": marked.warning,
        }

    def said(body: dict[str, Any]) -> str:
        text = (
            _("%(name)s is a no-show for %(round)s and was taken off table %(table)s.")
            if body["table_number"] is not None
            else _("%(name)s is a no-show for %(round)s.")
        ) % {"name": player.name, "round": round_.label, "table": body["table_number"]}
        return f"{text} {body['warning']}".strip()

    return _done("mark_no_show", given, perform, actor=actor, key=key, scope=_seating(round_), said=said)


def clear_no_show(round_: Round, data: Any, *, actor: Any, key: str | None) -> Done:
    """Take a no-show back (the player came: seat them as a latecomer). 200, the round's no-shows."""
    _allow(permissions.may_run(actor, round_.tournament))
    given = _parse(PlayerChoice.parse, data)
    player = _player(round_.tournament_id, given.player)

    def perform() -> tuple[int, dict[str, Any]]:
        services.clear_no_show(round_, player, user=actor)
        return 200, {**_no_shows(round_), "player": player.pk}

    return _done("clear_no_show", given, perform, actor=actor, key=key, scope=_seating(round_),
                 said=lambda body: _("%(name)s is no longer a no-show for %(round)s.") % {"name": player.name, "round": round_.label})


#: The desk's row actions, by the name its forms post (`action`): one map for the page.
DESK_ACTIONS: dict[str, Callable[..., Done]] = {
    "check_in": check_in,
    "check_out": check_out,
    "withdrawn": withdraw,
    "dropped": drop,
    "active": reinstate,
    "no_show": mark_no_show,
    "clear_no_show": clear_no_show,
}


def _read_csv(data: Mapping[str, Any], field: Field) -> str:
    """The CSV's text as sent (not stripped: its lines are the rows)."""
    csv = data.get(field.name) or ""
    if not isinstance(csv, str):
        raise Refused(_("the CSV is text, not %(name)s") % {"name": type(csv).__name__}, field=field.name)
    if len(csv) > field.max_length:
        raise Refused(_("at most %(max_length)s characters") % {"max_length": field.max_length}, field=field.name)
    return csv


def _read_file(data: Mapping[str, Any], field: Field) -> Any:
    """The uploaded CSV file (None when none is sent)."""
    upload = data.get(field.name)
    if upload is not None and not hasattr(upload, "read"):
        raise Refused(_("send a CSV file (field 'file') or its text (field 'csv')"), field=field.name)
    return upload


@dataclass(frozen=True)
class Import:
    csv: str
    skip_refused: bool
    separate: tuple[int, ...]

    #: The one declaration of an import: the file (or its text), whether it is only previewed
    #: (the door answers a preview itself), whether refused rows are skipped, the rows not linked.
    FIELDS: ClassVar[dict[str, Field]] = declared(
        Field("file", kind="file", reader=_read_file, help=gettext_lazy("CSV with columns name, email, club")),
        Field("csv", max_length=2_000_000, reader=_read_csv, help=gettext_lazy("the CSV as text instead of a file")),
        Field("preview", kind="flag"),
        Field("skip_refused", kind="flag"),
        Field("separate", kind="ids", help=gettext_lazy(
            "CSV lines not to link to the person their email names (a different person)")),
    )
    #: What the command itself reads: the door turns a file into its text and answers a preview.
    READS: ClassVar[tuple[str, ...]] = ("csv", "skip_refused", "separate")

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> Import:
        read = read_fields({name: cls.FIELDS[name] for name in cls.READS}, data)
        if not read["csv"].strip():
            raise Refused(_("send a CSV file (field 'file') or its text (field 'csv')"), field="file")
        return cls(**{**read, "separate": tuple(read["separate"] or ())})


def import_players(tournament: Tournament, data: Any, *, actor: Any, key: str | None) -> Done:
    """Register a CSV's players (refused as a whole unless `skip_refused`). 201."""
    _allow(permissions.may_run(actor, tournament))
    given = _parse(Import.parse, data)

    def perform() -> tuple[int, dict[str, Any]]:
        created, rows = services.import_players(
            tournament, given.csv, skip_refused=given.skip_refused, separate=set(given.separate), user=actor
        )
        return 201, {
            "created": [player_json(p, private=True) for p in created],
            "rows": [r.to_dict() for r in rows],
            "refused": sum(not r.ok for r in rows),
        }

    return _done("import_players", given, perform, actor=actor, key=key, scope=_desk(tournament),
                 said=lambda body: f"Registered {len(body['created'])} players.")


def _read_person(data: Mapping[str, Any], field: Field) -> int | str | None:
    """The person's id (None: a person of their own); text that is not an id goes to
    `people.link_player` as typed, which names it in its refusal."""
    if field.name not in data:
        raise Refused(_("this field is required: the person's id, or null"), field=field.name)
    person = data.get(field.name)
    if isinstance(person, str):
        person = person.strip()
        number = whole_number(person)
        return number if number is not None else person
    if person is not None and (isinstance(person, bool) or not isinstance(person, int)):
        raise Refused(_("expected a person's id, or null, not %(person)s") % {"person": repr(person)},
                      field=field.name, offending=person)
    return person


@dataclass(frozen=True)
class PersonLink:
    """The person to link to (an id; None: a person of their own) and why."""

    person: int | str | None
    reason: str

    FIELDS: ClassVar[dict[str, Field]] = declared(
        Field("person", kind="number", required=True, nullable=True, reader=_read_person,
              help=gettext_lazy("the person to link the player to; null makes them a person of their own")),
        Field("reason", max_length=2000),
    )

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> PersonLink:
        return cls(**read_fields(cls.FIELDS, data))


def link_person(player: Player, data: Any, *, actor: Any, key: str | None) -> Done:
    """Link a player to an existing person, or (person null) make them a person of their own,
    with a reason. 200, the player and the recorded changes."""
    tournament = player.tournament
    _allow(permissions.may_run(actor, tournament))
    given = _parse(PersonLink.parse, data)

    def perform() -> tuple[int, dict[str, Any]]:
        if given.person is None:
            linked = people.unlink_player(player, user=actor, reason=given.reason)
        else:
            linked = people.link_player(player, given.person, user=actor, reason=given.reason)
        return 200, {**player_detail_json(linked), "changes": [person_link_json(c) for c in people.links_of(linked)]}

    return _done("link_person", given, perform, actor=actor, key=key, scope=_desk(tournament),
                 said=lambda body: f"{body['name']}: person changed.", player=player.pk)


# --- the dashboard: rounds, judges, settings --------------------------------------------------


def _read_moment(data: Mapping[str, Any], field: Field) -> datetime | None:
    return _moment(data, field.name)


#: A round's kind and scheduled start, declared once: the pages' forms, the API's bodies.
ROUND_KIND = Field("kind", max_length=20, choices=tuple(Round.Kind.values),
                   help=gettext_lazy("a heat or the final"), why=gettext_lazy("a round is a heat or the final"))
ROUND_START = Field("starts_at", kind="moment", nullable=True, reader=_read_moment,
                    help=gettext_lazy("when it is scheduled to start (ISO 8601; null: no scheduled start)"))


@dataclass(frozen=True)
class NewRound:
    kind: str
    starts_at: datetime | None

    FIELDS: ClassVar[dict[str, Field]] = declared(dataclasses.replace(ROUND_KIND, required=True), ROUND_START)

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> NewRound:
        return cls(**read_fields(cls.FIELDS, data))


def create_round(tournament: Tournament, data: Any, *, actor: Any, key: str | None) -> Done:
    """Add the next heat or the final. 201, the round."""
    _allow(permissions.may_run(actor, tournament))
    given = _parse(NewRound.parse, data)

    def perform() -> tuple[int, dict[str, Any]]:
        return 201, round_json(services.create_round(tournament, kind=given.kind, starts_at=given.starts_at))

    return _done("create_round", given, perform, actor=actor, key=key, scope=_desk(tournament),
                 said=lambda body: f"Added {body['name']}.")


@dataclass(frozen=True)
class Username:
    username: str

    FIELDS: ClassVar[dict[str, Field]] = declared(
        Field("username", max_length=150, help=gettext_lazy("an existing account; it judges once it accepts")),
    )

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> Username:
        return cls(**read_fields(cls.FIELDS, data))


def invite_table_judge(tournament: Tournament, data: Any, *, actor: Any, key: str | None) -> Done:
    """Invite an existing account to judge the tournament's tables: it judges once it accepts
    on its account page. 202, the invitation."""
    _allow(permissions.may_run(actor, tournament))
    given = _parse(Username.parse, data)

    def perform() -> tuple[int, dict[str, Any]]:
        invitation = services.invite_table_judge(tournament, given.username, by=actor)
        return 202, invitation_json(invitation)

    return _done("invite_table_judge", given, perform, actor=actor, key=key, scope=_desk(tournament),
                 said=lambda body: _("%(name)s is invited to judge the tables of %(tournament)s: they judge once they"
                                     " accept on their account page.")
                 % {"name": body["username"], "tournament": tournament.name})


def make_table_judge_account(tournament: Tournament, data: Any, *, actor: Any, key: str | None) -> Done:
    """Make a new account for the tournament's tables (no password: the door that called gives
    it a one-time sign-in code). 201, the account's name."""
    _allow(permissions.may_run(actor, tournament))
    given = _parse(Username.parse, data)

    def perform() -> tuple[int, dict[str, Any]]:
        user = services.make_table_judge_account(tournament, given.username, by=actor)
        return 201, {"tournament": tournament.pk, "username": user.get_username(), "table_judge": True}

    return _done("make_table_judge_account", given, perform, actor=actor, key=key, scope=_desk(tournament),
                 said=lambda body: _("%(name)s is a table judge of %(tournament)s: hand them the one-time code.")
                 % {"name": body["username"], "tournament": tournament.name})


def withdraw_invitation(tournament: Tournament, data: Any, *, actor: Any, key: str | None) -> Done:
    """Take back an invitation not answered yet. 200."""
    _allow(permissions.may_run(actor, tournament))
    given = _parse(Username.parse, data)

    def perform() -> tuple[int, dict[str, Any]]:
        name = services.withdraw_invitation(tournament, given.username)
        return 200, {"tournament": tournament.pk, "withdrawn": name}

    return _done("withdraw_invitation", given, perform, actor=actor, key=key, scope=_desk(tournament),
                 said=lambda body: _("The invitation of %(name)s is withdrawn.") % {"name": body["withdrawn"]})


def _read_invitation(data: Mapping[str, Any], field: Field) -> int:
    number = whole_number(data.get(field.name))
    if number is None:
        raise Refused(_("expected the number of an invitation"), field=field.name, offending=data.get(field.name))
    return number


@dataclass(frozen=True)
class Answer:
    invitation: int

    FIELDS: ClassVar[dict[str, Field]] = declared(
        Field("invitation", kind="number", required=True, reader=_read_invitation),
    )

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> Answer:
        return cls(**read_fields(cls.FIELDS, data))


def _account_scope(actor: Any) -> str:
    return idempotency.scope_for(actor.pk, "invitations", kind="account")


def _signed_in(actor: Any) -> None:
    _allow(bool(getattr(actor, "is_authenticated", False)), _("Sign in to answer an invitation."))


def accept_invitation(data: Any, *, actor: Any, key: str | None) -> Done:
    """The invited account accepts: it judges the tournament's tables from now on. 200."""
    _signed_in(actor)
    given = _parse(Answer.parse, data)

    def perform() -> tuple[int, dict[str, Any]]:
        return 200, invitation_json(services.accept_invitation(actor, given.invitation))

    return _done("accept_invitation", given, perform, actor=actor, key=key, scope=_account_scope(actor),
                 said=lambda body: _("You are a table judge of %(tournament)s.") % {"tournament": body["tournament_name"]})


def decline_invitation(data: Any, *, actor: Any, key: str | None) -> Done:
    """The invited account declines. 200."""
    _signed_in(actor)
    given = _parse(Answer.parse, data)

    def perform() -> tuple[int, dict[str, Any]]:
        tournament = services.decline_invitation(actor, given.invitation)
        return 200, {"invitation": given.invitation, "declined": True, "tournament": tournament.pk,
                     "tournament_name": tournament.name}

    return _done("decline_invitation", given, perform, actor=actor, key=key, scope=_account_scope(actor),
                 said=lambda body: _("You declined to judge %(tournament)s.") % {"tournament": body["tournament_name"]})


def invitation_json(invitation: Any) -> dict[str, Any]:
    """An invitation as the API answers it."""
    return {
        "invitation": invitation.pk,
        "tournament": invitation.tournament_id,
        "tournament_name": invitation.tournament.name,
        "username": invitation.user.get_username(),
        "role": invitation.role,
        "how": invitation.how,
        "invited_by": invitation.invited_by.get_username() if invitation.invited_by else None,
        "created_at": invitation.created_at.isoformat(),
        "accepted_at": invitation.accepted_at.isoformat() if invitation.accepted_at else None,
        "pending": invitation.accepted_at is None,
    }


@dataclass(frozen=True)
class ClubsApart:
    keep_clubs_apart: bool

    FIELDS: ClassVar[dict[str, Field]] = declared(Field("keep_clubs_apart", kind="flag"))

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> ClubsApart:
        return cls(**read_fields(cls.FIELDS, data))


def keep_clubs_apart(tournament: Tournament, data: Any, *, actor: Any, key: str | None) -> Done:
    """Whether the seating keeps players of one club at different tables. 200, the tournament."""
    _allow(permissions.may_run(actor, tournament))
    given = _parse(ClubsApart.parse, data)

    def perform() -> tuple[int, dict[str, Any]]:
        return 200, tournament_json(services.keep_clubs_apart(tournament, given.keep_clubs_apart))

    return _done("keep_clubs_apart", given, perform, actor=actor, key=key, scope=_desk(tournament),
                 said=lambda body: "Saved the keep-apart setting.")


def finish_round(round_: Round, data: Any = None, *, actor: Any, key: str | None) -> Done:
    """Close a published round once every table's report is filed (LoLV 4.01.07). 200, the round."""
    _allow(permissions.may_run(actor, round_.tournament))
    given = _parse(Nothing.parse, data)

    def perform() -> tuple[int, dict[str, Any]]:
        return 200, round_json(services.finish_round(round_, user=actor))

    return _done("finish_round", given, perform, actor=actor, key=key, scope=_seating(round_),
                 said=lambda body: f"Closed {round_.label}.")


# --- seating ----------------------------------------------------------------------------------


def _read_seed(data: Mapping[str, Any], field: Field) -> int | None:
    """The draw's seed (None: a new one), a whole number from `low` to `high`."""
    seed = data.get(field.name)
    if seed is None or (isinstance(seed, str) and not seed.strip()):
        return None
    number = whole_number(seed, signed=True)
    low, high = field.low or 0, field.high if field.high is not None else MAX_SEED
    if number is None or not low <= number <= high:
        raise Refused(_("the seed is a whole number from 0 to %(MAX_SEED)s, not %(seed)s") % {
            "MAX_SEED": high, "seed": repr(seed)}, field=field.name, offending=seed)
    return number


def _read_small_tables(data: Mapping[str, Any], field: Field) -> str | None:
    """The key of the table-size option chosen (None: none chosen)."""
    small = data.get(field.name)
    if small is not None and not isinstance(small, str):
        raise Refused(_("expected the key of a table-size option, not %(small)s") % {"small": repr(small)},
                      field=field.name)
    return text_field(data, field.name, max_length=field.max_length) or None


@dataclass(frozen=True)
class Seating:
    """A heat's draw (the checked-in players, or `players`) or the final's seats (`players`
    are the finalists, `alternates` fill empty seats, `absent` finalists leave theirs)."""

    seed: int | None
    players: tuple[int, ...] | None
    small_tables: str | None
    reason: str
    alternates: tuple[int, ...]
    absent: tuple[int, ...]

    FIELDS: ClassVar[dict[str, Field]] = declared(
        Field("seed", kind="number", low=0, high=MAX_SEED, nullable=True, reader=_read_seed,
              help=gettext_lazy("the draw's seed (none: a new draw)")),
        Field("players", kind="ids", nullable=True,
              help=gettext_lazy("the players to seat (a final: the finalists in qualifying order)")),
        Field("small_tables", max_length=40, nullable=True, reader=_read_small_tables,
              help=gettext_lazy("the key of a table-size option")),
        SEATING_REASON,
        Field("alternates", kind="ids", help=gettext_lazy("a final: the alternates who fill empty seats")),
        Field("absent", kind="ids", help=gettext_lazy("a final: the finalists who leave their seats")),
    )

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> Seating:
        read = read_fields(cls.FIELDS, data)
        return cls(**{
            **read, "players": tuple(read["players"]) if read["players"] is not None else None,
            "alternates": tuple(read["alternates"] or ()), "absent": tuple(read["absent"] or ()),
        })


def seat_round(
    round_: Round, data: Any, *, actor: Any, key: str | None,
    standing_finalists: Callable[[Tournament], tuple[list[int], list[int]]] | None = None,
) -> Done:
    """Seat a heat (or reseat it with a new draw) or the final. For a final without `players`,
    `standing_finalists` (the web layer hands in scoring's) names the finalists and alternates.
    200, the seating; 409 with the table-size options for a count that needs a choice."""
    _allow(permissions.may_run(actor, round_.tournament))
    given = _parse(Seating.parse, data)

    def perform() -> tuple[int, dict[str, Any]]:
        if round_.kind == Round.Kind.FINAL:
            finalists, alternates = list(given.players or ()), list(given.alternates)
            if given.players is None and standing_finalists is not None:
                finalists, suggested = standing_finalists(round_.tournament)
                alternates = alternates or suggested
            services.seat_final_round(
                round_, user=actor, finalists=finalists, alternates=alternates, absent=list(given.absent),
                seed=given.seed, reason=given.reason,
            )
        else:
            services.seat_round(
                round_, user=actor, seed=given.seed, reason=given.reason, small_tables=given.small_tables,
                players=list(given.players) if given.players is not None else None,
            )
        return _seating_answer(round_)

    said = "Seated the final. Now record the faction picks in qualifying order." if round_.kind == Round.Kind.FINAL \
        else f"Seated {round_.label}. Check the tables, then publish."
    return _done("seat_round", given, perform, actor=actor, key=key, scope=_seating(round_), said=lambda body: said)


def publish_round(round_: Round, data: Any = None, *, actor: Any, key: str | None) -> Done:
    """Publish the seating once every seat has its faction. 200, the seating."""
    _allow(permissions.may_run(actor, round_.tournament))
    given = _parse(Nothing.parse, data)

    def perform() -> tuple[int, dict[str, Any]]:
        services.publish_round(round_, user=actor)
        return _seating_answer(round_)

    said = "Published the final seating." if round_.kind == Round.Kind.FINAL \
        else f"Published the seating of {round_.label}."
    return _done("publish_round", given, perform, actor=actor, key=key, scope=_seating(round_),
                 said=lambda body: said)


@dataclass(frozen=True)
class Swap:
    first: int
    second: int
    reason: str

    FIELDS: ClassVar[dict[str, Field]] = declared(
        dataclasses.replace(SEATING_PLAYER, name="first"), dataclasses.replace(SEATING_PLAYER, name="second"),
        SEATING_REASON,
    )

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> Swap:
        return cls(**read_fields(cls.FIELDS, data))


def swap(round_: Round, data: Any, *, actor: Any, key: str | None) -> Done:
    """Swap two players' places (and factions). 200, the seating."""
    _allow(permissions.may_run(actor, round_.tournament))
    given = _parse(Swap.parse, data)

    def perform() -> tuple[int, dict[str, Any]]:
        services.swap(round_, given.first, given.second, user=actor, reason=given.reason)
        return _seating_answer(round_)

    names = dict(round_.tournament.players.filter(pk__in=[given.first, given.second]).values_list("pk", "name"))
    said = f"Swapped {names.get(given.first, 'the first player')} and {names.get(given.second, 'the second player')}."
    return _done("swap", given, perform, actor=actor, key=key, scope=_seating(round_), said=lambda body: said)


@dataclass(frozen=True)
class Latecomer:
    player: int
    override: bool
    reason: str

    FIELDS: ClassVar[dict[str, Field]] = declared(
        dataclasses.replace(SEATING_PLAYER, reader=_latecomer),
        Field("override", kind="flag", help=gettext_lazy("seat them past the grace period (a reason is needed)")),
        SEATING_REASON,
    )

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> Latecomer:
        return cls(**read_fields(cls.FIELDS, data))


def seat_latecomer(round_: Round, data: Any, *, actor: Any, key: str | None) -> Done:
    """Seat a latecomer at a table of fewer than six. 200, the seating."""
    _allow(permissions.may_run(actor, round_.tournament))
    given = _parse(Latecomer.parse, data)
    player = _player(round_.tournament_id, given.player)

    def perform() -> tuple[int, dict[str, Any]]:
        services.add_latecomer(round_, player, user=actor, override=given.override, reason=given.reason)
        return _seating_answer(round_)

    return _done("seat_latecomer", given, perform, actor=actor, key=key, scope=_seating(round_),
                 said=lambda body: f"Seated latecomer {player.name}.")


def _read_table(data: Mapping[str, Any], field: Field) -> int:
    """The table to judge, by its id; none chosen is refused beside the judge's choice."""
    table = number_field(data, field.name, required=False, what="a table's id")
    if table is None:
        raise Refused(_("choose one of the round's tables"), field="judge")
    return table


@dataclass(frozen=True)
class TableJudge:
    table: int
    judge: str

    FIELDS: ClassVar[dict[str, Field]] = declared(
        Field("table", kind="number", required=True, reader=_read_table),
        Field("judge", max_length=150),
    )

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> TableJudge:
        return cls(**read_fields(cls.FIELDS, data))


def assign_table_judge(round_: Round, data: Any, *, actor: Any, key: str | None) -> Done:
    """Put a table judge at a table of the round (an empty name frees it for every table judge). 200."""
    _allow(permissions.may_run(actor, round_.tournament))
    given = _parse(TableJudge.parse, data)
    table = round_.tables.filter(pk=given.table).first()
    if table is None:
        raise Refused(_("choose one of the round's tables"), field="judge", offending=given.table)

    def perform() -> tuple[int, dict[str, Any]]:
        judge = services.assign_table_judge(table, given.judge)
        return 200, {"table": table.pk, "number": table.number, "judge": judge.get_username() if judge else None}

    return _done("assign_table_judge", given, perform, actor=actor, key=key, scope=_seating(round_),
                 said=lambda body: f"Table {body['number']} is judged by {body['judge'] or 'every table judge'}.")


#: A faction change's fields, declared once: the seating pages' forms, the API's bodies, their schema.
FACTION_CHANGE_FIELDS = declared(
    SEATING_PLAYER,
    Field("other", kind="number", help=gettext_lazy("the other player's id")),
    Field("faction", max_length=40, help=gettext_lazy("the faction")),
    Field("consenting", kind="ids", help=gettext_lazy("the players who consent")),
)
#: A finalist's pick: the player and the faction they pick.
PICK_FIELDS = declared(SEATING_PLAYER, dataclasses.replace(FACTION_CHANGE_FIELDS["faction"], required=True,
                                                          why=gettext_lazy("a finalist picks a faction")))


@dataclass(frozen=True)
class FactionChange:
    """A WBC trade by consent, the undrawn faction taken at a table of five, a LoLV kept card
    (0.08), a final's pick: the player, the faction or the other player, who consents."""

    player: int
    other: int | None
    faction: str
    consenting: tuple[int, ...]

    FIELDS: ClassVar[dict[str, Field]] = FACTION_CHANGE_FIELDS

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> FactionChange:
        return cls.read(cls.FIELDS, data)

    @classmethod
    def pick(cls, data: Mapping[str, Any]) -> FactionChange:
        return cls.read(PICK_FIELDS, data)

    @classmethod
    def read(cls, fields: Mapping[str, Field], data: Mapping[str, Any]) -> FactionChange:
        read = {"other": None, "consenting": None, **read_fields(fields, data)}
        return cls(**{**read, "consenting": tuple(read["consenting"] or ())})


def _faction_command(
    name: str, change: Callable[[Round, FactionChange, Any, Table | None], Any],
    parse: Callable[[Mapping[str, Any]], FactionChange] = FactionChange.parse,
) -> Callable[..., Done]:
    def command(round_: Round, data: Any, *, actor: Any, key: str | None, table: Table | None = None) -> Done:
        if table is not None:  # a kept card recorded at its table: that table's judge may too
            _allow(permissions.can_judge_table(actor, table), permissions.TABLE_JUDGE_ONLY)
        else:
            _allow(permissions.may_run(actor, round_.tournament))
        given = _parse(parse, data)

        def perform() -> tuple[int, dict[str, Any]]:
            change(round_, given, actor, table)
            return _seating_answer(round_)

        return _done(name, given, perform, actor=actor, key=key, scope=_seating(round_),
                     said=lambda body: "Recorded the faction change.")

    command.__name__ = command.__qualname__ = name
    return command


def _trade(round_: Round, given: FactionChange, actor: Any, table: Table | None) -> None:
    if given.other is None:
        raise Refused(_("a trade names the other player"), field="other")
    services.trade(round_, given.player, given.other, consenting=list(given.consenting), user=actor)


trade = _faction_command("trade", _trade)
trade.__doc__ = """WBC house rules: two players trade factions by mutual consent. 200, the seating."""
take_undrawn = _faction_command(
    "take_undrawn",
    lambda r, g, actor, t: services.take_undrawn(r, g.player, g.faction, consenting=list(g.consenting), user=actor),
)
take_undrawn.__doc__ = """WBC: at a table of five a player takes the undrawn faction if everyone consents. 200."""
keep_card = _faction_command(
    "keep_card", lambda r, g, actor, t: services.keep_card(r, g.player, g.faction, user=actor, table=t)
)
keep_card.__doc__ = """LoLV 0.08: the card a player keeps of the two dealt. 200, the seating."""
pick_final_faction = _faction_command(
    "pick_final_faction", lambda r, g, actor, t: services.pick_final_faction(r, g.player, g.faction, user=actor),
    FactionChange.pick,
)
pick_final_faction.__doc__ = """A finalist's faction pick, in qualifying order. 200, the seating."""

#: The faction actions of `POST /api/rounds/{id}/seating/factions/` (`action`).
FACTION_ACTIONS: dict[str, Callable[..., Done]] = {"trade": trade, "take_undrawn": take_undrawn, "keep": keep_card}
#: The body of that address: the action beside the change's fields.
FACTION_ACTION_FIELDS = declared(
    Field("action", required=True, max_length=20, choices=tuple(FACTION_ACTIONS),
          help=gettext_lazy("the faction action")),
    *FACTION_CHANGE_FIELDS.values(),
)


# --- changes after creation: the tournament's name, zone and series; a round; a table judge ---


def _read_edit_series(data: Mapping[str, Any], field: Field) -> int | str | None:
    """The series to join, by its id (JSON's 7, a form's "7") or its name; None or "" leaves it."""
    series = data.get(field.name)
    if isinstance(series, str):
        series = series.strip()
        number = whole_number(series)
        return number if number is not None else series
    if series is not None and (isinstance(series, bool) or not isinstance(series, int)):
        raise Refused(_("expected a series' id, not %(series)s") % {"series": repr(series)}, field=field.name,
                      offending=series)
    return series


@dataclass(frozen=True)
class TournamentEdit:
    """The fields sent, each None when not sent (left as it is)."""

    name: str | None
    time_zone: str | None
    series: int | str | None
    language: str | None = None
    #: Online registration's settings, each `registration.UNCHANGED` when not sent.
    registration_opens: Any = registration.UNCHANGED
    registration_closes: Any = registration.UNCHANGED
    capacity: Any = registration.UNCHANGED
    waiting_list: Any = registration.UNCHANGED

    #: The one declaration of a tournament's changes: the edit page's forms, the API's body.
    FIELDS: ClassVar[dict[str, Field]] = declared(
        Field("name", max_length=TITLE_LIMIT, help=gettext_lazy("a new name")),
        Field("time_zone", max_length=64,
              help=gettext_lazy("another IANA zone; rounds not yet under way keep their wall-clock start")),
        Field("series", kind="number", nullable=True, reader=_read_edit_series,
              help=gettext_lazy("a series of the same format you own: the tournament becomes an edition of it")),
        Field("language", max_length=8, choices=tuple(code for code, _name in settings.LANGUAGES),
              help=gettext_lazy("the language of its printed sheets and room screen (an ISO code)")),
        Field("registration_opens", kind="moment", nullable=True, reader=_read_moment,
              help=gettext_lazy("when online registration opens (ISO 8601; null: closed)")),
        Field("registration_closes", kind="moment", nullable=True, reader=_read_moment,
              help=gettext_lazy("when online registration closes (ISO 8601; null: closed)")),
        Field("capacity", kind="number", nullable=True, low=1, high=100_000, help=gettext_lazy("a number of players")),
        Field("waiting_list", kind="flag",
              help=gettext_lazy("past the capacity, registrations wait in order (false: they are refused)")),
    )
    #: What a field not sent says: left as it is.
    UNSENT: ClassVar[dict[str, Any]] = {
        "name": None, "time_zone": None, "series": None, "language": None, "registration_opens": registration.UNCHANGED,
        "registration_closes": registration.UNCHANGED, "capacity": registration.UNCHANGED,
        "waiting_list": registration.UNCHANGED,
    }

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> TournamentEdit:
        return cls(**{name: field.read(data) if field.sent(data) else cls.UNSENT[name]
                      for name, field in cls.FIELDS.items()})

    @property
    def registration_changed(self) -> bool:
        return any(getattr(self, f) is not registration.UNCHANGED
                   for f in ("registration_opens", "registration_closes", "capacity", "waiting_list"))


def edit_tournament(tournament: Tournament, data: Any, *, actor: Any, key: str | None) -> Done:
    """Rename the tournament, move it to another time zone and/or make it an edition of a
    series the actor owns (`services.edit_tournament`, `services.join_series`), in one
    transaction. 200, the tournament."""
    _allow(permissions.may_run(actor, tournament))
    given = _parse(TournamentEdit.parse, data)
    said: list[str] = []

    def perform() -> tuple[int, dict[str, Any]]:
        if given.series is not None or (isinstance(data, Mapping) and "series" in data):
            said.append(services.join_series(tournament, given.series or None, user=actor).said)
        if given.name is not None or given.time_zone is not None or given.language is not None:
            said.append(services.edit_tournament(
                tournament, name=given.name, time_zone=given.time_zone, language=given.language
            ).said)
        if given.registration_changed:
            tournament.refresh_from_db()
            said.append(registration.set_registration(
                tournament, opens=given.registration_opens, closes=given.registration_closes,
                capacity=given.capacity, waiting_list=given.waiting_list,
            ))
        tournament.refresh_from_db()
        return 200, tournament_json(tournament)

    return _done("edit_tournament", given, perform, actor=actor, key=key, scope=_desk(tournament),
                 said=lambda body: " ".join(said) or _("Saved %(name)s.") % {"name": body["name"]})


@dataclass(frozen=True)
class RoundEdit:
    """A new kind (None: as it is) and start (`start_sent` false: as it is; None clears it)."""

    kind: str | None
    start_sent: bool
    starts_at: datetime | None

    FIELDS: ClassVar[dict[str, Field]] = declared(ROUND_KIND, ROUND_START)

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> RoundEdit:
        sent = ROUND_START.sent(data)
        return cls(
            kind=ROUND_KIND.read(data) if ROUND_KIND.sent(data) else None, start_sent=sent,
            starts_at=ROUND_START.read(data) if sent else None,
        )


def edit_round(round_: Round, data: Any, *, actor: Any, key: str | None) -> Done:
    """Change a round's kind (only before it is seated) or its scheduled start. 200, the round."""
    _allow(permissions.may_run(actor, round_.tournament))
    given = _parse(RoundEdit.parse, data)
    said: list[str] = []

    def perform() -> tuple[int, dict[str, Any]]:
        starts_at: Any = given.starts_at if given.start_sent else ...
        said.append(services.edit_round(round_, kind=given.kind, starts_at=starts_at).said)
        return 200, round_json(Round.objects.select_related("tournament").get(pk=round_.pk))

    return _done("edit_round", given, perform, actor=actor, key=key, scope=_seating(round_),
                 said=lambda body: " ".join(said) or _("Saved %(name)s.") % {"name": body["name"]})


def _deleting(pk: int) -> str:
    return idempotency.scope_for(pk, "delete", kind="round")


def delete_round(round_: Round, data: Any = None, *, actor: Any, key: str | None) -> Done:
    """Delete a round not yet seated; the later rounds take the numbers down by one. 200."""
    _allow(permissions.may_run(actor, round_.tournament))
    given = _parse(Nothing.parse, data)

    def perform() -> tuple[int, dict[str, Any]]:
        tournament = round_.tournament_id
        return 200, {"deleted": round_.pk, "tournament": tournament, "said": services.delete_round(round_).said}

    return _done("delete_round", given, perform, actor=actor, key=key, scope=_deleting(round_.pk),
                 said=lambda body: str(body["said"]))


def round_deleted(pk: int, *, actor: Any, key: str | None) -> Done | None:
    """The first answer of a `delete_round` of round `pk` retried with `key` (the round is
    gone: a door asks this before it looks for the round), or None."""
    body = {"command": "delete_round"}
    answer = _replayed(actor=actor, scope=_deleting(pk), key=key, body=body)
    return None if answer is None else Done(**asdict(answer), message=str(answer.body.get("said", "")))


def _replayed(*, actor: Any, scope: str, key: str | None, body: Any) -> idempotency.Answer | None:
    try:
        return idempotency.replayed(user=actor, scope=scope, key=key, body=body)
    except (idempotency.KeyReused, idempotency.BadKey) as exc:
        raise Refused(str(exc), field=idempotency.HEADER, status=exc.status, offending=key) from None


def remove_table_judge(tournament: Tournament, data: Any, *, actor: Any, key: str | None) -> Done:
    """Take a table judge off the tournament (refused while a table of theirs is in play). 200."""
    _allow(permissions.may_run(actor, tournament))
    given = _parse(Username.parse, data)

    def perform() -> tuple[int, dict[str, Any]]:
        done = services.remove_table_judge(tournament, given.username)
        return 200, {"tournament": tournament.pk, "removed": given.username, "said": done.said}

    return _done("remove_table_judge", given, perform, actor=actor, key=key, scope=_desk(tournament),
                 said=lambda body: str(body["said"]))


# --- the tournament's format document (until the first round is seated) ----------------------


def _read_format_changes(data: Mapping[str, Any], field: Field) -> Any:
    if field.name not in data:
        raise Refused(_("this field is required: document fields and their values, e.g. {\"rounds.heat.hours\": 4}"),
                      field=field.name)
    return data.get(field.name)


@dataclass(frozen=True)
class FormatChanges:
    """Fields of the format document and their values (`format_changes`), or a whole document
    (`text`, TOML or JSON), or a preset to start again from (`preset`)."""

    format_changes: Any = None
    text: str = ""
    preset: str = ""

    #: Each command's one declaration: changes to the document's fields (the API's PATCH body),
    #: a whole document uploaded (at most 64 kB), a preset to start again from.
    CHANGE_FIELDS: ClassVar[dict[str, Field]] = declared(
        Field("format_changes", kind="value", required=True, reader=_read_format_changes,
              help=NewTournament.FIELDS["format_changes"].help),
    )
    DOCUMENT_FIELDS: ClassVar[dict[str, Field]] = declared(Field("text", max_length=64 * 1024))
    RESET_FIELDS: ClassVar[dict[str, Field]] = declared(Field("preset", max_length=200, choices=tuple(FORMATS)))

    @classmethod
    def changes(cls, data: Mapping[str, Any]) -> FormatChanges:
        return cls(**read_fields(cls.CHANGE_FIELDS, data))

    @classmethod
    def document(cls, data: Mapping[str, Any]) -> FormatChanges:
        return cls(**read_fields(cls.DOCUMENT_FIELDS, data))

    @classmethod
    def reset(cls, data: Mapping[str, Any]) -> FormatChanges:
        return cls(**read_fields(cls.RESET_FIELDS, data))


def _format_command(
    name: str, parse: Callable[[Mapping[str, Any]], FormatChanges],
    change: Callable[[Tournament, FormatChanges], Tournament], said: Callable[[FormatChanges], str],
) -> Callable[..., Done]:
    def command(
        tournament: Tournament, data: Any, *, actor: Any, key: str | None,
        present: Callable[[Tournament], dict[str, Any]] | None = None,
    ) -> Done:
        _allow(permissions.may_run(actor, tournament), permissions.FORMAT_HEAD_JUDGE_ONLY)
        given = _parse(parse, data)

        def perform() -> tuple[int, dict[str, Any]]:
            changed = change(tournament, given)
            return 200, present(changed) if present is not None else tournament_json(changed)

        return _done(name, given, perform, actor=actor, key=key, scope=_desk(tournament),
                     said=lambda body: said(given))

    command.__name__ = command.__qualname__ = name
    return command


def _changes_said(given: FormatChanges) -> str:
    count = len(given.format_changes) if isinstance(given.format_changes, Mapping) else 0
    return f"Saved {count} change{'s' if count != 1 else ''} to the format."


change_format = _format_command(
    "change_format", FormatChanges.changes, lambda t, g: services.change_format(t, g.format_changes), _changes_said
)
change_format.__doc__ = """Change fields of the tournament's format document (`format_changes`);
`present` (the web layer's) writes the answer. Refused (409) once a round is seated."""
replace_format = _format_command(
    "replace_format", FormatChanges.document, lambda t, g: services.replace_format(t, g.text),
    lambda g: "Uploaded the format document.",
)
replace_format.__doc__ = """Replace the format document by an uploaded one (`text`, TOML or JSON)."""
reset_format = _format_command(
    "reset_format", FormatChanges.reset, lambda t, g: services.reset_format(t, g.preset),
    lambda g: "The format is its preset's again.",
)
reset_format.__doc__ = """Start the format again from a preset's document (`preset`)."""


# --- the desk's other pages: a player's registration, their own check-in; people and series ---


@dataclass(frozen=True)
class PlayerEdit:
    name: str
    email: str
    club: str
    household: str
    keep_apart: tuple[int, ...]

    FIELDS: ClassVar[dict[str, Field]] = declared(
        *PLAYER_FIELDS.values(), Field("keep_apart", kind="ids", help=gettext_lazy("players to seat apart from"))
    )

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> PlayerEdit:
        read = read_fields(cls.FIELDS, data)
        return cls(**{**read, "keep_apart": tuple(read["keep_apart"] or ())})


def edit_player(player: Player, data: Any, *, actor: Any, key: str | None) -> Done:
    """Change a player's name, email, club, household and keep-apart choices; each change is
    recorded. 200, the player and `changes` ({field: [before, after]})."""
    _allow(permissions.may_run(actor, player.tournament))
    given = _parse(PlayerEdit.parse, data)

    def perform() -> tuple[int, dict[str, Any]]:
        changes = desk.update_player(
            player, name=given.name, email=given.email, club=given.club, household=given.household,
            keep_apart=given.keep_apart, user=actor,
        )
        return 200, {**player_json(player, private=True), "changes": changes}

    def said(body: dict[str, Any]) -> str:
        changed = ", ".join(f.replace("_", "-") for f in body["changes"]) or "nothing"
        return f"Saved {body['name']}: changed {changed}."

    return _done("edit_player", given, perform, actor=actor, key=key, scope=_desk(player.tournament), said=said,
                 player=player.pk)


def self_check_in(player: Player, token: str, *, actor: Any, key: str | None) -> Done:
    """A player checks themself in with their personal link's token for the round whose self
    check-in is open (`desk.self_check_in`). 200, the round and the player. Refused 403 for a
    wrong link, 409 when no round is open."""
    given = Nothing()

    def perform() -> tuple[int, dict[str, Any]]:
        round_, _opened = desk.self_check_in(player, token)
        return 200, {"round": round_.pk, "player": player.pk, "label": round_.label}

    return _done("self_check_in", given, perform, actor=actor, key=key,
                 scope=idempotency.scope_for(player.pk, "check-in", kind="player"),
                 said=lambda body: f"{player.name} is checked in for {body['label']}.")


@dataclass(frozen=True)
class Initials:
    listed: bool

    FIELDS: ClassVar[dict[str, Field]] = declared(Field("listed", kind="flag"))

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> Initials:
        return cls(**read_fields(cls.FIELDS, data))


def list_by_initials(player: Player, data: Any, *, actor: Any, key: str | None) -> Done:
    """The player's person listed by initials on public pages, or by name again (`listed`);
    `people.list_by_initials` decides who may (a head judge, the person). 200."""
    given = _parse(Initials.parse, data)

    def perform() -> tuple[int, dict[str, Any]]:
        try:
            person = people.list_by_initials(player, given.listed, user=actor)
        except people.PeopleRefused as error:
            raise Refused(error.message, field=error.field, status=error.status) from error
        return 200, {"person": person.pk, "listed_by_initials": person.listed_by_initials, "shown": person.display_name}

    return _done("list_by_initials", given, perform, actor=actor, key=key, scope=_desk(player.tournament),
                 said=lambda body: f"Public pages show {body['shown']}.", player=player.pk)


@dataclass(frozen=True)
class SeriesName:
    name: str

    #: The series' own rules word a name too long or empty (`people.rename_series`).
    FIELDS: ClassVar[dict[str, Field]] = declared(Field("name", max_length=10_000))

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> SeriesName:
        return cls(**read_fields(cls.FIELDS, data))


def rename_series(series: Any, data: Any, *, actor: Any, key: str | None) -> Done:
    """Rename a series its owner manages (`people.rename_series`: 403 for anybody else). 200."""
    _allow(permissions.may_create_tournament(actor), permissions.SERIES_STAFF_ONLY)
    given = _parse(SeriesName.parse, data)

    def perform() -> tuple[int, dict[str, Any]]:
        try:
            renamed = people.rename_series(series, name=given.name, user=actor)
        except people.PeopleRefused as error:
            raise Refused(error.message, field=error.field, status=error.status) from error
        return 200, {"id": renamed.pk, "name": renamed.name, "format": renamed.format}

    return _done("rename_series", given, perform, actor=actor, key=key,
                 scope=idempotency.scope_for(series.pk, "rename", kind="series"),
                 said=lambda body: f"Renamed the series to {body['name']}.")


# --- the player's private link ----------------------------------------------------------------


def _link_answer(player: Player, token: str | None) -> dict[str, Any]:
    return {"player": player.pk, "name": player.name, "token": token, "path": f"/me/{token}/" if token else None}


def renew_private_link(player: Player, data: Any = None, *, actor: Any, key: str | None) -> Done:
    """A new private link for the player (the old one answers 404 from now on); a head judge's. 200."""
    _allow(permissions.may_run(actor, player.tournament))
    given = _parse(Nothing.parse, data)

    def perform() -> tuple[int, dict[str, Any]]:
        return 200, _link_answer(player, private_links.renew(player).token)

    return _done("renew_private_link", given, perform, actor=actor, key=key, scope=_desk(player.tournament),
                 said=lambda body: _("%(name)s has a new private link; the old one no longer opens.")
                 % {"name": body["name"]}, player=player.pk)


def revoke_private_link(player: Player, data: Any = None, *, actor: Any, key: str | None) -> Done:
    """The player's private link stops working until renewed; a head judge's. 200."""
    _allow(permissions.may_run(actor, player.tournament))
    given = _parse(Nothing.parse, data)

    def perform() -> tuple[int, dict[str, Any]]:
        private_links.revoke(player)
        return 200, _link_answer(player, None)

    return _done("revoke_private_link", given, perform, actor=actor, key=key, scope=_desk(player.tournament),
                 said=lambda body: _("%(name)s's private link no longer opens.") % {"name": body["name"]},
                 player=player.pk)


@dataclass(frozen=True)
class Sure:
    confirm: bool

    FIELDS: ClassVar[dict[str, Field]] = declared(Field("confirm", kind="flag"))

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> Sure:
        return cls(**read_fields(cls.FIELDS, data))


def withdraw_self(player: Player, data: Any, *, actor: Any, key: str | None) -> Done:
    """A player leaves the event from their private link (`confirm` true, asked once more on the
    page): withdrawn before their first game, dropped after it; checked out of rounds not yet
    published, so the next round does not seat them. 200; refused 400 without `confirm`, 409
    when they already left."""
    given = _parse(Sure.parse, data)
    if not given.confirm:
        raise Refused(_("confirm that you leave the event: the next round will not seat you"), field="confirm")

    def perform() -> tuple[int, dict[str, Any]]:
        # Its own transaction: a player on their private link is anonymous, and the frame opens
        # one only for a signed-in actor with a key.
        with transaction.atomic():
            fresh = Player.objects.select_for_update().get(pk=player.pk)
            if fresh.status not in (Player.Status.ACTIVE, Player.Status.WAITING):
                raise Refused(_("%(name)s has already left the event (%(status)s); ask the head judge to come back")
                              % {"name": fresh.name, "status": fresh.get_status_display().lower()},
                              field="player", status=409)
            if fresh.status == Player.Status.WAITING:  # leaves the waiting list
                return 200, player_json(services.set_status(fresh, Player.Status.WITHDRAWN))
            played = fresh.seats.filter(round__state__in=[Round.State.PUBLISHED, Round.State.FINISHED]).exists()
            status = Player.Status.DROPPED if played else Player.Status.WITHDRAWN
            return 200, player_json(services.set_status(fresh, status))

    return _done("withdraw_self", given, perform, actor=actor, key=key,
                 scope=idempotency.scope_for(player.pk, "me", kind="player"),
                 said=lambda body: _("You have left the event: the next round will not seat you."))


# --- online registration ----------------------------------------------------------------------


def _registrant_text(data: Mapping[str, Any], field: Field) -> str:
    """A registrant's text: the registration's own checks word an empty or bad one."""
    return text_field(data, field.name, max_length=field.max_length)


@dataclass(frozen=True)
class OnlineRegistration(_Registrant):
    note: str

    #: The one declaration of an online registration: the public form, the API's body. The
    #: name and the email are required; the registration words its own refusal of either.
    FIELDS: ClassVar[dict[str, Field]] = declared(
        dataclasses.replace(REGISTRANT_FIELDS["name"], required=True, reader=_registrant_text),
        dataclasses.replace(REGISTRANT_FIELDS["email"], kind="email", required=True, reader=_registrant_text),
        REGISTRANT_FIELDS["club"],
        Field("note", max_length=registration.MAX_NOTE, help=gettext_lazy("anything the head judge should know")),
    )

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> OnlineRegistration:
        return cls(**read_fields(cls.FIELDS, data))


def registration_json(found: Any) -> dict[str, Any]:
    """A registration as its registrant sees it: no token, no other registration."""
    return {
        "id": found.pk, "tournament": found.tournament_id, "name": found.name, "email": found.email,
        "club": found.club, "note": found.note, "state": registration.state_of(found),
        "refusal": found.refusal or None, "player": found.player_id,
    }


def _registration_said(body: dict[str, Any]) -> str:
    state = body["state"]
    if state == "unconfirmed":
        return _("Thank you, %(name)s: we sent a link to %(email)s. Open it to confirm your email and "
                 "complete your registration.") % {"name": body["name"], "email": body["email"]}
    if state == "registered":
        return _("Your email is confirmed and you are registered, %(name)s.") % {"name": body["name"]}
    if state == "waiting":
        return _("Your email is confirmed, %(name)s. The event is full: you are on its waiting list and move "
                 "up in order when a place frees.") % {"name": body["name"]}
    return body.get("refusal") or _("This registration is %(state)s.") % {"state": state}


def register_online(tournament: Tournament, data: Any, *, actor: Any, key: str | None) -> Done:
    """Anyone registers for the tournament while its online registration is open
    (`registration.register`): 201, the registration, unconfirmed until its link is opened."""
    given = _parse(OnlineRegistration.parse, data)

    def perform() -> tuple[int, dict[str, Any]]:
        made, _token = registration.register(
            tournament, name=given.name, email=given.email, club=given.club, note=given.note
        )
        return 201, registration_json(made)

    return _done("register_online", given, perform, actor=actor, key=key,
                 scope=idempotency.scope_for(tournament.pk, "register", kind="tournament"), said=_registration_said)


def confirm_registration(token: str, *, actor: Any, key: str | None) -> Done:
    """The registrant opens their confirmation link (`registration.confirm`): 200, the
    registration with its state and, once a player, the private link's path."""
    given = Nothing()

    def perform() -> tuple[int, dict[str, Any]]:
        confirmed = registration.confirm(token)
        body = registration_json(confirmed)
        if confirmed.player is not None:
            link = private_links.link_for(confirmed.player).token
            body["path"] = f"/me/{link}/"
        return 200, body

    return _done("confirm_registration", given, perform, actor=actor, key=key,
                 scope=idempotency.scope_for(0, "confirm", kind="registration"), said=_registration_said,
                 link=registration.digest(token))


# --- faction preferences ----------------------------------------------------------------------


def _read_factions(data: Mapping[str, Any], field: Field) -> list[str]:
    """The factions ranked: a JSON list of ids, a form's selects, or a script's text."""
    value = data.get(field.name)
    listed = isinstance(value, list | tuple) and all(isinstance(v, str) for v in value)
    if not hasattr(data, "getlist") and value is not None and not isinstance(value, str) and not listed:
        raise Refused(_("list the factions by their ids, most wanted first"), field=field.name, offending=value)
    return text_list(data, field.name, max_length=field.max_length)


@dataclass(frozen=True)
class Preferences:
    factions: tuple[str, ...]

    #: The one declaration of a player's ranking: their page's selects, the API's body.
    FIELDS: ClassVar[dict[str, Field]] = declared(
        Field("factions", kind="texts", max_length=40, reader=_read_factions,
              help=gettext_lazy("faction ids, most wanted first")),
    )

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> Preferences:
        return cls(factions=tuple(read_fields(cls.FIELDS, data)["factions"]))


def set_faction_preferences(player: Player, data: Any, *, actor: Any, key: str | None) -> Done:
    """The player ranks the factions they would rather play (`factions`, most wanted first;
    empty: no preference), from their private link, where the tournament's format asks for it.
    200, their preferences; refused 409 where the format asks none, 400 for an unknown faction,
    one outside the format's factions, or one listed twice."""
    given = _parse(Preferences.parse, data)
    rules = player.tournament.rules
    if not rules.faction_preferences:
        raise Refused(_("%(format)s asks no faction preferences") % {"format": rules.name}, field="factions",
                      rule=rules.document.get("rules", {}).get("players.faction_preferences", ""), status=409)
    unknown = [f for f in given.factions if f not in rules.factions]
    if unknown:
        raise Refused(_("not a faction of this tournament: %(ids)s; choose among %(known)s") % {
            "ids": ", ".join(unknown), "known": ", ".join(rules.factions)}, field="factions", offending=unknown)
    if len(set(given.factions)) != len(given.factions):
        raise Refused(_("each faction once: a faction is listed twice"), field="factions")

    def perform() -> tuple[int, dict[str, Any]]:
        Player.objects.filter(pk=player.pk).update(faction_preferences=list(given.factions))
        return 200, {"player": player.pk, "factions": list(given.factions)}

    return _done("set_faction_preferences", given, perform, actor=actor, key=key,
                 scope=idempotency.scope_for(player.pk, "preferences", kind="player"),
                 said=lambda body: _("Your faction preferences are saved.") if body["factions"]
                 else _("You state no faction preference."))
