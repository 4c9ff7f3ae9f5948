"""Spice on the board: Spice Blows, collection, and what storms and worms destroy.

Spice lands only in a territory's Spice Blow sector (LoLV 1.02.04, AH VII.A.1), so the
position keeps one amount per territory. A storm passing over or stopping on that sector
sends it back to the bank (LoLV 1.01.03, AH VI.D; WBC VI.8: only sectors the storm moves
into), and so does a worm in the territory (LoLV 1.02.05, AH VII.A.2.a). Those removals are
automatic where forces' are (`losses.automatic`), listed for the judge in the position's
`spice_lost`, and undone with `board_spice_set` and a reason.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NoReturn

from dune.engine.board import ARRAKEEN, CARTHAG, SECTOR_COUNT, TERRITORIES
from dune.engine.checks import (
    active_count,
    need_faction,
    need_full_tracking,
    need_phase,
    need_piece,
    piece_in_storm,
    refuse,
)
from dune.engine.editions import advanced, counted, distinguished
from dune.engine.events import BoardSpiceSet, SpiceBlow, SpiceCollected
from dune.engine.factions import IXIANS, RICHESE
from dune.engine.names import faction_name, place_name
from dune.engine.phases import SPICE_BLOW, SPICE_COLLECTION
from dune.engine.position import FactionState, Position, evolve

#: (territory, sector, amount, rule)
SpiceLoss = tuple[str, int, int, str]


def blow_sector(territory: str) -> int | None:
    """The sector holding the territory's Spice Blow icon, or None if it has none."""
    t = TERRITORIES.get(territory)
    return None if t is None or t.spice_blow is None else t.spice_blow[0]


def _need_blow_territory(pos: Position, territory: str, act: str) -> int:
    if territory not in TERRITORIES:
        need_piece(pos, territory, None)  # names the unknown territory
    sector = blow_sector(territory)
    if sector is None:
        where = place_name(territory)
        if act == "blow":
            refuse(pos, "spice_blow", f"{where} has no Spice Blow: no spice lands there", territory, field="territory")
        if act == "collect":
            refuse(pos, "spice_blow", f"{where} has no Spice Blow: there is no spice to collect", territory, field="territory")
        refuse(pos, "spice_blow", f"{where} has no Spice Blow: spice lies only in Spice Blow territories", territory, field="territory")
    return sector


def apply_spice_blow(pos: Position, ev: SpiceBlow) -> dict[str, Any]:
    """Spice lands in the Spice Blow sector, never under the storm (LoLV 1.02.04, AH VII.A.1),
    at most once a turn, twice with the double spice blow (from the seventh edition)."""
    need_full_tracking(pos, "spice on the board")
    need_phase(pos, (SPICE_BLOW,), "spice_blow", "spice blows")
    sector = _need_blow_territory(pos, ev.territory, "blow")
    amount = TERRITORIES[ev.territory].spice_blow[1] if ev.amount is None else ev.amount  # type: ignore[index]
    in_storm = piece_in_storm(pos, ev.territory, sector)
    if in_storm and distinguished(pos):
        # The card is turned up all the same, and is the one a worm after it appears beside
        # (AH VII.A.1, VII.A.2; LoLV 1.02.04): recorded, with no spice placed.
        if ev.amount:
            refuse(
                pos,
                "spice_blow",
                f"the Spice Blow sector of {place_name(ev.territory)} is in the storm: the card is turned up "
                "but no spice is placed (record 0 spice)",
                ev.amount,
                field="amount",
            )
        amount = 0
    elif amount < 1:
        refuse(pos, "spice_blow", "a Spice Blow places at least 1 spice", ev.amount, field="amount")
    if in_storm and not distinguished(pos):
        refuse(
            pos,
            "spice_blow",
            f"the Spice Blow sector of {place_name(ev.territory)} is in the storm: no spice is placed",
            ev.territory,
            field="territory",
        )
    board = dict(pos.spice_on_board)
    if amount:
        board[ev.territory] = board.get(ev.territory, 0) + amount
    if not counted(pos):
        return {"spice_on_board": board}
    blown = pos.blown[1] if pos.blown is not None and pos.blown[0] == pos.turn else 0
    if blown >= spice_blows(pos):
        _refuse_another_blow(pos, ev, blown)
    return {"spice_on_board": board, "blown": (pos.turn, blown + 1)}


def spice_blows(pos: Position) -> int:
    """How many Spice Blows a turn has: two with the double spice blow (WBC Rule Set: AH XXI;
    LoLV 1.13.02, an Advanced rule; a format's `double_spice_blow`), else one (AH VII.A, LoLV
    1.02.04)."""
    return 2 if pos.ruleset.double_spice_blow and advanced(pos) else 1


def worm_pile_top(log: Iterable[tuple[str, str | None]], piles: int) -> str | None:
    """The territory where a worm turned over next appears: the one on top of the discard pile
    the next card goes on (AH VII.A.2, LoLV 1.02.05), or None when that pile holds no territory
    card yet. `log` is the game's records, oldest first, as (type, territory), voided ones left
    out; only `turn_advanced`, `spice_blow` and `worm` count. Each turn's cards go on pile A
    until a territory card is turned there, then on pile B likewise (the double spice blow:
    `piles` 2, LoLV 1.13.02, 1.13.02.01-02, WBC Rule Set AH XXI); a worm leaves its pile as it
    is. With one pile (`piles` 1) every card goes on pile A."""
    tops: list[str | None] = [None] * max(piles, 1)
    pile = 0
    for kind, territory in log:
        if kind == "turn_advanced":
            pile = 0
        elif kind == "spice_blow" and territory:
            tops[pile] = territory
            pile = min(pile + 1, len(tops) - 1)
    return tops[pile]


def _refuse_another_blow(pos: Position, ev: SpiceBlow, blown: int) -> NoReturn:
    if spice_blows(pos) == 2:
        refuse(
            pos,
            "double_spice_blow",
            f"the double spice blow places two Spice Blows a turn and both were placed this turn; no spice lands in {place_name(ev.territory)}",
            ev.territory,
            field="territory",
        )
    refuse(
        pos,
        "spice_blow",
        f"one Spice Blow a turn (no double spice blow in this game) and it was placed this turn; no spice lands in {place_name(ev.territory)}",
        ev.territory,
        field="territory",
    )


def collection_limit(pos: Position, faction: str, territory: str) -> int:
    """What the faction's forces in the territory may collect: 2 spice per force, 3 if it
    occupies Arrakeen or Carthag (LoLV 1.08.02, AH XI.A), 3 per Ixian cyborg (2.07.13); a
    No-Field token counts as one force (2.10.11). Coexisting advisors collect nothing
    (2.02.12, WBC XI.1)."""
    occupied = {t for (f, t, _s), st in pos.forces.items() if f == faction and active_count(pos, f, t, st)}
    rate = 3 if occupied & {ARRAKEEN, CARTHAG} else 2
    limit = 0
    for (f, t, _s), st in pos.forces.items():
        if f != faction or t != territory or not active_count(pos, f, t, st):
            continue
        special_rate = 3 if faction == IXIANS else rate
        limit += st[0] * rate + st[1] * special_rate
    if faction == RICHESE and pos.no_field is not None and pos.no_field[0] == territory:
        limit += rate
    return limit


def apply_spice_collected(pos: Position, ev: SpiceCollected) -> dict[str, Any]:
    """Forces occupying a territory with spice collect it at their rate (LoLV 1.08.01-02,
    AH XI.A); what they leave stays (1.08.03)."""
    need_full_tracking(pos, "spice on the board")
    need_faction(pos, ev.faction)
    need_phase(pos, (SPICE_COLLECTION,), "collection", "spice is collected")
    _need_blow_territory(pos, ev.territory, "collect")
    if ev.amount < 1:
        refuse(pos, "collection", "collect at least 1 spice", ev.amount, field="amount")
    lying = pos.spice_on_board.get(ev.territory, 0)
    if ev.amount > lying:
        refuse(pos, "collection", f"{place_name(ev.territory)} holds only {lying} spice", ev.amount, field="amount")
    limit = collection_limit(pos, ev.faction, ev.territory)
    if not limit:
        refuse(
            pos,
            "collection",
            f"{faction_name(ev.faction)} has no forces in {place_name(ev.territory)}",
            ev.faction,
            field="faction",
        )
    if ev.amount > limit:
        refuse(
            pos,
            "collection",
            f"{faction_name(ev.faction)}'s forces in {place_name(ev.territory)} collect at most {limit} spice",
            ev.amount,
            field="amount",
        )
    board = dict(pos.spice_on_board)
    board[ev.territory] = lying - ev.amount
    if not board[ev.territory]:
        del board[ev.territory]
    changes: dict[str, Any] = {"spice_on_board": board}
    st: FactionState = pos.states[ev.faction]
    if st.spice is not None:
        states = dict(pos.states)
        states[ev.faction] = evolve(st, spice=st.spice + ev.amount)
        changes["states"] = states
    return changes


def apply_board_spice_set(pos: Position, ev: BoardSpiceSet) -> dict[str, Any]:
    """The judge's correction of the spice in a territory; a reason is required. The spice
    the last removal destroyed there is no longer listed; the rest of that removal stays
    listed, so its other rows can still be put back."""
    need_full_tracking(pos, "spice on the board")
    _need_blow_territory(pos, ev.territory, "lies")
    if not ev.reason.strip():
        refuse(pos, "loss_corrected", "a correction needs a reason", ev, field="reason")
    board = dict(pos.spice_on_board)
    if ev.amount:
        board[ev.territory] = ev.amount
    else:
        board.pop(ev.territory, None)
    return {
        "spice_on_board": board,
        "losses": pos.losses,
        "spice_lost": tuple(row for row in pos.spice_lost if row[0] != ev.territory),
    }


def storm_spice(pos: Position, start: int, sectors: int) -> list[SpiceLoss]:
    """Spice in the sectors a storm moves into (passes over or stops on) goes back to the
    bank (LoLV 1.01.03, AH VI.D, WBC VI.8)."""
    hit = {(start + i) % SECTOR_COUNT for i in range(1, sectors + 1)}
    rule = pos.ruleset.cite["storm_spice"]
    return [
        (t, s, amount, rule)
        for t, amount in sorted(pos.spice_on_board.items())
        if (s := blow_sector(t)) is not None and s in hit
    ]


def worm_spice(pos: Position, territory: str) -> list[SpiceLoss]:
    """A worm devours the spice of its territory (LoLV 1.02.05, AH VII.A.2.a)."""
    amount = pos.spice_on_board.get(territory, 0)
    sector = blow_sector(territory)
    if not amount or sector is None:
        return []
    return [(territory, sector, amount, pos.ruleset.cite["worm_devours"])]


def without_spice(pos: Position, lost: list[SpiceLoss], changes: dict[str, Any]) -> dict[str, Any]:
    """`changes` plus the spice in `lost` taken off the board and listed for the judge."""
    if not lost:
        return changes
    board = dict(changes.get("spice_on_board", pos.spice_on_board))
    for t, _s, _amount, _rule in lost:
        board.pop(t, None)
    return {**changes, "spice_on_board": board, "spice_lost": tuple(lost)}


def spice_lost_json(pos: Position) -> list[dict[str, Any]]:
    """The spice the last event destroyed, as rows beside the forces' in `losses_json`."""
    return [
        {
            "faction": None,
            "territory": t,
            "sector": s,
            "normal": 0,
            "special": 0,
            "advisors": 0,
            "spice": amount,
            "rule": rule,
        }
        for t, s, amount, rule in pos.spice_lost
    ]
