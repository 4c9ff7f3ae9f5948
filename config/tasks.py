"""Tasks of the platform as a whole."""

from celery import shared_task


@shared_task(name="config.ping")
def ping() -> str:
    """A round trip through the broker and a worker (used by the health tests)."""
    return "pong"
