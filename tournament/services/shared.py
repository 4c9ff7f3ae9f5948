"""What every head-judge action shares: the refusal, the round's row lock, the audit entry."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from dune.seating import SeatingUserError, UnsplittableCount
from foundation.commands import Refused
from foundation.core_words import core_text
from tournament.models import Round, SeatingAudit

RULE_PUBLISHED = "a published seating is replaced only with a reason for the audit log"


def from_planner(error: Exception, *, field_name: str | None = None) -> Refused:
    """Turn a planner error into a Refused answer (409 with the options for an unsplittable count).

    The planner's message already names the players and factions; the field is the one the
    planner names, else ``field_name``."""
    if isinstance(error, UnsplittableCount):
        return Refused(
            core_text(error),
            field="small_tables",
            rule=error.rule,
            status=409,
            extra={
                "count": error.count,
                "options": [
                    {"key": o.key, "label": o.label, "sizes": list(o.sizes), "waiting": o.waiting}
                    for o in error.options
                ],
            },
        )
    if isinstance(error, SeatingUserError):
        return Refused(core_text(error), field=error.field or field_name, rule=error.rule)
    return Refused(core_text(error), field=field_name)


def audit(round_: Round, action: str, *, user: Any, reason: str = "", **details: Any) -> None:
    SeatingAudit.objects.create(
        round=round_,
        action=action,
        user=user if getattr(user, "pk", None) else None,
        reason=reason,
        seed=round_.seed,
        details=details,
    )


def locked(round_: Round) -> Round:
    """Re-read the round under a row lock: two head judges never seat one round at once."""
    return Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)


def require_reason(round_: Round, reason: str, what: str) -> None:
    if round_.state != Round.State.PLANNED and not reason.strip():
        raise Refused(
            _("the seating of %(round)s is published; give a reason to %(what)s") % {"round": round_, "what": what},
            field="reason",
            rule=RULE_PUBLISHED,
            status=400,
        )
