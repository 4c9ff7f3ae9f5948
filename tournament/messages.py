"""The messages a tournament sends its players, composed when a command causes them
(`foundation.effects`) and queued in the command's transaction (`mail.outbox`):

- the seating, when a round is published: "Heat 2: table 4, seat 3, starts 10:00 EDT", the
  faction, and the player's private link;
- the qualification for the final, when the final is seated (once per player);
- the event report, when the final is closed.

Each is plain text and HTML, in the tournament's language and time zone; players without an
email are skipped (and the outbox skips an address that asked to stop).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _

from dune.text_rules import email_key
from foundation import effects
from mail.outbox import Outgoing, queue_messages, recipients
from tournament import private_links
from tournament.models import Player, Round, Seat, Tournament
from tournament.presenters import faction_label

SEATING = "seating"
FINAL_QUALIFIED = "final_qualified"
EVENT_REPORT = "event_report"


@contextmanager
def _in_tournament_language(tournament: Tournament) -> Iterator[None]:
    with translation.override(tournament.language or settings.LANGUAGE_CODE):
        yield


def round_words(round_: Round) -> str:
    """What a message calls the round, in the active language: "Final" or "Heat 2"."""
    if round_.kind == Round.Kind.FINAL:
        return _("Final")
    return _("Heat %(number)s") % {"number": round_.number}


def local_time(moment: datetime, tournament: Tournament) -> str:
    """A moment as the venue's clock reads it, naming the zone: "10:00 EDT"."""
    return moment.astimezone(ZoneInfo(tournament.time_zone)).strftime("%H:%M %Z")


def _link(path: str) -> str:
    return f"{settings.SITE_URL}{path}"


def _private_links(players: list[Player]) -> dict[int, str]:
    """Each player's private link as an absolute address, by player id (drawn when missing);
    the URL is reversed once for them all."""
    pattern = _link(reverse("me", args=["TOKEN"]))
    return {pk: pattern.replace("TOKEN", token) for pk, token in private_links.links_for(players).items()}


def _page(paragraphs: list[str]) -> tuple[str, str]:
    """Plain text and HTML of the same paragraphs (each a plain string)."""
    text = "\n\n".join(paragraphs)
    html = format_html_join("\n", "<p>{}</p>", ((p,) for p in paragraphs))
    return text, str(html)


def _with_link(paragraphs: list[str], words: str, url: str) -> tuple[str, str]:
    text, html = _page(paragraphs)
    link = format_html('<p><a href="{}">{}</a></p>', url, words)
    return f"{text}\n\n{words}: {url}", f"{html}\n{link}"


def seating_messages(round_: Round) -> list[Outgoing]:
    """Each seated player's seating message for a published round."""
    tournament = round_.tournament
    seats = list(
        Seat.objects.filter(round=round_).exclude(player__email="").select_related("player", "table").order_by("table__number", "seat")
    )
    links = _private_links([seat.player for seat in seats])
    found: list[Outgoing] = []
    with _in_tournament_language(tournament):
        name = round_words(round_)
        for seat in seats:
            facts = {"round": name, "table": seat.table.number, "seat": seat.seat}
            if round_.starts_at is not None:
                where = _("%(round)s: table %(table)s, seat %(seat)s, starts %(time)s") % {
                    **facts, "time": local_time(round_.starts_at, tournament)}
            else:
                where = _("%(round)s: table %(table)s, seat %(seat)s") % facts
            paragraphs = [where]
            if seat.faction:
                paragraphs.append(_("Your faction: %(faction)s") % {"faction": faction_label(seat.faction)})
            url = links[seat.player_id]
            text, html = _with_link(paragraphs, _("Your table, clock and results"), url)
            found.append(Outgoing(
                to=seat.player.email, kind=SEATING, tournament_id=tournament.pk, text=text, html=html,
                subject=_("%(tournament)s: %(where)s") % {"tournament": tournament.name, "where": where},
            ))
    return found


def qualification_messages(round_: Round) -> list[Outgoing]:
    """The final's seated players not told yet: they qualified."""
    tournament = round_.tournament
    told = recipients(kind=FINAL_QUALIFIED, tournament_id=tournament.pk)
    players = [
        seat.player for seat in Seat.objects.filter(round=round_).exclude(player__email="").select_related("player")
    ]
    players = [p for p in players if email_key(p.email) not in told]
    links = _private_links(players)
    found: list[Outgoing] = []
    with _in_tournament_language(tournament):
        for player in players:
            url = links[player.pk]
            text, html = _with_link([
                _("You qualified for the final of %(tournament)s.") % {"tournament": tournament.name},
                _("Your table and seat come in another message once the final's seating is published."),
            ], _("Your event"), url)
            found.append(Outgoing(
                to=player.email, kind=FINAL_QUALIFIED, tournament_id=tournament.pk, text=text, html=html,
                subject=_("%(tournament)s: you are in the final") % {"tournament": tournament.name},
            ))
    return found


def event_report_messages(tournament: Tournament) -> list[Outgoing]:
    """Every player who played: the event is over, its report is ready."""
    players = list(
        Player.objects.filter(tournament=tournament, seats__isnull=False).exclude(email="").distinct().order_by("pk")
    )
    found: list[Outgoing] = []
    with _in_tournament_language(tournament):
        url = _link(reverse("insights-event-report", args=[tournament.pk]))
        for player in players:
            text, html = _with_link([
                _("%(tournament)s is over. Thank you for playing, %(name)s.") % {
                    "tournament": tournament.name, "name": player.name},
                _("The event report has the final standings, the factions' results and the games' figures."),
            ], _("The event report"), url)
            found.append(Outgoing(
                to=player.email, kind=EVENT_REPORT, tournament_id=tournament.pk, text=text, html=html,
                subject=_("%(tournament)s: the event report") % {"tournament": tournament.name},
            ))
    return found


def _round(round_id: int) -> Round | None:
    return Round.objects.select_related("tournament").filter(pk=round_id).first()


def round_published(*, round_id: int, **_: Any) -> None:
    if (round_ := _round(round_id)) is not None:
        queue_messages(seating_messages(round_))


def final_seated(*, round_id: int, **_: Any) -> None:
    if (round_ := _round(round_id)) is not None:
        queue_messages(qualification_messages(round_))


def round_closed(*, round_id: int, **_: Any) -> None:
    round_ = _round(round_id)
    if round_ is not None and round_.kind == Round.Kind.FINAL:
        queue_messages(event_report_messages(round_.tournament))


def connect() -> None:
    # In the command's transaction: the messages are written with the change they tell of.
    effects.on(effects.ROUND_PUBLISHED, round_published, in_transaction=True)
    effects.on(effects.FINAL_SEATED, final_seated, in_transaction=True)
    effects.on(effects.ROUND_CLOSED, round_closed, in_transaction=True)
