"""Per-token throttling of the API: each token (not each address: a venue puts every phone
behind one) may make `TOKEN_RATE` requests (settings, "1200/min" unless set) in any window of
that length; a token over it waits, told how long by `Retry-After` (429). Requests signed in by
session are not counted here: the sign-in guard and the pages keep their own pace.

On Redis the window is one sorted set per token, read, trimmed and counted by one script in
one round trip: no history pickled and read back, and no count lost when two web processes
count the same token at once (a read then a write would let both through on the same count).
Any other cache (one process, in tests) keeps DRF's list of times.
"""

from __future__ import annotations

import hashlib
import os
from typing import Any

from django.conf import settings
from django.core.cache import caches
from rest_framework.authtoken.models import Token
from rest_framework.throttling import SimpleRateThrottle

from config.redis_cache import RedisCache

#: KEYS[1] the token's window; ARGV now, window length (s), allowed count, this request's member.
#: Drops what left the window; counts this request when there is room ("0"), else answers how
#: many seconds until the oldest counted request leaves it.
_WINDOW_SCRIPT = """
local now, window = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('EXPIRE', KEYS[1], math.ceil(window))
  return '0'
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return tostring(oldest[2] + window - now)
"""
_scripts: dict[int, Any] = {}


def _window_script(client: Any) -> Any:
    script = _scripts.get(id(client))
    if script is None:
        script = _scripts[id(client)] = client.register_script(_WINDOW_SCRIPT)
    return script


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

    def allow_request(self, request: Any, view: Any) -> bool:
        if not isinstance(self.cache, RedisCache):
            return bool(super().allow_request(request, view))
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        client = self.cache.client()
        now = self.timer()
        # Two requests in the same microsecond are two members: the set counts requests, not times.
        member = f"{now:.6f}:{os.urandom(4).hex()}"
        # Its own key: a window is a sorted set, never the list of times DRF keeps under `key`.
        answer = _window_script(client)(keys=[self.cache.make_key(f"{key}:window")],
                                        args=[repr(now), self.duration, self.num_requests, member], client=client)
        self._wait = float(answer)
        return self._wait <= 0

    def wait(self) -> float | None:
        if isinstance(self.cache, RedisCache):
            return max(self._wait, 1.0)
        return super().wait()
