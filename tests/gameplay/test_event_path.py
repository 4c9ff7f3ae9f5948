"""One event's path from the table page's POST to its answer, followed call by call
(`tests/post_path.py`): the files it passes through and how often it goes back up the layers.
docs/architecture.md draws it; this test keeps the drawing true and the path from growing."""

from __future__ import annotations

import re
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from gameplay import services
from tests.post_path import follow, within

pytestmark = pytest.mark.django_db(transaction=True)

DOC = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"

#: The most files and climbs back up the layers the page's post may take (the view's part).
MOST_FILES = 13
MOST_CLIMBS = 3


def _drawn() -> tuple[list[str], int, int]:
    """The files drawn in docs/architecture.md's path block, and the figures it states."""
    text = DOC.read_text()
    section = text[text.index("## One event's path through the files"):]
    block = section[section.index("```") + 3:]
    block = block[block.index("\n") + 1:block.index("```")]
    files = [line.strip().split()[0] for line in block.splitlines() if line.strip()]
    figures = re.search(r"(\d+) files, going back up the layers (\d+) times", section)
    assert figures, "the section states its figures"
    return files, int(figures.group(1)), int(figures.group(2))


def _table_post(client: Client, table: Any, key: str = "", seq: int | None = None) -> Any:
    """The page's form as it sends it: its action's fields and its hidden idempotency key
    (every form of the table page carries one; the outbox sends the same key as a header)."""
    seq = services.read_game(table).seq if seq is None else seq
    data = {"action": "make_prediction", "expected_seq": str(seq), "faction": "atreides", "turn": "3"}
    if key:
        data["idempotency_key"] = key
    return client.post(f"/tables/{table.pk}/", data)


def test_the_table_pages_post_takes_the_drawn_path(table: Any, table_judge: Any) -> None:
    client = Client()
    client.force_login(table_judge)
    client.get(f"/tables/{table.pk}/")
    warm = client.post(f"/tables/{table.pk}/", {"action": "place_storm", "expected_seq": "1", "sector": "5",
                                                "idempotency_key": str(uuid.uuid4())})
    # This process holds the committed position and has written a key before, as a running server has.
    assert warm.status_code == 302
    key, seq = str(uuid.uuid4()), services.read_game(table).seq
    answer, whole = follow(lambda: _table_post(client, table, key))
    assert answer.status_code == 302, answer.content.decode()[:500]
    path = within(whole, "web/gameplay/views.py")
    drawn, files, climbs = _drawn()
    assert drawn == path.steps, "docs/architecture.md draws the path as it is:\n" + path.drawn()
    assert (files, climbs) == (len(path.files), path.climbs)
    assert len(path.files) <= MOST_FILES and path.climbs <= MOST_CLIMBS, path.drawn()
    assert set(path.files) >= {"gameplay/commands.py", "gameplay/services.py", "gameplay/engine_adapter.py"}
    again = _table_post(client, table, key, seq=seq)  # the same form sent again: answered from its key
    assert again.status_code == 302 and services.read_game(table).seq == seq + 1


def test_a_post_without_a_key_takes_no_longer_path(table: Any, table_judge: Any) -> None:
    """A post without a key (an old page) skips the key's steps: never a longer path."""
    client = Client()
    client.force_login(table_judge)
    client.get(f"/tables/{table.pk}/")
    client.post(f"/tables/{table.pk}/", {"action": "place_storm", "expected_seq": "1", "sector": "5"})
    answer, whole = follow(lambda: _table_post(client, table))
    assert answer.status_code == 302, answer.content.decode()[:500]
    path = within(whole, "web/gameplay/views.py")
    assert len(path.files) <= MOST_FILES and path.climbs <= MOST_CLIMBS, path.drawn()


def test_the_path_counts_what_it_should() -> None:
    """The recorder sees a climb when a call goes back up a layer, and counts a file once."""
    from tests.post_path import Path as Steps

    steps = Steps(steps=["web/gameplay/views.py", "gameplay/services.py", "dune/engine/events.py",
                         "gameplay/services.py", "web/gameplay/views.py", "gameplay/presenters.py"])
    assert steps.files == ["web/gameplay/views.py", "gameplay/services.py", "dune/engine/events.py",
                           "gameplay/presenters.py"]
    assert steps.climbs == 2
