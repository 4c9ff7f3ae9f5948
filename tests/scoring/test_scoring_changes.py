"""The one comparison of two game reports, field by field (a refiling's history, and a filed
report against the game record's draft)."""

from __future__ import annotations

from dune.points.changes import FieldChange, report_changes


def _report(**rows: dict[str, object]) -> dict[str, object]:
    return {"turns": 5, "ended_by": "victory",
            "results": [{"player": int(p[1:]), "result": "loss", **r} for p, r in rows.items()]}


def test_same_values_written_differently_are_no_change() -> None:
    """Statistics left out count as 0 (WBC Advancement to Finals); decimals compare by value."""
    before = _report(p1={"pp": "4.50", "strongholds": 0}, p2={"tokens": 9.5})
    after = _report(p1={"pp": "4.5"}, p2={"tokens": "9.5", "spice": 0})
    assert report_changes(before, after) == ()


def test_each_changed_field_is_named_with_its_row() -> None:
    before = _report(p1={"strongholds": 2}, p2={"pp": "3"})
    after = {**_report(p1={"strongholds": 3}, p2={"pp": "3.5", "result": "solo_stronghold"}), "turns": 6}
    after["results"][1]["result"] = "solo_stronghold"  # type: ignore[index]
    assert report_changes(before, after) == (
        FieldChange("turns", None, 5, 6),
        FieldChange("strongholds", 1, 2, 3),
        FieldChange("result", 2, "loss", "solo_stronghold"),
        FieldChange("pp", 2, "3", "3.5"),
    )


def test_alliances_compare_as_sets() -> None:
    before = {**_report(p1={}, p2={}), "alliances": [[2, 1]]}
    after = {**_report(p1={}, p2={}), "alliances": [[1, 2]]}
    assert report_changes(before, after) == ()
