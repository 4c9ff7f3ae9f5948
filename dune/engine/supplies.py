"""Expansion tokens off the board: the Ecaz Ambassador supply and the Richese No-Field tokens
face up in front of the shield.

The Moritani's Terror tokens behind the shield are `Position.terror_spent`'s (2.12.03); this
module keeps the two supplies whose tokens differ from one another, so the engine must know
which ones are where:

- Ecaz Ambassadors (LoLV 2.11.03): the supply face up in front of the shield (the Ecaz
  Ambassador and five drawn at random), those triggered and set aside (2.11.07) until all five
  random ones have been (2.11.08), and those out of the game (the Bene Gesserit one once
  triggered, 2.11.10.02). The board's are `Position.ambassadors`; the rest lie face down
  unused. A judge who does not track the supply leaves it unknown (`None`), and placements are
  then taken on the judge's word, as they were before the supply was tracked.
- No-Field tokens (2.10.03: numbered 0, 3 and 5): the numbers revealed and lying face up in
  front of the Richese shield (2.10.13) until the Richese next ship with a No-Field token
  (2.10.10). The supply holds the rest but the one on the board (`Position.no_field`, face
  down, its number unknown to the engine).

One field of the position holds them all, so a replay copies one reference per event.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dune.engine.errors import InvalidPosition, UnknownIdentifier
from dune.engine.factions import ECAZ
from dune.engine.ids import FACTIONS

#: The numbers on the Richese's three No-Field tokens (LoLV 2.10.03).
NO_FIELD_NUMBERS: tuple[int, ...] = (0, 3, 5)
#: The Ecaz Ambassadors drawn at random for a supply (LoLV 2.11.03, 2.11.08).
RANDOM_AMBASSADORS = 5
#: A full Ambassador supply: the Ecaz Ambassador and the random ones (2.11.03).
FULL_AMBASSADOR_SUPPLY = RANDOM_AMBASSADORS + 1


@dataclass(frozen=True, slots=True)
class Supplies:
    """Which expansion tokens lie where off the board (see the module docstring)."""

    #: Ambassadors face up in front of the Ecaz shield; None while the judge does not track it.
    ambassadors: frozenset[str] | None = None
    #: Ambassadors triggered and set aside (2.11.07); tracked with the supply.
    ambassadors_aside: frozenset[str] = frozenset()
    #: Ambassadors out of the game (2.11.10.02); tracked with the supply.
    ambassadors_out: frozenset[str] = frozenset()
    #: No-Field numbers face up in front of the Richese shield (2.10.13).
    no_field_face_up: frozenset[int] = frozenset()


#: The supplies of a game that has recorded nothing about them.
NO_SUPPLIES = Supplies()


def random_ones(symbols: frozenset[str] | set[str]) -> set[str]:
    """The Ambassadors among `symbols` drawn at random: all but the Ecaz Ambassador."""
    return {s for s in symbols if s != ECAZ}


def no_field_left(supplies: Supplies, on_board: bool) -> int:
    """How many No-Field tokens the Richese supply holds (2.10.03, 2.10.10, 2.10.13)."""
    return len(NO_FIELD_NUMBERS) - len(supplies.no_field_face_up) - (1 if on_board else 0)


#: Snapshot keys of the supplies (written only when set, so older snapshots are unchanged).
AMBASSADOR_KEYS = ("ambassador_supply", "ambassadors_aside", "ambassadors_out")
NO_FIELD_KEY = "no_field_face_up"


def _listed(data: Mapping[str, Any], key: str, known: tuple[Any, ...], rule: str) -> frozenset[Any]:
    raw = data.get(key)
    if raw is None:
        return frozenset()
    if not isinstance(raw, list):
        raise InvalidPosition(rule="snapshot", msg=f"{key!r} must be a list", input=raw, field=key)
    for x in raw:
        if x not in known or isinstance(x, bool):
            raise UnknownIdentifier(rule="snapshot", msg=f"{key!r}: unknown token {x!r}", input=x, field=key)
    if len(set(raw)) != len(raw):
        raise InvalidPosition(rule=rule, msg=f"{key!r}: each token exists once", input=raw, field=key)
    return frozenset(raw)


def supplies_from_snapshot(data: Mapping[str, Any]) -> Supplies:
    """The supplies a snapshot states; what it leaves out is as at the start (no Ambassador
    supply tracked, no No-Field token face up). Raises InvalidPosition, UnknownIdentifier
    naming the key (`RuleViolation.field`); what the rules make impossible is `impossible`'s."""
    tracked = data.get("ambassador_supply") is not None
    if not tracked and any(data.get(k) for k in AMBASSADOR_KEYS[1:]):
        raise InvalidPosition(
            rule="snapshot",
            msg="Ambassadors set aside or out of the game are tracked with the supply: state 'ambassador_supply'",
            input={k: data.get(k) for k in AMBASSADOR_KEYS[1:]},
            field="ambassador_supply",
        )
    if not tracked and not data.get(NO_FIELD_KEY):
        return NO_SUPPLIES
    return Supplies(
        ambassadors=_listed(data, "ambassador_supply", FACTIONS, "2.11.10") if tracked else None,
        ambassadors_aside=_listed(data, "ambassadors_aside", FACTIONS, "2.11.10"),
        ambassadors_out=_listed(data, "ambassadors_out", FACTIONS, "2.11.10"),
        no_field_face_up=_listed(data, NO_FIELD_KEY, NO_FIELD_NUMBERS, "2.10.03"),
    )


def supplies_to_snapshot(sup: Supplies) -> dict[str, Any]:
    """The snapshot keys of the supplies that differ from the start."""
    out: dict[str, Any] = {}
    if sup.ambassadors is not None:
        out["ambassador_supply"] = sorted(sup.ambassadors)
    if sup.ambassadors_aside:
        out["ambassadors_aside"] = sorted(sup.ambassadors_aside)
    if sup.ambassadors_out:
        out["ambassadors_out"] = sorted(sup.ambassadors_out)
    if sup.no_field_face_up:
        out[NO_FIELD_KEY] = sorted(sup.no_field_face_up)
    return out
