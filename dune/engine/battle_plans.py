"""A battle resolved from the two battle plans (LoLV 1.07.04-1.07.07, AH X.B-D, WBC X, XV).

`resolve_battle(position, event)` is pure: it checks the plans against the position and the
table's ruleset and answers a `Resolution` (the winner, the totals, the forces and spice lost,
the leaders killed, captured or sent home, the cards discarded, the spice paid and earned, each
with its rule) without changing anything, so a page can show the outcome before the judge
confirms it; `apply_battle` records it. A refused plan raises a RuleViolation naming the plan's
field (`aggressor.dial`, `defender.leader`, `capture.leader`, ...).

The outcomes, in the order the rules settle them:

- a traitor call (1.07.06.06, AH X.D): the caller wins and loses nothing, the traitorous
  leader goes to the tanks and its value to the caller; the other side loses every force in
  the battle and discards its cards. A call takes precedence over a lasgun/shield explosion
  (1.07.06.06.00, WBC X.25, AH XXI.A.1.a). A leader with the Kwisatz Haderach is never a
  traitor (2.01.12, AH X.D.1.b).
- two traitors (1.07.06.06.02, AH X.D.3, WBC X.24): both lose their forces, cards and
  leaders; nobody wins and nobody earns spice.
- a lasgun and a shield (3.01.14, AH questions A.3, WBC X.23): every force in the territory,
  third parties and Bene Gesserit advisors or coexisting tokens included, and its spice are
  lost; both leaders die (the Kwisatz Haderach with its leader, 2.01.13), no spice is paid for
  them, every card played is discarded and nobody wins.
- otherwise the higher total of the number dialed and the surviving leader's strength (+2 with
  the Kwisatz Haderach) wins, the aggressor winning a tie (1.07.06, AH X.C): the loser loses
  every force in the battle and its cards, the winner the forces it dialed.

The Kwisatz Haderach counts the Atreides forces lost in battles and awakens at seven (2.01.10,
AH X.B.2.a.i, WBC XV.1); the Harkonnen who won may kill or capture one of the loser's leaders
(2.05.10, Advanced only; AH X.B.2.a.ii; WBC X.16); a captive fights once and goes home
(2.05.10.02), or to the tanks if killed (2.05.12); when every Harkonnen leader of its own is
dead the captives go home at once (2.05.11).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, NoReturn

from dune.engine.battles import Battle as Fight
from dune.engine.battles import battles
from dune.engine.board import POLAR_SINK, TERRITORIES
from dune.engine.control import occupancy
from dune.engine.editions import advanced, distinguished, sequenced, sheltered
from dune.engine.errors import IllegalAction, UnknownIdentifier, WrongPhase
from dune.engine.events import Battle, BattlePlan, Capture
from dune.engine.factions import (
    ATREIDES,
    BENE_GESSERIT,
    CHOAM,
    EMPEROR,
    FREMEN,
    HARKONNEN,
    IXIANS,
    RICHESE,
)
from dune.engine.names import faction_name, join_names, phase_name, place_name
from dune.engine.numbers import decimal_str
from dune.engine.phases import BATTLE
from dune.engine.position import Position, Stack
from dune.engine.storm import played_order, separated, storm_order

#: The Kwisatz Haderach's row in `Position.fought`.
KWISATZ_HADERACH = "kwisatz_haderach"
#: Atreides forces lost in battles that awaken the Kwisatz Haderach (2.01.10, AH X.B.2.a.i).
KH_AWAKENS = 7
#: The spice the Harkonnen gain for killing a leader they drew (2.05.10.01, WBC X.18).
CAPTURE_KILL_SPICE = 2

#: Each battle card: (its slot, what it is): weapons "projectile" / "poison" / "lasgun"
#: (the defense that stops it), defenses "projectile" / "poison" (what they stop), worthless
#: cards "" (LoLV 3.01, 3.02; AH X.B.3; WBC Player Aid). Ellaca Drug is a poison weapon the
#: projectile defense stops (LoLV 3.01, card text).
CARDS: Mapping[str, tuple[str, str]] = {
    "projectile": ("weapon", "projectile"),
    "crysknife": ("weapon", "projectile"),
    "maula_pistol": ("weapon", "projectile"),
    "slip_tip": ("weapon", "projectile"),
    "stunner": ("weapon", "projectile"),
    "poison": ("weapon", "poison"),
    "chaumas": ("weapon", "poison"),
    "chaumurky": ("weapon", "poison"),
    "gom_jabbar": ("weapon", "poison"),
    "ellaca_drug": ("weapon", "projectile"),
    "lasgun": ("weapon", "lasgun"),
    "shield": ("defense", "projectile"),
    "snooper": ("defense", "poison"),
    "worthless": ("worthless", ""),
    "baliset": ("worthless", ""),
    "jubba_cloak": ("worthless", ""),
    "kulon": ("worthless", ""),
    "la_la_la": ("worthless", ""),
    "trip_to_gamont": ("worthless", ""),
    # The second expansion (LoLV 3.02): the Mirror Weapon copies the opponent's weapon (3.02.04),
    # the Portable Snooper is a poison defense (3.02.07), the Stone Burner decides the battle by
    # the forces left undialed (3.02.10).
    "mirror_weapon": ("weapon", "mirror"),
    "portable_snooper": ("defense", "poison"),
    "stone_burner": ("weapon", "stone_burner"),
}

#: Cards discarded after use (LoLV 3.01.04 Cheap Hero, 3.02.04, 3.02.07, 3.02.10): a winner keeps
#: them only after a traitor call where the ruleset lets it (1.07.06.06.00).
ONE_TIME_CARDS: frozenset[str] = frozenset({"cheap_hero", "mirror_weapon", "portable_snooper", "stone_burner"})
#: Each expansion card and the rule that brings it into the deck (LoLV 3.02.00); a ruleset
#: without that rule number in its `cite` has no such card (AH II.D, the WBC plays no
#: expansion cards).
EXPANSION_CARDS: Mapping[str, str] = {
    "mirror_weapon": "mirror_weapon",
    "portable_snooper": "portable_snooper",
    "stone_burner": "stone_burner",
}


@dataclass(frozen=True, slots=True)
class Ruling:
    """One step of a resolution and the rule it rests on."""

    rule: str
    text: str

    def to_dict(self) -> dict[str, str]:
        return {"rule": self.rule, "text": self.text}


@dataclass(frozen=True, slots=True)
class LeaderFate:
    """A leader's new state after the battle (`owner`'s sheet), and why."""

    owner: str
    leader: str
    status: str  # "tanks_face_up" | "tanks_face_down" | "captured" | "active"
    captor: str | None
    rule: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "faction": self.owner,
            "leader": self.leader,
            "status": self.status,
            "captor": self.captor,
            "rule": self.rule,
        }


#: (faction, territory, sector, normal, special, advisors, rule), as `losses.Loss`.
LossRow = tuple[str, str, "int | None", int, int, int, str]


@dataclass(frozen=True, slots=True)
class Resolution:
    """What a battle comes to (`to_dict()` is the JSON a page shows before confirming)."""

    territory: str
    aggressor: str
    defender: str
    #: "won" (by the totals), "traitor", "two_traitors" or "explosion"
    outcome: str
    winner: str | None
    loser: str | None
    totals: Mapping[str, Fraction | None]
    losses: tuple[LossRow, ...]
    leaders: tuple[LeaderFate, ...]
    discarded: Mapping[str, tuple[str, ...]]
    spice: Mapping[str, int]  # change behind each shield (spice paid, leaders' value, a kill)
    board_spice_lost: int
    kh_losses: int
    kh_dead: bool
    fought: frozenset[tuple[int, str, str, str]]
    rulings: tuple[Ruling, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        return {
            "territory": self.territory,
            "aggressor": self.aggressor,
            "defender": self.defender,
            "outcome": self.outcome,
            "winner": self.winner,
            "loser": self.loser,
            "totals": {f: None if t is None else decimal_str(t) for f, t in self.totals.items()},
            "losses": [
                {
                    "faction": f,
                    "territory": t,
                    "sector": s,
                    "normal": n,
                    "special": sp,
                    "advisors": a,
                    "rule": rule,
                }
                for f, t, s, n, sp, a, rule in self.losses
            ],
            "leaders": [fate.to_dict() for fate in self.leaders],
            "discarded": {f: list(cards) for f, cards in self.discarded.items()},
            "spice": dict(self.spice),
            "board_spice_lost": self.board_spice_lost,
            "kwisatz_haderach": {"losses": self.kh_losses, "awake": self.kh_losses >= KH_AWAKENS, "dead": self.kh_dead},
            "rulings": [r.to_dict() for r in self.rulings],
        }


# --- refusals -----------------------------------------------------------------------------


def _cite(pos: Position, key: str, fallback: str | None = None) -> str:
    cite = pos.ruleset.cite
    return cite.get(key) or (cite.get(fallback, fallback) if fallback else key)


def _refuse(pos: Position, key: str, msg: str, value: Any, field: str, fallback: str | None = None) -> NoReturn:
    raise IllegalAction(rule=_cite(pos, key, fallback), msg=msg, phase=pos.phase, input=value, field=field)


# --- the forces in a battle ---------------------------------------------------------------


def _stacks(pos: Position, faction: str, territory: str) -> list[tuple[int | None, Stack]]:
    """The faction's stacks in the territory that fight (fighters; not coexisting BG)."""
    if faction == BENE_GESSERIT and territory in pos.coexisting:
        return []
    return sorted(
        ((s, st) for (f, t, s), st in pos.forces.items() if f == faction and t == territory and st[0] + st[1]),
        key=lambda item: -1 if item[0] is None else item[0],
    )


def _engaged(
    pos: Position, territory: str, mine: list[tuple[int | None, Stack]], theirs: list[tuple[int | None, Stack]]
) -> list[tuple[int | None, Stack]]:
    """My stacks not separated by the storm from every stack of the opponent (1.07.01.00)."""
    shelter = sheltered(pos)
    return [
        (s, st)
        for s, st in mine
        if any(not separated(territory, s, o, pos.storm, shelter) for o, _st in theirs)
    ]


def _values(pos: Position, faction: str, opponent: str) -> tuple[Fraction, Fraction]:
    """A normal and a starred force's worth in battle and in taking losses (AH X.B.1.a-b;
    LoLV 2.03.08-09, 2.04.18 and 2.07.09, the first three Advanced abilities)."""
    adv = advanced(pos)
    if faction == FREMEN and adv:
        return Fraction(1), Fraction(2)  # Fedaykin (2.04.18, AH X.B.1.a)
    if faction == EMPEROR and adv:
        return Fraction(1), Fraction(1 if opponent == FREMEN else 2)  # Sardaukar (2.03.08-09, AH X.B.1.b)
    if faction == IXIANS:
        return Fraction(1), Fraction(2)  # Cyborgs (2.07.09)
    return Fraction(1), Fraction(1)


def _dialing(pos: Position, faction: str, granted: bool = False) -> bool:
    """Whether spice dialing halves this faction's unsupported forces (LoLV 1.13.03; the
    Fremen count full strength for nothing where the game's rules say so: 2.04.21, WBC house
    rules, a format's `fremen_full_strength`; under the WBC house rules the Fremen may grant it
    to their ally for its battle, `granted`)."""
    rs = pos.ruleset
    if not rs.spice_dialing or not advanced(pos):
        return False
    if faction == FREMEN:
        return not rs.fremen_full_strength
    return not (granted and _may_grant_strength(pos, faction))


def _may_grant_strength(pos: Position, faction: str) -> bool:
    """Whether the Fremen may let `faction`, their ally, count at full strength for nothing in
    its battles (WBC house rules: "the Fremen may permit their ally to do the same")."""
    rs = pos.ruleset
    return rs.fremen_full_strength and rs.battle.fremen_ally_full_strength and FREMEN in pos.allies_of(faction)


def _strength(
    pos: Position, faction: str, opponent: str, normal: int, special: int, spice: int, granted: bool = False
) -> Fraction:
    """The most a group of forces is worth with `spice` supporting the worthiest first."""
    vn, vs = _values(pos, faction, opponent)
    if not _dialing(pos, faction, granted):
        if faction == IXIANS and distinguished(pos):
            vn = vn / 2  # 2.07.14: the Suboids are worth half in battle, in the Basic game too
        return normal * vn + special * vs
    suboids_half = faction == IXIANS  # 2.07.23: Suboids are always half strength
    supported_sp = min(spice, special)
    supported_n = 0 if suboids_half else min(spice - supported_sp, normal)
    return (
        supported_sp * vs
        + (special - supported_sp) * vs / 2
        + supported_n * vn
        + (normal - supported_n) * vn / 2
    )


# --- leaders -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Side:
    plan: BattlePlan
    prefix: str  # "aggressor" | "defender"
    opponent: str
    stacks: list[tuple[int | None, Stack]]
    leader_owner: str | None
    leader_index: int | None
    strength: int | None  # the leader disc's printed value (None: Zoal)

    @property
    def faction(self) -> str:
        return self.plan.faction

    @property
    def forces(self) -> tuple[int, int]:
        return sum(st[0] for _s, st in self.stacks), sum(st[1] for _s, st in self.stacks)

    def leader_key(self) -> tuple[str, str] | None:
        if self.leader_owner is None or self.plan.leader is None:
            return None
        return self.leader_owner, self.plan.leader


def _leader_status(pos: Position, owner: str, index: int) -> tuple[str, str | None] | None:
    st = pos.states.get(owner)
    if st is None or not st.leaders:
        return None  # not tracked
    return st.leaders[index]


def _available_leaders(pos: Position, faction: str, territory: str) -> list[str] | None:
    """The faction's leaders it could put on its wheel here, or None when not tracked."""
    st = pos.states.get(faction)
    if st is None or not st.leaders:
        return None
    out: list[str] = []
    used = _fought_elsewhere(pos, territory)
    for ld, (status, _captor) in zip(pos.sheet(faction).leaders, st.leaders, strict=False):
        if status == "active" and (faction, ld.id) not in used:
            out.append(ld.id)
    for owner, ost in pos.states.items():
        if owner == faction:
            continue
        for ld, (status, captor) in zip(pos.sheet(owner).leaders, ost.leaders, strict=False):
            if status in ("captured", "held") and captor == faction and (owner, ld.id) not in used:
                out.append(ld.id)
    return out


def _fought_elsewhere(pos: Position, territory: str) -> set[tuple[str, str]]:
    return {(owner, ld) for turn, owner, ld, t in pos.fought if turn == pos.turn and t != territory}


def _side(pos: Position, plan: BattlePlan, prefix: str, opponent: str, territory: str) -> _Side:
    mine = _stacks(pos, plan.faction, territory)
    theirs = _stacks(pos, opponent, territory)
    stacks = _engaged(pos, territory, mine, theirs)
    owner: str | None = None
    index: int | None = None
    strength: int | None = None
    if plan.leader is not None:
        owner = plan.leader_of or plan.faction
        if owner not in pos.states:
            raise UnknownIdentifier(
                rule=_cite(pos, "setup"),
                msg=f"{faction_name(owner)} does not play in this game",
                phase=pos.phase,
                input=owner,
                field=f"{prefix}.leader_of",
            )
        sheet = pos.sheet(owner)
        index = sheet.leader_index(plan.leader)
        if index is None:
            raise UnknownIdentifier(
                rule=_cite(pos, "leaders"),
                msg=f"{faction_name(owner)} has no leader {plan.leader}",
                phase=pos.phase,
                input=plan.leader,
                field=f"{prefix}.leader",
            )
        strength = sheet.leaders[index].strength
    elif plan.leader_of is not None:
        _refuse(pos, "battle_leader", "a leader's owner is named only with the leader", plan.leader_of, f"{prefix}.leader_of")
    return _Side(plan, prefix, opponent, stacks, owner, index, strength)


# --- checks --------------------------------------------------------------------------------


def _check_leader(pos: Position, side: _Side, territory: str) -> None:
    plan, prefix = side.plan, side.prefix
    if plan.leader is not None and plan.cheap_hero:
        _refuse(
            pos, "battle_leader", "a battle plan holds one leader disc or a Cheap Hero, not both", plan.leader, f"{prefix}.cheap_hero"
        )
    if side.leader_owner is not None and side.leader_index is not None:
        ld = pos.sheet(side.leader_owner).leaders[side.leader_index]
        status = _leader_status(pos, side.leader_owner, side.leader_index)
        if status is not None:
            state, captor = status
            if side.leader_owner == side.faction:
                if state != "active":
                    where = {
                        "captured": f"held captive by {faction_name(captor or '')}",
                        "held": f"a ghola of {faction_name(captor or '')}",
                        "tanks_face_up": "in the Tleilaxu Tanks",
                        "tanks_face_down": "in the Tleilaxu Tanks",
                    }.get(state, state)
                    _refuse(pos, "battle_leader", f"{ld.name} is {where}, not an active leader of {faction_name(side.faction)}", plan.leader, f"{prefix}.leader")
            elif state not in ("captured", "held") or captor != side.faction:
                _refuse(
                    pos,
                    "captured",
                    f"{faction_name(side.faction)} holds no captive or ghola {ld.name} of {faction_name(side.leader_owner)}",
                    plan.leader,
                    f"{prefix}.leader",
                )
        key = (side.leader_owner, ld.id)
        if key in _fought_elsewhere(pos, territory):
            _refuse(
                pos,
                "battle_dedicated",
                f"{ld.name} already fought in another territory this turn",
                plan.leader,
                f"{prefix}.leader",
            )
    if plan.leader is None and not plan.cheap_hero:
        available = _available_leaders(pos, side.faction, territory)
        if available:
            _refuse(
                pos,
                "battle_leader",
                f"{faction_name(side.faction)} has a leader to play ({', '.join(available)}) and must play one",
                None,
                f"{prefix}.leader",
            )
        if plan.weapon or plan.defense:
            _refuse(
                pos,
                "battle_no_leader",
                "without a leader or a Cheap Hero no treachery card may be played",
                plan.weapon or plan.defense,
                f"{prefix}.weapon" if plan.weapon else f"{prefix}.defense",
            )


def _check_cards(pos: Position, side: _Side) -> None:
    plan, prefix = side.plan, side.prefix
    if plan.weapon is not None and CARDS[plan.weapon][0] == "defense":
        _refuse(pos, "battle_cards", f"{plan.weapon} is a defense, not a weapon", plan.weapon, f"{prefix}.weapon")
    if plan.defense is not None and CARDS[plan.defense][0] == "weapon":
        _refuse(pos, "battle_cards", f"{plan.defense} is a weapon, not a defense", plan.defense, f"{prefix}.defense")
    for slot in ("weapon", "defense"):
        card = getattr(plan, slot)
        if card in EXPANSION_CARDS and EXPANSION_CARDS[card] not in pos.ruleset.cite:
            _refuse(pos, "no_expansion", f"there is no {card.replace('_', ' ')} card in this game's deck", card, f"{prefix}.{slot}")
    played = _played(plan)
    held = pos.states[side.faction].cards
    if held is not None and len(played) > held:
        _refuse(
            pos,
            "battle_cards",
            f"{faction_name(side.faction)} holds {held} treachery cards and cannot play {len(played)}",
            len(played),
            f"{prefix}.weapon",
        )
    for card in plan.discard:
        if card not in played:
            _refuse(pos, "battle_winner", f"{card} was not played in this plan", card, f"{prefix}.discard")
    for card in plan.keep:
        if card not in played:
            _refuse(pos, "battle_winner", f"{card} was not played in this plan", card, f"{prefix}.keep")
        if card in plan.discard:
            _refuse(pos, "battle_winner", f"{card} is either kept or discarded, not both", card, f"{prefix}.keep")
    if plan.stone_burner_kill and plan.weapon != "stone_burner":
        _refuse(pos, "stone_burner", "only the Stone Burner's player may kill both leaders with it", True, f"{prefix}.stone_burner_kill", "battle_cards")


def _played(plan: BattlePlan) -> list[str]:
    out = [c for c in (plan.weapon, plan.defense) if c is not None]
    if plan.cheap_hero:
        out.append("cheap_hero")
    return out


def _check_dial(pos: Position, side: _Side) -> None:
    plan, prefix = side.plan, side.prefix
    dial = Fraction(plan.dial).limit_denominator(2)
    normal, special = side.forces
    dialing = pos.ruleset.spice_dialing and advanced(pos)
    if plan.spice and not dialing:
        _refuse(pos, "battle_dial", "this game has no spice dialing: no spice is paid in a battle plan", plan.spice, f"{prefix}.spice")
    if dial.denominator != 1 and not dialing:
        _refuse(pos, "battle_dial", "a battle wheel dials whole numbers here (halves only with spice dialing)", plan.dial, f"{prefix}.dial")
    if plan.spice > normal + special:
        _refuse(
            pos, "spice_dialing", f"{plan.spice} spice supports more forces than the {normal + special} in the battle", plan.spice, f"{prefix}.spice"
        )
    spice = pos.states[side.faction].spice
    if spice is not None and plan.spice > spice:
        _refuse(pos, "spice_dialing", f"{faction_name(side.faction)} has {spice} spice, not {plan.spice}", plan.spice, f"{prefix}.spice")
    if plan.full_strength and not _may_grant_strength(pos, side.faction):
        _refuse(
            pos,
            "fremen_ally_full_strength",
            f"only the Fremen's ally may be granted full strength without spice, and {faction_name(side.faction)} is not one here",
            True,
            f"{prefix}.full_strength",
            "fremen_full_strength",
        )
    most = _strength(pos, side.faction, side.opponent, normal, special, plan.spice, plan.full_strength)
    if dial > most:
        _refuse(
            pos,
            "battle_dial",
            f"{faction_name(side.faction)} can dial at most {decimal_str(most)} with the forces in the battle",
            plan.dial,
            f"{prefix}.dial",
        )


def _check_kh(pos: Position, side: _Side, territory: str) -> None:
    plan, prefix = side.plan, side.prefix
    if not plan.kwisatz_haderach:
        return
    f = f"{prefix}.kwisatz_haderach"
    if side.faction != ATREIDES:
        _refuse(pos, "kh", "only the Atreides have the Kwisatz Haderach", True, f)
    if not advanced(pos):
        _refuse(pos, "2.01.00", "the Kwisatz Haderach is an Advanced ability: the Basic game plays the Atreides sheet to 2.01.09", True, f)
    if plan.leader is None and not plan.cheap_hero:
        _refuse(pos, "kh", "the Kwisatz Haderach goes with a leader or a Cheap Hero, never alone", True, f)
    if side.leader_owner not in (None, ATREIDES):
        _refuse(pos, "kh", "the Kwisatz Haderach goes only with an Atreides leader", True, f)
    if pos.kh_dead:
        _refuse(pos, "kh_killed", "the Kwisatz Haderach is in the tanks", True, f, "kh")
    if pos.kh_losses < KH_AWAKENS:
        _refuse(
            pos,
            "kh_active",
            f"the Atreides have lost {pos.kh_losses} forces in battles; the Kwisatz Haderach awakens at {KH_AWAKENS}",
            pos.kh_losses,
            f,
        )
    per_leader = pos.ruleset.key == "ah1979"  # AH X.B.2.a.i: "any one ... leader ... per turn"
    for turn, owner, ld, t in pos.fought:
        if turn != pos.turn or owner != ATREIDES or not ld.startswith(KWISATZ_HADERACH):
            continue
        if per_leader:
            with_ = ld.partition("/")[2]
            if with_ != (plan.leader or "cheap_hero"):
                _refuse(pos, "kh_once", "the Kwisatz Haderach goes with one leader a turn", True, f)
        elif t != territory:
            _refuse(pos, "kh_once", f"the Kwisatz Haderach fought in {place_name(t)} this turn: one territory a turn", True, f)


def _check_traitor(pos: Position, caller: _Side, called: _Side) -> None:
    if not caller.plan.traitor:
        return
    f = f"{caller.prefix}.traitor"
    if called.plan.leader is None:
        _refuse(pos, "traitor_call", "a traitor is called on the opponent's leader disc, and there is none", True, f)
    if called.plan.kwisatz_haderach:
        _refuse(pos, "traitor_kh", "a leader with the Kwisatz Haderach cannot turn traitor", True, f)


#: What each Voice kind matches in a plan: (slot, kind) of `CARDS`, or a card by name.
_VOICED: Mapping[str, tuple[str, str]] = {
    "projectile": ("weapon", "projectile"),
    "poison": ("weapon", "poison"),
    "lasgun": ("weapon", "lasgun"),
    "shield": ("defense", "projectile"),
    "snooper": ("defense", "poison"),
    "worthless": ("worthless", ""),
}


def _voiced(plan: BattlePlan, card: str) -> str | None:
    """The card of `plan` the Voice's `card` names, or None."""
    if card == "cheap_hero":
        return "cheap_hero" if plan.cheap_hero else None
    for played in (plan.weapon, plan.defense):
        if played is None:
            continue
        if played == card or (card in _VOICED and CARDS[played] == _VOICED[card]):
            return played
    return None


def _power_sides(pos: Position, owner: str, by: str, sides: Mapping[str, _Side], key: str, f: str) -> _Side:
    """The side a battle power is used against: the Voice or the Prescience belongs to `owner`,
    used in its own battle or its ally's, against the other side (LoLV 2.01.09, 2.02.07; WBC
    X.5-6). Returns the opponent's side."""
    if owner not in pos.playing:
        _refuse(pos, key, f"{faction_name(owner)} do not play in this game", owner, f"{f}.by")
    if by != owner:
        _refuse(pos, key, f"the {'Voice' if owner == BENE_GESSERIT else 'Prescience'} is used by {faction_name(owner)}", by, f"{f}.by")
    mine = [s for s in sides.values() if s.faction == owner or owner in pos.allies_of(s.faction)]
    if not mine:
        _refuse(
            pos,
            f"{key}_ally",
            f"{faction_name(owner)} use it in their own battle or their ally's, not between {join_names(faction_name(x) for x in sides)}",
            by,
            f"{f}.by",
            "ally_powers" if "ally_powers" in pos.ruleset.cite else key,
        )
    others = [s for s in sides.values() if s is not mine[0]]
    return others[0]


def _check_voice(pos: Position, event: Battle, agg: _Side, dfd: _Side) -> None:
    """The Bene Gesserit Voice the plans obey (AH X.B.4, X.B.6.a; WBC X.3, X.9-11; LoLV
    2.02.06-07): a side Voiced not to play a card has none of it in its plan; one Voiced to play
    it complies as well as it is able to (WBC X.11), so a plan without it is taken as unable."""
    voice = event.voice
    if voice is None:
        return
    sides = {agg.faction: agg, dfd.faction: dfd}
    target = _power_sides(pos, BENE_GESSERIT, voice.by, sides, "voice", "voice")
    if voice.to != target.faction:
        _refuse(pos, "voice", f"the Voice commands the opponent, {faction_name(target.faction)}", voice.to, "voice.to")
    if voice.card not in pos.ruleset.battle.voice_cards:
        _refuse(pos, "voice", f"the Voice cannot name {voice.card.replace('_', ' ')} in this game", voice.card, "voice.card")
    if voice.karama:
        return
    played = _voiced(target.plan, voice.card)
    if played is not None and not voice.play:
        slot = "cheap_hero" if played == "cheap_hero" else ("weapon" if played == target.plan.weapon else "defense")
        _refuse(
            pos,
            "plan_obeys",
            f"{faction_name(target.faction)} was Voiced not to play {voice.card.replace('_', ' ')} and played {played.replace('_', ' ')}",
            played,
            f"{target.prefix}.{slot}",
            "voice",
        )


def _check_prescience(pos: Position, event: Battle, agg: _Side, dfd: _Side) -> None:
    """The Atreides' Prescience the plans obey (AH X.B.5, X.B.6.a; WBC X.7-8; LoLV 2.01.08-09):
    the element shown is the element played."""
    seen = event.prescience
    if seen is None:
        return
    sides = {agg.faction: agg, dfd.faction: dfd}
    target = _power_sides(pos, ATREIDES, seen.by, sides, "prescience", "prescience")
    if seen.of != target.faction:
        _refuse(pos, "prescience", f"the Prescience asks the opponent, {faction_name(target.faction)}", seen.of, "prescience.of")
    if seen.element == "dial" and target.faction == RICHESE and pos.no_field is not None and pos.no_field[0] == event.territory:
        _refuse(pos, "blind_prescience", "with a No-Field token present the Richese are not made to show the number dialed", seen.element, "prescience.element", "prescience")
    if seen.karama:
        return
    plan = target.plan
    if seen.element == "leader":
        played: Any = "cheap_hero" if plan.cheap_hero else plan.leader
    elif seen.element == "dial":
        played = Fraction(plan.dial).limit_denominator(2)
    else:
        played = getattr(plan, seen.element)
    answer = Fraction(seen.answer).limit_denominator(2) if seen.element == "dial" and seen.answer is not None else seen.answer
    if played != answer:
        shown = "nothing" if answer is None else str(decimal_str(answer) if isinstance(answer, Fraction) else answer)
        field = {"leader": "cheap_hero" if plan.cheap_hero else "leader"}.get(seen.element, seen.element)
        _refuse(
            pos,
            "plan_obeys",
            f"{faction_name(target.faction)} showed the Prescience {shown} as its {seen.element} and must play it",
            played if not isinstance(played, Fraction) else decimal_str(played),
            f"{target.prefix}.{field}",
            "prescience",
        )


def _check_battle(pos: Position, event: Battle) -> None:
    if pos.phase != BATTLE:
        raise WrongPhase(
            rule=_cite(pos, "battle_phase"),
            msg=f"battles are fought in the battle phase, not in the {phase_name(pos.phase)} phase",
            phase=pos.phase,
            input=pos.phase,
        )
    if pos.quick:
        _refuse(pos, "quick tracking", "quick tracking records no battles (forces are unknown)", "battle", "territory")
    territory = event.territory
    if territory not in TERRITORIES:
        raise UnknownIdentifier(rule="board", msg=f"unknown territory {territory!r}", phase=pos.phase, input=territory, field="territory")
    a, d = event.aggressor.faction, event.defender.faction
    for plan, prefix in ((event.aggressor, "aggressor"), (event.defender, "defender")):
        if plan.faction not in pos.playing:
            raise UnknownIdentifier(
                rule=_cite(pos, "setup"),
                msg=f"{faction_name(plan.faction)} does not play in this game",
                phase=pos.phase,
                input=plan.faction,
                field=f"{prefix}.faction",
            )
    if a == d:
        _refuse(pos, "battle_forces", "a battle is fought between two factions", d, "defender.faction")
    if territory == POLAR_SINK:
        _refuse(pos, "battle_forces", "nobody battles in the Polar Sink", territory, "territory", None)
    order = storm_order(pos) or list(pos.factions)
    every = battles(pos, occupancy(pos), order)
    found = [b for b in every if b.territory == territory]
    if not any(a in b.factions and d in b.factions for b in found) or d in pos.allies_of(a):
        _refuse(
            pos,
            "battle_forces",
            f"{faction_name(a)} and {faction_name(d)} have no battle in {place_name(territory)}",
            territory,
            "territory",
        )
    rank = {f: i for i, f in enumerate(played_order(pos))}
    sappho = pos.order_cards.get(f"aggressor@{territory}")
    if sappho in (a, d) and sappho != a:
        _refuse(
            pos,
            "sappho_aggressor",
            f"{faction_name(d)} played Juice of Sappho to be the aggressor in {place_name(territory)}",
            a,
            "aggressor.faction",
        )
    if sappho != a and rank.get(a, 0) > rank.get(d, 0):
        _refuse(
            pos,
            "battle_order",
            f"{faction_name(d)} comes before {faction_name(a)} in storm order and is the aggressor",
            a,
            "aggressor.faction",
        )
    if sequenced(pos):
        _earlier_battles_first(pos, every, rank, min(rank.get(a, 0), rank.get(d, 0)), territory)


def _earlier_battles_first(pos: Position, every: list[Fight], rank: Mapping[str, int], turn: int, territory: str) -> None:
    """Eighth edition: the first player is the aggressor until all its battles are fought, then
    the next in storm order (AH X.A.3, WBC X.1, LoLV 1.07.02): no battle while a faction earlier
    in the order than both sides still has one to fight."""
    waiting: dict[str, list[str]] = {}
    for b in every:
        for f in b.factions:
            if rank.get(f, 0) < turn:
                waiting.setdefault(f, []).append(place_name(b.territory))
    if not waiting:
        return
    first = min(waiting, key=lambda f: rank.get(f, 0))
    _refuse(
        pos,
        "battle_order",
        f"{faction_name(first)} comes first in storm order and still has its battles to fight "
        f"({', '.join(waiting[first])}) before the one in {place_name(territory)}",
        territory,
        "territory",
    )


# --- resolution ------------------------------------------------------------------------------


def _weapon(side: _Side, other: _Side) -> str | None:
    """The weapon a side fights with: a Mirror Weapon copies the opponent's weapon when it
    reveals one that counts as a weapon, else it is nothing (3.02.04)."""
    weapon = side.plan.weapon
    if weapon != "mirror_weapon":
        return weapon
    theirs = other.plan.weapon
    if theirs is None or theirs == "mirror_weapon" or CARDS[theirs][0] != "weapon":
        return None
    return theirs


def _kills(pos: Position, weapon: str | None, defense: str | None) -> bool:
    """Whether `weapon` kills a leader protected by `defense` (1.07.06.01, AH X.C.3); a Stone
    Burner kills only by its player's choice (3.02.10)."""
    if weapon is None:
        return False
    slot, kind = CARDS[weapon]
    if slot != "weapon" or kind in ("stone_burner", "mirror"):
        return False
    if kind == "lasgun":
        return True
    return defense is None or CARDS[defense] != ("defense", kind)


def _leader_value(pos: Position, side: _Side, other: _Side) -> int:
    """The leader disc's value (Zoal takes his opponent's disc, 2.08.14)."""
    if side.plan.leader is None:
        return 0
    if side.strength is not None:
        return side.strength
    if other.plan.leader is None or other.strength is None:
        return 0
    return other.strength


def _all_lost(side: _Side, territory: str, rule: str) -> list[LossRow]:
    return [(side.faction, territory, s, st[0], st[1], 0, rule) for s, st in side.stacks if st[0] + st[1]]


def _winner_losses(pos: Position, side: _Side, territory: str, rule: str) -> list[LossRow]:
    """The forces a winner dialed away (1.07.06.05, AH X.C.6): `lost_normal` / `lost_special`
    as the judge recorded them, or normal forces first."""
    n, sp = _dialed_forces(pos, side)
    return _taken(pos, side, territory, rule, n, sp)


def _dialed_forces(pos: Position, side: _Side) -> tuple[int, int]:
    """The normal and starred forces that make up the dial (AH X.C.6.b; LoLV 1.07.04.01):
    `lost_normal` / `lost_special` as the judge recorded them, or normal forces first."""
    plan, prefix = side.plan, side.prefix
    dial = Fraction(plan.dial).limit_denominator(2)
    normal, special = side.forces

    def worth(n: int, sp: int) -> Fraction:
        return _strength(pos, side.faction, side.opponent, n, sp, plan.spice, plan.full_strength)

    if plan.lost_normal is None and plan.lost_special is None:
        n = sp = 0
        while worth(n, sp) < dial:
            if n < normal:
                n += 1
            elif sp < special:
                sp += 1
            else:
                break
    else:
        n, sp = plan.lost_normal or 0, plan.lost_special or 0
        if n > normal or sp > special:
            _refuse(pos, "battle_winner_losses", f"{faction_name(side.faction)} has {normal} and {special} starred forces in the battle", (n, sp), f"{prefix}.lost_normal")
        fewer = [worth(n - 1, sp)] if n else []
        fewer += [worth(n, sp - 1)] if sp else []
        if worth(n, sp) < dial or any(w >= dial for w in fewer):
            _refuse(
                pos,
                "battle_winner_losses",
                f"losing {n} forces and {sp} starred forces does not make up the {decimal_str(dial)} dialed",
                (n, sp),
                f"{prefix}.lost_normal",
            )
    return n, sp


def _taken(pos: Position, side: _Side, territory: str, rule: str, n: int, sp: int) -> list[LossRow]:
    """The dialed losses taken from the winner's stacks: from the sectors it names, in order, "in
    any manner" (AH X.C.6; `lost_sectors`), then the lowest sectors first."""
    order = list(side.stacks)
    if side.plan.lost_sectors:
        known = {s for s, _st in side.stacks}
        for i, sector in enumerate(side.plan.lost_sectors):
            if sector not in known:
                _refuse(
                    pos,
                    "battle_winner_losses",
                    f"{faction_name(side.faction)} has no forces in the battle in sector {sector}",
                    sector,
                    f"{side.prefix}.lost_sectors[{i}]",
                )
        rank = {sector: i for i, sector in enumerate(side.plan.lost_sectors)}
        order.sort(key=lambda item: rank.get(item[0], len(rank)))
    out: list[LossRow] = []
    for s, st in order:
        take_n, take_sp = min(n, st[0]), min(sp, st[1])
        n, sp = n - take_n, sp - take_sp
        if take_n or take_sp:
            out.append((side.faction, territory, s, take_n, take_sp, 0, rule))
    return out


def _check_capture(
    pos: Position,
    capture: Capture,
    winner: str | None,
    loser: str | None,
    killed: set[tuple[str, str]],
    territory: str,
    outcome: str = "won",
) -> None:
    f = "capture.leader"
    if winner != HARKONNEN:
        # Nobody wins an explosion (WBC X.23) nor two traitors (WBC X.24).
        rule = {"explosion": "explosion", "two_traitors": "two_traitors"}.get(outcome, "capture")
        _refuse(pos, rule, "only the Harkonnen take a leader, and only after a battle they won", capture.leader, "capture", "capture")
    if not advanced(pos):
        _refuse(pos, "2.05.00", "capturing leaders is an Advanced ability: the Basic game plays the Harkonnen sheet to 2.05.09", capture.leader, "capture")
    if capture.faction != loser:
        _refuse(pos, "capture", f"the Harkonnen take a leader of the loser, {faction_name(loser or '')}", capture.faction, "capture.faction")
    sheet = pos.sheet(capture.faction)
    index = sheet.leader_index(capture.leader)
    if index is None:
        raise UnknownIdentifier(
            rule=_cite(pos, "leaders"), msg=f"{faction_name(capture.faction)} has no leader {capture.leader}", phase=pos.phase, input=capture.leader, field=f
        )
    ld = sheet.leaders[index]
    if (capture.faction, ld.id) in killed:
        _refuse(pos, "capture", f"{ld.name} was killed in this battle", capture.leader, f)
    status = _leader_status(pos, capture.faction, index)
    if status is not None and status[0] != "active":
        where = "in the Tleilaxu Tanks" if status[0].startswith("tanks") else "not an active leader"
        _refuse(pos, "capture", f"{ld.name} is {where}: only an active leader is taken", capture.leader, f)
    if (capture.faction, ld.id) in _fought_elsewhere(pos, territory):
        _refuse(pos, "capture", f"{ld.name} fought elsewhere this turn and cannot be taken", capture.leader, f)


@dataclass(slots=True)
class _Tally:
    """What a resolution has found so far (one battle's scratch pad)."""

    pos: Position
    territory: str
    agg: _Side
    dfd: _Side
    rulings: list[Ruling] = field(default_factory=list)
    losses: list[LossRow] = field(default_factory=list)
    fates: list[LeaderFate] = field(default_factory=list)
    discarded: dict[str, tuple[str, ...]] = field(default_factory=dict)
    spice: dict[str, int] = field(default_factory=dict)
    totals: dict[str, Fraction | None] = field(default_factory=dict)
    killed: set[tuple[str, str]] = field(default_factory=set)
    board_lost: int = 0
    kh_dead: bool = False
    winner: str | None = None
    loser: str | None = None
    outcome: str = "won"
    #: A traitor-caller's leader goes back to the pool for this phase (1.07.06.06.00).
    back_in_pool: set[tuple[str, str]] = field(default_factory=set)
    #: Whether a traitor call gives back what the caller used (LoLV 1.07.06.06.00; every ruleset
    #: before the ninth edition, `BattleRules.traitor_restores`).
    restores: bool = True

    def note(self, key: str, text: str, fallback: str | None = None) -> str:
        rule = _cite(self.pos, key, fallback)
        self.rulings.append(Ruling(rule, text))
        return rule

    def kill(self, side: _Side, rule: str) -> None:
        key = side.leader_key()
        if key is not None:
            self.killed.add(key)
            if key in self.pos.leaders_revived and distinguished(self.pos):
                rule = self.note("dead_again", f"{key[1]} was revived and is killed again: face down in the tanks", "leaders")
                self.fates.append(LeaderFate(key[0], key[1], "tanks_face_down", None, rule))
            else:
                self.fates.append(LeaderFate(key[0], key[1], "tanks_face_up", None, rule))

    def pay(self, side: _Side) -> None:
        self.spice[side.faction] = self.spice.get(side.faction, 0) - side.plan.spice
        share = side.plan.spice // 2
        pos = self.pos
        if share and side.faction != CHOAM and not side.plan.traitor and CHOAM in pos.playing and advanced(pos) and distinguished(pos):
            # 2.09.20 (Advanced): half the spice another faction pays for its forces goes to the
            # CHOAM, rounded down; the rest to the bank (1.13.03.04); none from a faction that
            # revealed a traitor (2.09.21).
            self.earn(CHOAM, share)
            self.note("choam_dialing", f"the CHOAM receive {share} of the {side.plan.spice} spice {faction_name(side.faction)} paid", "spice_dialing")

    def earn(self, faction: str, amount: int) -> None:
        self.spice[faction] = self.spice.get(faction, 0) + amount


def _two_traitors(t: _Tally) -> None:
    """1.07.06.06.02, AH X.D.3, WBC X.24."""
    t.outcome = "two_traitors"
    rule = t.note("two_traitors", "both leaders are traitors: both sides lose their forces, cards and leaders; nobody wins or earns spice")
    for side in (t.agg, t.dfd):
        t.losses += _all_lost(side, t.territory, rule)
        t.discarded[side.faction] = tuple(_played(side.plan))
        t.kill(side, rule)
        t.pay(side)


def _traitor(t: _Tally, caller: _Side, called: _Side, explosive: bool) -> None:
    """1.07.06.06.00-01, AH X.D.1-2; before any explosion (WBC X.25, AH XXI.A.1.a)."""
    t.outcome = "traitor"
    t.winner, t.loser = caller.faction, called.faction
    rule = t.note(
        "traitor",
        f"{faction_name(caller.faction)} calls {called.plan.leader} a traitor: it wins and loses nothing, and earns the traitor's value",
    )
    if explosive:
        t.note("traitor_explosion", "the traitor call comes first: the lasgun and shield do not explode")
    t.losses += _all_lost(called, t.territory, rule)
    t.discarded[called.faction] = tuple(_played(called.plan))
    t.discarded[caller.faction] = _winner_discards(t, caller, traitor=True)
    t.kill(called, rule)
    t.earn(caller.faction, _leader_value(t.pos, called, caller))
    t.pay(called)
    if caller.plan.spice:
        t.note("traitor_spice", "the winner keeps the spice it dialed", "traitor")
    key = caller.leader_key()
    if key is not None and t.restores:
        t.back_in_pool.add(key)
        if distinguished(t.pos):
            t.note("traitor_restores", f"{key[1]} goes back to the leader pool of {faction_name(caller.faction)} for this phase", "traitor")


def _winner_discards(t: _Tally, side: _Side, traitor: bool = False) -> tuple[str, ...]:
    """The cards a winner discards: those it chose to (`discard`), a one-time card unless kept
    after a traitor call where the rules allow it (LoLV 1.07.06.06.00), and a worthless card
    unless kept (AH X.C.6, LoLV 1.07.06.05; before the ninth edition a traitor's winner kept its
    worthless cards and every other winner discarded them)."""
    plan = side.plan
    one_time_kept = traitor and t.restores and distinguished(t.pos)
    out: list[str] = []
    for card in _played(plan):
        if card in ONE_TIME_CARDS:
            gone = not (one_time_kept and card in plan.keep)
        elif card in plan.discard:
            gone = True
        elif CARDS[card][0] == "worthless":
            gone = card not in plan.keep and (not traitor or distinguished(t.pos))
        else:
            gone = False
        if gone:
            out.append(card)
    return tuple(out)


def _check_choices(t: _Tally) -> None:
    """The winner's choices the event records, against what the rules leave to it: cards kept
    (AH X.C.6, LoLV 1.07.06.05, 1.07.06.06.00) and a captive kept after a traitor call
    (1.07.06.06.00)."""
    for side in (t.agg, t.dfd):
        plan, prefix = side.plan, side.prefix
        if plan.keep and side.faction != t.winner:
            key = {"explosion": "explosion", "two_traitors": "two_traitors"}.get(t.outcome, "battle_loser")
            _refuse(t.pos, key, f"{faction_name(side.faction)} did not win this battle and keeps none of the cards it played", plan.keep[0], f"{prefix}.keep")
        caller = t.outcome == "traitor" and plan.traitor
        for card in plan.keep:
            if card in ONE_TIME_CARDS and not (caller and t.restores and distinguished(t.pos)):
                rule = EXPANSION_CARDS.get(card, "one_time_cards")
                _refuse(t.pos, rule, f"{card.replace('_', ' ')} is discarded after use", card, f"{prefix}.keep", "battle_winner")
        if plan.keep_captive:
            held = side.leader_key()
            captive = (
                held is not None
                and held[0] != side.faction
                and side.leader_index is not None
                and (_leader_status(t.pos, held[0], side.leader_index) or ("", None))[0] == "captured"
            )
            if not (caller and t.restores and captive):
                _refuse(
                    t.pos,
                    "traitor_restores",
                    "a captive stays captive only when it was played by the side that won by calling a traitor, where the rules consider it not used",
                    True,
                    f"{prefix}.keep_captive",
                    "captive_once",
                )


def _explosion(t: _Tally) -> None:
    """3.01.14, AH questions A.3, WBC X.23; the Kwisatz Haderach dies too (2.01.13)."""
    t.outcome = "explosion"
    rule = t.note(
        "explosion",
        f"a lasgun meets a shield: every force and all spice in {place_name(t.territory)} are lost, both leaders die, nobody wins",
    )
    for (f, terr, s), st in sorted(t.pos.forces.items(), key=lambda kv: (kv[0][0], -1 if kv[0][2] is None else kv[0][2])):
        if terr == t.territory and any(st):
            t.losses.append((f, terr, s, st[0], st[1], st[2], rule))
    t.board_lost = t.pos.spice_on_board.get(t.territory, 0)
    for side in (t.agg, t.dfd):
        t.discarded[side.faction] = tuple(_played(side.plan))
        t.kill(side, rule)
        t.pay(side)
        if side.plan.kwisatz_haderach:
            t.kh_dead = True
            t.note("kh_killed", "the Kwisatz Haderach dies in the explosion", "kh")


def _fight(t: _Tally) -> None:
    """1.07.06-1.07.06.05, AH X.C: weapons, totals, the aggressor winning a tie, the losses."""
    pos, agg, dfd = t.pos, t.agg, t.dfd
    for side, other in ((agg, dfd), (dfd, agg)):
        total = Fraction(side.plan.dial).limit_denominator(2)
        has_leader = side.plan.leader is not None or side.plan.cheap_hero
        weapon = _weapon(other, side)
        if has_leader and _kills(pos, weapon, side.plan.defense):
            mirror = " (the Mirror Weapon copies it)" if other.plan.weapon == "mirror_weapon" else ""
            t.note("battle_weapons", f"{weapon}{mirror} kills {side.plan.leader or 'the Cheap Hero'} of {faction_name(side.faction)}")
            t.kill(side, _cite(pos, "battle_killed"))
        else:
            total += _leader_value(pos, side, other)
            if side.plan.kwisatz_haderach:
                total += 2
                t.note("kh", "the Kwisatz Haderach adds 2")
        t.totals[side.faction] = total
    ta, td = t.totals[agg.faction], t.totals[dfd.faction]
    assert ta is not None and td is not None
    win, lose = (agg, dfd) if ta >= td else (dfd, agg)
    t.winner, t.loser = win.faction, lose.faction
    t.note(
        "battle_tie" if ta == td else "battle",
        f"{faction_name(win.faction)} wins {decimal_str(max(ta, td))} to {decimal_str(min(ta, td))}"
        + (" (the aggressor wins a tie)" if ta == td else ""),
    )
    _settle(t, win, lose)


def _stone_burner(t: _Tally) -> None:
    """LoLV 3.02.10: the side with more forces left undialed wins (the aggressor a tie,
    1.07.06.00); dialed forces are lost normally; its player may kill both leaders whatever
    their defense, else the weapons kill as usual (1.07.06.01)."""
    pos, agg, dfd = t.pos, t.agg, t.dfd
    burn = any(s.plan.stone_burner_kill for s in (agg, dfd))
    for side, other in ((agg, dfd), (dfd, agg)):
        has_leader = side.plan.leader is not None or side.plan.cheap_hero
        weapon = _weapon(other, side)
        if has_leader and burn:
            t.note("stone_burner", f"the Stone Burner kills {side.plan.leader or 'the Cheap Hero'} of {faction_name(side.faction)}", "battle_weapons")
            t.kill(side, _cite(pos, "stone_burner", "battle_killed"))
        elif has_leader and _kills(pos, weapon, side.plan.defense):
            t.note("battle_weapons", f"{weapon} kills {side.plan.leader or 'the Cheap Hero'} of {faction_name(side.faction)}")
            t.kill(side, _cite(pos, "battle_killed"))
        normal, special = side.forces
        n, sp = _dialed_forces(pos, side)
        t.totals[side.faction] = Fraction(normal + special - n - sp)
    ta, td = t.totals[agg.faction], t.totals[dfd.faction]
    assert ta is not None and td is not None
    win, lose = (agg, dfd) if ta >= td else (dfd, agg)
    t.winner, t.loser = win.faction, lose.faction
    t.note(
        "stone_burner",
        f"Stone Burner: {faction_name(win.faction)} wins with {decimal_str(max(ta, td))} forces left undialed to {decimal_str(min(ta, td))}"
        + (" (the aggressor wins a tie)" if ta == td else ""),
        "battle",
    )
    _settle(t, win, lose)


def _settle(t: _Tally, win: _Side, lose: _Side) -> None:
    """The spice for the leaders killed, the losses, the discards and the spice paid
    (1.07.06.02-05, AH X.C.4-6)."""
    pos, agg, dfd = t.pos, t.agg, t.dfd
    value = sum(_leader_value(pos, s, o) for s, o in ((agg, dfd), (dfd, agg)) if s.leader_key() in t.killed)
    if value:
        t.earn(win.faction, value)
        t.note("battle_killed", f"{faction_name(win.faction)} earns {value} spice for the leaders killed")
    t.losses += _all_lost(lose, t.territory, _cite(pos, "battle_loser"))
    t.losses += _winner_losses(pos, win, t.territory, _cite(pos, "battle_winner"))
    t.discarded[lose.faction] = tuple(_played(lose.plan))
    t.discarded[win.faction] = _winner_discards(t, win)
    t.pay(agg)
    t.pay(dfd)


def _captives_home(t: _Tally) -> None:
    """A captive fights once and goes home, or to its owner's tanks if killed (2.05.10.02,
    2.05.12, AH X.B.2.a.ii)."""
    for side in (t.agg, t.dfd):
        key = side.leader_key()
        if key is None or key[0] == side.faction or side.leader_index is None:
            continue
        status = _leader_status(t.pos, key[0], side.leader_index)
        if status is None or status[0] != "captured":
            continue
        if key in t.killed:
            t.note("captive_killed", f"the captive {key[1]} goes to the tanks; {faction_name(key[0])} may revive it", "captured")
        elif side.plan.keep_captive:
            t.note("traitor_restores", f"the captive {key[1]} is considered not used and stays with {faction_name(side.faction)}", "captured")
        else:
            rule = t.note("captive_once", f"the captive {key[1]} has fought once and goes home", "captured")
            t.fates.append(LeaderFate(key[0], key[1], "active", None, rule))


def _take_leader(t: _Tally, cap: Capture) -> None:
    """The Harkonnen's pick (2.05.10.01-02, AH X.B.2.a.ii, WBC X.16, X.18)."""
    _check_capture(t.pos, cap, t.winner, t.loser, t.killed, t.territory, t.outcome)
    leader = t.pos.sheet(cap.faction).leaders[t.pos.sheet(cap.faction).leader_index(cap.leader) or 0].id
    if cap.kill:
        rule = t.note("capture_kill", f"the Harkonnen kill {leader} for {CAPTURE_KILL_SPICE} spice", "capture")
        t.fates.append(LeaderFate(cap.faction, leader, "tanks_face_down", None, rule))
        t.earn(HARKONNEN, CAPTURE_KILL_SPICE)
    else:
        rule = t.note("capture", f"the Harkonnen capture {leader}")
        t.fates.append(LeaderFate(cap.faction, leader, "captured", HARKONNEN, rule))


def _repaired(pos: Position, plan: BattlePlan, opponent: str, territory: str, notes: list[Ruling]) -> BattlePlan:
    """Ninth edition: the plan as the table's rules repair it on the reveal, instead of refusing
    it (`BattleRules.repairs`): the lowest value leader available added (AH X.B.2.a, WBC X.12),
    a card in the wrong slot or played without a leader removed (WBC X.15), the dial reduced to
    the most the forces and spice support (WBC X.13). Each repair is noted with its rule."""
    fix = pos.ruleset.battle.repairs if distinguished(pos) else frozenset()
    if not fix:
        return plan
    who = faction_name(plan.faction)
    if "leader" in fix and plan.leader is None and not plan.cheap_hero:
        options = _leader_options(pos, plan.faction, territory) or []
        if options:
            pick = min(options, key=lambda o: 0 if o["strength"] is None else o["strength"])
            owner = pick["leader_of"] or plan.faction
            name = pos.sheet(owner).leaders[pos.sheet(owner).leader_index(pick["leader"]) or 0].name
            plan = replace(plan, leader=pick["leader"], leader_of=pick["leader_of"])
            notes.append(Ruling(_cite(pos, "plan_leader", "battle_leader"), f"{who} played no leader: the lowest value leader available, {name}, is added"))
    if "cards" in fix:
        for slot, wrong in (("weapon", "defense"), ("defense", "weapon")):
            card = getattr(plan, slot)
            if card is not None and CARDS[card][0] == wrong:
                plan = replace(plan, weapon=None) if slot == "weapon" else replace(plan, defense=None)
                notes.append(Ruling(_cite(pos, "plan_cards", "battle_cards"), f"{card} is not a {slot}: it is removed from the plan of {who}"))
        if plan.leader is None and not plan.cheap_hero and (plan.weapon or plan.defense):
            gone = ", ".join(c for c in (plan.weapon, plan.defense) if c)
            plan = replace(plan, weapon=None, defense=None)
            notes.append(Ruling(_cite(pos, "plan_cards", "battle_no_leader"), f"{who} has no leader: {gone} is removed from its plan"))
    if "dial" in fix:
        stacks = _engaged(pos, territory, _stacks(pos, plan.faction, territory), _stacks(pos, opponent, territory))
        normal, special = sum(st[0] for _s, st in stacks), sum(st[1] for _s, st in stacks)
        most = _strength(pos, plan.faction, opponent, normal, special, min(plan.spice, normal + special), plan.full_strength)
        if Fraction(plan.dial).limit_denominator(2) > most:
            dial: int | float = int(most) if most.denominator == 1 else float(most)
            plan = replace(plan, dial=dial)
            notes.append(Ruling(_cite(pos, "plan_dial", "battle_dial"), f"{who} dialed more than its forces and spice support: the dial is reduced to {decimal_str(most)}"))
    return plan


def _check_plans(pos: Position, event: Battle, notes: list[Ruling] | None = None) -> tuple[_Side, _Side]:
    _check_battle(pos, event)
    territory = event.territory
    notes = [] if notes is None else notes
    a_plan = _repaired(pos, event.aggressor, event.defender.faction, territory, notes)
    d_plan = _repaired(pos, event.defender, event.aggressor.faction, territory, notes)
    agg = _side(pos, a_plan, "aggressor", event.defender.faction, territory)
    dfd = _side(pos, d_plan, "defender", event.aggressor.faction, territory)
    for side in (agg, dfd):
        _check_leader(pos, side, territory)
        _check_cards(pos, side)
        _check_dial(pos, side)
        _check_kh(pos, side, territory)
    if agg.leader_key() is not None and agg.leader_key() == dfd.leader_key():
        _refuse(pos, "battle_leader", "one leader disc cannot be on both wheels", event.defender.leader, "defender.leader")
    _check_traitor(pos, agg, dfd)
    _check_traitor(pos, dfd, agg)
    return agg, dfd


def resolve_battle(position: Position, event: Battle) -> Resolution:
    """The battle's outcome by the table's ruleset, or the RuleViolation refusing it."""
    pos = position
    repairs: list[Ruling] = []
    agg, dfd = _check_plans(pos, event, repairs)
    _check_voice(pos, event, agg, dfd)
    _check_prescience(pos, event, agg, dfd)
    restores = pos.ruleset.battle.traitor_restores or not distinguished(pos)
    t = _Tally(pos, event.territory, agg, dfd, kh_dead=pos.kh_dead, restores=restores, rulings=repairs)
    t.totals = {agg.faction: None, dfd.faction: None}
    cards = [c for s, o in ((agg, dfd), (dfd, agg)) for c in (_weapon(s, o), s.plan.defense)]
    explosive = "lasgun" in cards and "shield" in cards
    calls = [s for s in (agg, dfd) if s.plan.traitor]
    if len(calls) == 2:
        _two_traitors(t)
    elif calls:
        _traitor(t, calls[0], dfd if calls[0] is agg else agg, explosive)
    elif explosive:
        _explosion(t)
    elif "stone_burner" in cards:
        _stone_burner(t)
    else:
        _fight(t)
    _check_choices(t)
    _captives_home(t)
    if event.capture is not None:
        _take_leader(t, event.capture)
    t.fates += _prison_break(pos, t.fates, t.rulings)
    return _finish(t)


def _finish(t: _Tally) -> Resolution:
    pos = t.pos
    for side in (t.agg, t.dfd):
        if t.discarded.get(side.faction):
            rule_key = "battle_loser" if side.faction == t.loser else "battle_winner"
            t.note(rule_key, f"{faction_name(side.faction)} discards {', '.join(t.discarded[side.faction])}")
    kh_losses = pos.kh_losses + sum(n + sp for f, _t, _s, n, sp, _a, _r in t.losses if f == ATREIDES)
    if pos.kh_losses < KH_AWAKENS <= kh_losses and ATREIDES in pos.playing:
        t.note("kh_active", f"the Atreides have lost {kh_losses} forces in battles: the Kwisatz Haderach awakens")
    fought = {row for row in pos.fought if row[0] == pos.turn}
    for side in (t.agg, t.dfd):
        key = side.leader_key()
        if key is not None and key not in t.back_in_pool:
            fought.add((pos.turn, key[0], key[1], t.territory))
        if side.plan.kwisatz_haderach and not (t.outcome == "traitor" and side.plan.traitor and t.restores):
            fought.add((pos.turn, ATREIDES, f"{KWISATZ_HADERACH}/{side.plan.leader or 'cheap_hero'}", t.territory))
    return Resolution(
        territory=t.territory,
        aggressor=t.agg.faction,
        defender=t.dfd.faction,
        outcome=t.outcome,
        winner=t.winner,
        loser=t.loser,
        totals=t.totals,
        losses=tuple(t.losses),
        leaders=tuple(t.fates),
        discarded=t.discarded,
        spice={f: v for f, v in t.spice.items() if v},
        board_spice_lost=t.board_lost,
        kh_losses=kh_losses,
        kh_dead=t.kh_dead,
        fought=frozenset(fought),
        rulings=tuple(t.rulings),
    )


def leaders_after(pos: Position, fates: list[LeaderFate] | tuple[LeaderFate, ...]) -> dict[str, list[tuple[str, str | None]]]:
    """Each tracked faction's leader states once `fates` are applied."""
    out = {f: list(st.leaders) for f, st in pos.states.items() if st.leaders}
    for fate in fates:
        states = out.get(fate.owner)
        index = pos.sheet(fate.owner).leader_index(fate.leader)
        if states is not None and index is not None:
            states[index] = (fate.status, fate.captor)
    return out


def prison_break_fates(pos: Position, leaders: Mapping[str, list[tuple[str, str | None]]]) -> list[LeaderFate]:
    """Captives going home because every Harkonnen leader of its own is dead (2.05.11, AH
    X.B.2.a.ii), given each faction's leader states."""
    own = leaders.get(HARKONNEN)
    if not own or any(not status.startswith("tanks") for status, _c in own):
        return []
    out = []
    for f, states in leaders.items():
        for ld, (status, captor) in zip(pos.sheet(f).leaders, states, strict=False):
            if status == "captured" and captor == HARKONNEN:
                out.append(LeaderFate(f, ld.id, "active", None, _cite(pos, "prison_break", "captured")))
    return out


def _prison_break(pos: Position, fates: list[LeaderFate], rulings: list[Ruling]) -> list[LeaderFate]:
    freed = prison_break_fates(pos, leaders_after(pos, fates))
    if freed:
        rulings.append(
            Ruling(
                freed[0].rule,
                "every Harkonnen leader of its own is dead: the captives go home ("
                + ", ".join(f.leader for f in freed)
                + ")",
            )
        )
    return freed


# --- what a page offers -------------------------------------------------------------------------


def _leader_options(pos: Position, faction: str, territory: str) -> list[dict[str, Any]] | None:
    """The leader discs the faction may put on its wheel here (`leader_of` for captives and
    gholas), or None when leaders are not tracked."""
    st = pos.states.get(faction)
    if st is None or not st.leaders:
        return None
    used = _fought_elsewhere(pos, territory)
    out: list[dict[str, Any]] = []
    for owner, ost in pos.states.items():
        for ld, (status, captor) in zip(pos.sheet(owner).leaders, ost.leaders, strict=False):
            mine = owner == faction and status == "active"
            held = owner != faction and status in ("captured", "held") and captor == faction
            if (mine or held) and (owner, ld.id) not in used:
                out.append({"leader": ld.id, "leader_of": None if mine else owner, "strength": ld.strength})
    return out


def battle_choices(position: Position) -> list[dict[str, Any]]:
    """The battles still to fight, one row per pair (aggressor first in storm order; from the
    eighth edition only those of the first faction in storm order with a battle left), with
    what each side may put in its plan: leaders, the forces there, the most it can dial (with
    as much spice as it has), whether spice dialing applies, whether the Kwisatz Haderach may
    join. JSON for the table page's battle form; empty outside the battle phase."""
    pos = position
    if pos.setup is None or pos.phase != BATTLE or pos.quick:
        return []
    order = played_order(pos)
    out: list[dict[str, Any]] = []
    every = battles(pos, occupancy(pos), order)
    # Eighth edition: only the current aggressor's battles (AH X.A.3, WBC X.1, LoLV 1.07.02).
    fighting = {f for b in every for f in b.factions}
    now = next((f for f in order if f in fighting), None) if sequenced(pos) else None
    for b in every:
        for i, a in enumerate(b.factions):
            for d in b.factions[i + 1 :]:
                if now is not None and now not in (a, d):
                    continue
                row: dict[str, Any] = {"territory": b.territory, "aggressor": a, "defender": d, "sides": {}}
                for f, o in ((a, d), (d, a)):
                    mine = _engaged(pos, b.territory, _stacks(pos, f, b.territory), _stacks(pos, o, b.territory))
                    n, sp = sum(st[0] for _s, st in mine), sum(st[1] for _s, st in mine)
                    spice = pos.states[f].spice
                    paid = n + sp if spice is None else min(spice, n + sp)
                    kh = (
                        f == ATREIDES
                        and advanced(pos)
                        and not pos.kh_dead
                        and pos.kh_losses >= KH_AWAKENS
                    )
                    row["sides"][f] = {
                        "leaders": _leader_options(pos, f, b.territory),
                        "forces": {"normal": n, "special": sp},
                        "most_dial": decimal_str(_strength(pos, f, o, n, sp, paid)),
                        "spice_dialing": _dialing(pos, f),
                        "kwisatz_haderach": kh,
                        # WBC house rules: the Fremen may grant their ally full strength.
                        "full_strength": _dialing(pos, f) and _may_grant_strength(pos, f),
                    }
                out.append(row)
    return out


def resolution_json(position: Position, event: Battle) -> dict[str, Any]:
    """`resolve_battle(...).to_dict()`: what the battle would come to, before it is recorded.
    Raises the RuleViolation that `apply` would."""
    return resolve_battle(position, event).to_dict()
