"""Changes after creation: a tournament's name, time zone and series, a round's kind and start,
deleting a round not yet seated, removing a table judge.

Each is refused, saying why, where it would change what was played: a seated round's kind (its
seating, clock and turn limit were made for it; a filed report was scored under it), a seated
round's existence, a judge at a table in play, a tournament whose filed results count in
another series.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from foundation.commands import Refused
from tournament import people
from tournament.models import Round, Table, Tournament
from tournament.services import judges
from tournament.services.rounds import check_start
from tournament.services.shared import locked
from tournament.services.tournaments import known_zone, tournament_name
from tournament.time_zones import zone_label

#: A round whose tables exist is the record of who played whom, in which seat and faction.
RULE_SEATED = "a seated round's tables are the record of who played whom"
#: A filed report was checked and scored under its round's kind (points, turn limit, clock).
RULE_FILED = "a filed report stands as scored under its round's kind"


@dataclass(frozen=True)
class Edited:
    """What an edit changed, in words for the page's message."""

    said: str
    changed: bool = True


def _filed(tables: Any) -> int:
    return int(tables.exclude(report_filed_at=None).count())


def _under_way(round_: Round) -> bool:
    """Whether the round has begun: closed, or a table with a clock, a game record or a report."""
    return round_.state == Round.State.FINISHED or round_.tables.filter(
        Q(clock_started_at__isnull=False) | Q(game_started_at__isnull=False) | Q(report_filed_at__isnull=False)
    ).exists()


def _same_wall_clock(moment: datetime, old_zone: str, new_zone: str) -> datetime:
    """The moment showing on a wall clock in `new_zone` what `moment` shows in `old_zone`."""
    local = timezone.localtime(moment, zoneinfo.ZoneInfo(old_zone)).replace(tzinfo=None)
    return timezone.make_aware(local, zoneinfo.ZoneInfo(new_zone))


def known_language(code: Any) -> str:
    """`code` when it names a language the platform ships (settings.LANGUAGES), else Refused."""
    shipped = [key for key, _name in settings.LANGUAGES]
    if not isinstance(code, str) or code.strip().lower() not in shipped:
        raise Refused(
            _("expected one of %(codes)s, not %(given)r") % {"codes": ", ".join(shipped), "given": code},
            field="language",
        )
    return code.strip().lower()


def edit_tournament(
    tournament: Tournament, *, name: Any = None, time_zone: Any = None, language: Any = None
) -> Edited:
    """Rename the tournament and/or move it to another time zone (None leaves either as it is).

    A name or zone changes no filed result: the rounds already under way keep the moment they
    started; a round not yet under way keeps the time its schedule shows on the wall clock (the
    head judge typed it in the zone the tournament had), now in the new zone. Raises Refused
    naming the field."""
    new_name = None if name is None else tournament_name(name)
    new_zone = None if time_zone in (None, "") else known_zone(time_zone)
    new_language = None if language is None else known_language(language)
    said: list[str] = []
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        fields = []
        if new_name is not None and new_name != tournament.name:
            said.append(f"Renamed {tournament.name} to {new_name}.")
            tournament.name = new_name
            fields.append("name")
        if new_zone is not None and new_zone != tournament.time_zone:
            old_zone = tournament.time_zone
            kept = []
            for round_ in Round.objects.select_for_update().filter(tournament=tournament, starts_at__isnull=False):
                if _under_way(round_):
                    continue
                assert round_.starts_at is not None
                moved = _same_wall_clock(round_.starts_at, old_zone, new_zone)
                check_start(moved)
                if moved != round_.starts_at:
                    round_.starts_at = moved
                    round_.save(update_fields=["starts_at"])
                    kept.append(round_.label)
            tournament.time_zone = new_zone
            fields.append("time_zone")
            note = (
                f" {', '.join(kept)} keep{'s' if len(kept) == 1 else ''} {'its' if len(kept) == 1 else 'their'}"
                " scheduled time on the wall clock."
                if kept
                else ""
            )
            said.append(f"Times are now in {zone_label(new_zone)} (was {zone_label(old_zone)}).{note}")
        if new_language is not None and new_language != tournament.language:
            said.append(
                _("Printed sheets and the room screen are now in %(language)s.")
                % {"language": dict(settings.LANGUAGES)[new_language]}
            )
            tournament.language = new_language
            fields.append("language")
        if fields:
            tournament.save(update_fields=fields)
    return Edited(" ".join(said) or "Nothing to change.", changed=bool(fields))


def join_series(tournament: Tournament, series_id: Any, *, user: Any) -> Edited:
    """Make an existing tournament an edition of a series `user` owns, of its format
    (`people.series_for`, `people.may_manage_series`). Refused (409) when the tournament is
    already an edition of another series and has filed results: they count in that series."""
    try:
        series = people.series_for(series_id, format=tournament.format, user=user)
    except people.PeopleRefused as error:
        raise Refused(error.message, field=error.field, status=error.status) from error
    if series is None:
        raise Refused(_("choose the series this tournament is an edition of"), field="series")
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update(of=("self",)).select_related("series").get(pk=tournament.pk)
        if tournament.series_id == series.pk:
            return Edited(_("%(name)s is already an edition of %(name2)s.") % {"name": tournament.name, "name2": series.name}, changed=False)
        filed = _filed(Table.objects.filter(round__tournament=tournament))
        if tournament.series is not None and filed:
            raise Refused(
                ngettext(
                    "%(name)s is an edition of %(series)s with %(filed)s filed game report; moving it would"
                    " take those results out of %(series)s",
                    "%(name)s is an edition of %(series)s with %(filed)s filed game reports; moving it would"
                    " take those results out of %(series)s",
                    filed,
                ) % {"name": tournament.name, "series": tournament.series.name, "filed": filed},
                field="series",
                rule=RULE_FILED,
                status=409,
            )
        tournament.series = series
        tournament.save(update_fields=["series"])
    return Edited(_("%(name)s is an edition of %(name2)s.") % {"name": tournament.name, "name2": series.name})


def edit_round(round_: Round, *, kind: Any = None, starts_at: datetime | None | Any = ...) -> Edited:
    """Change a round's kind and/or scheduled start (`...` leaves the start as it is, None
    clears it). The start changes no result. The kind is refused (409) once the round is
    seated, saying why: a final is seated from the finalists, and each kind has its own clock
    and turn limit, which a filed report was scored under."""
    if kind not in (None, "") and kind not in Round.Kind.values:
        raise Refused(_("unknown round kind %(kind)s; a round is a heat or the final") % {"kind": repr(kind)}, field="kind")
    if starts_at is not ...:
        check_start(starts_at)
    said: list[str] = []
    with transaction.atomic():
        round_ = locked(round_)
        before = round_.label
        fields = []
        if kind not in (None, "") and kind != round_.kind:
            _check_kind_change(round_, kind, before)
            round_.kind = kind
            fields.append("kind")
            said.append(f"{before} is now {round_.label}.")
        if starts_at is not ... and starts_at != round_.starts_at:
            round_.starts_at = starts_at
            fields.append("starts_at")
            if starts_at is None:
                said.append(f"{round_.label} has no scheduled start.")
            else:
                shown = timezone.localtime(starts_at, _zone(round_.tournament))
                said.append(f"{round_.label} starts {shown:%a %-d %b, %H:%M} {shown.tzname()}.")
        if fields:
            round_.save(update_fields=fields)
    return Edited(" ".join(said) or "Nothing to change.", changed=bool(fields))


def _refuse_once_seated(
    round_: Round, *, field: str, filed: Callable[[int], str], seated: Callable[[int], str]
) -> None:
    """Refuse (409) to change a round with a filed report (`filed` says why from their count,
    RULE_FILED) or with tables (`seated` says why from their count, RULE_SEATED)."""
    tables = round_.tables.all()
    count = _filed(tables)
    if count:
        raise Refused(filed(count), field=field, rule=RULE_FILED, status=409)
    count = tables.count()
    if count:
        raise Refused(seated(count), field=field, rule=RULE_SEATED, status=409)


def _check_kind_change(round_: Round, kind: Any, before: str) -> None:
    """Refuse changing a round's kind once a report is filed or the round is seated, or a
    second final."""
    final = round_.kind == Round.Kind.FINAL

    def filed(count: int) -> str:
        return (
            ngettext(
                "%(round)s has %(filed)s filed game report, scored as the final's games (its points,"
                " turn limit and clock); its kind can no longer change",
                "%(round)s has %(filed)s filed game reports, scored as the final's games (its points,"
                " turn limit and clock); its kind can no longer change",
                count,
            )
            if final
            else ngettext(
                "%(round)s has %(filed)s filed game report, scored as a heat's games (its points,"
                " turn limit and clock); its kind can no longer change",
                "%(round)s has %(filed)s filed game reports, scored as a heat's games (its points,"
                " turn limit and clock); its kind can no longer change",
                count,
            )
        ) % {"round": before, "filed": count}

    def seated(count: int) -> str:
        return (
            _("%(before)s is already seated, as the final (a final seats the finalists; each kind has its"
              " own clock and turn limit): change its kind before seating it")
            if final
            else _("%(before)s is already seated, as a heat (a final seats the finalists; each kind has its"
                   " own clock and turn limit): change its kind before seating it")
        ) % {"before": before}

    _refuse_once_seated(round_, field="kind", filed=filed, seated=seated)
    if kind == Round.Kind.FINAL and (
        Round.objects.filter(tournament=round_.tournament, kind=Round.Kind.FINAL).exclude(pk=round_.pk).exists()
    ):
        raise Refused(_("this tournament already has a final"), field="kind", status=409)


def _zone(tournament: Tournament) -> Any:
    return zoneinfo.ZoneInfo(tournament.time_zone)


def delete_round(round_: Round) -> Edited:
    """Delete a round not yet seated (its check-ins go with it); the later rounds, none of them
    seated, take the numbers down by one. Refused (409), saying why, once it or a later round
    is seated: their tables are the record of who played whom, under their names."""
    with transaction.atomic():
        round_ = locked(round_)
        label = round_.label
        _refuse_once_seated(
            round_,
            field="round",
            filed=lambda count: ngettext(
                "%(round)s has %(filed)s filed game report; its results count in the standings and cannot be"
                " deleted",
                "%(round)s has %(filed)s filed game reports; its results count in the standings and cannot be"
                " deleted",
                count,
            ) % {"round": label, "filed": count},
            seated=lambda count: ngettext(
                "%(round)s is already seated (%(count)s table): only a round not yet seated can be deleted",
                "%(round)s is already seated (%(count)s tables): only a round not yet seated can be deleted",
                count,
            ) % {"round": label, "count": count},
        )
        later = list(
            Round.objects.select_for_update().filter(tournament=round_.tournament, number__gt=round_.number)
            .order_by("number")
        )
        seated_later = [r for r in later if r.tables.exists()]
        if seated_later:
            raise Refused(
                _("%(label)s after it is already seated; deleting %(label2)s would rename it") % {"label": seated_later[0].label, "label2": label},
                field="round",
                rule=RULE_SEATED,
                status=409,
            )
        round_.delete()
        for r in later:
            r.number -= 1
            r.save(update_fields=["number"])
    return Edited(_("Deleted %(label)s.") % {"label": label})


def remove_table_judge(tournament: Tournament, username: Any) -> Edited:
    """Take a table judge off the tournament. The tables assigned to them with no game under way
    are opened to every table judge; the filed ones keep their name (they judged them).
    Refused (409) while a table of theirs is in play: assign it to another judge first."""
    name = username.strip() if isinstance(username, str) else ""
    user = tournament.table_judges.filter(username=name).first() if name else None
    if user is None:
        raise Refused(_("%(name)s is not a table judge of %(name2)s") % {"name": repr(name), "name2": tournament.name}, field="username")
    with transaction.atomic():
        theirs = Table.objects.select_for_update().filter(round__tournament=tournament, judge=user, report_filed_at=None)
        playing = [
            f"{t.round.label} table {t.number}"
            for t in theirs.select_related("round").order_by("round__number", "number")
            if t.game_started_at is not None or t.clock_started_at is not None
        ]
        if playing:
            raise Refused(
                ngettext(
                    "%(judge)s judges %(tables)s, in play: assign it to another judge first, so that game keeps"
                    " a judge",
                    "%(judge)s judges %(tables)s, in play: assign them to another judge first, so that game keeps"
                    " a judge",
                    len(playing),
                ) % {"judge": user.get_username(), "tables": ", ".join(playing)},
                field="username",
                status=409,
            )
        freed = theirs.update(judge=None)
        tournament.table_judges.remove(user)
        judges.forget_agreement(tournament, user, judges.Role.TABLE_JUDGE)
    note = f" {freed} table{'s' if freed != 1 else ''} assigned to them {'is' if freed == 1 else 'are'} open to every table judge." if freed else ""
    return Edited(_("%(get_username)s is no longer a table judge of %(name)s.%(note)s") % {"get_username": user.get_username(), "name": tournament.name, "note": note})


__all__ = ["Edited", "delete_round", "edit_round", "edit_tournament", "join_series", "remove_table_judge"]
