"""The page's form builders (pure: no database): fields typed and named, never judged."""

from __future__ import annotations

import pytest

from web.gameplay import actions


def test_quick_grid_builds_occupants_and_bg_coexisting() -> None:
    form = {"occ": ["arrakeen|atreides", "carthag|harkonnen"], "coex": ["carthag"], "places": ["arrakeen", "carthag",
            "sietch_tabr"], "storm": "4", "worms": ""}
    event = actions.build("quick_record", form)
    assert event["occupants"] == {"arrakeen": ["atreides"], "carthag": ["harkonnen", "bene_gesserit"], "sietch_tabr": []}
    assert event["coexisting"] == ["carthag"] and event["storm"] == 4 and event["worms"] is None


@pytest.mark.parametrize(
    "action, form, field",
    [("move_storm", {"sectors": "x"}, "sectors"), ("move_storm", {}, "sectors"),
     ("form_alliance", {"factions": ["atreides"]}, "factions"), ("void", {"seq": "3"}, "reason"),
     ("set_spice", {"faction": "nobody", "amount": "3"}, "faction"), ("nonsense", {}, "action"),
     ("place_forces", {"faction": "fremen", "piece": "arrakeen@9"}, "normal")],
)
def test_bad_fields_are_named(action: str, form: dict[str, object], field: str) -> None:
    with pytest.raises(actions.ActionError) as caught:
        actions.build(action, form)
    assert caught.value.field == field


def test_pieces_split_into_territory_and_sector() -> None:
    event = actions.build("move_forces", {"faction": "fremen", "from_piece": "polar_sink", "to_piece": "arrakeen@9",
                                          "normal": "3"})
    assert (event["from_territory"], event["from_sector"], event["to_territory"], event["to_sector"]) == (
        "polar_sink", None, "arrakeen", 9)
    assert (event["normal"], event["special"], event["advisors"]) == (3, 0, 0)


@pytest.mark.parametrize(
    "action, form",
    [("place_forces", {"faction": "fremen", "piece": "arrakeen@9", "normal": "3"}),
     ("set_cards", {"faction": "emperor", "count": "2"}),
     ("change_leader", {"leader": "emperor|bashar", "status": "active"}),
     ("revive_forces", {"faction": "emperor", "normal": "3"}),
     ("move_hms", {"piece": "the_great_flat@14"})],
)
def test_1_14_the_karama_box_marks_the_event_its_card_enabled(action: str, form: dict[str, str]) -> None:
    """LoLV 1.14, WBC XVII: the card is recorded on the event it makes possible, never guessed."""
    assert actions.build(action, form)["karama"] is False
    assert actions.build(action, {**form, "karama": "1"})["karama"] is True
