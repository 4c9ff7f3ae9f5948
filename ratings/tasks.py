"""The recompute task: idempotent (it replays from the database's current reports, so running
it twice, or late, leaves the same list) and all-or-nothing (one transaction)."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from ratings import services


@shared_task(name="ratings.catch_up")
def catch_up() -> dict[str, Any]:
    """The periodic safety net: recompute from any report changed since the last recompute."""
    summary = services.catch_up()
    return {"replayed": summary.replayed if summary else 0}


@shared_task(name="ratings.recompute")
def recompute_ratings(report_id: int | None = None, player_id: int | None = None) -> dict[str, Any]:
    """Recompute from the changed report's game (or the relinked player's first game; with
    neither, everything)."""
    summary = services.recompute_from(report_id=report_id, player_id=player_id)
    if summary is None:
        return {"replayed": 0, "people": 0}
    return {
        "replayed": summary.replayed,
        "people": summary.people,
        "recomputed_at": summary.recomputed_at.isoformat(),
    }
