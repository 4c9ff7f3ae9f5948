"""This installation: its identity in the database and the key it seals its exports with.

The identity (`venue.models.Installation`) is written once into the database, so a new or
restored database is a new installation; the key is derived from the secret key, so a laptop
restored from its own backup (or a spare given the same `var/secret_key`) recognises the
documents it sealed. A spare paired with the serving laptop (`bin/venue pair CODE`,
`venue.pairing`) holds that laptop's key too and trusts its seals as its own.

An installation running with a public secret key (the development default of `make run`)
seals nothing as trusted and trusts no seal: anyone can compute its key.
"""

from __future__ import annotations

import functools
import threading
import uuid
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import F

from dune import export_document as document
from foundation.sql_rows import column, table_name
from venue import pairing
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


@functools.cache
def _version_sql() -> str:
    return (
        f"SELECT {column(Installation, 'id')}, {column(Installation, 'generation')} FROM {table_name(Installation)} "
        f"ORDER BY {column(Installation, 'created_at')}, {column(Installation, 'id')} LIMIT 1"
    )


def cache_version() -> str:
    """What every cached answer is keyed by: the installation and its imports so far (read
    once per request or task: `forget` starts again). Written out in SQL: it is read behind
    the first cached answer of nearly every request, where building the ORM's query cost more
    than the database spent answering it."""
    found = getattr(_local, "version", None)
    if found is None:
        with connection.cursor() as cursor:
            cursor.execute(_version_sql())
            row = cursor.fetchone()
        if row is None:  # a new database: its installation is written on first use
            made = current()
            row = (made.id, made.generation)
        ident = row[0] if isinstance(row[0], uuid.UUID) else uuid.UUID(str(row[0]))
        found = f"{ident.hex[:16]}.{row[1]}"
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
    return pairing.seal_key(settings.SECRET_KEY)


def development_key() -> bool:
    """Whether this installation runs with a secret key anyone can read (no trusted seals)."""
    return not settings.SECRET_KEY or settings.SECRET_KEY in getattr(settings, "PUBLIC_SECRET_KEYS", ())


def public_seal_keys() -> list[bytes]:
    """The seal keys anyone can compute (from the public secret keys)."""
    return [pairing.seal_key(key) for key in getattr(settings, "PUBLIC_SECRET_KEYS", ())]


def sealing_key() -> bytes | None:
    """The key a trusted seal is made with here; None on an installation with a public key."""
    return None if development_key() else export_key()


#: How a document's seal stands with this installation (`seal_trust`).
OWN, PAIRED, PUBLIC, NONE = "own", "paired", "public", ""


def seal_trust(sealed: Mapping[str, Any]) -> str:
    """OWN: this installation sealed it; PAIRED: the serving laptop this spare was paired with
    did; PUBLIC: a public (development) key did, or this installation's own key is public, so
    the seal proves nothing; NONE: no seal this installation knows."""
    if any(document.sealed_by(sealed, key) for key in public_seal_keys()):
        return PUBLIC
    if development_key():
        return PUBLIC if sealed.get("seal") else NONE
    if document.sealed_by(sealed, export_key()):
        return OWN
    if any(document.sealed_by(sealed, key) for key in pairing.paired_keys(settings.VAR_DIR)):
        return PAIRED
    return NONE
