"""Fail fast, with the fix, when the services the test suite needs are not reachable.

Run by `make test` before pytest: python -m config.check_services
"""

from __future__ import annotations

import os
import socket
import sys
from urllib.parse import urlparse

HOW_TO_START = {
    "PostgreSQL": "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start",
    "Redis": (
        'redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no '
        "--dir /var/lib/redis --logfile /var/log/redis/ci.log"
    ),
}


def reachable(host: str, port: int, timeout: float = 2.0) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def main() -> int:
    database = urlparse(os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/dune"))
    redis = urlparse(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    wanted = {
        "PostgreSQL": (database.hostname or "127.0.0.1", database.port or 5432),
        "Redis": (redis.hostname or "127.0.0.1", redis.port or 6379),
    }
    down = [name for name, (host, port) in wanted.items() if not reachable(host, port)]
    for name in down:
        host, port = wanted[name]
        print(f"{name} is not reachable at {host}:{port}. Start it with:\n    {HOW_TO_START[name]}", file=sys.stderr)
    return 1 if down else 0


if __name__ == "__main__":
    sys.exit(main())
