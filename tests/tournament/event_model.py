"""A small model of a WBC event, written from the WBC 2018 tournament format alone.

The event simulator (`test_event_simulator.py`) keeps this model beside the platform and
checks every claim the pages and the API make against it. It is deliberately independent of
the platform's own derivations (`scoring`, `tournament.round_state`, `dune.points`): it reads
none of them, only the rule text, so a derivation that drifts from the rules, or two pages that
tell different stories, disagree with the model.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

#: Qualification points for each result a report records (WBC 2018, "Qualification Points"):
#: losers neither gain nor lose.
QUALIFICATION_POINTS: dict[str, Fraction] = {
    "solo_stronghold": Fraction(2),
    "bg_prediction": Fraction(2),
    "fremen_default_solo": Fraction(2),
    "guild_default_solo": Fraction(1),
    "allied_stronghold": Fraction(1),
    "fremen_default_allied": Fraction(1),
    "guild_default_allied": Fraction(1, 2),
    "three_alliance": Fraction(1, 2),
    "adjudicated": Fraction(1, 2),
    "loss": Fraction(0),
}

#: The final seats six (WBC 2018, "Advancement to Finals").
FINAL_SEATS = 6


@dataclass
class ModelPlayer:
    pk: int
    name: str
    status: str = "active"  # active, dropped, withdrawn


@dataclass
class ModelTable:
    pk: int
    number: int
    players: list[int]
    factions: dict[int, str]
    #: player -> result, once a report is filed; None while it is not (or is reopened).
    results: dict[int, str] | None = None
    #: Minutes added to this table's clock.
    extended: int = 0


@dataclass
class ModelRound:
    pk: int
    kind: str  # heat, final
    number: int
    state: str = "planned"  # planned, seated, published, closed
    checked_in: set[int] = field(default_factory=set)
    tables: dict[int, ModelTable] = field(default_factory=dict)
    clocks_started: bool = False
    #: Players who did not come to this round (taken off their table; not a dropout).
    no_shows: set[int] = field(default_factory=set)
    #: Qualifiers who did not come to the final.
    absent: set[int] = field(default_factory=set)

    @property
    def filed(self) -> bool:
        return bool(self.tables) and all(t.results is not None for t in self.tables.values())

    def seat_of(self, player: int) -> ModelTable | None:
        return next((t for t in self.tables.values() if player in t.players), None)


@dataclass
class EventModel:
    players: dict[int, ModelPlayer] = field(default_factory=dict)
    rounds: list[ModelRound] = field(default_factory=list)

    # --- what the rules make of the facts ------------------------------------------------

    @property
    def heats(self) -> list[ModelRound]:
        return [r for r in self.rounds if r.kind == "heat"]

    @property
    def final(self) -> ModelRound | None:
        return next((r for r in self.rounds if r.kind == "final"), None)

    @property
    def open_round(self) -> ModelRound | None:
        return next((r for r in self.rounds if r.state != "closed"), None)

    def heat_games(self, player: int) -> list[dict[int, str]]:
        """The filed heat games a player played (their results by player)."""
        games = []
        for heat in self.heats:
            table = heat.seat_of(player)
            if table is not None and table.results is not None:
                games.append(table.results)
        return games

    def qualifying_score(self, player: int) -> Fraction:
        """The total of the QPs of every preliminary heat game played."""
        return sum((QUALIFICATION_POINTS[g[player]] for g in self.heat_games(player)), Fraction(0))

    def best_game(self, player: int) -> Fraction:
        """The first tiebreak: the best single game's QP (no other tiebreak is recorded here, so
        the later criteria are all zero)."""
        return max((QUALIFICATION_POINTS[g[player]] for g in self.heat_games(player)), default=Fraction(0))

    def order_key(self, player: int) -> tuple[Fraction, Fraction]:
        return (self.qualifying_score(player), self.best_game(player))

    @property
    def provisional(self) -> bool:
        """Nobody qualifies while a heat is still to be played or reported."""
        return not self.heats or any(not heat.filed for heat in self.heats)

    def ranked(self) -> list[int]:
        """Players with at least one filed heat game."""
        return [pk for pk in self.players if self.heat_games(pk)]

    def eligible_for_final(self) -> list[int]:
        return [pk for pk in self.ranked() if self.players[pk].status == "active"]

    def current_seat(self, player: int) -> tuple[ModelRound, ModelTable] | None:
        """Where a player sits now: a published round not yet closed, at a table still playing
        (once its report is filed, that game is over and the player sits nowhere)."""
        for round_ in self.rounds:
            if round_.state == "published":
                table = round_.seat_of(player)
                if table is not None and table.results is None:
                    return round_, table
        return None

    def results_count(self) -> dict[str, int]:
        """How many filed games (heats and final) ended with each winning kind."""
        counts: dict[str, int] = {}
        for round_ in self.rounds:
            for table in round_.tables.values():
                if table.results is None:
                    continue
                kinds = {r for r in table.results.values() if r != "loss"}
                for kind in kinds:
                    counts[kind] = counts.get(kind, 0) + 1
        return counts

    def champion(self) -> int | None:
        """The final's 1st place, for the results the simulator files there: a solo winner or a
        default winner is 1st alone (WBC 2018, Final Round Format)."""
        final = self.final
        if final is None or not final.filed:
            return None
        (table,) = final.tables.values()
        assert table.results is not None
        winners = [p for p, r in table.results.items() if r != "loss"]
        return winners[0] if len(winners) == 1 else None

    def filed_games(self) -> int:
        return sum(1 for r in self.rounds for t in r.tables.values() if t.results is not None)
