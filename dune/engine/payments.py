"""The spice paid with a shipment or a revival (`forces_placed.cost`, `forces_revived.cost`).

An event that names a cost moves that spice from the faction that ships or revives to whom the
rules pay it, in the same record as the forces. An event without a cost pays nothing (the logs
recorded before the field existed, and tables that track spice with `spice_set`), so no edition
changes meaning.

Shipment (LoLV 1.06.02.01, AH IX.C.1.b): 1 spice a force into a stronghold, 2 elsewhere; the
Guild and its allies pay half, rounded up (2.06.06, 2.06.09, AH IX.C.1.b.ii and the Guild's
alliance); a Karama card buys a shipment at that rate (3.01.11.03, WBC Player Aid 18); the
Fremen send their reserves for free (2.04.05, AH IX.C.1.h). The spice goes to the Guild when
it is in the game and is not the shipper, else to the bank (2.06.04, 1.06.02.02, AH IX.C.1.b,
WBC Guild notes 6); a Karama shipment pays the bank (3.01.11.03).

Revival (LoLV 1.05.01.02, AH IX.B.1): 2 spice a force beyond the free revival on the faction's
sheet; the CHOAM pay 1 a force with no free revival (2.09.08), the Tleilaxu half, rounded up
(2.08.09); the Karama revival and the Ghola card cost nothing (1.14.02, 3.01.20). The spice goes
to the Tleilaxu when they are in the game and are not the reviver (2.08.10), else to the bank
(1.05.01.03, AH IX.B.1); no ruleset here pays the Emperor for revivals.

Where the engine knows the price (`shipment_price`, `revival_price`) the cost must equal it;
where it does not (an ally's help, a faction whose forces cost differently, a Bene Gesserit
force that may be the free one sent along), the cost must only be within the faction's spice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from dune.engine.board import TERRITORIES
from dune.engine.checks import refuse
from dune.engine.editions import limited
from dune.engine.events import AmbassadorPlaced, ForcesPlaced, ForcesRevived
from dune.engine.factions import BENE_GESSERIT, CHOAM, ECAZ, FACTION_SHEETS, FREMEN, GUILD, IXIANS, TLEILAXU
from dune.engine.names import faction_name
from dune.engine.phases import SETUP
from dune.engine.position import FactionState, Position, evolve

#: Spice a force shipped into a stronghold, and anywhere else (1.06.02.01, AH IX.C.1.b).
STRONGHOLD_RATE = 1
OTHER_RATE = 2
#: Spice a force revived beyond the free revival (1.05.01.02, AH IX.B.1); the CHOAM's (2.09.08).
REVIVAL_RATE = 2
CHOAM_REVIVAL_RATE = 1


def _half(n: int) -> int:
    return (n + 1) // 2


def _guild_rate(pos: Position, faction: str) -> bool:
    return faction == GUILD or GUILD in pos.allies_of(faction)


def shipment_price(pos: Position, ev: ForcesPlaced) -> int | None:
    """The spice the shipment costs, or None where the engine cannot tell."""
    if pos.phase == SETUP:
        return 0
    if ev.source != "reserves" or ev.no_field is not None:
        return None
    count = ev.normal + ev.special + ev.advisors
    if ev.faction == FREMEN and not ev.karama:
        # Sent for free (2.04.05, AH IX.C.1.h), unless the Guild's alliance lets them ship.
        return None if GUILD in pos.allies_of(FREMEN) else 0
    if ev.faction == BENE_GESSERIT and (ev.advisors or count == 1):
        # The spiritual advisor is free (2.02.05, 2.02.11, AH IX.C.1.e); one force may be it.
        return 0 if count == ev.advisors else None
    territory = TERRITORIES.get(ev.territory)
    if territory is None:
        return None
    base = count * (STRONGHOLD_RATE if territory.is_stronghold else OTHER_RATE)
    return _half(base) if ev.karama or _guild_rate(pos, ev.faction) else base


def shipment_payee(pos: Position, ev: ForcesPlaced) -> str | None:
    """Who receives a shipment's spice: the Guild, or None for the bank."""
    if ev.karama or ev.faction == GUILD or GUILD not in pos.playing:
        return None
    return GUILD


def revival_price(pos: Position, ev: ForcesRevived) -> int | None:
    """The spice the revival costs, or None where the engine cannot tell (the cost is then
    only held to the faction's spice): an ally may help pay (AH Emperor: Alliance; LoLV
    2.03.07), so an allied faction's typed cost is taken as it is."""
    if ev.karama or ev.ghola:
        return 0
    if pos.allies_of(ev.faction):
        return None
    return own_revival_price(pos, ev)


def own_revival_price(pos: Position, ev: ForcesRevived) -> int | None:
    """What the revival costs the faction on its own sheet: the forces beyond its free revival
    this turn at 2 each (LoLV 1.05.01.01-02, AH IX.B.1), the CHOAM's at 1 (2.09.08), the
    Tleilaxu half (2.08.09). An ally changes who may pay, not the price, so a revival recorded
    without a cost charges this price to the faction itself. None where the sheet does not
    settle it: a limit raised by another faction (2.03.07, 2.08.11), the Fremen ally's free
    revival of 3 at the Fremen's discretion (2.04.11), Cyborgs (2.07.10), editions before the
    fifth (which do not count a turn's revivals)."""
    if ev.karama or ev.ghola:
        return 0
    if ev.raised_by is not None or not limited(pos):
        return None
    if FREMEN in pos.allies_of(ev.faction) and ev.faction != FREMEN and pos.ruleset.expansion_pieces:
        return None
    if ev.faction == IXIANS and ev.special:
        return None  # Cyborgs cost 3 each (2.07.10), and the free ones are the player's choice
    sheet = FACTION_SHEETS.get(ev.faction)
    if sheet is None:
        return None
    choam = ev.faction == CHOAM and "revival_choam" in pos.ruleset.cite
    free = 0 if choam else sheet.free_revival
    turn, before, _starred = pos.revived.get(ev.faction, (pos.turn, 0, 0))
    if turn != pos.turn:
        before = 0
    paid = max(0, ev.normal + ev.special - max(0, free - before))
    price = paid * (CHOAM_REVIVAL_RATE if choam else REVIVAL_RATE)
    return _half(price) if ev.faction == TLEILAXU else price


def revival_payee(pos: Position, ev: ForcesRevived) -> str | None:
    """Who receives a revival's spice: the Tleilaxu, or None for the bank."""
    if ev.faction != TLEILAXU and TLEILAXU in pos.playing:
        return TLEILAXU
    return None


def _negative_cost(what: str, cost: int) -> str:
    """Why a negative `cost` is refused for a `what` (a shipment, a revival, an Ambassador)."""
    if what == "shipment":
        return f"a shipment costs 0 spice or more, not {cost}"
    if what == "revival":
        return f"a revival costs 0 spice or more, not {cost}"
    return f"an Ambassador costs 0 spice or more, not {cost}"


def _wrong_price(what: str, price: int, cost: int) -> str:
    """Why a `cost` other than the `price` is refused for a `what`."""
    if what == "shipment":
        return f"this shipment costs {price} spice, not {cost}"
    if what == "revival":
        return f"this revival costs {price} spice, not {cost}"
    return f"this Ambassador costs {price} spice, not {cost}"


def _short_of_spice(what: str, who: str, spice: int, cost: int) -> str:
    """Why `who`, holding `spice`, cannot pay `cost` for a `what`."""
    if what == "shipment":
        return f"{who} has only {spice} spice and cannot pay {cost} for this shipment"
    if what == "revival":
        return f"{who} has only {spice} spice and cannot pay {cost} for this revival"
    return f"{who} has only {spice} spice and cannot pay {cost} for this Ambassador"


def _pay(
    pos: Position,
    faction: str,
    cost: int,
    price: int | None,
    payee: str | None,
    rules: tuple[str, str],
    what: str,
) -> dict[str, FactionState]:
    """The states after `faction` pays `cost` to `payee` (None: the bank), checked."""
    price_rule, pay_rule = rules
    if cost < 0:
        refuse(pos, price_rule, _negative_cost(what, cost), cost, field="cost")
    st = pos.states[faction]
    if st.spice is None:
        if cost:
            refuse(pos, pay_rule, f"{faction_name(faction)}'s spice is unknown in this position", cost, field="cost")
        return dict(pos.states)
    if cost > st.spice:
        refuse(
            pos,
            pay_rule,
            _short_of_spice(what, faction_name(faction), st.spice, cost),
            cost,
            field="cost",
        )
    if price is not None and cost != price:
        refuse(pos, price_rule, _wrong_price(what, price, cost), cost, field="cost")
    states = dict(pos.states)
    states[faction] = evolve(st, spice=st.spice - cost)
    if payee is not None and cost:
        got = states[payee]
        if got.spice is not None:
            states[payee] = evolve(got, spice=got.spice + cost)
    return states


def _merge(changes: dict[str, Any], before: Position, paid: Mapping[str, FactionState], faction: str, payee: str | None) -> dict[str, Any]:
    states = dict(changes.get("states", before.states))
    for f in (faction, payee):
        if f is not None and f in states:
            states[f] = evolve(states[f], spice=paid[f].spice)
    return {**changes, "states": states}


def _cost_paid(
    changes: dict[str, Any],
    pos: Position,
    faction: str,
    cost: int | None,
    price: Callable[[], int | None],
    payee: Callable[[], str | None],
    rules: tuple[str, str],
    what: str,
) -> dict[str, Any]:
    """`changes` with `faction`'s `cost` paid to the `payee` (None: the bank) at the `price`,
    checked; `changes` as they are when the event names no cost."""
    if cost is None:
        return changes
    to = payee()
    return _merge(changes, pos, _pay(pos, faction, cost, price(), to, rules, what), faction, to)


def pay_shipment(pos: Position, ev: ForcesPlaced, changes: dict[str, Any]) -> dict[str, Any]:
    """The placement's changes with its cost paid (none when the event names no cost)."""
    return _cost_paid(
        changes, pos, ev.faction, ev.cost, lambda: shipment_price(pos, ev), lambda: shipment_payee(pos, ev),
        ("ship_cost", "ship_payment"), "shipment",
    )


def pay_revival(pos: Position, ev: ForcesRevived, changes: dict[str, Any]) -> dict[str, Any]:
    """The revival's changes with its cost paid (none when the event names no cost)."""
    return _cost_paid(
        changes, pos, ev.faction, ev.cost, lambda: revival_price(pos, ev), lambda: revival_payee(pos, ev),
        ("revival_cost", "revival_payment"), "revival",
    )


def envoys_placed(pos: Position) -> int:
    """How many Ambassadors the Ecaz have placed this turn (2.11.06)."""
    return pos.envoys[1] if pos.envoys is not None and pos.envoys[0] == pos.turn else 0


def ambassador_price(pos: Position) -> int:
    """What the Ecaz pay for their next Ambassador this turn: 1 for the first, 1 more for each
    one after it (2.11.06)."""
    return envoys_placed(pos) + 1


def pay_ambassador(pos: Position, ev: AmbassadorPlaced, changes: dict[str, Any]) -> dict[str, Any]:
    """The placement's changes with the turn's count and, when the event names one, its cost
    paid to the bank (2.11.05-06)."""
    changes = {**changes, "envoys": (pos.turn, envoys_placed(pos) + 1)}
    return _cost_paid(changes, pos, ECAZ, ev.cost, lambda: ambassador_price(pos), lambda: None, ("2.11.06", "2.11.06"), "Ambassador")
