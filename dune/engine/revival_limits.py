"""The forces a faction may revive in a turn, and the Guild's one kind of shipment a turn
(fifth edition, `editions.limited`).

At most three forces a turn (LoLV 1.05.01, AH IX.B.2), of them one Fedaykin (2.04.20, AH
IX.B.4) and one Sardaukar (2.03.11, AH IX.B.5; both Advanced abilities in the LoLV). Beyond
that: the Tleilaxu revive without limit (2.08.08), and so do the CHOAM (2.09.08); the Tleilaxu may raise another faction's
limit to five (2.08.11) and the Emperor may pay for three more of its ally's (2.03.07) - the
event names who (`raised_by`); the Tleilaxu Ghola card brings back up to five more outside the
count (3.01.20, AH IX.B.2 "except by treachery card", AH questions A.6); the Emperor's Karama
revival is `karama.revival`'s.
"""

from __future__ import annotations

from typing import Any

from dune.engine.checks import refuse
from dune.engine.editions import advanced, distinguished, limited
from dune.engine.events import ForcesRevived
from dune.engine.factions import CHOAM, EMPEROR, FREMEN, GUILD, TLEILAXU
from dune.engine.names import faction_name, shipment_kind_words
from dune.engine.position import Position

#: Forces a turn (1.05.01, AH IX.B.2); raised by the Tleilaxu (2.08.11); the Emperor's extra
#: for its ally (2.03.07); the Ghola card's revival (3.01.20).
LIMIT = 3
RAISED_LIMIT = 5
ALLY_EXTRA = 3
GHOLA_LIMIT = 5
#: The Tleilaxu Ghola cards in a deck: one (AH II.D with AH questions A.6, LoLV 3.01.20; the
#: WBC deck is the 1979 one), played once and discarded, so used at most once a turn.
GHOLA_CARDS = 1


def _limit(pos: Position, ev: ForcesRevived) -> int | None:
    """The most forces the faction may revive this turn, or None for no limit."""
    if ev.faction == TLEILAXU and pos.ruleset.cite.get("revival_unlimited"):
        return None  # 2.08.08
    if ev.faction == CHOAM and "revival_choam" in pos.ruleset.cite:
        return None  # 2.09.08: the CHOAM pay for as many as they like (a Basic ability too)
    if ev.raised_by is None:
        return LIMIT
    if ev.raised_by == TLEILAXU and "revival_raised" in pos.ruleset.cite and TLEILAXU in pos.playing:
        return RAISED_LIMIT
    if ev.raised_by == EMPEROR and "revival_ally" in pos.ruleset.cite and EMPEROR in pos.allies_of(ev.faction):
        return LIMIT + ALLY_EXTRA
    refuse(
        pos,
        "revival_limit",
        f"{faction_name(ev.raised_by)} cannot raise {faction_name(ev.faction)}'s revival limit here",
        ev.raised_by,
        field="raised_by",
    )


def _starred_once(pos: Position, faction: str) -> str | None:
    """The rule allowing one starred force a turn for this faction, or None."""
    rs_key = {FREMEN: "fedaykin_revival", EMPEROR: "sardaukar_revival"}.get(faction)
    if rs_key is None or not advanced(pos):
        return None
    return rs_key


def check_revival(pos: Position, ev: ForcesRevived) -> dict[str, Any]:
    """Refuse a revival beyond the turn's limits; the changes counting it (`revived`)."""
    if not limited(pos) or ev.karama:
        return {}
    count = ev.normal + ev.special
    if ev.ghola:
        if count > GHOLA_LIMIT:
            refuse(pos, "ghola_card", f"the Tleilaxu Ghola card revives up to {GHOLA_LIMIT} forces, not {count}", count, field="normal")
        return ghola_use(pos, ev.faction)

    turn, before, starred = pos.revived.get(ev.faction, (pos.turn, 0, 0))
    if turn != pos.turn:
        before = starred = 0
    limit = _limit(pos, ev)
    if limit is not None and before + count > limit:
        refuse(
            pos,
            "revival_limit",
            f"{faction_name(ev.faction)} revives at most {limit} forces a turn, not {before + count} "
            f"({before} already this turn)"
            if before
            else f"{faction_name(ev.faction)} revives at most {limit} forces a turn, not {before + count}",
            count,
            field="normal",
        )
    key = _starred_once(pos, ev.faction)
    if key is not None and starred + ev.special > 1:
        refuse(pos, key, f"{faction_name(ev.faction)} revives one starred force a turn", ev.special, field="special")
    revived = dict(pos.revived)
    revived[ev.faction] = (pos.turn, before + count, starred + ev.special)
    return {"revived": revived}


#: The Guild's three kinds of shipment, one of which it makes a turn (LoLV 2.06.05, AH IX.C.1.g).
GUILD_SHIPMENTS: tuple[str, ...] = ("normal", "cross_ship", "off_planet")


def guild_shipment(pos: Position, faction: str, kind: str) -> dict[str, Any]:
    """Refuse the Guild a second kind of shipment in a turn; the change recording its kind."""
    if faction != GUILD or not limited(pos):
        return {}
    made = pos.guild_shipment
    if made is not None and made[0] == pos.turn and made[1] != kind:
        refuse(
            pos,
            "guild_shipment",
            f"the Guild makes one of its three kinds of shipment a turn: it made a {shipment_kind_words(made[1])} shipment, not also a {shipment_kind_words(kind)} one",
            kind,
        )
    return {"guild_shipment": (pos.turn, kind)}


def ghola_use(pos: Position, faction: str) -> dict[str, Any]:
    """Ninth edition: the Tleilaxu Ghola card is one card, played once and discarded (3.01.20,
    AH questions A.6): one use a turn at the table, by a faction holding a card. The change
    counting it (`ghola_used`)."""
    if not distinguished(pos):
        return {}
    turn, uses = pos.ghola_used or (pos.turn, 0)
    if turn != pos.turn:
        uses = 0
    if uses >= GHOLA_CARDS:
        refuse(pos, "ghola_card", "the deck holds one Tleilaxu Ghola card and it has been played this turn", True, field="ghola")
    held = pos.states[faction].cards
    if held is not None and held < 1:
        refuse(pos, "ghola_card", f"{faction_name(faction)} holds no treachery card to play as the Tleilaxu Ghola", True, field="ghola")
    return {"ghola_used": (pos.turn, uses + 1)}
