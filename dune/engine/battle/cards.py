"""The battle cards: each card's slot and what it stops or kills (LoLV 3.01, 3.02; AH X.B.3), the
cards discarded after use, the expansion cards, and which weapon kills which leader."""

from __future__ import annotations

from collections.abc import Mapping

from dune.engine.battle.side import Side
from dune.engine.events import BattlePlan
from dune.engine.position import Position

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


#: Each battle card by name, as the card prints it (names of the game: locale/GLOSSARY.md); the
#: kinds a plan may record without naming the card in words ("a projectile weapon").
CARD_NAMES: Mapping[str, str] = {
    "projectile": "a projectile weapon",
    "poison": "a poison weapon",
    "worthless": "a worthless card",
    "crysknife": "Crysknife",
    "maula_pistol": "Maula Pistol",
    "slip_tip": "Slip Tip",
    "stunner": "Stunner",
    "chaumas": "Chaumas",
    "chaumurky": "Chaumurky",
    "gom_jabbar": "Gom Jabbar",
    "ellaca_drug": "Ellaca Drug",
    "lasgun": "Lasgun",
    "shield": "Shield",
    "snooper": "Snooper",
    "baliset": "Baliset",
    "jubba_cloak": "Jubba Cloak",
    "kulon": "Kulon",
    "la_la_la": "La La La",
    "trip_to_gamont": "Trip to Gamont",
    "mirror_weapon": "Mirror Weapon",
    "portable_snooper": "Portable Snooper",
    "stone_burner": "Stone Burner",
    "cheap_hero": "Cheap Hero",
}


def card_name(card: str) -> str:
    """A battle card as it prints (`maula_pistol` -> "Maula Pistol"); any other id in words."""
    return CARD_NAMES.get(card) or card.replace("_", " ")


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


def cards_played(plan: BattlePlan) -> list[str]:
    out = [c for c in (plan.weapon, plan.defense) if c is not None]
    if plan.cheap_hero:
        out.append("cheap_hero")
    return out


def weapon_of(side: Side, other: Side) -> str | None:
    """The weapon a side fights with: a Mirror Weapon copies the opponent's weapon when it
    reveals one that counts as a weapon, else it is nothing (3.02.04)."""
    weapon = side.plan.weapon
    if weapon != "mirror_weapon":
        return weapon
    theirs = other.plan.weapon
    if theirs is None or theirs == "mirror_weapon" or CARDS[theirs][0] != "weapon":
        return None
    return theirs


def kills(pos: Position, weapon: str | None, defense: str | None) -> bool:
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
