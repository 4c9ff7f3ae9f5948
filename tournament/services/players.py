"""Players: register one by one or from a CSV, check in for a round, withdraw, drop, reinstate."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from dune.text_rules import clean_name, duplicate_key, email_key, name_key, probable_duplicates
from foundation.commands import Refused
from tournament import people, registration_mail
from tournament.csv_import import ImportRow, parse_players_csv, validate_player_fields
from tournament.models import CheckIn, NoShow, Player, Round, Tournament


def add_player(
    tournament: Tournament, *, name: str, email: str = "", club: str = "", household: str = ""
) -> Player:
    """Register one player; refuses an empty name, a bad email or a name already registered."""
    problems = validate_player_fields(name, email)
    if problems:
        field_name, message = problems[0]
        raise Refused(message, field=field_name)
    name = clean_name(name)
    if Player.objects.filter(tournament=tournament, name__iexact=name).exists():
        raise Refused(_("%(name)s is already registered in this tournament") % {"name": repr(name)}, field="name")
    holder = registered_emails(tournament).get(email_key(email))
    if holder is not None:
        raise Refused(
            _("%(holder)s is registered with this email already: one person registers once") % {"holder": holder}, field="email"
        )
    try:
        with transaction.atomic():
            player = Player.objects.create(
                tournament=tournament,
                name=name,
                email=(email or "").strip(),
                club=(club or "").strip(),
                household=(household or "").strip(),
            )
            people.link_players([player])
            return player
    except IntegrityError as error:  # a concurrent registration of the same name
        raise Refused(_("%(name)s is already registered in this tournament") % {"name": repr(name)}, field="name") from error


def registered_emails(tournament: Tournament, *, exclude: int | None = None) -> dict[str, str]:
    """The tournament's players' names by their email's `email_key` (players without one left out)."""
    rows = Player.objects.filter(tournament=tournament).exclude(email="").exclude(pk=exclude)
    return {email_key(e): n for n, e in rows.values_list("name", "email")}


def name_twins(tournament: Tournament, name: str, *, exclude: int | None = None) -> list[str]:
    """Registered players whose name equals `name` once normalised and case-folded
    (`text_rules.name_key`): the desk warns, since it may be the same person twice."""
    key = name_key(name)
    players = Player.objects.filter(tournament=tournament).exclude(pk=exclude).values_list("name", flat=True)
    return sorted(n for n in players if name_key(n) == key)


def twin_warning(tournament: Tournament, player: Player) -> str:
    """The desk's warning when the player's name equals another's once normalised ("" if none)."""
    twins = name_twins(tournament, player.name, exclude=player.pk)
    if not twins:
        key = duplicate_key(player.name, player.club)
        same = (
            Player.objects.filter(tournament=tournament).exclude(pk=player.pk).order_by("pk").values_list("name", "club")
        )
        match = next(((n, c) for n, c in same if duplicate_key(n, c) == key), None)
        return capfirst(duplicate_words(*match)) + "." if match else ""
    return (
        f"{player.name} has the same name as {', '.join(twins)} once spelling variants and case are"
        " set aside: check this is not the same person registered twice."
    )


def duplicate_words(name: str, club: str) -> str:
    """The warning for a registration probably of a person already registered as `name` of
    `club` (`text_rules.duplicate_key`)."""
    if club:
        return _(
            "probably the same person as %(name)s (%(club)s): the same name once accents and case are set "
            "aside, and the same club; check they are not registered twice"
        ) % {"name": name, "club": club}
    return _(
        "probably the same person as %(name)s: the same name once accents and case are set aside, and "
        "no club for either; check they are not registered twice"
    ) % {"name": name}


def _flag_probable_duplicates(tournament: Tournament, rows: list[ImportRow]) -> None:
    """Warn on each accepted row that is probably a registered player, or an earlier row, again."""
    known: dict[tuple[str, str], tuple[str, str]] = {}
    for name, club in Player.objects.filter(tournament=tournament).values_list("name", "club"):
        known.setdefault(duplicate_key(name, club), (name, club))
    for row in rows:
        if not row.ok or not row.name:
            continue
        key = duplicate_key(row.name, row.club)
        if key in known:
            name, club = known[key]
            row.probable_duplicates.append(name)
            row.warnings.append(duplicate_words(name, club))
        else:
            known[key] = (row.name, row.club)


def probable_duplicate_groups(tournament: Tournament) -> list[list[Player]]:
    """The tournament's players in groups that are probably one person each (the desk lists them)."""
    players = {p.pk: p for p in Player.objects.filter(tournament=tournament).order_by("created_at", "pk")}
    groups = probable_duplicates((p.pk, p.name, p.club) for p in players.values())
    return [[players[pk] for pk in group] for group in groups]


def preview_import(tournament: Tournament, text: str) -> list[ImportRow]:
    """Every CSV row with the reasons it would be refused (duplicate, empty name, bad email),
    a warning for a name equal to a registered player's once normalised, and the existing
    person its email would link it to (tournament.people)."""
    names = list(Player.objects.filter(tournament=tournament).values_list("name", flat=True))
    taken = {n.casefold() for n in names}
    rows = parse_players_csv(
        text, registered=taken, similar={name_key(n): n for n in names}, emails=registered_emails(tournament)
    )
    _flag_probable_duplicates(tournament, rows)
    known = people.people_with_emails(r.email for r in rows if r.email)
    for row in rows:
        person = known.get(people.email_key(row.email)) if row.email else None
        if person is not None:
            row.person, row.person_name = person.pk, person.name
    return rows


def import_players(
    tournament: Tournament,
    text: str,
    *,
    skip_refused: bool = False,
    separate: Collection[int] = (),
    user: Any = None,
) -> tuple[list[Player], list[ImportRow]]:
    """Register the CSV's players in one transaction.

    Refuses the whole file (nothing saved) if any row is refused, unless ``skip_refused``:
    then the good rows are registered and the refused ones listed. The rows whose line is in
    ``separate`` are not linked to the person their email names: the head judge decided they
    are someone else (each becomes a person of their own, the change recorded with `user`).
    """
    rows = preview_import(tournament, text)
    refused = [r for r in rows if r.errors]
    if not rows:
        raise Refused(_("the CSV has no player rows (expected columns: name, email, club)"), field="file")
    if refused and not skip_refused:
        raise Refused(
            _("%(value)s of %(value2)s rows are refused; fix them or import the others explicitly") % {"value": len(refused), "value2": len(rows)},
            field="file",
            extra={"rows": [r.to_dict() for r in rows]},
        )
    good = [r for r in rows if not r.errors]
    try:
        with transaction.atomic():
            created = Player.objects.bulk_create(
                Player(tournament=tournament, name=r.name, email=r.email, club=r.club) for r in good
            )
            people.link_players(created)
            for row, player in zip(good, created, strict=True):
                if row.line in separate and row.person is not None:
                    people.unlink_player(
                        player,
                        user=user,
                        reason=f"CSV import, line {row.line}: not {row.person_name}, whose email it shares",
                    )
    except IntegrityError as error:
        raise Refused(
            _("another registration with one of these names arrived meanwhile; preview again"), field="file"
        ) from error
    return created, rows


def check_in(round_: Round, player: Player) -> CheckIn:
    """Check a player in for a round (WBC: a player may enter any number of heats)."""
    if player.tournament_id != round_.tournament_id:
        raise Refused(_("%(player)s is not registered in %(tournament)s") % {"player": player, "tournament": round_.tournament}, field="player")
    if player.status != Player.Status.ACTIVE:
        raise Refused(
            _("%(player)s has %(lower)s and cannot check in") % {"player": player, "lower": player.get_status_display().lower()}, field="player"
        )
    with transaction.atomic():
        checkin, _created = CheckIn.objects.get_or_create(round=round_, player=player)
        NoShow.objects.filter(round=round_, player=player).delete()  # they came after all
        # A player who checks in themself (or was registered before people existed) is linked now.
        people.link_players([player])
    return checkin


def check_in_all(round_: Round) -> int:
    """Check every active player of the round's tournament in for it; answers how many are
    checked in now."""
    with transaction.atomic():
        active = list(Player.objects.filter(tournament_id=round_.tournament_id, status=Player.Status.ACTIVE))
        CheckIn.objects.bulk_create([CheckIn(round=round_, player=p) for p in active], ignore_conflicts=True)
        people.link_players(active)
    return len(active)


def undo_check_in(round_: Round, player: Player) -> None:
    CheckIn.objects.filter(round=round_, player=player).delete()


def set_status(player: Player, status: str) -> Player:
    """Withdraw (registration cancelled) or drop (leaves after playing) a player, or reinstate them.

    A player who leaves is also checked out of every round not yet published.
    """
    if status not in Player.Status.values:
        raise Refused(_("unknown status %(status)s; a player is %(value)s") % {"status": repr(status), "value": ', '.join(Player.Status.values)}, field="status")
    with transaction.atomic():
        left = player.status == Player.Status.ACTIVE and status != Player.Status.ACTIVE
        player.status = status
        player.save(update_fields=["status"])
        if status != Player.Status.ACTIVE:
            CheckIn.objects.filter(player=player, round__state=Round.State.PLANNED).delete()
        if left:
            fill_places(player.tournament)
    return player


def fill_places(tournament: Tournament) -> list[Player]:
    """Move players up from the waiting list, first registered first, while the tournament
    has a place (its `capacity`; every one of them without a capacity). Answers who moved up;
    each is told by email."""
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        fresh = Tournament.objects.get(pk=tournament.pk)
        waiting = Player.objects.filter(tournament=fresh, status=Player.Status.WAITING).order_by("created_at", "pk")
        if fresh.capacity is not None:
            active = Player.objects.filter(tournament=fresh, status=Player.Status.ACTIVE).count()
            waiting = waiting[: max(fresh.capacity - active, 0)]
        moved = list(waiting)
        for player in moved:
            player.status = Player.Status.ACTIVE
            player.save(update_fields=["status"])
            registration_mail.send_moved_up(player)
    return moved


def checked_in_ids(round_: Round) -> list[int]:
    return list(
        CheckIn.objects.filter(round=round_, player__status=Player.Status.ACTIVE)
        .order_by("player_id")
        .values_list("player_id", flat=True)
    )


def player_ids(round_: Round, players: Iterable[Any], field_name: str = "players") -> list[int]:
    """Validate a list of player ids: integers, registered in this tournament, still active."""
    ids: list[int] = []
    for p in players:
        if isinstance(p, bool) or not isinstance(p, int):
            raise Refused(_("player ids are integers, got %(p)s") % {"p": repr(p)}, field=field_name)
        ids.append(p)
    rows = Player.objects.filter(tournament_id=round_.tournament_id, pk__in=ids).values_list("pk", "status", "name")
    known = {pk: (status, name) for pk, status, name in rows}
    unknown = [p for p in ids if p not in known]
    if unknown:
        listed = ", ".join(f"#{p}" for p in unknown)
        raise Refused(_("not players of this tournament: %(listed)s") % {"listed": listed}, field=field_name)
    if len(set(ids)) != len(ids):
        twice = sorted({p for p in ids if ids.count(p) > 1})
        raise Refused(
            _("players listed twice: %(names_of)s") % {"names_of": names_of(twice, known)}, field=field_name, rule="one table per player per round"
        )
    gone = [p for p in ids if known[p][0] != Player.Status.ACTIVE]
    if gone:
        raise Refused(_("players who withdrew or dropped cannot be seated: %(names_of)s") % {"names_of": names_of(gone, known)}, field=field_name)
    return ids


def names_of(ids: Iterable[int], known: dict[int, tuple[str, str]] | None = None) -> str:
    """Players by name, in the order given ("Ann Smith, Bob Jones"), for messages people read."""
    ids = list(ids)
    if known is None:
        known = {pk: ("", name) for pk, name in Player.objects.filter(pk__in=ids).values_list("pk", "name")}
    return ", ".join(known[p][1] if p in known else f"#{p}" for p in ids)
