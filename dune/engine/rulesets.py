"""The three rulesets as definition objects: data plus a few small strategy hooks.

Rule code asks the ruleset (`ruleset.threshold(...)`, `ruleset.shield_wall`,
`ruleset.cite["solo"]`, ...) instead of branching on its key.

- `ah1979`: Avalon Hill 1979 (corrected rules v2); 6 classic factions, alliances of any
  size, three strongholds win for anyone (IV, XII.E.1), 15 turns (V); the section XX house
  rules are optional flags (`xx_a_alliance_strongholds`, `xx_b_alliances_of_two`), off.
- `wbc2018`: AH 1979 with the WBC house rules and clarifications (3/4/5 strongholds,
  alliances of 2 or 3 with consent, Shield Wall after the 4th worm, heats of 10 turns).
- `lolv-2.8.4`: the LoLV rulebook with its tournament section 4.01-4.02.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from types import MappingProxyType

from dune.engine.board import ARRAKEEN, CARTHAG
from dune.engine.errors import UnknownIdentifier
from dune.engine.factions import ATREIDES, EMPEROR, FREMEN, GUILD, HARKONNEN, IXIANS, RICHESE
from dune.engine.ids import ADJUDICATION_CRITERIA, CLASSIC_FACTIONS, FACTIONS, VOICE_CARDS
from dune.engine.movement import MoveCard, MovementRules
from dune.engine.phases import (
    BATTLE,
    BIDDING,
    MENTAT_PAUSE,
    PHASES,
    REVIVAL,
    SHIPMENT_MOVEMENT,
    SPICE_BLOW,
    SPICE_COLLECTION,
    STORM,
)


@dataclass(frozen=True, slots=True)
class ShieldWallRule:
    """When and how the Shield Wall counts as a stronghold for victory."""

    worms_needed: int
    #: LoLV 4.02.01: only the side touching the Imperial Basin counts (and decides control).
    left_side_only: bool
    rule: str


@dataclass(frozen=True, slots=True)
class EndGameRule:
    """Who wins when the last turn ends without a stronghold winner."""

    #: LoLV 2.04.09.00: the Fremen special victory exists only when the Guild is in the game.
    fremen_special_needs_guild: bool
    #: Factions whose forces in Tuek's Sietch deny the Fremen special victory.
    tueks_forbidden: frozenset[str]
    #: LoLV 4.01.18: the Fremen's allies never count against the Tuek's Sietch criterion.
    fremen_allies_exempt: bool
    #: The rule saying the Fremen special victory needs the Guild (when it does).
    needs_guild_rule: str = ""


@dataclass(frozen=True, slots=True)
class RoundRules:
    """What a ruleset decides per kind of tournament round (`heat`, `final`).

    `turns` is the most game turns a table of the round plays, with the rule that sets it;
    `three_alliances` says whether three-faction alliances may form there at all (WBC Final
    Round Format forbids them at the final), with the rule to cite when they may not.
    """

    turns: int
    turns_rule: str
    three_alliances: bool = True
    three_alliances_rule: str = ""


@dataclass(frozen=True, slots=True)
class BattleRules:
    """What a ruleset's own battle rules decide where the texts differ (ninth edition).

    `traitor_restores`: a traitor call gives the caller's leader back to its pool for the phase,
    counts a Kwisatz Haderach beside it as unused, lets a captive it played stay captive ("may be
    considered not used") and lets it keep its one-time cards (LoLV 1.07.06.06.00); under AH
    (X.C.8, X.D.2) and the WBC (XV.3) the leader has fought there and nothing is given back.
    `repairs`: the elements of a bad plan the rules repair on the reveal instead of refusing it:
    `leader` (the lowest available leader added: AH X.B.2.a, WBC X.12), `dial` (reduced to the
    most the forces and spice support: WBC X.13), `cards` (an invalid card removed: WBC X.15).
    `fremen_ally_full_strength`: the Fremen may let their ally dial at full strength without
    spice in the ally's battles (WBC house rules).
    `voice_cards`: what the Bene Gesserit Voice may name (AH X.B.4 and the BG shield: the card
    kinds, never a Cheap Hero; LoLV 2.02.06: also a Cheap Hero and a special card by name).
    """

    traitor_restores: bool = False
    repairs: frozenset[str] = frozenset()
    fremen_ally_full_strength: bool = False
    voice_cards: frozenset[str] = frozenset({"projectile", "poison", "lasgun", "shield", "snooper", "worthless"})


#: The kinds of tournament round a ruleset knows (`Round.Kind`).
ROUND_KINDS: tuple[str, ...] = ("heat", "final")


@dataclass(frozen=True, slots=True)
class PpTable:
    """WBC performance points per turn (WBC Best Faction Awards)."""

    cities: Fraction  # Carthag and Arrakeen, each
    fremen_other: Fraction  # any other stronghold, for the Fremen
    other: Fraction  # any other stronghold, for everyone else
    bg_coexisting: Fraction  # BG coexisting in a stronghold, each
    cities_ids: frozenset[str] = frozenset({"carthag", "arrakeen"})


def _wbc_threshold(size: int, options: frozenset[str]) -> int:
    # WBC house rules: unallied 3, two-faction alliance 4, three-faction alliance 5.
    return 3 if size == 1 else size + 2


def _lolv_threshold(size: int, options: frozenset[str]) -> int:
    # LoLV 1.09.02.01 / 1.09.02.02: unallied 3, alliance 4.
    return 3 if size == 1 else 4


def _ah_threshold(size: int, options: frozenset[str]) -> int:
    # AH IV / XII.E.1: three strongholds, allied or not; XX.A (optional): alliances hold
    # two more strongholds than they have members.
    if size > 1 and "xx_a_alliance_strongholds" in options:
        return size + 2
    return 3


def _wbc_alliance_limit(players: int, three_alliances: bool, options: frozenset[str]) -> int | None:
    # WBC house rules: 2; 3 only at a 6-player table where all consented at the start.
    return 3 if three_alliances and players == 6 else 2


def _lolv_alliance_limit(players: int, three_alliances: bool, options: frozenset[str]) -> int | None:
    return 2  # LoLV 1.10.01.03


def _ah_alliance_limit(players: int, three_alliances: bool, options: frozenset[str]) -> int | None:
    # AH XII.C.2: any number; XX.B (optional): no more than 2.
    return 2 if "xx_b_alliances_of_two" in options else None


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A game ruleset: every number and choice the position-level rules depend on."""

    key: str
    name: str
    factions: tuple[str, ...]
    #: Per round kind (`heat`, `final`): its turn limit and whether 3-faction alliances exist.
    #: The one home of turn limits: `turn_limit`, `max_turns`, the clock limits, the game
    #: setup and the report check all read it.
    rounds: Mapping[str, RoundRules]
    phases: tuple[str, ...]
    threshold: Callable[[int, frozenset[str]], int]
    alliance_limit: Callable[[int, bool, frozenset[str]], int | None]
    shield_wall: ShieldWallRule | None
    #: "storm_order": only the side first in storm order wins; "all": every qualifier wins.
    several_winners: str
    #: LoLV 2.02.03: the prediction holds when the predicted faction *met the requirements*
    #: (even if an earlier side in storm order wins); AH IV.A: when it *wins*.
    prediction_on_qualifiers: bool
    end_game: EndGameRule
    #: Ecaz and ally share a stronghold and control it (LoLV 2.11.14-15).
    ecaz_co_occupy: bool
    #: Adjudication criteria in order (stat keys of `stats`), or None if the rules have none.
    adjudication: tuple[str, ...] | None
    pp: PpTable | None
    options: frozenset[str]
    cite: Mapping[str, str]
    movement: MovementRules
    #: Who may cross-ship (the Guild; its allies use it too: LoLV 2.06.10, AH XII/Guild sheet).
    cross_shippers: frozenset[str] = frozenset({GUILD})
    default_options: frozenset[str] = field(default_factory=frozenset)
    #: LoLV 1.10.01.01: a faction allies once per nexus; AH XII.D.2 (and WBC with it) lets a
    #: faction that broke away join or form a new alliance in the same nexus.
    allies_once_per_nexus: bool = False
    #: Ways an alliance may form outside a nexus (`alliance_formed.how`): LoLV 1.10.01.06
    #: names the Moritani's Enemy of My Enemy (2.12.10-11) and the Ecaz Ambassador (2.11.10.11).
    alliance_abilities: frozenset[str] = frozenset()
    #: Entering a territory where an ally stands: "refuse" (AH XII.E.5, WBC IX.2) or
    #: "tanks_at_action_end" (LoLV 1.06.06, 4.01.16: nothing is refused; forces that end the
    #: faction's shipment-and-movement action beside allied forces go to the tanks).
    ally_entry: str = "refuse"
    #: Forces that end a faction's shipment-and-movement turn beside allied forces go to the
    #: tanks (LoLV 1.06.06, 4.01.16; WBC IX.3 "for any reason"); AH XII.E.5 only forbids entry.
    ally_tanks_at_action_end: bool = False
    #: WBC XV.7-9: coexistence is declared only in the movement round and a territory
    #: declared coexisting stays so for the rest of the turn.
    coexistence_declared_in_movement_only: bool = False
    #: WBC IX.12, IX.16: the Fremen allied with the Guild may ship reserves by Guild shipment
    #: anywhere (not into the storm); AH IX.C.1.i: that alliance ships the Fremen planet to
    #: planet only; LoLV 2.04.03: the Fremen have no off-planet reserves to ship.
    fremen_guild_shipment: bool = False
    #: LoLV 2.02.19: advisors under the storm cannot flip to fighters.
    advisors_stormed_in: bool = False
    #: LoLV 2.02.08: the BG's starting token is an advisor, a fighter only where the BG is
    #: alone; AH III.E.4.b (WBC III.5): a token like any other.
    bg_starts_as_advisor: bool = False
    #: LoLV 1.01.03: the storm destroys in the sector it starts from as well as those it
    #: passes or stops on; AH VI.D / WBC VI.8: only sectors it moves into.
    storm_hits_start_sector: bool = False
    #: AH VI.A: the first placement destroys tokens in sand under it; WBC VI.11 (and the
    #: LoLV, where the storm is first *placed*, 0.16): no losses in the first turn.
    storm_placement_destroys: bool = False
    #: AH VII.A.2 / XII.B, WBC VII.9: the worm devours once the nexus is over; LoLV 1.02.05:
    #: before the nexus it causes.
    worm_devours_after_nexus: bool = True
    #: LoLV 2.11.14 reading (see `docs/rules-coverage.md`): a stronghold the Ecaz shares with
    #: its ally counts once and the Ecaz controls it, so the per-faction statistics credit
    #: "ecaz"; "both" would credit the ally as well.
    ecaz_shared_credit: str = "ecaz"
    #: Expansion pieces the ruleset has (Hidden Mobile Stronghold, No-Field, Terror tokens,
    #: Ambassadors, Duke Vidal): LoLV 2.07-2.12.
    expansion_pieces: bool = False
    #: Diplomacy chips per player per game (WBC time guidelines: 3); 0 where the rules have none.
    diplomacy_chips: int = 0
    #: Whether a judge may call the clock on a player's action (WBC time guidelines).
    call_timers: bool = False
    #: When spice may change hands between players, from the third edition: "front_of_shield" (a bribe
    #: never between allies, 1.12.01; not before the first storm, 1.12.04; not once the Mentat
    #: Pause has begun, 1.12.05), "collection_round" (WBC XIII.1: in the collection round only) or
    #: None (AH XIII.C: any time).
    bribes: str | None = None
    #: LoLV 2.02.11, 2.02.13: BG fighters and advisors never share a territory (checked from
    #: the third edition); AH and WBC BG tokens coexist by territory instead (AH XV.B).
    bg_sides_apart: bool = False
    #: Whether a worm the Fremen summon with a Karama opens a nexus: not under AH (AH
    #: questions A.8, from the third edition); WBC XVII.8 says it does; LoLV counts every worm.
    karama_worm_nexus: bool = True
    #: AH XV.B: in a territory the BG shares with other factions it is assumed coexisting
    #: unless it states otherwise (third edition); WBC XV.6 rules the opposite (undeclared
    #: means not coexisting) and the LoLV has advisors instead (2.02.12).
    coexistence_assumed: bool = False
    #: LoLV 1.13.00: the table decides at setup between the Basic and the Advanced game; the
    #: faction abilities past each sheet's Basic range (2.xx.00) and the Karama powers (1.14)
    #: apply only with the `advanced` option (third edition; earlier games played them all).
    #: The 1979 texts have one game (WBC plays the Basic, Optional and Advanced rules).
    basic_or_advanced: bool = False
    #: LoLV 2.04.10: the Fremen may decline to protect their allies from a worm; AH XII.E.6 (the
    #: Fremen shield's alliance) and WBC VII.8 spare the allies whatever the Fremen wish.
    fremen_may_expose_allies: bool = False
    #: LoLV 1.14.00 (with 1.13.05): each faction's Karama power is used once a game (checked
    #: from the fourth edition); WBC Player Aid 8: "once" means once per Karama card played.
    karama_power_once_per_game: bool = False
    #: The phases the Emperor revives with a Karama card: LoLV 1.14.02 in the revival phase;
    #: WBC XVII.9 at any time no other ruling forbids (None: any phase).
    karama_revival_phases: tuple[str, ...] | None = None
    #: Spice dialing (LoLV 1.13.03, an Advanced rule; the WBC plays the AH Advanced rules):
    #: a force unsupported by 1 spice counts half in battle. The AH basic battle has none.
    spice_dialing: bool = False
    #: Under spice dialing, the Fremen's forces count at full strength without spice in every
    #: battle (WBC house rules; LoLV 2.04.21, Battle Hardened); without it they are supported
    #: like every faction's. A format document turns it off or on (`fremen_full_strength`).
    fremen_full_strength: bool = False
    #: Two Spice Blows a turn (WBC Rule Set: AH XXI, Double Spice Blow; LoLV 1.13.02 in the
    #: Advanced game); without it one (AH VII.A, LoLV 1.02.04). Counted from the seventh edition.
    double_spice_blow: bool = False
    #: The ruleset's own battle rules where the texts differ (`BattleRules`; ninth edition).
    battle: BattleRules = field(default_factory=BattleRules)

    @property
    def turn_limit(self) -> int:
        """The turns a game lasts when its setup names none: a heat's (WBC 10, LoLV 10, AH 15)."""
        return self.rounds["heat"].turns

    @property
    def max_turns(self) -> int:
        """The longest game a table may set up (WBC final: 15 turns; LoLV 0.02: at most 10)."""
        return max(r.turns for r in self.rounds.values())

    def round(self, kind: str) -> RoundRules:
        """What this ruleset decides for a round of `kind` (`heat` or `final`).

        Raises UnknownIdentifier for another kind.
        """
        try:
            return self.rounds[kind]
        except KeyError:
            raise UnknownIdentifier(
                rule="round", msg=f"a round is a heat or a final, not {kind!r}", input=kind
            ) from None

    def turn_limit_for(self, round_kind: str) -> int:
        """The most game turns a table of this round kind plays: WBC heats 10 and the final
        15 (WBC Preliminary Heat Duration, Final Round Duration), LoLV 10 (0.02), AH 15 (V).

        Raises UnknownIdentifier for an unknown round kind.
        """
        return self.round(round_kind).turns

    def most_allies(self, players: int, round_kind: str = "heat") -> int | None:
        """The largest alliance a table of `players` may form in this round kind if every
        player agreed to everything the rules let them agree to (None: any size).

        Raises UnknownIdentifier for an unknown round kind.
        """
        three = self.round(round_kind).three_alliances
        return self.alliance_limit(players, three, self.default_options)


_WBC_PP = PpTable(
    cities=Fraction(1), fremen_other=Fraction(1), other=Fraction(1, 2), bg_coexisting=Fraction(1, 10)
)

_CITIES = frozenset({ARRAKEEN, CARTHAG})

_AH_MOVEMENT = MovementRules(
    base_range=1,  # AH IX.C.2.a.ii
    ornithopter_range=3,  # AH IX.C.2.a.i
    ornithopter_cities=_CITIES,
    ornithopters_at_phase_start=True,  # AH IX.C.2.a.i: "starts the Movement Phase"
    faction_range={FREMEN: 2},  # AH IX.C.2.a.iii
    special_range={},
    group_across_sectors=False,  # AH questions B.1
    ally_blocks_path=False,
    advisors_fly=True,
    bg_types_adapt=False,
    vias=frozenset({"move", "worm", "cross_ship"}),
    cards={},
)

_WBC_MOVEMENT = MovementRules(
    base_range=1,
    ornithopter_range=3,
    ornithopter_cities=_CITIES,
    ornithopters_at_phase_start=True,  # WBC IX.10
    faction_range={FREMEN: 2},
    special_range={},
    group_across_sectors=False,  # AH questions B.1
    ally_blocks_path=True,  # WBC IX.2
    advisors_fly=True,  # WBC XV.19
    bg_types_adapt=False,
    vias=frozenset({"move", "worm", "cross_ship"}),
    # WBC card aid (Hajr) 1-2: a second move, for the player's own tokens, bonuses apply.
    cards={
        "hajr": MoveCard(
            extra_action=True, first_range=0, bonus=0, factions=None, rule="WBC Player Aid (Hajr)"
        )
    },
)

_LOLV_MOVEMENT = MovementRules(
    base_range=1,  # 1.06.04.03
    ornithopter_range=3,  # 1.06.04.04
    ornithopter_cities=_CITIES,
    ornithopters_at_phase_start=False,  # 1.06.04.04: "starts a force move"
    faction_range={FREMEN: 2},  # 2.04.06
    special_range={IXIANS: 2},  # 2.07.12, 2.07.16
    group_across_sectors=True,  # 1.06.04
    ally_blocks_path=False,
    advisors_fly=False,  # 2.02.12
    bg_types_adapt=True,  # 2.02.14, 2.02.20
    vias=frozenset({"move", "worm", "cross_ship", "ambassador"}),
    cards={
        "hajr": MoveCard(extra_action=True, first_range=0, bonus=0, factions=None, rule="3.01.09"),
        "ornithopter": MoveCard(extra_action=True, first_range=3, bonus=0, factions=None, rule="3.02.06"),
        "kulon": MoveCard(
            extra_action=False, first_range=0, bonus=1, factions=frozenset({"choam"}), rule="2.09.07.04"
        ),
    },
)

_AH_PHASES = (STORM, SPICE_BLOW, BIDDING, REVIVAL, SHIPMENT_MOVEMENT, BATTLE, SPICE_COLLECTION, MENTAT_PAUSE)

_AH_CITE = {
    "bidding": "AH VIII.B",
    "bid_spice": "AH VIII.C",
    "bought_in": "AH VIII.E",
    "dealt": "AH VIII.A",
    "ally_bid": "AH XII.E.3",
    "charity": "AH VIII.I",
    "charity_once": "AH VIII.I",
    "bid_opener": "AH VIII.D",
    "income": "AH XI.C",
    "ship_cost": "AH IX.C.1.b",
    "ship_payment": "AH IX.C.1.b",
    "revival_cost": "AH IX.B.1",
    "revival_payment": "AH IX.B.1",
    "solo": "AH IV",
    "allied": "AH XII.E.1",
    "several": "AH IV",
    "prediction": "AH IV.A",
    "prediction_time": "AH III.E.1.a",
    "fremen_special": "AH IV.B",
    "guild_default": "AH IV.C",
    "fremen_default": "AH IV.C.1",
    "end_game": "AH IV.C.1",
    "alliance_limit": "AH XII.C.2",
    "one_alliance": "AH XII.C.4",
    "nexus": "AH XII.A",
    "first_turn_worms": "AH VII.A.3",
    "move_storm": "AH IX.C.2.c",
    "ship_storm": "AH IX.C.1.c",
    "occupancy": "AH IX.C.2.f",
    "ship_occupancy": "AH IX.C.1.d",
    "ally_cohabit": "AH XII.E.5",
    "solo_while_allied": "AH XII.E.1.b",
    "turn_limit": "AH V",
    "time": "AH V",
    "control": "AH IV",
    "coexist": "AH XV.A",
    "storm_order": "AH IX.A",
    "win_attempts": "AH X",  # the battle phase: WBC and AH have no win-attempt rule of their own
    "adjudication": "AH IV",
    "concession": "WBC Concessions",
    "dropout": "WBC Dropouts",
    # The 1979 text leaves the card's wording to its Player Aid Pad (AH VIII.J): after the first
    # game turn, once a game.
    "family_atomics": "AH VIII.J (Player Aid Pad: Family Atomics)",
    "setup": "AH III.E",
    "markers": "AH III.E.1",
    "forces": "AH II.B",
    "storm_first": "AH VI.A",
    "storm_move": "AH VI.C",
    "phase": "AH V",
    "chips": "WBC Time Guidelines",
    "ship_back": "AH IX.C.1.f",
    "hand_limit": "AH VIII.G",
    "leaders": "AH II.B",
    "spice": "AH III.E.3",
    "shield_wall": "AH VII.A.2",
    "move_phase": "AH IX.C.2",
    "move_range": "AH IX.C.2.a.ii",
    "ornithopters": "AH IX.C.2.a.i",
    "fremen_range": "AH IX.C.2.a.iii",
    "one_move": "AH IX.C.2.b",
    "move_group": "AH questions B.1",
    "move_sector": "AH IX.C.2.d",
    "move_path": "AH IX.C.2.f",
    "ally_path": "AH XII.E.5",
    "move_card": "AH IX.C.2.b",
    "worm_ride": "AH VII.A.2.b",
    "worm_storm": "AH VII.A.2.b",
    "worm_rider": "AH VII.A.2.b",
    "cross_ship": "AH IX.C.1.g.ii",
    "cross_ship_storm": "AH IX.C.1.c.ii",
    "move_kind": "AH IX.C",
    "storm_once": "AH VI.C",
    "storm_losses": "AH VI.D",
    "fremen_storm": "AH VI.D.1",
    "worm_devours": "AH VII.A.2.a",
    "fremen_shipment": "AH IX.C.1.h",
    "fremen_guild_shipment": "AH IX.C.1.i",
    "ally_once": "AH XII.D.2",
    "loss_corrected": "AH VI.D",
    "storm_spice": "AH VI.D",
    "spice_blow": "AH VII.A.1",
    "collection": "AH XI.A",
    # Spice passes between players as a bribe (AH XIII.C; the WBC keeps it, XIII).
    "bribe": "AH XIII.C",
    "peacetime": "AH XII.E.5.a",
    "karama_worm": "AH questions A.8",
    "karama_worm_fremen": "AH questions A.8",
    # The 1979 text lists no Karama card; the WBC clarifications of it are cited for both.
    "karama_shipment": "WBC Player Aid 18",
    "karama_revival": "WBC XVII.9",
    "karama_card": "AH VIII.C",
    "worm_allies": "AH XII.E.6",
    "captured": "AH X.B.2.a.ii",
    "ghola": "AH X.B.2.a.ii",
    # Battles (AH X); the WBC clarifications (WBC X, XV) replace some below.
    "battle": "AH X.C",
    "battle_phase": "AH X",
    "battle_forces": "AH X.A.1",
    "battle_dial": "AH X.B.1",
    "battle_elite": "AH X.B.1.b",
    "battle_fedaykin": "AH X.B.1.a",
    "battle_leader": "AH X.B.2.a",
    "battle_no_leader": "AH X.B.2.b",
    "battle_cards": "AH X.B.3",
    "battle_tie": "AH X.C.2",
    "battle_weapons": "AH X.C.3",
    "battle_killed": "AH X.C.4",
    "battle_loser": "AH X.C.5",
    "battle_winner": "AH X.C.6",
    "battle_winner_losses": "AH X.C.6.b",
    "battle_dedicated": "AH X.C.8",
    "traitor_call": "AH X.D.1",
    "traitor": "AH X.D.2",
    "two_traitors": "AH X.D.3",
    "traitor_kh": "AH X.D.1.b",
    "traitor_explosion": "AH XXI.A.1.a",
    "explosion": "AH questions A.3",
    "kh": "AH X.B.2.a.i",
    "kh_active": "AH X.B.2.a.i",
    "kh_once": "AH X.B.2.a.i",
    "capture": "AH X.B.2.a.ii",
    "capture_kill": "AH X.B.2.a.ii",
    "captive_once": "AH X.B.2.a.ii",
    "prison_break": "AH X.B.2.a.ii",
    "spice_dialing": "AH X.B.1",
    "battle_elite_fremen": "AH X.B.1.b",
    "kh_killed": "AH X.B.2.a.i",
    "captive_killed": "AH X.B.2.a.ii",
    "traitor_spice": "AH X.D.2",
    "fremen_full_strength": "AH X.B.1",
    "double_spice_blow": "AH XXI (Double Spice Blow)",
    # The limits a turn has (fifth edition).
    "storm_most": "AH VI.C",
    "revival_limit": "AH IX.B.2",
    "fedaykin_revival": "AH IX.B.4",
    "sardaukar_revival": "AH IX.B.5",
    "ghola_card": "AH questions A.6",
    "capture_when": "AH X.B.2.a.ii",
    "leader_count": "AH II.B.1.b",
    "no_advisors": "AH XV.A",
    "guild_shipment": "AH IX.C.1.g",
    # The order of the shipment and movement phase (sixth edition).
    "storm_order_turn": "AH IX.C",
    "guild_out_of_turn": "AH IX.C.a",
    "one_shipment": "AH IX.C.1.a",
    "ship_then_move": "AH IX.C",
    # Cards that change the order: the 1979 deck (AH II.D) holds no Juice of Sappho; a Karama
    # forcing the Guild into order is cited from the WBC clarifications, as above.
    "juice_of_sappho": "AH II.D",
    # The 1979 equipment (AH II) holds none of the expansion pieces (HMS, No-Field, Terror
    # tokens, Ambassadors, the Atomics Aftermath).
    "no_expansion": "AH II",
    # The first player is the aggressor until all its battles are fought (AH X.A.3).
    "battle_order": "AH X.A.3",
    # A plan repaired on the reveal (ninth edition): the lowest value leader added.
    "plan_leader": "AH X.B.2.a",
    # The Voice and the Prescience a plan obeys (AH X.B.4-6).
    "voice": "AH X.B.4",
    "prescience": "AH X.B.5",
    "plan_obeys": "AH X.B.6.a",
    # A leader revived and killed again goes face down (ninth edition).
    "dead_again": "AH IX.D.5",
    "guild_advanced": "AH IX.C.a",
    "karama_guild_order": "WBC Player Aid 19",
}

_WBC_CITE = dict(
    _AH_CITE,
    juice_of_sappho="WBC Rule Set (no expansion cards)",
    no_expansion="WBC Rule Set (no expansions)",
    battle_order="WBC X.1",
    solo="WBC house rules (3 strongholds)",
    allied="WBC house rules (4/5 strongholds)",
    several="WBC Qualification Points (simultaneous solo victories)",
    alliance_limit="WBC house rules (alliances)",
    one_alliance="WBC house rules (alliances)",
    solo_while_allied="WBC IV.2",
    prediction_time="WBC III.2",
    turn_limit="WBC Preliminary Heat Duration",
    time="WBC Preliminary Heat Duration",
    control="WBC IV.1",
    shield_wall="WBC house rules (Shield Wall)",
    adjudication="WBC Preliminary Heat Duration and Adjudication",
    family_atomics="WBC VI.2",
    ornithopters="WBC IX.10",
    ally_path="WBC IX.2",
    move_card="WBC Player Aid (Hajr)",
    worm_ride="WBC VII.6",
    worm_storm="WBC VII.5",
    worm_rider="WBC VII.8",
    cross_ship_storm="WBC IX.17",
    storm_losses="WBC VI.8",
    storm_spice="WBC VI.8",
    fremen_storm="WBC XV.20",
    worm_devours="WBC VII.9",
    fremen_shipment="WBC IX.11",
    coexist_timing="WBC XV.7",
    coexist_withdraw="WBC XV.9",
    coexist_again="WBC XV.8",
    ally_tanks="WBC IX.3",
    peacetime="WBC XV.10",
    bribe_timing="WBC XIII.1",
    family_atomics_reach="WBC VI.5",
    family_atomics_bg="WBC VI.4",
    karama_worm="WBC XVII.8",
    karama_worm_fremen="WBC XVII.8",
    karama_card="WBC VIII.10",
    worm_allies="WBC VII.8",
    traitor_explosion="WBC X.25",
    explosion="WBC X.23",
    two_traitors="WBC X.24",
    kh_active="WBC XV.1",
    kh="WBC XV.2",
    kh_once="WBC XV.3",
    capture="WBC X.16",
    capture_kill="WBC X.18",
    battle_leader="WBC X.12",
    battle_dial="WBC X.13",
    plan_leader="WBC X.12",
    plan_dial="WBC X.13",
    plan_cards="WBC X.15",
    voice="WBC X.9",
    prescience="WBC X.8",
    plan_obeys="WBC X.3",
    ally_powers="WBC X.5",
    fremen_ally_full_strength="WBC house rules (Fremen)",
    # WBC Rule Set: the AH Advanced rules are played, spice dialing with them; the Fremen
    # count full strength for nothing (WBC house rules).
    spice_dialing="WBC Rule Set (AH Advanced rules)",
    fremen_full_strength="WBC house rules (Fremen)",
    double_spice_blow="WBC Rule Set (AH XXI, Double Spice Blow)",
    storm_most="WBC VI.3",
    no_advisors="WBC XV.5",
    storm_order_turn="WBC IX.1",
)

_LOLV_CITE = {
    "bidding": "1.04.06.01",
    "bid_spice": "1.04.06.03",
    "bought_in": "1.04.09",
    "dealt": "1.04.04",
    "ally_bid": "1.10.02.04",
    "charity": "1.03.01",
    "charity_once": "1.03.02",
    "bid_opener": "1.04.07",
    "inflation": "2.09.09",
    "income": "1.13.01",
    "ship_cost": "1.06.02.01",
    "ship_payment": "1.06.02.02",
    "revival_cost": "1.05.01.02",
    "revival_payment": "1.05.01.03",
    "solo": "1.09.02.01",
    "allied": "1.09.02.02",
    "several": "4.01.12",
    "prediction": "2.02.03",
    "prediction_time": "2.02.03",
    "fremen_special": "2.04.09",
    "guild_default": "2.06.08",
    "fremen_default": "1.09.05",
    "end_game": "1.09.05",
    "alliance_limit": "1.10.01.03",
    "one_alliance": "1.10.01.04",
    "nexus": "1.10.00",
    "first_turn_worms": "1.02.02",
    "move_storm": "1.06.04.06",
    "ship_storm": "1.06.02.04",
    "occupancy": "1.06.04.09",
    "ship_occupancy": "1.06.02.05",
    "ally_cohabit": "1.06.06",
    "solo_while_allied": "1.10.02.01",
    "turn_limit": "0.02",
    "time": "4.01.08",
    "control": "Glossary: Control",
    "coexist": "2.02.12",
    "storm_order": "1.01.01",
    "win_attempts": "4.01.04",
    "adjudication": "4.01.10",
    "concession": "4.01.05",
    "dropout": "4.01.05",
    "family_atomics": "3.01.07",
    "shield_wall": "4.02.01",
    "ecaz": "2.11.14",
    "setup": "0.13",
    "markers": "0.10",
    "forces": "Glossary: Force",
    "storm_first": "0.16",
    "storm_move": "1.01.02",
    "phase": "1.00.00",
    "chips": "4.01.08",  # the LoLV time limit; its rules have no chips or call timers
    "ship_back": "1.06.03",
    "hand_limit": "1.04.02",
    "leaders": "Glossary: Active Leaders",
    "spice": "0.12",
    "move_phase": "1.06.04",
    "move_range": "1.06.04.03",
    "ornithopters": "1.06.04.04",
    "fremen_range": "2.04.06",
    "one_move": "1.06.04.01",
    "move_group": "1.06.04",
    "move_sector": "1.06.04.08",
    "move_path": "1.06.04.09",
    "ally_path": "1.06.06",
    "move_card": "3.01.09",
    "worm_ride": "2.04.08",
    "worm_storm": "2.04.08",
    "worm_rider": "2.04.08",
    "cross_ship": "2.06.05.01",
    "cross_ship_storm": "1.06.02.04",
    "ambassador": "2.11.10.04",
    "move_kind": "1.06",
    "storm_once": "1.01.02",
    "storm_losses": "1.01.03",
    "fremen_storm": "2.04.16",
    "worm_devours": "1.02.05",
    "fremen_shipment": "2.04.05",
    "fremen_guild_shipment": "2.04.03",
    "ally_once": "1.10.01.01",
    "ally_abilities": "1.10.01.06",
    "moritani_alliance": "2.12.11",
    "ambassador_alliance": "2.11.10.11",
    "stormed_in": "2.02.19",
    "ally_tanks": "1.06.06",
    "hms": "2.07.17",
    "hms_ship": "2.07.20",
    "hms_move": "2.07.18",
    "no_field": "2.10.15",
    "terror": "2.12.05",
    "aftermath": "2.12.09.02",
    "ambassadors": "2.11.05",
    "vidal": "2.11.16",
    "bribe": "1.12.02",
    "loss_corrected": "1.01.03",
    "storm_spice": "1.01.03",
    "spice_blow": "1.02.04",
    "collection": "1.08.02",
    "no_field_hit": "2.10.14",
    "peacetime": "2.02.18",
    "no_field_occupancy": "2.10.11",
    "terror_timing": "2.12.05",
    "enemy_of_my_enemy": "2.12.10",
    "ambassador_symbols": "2.11.10",
    "vidal_pause": "2.12.13",
    "bribe_allies": "1.12.01",
    "bribe_timing": "1.12.04",
    "bribe_late": "1.12.05",
    "bg_mixed": "2.02.13",
    "bg_advisors": "2.02.11",
    "family_atomics_reach": "3.01.07",
    "family_atomics_bg": "2.02.12",
    "karama_worm": "4.02.00",
    "karama_worm_fremen": "1.14.03",
    "karama_shipment": "3.01.11.03",
    "karama_revival": "1.14.02",
    "karama_card": "3.01.11.00",
    "karama_once": "1.14.00",
    "ambassador_supply": "2.11.03",
    "ambassador_redraw": "2.11.08",
    "ambassador_bg": "2.11.10.02",
    "no_field_supply": "2.10.10",
    "no_field_face_up": "2.10.13",
    "no_field_ally": "2.10.19",
    "worm_allies": "2.04.10",
    "captured": "2.05.10",
    "terror_trigger": "2.12.06",
    "ambassador_trigger": "2.11.07",
    "ambassador_stormed": "2.11.09",
    "ghola": "2.08.16",
    "battle": "1.07.06",
    "battle_phase": "1.07",
    "battle_forces": "1.07.01",
    "battle_dial": "1.07.04.01",
    "battle_elite": "2.03.08",
    "battle_elite_fremen": "2.03.09",
    "battle_fedaykin": "2.04.18",
    "battle_cyborgs": "2.07.09",
    "battle_suboids": "2.07.23",
    "battle_leader": "1.07.04.04",
    "battle_no_leader": "1.07.04.05",
    "battle_cards": "1.07.04.06",
    "battle_tie": "1.07.06.00",
    "battle_weapons": "1.07.06.01",
    "battle_killed": "1.07.06.02",
    "battle_loser": "1.07.06.04",
    "battle_winner": "1.07.06.05",
    "battle_winner_losses": "1.07.04.01",
    "battle_dedicated": "1.07.04.03",
    "traitor_call": "1.07.06.06",
    "traitor": "1.07.06.06.00",
    "two_traitors": "1.07.06.06.02",
    "traitor_kh": "2.01.12",
    "traitor_explosion": "1.07.06.06.00",
    "explosion": "3.01.14",
    "kh": "2.01.11",
    "kh_active": "2.01.10",
    "kh_once": "2.01.11",
    "kh_killed": "2.01.13",
    "capture": "2.05.10",
    "capture_kill": "2.05.10.01",
    "captive_once": "2.05.10.02",
    "prison_break": "2.05.11",
    "captive_killed": "2.05.12",
    "spice_dialing": "1.13.03",
    "fremen_full_strength": "2.04.21",
    "double_spice_blow": "1.13.02",
    "traitor_spice": "1.13.04",
    "storm_most": "3.01.23",
    "revival_limit": "1.05.01",
    "fedaykin_revival": "2.04.20",
    "sardaukar_revival": "2.03.11",
    "ghola_card": "3.01.20",
    "revival_ally": "2.03.07",
    "revival_raised": "2.08.11",
    "revival_unlimited": "2.08.08",
    "capture_when": "2.05.10",
    "leader_count": "0.09",
    "bg_adapt": "2.02.20",
    "spiritual_advisor": "2.02.11",
    "bg_basic_start": "2.02.02",
    "guild_shipment": "2.06.05",
    # The order of the shipment and movement phase (sixth edition).
    "storm_order_turn": "1.06.01",
    "guild_out_of_turn": "2.06.12",
    "one_shipment": "1.06.02",
    "ship_then_move": "1.06.01",
    # Cards that change the order (Juice of Sappho; a Karama against 2.06.12, marked *...*).
    "juice_of_sappho": "3.02.02",
    "sappho_aggressor": "3.02.02.01",
    "sappho_first": "3.02.02.02",
    "sappho_last": "3.02.02.03",
    "guild_advanced": "2.06.00",
    "revival_choam": "2.09.08",
    "battle_order": "1.07.02",
    "karama_guild_order": "3.01.11.02",
    # What a traitor call gives back (ninth edition).
    "traitor_restores": "1.07.06.06.00",
    "dead_again": "1.05.04",
    "choam_dialing": "2.09.20",
    "mirror_weapon": "3.02.04",
    "portable_snooper": "3.02.07",
    "stone_burner": "3.02.10",
    "one_time_cards": "3.01.04",
    "voice": "2.02.06",
    "prescience": "2.01.08",
    "plan_obeys": "2.02.06",
    "voice_ally": "2.02.07",
    "prescience_ally": "2.01.09",
    "blind_prescience": "2.10.17",
}

AH1979 = Ruleset(
    key="ah1979",
    name="Avalon Hill 1979",
    factions=CLASSIC_FACTIONS,
    rounds=MappingProxyType({kind: RoundRules(15, "AH V") for kind in ROUND_KINDS}),
    phases=_AH_PHASES,
    threshold=_ah_threshold,
    alliance_limit=_ah_alliance_limit,
    shield_wall=None,
    several_winners="storm_order",
    prediction_on_qualifiers=False,
    end_game=EndGameRule(
        fremen_special_needs_guild=False,
        tueks_forbidden=frozenset({HARKONNEN, ATREIDES, EMPEROR}),
        fremen_allies_exempt=False,
    ),
    ecaz_co_occupy=False,
    adjudication=None,
    pp=None,
    options=frozenset({"xx_a_alliance_strongholds", "xx_b_alliances_of_two"}),
    cite=_AH_CITE,
    movement=_AH_MOVEMENT,
    storm_placement_destroys=True,  # AH VI.A
    karama_worm_nexus=False,  # AH questions A.8
    coexistence_assumed=True,  # AH XV.B
    battle=BattleRules(repairs=frozenset({"leader"})),  # AH X.B.2.a
)

WBC2018 = Ruleset(
    key="wbc2018",
    name="WBC 2018 (AH 1979 with WBC house rules)",
    factions=CLASSIC_FACTIONS,
    rounds=MappingProxyType(
        {
            "heat": RoundRules(10, "WBC Preliminary Heat Duration"),
            "final": RoundRules(
                15, "WBC Final Round Duration", three_alliances=False, three_alliances_rule="WBC Final Round Format"
            ),
        }
    ),
    phases=_AH_PHASES,
    threshold=_wbc_threshold,
    alliance_limit=_wbc_alliance_limit,
    shield_wall=ShieldWallRule(worms_needed=4, left_side_only=False, rule="WBC house rules (Shield Wall)"),
    several_winners="all",
    prediction_on_qualifiers=False,
    end_game=EndGameRule(
        fremen_special_needs_guild=False,
        tueks_forbidden=frozenset({HARKONNEN, ATREIDES, EMPEROR}),
        fremen_allies_exempt=False,
    ),
    ecaz_co_occupy=False,
    adjudication=ADJUDICATION_CRITERIA,  # WBC adjudication criteria, in order
    pp=_WBC_PP,
    options=frozenset(),
    cite=_WBC_CITE,
    movement=_WBC_MOVEMENT,
    coexistence_declared_in_movement_only=True,  # WBC XV.7-9
    fremen_guild_shipment=True,  # WBC IX.12, IX.16
    ally_tanks_at_action_end=True,  # WBC IX.3
    diplomacy_chips=3,  # WBC time guidelines: three per player, not tradeable
    call_timers=True,  # WBC time guidelines
    bribes="collection_round",  # WBC XIII.1
    spice_dialing=True,  # WBC Rule Set: the AH Advanced rules
    fremen_full_strength=True,  # WBC house rules: full strength for no cost in all battles
    double_spice_blow=True,  # WBC Rule Set: AH Rule XXI (Double Spice Blow)
    # WBC X.12, X.13, X.15 repair a bad plan; the Fremen may share full strength (house rules).
    battle=BattleRules(repairs=frozenset({"leader", "dial", "cards"}), fremen_ally_full_strength=True),
)

LOLV284 = Ruleset(
    key="lolv-2.8.4",
    name="Landsraad of Las Vegas 2.8.4",
    factions=FACTIONS,
    rounds=MappingProxyType({kind: RoundRules(10, "0.02") for kind in ROUND_KINDS}),
    phases=PHASES,
    threshold=_lolv_threshold,
    alliance_limit=_lolv_alliance_limit,
    shield_wall=ShieldWallRule(worms_needed=4, left_side_only=True, rule="4.02.01"),
    several_winners="storm_order",
    prediction_on_qualifiers=True,
    end_game=EndGameRule(
        fremen_special_needs_guild=True,
        tueks_forbidden=frozenset({HARKONNEN, ATREIDES, EMPEROR, RICHESE}),  # 2.04.09.02, 2.10.18
        fremen_allies_exempt=True,  # 4.01.18
        needs_guild_rule="2.04.09.00",
    ),
    ecaz_co_occupy=True,
    adjudication=("win_attempts", "strongholds", "forces", "spice", "cards", "leaders", "die"),
    pp=None,
    options=frozenset({"advanced"}),  # 1.13.00: the Advanced game
    cite=_LOLV_CITE,
    movement=_LOLV_MOVEMENT,
    allies_once_per_nexus=True,  # 1.10.01.01
    alliance_abilities=frozenset({"moritani", "ecaz_ambassador"}),  # 1.10.01.06
    ally_entry="tanks_at_action_end",  # 1.06.06, 4.01.16
    ally_tanks_at_action_end=True,
    advisors_stormed_in=True,  # 2.02.19
    bg_starts_as_advisor=True,  # 2.02.08
    storm_hits_start_sector=True,  # 1.01.03
    worm_devours_after_nexus=False,  # 1.02.05
    expansion_pieces=True,
    bribes="front_of_shield",  # 1.12.01, 1.12.04, 1.12.05
    bg_sides_apart=True,  # 2.02.11, 2.02.13
    basic_or_advanced=True,  # 1.13.00
    fremen_may_expose_allies=True,  # 2.04.10
    karama_power_once_per_game=True,  # 1.14.00
    karama_revival_phases=(REVIVAL,),  # 1.14.02
    spice_dialing=True,  # 1.13.03 (in the Advanced game)
    fremen_full_strength=True,  # 2.04.21 Battle Hardened (in the Advanced game)
    double_spice_blow=True,  # 1.13.02 (in the Advanced game)
    battle=BattleRules(
        traitor_restores=True,  # 1.07.06.06.00
        # 2.02.06: also a Cheap Hero and a special weapon or defense by name
        voice_cards=frozenset(VOICE_CARDS),
    ),
)

#: Every ruleset by key.
RULESETS: dict[str, Ruleset] = {r.key: r for r in (AH1979, WBC2018, LOLV284)}


def get_ruleset(key: str) -> Ruleset:
    """The ruleset with this key. Raises UnknownIdentifier."""
    try:
        return RULESETS[key]
    except KeyError:
        raise UnknownIdentifier(
            rule="ruleset", msg=f"unknown ruleset {key!r}; known: {', '.join(RULESETS)}", input=key
        ) from None


# --- rule options a format may set, recorded in a game's setup -------------------------------
#
# A game's setup records its ruleset by key and the options it is played under. Besides each
# ruleset's own flags (`Ruleset.options`: the AH section XX house rules, the LoLV Advanced game),
# a format may change a few numbers and choices of the ruleset; each is recorded as one option
# `name=value` so a replay or a snapshot rebuilds exactly the rules the table played.

#: The Shield Wall counts as a stronghold for victory once this many worms appeared after the
#: first turn (WBC house rules and LoLV 4.02.00 say the fourth; `0`: it never counts).
SHIELD_WALL_AFTER_WORM = "shield_wall_after_worm"
#: Which of the Shield Wall's forces count and decide its control: `whole` (WBC house rules)
#: or `imperial_basin_side` (LoLV 4.02.01: the side touching the Imperial Basin).
SHIELD_WALL_COUNTS = "shield_wall_counts"
#: Who stands in a territory the BG shares with others without declaring: `assumed`
#: coexisting (AH XV.B) or `declared` only (WBC XV.6).
COEXISTENCE = "coexistence"
#: Rules a format switches on (the bare name, or `name=yes`) or off (`name=no`) where they
#: differ from the ruleset's own: the Fremen at full strength in every battle (the WBC's since
#: 2016) and two spice blows a turn. The engine applies them (`battle`, `spice`).
RULE_SWITCHES: frozenset[str] = frozenset({"fremen_full_strength", "double_spice_blow"})
_SWITCH_VALUES: Mapping[str, bool] = {"yes": True, "no": False}

SHIELD_WALL_SIDES: tuple[str, ...] = ("whole", "imperial_basin_side")
COEXISTENCE_CHOICES: tuple[str, ...] = ("assumed", "declared")
#: The most worms a Shield Wall option may wait for.
MOST_WORMS = 20


def _option_parts(option: str) -> tuple[str, str | None]:
    name, sep, value = option.partition("=")
    return name, (value if sep else None)


def _bad_option(rs: Ruleset, option: object, why: str) -> UnknownIdentifier:
    return UnknownIdentifier(rule=rs.cite["setup"], msg=f"option {option!r} for {rs.key!r}: {why}", input=option)


def ruleset_with(rs: Ruleset, options: frozenset[str] | tuple[str, ...]) -> Ruleset:
    """The ruleset `rs` as changed by a game's setup options.

    Flags of the ruleset itself (`rs.options`) leave it as it is (the rule code reads them from
    the setup); `shield_wall_after_worm=N`, `shield_wall_counts=SIDE`,
    `coexistence=assumed|declared` and the rule switches (`fremen_full_strength`,
    `double_spice_blow`: bare or `=yes` on, `=no` off) give a ruleset with that rule changed.

    Raises UnknownIdentifier for an option that is neither, or a bad value.
    """
    wall = rs.shield_wall
    after: int | None = None
    side: str | None = None
    coexistence: bool | None = None
    switched: dict[str, bool] = {}
    for option in sorted(options):
        if not isinstance(option, str):
            raise _bad_option(rs, option, "an option is a name")
        if option in rs.options:
            continue
        name, value = _option_parts(option)
        if name in RULE_SWITCHES and (value is None or value in _SWITCH_VALUES):
            switched[name] = True if value is None else _SWITCH_VALUES[value]
        elif name == SHIELD_WALL_AFTER_WORM and value is not None and value.isdigit():
            after = int(value)
            if not 0 <= after <= MOST_WORMS:
                raise _bad_option(rs, option, f"the Shield Wall waits for 0 to {MOST_WORMS} worms")
        elif name == SHIELD_WALL_COUNTS and value in SHIELD_WALL_SIDES:
            side = value
        elif name == COEXISTENCE and value in COEXISTENCE_CHOICES:
            coexistence = value == "assumed"
        else:
            known = sorted(rs.options | RULE_SWITCHES) + [f"{name}=no" for name in sorted(RULE_SWITCHES)] + [
                f"{SHIELD_WALL_AFTER_WORM}=N",
                f"{SHIELD_WALL_COUNTS}={'|'.join(SHIELD_WALL_SIDES)}",
                f"{COEXISTENCE}={'|'.join(COEXISTENCE_CHOICES)}",
            ]
            raise _bad_option(rs, option, f"unknown option; known: {', '.join(known)}")
    changes: dict[str, object] = {k: v for k, v in switched.items() if getattr(rs, k) != v}
    if after is None and side is None and coexistence is None and not changes:
        return rs
    if after is not None or side is not None:
        if after == 0:
            changes["shield_wall"] = None
        else:
            base = wall or ShieldWallRule(worms_needed=4, left_side_only=False, rule=rs.cite["shield_wall"])
            changes["shield_wall"] = ShieldWallRule(
                worms_needed=after if after is not None else base.worms_needed,
                left_side_only=(side == "imperial_basin_side") if side is not None else base.left_side_only,
                rule=base.rule,
            )
    if coexistence is not None:
        changes["coexistence_assumed"] = coexistence
    return _varied(rs, tuple(sorted(options)), changes)


_VARIED: dict[tuple[str, tuple[str, ...]], Ruleset] = {}


def _varied(rs: Ruleset, options: tuple[str, ...], changes: Mapping[str, object]) -> Ruleset:
    """One ruleset object per (ruleset, options): positions compare their setups by value."""
    key = (rs.key, options)
    found = _VARIED.get(key)
    if found is None:
        found = replace(rs, **changes)  # type: ignore[arg-type]
        if len(_VARIED) < 1000:
            _VARIED[key] = found
    return found
