"""The messages online registration sends, through the mail app's outbox: the email's
confirmation link; registered, or on the waiting list; moved up from the waiting list.

Each is plain text and HTML, in the tournament's language, its times in the tournament's
zone, and (once the registrant is a player) carries their private link to "my event"
(`/me/{token}/`). Each is queued in the caller's transaction: a refused write sends nothing.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.html import escape
from django.utils.translation import gettext as _

from mail.outbox import queue_message
from tournament import private_links
from tournament.models import Player, Registration, Tournament
from tournament.time_zones import zone_label

CONFIRM = "registration_confirm"
REGISTERED = "registration_accepted"
WAITING = "registration_waiting"
MOVED_UP = "registration_moved_up"


def moment_words(tournament: Tournament, moment: datetime) -> str:
    """A moment in the tournament's time zone, naming it ("29 Nov 2026, 10:00 (Europe/Madrid)")."""
    local = timezone.localtime(moment, ZoneInfo(tournament.time_zone))
    return f"{date_format(local, 'DATETIME_FORMAT')} ({zone_label(tournament.time_zone)})"


def confirm_path(token: str) -> str:
    return f"/register/confirm/{token}/"


def _url(path: str) -> str:
    return f"{settings.SITE_URL}{path}"


def _send(tournament: Tournament, *, to: str, kind: str, subject: str, lines: list[str], link: str, link_words: str) -> None:
    """One message: its paragraphs, then the link, as text and as HTML."""
    text = "\n\n".join([*lines, f"{link_words}\n{link}"])
    html = "".join(f"<p>{escape(line)}</p>" for line in lines)
    html += f'<p><a href="{escape(link)}">{escape(link_words)}</a><br>{escape(link)}</p>'
    queue_message(to=to, kind=kind, subject=subject, text=text, html=html, tournament_id=tournament.pk)


def send_confirmation(registration: Registration, token: str) -> None:
    """The link that confirms the registrant's email, and until when it opens."""
    tournament = registration.tournament
    with translation.override(tournament.language):
        _send(
            tournament, to=registration.email, kind=CONFIRM,
            subject=_("Confirm your email for %(tournament)s") % {"tournament": tournament.name},
            lines=[
                _("Hello %(name)s,") % {"name": registration.name},
                _("you registered for %(tournament)s. Open the link below to confirm your email and complete your "
                  "registration; it opens until %(when)s.") % {
                    "tournament": tournament.name, "when": moment_words(tournament, registration.expires_at)},
                _("If you did not register, ignore this message: nothing happens without the link."),
            ],
            link=_url(confirm_path(token)), link_words=_("Confirm my email"),
        )


def _my_event(player: Player) -> str:
    return _url(f"/me/{private_links.link_for(player).token}/")


def waiting_place(player: Player) -> int:
    """The player's place on the waiting list (1: the next to move up)."""
    ahead = Player.objects.filter(tournament_id=player.tournament_id, status=Player.Status.WAITING).filter(
        created_at__lte=player.created_at
    ).exclude(created_at=player.created_at, pk__gt=player.pk)
    return ahead.count()


def send_registered(player: Player) -> None:
    """Registered (a place is theirs), or on the waiting list with their place on it."""
    tournament = player.tournament
    with translation.override(tournament.language):
        if player.status == Player.Status.WAITING:
            subject = _("You are on the waiting list for %(tournament)s") % {"tournament": tournament.name}
            news = _("%(tournament)s is full: you are number %(place)s on its waiting list. You move up in order "
                     "when a place frees, and we tell you by email.") % {
                "tournament": tournament.name, "place": waiting_place(player)}
            kind = WAITING
        else:
            subject = _("You are registered for %(tournament)s") % {"tournament": tournament.name}
            news = _("Your email is confirmed and a place at %(tournament)s is yours.") % {"tournament": tournament.name}
            kind = REGISTERED
        _send(
            tournament, to=player.email, kind=kind, subject=subject,
            lines=[_("Hello %(name)s,") % {"name": player.name}, news,
                   _("Your private link opens your event on your phone without a password: your table and seat "
                     "when a round is published, your results and standing. Keep it to yourself.")],
            link=_my_event(player), link_words=_("Open my event"),
        )


def send_moved_up(player: Player) -> None:
    """A place freed and is now theirs."""
    tournament = player.tournament
    with translation.override(tournament.language):
        _send(
            tournament, to=player.email, kind=MOVED_UP,
            subject=_("A place at %(tournament)s is yours") % {"tournament": tournament.name},
            lines=[_("Hello %(name)s,") % {"name": player.name},
                   _("a place freed at %(tournament)s and you moved up from the waiting list: you are registered.")
                   % {"tournament": tournament.name},
                   _("Your private link opens your event on your phone without a password.")],
            link=_my_event(player), link_words=_("Open my event"),
        )
