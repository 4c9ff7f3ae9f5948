"""Tournaments and their judges: create a tournament, assign table judges to tables."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from dune.formats import FORMATS
from dune.text_rules import title_problem
from foundation.commands import Refused
from foundation.core_words import core_refusal
from tournament import people
from tournament.models import Table, Tournament, default_time_zone
from tournament.services import judges
from tournament.services.formats import document_with_changes
from tournament.time_zones import zone_name


def create_tournament(
    *,
    name: str,
    format: str,
    user: Any,
    series: Any = None,
    time_zone: Any = None,
    format_changes: object | None = None,
) -> Tournament:
    """Create a tournament; its creator becomes a head judge of it. `series` (an id or None)
    makes it an edition of a series of the same format that `user` owns; `time_zone` (an IANA
    name, default the platform's) is where it is played. It stores a frozen copy of its
    preset's document with `format_changes` (document fields and their values) applied.

    Raises Refused naming the field, FormatDocumentError naming every bad document field."""
    name = tournament_name(name)
    if format not in FORMATS:
        known = ", ".join(f"{f.key} ({f.name})" for f in FORMATS.values())
        raise Refused(_("unknown format %(value)s; known formats: %(known)s") % {"value": repr(format), "known": known}, field="format")
    document, rules = document_with_changes(format, format_changes)
    zone = default_time_zone() if time_zone in (None, "") else known_zone(time_zone)
    try:
        edition_of = people.series_for(series, format=format, user=user)
    except people.PeopleRefused as error:
        raise Refused(error.message, field=error.field, status=error.status) from error
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name,
            format=format,
            created_by=user,
            series=edition_of,
            time_zone=zone,
            format_document=document,
            format_version=rules.preset.version,
        )
        judges.agree(tournament, user, role=judges.Role.HEAD_JUDGE, how=judges.How.CREATED_TOURNAMENT, by=user)
    return tournament


def tournament_name(name: Any) -> str:
    """A tournament's name as stored (spaces tidied). Raises Refused (field "name") for no
    name, one over 200 characters, or text no page stores."""
    name, problem = title_problem(name, what="a tournament")
    if problem:
        raise Refused(core_refusal(problem), field="name")
    return name


def known_zone(time_zone: Any) -> str:
    """The IANA zone `time_zone` names. Raises Refused (field "time_zone") for any other text."""
    zone = zone_name(time_zone)
    if zone is None:
        raise Refused(
            _("unknown time zone %(time_zone)s; give an IANA name such as America/Los_Angeles or Europe/Paris") % {"time_zone": repr(time_zone)},
            field="time_zone",
        )
    return zone


def assign_table_judge(table: Table, username: str) -> Any:
    """Put one of the tournament's table judges at a table (an empty name frees the table).

    A table judge writes only to the tables assigned to them (tournament.permissions);
    a table with nobody assigned is open to every table judge of the tournament.
    """
    tournament = table.round.tournament
    name = (username or "").strip()
    if not name:
        table.judge = None
    else:
        user = tournament.table_judges.filter(username=name).first()
        if user is None:
            raise Refused(
                _("%(name)s is not a table judge of %(name2)s; appoint them on the dashboard first") % {"name": repr(name), "name2": tournament.name},
                field="judge",
            )
        table.judge = user
    table.save(update_fields=["judge"])
    return table.judge


def keep_clubs_apart(tournament: Tournament, keep: bool) -> Tournament:
    """Whether the seating keeps players of one club at different tables where it can."""
    tournament.keep_clubs_apart = bool(keep)
    tournament.save(update_fields=["keep_clubs_apart"])
    return tournament
