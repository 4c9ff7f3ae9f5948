"""The line saying what was just recorded reads as one sentence of the reader's language: the
record's kind, the turn or phase a "then" button moved on to and the record numbers, with no
English words glued in (LoLV 1.09.04: the Mentat Pause, then the next turn)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import translation

from dune.engine.events import EVENT_TYPES
from tests.e2e.test_table_venue import seeded_table
from tests.gameplay.table_page import seq_of, url, web
from web.gameplay.views import RECORD_KINDS
from web.gameplay.views import _record_kind_words as record_kind

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
ENGLISH_GLUE = re.compile(r"\b(Recorded|Already|record #|then|turn|storm|phase advanced|turn advanced)\b")


def test_rule_1_09_04_the_notice_of_the_mentat_pause_then_the_next_turn_reads_in_german(make_user: Any) -> None:
    judge = make_user("judge1")
    table = seeded_table(judge, until="quick_record", occurrence=6)  # turn 6, battle phase recorded
    client = web(judge)
    seq = seq_of(table)
    body = {"action": "advance_phase", "phase": "mentat_pause", "then": "next_turn", "expected_seq": str(seq),
            "idempotency_key": "nw-1"}
    html = client.post(url(table), body, HTTP_ACCEPT_LANGUAGE="de", **HTMX).content.decode()
    sentence = f"Erfasst: nächste Phase (Eintrag Nr. {seq + 1}), dann Zug 7 (Eintrag Nr. {seq + 2})."
    assert sentence in html
    assert not ENGLISH_GLUE.search(sentence)
    again = client.post(url(table), body, HTTP_ACCEPT_LANGUAGE="de", **HTMX).content.decode()
    assert "Schon erfasst: nächste Phase (Eintrag Nr." in again


def test_rule_1_09_04_the_notice_keeps_its_english_words(make_user: Any) -> None:
    judge = make_user("judge1")
    table = seeded_table(judge, until="turn_advanced", occurrence=6)  # turn 7, storm phase
    client = web(judge)
    seq = seq_of(table)
    body = {"action": "move_storm", "sectors": "3", "then": "battle", "expected_seq": str(seq),
            "idempotency_key": "nw-2"}
    html = client.post(url(table), body, HTTP_ACCEPT_LANGUAGE="en", **HTMX).content.decode()
    assert f"Recorded: storm moved (record #{seq + 1}), then Battle phase (record #{seq + 2})." in html
    html = client.post(url(table), body, HTTP_ACCEPT_LANGUAGE="fr", **HTMX).content.decode()
    assert f"Déjà enregistré : tempête déplacée (enregistrement n° {seq + 1}), puis " in html


def test_every_kind_of_record_has_its_words_in_each_language() -> None:
    assert sorted(EVENT_TYPES) == sorted(RECORD_KINDS)
    english = {kind: record_kind(kind) for kind in RECORD_KINDS}
    assert english["storm_placed"] == "storm placed" and english["duke_vidal"] == "Duke Vidal"
    for language in ("es", "fr", "de"):
        with translation.override(language):
            changed = [kind for kind in RECORD_KINDS if record_kind(kind) != english[kind]]
        # Only names of the game (locale/GLOSSARY.md) and the French "concession" read the same.
        same = set(RECORD_KINDS) - set(changed)
        assert same <= {"duke_vidal", "family_atomics", "spice_blow", "concession"}, (language, same)


def test_the_notice_of_an_inserted_record_is_one_sentence_of_the_readers_language() -> None:
    from gameplay.commands import Recorded
    from web.gameplay.views import _notice

    body = {"event": {"seq": 20, "type": "insert", "event": {"before": 7, "event": {"type": "forces_moved"}}}}
    with translation.override("de"):
        line = _notice(Recorded(status=201, body=body), then_turn=False)
    assert line == "Erfasst: Truppen bewegt, vor Eintrag Nr. 7 (Korrektureintrag Nr. 20)."
    assert not ENGLISH_GLUE.search(line)
    with translation.override("en"):
        assert _notice(Recorded(status=201, body=body), then_turn=False) == (
            "Recorded: forces moved, before record #7 (correction record #20)."
        )
