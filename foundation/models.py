"""The stored first answer of each write sent with an idempotency key."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class IdempotencyRecord(models.Model):
    """The first answer to a write sent with an `Idempotency-Key` header (or form field).

    Written in the same transaction as the write it answers, under a unique constraint on
    (user, scope, key): a retry of the same request finds it and gets the same answer back
    instead of writing twice. Kept for at least `foundation.idempotency.KEEP`.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    #: What the key was used for, e.g. `table:12:events`, `table:12:clock`, `tournament:3:desk`.
    scope = models.CharField(max_length=80)
    key = models.CharField(max_length=200)
    #: SHA-256 of the request body in canonical JSON: the same key with another body is refused.
    request_hash = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField()
    response = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        # The table the record was first kept in (by the table games app), kept as it is.
        db_table = "gameplay_idempotencyrecord"
        constraints = [models.UniqueConstraint("user", "scope", "key", name="idempotency_key_unique")]

    def __str__(self) -> str:
        return f"{self.scope} {self.key}"
