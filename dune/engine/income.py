"""The spice a turn brings that the engine derives from the position, and the bidding round.

- CHOAM Charity (`charity_collected`): under the LoLV a faction with 0 or 1 spice is brought
  to 2 (1.03.01) and the Bene Gesserit always receive 2 (2.02.09), in the CHOAM Charity phase;
  under AH and the WBC a faction with no spice receives 2 and, from the second turn, the Bene
  Gesserit always do (AH VIII.I, VIII.I.1), at the start of the bidding round. Once a turn
  (1.03.02). With the CHOAM faction in the game, the CHOAM first collect 2 from the bank for
  each faction in the game and pay the others' charity from their own spice (2.09.04); the
  Inflation token placed at a Mentat Pause (`inflation_placed`, 2.09.09) doubles every amount
  at the next turn's charity (Welfare State, 2.09.10) or cancels them (Market Crash, 2.09.11),
  and the other side the turn after (2.09.12). A record that leaves the CHOAM's own income out
  is the table's amounts from the bank, unchecked, as such records were kept before.
- The collection round (`spice_harvested`): the forces occupying a territory with spice
  collect at their rate (LoLV 1.08.01-02, AH XI.A; `spice.collection_limit`), in storm order
  where two could; each occupant of Arrakeen and Carthag collects 2 and the occupant of Tuek's
  Sietch 1 (AH XI.C; LoLV 1.13.01 in the Advanced game). Once a turn.
- Bidding (`card_bought`), card by card: one card dealt per faction able to bid (LoLV 1.04.04,
  AH VIII.A), never to a full hand (1.04.03, AH VIII.G), never beyond the spice the buyer and
  an ally paying part of it hold (1.04.06.03, 1.10.02.04, AH VIII.C, XII.E.3); paid to the
  Emperor when he plays and is not the buyer, else to the bank (1.04.06.02, 2.03.04, AH
  VIII.B.3); the Harkonnen draw one more card for free below their limit (2.05.08, AH
  Harkonnen 2); a card nobody bids on ends the round (1.04.09, AH VIII.E). The Richese's and
  Ixians' own cards change how many are dealt (2.10.08, 2.07.07): with them the count is not
  checked.
"""

from __future__ import annotations

from typing import Any

from dune.engine.board import ARRAKEEN, CARTHAG, TERRITORIES, TUEKS_SIETCH
from dune.engine.checks import need_faction, need_full_tracking, need_phase, refuse
from dune.engine.control import occupancy
from dune.engine.editions import advanced
from dune.engine.events import INFLATION_SIDES, CardBought, CharityCollected, InflationPlaced, SpiceHarvested
from dune.engine.factions import BENE_GESSERIT, CHOAM, EMPEROR, HARKONNEN, IXIANS, MORITANI, RICHESE
from dune.engine.names import faction_name, join_names, place_name
from dune.engine.phases import BIDDING, CHOAM_CHARITY, MENTAT_PAUSE, SPICE_COLLECTION
from dune.engine.position import FactionState, Position, evolve
from dune.engine.spice import collection_limit
from dune.engine.storm import storm_order

#: What each occupant of a city or of Tuek's Sietch collects (AH XI.C, LoLV 1.13.01).
CITY_INCOME: dict[str, int] = {ARRAKEEN: 2, CARTHAG: 2, TUEKS_SIETCH: 1}
#: The spice CHOAM Charity brings a faction to (LoLV 1.03.01) or gives (AH VIII.I).
CHARITY = 2


def _lolv_charity(pos: Position) -> bool:
    return CHOAM_CHARITY in pos.ruleset.phases


def _playing(pos: Position) -> list[str]:
    setup = pos.setup
    assert setup is not None
    return [f for f in setup.factions if not pos.states[f].dropped]


def _in_order(pos: Position) -> list[str]:
    order = storm_order(pos)
    playing = _playing(pos)
    return [f for f in order if f in playing] if order else playing


def inflation_now(pos: Position) -> str | None:
    """The side of the CHOAM's Inflation token face up on the CHOAM Charity phase this turn:
    as placed at the last turn's Mentat Pause, flipped the turn after (2.09.12), else None."""
    if pos.inflation is None:
        return None
    side, placed = pos.inflation
    if pos.turn == placed + 1:
        return side
    if pos.turn == placed + 2:
        return next(s for s in INFLATION_SIDES if s != side)
    return None


def charity_due(pos: Position) -> dict[str, int] | None:
    """CHOAM Charity by faction (only those who receive some), or None where the engine cannot
    tell (a spice not known). With the CHOAM faction, its own income of 2 for each faction in
    the game (2.09.04) is listed under it; the Inflation token doubles or cancels every amount
    (2.09.10-11)."""
    if pos.setup is None:
        return None
    choam = CHOAM in _playing(pos)
    side = inflation_now(pos) if choam else None
    times = {"double": 2, "cancel": 0}.get(side or "", 1)
    due: dict[str, int] = {}
    for f in _playing(pos):
        spice = pos.states[f].spice
        if spice is None:
            return None
        if f == CHOAM:
            due[f] = CHARITY * len(_playing(pos))  # 2.09.04: before the others collect
        elif f == BENE_GESSERIT and (_lolv_charity(pos) or pos.turn >= 2):
            due[f] = CHARITY  # 2.02.09; AH VIII.I.1 from the second turn
        elif _lolv_charity(pos) and spice <= 1:
            due[f] = CHARITY - spice  # 1.03.01: brought to 2
        elif not _lolv_charity(pos) and spice == 0:
            due[f] = CHARITY  # AH VIII.I
    return {f: n * times for f, n in due.items() if n * times}


def apply_inflation_placed(pos: Position, ev: InflationPlaced) -> dict[str, Any]:
    need_phase(pos, (MENTAT_PAUSE,), "inflation", "the Inflation token is placed")
    if CHOAM not in _playing(pos):
        refuse(pos, "inflation", "only the CHOAM place the Inflation token", ev.face, field="face")
    if pos.inflation is not None:
        refuse(pos, "inflation", "the Inflation token was placed before: it is played once, then leaves the game",
               ev.face, field="face")
    return {"inflation": (ev.face, pos.turn)}


def _has_city_income(pos: Position) -> bool:
    return not _lolv_charity(pos) or (pos.ruleset.basic_or_advanced and advanced(pos))


def income_due(pos: Position) -> dict[str, int]:
    """The occupants' income of Arrakeen, Carthag and Tuek's Sietch, by faction (AH XI.C,
    LoLV 1.13.01 in the Advanced game; coexisting Bene Gesserit and advisors occupy nothing,
    WBC XVII)."""
    if not _has_city_income(pos):
        return {}
    occ = occupancy(pos)
    due: dict[str, int] = {}
    for place, amount in CITY_INCOME.items():
        for f in occ.factions_in(place):
            due[f] = due.get(f, 0) + amount
    return due


def collection_due(pos: Position) -> list[tuple[str, str, int]]:
    """What the forces on the board collect: (faction, territory, spice), each territory's
    spice taken at the occupants' rate, in storm order (LoLV 1.08.01-02, AH XI.A)."""
    out: list[tuple[str, str, int]] = []
    order = _in_order(pos)
    for territory, lying in sorted(pos.spice_on_board.items()):
        for f in order:
            if lying <= 0:
                break
            take = min(lying, collection_limit(pos, f, territory))
            if take:
                out.append((f, territory, take))
                lying -= take
    return out


def _add(states: dict[str, FactionState], faction: str, amount: int) -> None:
    st = states[faction]
    if st.spice is not None and amount:
        states[faction] = evolve(st, spice=st.spice + amount)


def _words(amounts: dict[str, int]) -> str:
    return join_names(f"{faction_name(f)} {n}" for f, n in sorted(amounts.items()))


def apply_charity_collected(pos: Position, ev: CharityCollected) -> dict[str, Any]:
    need_full_tracking(pos, "CHOAM Charity")
    lolv = _lolv_charity(pos)
    need_phase(pos, (CHOAM_CHARITY,) if lolv else (BIDDING,), "charity", "CHOAM Charity is collected")
    if pos.charity_turn == pos.turn:
        refuse(pos, "charity_once", "CHOAM Charity is collected once a turn, and it was this turn", ev, field="amounts")
    if not lolv and pos.auction is not None and pos.auction[0] == pos.turn and pos.auction[1]:
        refuse(pos, "charity", "CHOAM Charity is collected at the start of the bidding round, before the first card", ev, field="amounts")
    amounts = dict(ev.amounts)
    for f in amounts:
        need_faction(pos, f)
    due = charity_due(pos)
    if CHOAM in _playing(pos) and CHOAM not in amounts:
        due = None  # the table's own amounts from the bank, as recorded before 2.09.04 was derived
    given = {f: n for f, n in amounts.items() if n}
    if due is not None and given != due:
        refuse(pos, "charity", f"CHOAM Charity this turn is {_words(due)}, not {_words(given)}", dict(ev.amounts), field="amounts")
    states = dict(pos.states)
    for f, n in given.items():
        _add(states, f, n)
    if CHOAM in given:  # the others' charity is paid from the CHOAM's spice (2.09.04)
        _add(states, CHOAM, -sum(n for f, n in given.items() if f != CHOAM))
    return {"states": states, "charity_turn": pos.turn}


def apply_spice_harvested(pos: Position, ev: SpiceHarvested) -> dict[str, Any]:
    need_full_tracking(pos, "spice on the board")
    need_phase(pos, (SPICE_COLLECTION,), "collection", "spice is collected")
    if pos.harvest_turn == pos.turn:
        refuse(pos, "collection", "the collection round is recorded once a turn, and it was this turn", ev, field="collections")
    board = dict(pos.spice_on_board)
    states = dict(pos.states)
    taken: dict[tuple[str, str], int] = {}
    for f, territory, amount in ev.collections:
        need_faction(pos, f)
        if territory not in TERRITORIES:
            refuse(pos, "collection", f"there is no territory {territory!r}", territory, field="collections")
        lying = board.get(territory, 0)
        limit = collection_limit(pos, f, territory) - taken.get((f, territory), 0)
        if amount > lying:
            refuse(pos, "collection", f"{place_name(territory)} holds only {lying} spice", amount, field="collections")
        if amount > limit:
            refuse(
                pos, "collection",
                f"{faction_name(f)}'s forces in {place_name(territory)} collect at most {max(limit, 0)} spice",
                amount, field="collections",
            )
        taken[(f, territory)] = taken.get((f, territory), 0) + amount
        board[territory] = lying - amount
        if not board[territory]:
            del board[territory]
        _add(states, f, amount)
    income = {f: n for f, n in ev.income if n}
    due = income_due(pos)
    if income != due:
        refuse(pos, "income", f"the strongholds' income this turn is {_words(due)}, not {_words(income)}", dict(ev.income), field="income")
    for f, n in income.items():
        _add(states, f, n)
    return {"states": states, "spice_on_board": board, "harvest_turn": pos.turn}


def hand_limit(pos: Position, faction: str) -> int:
    """The most cards the faction may hold (LoLV 1.04.02, 2.05.07; AH VIII.G), one fewer for
    the Moritani and its ally after the Atomics (2.12.09.02)."""
    limit = pos.sheet(faction).hand_limit
    if pos.aftermath is not None and MORITANI in (faction, *pos.allies_of(faction)):
        limit -= 1
    return limit


def can_bid(pos: Position, faction: str) -> bool:
    """Whether the faction may bid: its hand is not full (LoLV 1.04.03, AH VIII.G)."""
    cards = pos.states[faction].cards
    return cards is None or cards < hand_limit(pos, faction)


def bidders(pos: Position) -> list[str]:
    """The factions able to bid, in storm order (LoLV 1.04.06, AH VIII.B)."""
    return [f for f in _in_order(pos) if can_bid(pos, f)]


def opener(pos: Position) -> str | None:
    """Who opens the bidding for the card up for bid: for the turn's first card the first
    player, or the next able to bid to their right (LoLV 1.04.06, AH VIII.B); for each next
    card the first able to bid to the right of the one who opened the card before (1.04.07, AH
    VIII.D). None when nobody may bid."""
    able = bidders(pos)
    if not able:
        return None
    if pos.opened is None or pos.opened[0] != pos.turn:
        return able[0]
    order = _in_order(pos)
    last = pos.opened[1]
    at = order.index(last) if last in order else -1
    after = order[at + 1:] + order[:at + 1]
    return next(f for f in after if f in able)


def _dealt_counted(pos: Position) -> bool:
    """Whether the engine counts the cards dealt: not with the Richese's or the Ixians' own
    cards (2.10.08, 2.07.07)."""
    return pos.setup is not None and not ({RICHESE, IXIANS} & set(pos.setup.factions))


def auction_state(pos: Position) -> tuple[int, int, bool]:
    """This turn's bidding: (cards sold, cards dealt, over): over once a card is passed by
    everyone (1.04.09, AH VIII.E) or every card dealt is sold (1.04.08, AH VIII.E)."""
    sold, dealt, over = 0, len(bidders(pos)), False
    if pos.auction is not None and pos.auction[0] == pos.turn:
        _turn, sold, dealt, closed = pos.auction
        over = bool(closed)
    return sold, dealt, over or (_dealt_counted(pos) and sold >= dealt)


def bid_payee(pos: Position, ev: CardBought) -> str | None:
    """Who receives the price: the Emperor when he plays and is not the buyer, else the bank
    (1.04.06.02, 2.03.04, AH VIII.B.3, VIII.B.3.a)."""
    if ev.karama or ev.faction == EMPEROR or EMPEROR not in _playing(pos):
        return None
    return EMPEROR


def apply_card_bought(pos: Position, ev: CardBought) -> dict[str, Any]:
    need_full_tracking(pos, "the bidding round")
    need_phase(pos, (BIDDING,), "bidding", "Treachery Cards are bought")
    sold, dealt, over = auction_state(pos)
    if _dealt_counted(pos) and sold >= dealt:
        refuse(pos, "dealt", f"{dealt} cards were dealt for bid this turn and all {dealt} are sold", ev, field="faction")
    if over:
        refuse(pos, "bought_in", "a card was passed by everyone: the bidding round is over", ev, field="faction")
    if ev.faction is None:
        return {"auction": (pos.turn, sold, dealt, 1)}
    f = ev.faction
    need_faction(pos, f)
    st = pos.states[f]
    limit = hand_limit(pos, f)
    if st.cards is not None and st.cards >= limit:
        refuse(pos, "hand_limit", f"{faction_name(f)} holds {st.cards} cards, a full hand: it may not bid", f, field="faction")
    if ev.price < 1 and not ev.karama:
        refuse(pos, "bidding", "a card is bought for a bid of 1 spice or more", ev.price, field="price")
    states = dict(pos.states)
    cost = 0 if ev.karama else ev.price
    if ev.ally_paid:
        allies = [a for a in pos.allies_of(f) if a != f]
        if not allies:
            refuse(pos, "ally_bid", f"{faction_name(f)} has no ally to pay part of the price", ev.ally_paid, field="ally_paid")
        if ev.ally_paid > cost:
            refuse(pos, "ally_bid", f"the ally pays at most the price, {cost} spice", ev.ally_paid, field="ally_paid")
        ally = allies[0]
        got = states[ally].spice
        if got is not None and got < ev.ally_paid:
            refuse(pos, "ally_bid", f"{faction_name(ally)} has only {got} spice", ev.ally_paid, field="ally_paid")
        if got is not None:
            states[ally] = evolve(states[ally], spice=got - ev.ally_paid)
    own = cost - ev.ally_paid
    if st.spice is not None:
        if own > st.spice:
            refuse(pos, "bid_spice", f"{faction_name(f)} has only {st.spice} spice and cannot pay {own}", ev.price, field="price")
        states[f] = evolve(states[f], spice=st.spice - own)
    payee = bid_payee(pos, ev)
    if payee is not None:
        _add(states, payee, cost)
    if st.cards is not None:
        extra = 1 if f == HARKONNEN and st.cards + 2 <= limit else 0  # 2.05.08, AH Harkonnen 2
        states[f] = evolve(states[f], cards=st.cards + 1 + extra, card_names=None)
    opened = opener(pos)  # the card just sold was opened by him; the next one to his right (1.04.07)
    return {"states": states, "auction": (pos.turn, sold + 1, dealt, 0),
            "opened": None if opened is None else (pos.turn, opened)}
