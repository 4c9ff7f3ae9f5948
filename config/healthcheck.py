"""The container's health probe: `python -m config.healthcheck [URL]`, exit 0 on a 200.

It asks gunicorn directly (default `http://127.0.0.1:8000/healthz`) under the name the site
is served as, the first of `ALLOWED_HOSTS`, so production settings accept it (`/healthz` is
exempt from the HTTPS redirect). Standard library only: it runs every 30 s and must start fast.
"""

from __future__ import annotations

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


def probe(url: str, environ: Mapping[str, str]) -> int:
    request = urllib.request.Request(url, headers={"Host": served_host(environ)})
    try:
        with urllib.request.urlopen(request, timeout=4) as response:
            status = response.status
    except urllib.error.HTTPError as exc:
        status = exc.code
    except OSError as exc:
        print(f"health probe: {exc}", file=sys.stderr)
        return 1
    if status != 200:
        print(f"health probe: {url} answered {status}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(probe(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_URL, os.environ))
