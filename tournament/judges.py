"""Which accounts judge a tournament by their own agreement, and so which accounts a
tournament's sign-in content may carry.

An export (`venue.export`, `content.sign_in`) and a spare's changes feed (`venue.changes`) carry a
password hash so that judges sign in after a restore or a take-over as before. A hash is a
secret of its account: it leaves the installation only for the accounts that chose to judge
this tournament and nothing else. `sign_in_accounts` is the one place that says which.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet

from tournament.judge_models import JudgeInvitation
from tournament.models import Table, Tournament

Role = JudgeInvitation.Role


def agreed(tournament: Tournament, role: str) -> QuerySet[Any]:
    """The ids of the accounts that agreed to `role` in `tournament` (an accepted invitation,
    an account a head judge made for it, or the tournament's creator)."""
    return JudgeInvitation.objects.filter(tournament=tournament, role=role, accepted_at__isnull=False).values("user_id")


def sign_in_accounts(tournament: Tournament) -> QuerySet[Any]:
    """The accounts whose password hash the tournament's sign-in content may carry, by id.

    An account is carried when it holds a role in this tournament that it agreed to: a head
    judge that created the tournament or accepted, a table judge that accepted its invitation
    or whose account a head judge made for the tournament. Never carried, whatever it agreed:
    a superuser; a staff account that is not a head judge of this tournament; an account
    linked to a player of any tournament; an account holding a role in another tournament
    (its hash is that tournament's as much as this one's)."""
    users = get_user_model().objects
    here = Q(head_judge_of=tournament, pk__in=agreed(tournament, Role.HEAD_JUDGE)) | Q(
        table_judge_of=tournament, pk__in=agreed(tournament, Role.TABLE_JUDGE)
    )
    chosen = users.filter(here).values("pk")
    elsewhere = (
        Tournament.head_judges.through.objects.exclude(tournament=tournament).values("user_id")
        .union(Tournament.table_judges.through.objects.exclude(tournament=tournament).values("user_id"))
        # No ordering inside a compound statement: SQLite (the venue laptop) refuses one.
        .union(Table.objects.exclude(round__tournament=tournament).exclude(judge=None).order_by().values("judge_id"))
    )
    head_here = users.filter(head_judge_of=tournament).values("pk")
    return (
        users.filter(pk__in=chosen, is_superuser=False)
        .exclude(pk__in=[row["user_id"] for row in elsewhere])
        .exclude(Q(is_staff=True) & ~Q(pk__in=head_here))
        .exclude(players__isnull=False)
        .distinct()
        .order_by("pk")
    )


def pending_invitations(tournament: Tournament) -> QuerySet[JudgeInvitation]:
    """The invitations of the tournament still waiting for their account's answer."""
    return tournament.judge_invitations.filter(accepted_at__isnull=True).select_related("user").order_by("created_at", "pk")


def invitations_for(user: Any) -> QuerySet[JudgeInvitation]:
    """The invitations waiting for `user`'s answer, oldest first."""
    if not getattr(user, "is_authenticated", False):
        return JudgeInvitation.objects.none()
    return (
        JudgeInvitation.objects.filter(user=user, accepted_at__isnull=True)
        .select_related("tournament", "invited_by")
        .order_by("created_at", "pk")
    )


def accounts_made_for(tournament: Tournament) -> QuerySet[Any]:
    """The accounts a head judge made for the tournament's tables (a new one-time code goes
    only to these), by name."""
    return get_user_model().objects.filter(
        judge_invitations__tournament=tournament, judge_invitations__how=JudgeInvitation.How.ACCOUNT_MADE,
        judge_invitations__role=Role.TABLE_JUDGE,
    ).order_by("username")
