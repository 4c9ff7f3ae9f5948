"""A game report of a tracked game checked against the engine's own decision.

When the engine followed a game to its end, its outcome (who won, with which kind of result,
how the game ended) is the answer; a report that says otherwise is refused here, by the code
that decided, with the rule that decided. Reports of games played on paper have no outcome
and are checked against the table of result kinds instead.
"""

from __future__ import annotations

from collections.abc import Mapping

from dune.engine.errors import IllegalAction
from dune.engine.ids import LOSING_KINDS, ResultKind
from dune.engine.names import faction_name, factions_text
from dune.engine.position import Outcome
from dune.engine.results import ENDING_WORDS, kind_name


def decided_kinds(decided: Outcome) -> dict[str, str]:
    """The result kind the engine gave each winning faction."""
    kinds = {f: kind for side, kind in decided.sides for f in side}
    for faction in decided.winners:
        kinds.setdefault(faction, decided.kind)
    return kinds


def check_reported(decided: Outcome, reported: Mapping[str, str], *, ended_by: str) -> None:
    """Every faction's reported result and the reported ending agree with `decided`.

    `reported` maps each faction at the table to its reported result kind; a faction that did
    not win may be reported as a loss or a dropout.

    Raises:
        IllegalAction: a faction reported with another result than the engine decided (the
            offending input is the faction), or another ending (the input is the ending).
    """
    kinds = decided_kinds(decided)
    for faction, kind in reported.items():
        expected = kinds.get(faction)
        if expected is None and ResultKind(kind) not in LOSING_KINDS:
            raise IllegalAction(
                rule=decided.rule,
                msg=f"the recorded game says {factions_text(decided.winners)} won with {kind_name(decided.kind)}; "
                f"{faction_name(faction)} did not win",
                input=faction,
            )
        if expected is not None and kind != expected:
            raise IllegalAction(
                rule=decided.rule,
                msg=f"the recorded game says {faction_name(faction)} won with {kind_name(expected)},"
                f" not {kind_name(kind)}",
                input=faction,
            )
    if ended_by != decided.ended_by:
        raise IllegalAction(
            rule=decided.rule,
            msg=f"the recorded game ended by {ENDING_WORDS.get(decided.ended_by, decided.ended_by)},"
            f" not by {ENDING_WORDS.get(ended_by, ended_by)}",
            input=(ended_by,),
        )
