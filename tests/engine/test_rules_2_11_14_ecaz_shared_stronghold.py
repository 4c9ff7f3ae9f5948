"""LoLV 2.11.14: a stronghold the Ecaz shares with its ally counts once and the Ecaz controls
it. Reading (documented in docs/rules-coverage.md): 4.01.10.02 counts strongholds *controlled*,
so the per-faction statistics credit the Ecaz alone (`ecaz_shared_credit="ecaz"`); the ruleset
flag "both" credits the ally too, for tournaments that read "counts ... for both" that way.
LoLV only: the Ecaz is in no other text."""

from __future__ import annotations

from dataclasses import replace

from .helpers import at, evaluated, position

FACTIONS = ("atreides", "ecaz", "emperor", "fremen", "harkonnen", "guild")


def _shared() -> object:
    forces = [at("ecaz", "carthag", 2), at("atreides", "carthag", 2)]
    return position(
        ruleset="lolv-2.8.4", factions=FACTIONS, storm=0, forces=forces, alliances=[["atreides", "ecaz"]]
    )


def test_2_11_14_shared_stronghold_is_controlled_by_the_ecaz() -> None:
    ev = evaluated(_shared())
    assert ev["control"]["carthag"] == "ecaz"
    assert ev["stats"]["ecaz"]["strongholds"] == 1 and ev["stats"]["atreides"]["strongholds"] == 0


def test_2_11_14_the_other_reading_is_a_ruleset_flag() -> None:
    pos = _shared()
    other = pos.evolve(setup=replace(pos.setup, ruleset=replace(pos.ruleset, ecaz_shared_credit="both")))
    stats = evaluated(other)["stats"]
    assert stats["ecaz"]["strongholds"] == 1 and stats["atreides"]["strongholds"] == 1
