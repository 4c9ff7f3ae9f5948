"""Who is whom across tournaments: the one home of linking players to people.

Every registration path (one by one, CSV import, check-in) calls :func:`link_players`, which
gives each player without a person the person of the same email (compared by `email_key`)
or a new person of their own. A head judge corrects it by hand with :func:`link_player` and
:func:`unlink_player`; every change leaves a `PersonLink` row naming who, when and why.

Series of tournaments live here too: they are small and belong to the same question, "which
rows are the same thing across tournaments?".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from dune.formats import FORMATS
from dune.refusals import Refusal
from dune.text_rules import email_key as _key
from dune.text_rules import name_matches, title_problem
from foundation import effects
from foundation.core_words import core_refusal
from tournament.models import Player, Tournament
from tournament.people_models import Person, PersonLink, Series
from tournament.permissions import is_head_judge

MAX_SEARCH = 100
#: People per page of the people list (the page's and the API's).
PEOPLE_PER_PAGE = 50


class PeopleRefused(Refusal):
    """A refused change of people or series: the message names the field; nothing was written."""

    field: str

    def __init__(self, message: str, *, field: str, status: int = 400) -> None:
        super().__init__(message, field=field, status=status)

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), self.field: [self.message]}


# ----------------------------------------------------------------------------- who may change a person
#
# A person is theirs to change who runs a tournament the person plays in, or the person: a head
# judge of one tournament cannot take over someone who plays elsewhere by linking a player to
# them, nor undo their wish to be listed by initials. Typing a person's email at the desk links
# the registration (a returning player keeps their history) but gives the desk no more than that.


def _is_the_person(user: Any, person_id: int) -> bool:
    """The user's own account is registered as one of the person's players (their consent)."""
    return bool(getattr(user, "pk", None)) and Player.objects.filter(person_id=person_id, user=user).exists()


def _head_judged(user: Any, person_id: int) -> tuple[bool, bool]:
    """(head judge of some tournament the person plays in, of every one)."""
    tournaments = list(Tournament.objects.filter(players__person_id=person_id).distinct())
    judged = [is_head_judge(user, t) for t in tournaments]
    return any(judged), bool(judged) and all(judged)


def may_link_to(user: Any, person_id: int) -> bool:
    """A player may be linked to the person by a head judge of a tournament the person already
    plays in, or by the person."""
    return (
        bool(getattr(user, "is_superuser", False))
        or _head_judged(user, person_id)[0]
        or _is_the_person(user, person_id)
    )


def may_reveal(user: Any, person_id: int) -> bool:
    """The person's full name (and every registration) may be shown to, and listing by initials
    undone by, a head judge of every tournament the person plays in, or the person."""
    return (
        bool(getattr(user, "is_superuser", False))
        or _head_judged(user, person_id)[1]
        or _is_the_person(user, person_id)
    )


def email_key(email: str) -> str:
    """How emails are compared to join registrations (`dune.text_rules.email_key`)."""
    return _key(email)


def people_with_emails(emails: Iterable[str]) -> dict[str, Person]:
    """The existing people with these emails, by `email_key` (one query; nothing written)."""
    return _people_by_email({_key(e): e.strip() for e in emails if _key(e)})


def link_players(players: Sequence[Player]) -> None:
    """Give every player of `players` without a person the person of their email, creating the
    people who do not exist yet (one per distinct address; one per player without an email).

    Safe against a concurrent registration of the same new address in another tournament: the
    database's unique index on the stored `email_key` decides, and both end on the one person.
    Call inside the registration's transaction.
    """
    pending = [p for p in players if p.person_id is None]
    if not pending:
        return
    emails = {_key(p.email): p.email.strip() for p in pending if _key(p.email)}
    with transaction.atomic():
        existing = _people_by_email(emails)
        missing = [address for key, address in emails.items() if key not in existing]
        if missing:
            names = {_key(p.email): p.name for p in reversed(pending) if _key(p.email)}
            Person.objects.bulk_create(
                [Person.new(name=names[_key(a)], email=a) for a in missing], ignore_conflicts=True
            )
            created_keys = {_key(a) for a in missing}
            existing = _people_by_email(emails)
        else:
            created_keys = set()
        anonymous = [p for p in pending if not _key(p.email)]
        fresh = Person.objects.bulk_create([Person(name=p.name) for p in anonymous])
        links: list[PersonLink] = []
        first_of: set[str] = set()
        for player in pending:
            key = _key(player.email)
            if key:
                person = existing[key]
                new = key in created_keys and key not in first_of
                first_of.add(key)
            else:
                person = fresh.pop(0)
                new = True
            player.person = person
            action = PersonLink.Action.NEW if new else PersonLink.Action.EMAIL
            links.append(PersonLink(player=player, action=action, to_person=person.pk))
        Player.objects.bulk_update(pending, ["person"])
        PersonLink.objects.bulk_create(links)


def _people_by_email(emails: dict[str, str]) -> dict[str, Person]:
    if not emails:
        return {}
    found = {p.email_key: p for p in Person.objects.filter(email_key__in=list(emails))}
    return {k: found[k] for k in emails if k in found}


def link_player(
    player: Player, person_id: Any, *, user: Any, reason: str = "", by_email: bool = False
) -> Player:
    """A head judge's link: `player` now belongs to the person `person_id` (`by_email`: the
    player's email address is the person's, so the desk's edit follows it).

    The person the player leaves is deleted if no registration is left with it. Raises
    PeopleRefused (field "person") for a person that does not exist, that the user may not link
    to (`may_link_to`; the refusal names no one) or that already has a player in the same
    tournament, (field "reason") for a link without a reason.
    """
    if isinstance(person_id, bool) or not isinstance(person_id, int):
        raise PeopleRefused(
            _("person must be a person's id (a whole number), got %(person_id)s") % {"person_id": repr(person_id)}, field="person"
        )
    reason = (reason or "").strip()
    if not reason:
        raise PeopleRefused(_("say why this player is that person (it is kept with the change)"), field="reason")
    with transaction.atomic():
        player = Player.objects.select_for_update().select_related("tournament").get(pk=player.pk)
        person = Person.objects.filter(pk=person_id).first()
        if person is None:
            raise PeopleRefused(_("no person %(person_id)s") % {"person_id": person_id}, field="person", status=404)
        if not by_email and not may_link_to(user, person.pk):
            raise PeopleRefused(
                _("person %(person_id)s plays in no tournament you run as head judge: only their head judges, or the person, may link a player to them") % {"person_id": person_id},
                field="person",
                status=403,
            )
        if player.person_id == person.pk:
            raise PeopleRefused(_("%(name)s is already %(display_name)s") % {"name": player.name, "display_name": person.display_name}, field="person", status=409)
        twin = (
            Player.objects.filter(tournament_id=player.tournament_id, person=person)
            .exclude(pk=player.pk)
            .first()
        )
        if twin is not None:
            raise PeopleRefused(
                _("%(display_name)s already plays in %(name)s as %(name2)s; one person is one player per tournament") % {"display_name": person.display_name, "name": player.tournament.name, "name2": twin.name},
                field="person",
                status=409,
            )
        previous = player.person_id
        player.person = person
        player.save(update_fields=["person"])
        details = _leave(previous)
        _relinked(player, PersonLink.Action.LINK, previous=previous, person=person, user=user, reason=reason,
                  details=details)
    return player


def follow_email(player: Player, *, user: Any) -> None:
    """After a player's email address is edited, the player belongs to the person of the new
    address (created if nobody has it yet), recorded like a head judge's link. An emptied
    address keeps the player's person. Call inside the edit's transaction.

    Raises PeopleRefused (field "person") when that person already plays in the tournament.
    """
    key = _key(player.email)
    if not key:
        return
    address = player.email.strip()
    person = _people_by_email({key: address}).get(key)
    if person is None:
        Person.objects.bulk_create([Person.new(name=player.name, email=address)], ignore_conflicts=True)
        person = _people_by_email({key: address})[key]
    if person.pk != player.person_id:
        link_player(player, person.pk, user=user, reason="the player's email address changed", by_email=True)


def unlink_player(player: Player, *, user: Any, reason: str = "") -> Player:
    """A head judge's unlink: `player` becomes a person of their own (a new one).

    Raises PeopleRefused (field "reason") without a reason, (field "person") for a player who
    is already the only registration of their person.
    """
    reason = (reason or "").strip()
    if not reason:
        raise PeopleRefused(
            _("say why this player is not that person (it is kept with the change)"), field="reason"
        )
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        previous = player.person_id
        if (
            previous is not None
            and not Player.objects.filter(person_id=previous).exclude(pk=player.pk).exists()
        ):
            raise PeopleRefused(
                _("%(name)s is the only registration of their person; there is nothing to unlink") % {"name": player.name},
                field="person",
                status=409,
            )
        person = Person.objects.create(name=player.name)
        player.person = person
        player.save(update_fields=["person"])
        _relinked(player, PersonLink.Action.UNLINK, previous=previous, person=person, user=user, reason=reason)
    return player


def list_by_initials(player: Player, listed: bool, *, user: Any) -> Person:
    """The player's person asked to be listed by initials on public pages (or no longer).

    Any head judge of the player's tournament may list the person by initials; only one who may
    reveal them (`may_reveal`) may show the full name again.

    Raises PeopleRefused (field "person") for a player without a person, or an undoing of the
    listing by initials the user may not make.
    """
    if player.person_id is None:
        raise PeopleRefused(_("%(name)s is not linked to a person yet") % {"name": player.name}, field="person")
    if not is_head_judge(user, player.tournament) and not _is_the_person(user, player.person_id):
        raise PeopleRefused(
            _("only a head judge of this tournament, or the person, may change this"), field="person", status=403
        )
    listed_now = Person.objects.filter(pk=player.person_id, listed_by_initials=True).exists()
    if listed_now and not listed and not may_reveal(user, player.person_id):
        raise PeopleRefused(
            _("this person also plays in tournaments you do not run; only the person, or a head judge of every tournament they play in, may show their full name again"),
            field="person",
            status=403,
        )
    Person.objects.filter(pk=player.person_id).update(listed_by_initials=bool(listed))
    return Person.objects.get(pk=player.person_id)


def _relinked(
    player: Player,
    action: str,
    *,
    previous: int | None,
    person: Person,
    user: Any,
    reason: str,
    details: dict[str, Any] | None = None,
) -> None:
    """Record that `player` moved from the `previous` person to `person` (`action`, with the
    audit's `details`) and announce it."""
    PersonLink.objects.create(
        player=player,
        action=action,
        from_person=previous,
        to_person=person.pk,
        user=_user(user),
        reason=reason,
        details={} if details is None else details,
    )
    effects.cause(effects.PLAYER_RELINKED, player_id=player.pk)


def _leave(person_id: int | None) -> dict[str, Any]:
    """Delete a person no registration belongs to any more; answer what the audit keeps of them."""
    if person_id is None:
        return {}
    left = Person.objects.filter(pk=person_id).first()
    if left is None or left.players.exists():
        return {}
    left.delete()
    return {"deleted_person": {"id": person_id, "name": left.name}}


def _user(user: Any) -> Any:
    return user if getattr(user, "pk", None) else None


def links_of(player: Player) -> list[PersonLink]:
    """The player's person changes, oldest first."""
    return list(PersonLink.objects.filter(player=player).select_related("user").order_by("at", "id"))


def search_people(text: Any, *, limit: int | None = 50) -> list[Person]:
    """People whose public name contains `text` (all people, by name, for an empty text);
    at most `limit` of them (None: every match, for a paginated list).

    Someone listed by initials is found by their initials only, never by their full name.
    Raises PeopleRefused (field "search") for text that is too long or not printable.
    """
    if not isinstance(text, str):
        raise PeopleRefused(_("search must be text"), field="search")
    text = text.strip()
    if len(text) > MAX_SEARCH:
        raise PeopleRefused(_("search has at most %(MAX_SEARCH)s characters") % {"MAX_SEARCH": MAX_SEARCH}, field="search")
    if any(not ch.isprintable() for ch in text):
        raise PeopleRefused(_("search contains control characters"), field="search")
    people = Person.objects.order_by("name", "id")
    if not text:
        return list(people[:limit])
    # Accents and case set aside (`name_matches`, the one test of every search of names).
    named = [p for p in people.filter(listed_by_initials=False).only("pk", "name") if name_matches(text, p.name)]
    named = list(Person.objects.filter(pk__in=[p.pk for p in named]).order_by("name", "id")[:limit])
    hidden = [p for p in people.filter(listed_by_initials=True) if name_matches(text, p.display_name)]
    return sorted(named + hidden, key=lambda p: (p.display_name.casefold(), p.pk))[:limit]


# ----------------------------------------------------------------------------- series


def _series_name(name: Any) -> str:
    name, problem = title_problem(name, what="a series")
    if problem:
        raise PeopleRefused(core_refusal(problem), field="name")
    return name


def create_series(*, name: str, format: str, owner: Any = None) -> Series:
    """A new series of tournaments of one format, owned by the head judge `owner` who creates
    it. Raises PeopleRefused naming the field."""
    name = _series_name(name)
    if format not in FORMATS:
        raise PeopleRefused(_("unknown format %(value)s; one of %(value2)s is expected") % {"value": repr(format), "value2": ', '.join(FORMATS)}, field="format")
    return Series.objects.create(name=name, format=format, owner=_user(owner))


def may_manage_series(user: Any, series: Series) -> bool:
    """Only a series' owner (or a superuser) edits it or attaches tournaments to it."""
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_superuser) or (series.owner_id is not None and series.owner_id == user.pk)


def rename_series(series: Series, *, name: Any, user: Any) -> Series:
    """Rename a series its owner manages. Raises PeopleRefused (403 for anybody else)."""
    if not may_manage_series(user, series):
        raise PeopleRefused(_("%(name)s belongs to another organiser") % {"name": series.name}, field="series", status=403)
    series.name = _series_name(name)
    series.save(update_fields=["name"])
    return series


def series_owned_by(user: Any) -> Any:
    """The series `user` may attach tournaments to (all of them for a superuser)."""
    if getattr(user, "is_superuser", False):
        return Series.objects.order_by("name", "id")
    return Series.objects.filter(owner_id=getattr(user, "pk", None)).order_by("name", "id")


def series_for(series_id: Any, *, format: str, user: Any = None) -> Series | None:
    """The series a new tournament of `format` joins (None for no series).

    Raises PeopleRefused (field "series") for an id that is not a series, a series of
    another format, or (403) a series another organiser owns.
    """
    if series_id is None or series_id == "":
        return None
    if isinstance(series_id, bool) or not isinstance(series_id, int):
        raise PeopleRefused(_("series must be a series id (a whole number), got %(series_id)s") % {"series_id": repr(series_id)}, field="series")
    series = Series.objects.filter(pk=series_id).first()
    if series is None:
        raise PeopleRefused(_("no series %(series_id)s") % {"series_id": series_id}, field="series")
    if not may_manage_series(user, series):
        raise PeopleRefused(
            _("%(name)s belongs to another organiser: only its owner adds tournaments to it") % {"name": series.name},
            field="series",
            status=403,
        )
    if series.format != format:
        raise PeopleRefused(
            _("%(name)s is a series of %(value)s tournaments, not %(value2)s") % {"name": series.name, "value": series.format, "value2": format}, field="series"
        )
    return series


def people_of(tournaments: Iterable[Tournament]) -> set[int]:
    """Ids of the people who registered in any of `tournaments`."""
    return set(
        Player.objects.filter(tournament__in=list(tournaments), person__isnull=False).values_list(
            "person_id", flat=True
        )
    )
