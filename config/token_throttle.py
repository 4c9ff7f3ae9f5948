"""Per-token throttling of the API: each token (not each address: a venue puts every phone
behind one) may make `TOKEN_RATE` requests (settings, "1200/min" unless set); a token over it
waits, told how long by `Retry-After` (429). Requests signed in by session are not counted
here: the sign-in guard and the pages keep their own pace."""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.core.cache import caches
from rest_framework.authtoken.models import Token
from rest_framework.throttling import SimpleRateThrottle


class TokenRateThrottle(SimpleRateThrottle):
    scope = "token"
    cache = caches["counters"]

    def get_rate(self) -> str:
        return str(getattr(settings, "TOKEN_RATE", "1200/min"))

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        token = getattr(request, "auth", None)
        if not isinstance(token, Token):
            return None
        # Keyed by a digest, so the cache never holds a usable token.
        ident = hashlib.sha256(str(token.key).encode()).hexdigest()[:32]
        return self.cache_format % {"scope": self.scope, "ident": ident}
