"""A round's "Checked in" count is history once its seating is published: players who drop out
afterwards, or a final seated from the finalists without check-ins, do not change it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import make_players, make_round, seat_table
from tournament import services
from tournament.models import CheckIn, Player, Round

pytestmark = pytest.mark.django_db


def test_past_rounds_keep_their_checked_in_counts(client: Any, head_judge: Any, tournament: Any) -> None:
    players = make_players(tournament, 12)
    heat = make_round(tournament, number=1)
    CheckIn.objects.bulk_create(CheckIn(round=heat, player=p) for p in players)
    seat_table(heat, players[:6], number=1)
    seat_table(heat, players[6:], number=2)
    Round.objects.filter(pk=heat.pk).update(state=Round.State.FINISHED)
    final = make_round(tournament, number=2, kind="final")
    seat_table(final, players[:6], number=1)
    nxt = make_round(tournament, number=3, state=Round.State.PLANNED)
    CheckIn.objects.bulk_create(CheckIn(round=nxt, player=p) for p in players[:4])
    for p in players[8:11]:
        services.set_status(p, Player.Status.DROPPED)
    services.set_status(players[0], Player.Status.DROPPED)
    client.force_login(head_judge)
    rounds = {r.pk: r for r in services.rounds_with_presence(tournament)}
    assert rounds[heat.pk].present == 12  # played by 12, whoever dropped since
    assert rounds[final.pk].present == 6  # seated from the finalists, no check-in
    assert rounds[nxt.pk].present == 3  # open for check-in: the active players checked in
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    heat_row = page[page.index("Heat 1") :].split("</tr>")[0]
    assert '<td class="num" data-label="Players">12 <small class="muted">seated</small></td>' in heat_row
    final_row = page[page.index("Final") :].split("</tr>")[0] if "Final</a>" in page else ""
    assert '<td class="num" data-label="Players">0 ' not in final_row


def test_the_desk_the_seat_page_and_the_rounds_table_give_one_count(
    client: Any, head_judge: Any, tournament: Any
) -> None:
    """One derivation of a round's players (`services.presence`): the desk, the seat page and the
    rounds table give the same number in the same words, for a published heat whose player
    dropped since and for a final seated from the finalists (who never check in)."""
    players = make_players(tournament, 12)
    heat = make_round(tournament, number=1)
    CheckIn.objects.bulk_create(CheckIn(round=heat, player=p) for p in players)
    seat_table(heat, players[:6], number=1)
    seat_table(heat, players[6:], number=2)
    services.set_status(players[11], Player.Status.DROPPED)
    final = make_round(tournament, number=2, kind="final", state=Round.State.FINISHED)
    seat_table(final, players[:6], number=1)
    client.force_login(head_judge)
    rounds = {r.pk: r for r in services.rounds_with_presence(tournament)}
    for round_, count in ((heat, 12), (final, 6)):
        assert rounds[round_.pk].present == count == services.presence(round_).count
        desk = client.get(f"/tournaments/{tournament.pk}/players/?round={round_.pk}").content.decode()
        assert f'<strong id="checked-count">{count}</strong> seated' in desk
    seat = client.get(f"/rounds/{heat.pk}/seat/").content.decode()
    assert "12 players seated" in seat
    dashboard = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'title="Players checked in until the seating is published; then the players seated"' in dashboard
