"""The outbox: every message the platform sends, kept with its state (mail/outbox.py)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Message(models.Model):
    """One email to one address, recorded in the transaction that caused it.

    It knows its tournament only by number (`tournament_id`, or none for a message of no
    tournament such as a judge's password reset): this app sits under the tournament app.
    """

    class State(models.TextChoices):
        QUEUED = "queued", _("queued")
        SENT = "sent", _("sent")
        FAILED = "failed", _("failed")
        KEPT = "kept", _("kept in the outbox")

    recipient = models.CharField(max_length=254)
    #: What the kind of message is called in code (`seating`, `password_reset`, ...).
    kind = models.CharField(max_length=40)
    subject = models.CharField(max_length=255)
    text = models.TextField()
    html = models.TextField(blank=True)
    tournament_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    state = models.CharField(max_length=8, choices=State.choices, default=State.QUEUED)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["tournament_id", "state"], name="mail_message_tournament_state")]

    def __str__(self) -> str:
        return f"{self.kind} to {self.recipient} ({self.state})"


class Stop(models.Model):
    """An address that asked to receive no more messages, by its `dune.text_rules.email_key`."""

    email_key = models.CharField(max_length=254, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.email_key
