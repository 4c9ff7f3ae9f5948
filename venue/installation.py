"""This installation: its identity in the database and the key it seals its exports with.

The identity (`venue.models.Installation`) is written once into the database, so a new or
restored database is a new installation; the key is derived from the secret key, so a laptop
restored from its own backup (or a spare given the same `var/secret_key`) recognises the
documents it sealed.
"""

from __future__ import annotations

import hashlib
import threading

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F

from venue.models import Installation


def current() -> Installation:
    """This database's installation row (written on first use; the oldest wins a race)."""
    found = Installation.objects.order_by("created_at", "id").first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            Installation.objects.create()
    except IntegrityError:  # pragma: no cover - a uuid4 collision
        pass
    return Installation.objects.order_by("created_at", "id").first() or Installation.objects.create()


def identity() -> str:
    return str(current().id)


_local = threading.local()


def cache_version() -> str:
    """What every cached answer is keyed by: the installation and its imports so far (read
    once per request or task: `forget` starts again)."""
    found = getattr(_local, "version", None)
    if found is None:
        row = current()
        found = f"{row.id.hex[:16]}.{row.generation}"
        _local.version = found
    return str(found)


def forget(**_: object) -> None:
    """Read the identity again on the next cache use (a new request or task, an import)."""
    _local.version = None


def forget_cached_answers() -> None:
    """After an import: no answer cached before it is read again (the cache drops them in time)."""
    row = current()
    Installation.objects.filter(pk=row.pk).update(generation=F("generation") + 1)
    forget()
    transaction.on_commit(forget)


def export_key() -> bytes:
    """The key this installation seals its exports with (from its secret key)."""
    return hashlib.sha256(b"dune.venue.export-seal:" + settings.SECRET_KEY.encode("utf-8")).digest()
