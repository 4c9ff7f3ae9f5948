"""WBC finals placings (WBC "Final Round Format").

1st goes to the winner; in a two-faction alliance win to the Fremen in a Fremen default, to the
Guild in a Guild default, otherwise to the ally ahead on the adjudication criteria; 2nd to the
ally. A BG prediction puts the BG 1st, the predicted player 2nd and that player's ally 3rd. Two
simultaneous solo winners are ordered by the criteria. Everyone else follows by strongholds and
then the other criteria, alliances disregarded; dropouts come last.
"""

from __future__ import annotations

from dataclasses import dataclass

from dune.engine.ids import LOSING_KINDS, ResultKind
from dune.points.base import PlayerId, ReportRow, TableResult, player_sort_key
from dune.points.errors import WinnersContradictResultError
from dune.points.ranking import competition_ranks

R = ResultKind
RULE = "WBC Final Round Format"


@dataclass(frozen=True, slots=True)
class Placing:
    """One finalist's place; `tied` when the criteria could not separate them from a neighbour."""

    place: int
    tied: bool
    player: PlayerId
    reason: str


def _by_criteria(rows: list[ReportRow]) -> list[ReportRow]:
    ordered = sorted(rows, key=lambda r: player_sort_key(r.player))
    ordered.sort(key=lambda r: r.criteria(), reverse=True)
    return ordered


def check_final(final: TableResult) -> None:
    """Whether the WBC Final Round Format can place this final's report: the one check the
    report's filing and the placings both run, so a final that was filed is always placed.

    Raises:
        WinnersContradictResultError: the table is not marked as a final; a three-faction
            alliance win (three-faction alliances may not be formed in the final); a BG
            prediction without the predicted player (who places 2nd); a Fremen or Guild
            default alliance victory without the Fremen or Guild among the winners (1st).
    """
    if not final.is_final:
        raise WinnersContradictResultError(
            "placings are computed for the finals table only", rule=RULE, field="is_final", value=final.table
        )
    winners = [r for r in final.rows if r.result not in LOSING_KINDS]
    kind = winners[0].result if winners else None
    if kind is R.THREE_ALLIANCE:
        raise WinnersContradictResultError(
            "three-faction alliances may not be formed in the final",
            rule=RULE,
            field="result",
            player=winners[0].player,
            value=kind.value,
        )
    if kind is R.BG_PREDICTION and final.predicted is None:
        raise WinnersContradictResultError(
            "a Bene Gesserit prediction victory in the final names the predicted player, who places 2nd",
            rule=RULE,
            field="predicted",
            player=winners[0].player,
        )
    if kind in _LEADS:
        leader = _LEADS[kind]
        if not any(r.faction == leader for r in winners):
            raise WinnersContradictResultError(
                f"a {_LEADER_WORDS[leader]} default alliance victory in the final needs the "
                f"{_LEADER_WORDS[leader]} among the winners (who places 1st)",
                rule=RULE,
                field="result",
                player=winners[0].player,
                value=kind.value,
            )


#: The allied victories whose 1st place is a given faction (WBC Final Round Format).
_LEADS = {R.FREMEN_DEFAULT_ALLIED: "fremen", R.FREMEN_SPECIAL_ALLIED: "fremen", R.GUILD_DEFAULT_ALLIED: "guild"}
_LEADER_WORDS = {"fremen": "Fremen", "guild": "Guild"}


def final_placings(final: TableResult) -> tuple[Placing, ...]:
    """Places 1..n of a finals table, following the WBC Final Round Format.

    Long because each kind of final result orders the winners differently, and the text lists
    those orders side by side; keeping them together lets a reader check them against it.

    Raises:
        WinnersContradictResultError: what `check_final` refuses.
    """
    check_final(final)
    winners = [r for r in final.rows if r.result not in LOSING_KINDS]
    kind = winners[0].result if winners else None
    head: list[tuple[ReportRow, str]] = []
    if kind is R.BG_PREDICTION and final.predicted is not None:
        head.append((winners[0], "Bene Gesserit prediction victory"))
        head.append((final.row(final.predicted), "the player the Bene Gesserit predicted"))
        head.extend(
            (final.row(p), "ally of the predicted player")
            for p in final.ally_of(final.predicted)
            if p != winners[0].player
        )
    elif len(winners) == 1:
        head.append((winners[0], "sole winner"))
    elif kind in _LEADS:
        leader = _LEADS[kind]
        first = next(r for r in winners if r.faction == leader)
        head.append((first, f"the {_LEADER_WORDS[leader]} player of a {_LEADER_WORDS[leader]} default victory"))
        head.extend((r, "ally of the 1st place") for r in winners if r is not first)
    else:
        reason = (
            "simultaneous solo victory, ordered by the adjudication criteria"
            if kind is R.SOLO_STRONGHOLD
            else "winning alliance, ordered by the adjudication criteria"
        )
        head.extend((r, reason) for r in _by_criteria(winners))

    placed = {row.player for row, _ in head}
    rest = [r for r in final.rows if r.player not in placed and r.result is not R.DROPOUT]
    dropped = sorted(
        (r for r in final.rows if r.result is R.DROPOUT), key=lambda r: player_sort_key(r.player)
    )
    out: list[Placing] = [Placing(i + 1, False, row.player, why) for i, (row, why) in enumerate(head)]
    # Winners sharing a win are tied only if the criteria cannot part them.
    if kind in (R.SOLO_STRONGHOLD, R.ALLIED_STRONGHOLD, R.ADJUDICATED) and len(head) > 1:
        keys = [row.criteria() for row, _ in head]
        ranks = competition_ranks(keys)
        out = [Placing(rank, tied, p.player, p.reason) for p, (rank, tied) in zip(out, ranks, strict=True)]
    ordered_rest = _by_criteria(rest)
    ranks = competition_ranks([r.criteria() for r in ordered_rest])
    offset = len(out)
    out.extend(
        Placing(offset + rank, tied, r.player, "most strongholds, then the adjudication criteria")
        for r, (rank, tied) in zip(ordered_rest, ranks, strict=True)
    )
    offset = len(out)
    out.extend(Placing(offset + 1, len(dropped) > 1, r.player, "dropped out (WBC Dropouts)") for r in dropped)
    return tuple(out)
