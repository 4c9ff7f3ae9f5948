"""The worker's side of the outbox (mail/outbox.py): delivery, retried with a growing delay."""

from __future__ import annotations

from celery import shared_task

from mail import outbox


@shared_task(name=outbox.DELIVER, bind=True, ignore_result=True, max_retries=None)
def deliver(self, message_id: int) -> str:  # type: ignore[no-untyped-def]
    attempt = outbox.deliver(message_id)
    if attempt.retry_in is not None:
        raise self.retry(countdown=attempt.retry_in)
    return attempt.state


@shared_task(name=outbox.DELIVER_EACH, ignore_result=True)
def deliver_each(message_ids: list[int]) -> int:
    """Many messages queued by one write (a round's seating): one delivery task each."""
    for message_id in message_ids:
        deliver.delay(message_id)
    return len(message_ids)


@shared_task(name="mail.sweep", ignore_result=True)
def sweep() -> int:
    """Hand again to delivery the queued messages whose task was lost."""
    waiting = outbox.waiting_too_long()
    for message_id in waiting:
        deliver.delay(message_id)
    return len(waiting)
