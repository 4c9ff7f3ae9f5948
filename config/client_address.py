"""The address a request really comes from, for sign-in lockouts and logs.

Directly on the internet that is the socket's peer (`REMOTE_ADDR`). Behind the documented
reverse proxy every request arrives from the proxy, which appends the address it saw to
`X-Forwarded-For`; only that last entry is trustworthy (anything left of it was sent by the
client), and only when the request really comes from a proxy listed in `TRUSTED_PROXIES`.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from django.conf import settings


def _is_trusted_proxy(address: str) -> bool:
    try:
        peer = ipaddress.ip_address(address)
    except ValueError:
        return False
    for entry in getattr(settings, "TRUSTED_PROXIES", []):
        try:
            if peer in ipaddress.ip_network(entry, strict=False):
                return True
        except ValueError:
            continue
    return False


def client_address(request: Any) -> str | None:
    """The client's address: the proxy's last `X-Forwarded-For` entry behind a trusted proxy,
    else the socket's peer."""
    peer = request.META.get("REMOTE_ADDR")
    if not getattr(settings, "BEHIND_TLS_PROXY", False) or not peer or not _is_trusted_proxy(peer):
        return peer
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    last = forwarded.split(",")[-1].strip()
    try:
        return str(ipaddress.ip_address(last))
    except ValueError:
        return peer


class ForwardedProtoMiddleware:
    """`X-Forwarded-Proto` is believed only from a trusted proxy: from anyone else it is
    dropped before Django reads the scheme from it (`SECURE_PROXY_SSL_HEADER`), so a client
    cannot claim HTTPS to dodge the redirect to HTTPS or to be handed secure-only cookies."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: Any) -> Any:
        if "HTTP_X_FORWARDED_PROTO" in request.META and not _is_trusted_proxy(request.META.get("REMOTE_ADDR", "")):
            del request.META["HTTP_X_FORWARDED_PROTO"]
        return self.get_response(request)
