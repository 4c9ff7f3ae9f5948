"""The winning rows of a paper game's report checked against the engine's table of result kinds.

A game played on paper has no engine position to decide it, so its report is checked against
what each result kind means (`dune.engine.results.RESULTS`): one winning side, an ending
the kind allows, as many winners as the kind has, the faction it needs and none it excludes,
allies sharing their result. One small validator per family of kinds (solo, allied,
three-faction alliance, end-game tie, adjudicated); the format's own choices (two simultaneous
solo wins, three-faction alliances, the Fremen special needing the Guild) come from its system.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import NoReturn

from dune.engine.factions import GUILD
from dune.engine.ids import ResultKind
from dune.engine.names import faction_name, factions_text, join_names
from dune.engine.results import ENDING_WORDS, RESULTS, KindRule, Way, kind_name
from dune.points.base import PlayerId, ReportRow, TableResult, player_sort_key
from dune.points.errors import WinnersContradictResultError
from dune.points.system import PointsSystem

R = ResultKind

_ALLIANCE_RULE = "WBC House Rules; LoLV glossary 'Alliance'"


@dataclass(frozen=True, slots=True)
class Check:
    """What every validator reads: the system, the report, its winning rows and the players'
    names (a player without a name is shown by id)."""

    system: PointsSystem
    result: TableResult
    winners: tuple[ReportRow, ...]
    names: Mapping[PlayerId, str]

    @property
    def first(self) -> ReportRow:
        return self.winners[0]

    @property
    def kind(self) -> KindRule:
        return RESULTS[self.first.result]

    def who(self, player: PlayerId) -> str:
        return self.names.get(player) or str(player)

    def refuse(
        self, msg: str, *, rule: str, player: PlayerId | None, field: str = "result", value: object = None
    ) -> NoReturn:
        name = self.names.get(player) if player is not None else None
        raise WinnersContradictResultError(
            msg, rule=rule, field=field, player=player, value=value, player_name=name
        )

    def players(self, players: object) -> str:
        ordered = sorted(players, key=player_sort_key)  # type: ignore[call-overload]
        return join_names(self.who(p) for p in ordered)


def refuse(
    msg: str, *, rule: str, player: PlayerId | None, field: str = "result", value: object = None
) -> NoReturn:
    raise WinnersContradictResultError(msg, rule=rule, field=field, player=player, value=value)


def check_winners(
    system: PointsSystem, result: TableResult, *, names: Mapping[PlayerId, str] | None = None
) -> None:
    """The winning rows agree with their kinds, each other, the seats and the game's ending.

    Raises:
        WinnersContradictResultError: no winner, or every seat dropped out; more than one
            winning side; an ending the kind does not allow; more or fewer winners than the kind
            has; a winner without the faction the kind needs, or a faction it excludes in the
            game; allies who do not share their result.
    """
    winners = tuple(r for r in result.rows if r.won)
    if not winners:
        refuse(
            "no row won; every game has a winning side (adjudication picks one when time runs out)",
            rule="AH IV; WBC Adjudication; LoLV 1.09.05",
            player=None,
            field="results",
        )
    if all(r.result is R.DROPOUT for r in result.rows):
        refuse("every seat dropped out", rule="WBC Dropouts", player=None, field="results")
    check = Check(system=system, result=result, winners=winners, names=names or {})
    _one_side(check)
    _endings(check)
    _FAMILY[_family(check.kind)](check)
    _factions(check)
    _allies_share(check)


def _one_side(check: Check) -> None:
    """One winning side, one kind; only an end-game tie mixes a solo and an allied winner."""
    kinds = {r.result for r in check.winners}
    if len(kinds) == 1 or all(RESULTS[k].way is Way.END_GAME for k in kinds):
        return
    first = check.first
    other = next(r for r in check.winners if r.result is not first.result)
    check.refuse(
        f"{check.who(other.player)} wins with {kind_name(other.result)} while {check.who(first.player)}"
        f" wins with {kind_name(first.result)}; a game has one winning side",
        rule=check.system.single_winner_rule,
        player=other.player,
        value=other.result.value,
    )


def _endings(check: Check) -> None:
    ended_by = check.result.ended_by
    for row in check.winners:
        kind = RESULTS[row.result]
        if ended_by not in kind.endings:
            allowed = join_names((ENDING_WORDS[e] for e in sorted(kind.endings)), last="or")
            check.refuse(
                f"{kind.name} cannot end a game by {ENDING_WORDS[ended_by]} (ended_by {ended_by});"
                f" it ends by {allowed}",
                rule=kind.rule,
                player=row.player,
                value=row.result.value,
            )


def _family(kind: KindRule) -> str:
    if kind.way is Way.END_GAME:
        return "end_game"
    if kind.way is Way.ADJUDICATED:
        return "adjudicated"
    return {1: "solo", 2: "allied", 3: "three"}[kind.size or 0]


def _solo(check: Check) -> None:
    """A solo win has one winner (WBC QP lets two unallied solo stronghold wins stand), who is
    not allied, unless it is the Bene Gesserit's prediction (AH IV.A)."""
    kind, count = check.kind, len(check.winners)
    system = check.system
    if count > 1:
        simultaneous = kind.kind is R.SOLO_STRONGHOLD and count == 2 and system.simultaneous_solo_rule
        if not simultaneous:
            check.refuse(
                f"{count} rows won {kind.name}; a solo win has one winner",
                rule=system.single_winner_rule if kind.kind is R.SOLO_STRONGHOLD else kind.rule,
                player=check.winners[1].player,
                value=kind.kind.value,
            )
    if kind.prediction:
        return
    for row in check.winners:
        ally = check.result.ally_of(row.player)
        if ally:
            check.refuse(
                f"{check.who(row.player)} cannot win {kind.name} while allied with {check.players(ally)}",
                rule="AH XII.E.1.b; LoLV 1.10.02.01 (no solo victory while allied)",
                player=row.player,
                value=kind.kind.value,
            )


def _allied(check: Check) -> None:
    kind, count = check.kind, len(check.winners)
    if count != 2:
        hint = " (record a 3-faction alliance's win as three_alliance)" if count == 3 else ""
        check.refuse(
            f"{count} rows share {kind.name}; an allied win has exactly two members{hint}",
            rule="WBC QP; LoLV glossary 'Alliance'",
            player=check.winners[-1].player,
            value=kind.kind.value,
        )
    _one_recorded_alliance(check)


def _three(check: Check) -> None:
    count, system, result = len(check.winners), check.system, check.result
    if count != 3:
        check.refuse(
            f"{count} rows share a three-faction alliance victory; it has exactly three members",
            rule=system.three_alliance_rule or "WBC House Rules",
            player=check.winners[-1].player,
            value=R.THREE_ALLIANCE.value,
        )
    if len(result.rows) != 6 or result.is_final:
        check.refuse(
            "3-faction alliances exist only at a 6-player heat table",
            rule="WBC House Rules; WBC Final Round Format",
            player=check.first.player,
            value=R.THREE_ALLIANCE.value,
        )
    _one_recorded_alliance(check)


def _end_game(check: Check) -> None:
    """Every side with the most strongholds wins (LoLV 1.09.05, AH IV.C.1); an allied side
    has two members."""
    allied = tuple(r for r in check.winners if r.result is R.END_GAME_ALLIED)
    if allied and len(allied) != 2:
        check.refuse(
            f"{len(allied)} rows share an allied end-game victory; an alliance has two members",
            rule="LoLV 1.09.05; glossary 'Alliance'",
            player=allied[0].player,
            value=R.END_GAME_ALLIED.value,
        )
    if allied:
        _one_recorded_alliance(Check(check.system, check.result, allied, check.names))


def _adjudicated(check: Check) -> None:
    """The adjudicated winner is one player or one whole alliance (WBC Adjudication: allies
    summed); three allies only where three-faction alliances exist."""
    result, count, first = check.result, len(check.winners), check.first
    six_heat = len(result.rows) == 6 and not result.is_final
    limit = 3 if check.system.three_alliance_rule is not None and six_heat else 2
    if count > limit:
        check.refuse(
            f"{count} rows share an adjudicated victory; the winner is one player or one alliance"
            f" of at most {limit}",
            rule="WBC Adjudication; LoLV 4.01.09.10",
            player=check.winners[-1].player,
            value=R.ADJUDICATED.value,
        )
    if count > 1:
        _one_recorded_alliance(check)
        return
    ally = result.ally_of(first.player)
    if ally:
        check.refuse(
            f"{check.players(ally)}, allied with {check.who(first.player)}, must share the adjudicated win",
            rule="WBC Adjudication (alliances summed)",
            player=ally[0],
            value=R.LOSS.value,
        )


_FAMILY: Mapping[str, Callable[[Check], None]] = {
    "solo": _solo,
    "allied": _allied,
    "three": _three,
    "end_game": _end_game,
    "adjudicated": _adjudicated,
}


def _one_recorded_alliance(check: Check) -> None:
    """Rows sharing an allied win are one recorded alliance, when alliances were recorded."""
    result = check.result
    group = frozenset(r.player for r in check.winners)
    if result.alliances and group not in result.alliances:
        check.refuse(
            f"{check.players(group)} share {kind_name(check.first.result)} but are not one recorded alliance",
            rule=_ALLIANCE_RULE,
            player=check.first.player,
            field="alliances",
            value=check.first.result.value,
        )


def _factions(check: Check) -> None:
    """The faction a kind needs is among the winners (for a solo kind: is the winner), and no
    faction it excludes is in the game."""
    kind, first = check.kind, check.first
    at_table = {r.faction for r in check.result.rows}
    winning = [r.faction or "" for r in check.winners]
    if kind.winner is not None and kind.solo and first.faction != kind.winner:
        check.refuse(
            f"{kind.name} is won by the {faction_name(kind.winner)} seat, not by"
            f" {check.who(first.player)} ({faction_name(first.faction or '')})",
            rule=kind.rule,
            player=first.player,
            value=kind.kind.value,
        )
    if kind.winner is not None and kind.winner not in winning:
        check.refuse(
            f"{kind.name} needs the {faction_name(kind.winner)} among the winners"
            f" (the winners play {factions_text(winning)})",
            rule=kind.rule,
            player=first.player,
            value=kind.kind.value,
        )
    present = sorted(kind.absent & at_table, key=str)
    if present:
        excluded = [f"the {faction_name(f)}" for f in sorted(kind.absent)]
        if len(excluded) == 1:
            when = f"{excluded[0]} is not in the game"
        else:
            when = f"neither {' nor '.join(excluded)} is in the game"
        check.refuse(
            f"{kind.name} is only possible when {when}",
            rule=kind.rule,
            player=first.player,
            value=kind.kind.value,
        )
    needs_guild = check.system.fremen_special_needs_guild_rule
    if kind.way is Way.FREMEN_SPECIAL and needs_guild is not None and GUILD not in at_table:
        check.refuse(
            "the Fremen special victory applies only with the Guild in the game (else it is the"
            " Fremen default)",
            rule=needs_guild,
            player=first.player,
            value=kind.kind.value,
        )


def _allies_share(check: Check) -> None:
    """Members of a recorded alliance share a result; a BG prediction wins alone (AH IV.A)."""
    result = check.result
    for alliance in result.alliances:
        members = [result.row(p) for p in sorted(alliance, key=player_sort_key)]
        live = [m for m in members if m.result is not R.DROPOUT]
        if any(m.result is R.BG_PREDICTION for m in live):
            continue
        odd = next((m for m in live if m.result is not live[0].result), None)
        if odd is not None:
            check.refuse(
                f"allies share a result: {check.who(live[0].player)} has {kind_name(live[0].result)},"
                f" {check.who(odd.player)} has {kind_name(odd.result)}",
                rule="AH XII.E.1; LoLV 1.09.02.02 (allies win together)",
                player=odd.player,
                value=odd.result.value,
            )
