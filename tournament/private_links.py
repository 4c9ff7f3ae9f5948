"""Each player's private link (`/me/{token}/`): drawn, found, renewed and revoked here only.

The token has 192 random bits (`secrets.token_urlsafe(24)`), well past the 128 a link that opens
a player's event without a password needs. It is looked up by its SHA-256 digest (an indexed,
unique column) and the stored token is then compared in constant time, so neither the lookup
nor the comparison tells a guesser how close they came.
"""

from __future__ import annotations

import hashlib
import secrets

from django.db import IntegrityError, transaction
from django.utils.crypto import constant_time_compare

from tournament.models import Player, PrivateLink

TOKEN_BYTES = 24
#: The longest token looked up; anything longer is refused before hashing.
MAX_TOKEN = 64


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def _draw(player: Player) -> PrivateLink:
    token = secrets.token_urlsafe(TOKEN_BYTES)
    return PrivateLink.objects.create(player=player, token=token, digest=digest(token))


def link_for(player: Player) -> PrivateLink:
    """The player's live private link, drawn the first time it is asked for."""
    existing = PrivateLink.objects.filter(player=player).first()
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            return _draw(player)
    except IntegrityError:  # drawn meanwhile by another request
        return PrivateLink.objects.get(player=player)


def links_for(players: list[Player]) -> dict[int, str]:
    """Each player's token by player id, drawing the missing ones in one insert (the badges
    sheet, a round's seating messages); a link drawn meanwhile by another request is kept."""
    tokens = dict(PrivateLink.objects.filter(player__in=players).values_list("player_id", "token"))
    missing = [player for player in players if player.pk not in tokens]
    if missing:
        drawn = []
        for player in missing:
            token = secrets.token_urlsafe(TOKEN_BYTES)
            drawn.append(PrivateLink(player=player, token=token, digest=digest(token)))
        PrivateLink.objects.bulk_create(drawn, ignore_conflicts=True)
        tokens.update(
            PrivateLink.objects.filter(player__in=missing).values_list("player_id", "token")
        )
    return tokens


def renew(player: Player) -> PrivateLink:
    """A new token for the player; the old link stops working."""
    with transaction.atomic():
        PrivateLink.objects.filter(player=player).delete()
        return _draw(player)


def revoke(player: Player) -> bool:
    """The player's link stops working (True when there was one); `renew` gives a new one."""
    deleted, _rows = PrivateLink.objects.filter(player=player).delete()
    return bool(deleted)


def player_for(token: str) -> Player | None:
    """The player whose live private link is `token`, or None (unknown, revoked or malformed)."""
    if not isinstance(token, str) or not token or len(token) > MAX_TOKEN:
        return None
    link = PrivateLink.objects.filter(digest=digest(token)).select_related("player__tournament").first()
    if link is None or not constant_time_compare(link.token, token):
        return None
    return link.player


def matches(player: Player, token: str) -> bool:
    """The token is the player's live private link."""
    found = player_for(token)
    return found is not None and found.pk == player.pk
