"""Who may change a clock: one answer for the page and the API.

A head judge runs every clock of the tournament; a table judge calls the clock at their own
table, stops a called timer, and finishes their table's clock (`clocks.services.finish` asks
for a head judge again when the game is not over).
"""

from __future__ import annotations

from typing import Any

from tournament.permissions import can_judge_table, is_head_judge

__all__ = ["TABLE_JUDGE_ACTIONS", "may_change_table_clock", "may_change_round_clocks", "refusal_text"]

#: The table actions a table's own judge may take; every other one is the head judge's.
TABLE_JUDGE_ACTIONS = frozenset({"call", "stop", "finish"})


def may_change_table_clock(user: Any, table: Any, action: str) -> bool:
    if action in TABLE_JUDGE_ACTIONS:
        return can_judge_table(user, table)
    return is_head_judge(user, table.round.tournament)


def may_change_round_clocks(user: Any, round_: Any) -> bool:
    return is_head_judge(user, round_.tournament)


def refusal_text(action: str | None) -> str:
    """What a person refused `action` reads (None: a round-wide action)."""
    if action is None:
        return "Only a head judge of this tournament may change the round's clocks."
    if action in TABLE_JUDGE_ACTIONS:
        return "Only this table's judge or a head judge may call, stop or finish this clock."
    return "Only a head judge of this tournament may change its clocks."
