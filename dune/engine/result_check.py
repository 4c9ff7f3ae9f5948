"""Whether a game's reported result is valid: the one place that decides it.

Every game report passes here, whether the engine followed the game (its outcome is then the
answer) or the game was played on paper (the report is checked against what each result kind
means, `dune.engine.results.RESULTS`, under the table's ruleset). The ruleset decides every
choice a format makes about results: how many turns a round lasts, whether several unallied
players may win the same turn, how large an alliance may be (three-faction alliances only
where the ruleset and the round allow them), whether the Fremen special victory needs the
Guild. Nothing here branches on a ruleset's key, and the points systems decide nothing of it:
they score what this module accepted.

Time-up adjudication itself (ranking the sides by the criteria) is `dune.engine.time_up_ranking`;
this module only checks what a report claims.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import NoReturn

from dune.engine.errors import IllegalAction, ResultRefused
from dune.engine.factions import BENE_GESSERIT, FREMEN, GUILD
from dune.engine.ids import ResultKind
from dune.engine.names import faction_name, factions_text, join_names
from dune.engine.position import Outcome
from dune.engine.results import ENDING_WORDS, RESULTS, KindRule, Way, kind_name
from dune.engine.rulesets import Ruleset
from dune.engine.tracked_report_check import check_reported

R = ResultKind

#: The ruleset citation (`Ruleset.cite` key) behind each way of winning.
_CITE_OF_WAY: Mapping[Way, str] = {
    Way.PREDICTION: "prediction",
    Way.FREMEN_SPECIAL: "fremen_special",
    Way.GUILD_DEFAULT: "guild_default",
    Way.FREMEN_DEFAULT: "fremen_default",
    Way.END_GAME: "end_game",
    Way.ADJUDICATED: "adjudication",
    Way.LOSS: "solo",
    Way.DROPOUT: "dropout",
}


#: The one rule of a time-limit ending, for the report's filing and the table page's
#: adjudication alike: the ruleset's cite key, and the words of its refusal.
TIME_RULE = "time"
TIME_UP_FIRST = "adjudication follows a time-up; the clock has not run out"


@dataclass(frozen=True, slots=True)
class ReportedGame:
    """What a game report claims, by faction.

    `results` maps each seated faction to its reported result kind, in the report's row
    order; `alliances` are the alliances standing at the end (when recorded); `round_kind`
    is `heat` or `final`. `names` gives each faction's player name for messages (a faction
    without one is named by the faction).
    """

    results: Mapping[str, ResultKind]
    ended_by: str
    turns: int
    round_kind: str = "heat"
    alliances: tuple[frozenset[str], ...] = ()
    #: The faction the Bene Gesserit predicted, when the report names it.
    predicted: str | None = None
    names: Mapping[str, str] = field(default_factory=dict)
    #: Whether the table's clock has run out: True, False (it still has time), or None when
    #: no clock followed the table (a game timed on paper).
    clock_ran_out: bool | None = None

    @property
    def factions(self) -> tuple[str, ...]:
        return tuple(self.results)

    def ally_of(self, faction: str) -> tuple[str, ...]:
        """The factions allied with `faction` at the end, in row order (empty when unallied)."""
        for alliance in self.alliances:
            if faction in alliance:
                return tuple(f for f in self.results if f in alliance and f != faction)
        return ()


def kind_rule(ruleset: Ruleset, kind: ResultKind) -> str:
    """The rule of `ruleset` that makes `kind` a victory (or a loss): `1.09.02.01` for a
    LoLV solo stronghold victory, `AH IV.C` for a WBC Guild default victory."""
    row = RESULTS[kind]
    if row.way is Way.STRONGHOLD:
        key = "solo" if row.size == 1 else "allied"
    else:
        key = _CITE_OF_WAY[row.way]
    return ruleset.cite[key]


def check_result(ruleset: Ruleset, game: ReportedGame, *, decided: Outcome | None = None) -> None:
    """The reported result is one the rules allow, and, for a game the engine followed to its
    end (`decided` is the position's outcome), the one the engine decided.

    Raises:
        ResultRefused: turns past the round's limit; a faction in two alliances, or an
            alliance larger than the table and round allow; a BG prediction naming the Bene
            Gesserit; a result other than the engine's decision; no winner, or every seat
            dropped out; more than one winning side; an ending the kind does not allow; more
            or fewer winners than the kind has; a winner without the faction the kind needs,
            or a faction it excludes in the game; allies who do not share their result.
            Each names the rule of `ruleset`, the field and the faction at fault.
    """
    check = _Check(ruleset, game)
    check.turns()
    check.time_limit()
    check.alliances()
    check.prediction()
    if decided is not None:
        check.agrees_with(decided)
    check.winning_side()


class _Check:
    """One report under one ruleset: the validators share the report, its winners and the
    way messages name the players."""

    def __init__(self, ruleset: Ruleset, game: ReportedGame) -> None:
        self.rs = ruleset
        self.game = game
        self.cite = ruleset.cite
        self.round = ruleset.round(game.round_kind)
        self.winners: tuple[str, ...] = tuple(f for f, k in game.results.items() if RESULTS[k].won)

    # --- naming --------------------------------------------------------------------------

    def who(self, faction: str) -> str:
        return self.game.names.get(faction) or faction_name(faction)

    def players(self, factions: Iterable[str]) -> str:
        wanted = set(factions)
        return join_names(self.who(f) for f in self.game.results if f in wanted)

    def kind_of(self, faction: str) -> KindRule:
        return RESULTS[self.game.results[faction]]

    def refuse(
        self, msg: str, *, rule: str, faction: str | None, field: str = "result", value: object = None
    ) -> NoReturn:
        raise ResultRefused(rule=rule, msg=msg, field=field, faction=faction, value=value)

    # --- the report as a whole ----------------------------------------------------------

    def turns(self) -> None:
        """LoLV 0.02 (10 turns); WBC heats 10 turns, the final 15; AH V (15)."""
        turns, limit = self.game.turns, self.round.turns
        if isinstance(turns, bool) or not isinstance(turns, int) or not 1 <= turns <= limit:
            self.refuse(
                f"turns must be a whole number from 1 to {limit} (a {self.rs.name} final lasts at most {limit} turns),"
                f" got {turns}"
                if self.game.round_kind == "final"
                else f"turns must be a whole number from 1 to {limit} (a {self.rs.name} heat lasts at most {limit} turns),"
                f" got {turns}",
                rule=self.round.turns_rule,
                faction=None,
                field="turns",
                value=turns,
            )

    def time_limit(self) -> None:
        """A game ends by the time limit only once its clock has run out: the rule the table
        page's adjudication follows too (`TIME_UP_FIRST`)."""
        if self.game.ended_by == "time_limit" and self.game.clock_ran_out is False:
            self.refuse(
                TIME_UP_FIRST,
                rule=self.cite.get(TIME_RULE, TIME_RULE),
                faction=None,
                field="ended_by",
                value=self.game.ended_by,
            )

    def most_allies(self) -> int | None:
        return self.rs.most_allies(len(self.game.results), self.game.round_kind)

    def too_large(self, size: int) -> tuple[str, str] | None:
        """Why an alliance of `size` cannot exist at this table, with the rule; None if it can."""
        limit = self.most_allies()
        if limit is None or size <= limit:
            return None
        if size == 3 and self.rs.most_allies(6, "heat") == 3:  # the ruleset has them somewhere
            if not self.round.three_alliances:
                if self.game.round_kind == "final":
                    return "three-faction alliances may not form in a final", self.round.three_alliances_rule
                return "three-faction alliances may not form in a heat", self.round.three_alliances_rule
            return "three-faction alliances form only at 6-player tables", self.cite["alliance_limit"]
        return f"an alliance has at most {limit} factions", self.cite["alliance_limit"]

    def alliances(self) -> None:
        """Each faction in one alliance at most (AH XII.C.4; LoLV 1.10.01.04), none larger
        than the table and round allow."""
        seen: set[str] = set()
        for alliance in self.game.alliances:
            twice = next((f for f in self.game.results if f in alliance and f in seen), None)
            if twice is not None:
                self.refuse(
                    f"{self.who(twice)} is in two alliances; a faction belongs to one alliance at a time",
                    rule=self.cite["one_alliance"],
                    faction=twice,
                    field="alliances",
                    value=sorted(alliance),
                )
            seen |= alliance
            why = self.too_large(len(alliance))
            if why is not None:
                self.refuse(
                    f"{self.players(alliance)} cannot be one alliance: {why[0]}",
                    rule=why[1],
                    faction=next(f for f in self.game.results if f in alliance),
                    field="alliances",
                    value=sorted(alliance),
                )

    def prediction(self) -> None:
        """The Bene Gesserit predicts another faction of the game (AH III.E.1.a; LoLV 2.02.03)."""
        predicted = self.game.predicted
        if predicted is not None and (predicted == BENE_GESSERIT or predicted not in self.game.results):
            self.refuse(
                f"the Bene Gesserit predicts another player's victory, not {self.who(predicted)}'s",
                rule=self.cite["prediction_time"],
                faction=predicted if predicted in self.game.results else None,
                field="predicted",
                value=predicted,
            )

    def agrees_with(self, decided: Outcome) -> None:
        """A tracked game's report says what the engine decided (`dune.engine.tracked_report_check`)."""
        reported = {f: str(k) for f, k in self.game.results.items()}
        try:
            check_reported(decided, reported, ended_by=self.game.ended_by)
        except IllegalAction as exc:
            faction = exc.input if isinstance(exc.input, str) and exc.input in self.game.results else None
            self.refuse(
                exc.message,
                rule=exc.rule,
                faction=faction,
                field="ended_by" if faction is None else "result",
                value=faction if faction is not None else self.game.ended_by,
            )

    # --- the winners ---------------------------------------------------------------------

    def winning_side(self) -> None:
        if not self.winners:
            self.refuse(
                "no row won; every game has a winning side (adjudication picks one when time runs out)",
                rule=self.cite["adjudication"],
                faction=None,
                field="results",
            )
        if all(k is R.DROPOUT for k in self.game.results.values()):
            self.refuse("every seat dropped out", rule=self.cite["dropout"], faction=None, field="results")
        self.one_side()
        self.endings()
        kind = self.kind_of(self.winners[0])
        if kind.way is Way.END_GAME:
            self.end_game()
        elif kind.way is Way.ADJUDICATED:
            self.adjudicated()
        elif kind.size == 1:
            self.solo()
        elif kind.size == 2:
            self.allied()
        else:
            self.three()
        self.needs_and_excludes()
        self.allies_share()

    def one_side(self) -> None:
        """One winning side, one kind; only an end-game tie mixes a solo and an allied winner."""
        first = self.winners[0]
        kinds = {self.game.results[f] for f in self.winners}
        if len(kinds) == 1 or all(RESULTS[k].way is Way.END_GAME for k in kinds):
            return
        other = next(f for f in self.winners if self.game.results[f] is not self.game.results[first])
        self.refuse(
            f"{self.who(other)} wins with {kind_name(self.game.results[other])} while {self.who(first)}"
            f" wins with {kind_name(self.game.results[first])}; a game has one winning side",
            rule=self.cite["several"],
            faction=other,
            value=self.game.results[other].value,
        )

    def endings(self) -> None:
        ended_by = self.game.ended_by
        for faction in self.winners:
            kind = self.kind_of(faction)
            if ended_by not in kind.endings:
                allowed = join_names((ENDING_WORDS[e] for e in sorted(kind.endings)), last="or")
                kind_words = kind.name
                self.refuse(
                    f"{kind_words} cannot end a game by {ENDING_WORDS.get(ended_by, ended_by)} (ended_by"
                    f" {ended_by}); it ends by {allowed}",
                    rule=kind_rule(self.rs, kind.kind),
                    faction=faction,
                    value=kind.kind.value,
                )

    def solo(self) -> None:
        """A solo win has one winner, who is not allied, unless it is the Bene Gesserit's
        prediction (AH IV.A). Where every qualifying side wins (WBC QP), two unallied players
        may both win by strongholds at the same Mentat Pause."""
        kind, count = self.kind_of(self.winners[0]), len(self.winners)
        kind_words = kind.name
        if count > 1:
            simultaneous = kind.kind is R.SOLO_STRONGHOLD and count == 2 and self.rs.several_winners == "all"
            if not simultaneous:
                self.refuse(
                    f"{count} rows won {kind_words}; a solo win has one winner",
                    rule=self.cite["several"] if kind.kind is R.SOLO_STRONGHOLD else kind_rule(self.rs, kind.kind),
                    faction=self.winners[1],
                    value=kind.kind.value,
                )
        if kind.prediction:
            return
        for faction in self.winners:
            ally = self.game.ally_of(faction)
            if ally:
                self.refuse(
                    f"{self.who(faction)} cannot win {kind_words} while allied with {self.players(ally)}",
                    rule=self.cite["solo_while_allied"],
                    faction=faction,
                    value=kind.kind.value,
                )

    def allied(self) -> None:
        kind, count = self.kind_of(self.winners[0]), len(self.winners)
        kind_words = kind.name
        if count != 2:
            self.refuse(
                f"{count} rows share {kind_words}; an allied win has exactly two members"
                " (record a 3-faction alliance's win as three_alliance)"
                if count == 3
                else f"{count} rows share {kind_words}; an allied win has exactly two members",
                rule=self.cite["allied"],
                faction=self.winners[-1],
                value=kind.kind.value,
            )
        self.one_recorded_alliance(self.winners)

    def three(self) -> None:
        """A three-faction alliance's victory: three winners, where the ruleset lets such an
        alliance form at this table in this round (WBC house rules: six players who all
        consented; never at the final)."""
        count = len(self.winners)
        if count != 3:
            self.refuse(
                f"{count} rows share a three-faction alliance victory; it has exactly three members",
                rule=self.cite["alliance_limit"],
                faction=self.winners[-1],
                value=R.THREE_ALLIANCE.value,
            )
        why = self.too_large(3)
        if why is not None:
            self.refuse(
                f"no three-faction alliance victory here: {why[0]}",
                rule=why[1],
                faction=self.winners[0],
                value=R.THREE_ALLIANCE.value,
            )
        if self.game.ended_by == "turn_limit":
            present = {GUILD, FREMEN} & set(self.game.results)
            if present and not present & set(self.winners):
                self.refuse(
                    f"at the end of the last turn the side of the {factions_text(sorted(present))} wins"
                    f" by default (or the Fremen special victory), not {self.players(self.winners)}",
                    rule=self.cite["guild_default"] if GUILD in present else self.cite["fremen_default"],
                    faction=self.winners[0],
                    value=R.THREE_ALLIANCE.value,
                )
        self.one_recorded_alliance(self.winners)

    def end_game(self) -> None:
        """Every side with the most strongholds wins (LoLV 1.09.05, AH IV.C.1); an allied side
        has two members."""
        allied = tuple(f for f in self.winners if self.game.results[f] is R.END_GAME_ALLIED)
        if allied and len(allied) != 2:
            self.refuse(
                f"{len(allied)} rows share an allied end-game victory; an alliance has two members",
                rule=self.cite["end_game"],
                faction=allied[0],
                value=R.END_GAME_ALLIED.value,
            )
        if allied:
            self.one_recorded_alliance(allied)

    def adjudicated(self) -> None:
        """The adjudicated winner is one player or one whole alliance (WBC Adjudication:
        allies summed; LoLV 4.01.10), no larger than an alliance may be at this table."""
        count, first = len(self.winners), self.winners[0]
        limit = self.most_allies()
        if limit is not None and count > limit:
            self.refuse(
                f"{count} rows share an adjudicated victory; the winner is one player or one alliance"
                f" of at most {limit}",
                rule=self.cite["adjudication"],
                faction=self.winners[-1],
                value=R.ADJUDICATED.value,
            )
        if count > 1:
            self.one_recorded_alliance(self.winners)
            return
        ally = self.game.ally_of(first)
        if ally:
            self.refuse(
                f"{self.players(ally)}, allied with {self.who(first)}, must share the adjudicated win",
                rule=self.cite["adjudication"],
                faction=ally[0],
                value=R.LOSS.value,
            )

    def one_recorded_alliance(self, group: tuple[str, ...]) -> None:
        """Rows sharing an allied win are one recorded alliance, when alliances were recorded."""
        members = frozenset(group)
        if self.game.alliances and members not in self.game.alliances:
            self.refuse(
                f"{self.players(members)} share {kind_name(self.game.results[group[0]])} but are not one"
                " recorded alliance",
                rule=self.cite["one_alliance"],
                faction=group[0],
                field="alliances",
                value=self.game.results[group[0]].value,
            )

    def needs_and_excludes(self) -> None:
        """The faction a kind needs is among the winners (for a solo kind: is the winner), no
        faction it excludes is in the game, and the Fremen special victory has the Guild in
        the game where the ruleset says so (LoLV 2.04.09.00)."""
        first = self.winners[0]
        kind = self.kind_of(first)
        kind_words = kind.name
        rule = kind_rule(self.rs, kind.kind)
        at_table = set(self.game.results)
        if kind.winner is not None and kind.solo and first != kind.winner:
            self.refuse(
                f"{kind_words} is won by the {faction_name(kind.winner)} seat, not by"
                f" {self.who(first)} ({faction_name(first)})",
                rule=rule,
                faction=first,
                value=kind.kind.value,
            )
        if kind.winner is not None and kind.winner not in self.winners:
            self.refuse(
                f"{kind_words} needs the {faction_name(kind.winner)} among the winners"
                f" (the winners play {factions_text(self.winners)})",
                rule=rule,
                faction=first,
                value=kind.kind.value,
            )
        present = sorted(kind.absent & at_table, key=str)
        if present:
            excluded = sorted(kind.absent)
            if len(excluded) == 1:
                self.refuse(
                    f"{kind_words} is only possible when the {faction_name(excluded[0])} is not in the game",
                    rule=rule, faction=first, value=kind.kind.value,
                )
            self.refuse(
                f"{kind_words} is only possible when neither the {faction_name(excluded[0])} nor the "
                f"{join_names((faction_name(f) for f in excluded[1:]), last='nor the')} is in the game",
                rule=rule, faction=first, value=kind.kind.value,
            )
        if kind.way is Way.FREMEN_SPECIAL and self.rs.end_game.fremen_special_needs_guild and GUILD not in at_table:
            self.refuse(
                "the Fremen special victory applies only with the Guild in the game (else it is the"
                " Fremen default)",
                rule=self.rs.end_game.needs_guild_rule or rule,
                faction=first,
                value=kind.kind.value,
            )

    def allies_share(self) -> None:
        """Members of a recorded alliance share a result; a BG prediction wins alone (AH IV.A)."""
        results = self.game.results
        for alliance in self.game.alliances:
            live = [f for f in results if f in alliance and results[f] is not R.DROPOUT]
            if not live or any(results[f] is R.BG_PREDICTION for f in live):
                continue
            odd = next((f for f in live if results[f] is not results[live[0]]), None)
            if odd is not None:
                self.refuse(
                    f"allies share a result: {self.who(live[0])} has {kind_name(results[live[0]])},"
                    f" {self.who(odd)} has {kind_name(results[odd])}",
                    rule=self.cite["allied"],
                    faction=odd,
                    value=results[odd].value,
                )
