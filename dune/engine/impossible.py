"""Positions the texts make impossible around the expansion pieces and held leaders.

`load_position` asks `check_pieces(pos)` for a game of the third edition of the rulings or later
(`editions.refined`); snapshots of older games keep loading as they did. Each refusal is an
`InvalidPosition` naming the rule:

- the Hidden Mobile Stronghold points at a sector of a non-stronghold territory, and only once
  the first storm has been placed (LoLV 2.07.04, 2.07.18);
- the No-Field token is one Richese force for the occupancy limit (2.10.11 with 1.06.02.05);
- Terror tokens stand in the five printed strongholds only, never the Shield Wall or the HMS
  (2.12.05, 4.02.07);
- the Atomics Aftermath needs the Moritani, whose hand holds one card fewer (the ally discards as the judge records it)
  (2.12.09.02);
- Ambassadors stand in strongholds (the HMS is one, 2.07.17), one each, never the Shield
  Wall; every symbol but the Moritani's exists once (2.11.03, 2.11.05, 2.11.10, 4.02.07);
- only the Harkonnen captures leaders (AH X.B.2.a.ii, 2.05.10), only the Tleilaxu holds gholas
  (2.08.16), and the Auditor is neither (2.09.19).

From the fourth edition (`editions.accounted`) it also asks `check_supplies(pos)`, for the
tokens off the board:

- a tracked Ambassador supply holds at most the Ecaz Ambassador and five random ones
  (2.11.03), none of them also on the board, set aside or out of the game (2.11.10); the
  Ecaz Ambassador is never set aside (2.11.10.11), only the Bene Gesserit one leaves the game
  (2.11.10.02), and no more than five random ones are in play before a new draw (2.11.08);
- the Richese have three No-Field tokens (2.10.03): those face up in front of the shield
  (2.10.13) and the one on the board are at most three.

From the ninth edition (`editions.distinguished`) it also asks `check_limits(pos)`:

- a captive comes from the losing player (AH X.B.2.a.ii, 2.05.10) and a ghola is another
  faction's dead leader (2.08.16): nobody holds a leader of its own;
- the LoLV Basic game has no captured leaders (2.05.00: 2.05.10 is an Advanced ability);
- at the Mentat Pause no two allies stand in one territory but the Polar Sink, having met the
  constraint at the end of their shipment and movement (1.06.06, 1.10.02.06; advisors and the
  Ecaz with its ally excepted, 2.02.12, 2.11.11);
- Duke Vidal is an active leader only with the Ecaz or the Moritani at the table (2.11.16,
  2.12.12);
- a table set up for a round that forbids three-faction alliances (the WBC final, recognised by
  its turn limit) does not allow them (WBC Final Round Format).
"""

from __future__ import annotations

from dune.engine.board import (
    HIDDEN_MOBILE_STRONGHOLD,
    POLAR_SINK,
    PRINTED_STRONGHOLDS,
    SHIELD_WALL,
    TERRITORIES,
)
from dune.engine.checks import factions_active_in, limit_counted
from dune.engine.editions import advanced, distinguished
from dune.engine.errors import InvalidPosition
from dune.engine.factions import BENE_GESSERIT, ECAZ, HARKONNEN, IXIANS, MORITANI, RICHESE, TLEILAXU
from dune.engine.ids import FACTIONS
from dune.engine.names import faction_name, factions_text, join_names, place_name
from dune.engine.phases import MENTAT_PAUSE
from dune.engine.position import Position, Setup
from dune.engine.supplies import FULL_AMBASSADOR_SUPPLY, NO_FIELD_NUMBERS, RANDOM_AMBASSADORS, random_ones

#: Faction symbols on Ambassador tokens: every faction's but the Moritani's (2.11.10).
AMBASSADOR_SYMBOLS: frozenset[str] = frozenset(f for f in FACTIONS if f != MORITANI)
#: The Moritani's Terror tokens (2.12.03).
TERROR_TOKENS = 6
#: The CHOAM leader who is never captured nor a ghola (2.09.19).
AUDITOR = "auditor"


def _bad(rule: str, msg: str, value: object, field: str | None = None) -> InvalidPosition:
    return InvalidPosition(rule=rule, msg=msg, input=value, field=field)


def _in_game(pos: Position, faction: str, piece: str, rule: str, value: object) -> None:
    """`piece` (with its article: "a Terror token") is on the board only in a game of the rules
    that have it, with the `faction` that brings it. The pages translate the piece's words
    (foundation.core_words)."""
    assert pos.setup is not None
    if not pos.ruleset.expansion_pieces:
        piece_alone = piece.split(" ", 1)[1]
        raise _bad(pos.ruleset.cite["no_expansion"], f"there is no {piece_alone} in {pos.ruleset.name}", value)
    if faction not in pos.setup.factions:
        raise _bad(rule, f"{piece} needs the {faction_name(faction)} in the game", value)


def check_pieces(pos: Position) -> None:
    """Raise InvalidPosition for the first piece or held leader the texts rule out."""
    _hms(pos)
    _no_field(pos)
    _terror(pos)
    _ambassadors(pos)
    _leaders(pos)


def check_supplies(pos: Position) -> None:
    """Raise InvalidPosition for the first supply off the board the texts rule out (fourth
    edition), naming the snapshot key."""
    _ambassador_supply(pos)
    _no_field_face_up(pos)


def _hms(pos: Position) -> None:
    if pos.hms is None:
        return
    _in_game(pos, IXIANS, "the Hidden Mobile Stronghold", "2.07.04", pos.hms)
    territory, sector = pos.hms
    t = TERRITORIES[territory]
    if t.is_stronghold or t.expansion is not None or sector not in t.sectors:
        raise _bad(
            "2.07.04",
            f"the Hidden Mobile Stronghold points at a sector of a territory that is no stronghold, not {place_name(territory)} sector {sector}",
            pos.hms,
        )
    if pos.storm is None:
        raise _bad("2.07.04", "the Hidden Mobile Stronghold is deployed after the first storm", pos.hms)


def _no_field(pos: Position) -> None:
    if pos.no_field is None:
        return
    _in_game(pos, RICHESE, "a No-Field token", "2.10.15", pos.no_field)
    territory = pos.no_field[0]
    if not TERRITORIES[territory].is_stronghold or territory == SHIELD_WALL:
        return
    present = factions_active_in(pos, territory)
    others = limit_counted(pos, RICHESE, present)
    if len(others) >= 2:
        raise _bad(
            "2.10.11",
            f"the No-Field token counts as a Richese force: {place_name(territory)} would hold "
            f"{factions_text(sorted(others))} and the Richese, at most two factions (1.06.02.05)",
            pos.no_field,
        )


def _terror(pos: Position) -> None:
    if pos.terror:
        _in_game(pos, MORITANI, "a Terror token", "2.12.05", sorted(pos.terror))
    wrong = sorted(t for t in pos.terror if t not in PRINTED_STRONGHOLDS or t == SHIELD_WALL)
    if wrong:
        raise _bad(
            "2.12.05",
            f"Terror tokens stand only in the five strongholds, not in {join_names(place_name(t) for t in wrong)}",
            wrong,
        )
    if len(pos.terror) + pos.terror_spent > TERROR_TOKENS:
        raise _bad(
            "2.12.03",
            f"the Moritani have {TERROR_TOKENS} Terror tokens: {len(pos.terror)} on the board and "
            f"{pos.terror_spent} out of the game are too many",
            pos.terror_spent,
        )
    if pos.aftermath is None:
        return
    _in_game(pos, MORITANI, "the Atomics Aftermath", "2.12.09.02", pos.aftermath)
    for f in (MORITANI,):  # an ally joining later discards as the judge records it
        st = pos.states.get(f)
        limit = pos.sheet(f).hand_limit - 1
        if st is not None and st.cards is not None and st.cards > limit:
            raise _bad(
                "2.12.09.02",
                f"after the Atomics {faction_name(f)} holds at most {limit} treachery cards, not {st.cards}",
                st.cards,
            )


def _ambassadors(pos: Position) -> None:
    if not pos.ambassadors:
        return
    _in_game(pos, ECAZ, "an Ambassador", "2.11.05", dict(pos.ambassadors))
    for territory, symbol in pos.ambassadors.items():
        stronghold = territory in PRINTED_STRONGHOLDS or territory == HIDDEN_MOBILE_STRONGHOLD
        if not stronghold or territory == SHIELD_WALL:
            raise _bad(
                "2.11.05", f"Ambassadors stand only in strongholds, not in {place_name(territory)}", territory
            )
        if symbol not in AMBASSADOR_SYMBOLS:
            raise _bad("2.11.10", f"there is no {faction_name(symbol)} Ambassador", symbol)
    symbols = list(pos.ambassadors.values())
    twice = sorted({s for s in symbols if symbols.count(s) > 1})
    if twice:
        raise _bad(
            "2.11.10",
            f"each Ambassador exists once: {join_names(faction_name(s) for s in twice)} stands twice",
            twice,
        )


def _ambassador_supply(pos: Position) -> None:
    sup = pos.supplies
    if sup.ambassadors is None:
        return
    _in_game(pos, ECAZ, "an Ambassador supply", "2.11.03", sorted(sup.ambassadors))
    places = {
        "ambassador_supply": sup.ambassadors,
        "ambassadors_aside": sup.ambassadors_aside,
        "ambassadors_out": sup.ambassadors_out,
    }
    seen = {s: "ambassadors" for s in pos.ambassadors.values()}
    for key, symbols in places.items():
        for s in sorted(symbols):
            if s not in AMBASSADOR_SYMBOLS:
                raise _bad("2.11.10", f"there is no {faction_name(s)} Ambassador", s, key)
            if s in seen:
                raise _bad(
                    "2.11.10",
                    f"each Ambassador exists once: the {faction_name(s)} Ambassador is in {seen[s]!r} and {key!r}",
                    s,
                    key,
                )
            seen[s] = key
    if len(sup.ambassadors) > FULL_AMBASSADOR_SUPPLY:
        raise _bad(
            "2.11.03",
            f"the Ambassador supply holds at most {FULL_AMBASSADOR_SUPPLY}, not {len(sup.ambassadors)}",
            sorted(sup.ambassadors),
            "ambassador_supply",
        )
    if ECAZ in sup.ambassadors_aside | sup.ambassadors_out:
        raise _bad(
            "2.11.10.11",
            "the Ecaz Ambassador goes back to the supply when triggered",
            ECAZ,
            "ambassadors_aside",
        )
    if sup.ambassadors_out - {BENE_GESSERIT}:
        raise _bad(
            "2.11.10.02",
            "only the Bene Gesserit Ambassador leaves the game",
            sorted(sup.ambassadors_out),
            "ambassadors_out",
        )
    in_play = random_ones(sup.ambassadors | sup.ambassadors_aside | set(pos.ambassadors.values()))
    if len(in_play) > RANDOM_AMBASSADORS:
        raise _bad(
            "2.11.08",
            f"{RANDOM_AMBASSADORS} random Ambassadors are in play at a time, not {len(in_play)}",
            sorted(in_play),
            "ambassador_supply",
        )


def _no_field_face_up(pos: Position) -> None:
    up = pos.supplies.no_field_face_up
    if not up:
        return
    _in_game(pos, RICHESE, "a No-Field token face up", "2.10.13", sorted(up))
    if len(up) + (pos.no_field is not None) > len(NO_FIELD_NUMBERS):
        raise _bad(
            "2.10.03",
            f"the Richese have {len(NO_FIELD_NUMBERS)} No-Field tokens: {len(up)} face up and one on the board are too many",
            sorted(up),
            "no_field_face_up",
        )


def holder_problem(
    pos: Position, leader_id: str, name: str, status: str, holder: str | None, owner: str | None = None
) -> tuple[str, str] | None:
    """Why a leader cannot be captured or held by `holder`: (rule, message), or None. With the
    leader's `owner`, from the ninth edition: nobody holds its own leader, and the LoLV Basic
    game has no captives."""
    cite = pos.ruleset.cite
    if owner is not None and distinguished(pos) and status in ("captured", "held"):
        if holder == owner:
            what = ("a ghola is another faction's dead leader", "ghola") if status == "held" else (
                "a captive comes from the losing player",
                "captured",
            )
            return cite[what[1]], f"{what[0]}: {faction_name(owner)} cannot hold its own {name}"
        if status == "captured" and pos.ruleset.basic_or_advanced and not advanced(pos):
            return "2.05.00", f"the Basic game has no captured leaders (2.05.10 is an Advanced ability), so {name} is not captured"
    if status == "held" and not advanced(pos):
        return (
            "2.08.00",
            f"the Basic game has no gholas (2.08.16 is an Advanced ability), so nobody holds {name}",
        )
    if leader_id == AUDITOR and status in ("captured", "held") and advanced(pos):
        return "2.09.19", "the Auditor is never captured nor a ghola"
    if status == "captured" and holder != HARKONNEN:
        return cite[
            "captured"
        ], f"only the Harkonnen capture leaders, so {faction_name(holder or '')} cannot hold {name}"
    if status == "held" and holder != TLEILAXU:
        return cite[
            "ghola"
        ], f"only the Tleilaxu hold gholas, so {faction_name(holder or '')} cannot hold {name}"
    return None


def _leaders(pos: Position) -> None:
    for f, st in pos.states.items():
        for ld, (status, holder) in zip(pos.sheet(f).leaders, st.leaders, strict=False):
            problem = holder_problem(pos, ld.id, ld.name, status, holder, f)
            if problem is not None:
                raise _bad(problem[0], problem[1], holder)


def check_limits(pos: Position) -> None:
    """Raise InvalidPosition for the first of the last limits of a position the texts rule out
    (ninth edition; listed above)."""
    _allies_apart(pos)
    _vidal(pos)
    if pos.setup is not None:
        check_round_alliances(pos.setup)


def _allies_apart(pos: Position) -> None:
    problem = allies_together(pos)
    if problem is not None:
        raise _bad(problem[0], problem[1], problem[2], "forces")


def allies_together(pos: Position) -> tuple[str, str, str] | None:
    """1.06.06, 1.10.02.06: the constraint met, no two allies share a territory at the Mentat
    Pause (not the Polar Sink; advisors and the Ecaz with its ally excepted, 2.02.12, 2.11.11).
    The first pair found: (rule, message, territory), or None."""
    if pos.ruleset.ally_entry != "tanks_at_action_end" or pos.phase != MENTAT_PAUSE:
        return None
    where: dict[str, set[str]] = {}
    for (f, t, _s), st in pos.forces.items():
        if t != POLAR_SINK and st[0] + st[1]:
            where.setdefault(t, set()).add(f)
    for t, present in sorted(where.items()):
        for f in sorted(present):
            allies = sorted(a for a in pos.allies_of(f) if a in present and ECAZ not in (f, a))
            if allies:
                return (
                    pos.ruleset.cite.get("ally_tanks", "1.06.06"),
                    f"{faction_name(f)} and its ally {faction_name(allies[0])} both stand in {place_name(t)}: "
                    "forces beside an ally's go to the tanks at the end of their shipment and movement (1.10.02.06)",
                    t,
                )
    return None


def _vidal(pos: Position) -> None:
    """2.11.16, 2.12.12: Duke Vidal joins a leader pool through the Ecaz or the Moritani."""
    if pos.vidal is None or pos.setup is None:
        return
    if not {ECAZ, MORITANI} & set(pos.setup.factions):
        raise _bad(
            "2.12.12",
            f"Duke Vidal leads for a faction only with the Ecaz or the Moritani at the table (2.11.16), not for {faction_name(pos.vidal)}",
            pos.vidal,
            "vidal",
        )


def check_round_alliances(setup: Setup) -> None:
    """A table whose turn limit is that of a round forbidding three-faction alliances (the WBC
    final, WBC Final Round Format) does not allow them."""
    if not setup.three_alliances:
        return
    rounds = [r for r in setup.ruleset.rounds.values() if r.turns == setup.turn_limit]
    if rounds and all(not r.three_alliances for r in rounds):
        raise _bad(
            rounds[0].three_alliances_rule,
            f"a table playing {setup.turn_limit} turns plays the final, which allows no three-faction alliances",
            True,
            "three_alliances",
        )
