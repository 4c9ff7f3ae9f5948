"""Report revisions, the seating audit and the clock history are append-only like the game
event log: the database refuses to change their rows, and the app's role to erase the
revisions and the audit. Deleting a user who wrote any of them is a clear refusal (the user
is deactivated instead), never a server error."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.db import DatabaseError, connection, transaction
from django.db.models import ProtectedError

from tests.factories import make_seated_table
from tests.scoring.db.conftest import report_for

pytestmark = pytest.mark.django_db

TABLES = {
    "revisions": "scoring_reportrevision",
    "audit": "tournament_seatingaudit",
    "clock history": "clocks_clockhistory",
}


@pytest.fixture
def author(make_user: Any) -> Any:
    return make_user("author", is_staff=True)


@pytest.fixture
def records(author: Any, judge_client: Any, head_judge: Any) -> Any:
    """One row of each: a filed report's revision, a seating audit row and a clock start, all
    written by `author`; and a game event."""
    from clocks import services as clocks
    from gameplay.services import append_event, game_for
    from scoring.services import file_report
    from tournament.models import SeatingAudit

    table = make_seated_table(judge=author)
    table.round.tournament.head_judges.add(author)
    SeatingAudit.objects.create(round=table.round, user=author, action=SeatingAudit.Action.SEAT)
    clocks.start(table, user=author)
    append_event(
        table,
        {"type": "concession", "to_factions": ["atreides"]},
        expected_seq=game_for(table).seq,
        user=author,
    )
    file_report(table, report_for(table, {0: "solo_stronghold"}, ended_by="concession"), user=author)
    return table


@pytest.mark.parametrize("table", TABLES.values(), ids=TABLES.keys())
def test_no_role_may_change_a_row(records: Any, table: str) -> None:
    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(f"UPDATE {table} SET id = id")


@pytest.fixture
def app_role() -> str:
    """A role like the deployment's app role: may read and write rows, owns nothing."""
    name = f"dune_app_test_{uuid.uuid4().hex[:8]}"
    with connection.cursor() as cursor:
        cursor.execute(f'CREATE ROLE "{name}" NOLOGIN')
        cursor.execute(f'GRANT USAGE ON SCHEMA public TO "{name}"')
        for table in TABLES.values():
            cursor.execute(f'GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON {table} TO "{name}"')
    return name


@pytest.mark.parametrize("table", [TABLES["revisions"], TABLES["audit"]])
@pytest.mark.parametrize("verb", ["DELETE FROM", "TRUNCATE"])
def test_the_app_role_cannot_erase_revisions_or_the_audit(
    records: Any, app_role: str, table: str, verb: str
) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute(f"SELECT count(*) FROM {table}")
        before = cursor.fetchone()[0]
        with pytest.raises(DatabaseError, match="append-only|must be owner"), transaction.atomic():
            cursor.execute(f'SET LOCAL ROLE "{app_role}"')
            cursor.execute(f"{verb} {table}")
        cursor.execute("RESET ROLE")
        cursor.execute(f"SELECT count(*) FROM {table}")
        assert cursor.fetchone()[0] == before > 0


def test_deleting_a_user_who_wrote_records_is_refused_not_a_server_error(records: Any, author: Any) -> None:
    with pytest.raises(ProtectedError), transaction.atomic():
        author.delete()
    assert type(author).objects.filter(pk=author.pk).exists()


def test_the_admin_says_why_a_user_who_wrote_records_cannot_be_deleted(
    records: Any, author: Any, client: Any, head_judge: Any
) -> None:
    client.force_login(head_judge)
    response = client.post(f"/admin/auth/user/{author.pk}/delete/", {"post": "yes"})
    assert response.status_code == 200
    assert "Cannot delete user" in response.content.decode()
    assert type(author).objects.filter(pk=author.pk).exists()
