"""The container's health probe: `python -m config.healthcheck [--ignore SERVICE] [URL]`, exit 0
on a 200, or on a 503 whose only services down are the ignored ones (web ignores `celery`: the
worker has its own health check, and a stopped worker must not take the site away).

It asks gunicorn directly (default `http://127.0.0.1:8000/healthz`) under the name the site
is served as, the first of `ALLOWED_HOSTS`, so production settings accept it (`/healthz` is
exempt from the HTTPS redirect). Standard library only: it runs every 30 s and must start fast.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import urllib.error
import urllib.request
from collections.abc import Mapping

DEFAULT_URL = "http://127.0.0.1:8000/healthz"


def served_host(environ: Mapping[str, str]) -> str:
    """A host name the settings allow: the first `ALLOWED_HOSTS` entry, made concrete."""
    for entry in environ.get("ALLOWED_HOSTS", "").split(","):
        entry = entry.strip()
        if entry and entry != "*":
            return entry.lstrip(".")
    return "localhost"


def probe(url: str, environ: Mapping[str, str], ignore: frozenset[str] = frozenset()) -> int:
    request = urllib.request.Request(url, headers={"Host": served_host(environ)})
    try:
        with urllib.request.urlopen(request, timeout=4) as response:
            status = response.status
    except urllib.error.HTTPError as exc:
        status = exc.code
        if status == 503 and ignore and _only_ignored_down(exc.read(), ignore):
            return 0
    except OSError as exc:
        print(f"health probe: {exc}", file=sys.stderr)
        return 1
    if status != 200:
        print(f"health probe: {url} answered {status}", file=sys.stderr)
        return 1
    return 0


def _only_ignored_down(body: bytes, ignore: frozenset[str]) -> bool:
    """A 503 answer naming down services, all of them ignored, and nothing failing."""
    try:
        answer = json.loads(body)
    except ValueError:
        return False
    down = answer.get("down") if isinstance(answer, dict) else None
    return bool(down) and set(down) <= ignore and not answer.get("failing")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m config.healthcheck")
    parser.add_argument("url", nargs="?", default=DEFAULT_URL)
    parser.add_argument("--ignore", action="append", default=[], help="a service whose being down is not ours")
    args = parser.parse_args(argv)
    return probe(args.url, os.environ, frozenset(args.ignore))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
