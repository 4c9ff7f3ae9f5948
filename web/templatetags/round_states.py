"""A round's state on any page: the same word the API's `state` gives (tournament.round_state)."""

from __future__ import annotations

from typing import Any

from django import template

from tournament.round_state import RoundState, round_state

register = template.Library()


@register.filter
def state_of(round_: Any) -> RoundState:
    """`{% with st=round|state_of %}`: the round's RoundState (key, label, detail)."""
    current = getattr(round_, "current", None)
    return current if isinstance(current, RoundState) else round_state(round_)


@register.inclusion_tag("tournament/_round_state.html")
def round_state_badge(round_: Any, detail: bool = False) -> dict[str, Any]:
    """The round's state as a badge (`data-round-state` holds the API's word); `detail` adds
    what it means now ("3 of 8 reports filed")."""
    return {"st": state_of(round_), "detail": detail}
