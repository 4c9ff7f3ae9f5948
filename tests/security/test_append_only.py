"""The game event log cannot be erased by the app's database role, and filed reports with
their history cannot be deleted through the admin."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.db import DatabaseError, connection, transaction

from tests.factories import make_seated_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def app_role() -> str:
    """A role like the deployment's app role: may read and write rows, owns nothing.
    Created inside the test's transaction, so it disappears with it."""
    name = f"dune_app_test_{uuid.uuid4().hex[:8]}"
    with connection.cursor() as cursor:
        cursor.execute(f'CREATE ROLE "{name}" NOLOGIN')
        cursor.execute(f'GRANT USAGE ON SCHEMA public TO "{name}"')
        cursor.execute(f'GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON gameplay_gameevent TO "{name}"')
    return name


@pytest.fixture
def recorded_game() -> Any:
    from gameplay import services

    table = make_seated_table()
    return services.game_for(table)


@pytest.mark.parametrize(
    "statement",
    ["DELETE FROM gameplay_gameevent", "TRUNCATE gameplay_gameevent", "ALTER TABLE gameplay_gameevent DISABLE TRIGGER ALL"],
)
def test_the_app_role_cannot_erase_the_log(app_role: str, recorded_game: Any, statement: str) -> None:
    with connection.cursor() as cursor:
        # The rows were inserted in this transaction: check their deferred foreign keys now, or
        # TRUNCATE would be refused for that reason instead of ours.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        with pytest.raises(DatabaseError, match="append-only|must be owner"), transaction.atomic():
            cursor.execute(f'SET LOCAL ROLE "{app_role}"')
            cursor.execute(statement)
        cursor.execute("RESET ROLE")
    assert recorded_game.events.count() == 1


@pytest.fixture
def filed_report(judge_client: Any, head_judge: Any) -> Any:
    from scoring.models import GameReport
    from tests.scoring.db.conftest import report_for

    table = make_seated_table()
    table.round.tournament.head_judges.add(head_judge)
    response = judge_client.post(f"/api/tables/{table.pk}/report/", report_for(table, {0: "solo_stronghold"}), format="json")
    assert response.status_code == 201
    return GameReport.objects.get(table=table)


def test_the_admin_cannot_delete_a_filed_report(client: Any, head_judge: Any, filed_report: Any) -> None:
    client.force_login(head_judge)
    url = f"/admin/scoring/gamereport/{filed_report.pk}/delete/"
    client.post(url, {"post": "yes"})
    assert type(filed_report).objects.filter(pk=filed_report.pk).exists()


def test_the_admin_cannot_delete_a_revision(client: Any, head_judge: Any, filed_report: Any) -> None:
    revision = filed_report.revisions.first()
    client.force_login(head_judge)
    client.post(f"/admin/scoring/reportrevision/{revision.pk}/delete/", {"post": "yes"})
    assert type(revision).objects.filter(pk=revision.pk).exists()


def test_the_admin_cannot_delete_a_tournament_with_filed_reports(client: Any, head_judge: Any, filed_report: Any) -> None:
    client.force_login(head_judge)
    client.post(f"/admin/tournament/tournament/{filed_report.tournament_id}/delete/", {"post": "yes"})
    assert type(filed_report).objects.filter(pk=filed_report.pk).exists()
