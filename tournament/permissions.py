"""Who may do what: head judges run a tournament, table judges write to their own tables."""

from __future__ import annotations

from typing import Any

from django.db.models import Q


def is_head_judge(user: Any, tournament: Any) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser:
        return True
    return tournament.head_judges.filter(pk=user.pk).exists()


def can_judge_table(user: Any, table: Any) -> bool:
    """A table judge writes only to the tables assigned to them; head judges to every table."""
    if not getattr(user, "is_authenticated", False):
        return False
    tournament = table.round.tournament
    if is_head_judge(user, tournament):
        return True
    return table.judge_id == user.pk or (
        table.judge_id is None and tournament.table_judges.filter(pk=user.pk).exists()
    )


def judged_tables_q(user: Any) -> Q:
    """The tables `user` judges as a table judge (`can_judge_table` without the head judges'
    every table): those assigned to them, and the unassigned tables of the tournaments that
    appointed them to any table. A filter on Table."""
    return Q(judge_id=user.pk) | Q(judge__isnull=True, round__tournament__table_judges=user.pk)


# --- the commands' questions (tournament.commands asks these for the page and the API alike) --

#: What a person refused a head judge's action reads.
HEAD_JUDGE_ONLY = "Only a head judge of this tournament may change it."
#: What a person refused the creation of a tournament reads.
STAFF_ONLY = "Creating a tournament needs a head judge's (staff) account."
#: What a person refused a change of the format reads.
FORMAT_HEAD_JUDGE_ONLY = "Only a head judge of this tournament may change its format."
#: What a person refused the creation of a series reads.
SERIES_STAFF_ONLY = "Creating a series needs a head judge's (staff) account."
#: What a person refused a table's kept cards reads (LoLV 0.08).
TABLE_JUDGE_ONLY = "Only the head judge or this table's judge records the kept cards."


def may_create_tournament(user: Any) -> bool:
    """A staff account creates tournaments (and becomes the new one's head judge)."""
    return bool(getattr(user, "is_authenticated", False) and getattr(user, "is_staff", False))


def may_run(user: Any, tournament: Any) -> bool:
    """Register, check in, add rounds, seat, publish, close: the tournament's head judges."""
    return is_head_judge(user, tournament)
