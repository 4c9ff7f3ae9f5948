"""Victory: win attempts, the Mentat Pause check, and the end of the last turn.

Each answer is a `Verdict`: the winning sides with their result kinds and the rule that
decided. Thresholds, the Shield Wall, several qualifiers and the end-game chain come from
the ruleset; nothing here branches on a ruleset's key.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from dune.engine.board import HABBANYA_SIETCH, SIETCH_TABR, TUEKS_SIETCH
from dune.engine.control import Occupancy, occupants, strongholds_in_play
from dune.engine.factions import BENE_GESSERIT, ECAZ, FREMEN, GUILD
from dune.engine.ids import ResultKind
from dune.engine.names import factions_text
from dune.engine.position import Position
from dune.engine.results import Way, kind_for


@dataclass(frozen=True, slots=True)
class Verdict:
    sides: tuple[tuple[tuple[str, ...], ResultKind], ...]
    rule: str

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(f for side, _k in self.sides for f in side)

    @property
    def kind(self) -> ResultKind:
        return self.sides[0][1]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Verdict:
        """A verdict from its JSON (`to_dict()`). Raises KeyError or ValueError."""
        sides = tuple((tuple(s["factions"]), ResultKind(s["kind"])) for s in data["sides"])
        return cls(sides=sides, rule=data["rule"])

    def to_dict(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "kind": str(self.kind),
            "rule": self.rule,
            "sides": [{"factions": list(s), "kind": str(k)} for s, k in self.sides],
        }


def ordered_sides(position: Position, order: list[str]) -> list[tuple[str, ...]]:
    """Sides sorted by their earliest member in `order` (storm order when known)."""
    rank = {f: i for i, f in enumerate(order)}
    return sorted(position.sides(), key=lambda side: min(rank.get(f, 99) for f in side))


def _ecaz_pair_holds(position: Position, occ: Occupancy, side: tuple[str, ...], count: int) -> bool:
    """LoLV 2.11.15: Ecaz and ally co-occupying three strongholds need only three."""
    if ECAZ not in side or len(side) != 2 or not position.ruleset.ecaz_co_occupy:
        return False
    shared = sum(1 for s in strongholds_in_play(position) if occupants(position, occ, s) == set(side))
    return shared >= count


def _at_threshold(
    position: Position,
    occ: Occupancy,
    order: list[str],
    sides: list[tuple[str, ...]] | None,
    held: Callable[[tuple[str, ...]], int],
) -> list[tuple[str, ...]]:
    """The sides (`sides`, or every side in `order`) whose `held` strongholds reach their
    threshold, or an Ecaz pair co-occupying three (`_ecaz_pair_holds`)."""
    setup = position.setup
    assert setup is not None
    return [
        side
        for side in (sides if sides is not None else ordered_sides(position, order))
        if held(side) >= position.ruleset.threshold(len(side), setup.options)
        or _ecaz_pair_holds(position, occ, side, 3)
    ]


def win_attempts(
    position: Position, occ: Occupancy, order: list[str], *, sides: list[tuple[str, ...]] | None = None
) -> list[list[str]]:
    """Sides whose forces stand in at least as many strongholds as their threshold: they
    win if they win their battles (LoLV 4.01.04). Proposed; the judge confirms."""
    strongholds = strongholds_in_play(position)
    present = {s: occupants(position, occ, s) for s in strongholds}

    def standing(side: tuple[str, ...]) -> int:
        members = set(side)
        return sum(1 for s in strongholds if present[s] & members)

    return [list(side) for side in _at_threshold(position, occ, order, sides, standing)]


def qualifying_sides(
    position: Position,
    occ: Occupancy,
    control: dict[str, str | None],
    order: list[str],
    *,
    sides: list[tuple[str, ...]] | None = None,
) -> list[tuple[str, ...]]:
    """Sides controlling at least their threshold of strongholds (LoLV 1.09.02, AH IV)."""
    return _at_threshold(position, occ, order, sides, lambda side: sum(1 for c in control.values() if c in side))


def mentat_victory(
    position: Position,
    occ: Occupancy,
    control: dict[str, str | None],
    order: list[str],
    *,
    sides: list[tuple[str, ...]] | None = None,
) -> Verdict | None:
    """Who wins if the Mentat Pause came now (LoLV 1.09.02-03, 2.02.03; AH IV, IV.A)."""
    rs = position.ruleset
    cite = rs.cite
    qualifiers = qualifying_sides(position, occ, control, order, sides=sides)
    if not qualifiers:
        return None
    if rs.several_winners == "all" or len(qualifiers) == 1:
        winners = qualifiers
        rule = (
            cite["several"] if len(qualifiers) > 1 else cite["solo" if len(qualifiers[0]) == 1 else "allied"]
        )
    else:
        winners = qualifiers[:1]  # LoLV 1.09.03 / 4.01.12: first in storm order
        rule = cite["several"]
    pred = position.prediction
    if pred is not None and pred.turn == position.turn and BENE_GESSERIT in position.factions:
        pool = qualifiers if rs.prediction_on_qualifiers else winners
        if any(pred.faction in side for side in pool):
            side = (BENE_GESSERIT,)
            return Verdict(sides=((side, kind_for(Way.PREDICTION, side)),), rule=cite["prediction"])
    return Verdict(sides=tuple((side, kind_for(Way.STRONGHOLD, side)) for side in winners), rule=rule)


def _only_fremen(occ: Occupancy, territory: str) -> bool:
    return occ.factions_in(territory) <= {FREMEN}


def fremen_special_met(position: Position, occ: Occupancy) -> bool:
    """Only the Fremen (or nobody) in Sietch Tabr and Habbanya Sietch, and none of the
    forbidden factions in Tuek's Sietch (AH IV.B and Fremen sheet; LoLV 2.04.09, 2.10.18,
    4.01.18)."""
    rule = position.ruleset.end_game
    if not (_only_fremen(occ, SIETCH_TABR) and _only_fremen(occ, HABBANYA_SIETCH)):
        return False
    forbidden = set(rule.tueks_forbidden)
    if rule.fremen_allies_exempt:
        forbidden -= set(position.allies_of(FREMEN))
    return not (occ.factions_in(TUEKS_SIETCH) & forbidden)


def end_of_game(position: Position, occ: Occupancy, order: list[str]) -> Verdict:
    """Who wins when the last turn ends without a stronghold winner."""
    rs = position.ruleset
    cite = rs.cite
    present = set(position.factions)
    if FREMEN in present and (GUILD in present or not rs.end_game.fremen_special_needs_guild):
        if fremen_special_met(position, occ):
            side = position.side_of(FREMEN)
            return Verdict(sides=((side, kind_for(Way.FREMEN_SPECIAL, side)),), rule=cite["fremen_special"])
    if GUILD in present:
        side = position.side_of(GUILD)
        return Verdict(sides=((side, kind_for(Way.GUILD_DEFAULT, side)),), rule=cite["guild_default"])
    if FREMEN in present:
        side = position.side_of(FREMEN)
        return Verdict(sides=((side, kind_for(Way.FREMEN_DEFAULT, side)),), rule=cite["fremen_default"])
    # Neither: the side occupying the most strongholds; every side tied on the most wins
    # (LoLV 1.09.05, AH IV.C.1). Allies count together (LoLV 1.10.02.00, AH XII.E.1).
    strongholds = strongholds_in_play(position)
    counts = []
    for side in ordered_sides(position, order):
        members = set(side)
        counts.append((sum(1 for s in strongholds if occupants(position, occ, s) & members), side))
    best = max((c for c, _s in counts), default=0)
    sides = tuple((side, kind_for(Way.END_GAME, side)) for c, side in counts if c == best)
    return Verdict(sides=sides, rule=cite["end_game"])


def victory_stands(verdict: Verdict, instead: str) -> str:
    """The refusal of a record that would pass over a victory standing at this Mentat Pause, in
    words naming the winners and what to do: "Atreides win at this Mentat Pause (rule AH IV.A):
    confirm the victory with the table (Confirm victory) instead of starting another turn"."""
    winners, rule = factions_text(verdict.winners), verdict.rule
    if len(verdict.winners) == 1:
        return {
            "starting another turn": f"{winners} wins at this Mentat Pause (rule {rule}): confirm the victory with"
            " the table (Confirm victory) instead of starting another turn",
            "ending the last turn": f"{winners} wins at this Mentat Pause (rule {rule}): confirm the victory with"
            " the table (Confirm victory) instead of ending the last turn",
            "an adjudication": f"{winners} wins at this Mentat Pause (rule {rule}): confirm the victory with the"
            " table (Confirm victory) instead of an adjudication",
        }[instead]
    return {
        "starting another turn": f"{winners} win at this Mentat Pause (rule {rule}): confirm the victory with the"
        " table (Confirm victory) instead of starting another turn",
        "ending the last turn": f"{winners} win at this Mentat Pause (rule {rule}): confirm the victory with the"
        " table (Confirm victory) instead of ending the last turn",
        "an adjudication": f"{winners} win at this Mentat Pause (rule {rule}): confirm the victory with the table"
        " (Confirm victory) instead of an adjudication",
    }[instead]
