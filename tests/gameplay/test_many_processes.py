"""The web server runs several processes, each with its own cache of positions: whatever one
process holds must be committed truth, or another history recorded by another process is
built on a position that never was (DESIGN.md principle 2: the position is the fold of the log).

Real gunicorn processes on PostgreSQL, spoken to over HTTP; `check_games` replays every log
afterwards and must find nothing.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from gameplay import services
from gameplay.models import Game
from tests.gameplay.web_processes import Gunicorn, Judge

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[Gunicorn]]:
    started: list[Gunicorn] = []
    try:
        yield started
    finally:
        for server in started:
            server.stop()


def check_games() -> str:
    out = io.StringIO()
    try:
        call_command("check_games", stdout=out)
    except SystemExit as exit_:
        assert exit_.code == 1
        assert out.getvalue(), "check_games exits 1 only with something to say"
    return out.getvalue()


def spice(table: Any, faction: str) -> int:
    return int(Game.objects.get(table=table).position["factions"][faction]["spice"])


def test_a_two_step_command_refused_at_its_second_step_leaves_no_position_in_its_process(
    table: Any, table_judge: Any, tmp_path: Path, servers: list[Gunicorn]
) -> None:
    services.game_for(table)  # record #1, the setup (phase "setup")
    servers += [Gunicorn(tmp_path / "var"), Gunicorn(tmp_path / "var")]
    first, second = (Judge(server, table_judge) for server in servers)
    events = f"/api/tables/{table.pk}/game/events/"
    # Process 1: Atreides' spice set to 5, then back to the setup phase: the second step is
    # refused (phases are never gone back to), so neither is recorded.
    status, _html = first.page_post(f"/tables/{table.pk}/", {
        "action": "set_spice", "faction": "atreides", "amount": "5", "then": "setup", "expected_seq": "1",
        "idempotency_key": "two-steps-1"})
    assert status == 400
    assert Game.objects.get(table=table).seq == 1
    # Process 2 records another record #2: Atreides' spice set to 7.
    status, body = second.api("POST", events, {"event": {"type": "spice_set", "faction": "atreides", "amount": 7},
                                               "expected_seq": 1}, key="other-2")
    assert status == 201, body
    # Process 1 records #3 on top of the record #2 that was committed, not its own refused one.
    status, body = first.api("POST", events, {"event": {"type": "spice_set", "faction": "emperor", "amount": 3},
                                              "expected_seq": 2}, key="next-3")
    assert status == 201, body
    assert check_games() == ""
    assert spice(table, "atreides") == 7


def test_two_judges_on_several_workers_retries_and_refused_two_steps_keep_every_log_true(
    table: Any, table_judge: Any, make_user: Any, tmp_path: Path, servers: list[Gunicorn]
) -> None:
    import threading

    other = make_user("head")  # the table's judge and a head judge, both recording this table
    table.round.tournament.head_judges.add(other)
    services.game_for(table)
    servers.append(Gunicorn(tmp_path / "var", workers=3, threads=2))
    events = f"/api/tables/{table.pk}/game/events/"
    accepted: list[str] = []
    problems: list[str] = []

    def judge_loop(user: Any, name: str, faction: str) -> None:
        judge = Judge(servers[0], user)
        for i in range(12):
            key = f"{name}-{i}"
            while True:
                _status, game = judge.api("GET", f"/api/tables/{table.pk}/game/")
                seq = game["seq"]
                if i % 4 == 1:  # a two-step command whose second step is refused: nothing recorded
                    status, _html = judge.page_post(f"/tables/{table.pk}/", {
                        "action": "set_spice", "faction": faction, "amount": str(40 + i), "then": "setup",
                        "expected_seq": str(seq), "idempotency_key": f"{key}-two"})
                    if status not in (400, 409):
                        problems.append(f"{key}: a refused two-step command answered {status}")
                body = {"event": {"type": "spice_set", "faction": faction, "amount": i}, "expected_seq": seq}
                status, first = judge.api("POST", events, body, key=key)
                if status == 409:
                    continue  # the other judge was first: read the game again
                if status != 201:
                    problems.append(f"{key}: {status} {first}")
                    return
                accepted.append(key)
                if i % 3 == 0:  # the answer lost on the venue's Wi-Fi: the same key and body again
                    again_status, again = judge.api("POST", events, body, key=key)
                    if (again_status, again) != (status, first):
                        problems.append(f"{key}: the retry answered {again_status}, not the first answer")
                break

    threads = [threading.Thread(target=judge_loop, args=(user, name, faction))
               for user, name, faction in ((table_judge, "one", "atreides"), (other, "two", "harkonnen"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert problems == []
    assert len(accepted) == 24
    assert Game.objects.get(table=table).seq == 1 + 24
    assert spice(table, "atreides") == 11 and spice(table, "harkonnen") == 11
    assert check_games() == ""
