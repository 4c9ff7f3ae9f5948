"""One derived state per player: the single answer every page, screen, CSV and API reads to say
where a player stands (registered, checked in, seated, no-show for the round, dropped, withdrawn, disqualified,
finalist, alternate, absent, placed).

Who is in the final is decided here and nowhere else. Before the final is seated the answer is
the qualifying order (`scoring.qualifying`: the scoring's suggestion with players who dropped,
withdrew or were disqualified skipped, the next ones moving up). Once the final is seated the
seats decide: whoever sits at the final table is in the final (an alternate who plays is a
finalist who came in as an alternate, no longer "alternate 1"), a suggested finalist who is not
seated is absent from it (or dropped, withdrawn), and the alternates still waiting are numbered
from 1 again. The final's placings (WBC Final Round Format) come last.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Value
from django.utils.translation import gettext, gettext_noop, pgettext

from scoring.qualifying import qualifying_order
from scoring.services import Scoring, scoring_for, standings_provisional
from tournament.models import CheckIn, NoShow, Player, Round, Seat, Tournament
from tournament.round_state import next_to_seat, with_states

REGISTERED = "registered"
CHECKED_IN = "checked_in"
SEATED = "seated"
NO_SHOW = "no_show"
DROPPED = "dropped"
WITHDRAWN = "withdrawn"
DISQUALIFIED = "disqualified"
FINALIST = "finalist"
ALTERNATE = "alternate"
ABSENT = "absent"
PLACED = "placed"
STATES = (REGISTERED, CHECKED_IN, SEATED, NO_SHOW, DROPPED, WITHDRAWN, DISQUALIFIED, FINALIST, ALTERNATE, ABSENT, PLACED)

#: Each state in words, as every page shows it (`PlayerState.words` adds numbers), in English;
#: `label` and `words` answer them in the reader's language.
LABELS = {
    REGISTERED: gettext_noop("registered"),
    CHECKED_IN: gettext_noop("checked in"),
    SEATED: gettext_noop("seated"),
    NO_SHOW: gettext_noop("no-show for this round"),
    DROPPED: gettext_noop("dropped out"),
    WITHDRAWN: gettext_noop("withdrew"),
    DISQUALIFIED: gettext_noop("disqualified"),
    FINALIST: gettext_noop("in the final"),
    ALTERNATE: gettext_noop("alternate"),
    ABSENT: gettext_noop("absent from the final"),
    PLACED: gettext_noop("placed"),
}


@dataclass(frozen=True)
class PlayerState:
    """Where one player stands. `key` is one of STATES; the other fields refine it.

    While the standings are provisional (a heat still to play) nobody is a finalist yet: the key
    says where the player is in the round (seated, checked in, registered) and `top` whether they
    are in the top `seats` so far.
    """

    player: int
    key: str
    #: A waiting alternate's number (1 first), else None.
    alternate: int | None = None
    #: Seated in the final as an alternate (they play: `key` is FINALIST).
    came_in_as_alternate: bool = False
    #: Their place in the final (`key` PLACED), and whether it is tied.
    place: int | None = None
    tied: bool = False
    #: The standings are provisional (a heat is still to be played or reported).
    provisional: bool = False
    #: In the top `seats` of the provisional standings.
    top: bool = False
    #: Ranked in the standings (has a filed game).
    ranked: bool = False
    #: The final is seated: FINALIST means seated at the final table.
    final_seated: bool = False
    #: Finalists' seats in the format (for "in the top 6 so far").
    seats: int = 0

    @property
    def in_final(self) -> bool:
        """Plays (or played) the final, or is named a finalist while the final is not seated."""
        return self.key in (FINALIST, PLACED)

    @property
    def label(self) -> str:
        """The state's word(s) alone ("in the final", "alternate", "seated"), in the reader's
        language."""
        return gettext(LABELS[self.key])

    @property
    def words(self) -> str:
        """The player's standing against the final in words, in the reader's language: "in the
        final (came in as an alternate)", "alternate 2", "absent from the final", "in the top 6
        so far", "placed 1st", "not qualified"; for the round-only states, the state's label."""
        if self.key == PLACED:
            place = {"place": ordinal(self.place or 0)}
            return (gettext("placed %(place)s (tied)") if self.tied else gettext("placed %(place)s")) % place
        if self.key == FINALIST and self.came_in_as_alternate:
            return gettext("in the final (came in as an alternate)")
        if self.key == FINALIST and not self.final_seated:
            return gettext("qualified for the final")
        if self.key == ALTERNATE:
            return gettext("alternate %(number)s") % {"number": self.alternate} if self.alternate else self.label
        if self.key in (REGISTERED, CHECKED_IN, SEATED) and self.ranked:
            if self.provisional:
                seats = {"seats": self.seats}
                return (gettext("in the top %(seats)s so far") if self.top else gettext("not in the top %(seats)s so far")) % seats
            return gettext("not qualified")
        return self.label

    @property
    def note(self) -> str:
        """What a standings row adds after the player's results ("" for nothing to say)."""
        if self.key in (REGISTERED, CHECKED_IN, SEATED):
            return self.words if self.provisional and self.top else ""
        return self.words


def ordinal(n: int) -> str:
    """A place as a ranking says it, in the reader's language: English "1st", "22nd", "13th";
    Spanish "1.º"; French "1er", "2e"; German "1."."""
    if n == 1:
        return pgettext("a place in a ranking", "1st")
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    if suffix == "st":
        return pgettext("a place in a ranking", "%(number)sst") % {"number": n}
    if suffix == "nd":
        return pgettext("a place in a ranking", "%(number)snd") % {"number": n}
    if suffix == "rd":
        return pgettext("a place in a ranking", "%(number)srd") % {"number": n}
    return pgettext("a place in a ranking", "%(number)sth") % {"number": n}


def player_states(
    tournament: Tournament, *, scoring: Scoring | None = None, provisional: bool | None = None
) -> dict[int, PlayerState]:
    """Every registered player's state, by player id (six or seven queries whatever the number of
    players; `scoring` and `provisional`, when the caller has them, save theirs).

    Long because it is the one place that decides, in order of precedence, each of the states.
    """
    scoring = scoring or scoring_for(tournament)
    if provisional is None:
        provisional = standings_provisional(tournament)
    players = {p.pk: p for p in Player.objects.filter(tournament=tournament)}
    order = qualifying_order(tournament, scoring=scoring, players=players)
    rounds = list(with_states(Round.objects.filter(tournament=tournament)))
    final = max((r for r in rounds if r.kind == Round.Kind.FINAL), key=lambda r: r.number, default=None)
    playing = {r.pk for r in rounds if r.state == Round.State.PUBLISHED}
    # The final's seats decide only once its seating is published (before, it is a draft the
    # head judge may still change, and the round page says it is not published).
    if final is not None and final.state == Round.State.PLANNED:
        final = None
    upcoming = next_to_seat(rounds)
    # Marked no-shows for the round being played or checked in for (not a dropout: the next
    # round finds them registered again).
    current = (playing - ({final.pk} if final else set())) | ({upcoming.pk} if upcoming else set())
    # The seats being played (and the final's), the check-ins and the no-shows in one query.
    seated_in = playing | ({final.pk} if final else set())
    marks = (
        # No ordering inside the compound statement: SQLite (the venue laptop) refuses it.
        Seat.objects.filter(round_id__in=seated_in)
        .order_by()
        .values_list("player_id", "round_id", Value(SEATED))
        .union(
            CheckIn.objects.filter(round_id__in=[upcoming.pk] if upcoming else []).order_by().values_list(
                "player_id", "round_id", Value(CHECKED_IN)
            ),
            NoShow.objects.filter(round_id__in=current).order_by().values_list("player_id", "round_id", Value(NO_SHOW)),
            all=True,
        )
    )
    seats: list[tuple[int, int]] = []
    checked_in_now: set[int] = set()
    no_show: set[int] = set()
    for player, round_id, mark in marks:
        if mark == SEATED:
            seats.append((player, round_id))
        elif mark == CHECKED_IN:
            checked_in_now.add(player)
        else:
            no_show.add(player)
    at_final = {p for p, r in seats if final is not None and r == final.pk}
    seated_now = {p for p, r in seats if r in playing and (final is None or r != final.pk)}
    came_in = set(final.alternates_seated or ()) & at_final if final is not None else set()
    final_seated = bool(at_final)
    placings = {p.player: p for p in scoring.placings}
    suggested_finalists = set(order.suggested("finalist"))
    suggested_alternates = order.suggested("alternate")
    waiting = [p for p in suggested_alternates if p not in at_final] if final_seated else suggested_alternates
    alternate_number = {p: i for i, p in enumerate(waiting, start=1)}
    provisional = provisional and not final_seated
    common: dict[str, Any] = {"provisional": provisional, "final_seated": final_seated, "seats": tournament.rules.finalist_seats}
    ranked = {row.player for row in scoring.standings}
    states: dict[int, PlayerState] = {}
    for pk, player in players.items():
        status = player.status
        where = {"ranked": pk in ranked, "top": pk in suggested_finalists, **common}
        if pk in placings:
            placing = placings[pk]
            state = PlayerState(pk, PLACED, place=placing.place, tied=placing.tied, **common)
        elif status == Player.Status.DROPPED:
            state = PlayerState(pk, DROPPED, **common)
        elif status == Player.Status.WITHDRAWN:
            state = PlayerState(pk, WITHDRAWN, **common)
        elif player.disqualified:
            state = PlayerState(pk, DISQUALIFIED, **common)
        elif final_seated and pk in at_final:
            state = PlayerState(pk, FINALIST, came_in_as_alternate=pk in came_in, **common)
        elif final_seated and pk in suggested_finalists:
            state = PlayerState(pk, ABSENT, **common)
        elif not provisional and pk in suggested_finalists:
            state = PlayerState(pk, FINALIST, **common)
        elif not provisional and pk in alternate_number:
            state = PlayerState(pk, ALTERNATE, alternate=alternate_number[pk], **common)
        elif pk in no_show and pk not in seated_now:
            state = PlayerState(pk, NO_SHOW, **where)
        elif pk in seated_now:
            state = PlayerState(pk, SEATED, **where)
        elif pk in checked_in_now:
            state = PlayerState(pk, CHECKED_IN, **where)
        else:
            state = PlayerState(pk, REGISTERED, **where)
        states[pk] = state
    return states


def player_state(tournament: Tournament, player: int) -> PlayerState:
    """One player's state (computed with everyone's: the final's cut depends on all of them)."""
    return player_states(tournament)[player]


def final_lists(
    tournament: Tournament, states: dict[int, PlayerState], *, scoring: Scoring | None = None
) -> tuple[list[int], list[int]]:
    """The finalists and the waiting alternates, read from the players' states (so every list
    of the final says what the states say): the finalists in qualifying order (once the final
    is seated, who sits at its table; before, the qualifiers still eligible), the alternates
    by their number. Nobody is listed while the standings are provisional."""
    order = qualifying_order(tournament, scoring=scoring)
    position = {row.player: i for i, row in enumerate(order.rows)}
    last = len(position)
    finalists = sorted((p for p, s in states.items() if s.in_final), key=lambda p: (position.get(p, last), p))
    alternates = sorted(
        (p for p, s in states.items() if s.key == ALTERNATE), key=lambda p: (states[p].alternate or 0, p)
    )
    return finalists, alternates


def finalist_ids(tournament: Tournament) -> tuple[list[int], list[int]]:
    """The finalists and waiting alternates a final is seated from when the head judge names
    nobody: the lists the finalists API and every page show (players who left are not on them)."""
    scoring = scoring_for(tournament)
    return final_lists(tournament, player_states(tournament, scoring=scoring), scoring=scoring)
