"""Online registration: the one home of a registration made by the registrant themself.

A registrant sends the fields the head judge asks for (name, email, club, an optional note)
while the tournament's registration is open; the platform mails them a link that confirms
their email. Confirming makes them a player of the tournament, the same row the desk and the
CSV import make (`services.add_player`): active while the event has a place (`capacity`), on
the waiting list past it when the head judge keeps one, refused when not. When an active
player leaves (the desk, the private link), the first player of the waiting list moves up
(`services.fill_places`). Each step is told by email (`tournament.registration_mail`).

One email is one person (`dune.text_rules.email_key`, the rule of the desk and the CSV): an
email already registered in the tournament, in any case, is refused; a name equal to another
registration's once accents and case are set aside is accepted and flagged for the head judge.
Refusals are `Refused` naming the field; nothing is written (or sent) then.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from dune.text_rules import clean_name, email_key, search_key, text_problem
from foundation.core_words import core_refusal
from tournament import registration_mail, services
from tournament.csv_import import MAX_NAME, validate_player_fields
from tournament.models import Player, Registration, Tournament
from tournament.private_links import digest
from tournament.registration_mail import moment_words
from tournament.services import Refused

#: How long a confirmation link opens after the registration was sent.
CONFIRM_HOURS = 48
TOKEN_BYTES = 24
MAX_TOKEN = 64
MAX_NOTE = 1000
MAX_CLUB = 120


def closed_words(tournament: Tournament, now: datetime) -> str:
    """Why registration is closed now, in words ("" while it is open)."""
    opens, closes = tournament.registration_opens, tournament.registration_closes
    if opens is None or closes is None:
        return _("Online registration is not open for %(name)s; register at the desk.") % {"name": tournament.name}
    if now < opens:
        return _("Online registration opens on %(when)s.") % {"when": moment_words(tournament, opens)}
    if now >= closes:
        return _("Online registration closed on %(when)s; ask the head judge or register at the desk.") % {
            "when": moment_words(tournament, closes)
        }
    return ""


def active_count(tournament: Tournament) -> int:
    return Player.objects.filter(tournament=tournament, status=Player.Status.ACTIVE).count()


def is_full(tournament: Tournament) -> bool:
    return tournament.capacity is not None and active_count(tournament) >= tournament.capacity


def full_words(tournament: Tournament) -> str:
    return _("%(name)s is full: all %(capacity)s places are taken and it keeps no waiting list.") % {
        "name": tournament.name, "capacity": tournament.capacity,
    }


def _probable_duplicate(tournament: Tournament, name: str) -> str:
    """Who the registration is probably a second registration of, in words ("" for nobody):
    a player or registration of the same name once accents and case are set aside
    (`text_rules.search_key`, what `duplicate_key` compares names by), whatever their club."""
    key = search_key(name)
    rows = list(Player.objects.filter(tournament=tournament).values_list("name", "club"))
    rows += list(
        Registration.objects.filter(tournament=tournament, player__isnull=True)
        .exclude(state=Registration.State.REFUSED).values_list("name", "club")
    )
    same = sorted({n for n, _club in rows if search_key(n) == key})
    if not same:
        return ""
    return _("probably the same person as %(names)s, registered with another email") % {"names": ", ".join(same)}


def _refuse_taken(tournament: Tournament, *, key: str, name: str, now: datetime) -> None:
    """Refuse an email (by `email_key`) or a name already registered in the tournament; an
    earlier registration of the email whose link expired unused is deleted instead."""
    if any(email_key(e) == key for e in Player.objects.filter(tournament=tournament).values_list("email", flat=True)):
        raise Refused(
            _("this email is registered for %(name)s already: one person registers once") % {"name": tournament.name},
            field="email", status=409,
        )
    earlier = Registration.objects.filter(tournament=tournament, email_key=key).first()
    if earlier is not None:
        if earlier.player_id is None and earlier.confirmed_at is None and earlier.expires_at <= now:
            earlier.delete()  # its link expired unused: the registrant registers again
        else:
            raise Refused(
                _("this email is registered for %(name)s already: one person registers once; "
                  "look for the confirmation message in your mailbox") % {"name": tournament.name},
                field="email", status=409,
            )
    taken = Player.objects.filter(tournament=tournament, name__iexact=name).exists() or (
        Registration.objects.filter(tournament=tournament, name__iexact=name, player__isnull=True)
        .exclude(state=Registration.State.REFUSED).exists()
    )
    if taken:
        raise Refused(
            _("%(name)s is registered already under another email; if that is you, ask the head judge, "
              "otherwise add a middle initial to tell you apart") % {"name": name},
            field="name", status=409,
        )


def register(
    tournament: Tournament, *, name: str, email: str, club: str = "", note: str = "", now: datetime | None = None
) -> tuple[Registration, str]:
    """A new registration waiting for its email's confirmation, and the token of the link
    that confirms it (mailed to the registrant).

    Raises Refused: registration closed (409, field "registration"), a full event without a
    waiting list (409, field "capacity"), an empty or bad name or email, a long club or note,
    a name or an email (by `email_key`) already registered in the tournament.
    """
    now = now or timezone.now()
    closed = closed_words(tournament, now)
    if closed:
        raise Refused(closed, field="registration", status=409)
    problems = validate_player_fields(name, email)
    if not (email or "").strip():
        problems.insert(0, ("email", _("the email is required: the confirmation link is sent to it")))
    if problems:
        field, message = problems[0]
        raise Refused(message, field=field)
    name, email, club, note = clean_name(name), email.strip(), (club or "").strip(), (note or "").strip()
    if text_problem(club):
        raise Refused(_("the club %(problem)s") % {"problem": core_refusal(text_problem(club) or "")}, field="club")
    if text_problem(note):
        raise Refused(_("the note %(problem)s") % {"problem": core_refusal(text_problem(note) or "")}, field="note")
    if len(club) > MAX_CLUB:
        raise Refused(_("the club has at most %(n)s characters") % {"n": MAX_CLUB}, field="club")
    if len(note) > MAX_NOTE:
        raise Refused(_("the note has at most %(n)s characters") % {"n": MAX_NOTE}, field="note")
    key = email_key(email)
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        _refuse_taken(tournament, key=key, name=name, now=now)
        if is_full(tournament) and not tournament.waiting_list:
            raise Refused(full_words(tournament), field="capacity", status=409)
        token = secrets.token_urlsafe(TOKEN_BYTES)
        registration = Registration.objects.create(
            tournament=tournament, name=name[:MAX_NAME], email=email, email_key=key, club=club, note=note,
            digest=digest(token), expires_at=now + timedelta(hours=CONFIRM_HOURS),
            probable_duplicate=_probable_duplicate(tournament, name),
        )
        registration_mail.send_confirmation(registration, token)
    return registration, token


def registration_for(token: str) -> Registration | None:
    if not isinstance(token, str) or not token or len(token) > MAX_TOKEN:
        return None
    return Registration.objects.filter(digest=digest(token)).select_related("tournament").first()


def confirm(token: str, *, now: datetime | None = None) -> Registration:
    """The registrant confirms their email: they become a player of the tournament, active
    while it has a place, else on its waiting list (or refused without one).

    Raises Refused (field "token"): an unknown link (404), a link used already (409), an
    expired one (410); nothing is changed then.
    """
    now = now or timezone.now()
    found = registration_for(token)
    if found is None:
        raise Refused(_("This confirmation link does not open any registration: it is mistyped or was "
                        "replaced by a newer registration."), field="token", status=404)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=found.tournament_id)
        registration = Registration.objects.select_for_update().get(pk=found.pk)
        if registration.confirmed_at is not None or registration.state != Registration.State.UNCONFIRMED:
            raise Refused(_("This confirmation link was used already: your email is confirmed. Your "
                            "registration stands as it is; open your private link to see it."),
                          field="token", status=409)
        if registration.expires_at <= now:
            raise Refused(_("This confirmation link expired on %(when)s; register again to get a new one.")
                          % {"when": moment_words(tournament, registration.expires_at)}, field="token", status=410)
        registration.confirmed_at = now
        if is_full(tournament) and not tournament.waiting_list:
            registration.state = Registration.State.REFUSED
            registration.refusal = full_words(tournament)
            registration.save(update_fields=["confirmed_at", "state", "refusal"])
            return registration
        waits = is_full(tournament) or Player.objects.filter(
            tournament=tournament, status=Player.Status.WAITING
        ).exists()
        player = services.add_player(
            tournament, name=registration.name, email=registration.email, club=registration.club
        )
        if waits:
            player.status = Player.Status.WAITING
            player.save(update_fields=["status"])
        registration.player = player
        registration.state = state_of(registration)
        registration.save(update_fields=["confirmed_at", "player", "state"])
        registration_mail.send_registered(player)
    return registration


def state_of(registration: Registration) -> str:
    """The registration's state: stored until it made a player, the player's status after."""
    player = registration.player
    if player is None:
        return registration.state
    if player.status == Player.Status.ACTIVE:
        return Registration.State.REGISTERED
    if player.status == Player.Status.WAITING:
        return Registration.State.WAITING
    return Registration.State.WITHDRAWN


def registrations(tournament: Tournament) -> list[dict[str, Any]]:
    """Everyone who registered, by any door, in order (the head judge's list): each online
    registration with its state, and the players the desk or the CSV registered."""
    rows: list[dict[str, Any]] = []
    online = Registration.objects.filter(tournament=tournament).select_related("player").order_by("created_at", "pk")
    made = set()
    for r in online:
        made.add(r.player_id)
        rows.append({
            "id": r.pk, "name": r.name, "email": r.email, "club": r.club, "note": r.note, "state": state_of(r),
            "source": "online", "player": r.player_id, "probable_duplicate": r.probable_duplicate,
            "refusal": r.refusal, "created_at": r.created_at.isoformat(),
            "confirmed_at": r.confirmed_at.isoformat() if r.confirmed_at else None,
        })
    for p in Player.objects.filter(tournament=tournament).exclude(pk__in=[m for m in made if m]).order_by("created_at", "pk"):
        state = (Registration.State.REGISTERED if p.status == Player.Status.ACTIVE
                 else Registration.State.WAITING if p.status == Player.Status.WAITING
                 else Registration.State.WITHDRAWN)
        rows.append({
            "id": None, "name": p.name, "email": p.email, "club": p.club, "note": "", "state": state,
            "source": "desk", "player": p.pk, "probable_duplicate": "", "refusal": "",
            "created_at": p.created_at.isoformat(), "confirmed_at": None,
        })
    return rows


#: A registration setting the request leaves as it is: plain text, so the command's key is
#: checked against it like any field (a setting itself is never text once parsed).
UNCHANGED: Any = "unchanged"


def set_registration(
    tournament: Tournament, *, opens: Any = UNCHANGED, closes: Any = UNCHANGED, capacity: Any = UNCHANGED,
    waiting_list: Any = UNCHANGED,
) -> str:
    """Change the tournament's online registration (the fields given; None empties one) and
    answer what was done in words. A larger capacity moves the waiting list up at once.

    Raises Refused naming the field: a close before the opening, a capacity below 1.
    """
    new_opens = tournament.registration_opens if opens is UNCHANGED else opens
    new_closes = tournament.registration_closes if closes is UNCHANGED else closes
    if new_opens is not None and new_closes is not None and new_closes <= new_opens:
        raise Refused(_("registration closes after it opens: %(closes)s is not after %(opens)s") % {
            "closes": moment_words(tournament, new_closes), "opens": moment_words(tournament, new_opens)},
            field="registration_closes")
    if capacity is not UNCHANGED and capacity is not None and capacity < 1:
        raise Refused(_("the capacity is at least 1 player (empty: no limit)"), field="capacity")
    with transaction.atomic():
        tournament.registration_opens, tournament.registration_closes = new_opens, new_closes
        if capacity is not UNCHANGED:
            tournament.capacity = capacity
        if waiting_list is not UNCHANGED:
            tournament.waiting_list = bool(waiting_list)
        tournament.save(update_fields=["registration_opens", "registration_closes", "capacity", "waiting_list"])
        moved = services.fill_places(tournament)
    if new_opens is None or new_closes is None:
        said = _("Online registration is closed.")
    else:
        said = _("Online registration opens %(opens)s and closes %(closes)s.") % {
            "opens": moment_words(tournament, new_opens), "closes": moment_words(tournament, new_closes)}
    if moved:
        said += " " + _("Moved up from the waiting list: %(names)s.") % {"names": ", ".join(p.name for p in moved)}
    return said
