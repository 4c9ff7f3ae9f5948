"""Stable identifiers shared by the rules engine, the seating planner and scoring.

These strings are stored in the database and sent over the API: never rename one.
Display labels belong to the Django layer.
"""

from __future__ import annotations

from enum import StrEnum

#: The six factions of the 1979 game, in the order the rule texts list them.
CLASSIC_FACTIONS: tuple[str, ...] = (
    "atreides",
    "bene_gesserit",
    "emperor",
    "fremen",
    "harkonnen",
    "guild",
)

#: The six factions the LoLV rulebook adds (Ixians & Tleilaxu, CHOAM & Richese, Ecaz & Moritani).
EXPANSION_FACTIONS: tuple[str, ...] = (
    "ixians",
    "tleilaxu",
    "choam",
    "richese",
    "ecaz",
    "moritani",
)

FACTIONS: tuple[str, ...] = CLASSIC_FACTIONS + EXPANSION_FACTIONS

#: Game rulesets the engine knows.
RULESETS: tuple[str, ...] = ("ah1979", "wbc2018", "lolv-2.8.4")

#: Tournament formats (the tournament rules a scoring system implements).
FORMATS: tuple[str, ...] = ("lolv", "wbc")


class ResultKind(StrEnum):
    """How a seat's game ended: the `result` of a game report row."""

    SOLO_STRONGHOLD = "solo_stronghold"
    BG_PREDICTION = "bg_prediction"
    ALLIED_STRONGHOLD = "allied_stronghold"
    THREE_ALLIANCE = "three_alliance"
    FREMEN_SPECIAL_SOLO = "fremen_special_solo"
    FREMEN_SPECIAL_ALLIED = "fremen_special_allied"
    GUILD_DEFAULT_SOLO = "guild_default_solo"
    GUILD_DEFAULT_ALLIED = "guild_default_allied"
    FREMEN_DEFAULT_SOLO = "fremen_default_solo"
    FREMEN_DEFAULT_ALLIED = "fremen_default_allied"
    END_GAME_SOLO = "end_game_solo"
    END_GAME_ALLIED = "end_game_allied"
    ADJUDICATED = "adjudicated"
    LOSS = "loss"
    DROPOUT = "dropout"


#: Every kind except a loss or a dropout is a win for the seat that has it.
LOSING_KINDS: frozenset[ResultKind] = frozenset({ResultKind.LOSS, ResultKind.DROPOUT})
WINNING_KINDS: frozenset[ResultKind] = frozenset(ResultKind) - LOSING_KINDS

#: The end-of-game statistics, in the order the WBC adjudication criteria compare them
#: (strongholds, weighted tokens, spice, treachery cards, active leaders, then a recorded die).
ADJUDICATION_CRITERIA: tuple[str, ...] = ("strongholds", "tokens", "spice", "cards", "leaders", "die")


#: The kinds of treachery card a judge may record instead of the card's name, and the Voice
#: names (AH X.B.4, LoLV 2.02.06): a projectile or poison weapon, a lasgun, a shield or snooper
#: for the two defenses, a worthless card.
CARD_KINDS: tuple[str, ...] = ("projectile", "poison", "lasgun", "shield", "snooper", "worthless")
#: The second expansion's battle cards, one-time cards (LoLV 3.02.04, 3.02.07, 3.02.10).
ONE_TIME_BATTLE_CARDS: tuple[str, ...] = ("mirror_weapon", "portable_snooper", "stone_burner")

#: What the Bene Gesserit Voice names (AH X.B.4, WBC X.9, LoLV 2.02.06): a kind of card (a
#: projectile or poison weapon, a shield or snooper for the two defenses, a worthless card), or
#: under the LoLV a Cheap Hero or a special card by name (which a ruleset allows is its data:
#: `BattleRules.voice_cards`).
VOICE_CARDS: tuple[str, ...] = (*CARD_KINDS, "cheap_hero", *ONE_TIME_BATTLE_CARDS)
