"""A table whose game record has begun keeps its seats (DESIGN.md principle 2: the log is never rewritten)."""

from __future__ import annotations

from typing import Any

import pytest

from tournament import services
from tournament.models import Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(heat: Any, checked_in: Any, head_judge: Any) -> Any:
    checked_in(18)
    services.seat_round(heat, user=head_judge, seed=7)
    services.publish_round(heat, user=head_judge)
    return heat


def _seats(round_: Any) -> list[tuple[int, int, int, str]]:
    return sorted(Seat.objects.filter(round=round_).values_list("table__number", "player_id", "seat", "faction"))


def test_swap_at_a_table_with_a_game_record_is_refused(published: Any, head_judge: Any) -> None:
    from gameplay.services import game_for

    table_1, table_2, _table_3 = published.tables.order_by("number")
    game_for(table_1)  # the table judge opened the game: its setup names these seats
    before = _seats(published)
    first = table_1.seats.get(seat=1).player_id
    second = table_2.seats.get(seat=1).player_id
    with pytest.raises(services.Refused, match=r"table\(s\) 1 .* already have a game record") as refused:
        services.swap(published, first, second, user=head_judge, reason="household")
    assert refused.value.status == 409
    assert _seats(published) == before


def test_reseating_the_round_is_refused_once_a_game_began(published: Any, head_judge: Any) -> None:
    from gameplay.services import game_for

    game_for(published.tables.get(number=2))
    before = _seats(published)
    with pytest.raises(services.Refused, match=r"table\(s\) 2 "):
        services.seat_round(published, user=head_judge, seed=8, reason="wrong players checked in")
    assert _seats(published) == before


def test_other_tables_can_still_change(published: Any, head_judge: Any) -> None:
    from gameplay.services import game_for

    table_1, table_2, table_3 = published.tables.order_by("number")
    game_for(table_1)
    before = [s for s in _seats(published) if s[0] == 1]
    a = table_2.seats.get(seat=1).player_id
    b = table_3.seats.get(seat=1).player_id
    services.swap(published, a, b, user=head_judge, reason="households apart")
    assert table_3.seats.filter(player_id=a).exists() and table_2.seats.filter(player_id=b).exists()
    assert [s for s in _seats(published) if s[0] == 1] == before
