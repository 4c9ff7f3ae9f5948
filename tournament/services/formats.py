"""A tournament's format document: made from a preset with the event's changes, changed or
replaced by its head judge until the first round is seated, frozen from then on.

The document is checked whole (`dune.formats.format_from_document`) before anything is written;
a refusal names every bad field. Once a round has tables, the seating, the faction deal and
every game set up read the document: changing it then would play one event under two rulebooks,
so it is refused (409) saying so.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from dune.formats import Format, FormatDocumentError, format_from_document, get_format, preset_document
from dune.formats.document import apply_changes, parse_text
from foundation.commands import Refused
from tournament.models import Table, Tournament

#: Why a seated tournament's format is frozen (the rule a 409 cites).
FROZEN_RULE = gettext_noop("a format is fixed once the first round is seated")


def document_with_changes(format_key: str, changes: object | None) -> tuple[dict[str, Any], Format]:
    """A preset's document with `changes` (document fields and their values) applied, and the
    format it describes.

    Raises UnknownFormat for an unknown preset, FormatDocumentError naming every bad field.
    """
    document = preset_document(format_key)
    if changes:
        document = apply_changes(document, changes)
    return document, format_from_document(document)


def frozen_because(tournament: Tournament) -> str | None:
    """Why the tournament's format can no longer change (None: it still can)."""
    seated = (
        Table.objects.filter(round__tournament=tournament)
        .order_by("round__number")
        .values_list("round__number", "round__kind")
        .first()
    )
    if seated is None:
        return None
    number, kind = seated
    words = {"number": number, "rule": _(FROZEN_RULE)}
    if kind == "final":
        return _(
            "round %(number)s (final) is already seated: its tables, factions and games were made "
            "under this format, so it can no longer change (%(rule)s)"
        ) % words
    return _(
        "round %(number)s (heat) is already seated: its tables, factions and games were made "
        "under this format, so it can no longer change (%(rule)s)"
    ) % words


def _store(tournament: Tournament, document: dict[str, Any]) -> Tournament:
    fmt = format_from_document(document)
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        why = frozen_because(locked)
        if why is not None:
            raise Refused(why, field="format_changes", rule=FROZEN_RULE, status=409)
        locked.format = fmt.key
        locked.format_document = dict(fmt.document)
        locked.format_version = get_format(fmt.key).version
        locked.save(update_fields=["format", "format_document", "format_version"])
    return locked


def change_format(tournament: Tournament, changes: object) -> Tournament:
    """Apply `changes` (fields of the document and their values) to the tournament's document.

    Raises FormatDocumentError naming every bad field (nothing written), Refused (409) once a
    round is seated.
    """
    if not changes:
        raise FormatDocumentError({"format_changes": "name at least one field of the document to change"})
    return _store(tournament, apply_changes(tournament.rules.document, changes))


def replace_format(tournament: Tournament, text: str) -> Tournament:
    """Replace the tournament's document by an uploaded one (TOML or JSON text, e.g. last year's
    event's download); its `key` names the preset it differs from.

    Raises FormatDocumentError naming every bad field, Refused (409) once a round is seated.
    """
    return _store(tournament, parse_text(text))


def reset_format(tournament: Tournament, format_key: str) -> Tournament:
    """Start again from a preset's document. Raises UnknownFormat, Refused (409) once seated."""
    return _store(tournament, preset_document(format_key))
