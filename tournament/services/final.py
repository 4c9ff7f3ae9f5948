"""The final: seat the finalists and alternates, then record the faction picks in qualifying order."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from dune.seating import SeatingUserError
from dune.seating_changes import FinalPlan, record_final_pick, seat_final
from foundation import effects
from foundation.commands import Refused
from tournament import seating_adapter as adapter
from tournament.models import Round, SeatingAudit
from tournament.services.heats import refuse_changes_to_frozen_tables
from tournament.services.players import player_ids
from tournament.services.shared import audit, from_planner, locked, require_reason


def seat_final_round(
    round_: Round,
    *,
    user: Any,
    finalists: Sequence[Any],
    alternates: Sequence[Any] = (),
    absent: Sequence[Any] = (),
    seed: int | None = None,
    reason: str = "",
) -> FinalPlan:
    """Seat the final: finalists in qualifying order, alternates filling empty seats in order."""
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise Refused(_("seed must be a non-negative integer, got %(seed)s") % {"seed": repr(seed)}, field="seed")
    with transaction.atomic():
        round_ = locked(round_)
        if round_.kind != Round.Kind.FINAL:
            raise Refused(_("%(round)s is a heat, not the final") % {"round": round_}, field="kind")
        require_reason(round_, reason, "replace it")
        final_ids = player_ids(round_, finalists, "finalists")
        alternate_ids = player_ids(round_, alternates, "alternates")
        if not final_ids:
            raise Refused(_("name the finalists in qualifying order"), field="finalists")
        chosen_seed = seed if seed is not None else secrets.randbelow(2**31)
        try:
            final = seat_final(
                final_ids,
                format=round_.tournament.rules,
                seed=chosen_seed,
                alternates=alternate_ids,
                absent=[a for a in absent if isinstance(a, int)],
                names=adapter.names_for(round_),
            )
        except (SeatingUserError, ValueError) as error:
            raise from_planner(error, field_name="finalists") from error
        refuse_changes_to_frozen_tables(round_, [final.table])
        adapter.save_final(round_, final)
        audit(
            round_,
            SeatingAudit.Action.SEAT,
            user=user,
            reason=reason,
            finalists=final_ids,
            alternates=alternate_ids,
        )
        effects.cause(effects.FINAL_SEATED, round_id=round_.pk)
    return final


def pick_final_faction(round_: Round, player: int, faction: str, *, user: Any) -> FinalPlan:
    """Record the next finalist's faction pick (qualifying order, no faction twice)."""
    with transaction.atomic():
        round_ = locked(round_)
        if round_.kind != Round.Kind.FINAL or not round_.tables.exists():
            raise Refused(_("%(round)s has no final table") % {"round": round_}, field="round")
        try:
            final = record_final_pick(adapter.final_for(round_), player, faction)
        except (SeatingUserError, ValueError) as error:
            raise from_planner(error, field_name="faction") from error
        refuse_changes_to_frozen_tables(round_, [final.table])
        adapter.save_final(round_, final)
        audit(round_, SeatingAudit.Action.PICK, user=user, player=player, faction=faction)
    return final
