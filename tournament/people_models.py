"""People across tournaments, the changes of who is whom, and series of tournaments.

A `Person` is the one human behind the `Player` rows of many tournaments. Players with the
same email (compared by `dune.text_rules.email_key`) share a person automatically; a head judge links or
unlinks a player by hand, and every change leaves a `PersonLink` row. A `Series` groups the
yearly editions of one event, all of one format.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models

from dune.text_rules import email_key


class Series(models.Model):
    name = models.CharField(max_length=200)
    #: The format every edition plays (a key of the format registry; checked by the service).
    format = models.CharField(max_length=8)
    created_at = models.DateTimeField(auto_now_add=True)
    #: The head judge who created it: only they attach tournaments to it or edit it.
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="series_owned"
    )

    class Meta:
        ordering = ["name", "id"]
        verbose_name_plural = "series"

    def __str__(self) -> str:
        return self.name


class Person(models.Model):
    name = models.CharField(max_length=120)
    #: The address that joins registrations together; never shown publicly.
    email = models.EmailField(blank=True)
    #: `email_key(email)`, computed in Python on every save: the one form emails are compared
    #: by, so the unique index and every lookup agree with the Python code ("" without email).
    email_key = models.CharField(max_length=254, blank=True, default="", editable=False)
    #: The person asked to be listed by initials on public pages.
    listed_by_initials = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["email_key"], condition=~models.Q(email_key=""), name="person_email_key_unique"
            ),
        ]

    @classmethod
    def new(cls, *, name: str, email: str = "") -> Person:
        """An unsaved person with its `email_key` set (for bulk_create, which skips save())."""
        return cls(name=name, email=email, email_key=email_key(email))

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.email_key = email_key(self.email)
        super().save(*args, **kwargs)

    def __str__(self) -> str:
        return self.display_name

    @property
    def display_name(self) -> str:
        """The name public pages show: the full name, or initials if the person asked."""
        if self.listed_by_initials:
            return initials(self.name)
        return self.name


def initials(name: str) -> str:
    """ "Ada Lovelace" -> "A. L."; an empty name stays empty."""
    return " ".join(f"{part[0].upper()}." for part in name.split() if part)


class PersonLink(models.Model):
    """One change of the person a player belongs to: who made it, when and why."""

    class Action(models.TextChoices):
        EMAIL = "email", "Linked by the same email"
        NEW = "new", "New person"
        LINK = "link", "Linked by a head judge"
        UNLINK = "unlink", "Unlinked by a head judge"

    player = models.ForeignKey("tournament.Player", on_delete=models.CASCADE, related_name="person_links")
    action = models.CharField(max_length=8, choices=Action.choices)
    #: Kept as ids and names, not keys: a person emptied by a link is deleted, its trace is not.
    from_person = models.IntegerField(null=True, blank=True)
    to_person = models.IntegerField(null=True, blank=True)
    details = models.JSONField(default=dict, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.TextField(blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["player", "at", "id"]

    def __str__(self) -> str:
        return f"{self.get_action_display()}: player {self.player_id} {self.from_person} -> {self.to_person}"
