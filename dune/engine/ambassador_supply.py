"""The Ecaz Ambassador supply (LoLV 2.11.03, 2.11.05, 2.11.07, 2.11.08, 2.11.09, 2.11.10).

The supply is known once the judge records it (`ambassador_supply_set`, or `ambassadors_drawn`
at setup); until then every placement is taken on the judge's word, as before the supply was
tracked, so older logs keep their meaning. Once known:

- an Ambassador placed leaves the supply, and only one of the supply is placed (2.11.05; no
  older log records a supply, so this holds in every edition);
- a triggered one is set aside (2.11.07), but the Ecaz Ambassador goes back to the supply
  (2.11.10.11) and the Bene Gesserit one leaves the game (2.11.10.02);
- one the storm reaches goes back to the supply (2.11.09);
- when the five random ones have all been triggered they rejoin the unused tokens and five
  are drawn anew (2.11.08).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from dune.engine.checks import need_faction, refuse
from dune.engine.events import AmbassadorsDrawn, AmbassadorSupplySet
from dune.engine.factions import BENE_GESSERIT, ECAZ
from dune.engine.impossible import AMBASSADOR_SYMBOLS
from dune.engine.names import faction_name, join_names
from dune.engine.phases import SETUP
from dune.engine.position import Position, evolve
from dune.engine.supplies import FULL_AMBASSADOR_SUPPLY, RANDOM_AMBASSADORS, random_ones


def _names(symbols: Iterable[str]) -> str:
    return join_names(faction_name(s) for s in sorted(symbols)) or "none"


def _need_tracking_pieces(pos: Position) -> None:
    if not pos.ruleset.expansion_pieces:
        refuse(pos, "setup", f"{pos.ruleset.name} has no Ambassadors", "Ambassadors")
    need_faction(pos, ECAZ)


def _need_symbols(pos: Position, symbols: Iterable[str], field: str) -> None:
    for s in symbols:
        if s not in AMBASSADOR_SYMBOLS:
            refuse(
                pos,
                "ambassador_symbols",
                f"there is no {faction_name(s)} Ambassador: the Ecaz's and one of each other faction but the Moritani",
                s,
                field=field,
            )


def taken_from_supply(pos: Position, symbol: str) -> dict[str, Any]:
    """An Ambassador placed comes from the supply (2.11.05), in every edition: a supply is
    known only from the events that record it, which no older log holds. Unknown supply: not
    checked."""
    supply = pos.supplies.ambassadors
    if supply is None:
        return {}
    if symbol not in supply:
        refuse(
            pos,
            "ambassadors",
            f"the {faction_name(symbol)} Ambassador is not in the Ecaz supply (in it: {_names(supply)})",
            symbol,
            field="ambassador",
        )
    return {"supplies": evolve(pos.supplies, ambassadors=supply - {symbol})}


def after_removal(pos: Position, symbol: str, *, triggered: bool) -> dict[str, Any]:
    """Where an Ambassador leaving the board goes: back to the supply when stormed (2.11.09)
    or when it is the Ecaz Ambassador (2.11.10.11), out of the game when it is the Bene
    Gesserit's (2.11.10.02), set aside otherwise (2.11.07). Unknown supply: nowhere tracked."""
    sup = pos.supplies
    if sup.ambassadors is None:
        return {}
    if not triggered or symbol == ECAZ:
        return {"supplies": evolve(sup, ambassadors=sup.ambassadors | {symbol})}
    if symbol == BENE_GESSERIT:
        return {"supplies": evolve(sup, ambassadors_out=sup.ambassadors_out | {symbol})}
    return {"supplies": evolve(sup, ambassadors_aside=sup.ambassadors_aside | {symbol})}


def stormed_back(pos: Position, symbols: Iterable[str]) -> dict[str, Any]:
    """Ambassadors the storm removed go back to the supply (2.11.09)."""
    sup = pos.supplies
    if sup.ambassadors is None:
        return {}
    return {"supplies": evolve(sup, ambassadors=sup.ambassadors | set(symbols))}


def apply_ambassador_supply_set(pos: Position, ev: AmbassadorSupplySet) -> dict[str, Any]:
    """The judge records the supply, the tokens set aside and those out of the game.
    Refusals name the field at fault and the rule: 2.11.03 (the supply), 2.11.10 (the
    symbols, each token once), 2.11.10.11 / 2.11.10.02 (where triggered tokens go)."""
    _need_tracking_pieces(pos)
    supply, aside, out = set(ev.supply), set(ev.set_aside), set(ev.out_of_game)
    _need_each_token_once(pos, supply, aside, out)
    _need_tokens_in_their_places(pos, supply, aside, out)
    supplies = evolve(
        pos.supplies,
        ambassadors=frozenset(supply),
        ambassadors_aside=frozenset(aside),
        ambassadors_out=frozenset(out),
    )
    return {"supplies": supplies}


def _need_each_token_once(pos: Position, supply: set[str], aside: set[str], out: set[str]) -> None:
    """Every listed symbol exists (2.11.10) and no token is in two places at once."""
    for field, symbols in (("supply", supply), ("set_aside", aside), ("out_of_game", out)):
        _need_symbols(pos, symbols, field)
    on_board = set(pos.ambassadors.values())
    for field, symbols, others in (
        ("supply", supply, on_board),
        ("set_aside", aside, on_board | supply),
        ("out_of_game", out, on_board | supply | aside),
    ):
        twice = symbols & others
        if twice:
            refuse(
                pos,
                "ambassador_symbols",
                f"each Ambassador exists once: {_names(twice)} is already on the board or listed",
                sorted(twice),
                field=field,
            )


def _need_tokens_in_their_places(pos: Position, supply: set[str], aside: set[str], out: set[str]) -> None:
    """The supply's size (2.11.03), where triggered tokens go (2.11.10.11, 2.11.10.02) and how
    many random ones are in play at once (2.11.08)."""
    if pos.phase == SETUP and (len(supply) != FULL_AMBASSADOR_SUPPLY or ECAZ not in supply or aside or out):
        refuse(
            pos,
            "ambassador_supply",
            f"at setup the supply is the Ecaz Ambassador and {RANDOM_AMBASSADORS} random ones, nothing set aside",
            sorted(supply),
            field="supply",
        )
    if len(supply) > FULL_AMBASSADOR_SUPPLY:
        refuse(
            pos,
            "ambassador_supply",
            f"the supply holds at most {FULL_AMBASSADOR_SUPPLY} Ambassadors, the Ecaz's and {RANDOM_AMBASSADORS} random ones",
            sorted(supply),
            field="supply",
        )
    if ECAZ in aside | out:
        refuse(
            pos,
            "ambassador_alliance",
            "the Ecaz Ambassador goes back to the supply when triggered, never aside or out of the game",
            ECAZ,
            field="set_aside" if ECAZ in aside else "out_of_game",
        )
    if out - {BENE_GESSERIT}:
        refuse(
            pos,
            "ambassador_bg",
            f"only the Bene Gesserit Ambassador leaves the game, not {_names(out - {BENE_GESSERIT})}",
            sorted(out),
            field="out_of_game",
        )
    in_play = random_ones(supply | set(pos.ambassadors.values()) | aside)
    if len(in_play) > RANDOM_AMBASSADORS:
        refuse(
            pos,
            "ambassador_redraw",
            f"{RANDOM_AMBASSADORS} random Ambassadors are drawn at a time: {_names(in_play)} are too many",
            sorted(in_play),
            field="supply",
        )


def apply_ambassadors_drawn(pos: Position, ev: AmbassadorsDrawn) -> dict[str, Any]:
    """Five random Ambassadors join the supply: the first supply at setup, beside the Ecaz
    Ambassador (2.11.03), or a new one once all five random ones have been triggered, those
    set aside going back to the unused tokens (2.11.08)."""
    _need_tracking_pieces(pos)
    drawn = set(ev.ambassadors)
    _need_symbols(pos, drawn, "ambassadors")
    if ECAZ in drawn or len(drawn) != RANDOM_AMBASSADORS:
        refuse(
            pos,
            "ambassador_supply",
            f"{RANDOM_AMBASSADORS} Ambassadors other than the Ecaz's are drawn at random",
            list(ev.ambassadors),
            field="ambassadors",
        )
    sup = pos.supplies
    if sup.ambassadors is None:
        if pos.phase != SETUP or pos.ambassadors:
            refuse(
                pos,
                "ambassador_redraw",
                "the Ecaz supply is not tracked yet: record it with ambassador_supply_set",
                list(ev.ambassadors),
                field="ambassadors",
            )
        return {"supplies": evolve(sup, ambassadors=frozenset(drawn | {ECAZ}))}
    untriggered = random_ones(sup.ambassadors | set(pos.ambassadors.values()))
    if untriggered:
        refuse(
            pos,
            "ambassador_redraw",
            f"a new supply is drawn once all five random Ambassadors have been triggered: {_names(untriggered)} have not",
            sorted(untriggered),
            field="ambassadors",
        )
    gone = drawn & sup.ambassadors_out
    if gone:
        refuse(
            pos,
            "ambassador_bg",
            f"{_names(gone)} left the game when triggered and is never drawn again",
            sorted(gone),
            field="ambassadors",
        )
    # The tokens set aside rejoin the unused ones before the draw (2.11.08).
    return {
        "supplies": evolve(sup, ambassadors=sup.ambassadors | drawn, ambassadors_aside=frozenset()),
    }
