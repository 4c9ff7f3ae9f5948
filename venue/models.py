"""What the venue kit remembers about this installation and the tournaments it imported."""

from __future__ import annotations

import uuid

from django.db import models


class Installation(models.Model):
    """This database's identity, written once: a new or restored database gets its own, so
    nothing kept outside the database (the cache, a sealed export's origin) is taken for its."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    #: Bumped by every import: cached answers written before it are no longer read.
    generation = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"installation {self.id}"


class ImportedTournament(models.Model):
    """Where an imported tournament came from: the installation and the tournament id that
    first made it (carried along by every later export), and the checksum of the file."""

    tournament = models.OneToOneField("tournament.Tournament", on_delete=models.CASCADE, related_name="origin")
    origin_installation = models.CharField(max_length=64)
    origin_tournament = models.BigIntegerField()
    checksum = models.CharField(max_length=80)
    imported_at = models.DateTimeField(auto_now_add=True)
    #: The account that ran the import, when one was named.
    imported_by = models.CharField(max_length=150, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint("origin_installation", "origin_tournament", name="imported_tournament_once"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} from {self.origin_installation}:{self.origin_tournament}"
