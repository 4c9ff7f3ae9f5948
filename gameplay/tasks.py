"""Periodic housekeeping of the table game."""

from __future__ import annotations

from celery import shared_task

from foundation import idempotency


@shared_task(name="gameplay.forget_old_idempotency_keys")
def forget_old_idempotency_keys() -> int:
    """Remove idempotency records past their keeping time; returns how many went."""
    return idempotency.forget_old()
