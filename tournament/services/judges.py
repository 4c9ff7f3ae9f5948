"""A tournament's judges by their own agreement: a head judge invites an existing account,
which accepts (or declines) on its account page before it judges; the creator of a tournament
agreed by creating it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from foundation.accounts import username_problem
from foundation.commands import Refused
from tournament.judge_models import JudgeInvitation
from tournament.models import Tournament

Role = JudgeInvitation.Role
How = JudgeInvitation.How


def account_named(username: Any, *, field: str = "username") -> Any:
    """The account `username` names. Raises Refused (field) when there is none."""
    name = username.strip() if isinstance(username, str) else ""
    user = get_user_model().objects.filter(username=name).first() if name else None
    if user is None:
        raise Refused(_("no user named %(name)r") % {"name": name}, field=field)
    return user


def agree(tournament: Tournament, user: Any, *, role: str, how: str, by: Any = None) -> JudgeInvitation:
    """Record that `user` agreed to `role` in `tournament` (made the tournament, or an account
    a head judge made for it), and give it the role."""
    invitation, _created = JudgeInvitation.objects.update_or_create(
        tournament=tournament, user=user, role=role,
        defaults={"how": how, "invited_by": by, "accepted_at": timezone.now()},
    )
    _give_role(invitation)
    return invitation


def invite_table_judge(tournament: Tournament, username: Any, *, by: Any) -> JudgeInvitation:
    """Invite an existing account to judge the tournament's tables; it judges once it accepts
    (on its account page). Inviting again an account already asked answers the same
    invitation. Refused (field "username") for no such account, a superuser, or a table judge
    of the tournament already."""
    user = account_named(username)
    if user.is_superuser:
        raise Refused(
            _("%(name)s is an administrator's account: it cannot be invited to judge tables") % {"name": user.get_username()},
            field="username",
        )
    if tournament.table_judges.filter(pk=user.pk).exists():
        raise Refused(
            _("%(name)s is a table judge of %(tournament)s already")
            % {"name": user.get_username(), "tournament": tournament.name},
            field="username",
        )
    invitation, _created = JudgeInvitation.objects.get_or_create(
        tournament=tournament, user=user, role=Role.TABLE_JUDGE,
        defaults={"how": How.INVITED, "invited_by": by},
    )
    return invitation


def _give_role(invitation: JudgeInvitation) -> None:
    roles = {Role.HEAD_JUDGE: invitation.tournament.head_judges, Role.TABLE_JUDGE: invitation.tournament.table_judges}
    roles[Role(invitation.role)].add(invitation.user)


def _invitation_of(user: Any, pk: Any) -> JudgeInvitation:
    invitation = (
        JudgeInvitation.objects.select_for_update().select_related("tournament")
        .filter(pk=pk, user=user, accepted_at__isnull=True).first()
        if getattr(user, "is_authenticated", False) and isinstance(pk, int) else None
    )
    if invitation is None:
        raise Refused(_("no invitation %(number)s waits for your answer") % {"number": pk}, field="invitation",
                      status=404)
    return invitation


def accept_invitation(user: Any, pk: Any) -> JudgeInvitation:
    """`user` accepts its invitation `pk`: it judges the tournament from now on."""
    with transaction.atomic():
        invitation = _invitation_of(user, pk)
        invitation.accepted_at = timezone.now()
        invitation.save(update_fields=["accepted_at"])
        _give_role(invitation)
    return invitation


def decline_invitation(user: Any, pk: Any) -> Tournament:
    """`user` declines its invitation `pk` (the head judge may ask again)."""
    with transaction.atomic():
        invitation = _invitation_of(user, pk)
        tournament = invitation.tournament
        invitation.delete()
    return tournament


def withdraw_invitation(tournament: Tournament, username: Any) -> Any:
    """A head judge takes back an invitation not answered yet. Refused (field "username") when
    none waits for that account."""
    name = username.strip() if isinstance(username, str) else ""
    deleted, _rows = JudgeInvitation.objects.filter(
        tournament=tournament, user__username=name, accepted_at__isnull=True
    ).delete()
    if not deleted:
        raise Refused(_("no invitation of %(name)r waits for an answer") % {"name": name}, field="username")
    return name


def forget_agreement(tournament: Tournament, user: Any, role: str) -> None:
    """A judge taken off the tournament: asked again before it judges again."""
    JudgeInvitation.objects.filter(tournament=tournament, user=user, role=role).delete()


def make_table_judge_account(tournament: Tournament, username: Any, *, by: Any) -> Any:
    """A new account made by a head judge for the tournament's tables: no password (the head
    judge types none; the judge signs in with a one-time code and keeps the account), a table
    judge of the tournament by this agreement. Refused (field "username") for a name that is
    empty, taken, a lookalike of an existing account's or a mix of scripts."""
    name = username.strip() if isinstance(username, str) else ""
    problem = username_problem(name) if name else _("a table judge's account needs a name")
    if not problem and len(name) > 150:
        problem = _("a name of at most 150 characters")
    if problem:
        raise Refused(problem, field="username")
    with transaction.atomic():
        user = get_user_model().objects.create_user(username=name)
        user.set_unusable_password()
        user.save(update_fields=["password"])
        agree(tournament, user, role=Role.TABLE_JUDGE, how=How.ACCOUNT_MADE, by=by)
    return user


def made_for(tournament: Tournament, username: Any) -> Any:
    """The account a head judge made for the tournament's tables under `username` (a new
    one-time code goes only to such an account). Refused (field "username") otherwise."""
    name = username.strip() if isinstance(username, str) else ""
    made = JudgeInvitation.objects.filter(
        tournament=tournament, role=Role.TABLE_JUDGE, how=How.ACCOUNT_MADE, user__username=name
    ).select_related("user").first()
    if made is None:
        raise Refused(_("%(name)r is not an account made for %(tournament)s") % {"name": name, "tournament": tournament.name},
                      field="username")
    return made.user
