"""LoLV 2.12.13: at the Mentat Pause the Moritani set Duke Vidal aside when he is one of their
active leaders (ninth edition; the eighth kept him with them)."""

from __future__ import annotations

from dune.engine.codec.position import load_position
from dune.engine.editions import SEQUENCED
from dune.engine.game_log import apply
from tests.engine.helpers import LOLV, snap

MORITANI_GAME = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "moritani")
PAUSE = {"type": "phase_advanced", "phase": "mentat_pause"}


def _pos(**kw: object) -> object:
    return load_position(snap(LOLV, factions=MORITANI_GAME, phase="spice_collection", vidal="moritani", **kw))


def test_2_12_13_the_moritani_set_duke_vidal_aside_at_the_mentat_pause() -> None:
    assert apply(_pos(), PAUSE).vidal is None
    assert apply(_pos(edition=SEQUENCED), PAUSE).vidal == "moritani"
