"""`GET /healthz`: is the database, Redis and a Celery worker answering, are the backups written?

200 when all are up; 503 naming what is down or failing. When all is up the answer takes a few
milliseconds: the worker probe returns at the first worker's reply instead of waiting out its
timeout. Each probe has a short timeout so that a dead service makes the answer slow by at
most a second or two, never hang. Only staff see the details (database engine, worker host
names, raw errors); everyone else gets the status and the names of the services that are down.

Backups are reported too: a tournament whose newest backup failed makes the status `failing`
(`"failing": ["backups"]`) and the answer 503, like any other failing check (a monitor sees it at
once; the services are named in `down`, the backups in `failing`); disk space below what two
backups need makes it `warning` (`"warnings": ["backups"]`, still 200); staff see which
tournament, why, and the last good backup.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import connection
from django.http import JsonResponse

from config.celery import app
from venue import backups


def _select_one() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def check_database() -> dict[str, Any]:
    """Up when a query answers. A kept connection the database dropped (a restart) fails once:
    it is closed and the query asked again on a new one before the database is called down."""
    try:
        try:
            _select_one()
        except Exception:
            if connection.in_atomic_block:
                raise
            connection.close()
            _select_one()
    except Exception as exc:  # any driver error means "down"; the message says why
        return {"ok": False, "error": str(exc).splitlines()[0] if str(exc) else type(exc).__name__}
    return {"ok": True, "engine": connection.vendor}


def check_redis() -> dict[str, Any]:
    url = settings.REDIS_URL
    if not url:
        return {"ok": True, "mode": "embedded (no Redis configured)"}
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
        client.ping()
    except redis.RedisError as exc:
        return {"ok": False, "error": str(exc)}
    return {"ok": True}


def check_workers() -> dict[str, Any]:
    try:
        # One reply is enough to know a worker is up; without `limit` the ping always waits
        # out its whole timeout collecting replies.
        replies = app.control.ping(timeout=1.0, limit=1)
    except Exception as exc:  # broker unreachable: the workers cannot be asked
        return {"ok": False, "error": f"broker unreachable: {exc}"}
    names = sorted(name for reply in replies for name in reply)
    if not names:
        return {"ok": False, "error": "no Celery worker answered within 1 s"}
    return {"ok": True, "workers": names}


def check_backups() -> dict[str, Any]:
    """Failing backups (recorded by the worker) and running tournaments short of disk space."""
    failing = []
    for failure in backups.failing():
        good = backups.last_backup_safely(failure.tournament_id)
        failing.append({"tournament": failure.tournament_id, "name": failure.tournament.name,
                        "reason": failure.reason, "failed_at": failure.failed_at.isoformat(),
                        "attempts": failure.attempts, "last_good": good.at.isoformat() if good else None})
    low = []
    for tournament_id in backups.running_tournaments().values_list("pk", flat=True):
        space = backups.space(tournament_id)
        if space is not None and space.low:
            low.append({"tournament": tournament_id, "free": space.free, "needed": space.needed})
    result: dict[str, Any] = {"ok": not failing, "warning": bool(low)}
    if failing:
        result["failing"] = failing
        result["error"] = "; ".join(f"tournament {f['tournament']}: {f['reason']}" for f in failing)
    if low:
        result["low_space"] = low
    return result


def healthz(request: Any) -> JsonResponse:
    checks = {"database": check_database(), "redis": check_redis()}
    # Without a broker the workers cannot be reached; say so once instead of timing out.
    if checks["redis"]["ok"]:
        checks["celery"] = check_workers()
    else:
        checks["celery"] = {"ok": False, "error": "unknown: the broker (Redis) is down"}
    down = [name for name, result in checks.items() if not result["ok"]]
    body: dict[str, Any] = {"status": "ok" if not down else "down", "down": down}
    if checks["database"]["ok"]:
        checks["backups"] = check_backups()
        if not checks["backups"]["ok"]:
            body["failing"] = ["backups"]
        elif checks["backups"]["warning"]:
            body["warnings"] = ["backups"]
        if not down and (body.get("failing") or body.get("warnings")):
            body["status"] = "failing" if body.get("failing") else "warning"
    user = getattr(request, "user", None)
    if user is not None and user.is_active and user.is_staff:
        body["checks"] = checks
    return JsonResponse(body, status=200 if not down and not body.get("failing") else 503)
