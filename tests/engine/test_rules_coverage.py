"""The rules-coverage report: every rule number the engine cites has a test, every listed rule
has a test or a one-line reason, and docs/rules-coverage.md is the generator's output."""

from __future__ import annotations

from dune.engine.coverage import DOC, collect, render, rule_of_test_name, rules_in


def test_rule_numbers_are_read_as_the_engine_writes_them() -> None:
    assert rules_in("LoLV 1.06.04.06-07, AH IX.C.2.a-c, WBC XV.7-9, AH questions C.3") == {
        "1.06.04.06",
        "1.06.04.07",
        "AH IX.C.2.a",
        "AH IX.C.2.b",
        "AH IX.C.2.c",
        "WBC XV.7",
        "WBC XV.8",
        "WBC XV.9",
        "AH questions C.3",
    }
    assert rule_of_test_name("test_1_06_02_04_no_shipment") == "1.06.02.04"
    assert rule_of_test_name("test_wbc_ix_2_allies") == "WBC IX.2"
    assert rule_of_test_name("test_ah_vi_d_storm") == "AH VI.D"
    assert rule_of_test_name("test_storm_order_wraps") is None


def test_every_rule_cited_in_the_engine_has_a_test() -> None:
    assert collect().untested_citations() == []


def test_every_listed_rule_has_a_test_or_a_reason() -> None:
    assert collect().unexplained() == []


def test_the_report_is_up_to_date() -> None:
    assert DOC.read_text(encoding="utf-8") == render(collect()), "run python -m dune.engine.coverage"
