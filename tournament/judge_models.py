"""Who agreed to judge a tournament: the invitations a head judge sends to existing accounts,
their answers, and the accounts a head judge made for the tournament.

An appointment of an existing account is only an invitation until the account accepts it;
what an export or a spare's changes may carry of an account (its password hash) depends on
that agreement (`tournament.judges.sign_in_accounts`).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class JudgeInvitation(models.Model):
    class Role(models.TextChoices):
        HEAD_JUDGE = "head_judge", _("head judge")
        TABLE_JUDGE = "table_judge", _("table judge")

    class How(models.TextChoices):
        #: A head judge asked an existing account; it judges once it accepts.
        INVITED = "invited", _("invited by a head judge")
        #: A head judge made the account for this tournament (a one-time sign-in code).
        ACCOUNT_MADE = "account_made", _("account made for this tournament")
        #: The account created the tournament.
        CREATED_TOURNAMENT = "created_tournament", _("created the tournament")

    tournament = models.ForeignKey("tournament.Tournament", on_delete=models.CASCADE, related_name="judge_invitations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="judge_invitations")
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.TABLE_JUDGE)
    how = models.CharField(max_length=24, choices=How.choices, default=How.INVITED)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    #: When the account agreed; empty while the invitation waits for its answer.
    accepted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user", "role"], name="one_invitation_per_role"),
        ]

    def __str__(self) -> str:
        return f"{self.user} as {self.get_role_display()} of {self.tournament}"

    @property
    def pending(self) -> bool:
        return self.accepted_at is None
