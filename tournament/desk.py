"""The registration desk: editing a player (every change recorded), searching the roster, and
players checking themselves in by their badge's QR code or personal link while the head judge
has self check-in open for a round.

Refusals are `Refused` (tournament.services) naming the field; nothing is written then.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _

from dune.text_rules import clean_name, name_matches
from tournament import people, private_links
from tournament.csv_import import validate_player_fields
from tournament.models import CheckIn, Player, PlayerChange, Round, Tournament
from tournament.presenters import round_label
from tournament.services import Refused, check_in

#: The personal link's secret: derived from the player's id with the site's secret key, so a
#: link cannot be guessed from another player's and needs no column of its own.
TOKEN_SALT = "tournament.desk.self-check-in"
TOKEN_LENGTH = 24


def search_players(tournament: Tournament, query: str) -> QuerySet[Player]:
    """The tournament's players whose name, club or email contains every word of `query`,
    accents and case set aside (`dune.text_rules.name_matches`, the one test of every search)."""
    players = tournament.players.order_by("name", "id")
    if not (query or "").split():
        return players
    rows = players.values_list("pk", "name", "club", "email")
    return players.filter(pk__in=[pk for pk, *texts in rows if name_matches(query, *texts)])


def players_named(tournament_id: int, query: str) -> list[str]:
    """The names of the tournament's players whose name matches `query` (`name_matches`)."""
    names = Player.objects.filter(tournament_id=tournament_id).order_by("name").values_list("name", flat=True)
    return [n for n in names if name_matches(query, n)]


def why_not_found(tournament_id: int, query: str, *, is_not: str, are_not: str) -> str:
    """The true reason a search of a page found nobody: nobody of the tournament has that name,
    or the players who have it are not on this page (`is_not`/`are_not`: "has no filed game
    yet"/"have no filed game yet")."""
    names = players_named(tournament_id, query)
    if not names:
        return f"No player of this tournament is named “{query}”."
    if len(names) == 1:
        return f"{names[0]} {is_not}."
    return f"{', '.join(names)} {are_not}."


def update_player(
    player: Player,
    *,
    name: str,
    email: str = "",
    club: str = "",
    household: str = "",
    keep_apart: Iterable[int] = (),
    user: Any = None,
) -> dict[str, list[Any]]:
    """Change a player's registration and record what changed; answers {field: [before, after]}.

    Raises Refused (field name, email, club, household or keep_apart) for an empty or long name,
    a bad email, a name another player has, or a keep-apart choice outside the tournament.

    Long because each editable field is checked and compared in turn, so the record of what
    changed lists exactly the fields that did.
    """
    problems = validate_player_fields(name, email)
    if problems:
        field, message = problems[0]
        raise Refused(message, field=field)
    name = clean_name(name)
    email, club, household = (v.strip() for v in (email or "", club or "", household or ""))
    for field, value in (("club", club), ("household", household)):
        if len(value) > 120:
            raise Refused(_("the %(field)s has at most 120 characters") % {"field": field}, field=field)
    apart_ids = sorted({int(p) for p in keep_apart})
    others = dict(
        Player.objects.filter(tournament_id=player.tournament_id, pk__in=apart_ids)
        .exclude(pk=player.pk)
        .values_list("pk", "name")
    )
    if len(others) != len(apart_ids):
        raise Refused(_("keep apart only from other players of this tournament"), field="keep_apart")
    if (
        Player.objects.filter(tournament_id=player.tournament_id, name__iexact=name)
        .exclude(pk=player.pk)
        .exists()
    ):
        raise Refused(_("%(name)s is already registered in this tournament") % {"name": repr(name)}, field="name")
    before_apart = sorted(player.keep_apart.values_list("name", flat=True))
    after_apart = sorted(others.values())
    wanted = {"name": name, "email": email, "club": club, "household": household}
    changes: dict[str, list[Any]] = {
        field: [getattr(player, field), value]
        for field, value in wanted.items()
        if getattr(player, field) != value
    }
    if before_apart != after_apart:
        changes["keep_apart"] = [before_apart, after_apart]
    if not changes:
        return changes
    try:
        with transaction.atomic():
            for field, value in wanted.items():
                setattr(player, field, value)
            player.save(update_fields=list(wanted))
            player.keep_apart.set(others.keys())
            PlayerChange.objects.create(
                player=player, user=user if getattr(user, "pk", None) else None, changes=changes
            )
            if "email" in changes:  # the same address is the same person across tournaments
                people.follow_email(player, user=user)
    except IntegrityError as error:  # a concurrent registration under the same name
        raise Refused(_("%(name)s is already registered in this tournament") % {"name": repr(name)}, field="name") from error
    except people.PeopleRefused as refused:
        raise Refused(refused.message, field="email") from refused
    return changes


def check_in_token(player: Player) -> str:
    return salted_hmac(TOKEN_SALT, str(player.pk)).hexdigest()[:TOKEN_LENGTH]


def token_matches(player: Player, token: str) -> bool:
    """The check-in link's token, or the player's private link (`tournament.private_links`)."""
    return constant_time_compare(check_in_token(player), token or "") or private_links.matches(player, token)


def open_round(tournament: Tournament) -> Round | None:
    """The round players may check themselves in for now, if the head judge opened one."""
    return tournament.rounds.filter(self_check_in=True, state=Round.State.PLANNED).order_by("number").first()


def set_self_check_in(round_: Round, *, open: bool) -> Round:
    """Open or close self check-in for a round (only one not yet published)."""
    if open and round_.state != Round.State.PLANNED:
        raise Refused(
            _("%(round_label)s is %(lower)s: check-in is over") % {"round_label": round_label(round_), "lower": round_.get_state_display().lower()}, field="round"
        )
    with transaction.atomic():
        if open:
            Round.objects.filter(tournament_id=round_.tournament_id).exclude(pk=round_.pk).update(
                self_check_in=False
            )
        round_.self_check_in = open
        round_.save(update_fields=["self_check_in"])
    return round_


def self_check_in(player: Player, token: str) -> tuple[Round, CheckIn]:
    """A player checks themselves in with their personal token for the open round.

    Raises Refused: a wrong link (403), check-in not open (409), or a player who left.
    """
    if not token_matches(player, token):
        raise Refused(
            _("this check-in link is not valid; ask at the registration desk"), field="token", status=403
        )
    round_ = open_round(player.tournament)
    if round_ is None:
        raise Refused(
            _("self check-in is not open right now; the head judge opens it before each round, or check in at the desk"),
            field="round",
            status=409,
        )
    return round_, check_in(round_, player)
