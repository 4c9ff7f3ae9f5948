"""Properties of the event report over generated tournaments (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dune.event_report.figures import EventRecords, RoundRecord, event_report, faction_wins_total, winners
from tests.insights.helpers import game
from tests.insights.test_figures import KIND_GAMES

KINDS = sorted(KIND_GAMES, key=lambda k: k.value)


@st.composite
def tournaments(draw: st.DrawFn) -> EventRecords:
    """Heats of games of any winning kind, one format, with dropouts among the losers."""
    format = draw(st.sampled_from(["wbc", "lolv"]))
    kinds = [
        k for k in KINDS if KIND_GAMES[k][0] == format or (format == "lolv" and k.value != "three_alliance")
    ]
    results = []
    next_player = 1
    for table in range(1, draw(st.integers(1, 12)) + 1):
        kind = draw(st.sampled_from(kinds))
        _, factions, won, ending, alliances, _ = KIND_GAMES[kind]
        losers = [f for f in factions if f not in won and not any(f in a for a in alliances)]
        dropouts = (
            draw(st.lists(st.sampled_from(losers), unique=True, max_size=len(losers) - 1)) if losers else []
        )
        players = list(range(next_player, next_player + len(factions)))
        next_player += len(factions)
        results.append(
            game(
                table,
                players,
                factions,
                won,
                format=format,
                ended_by=ending,
                alliances=alliances,
                dropouts=dropouts,
                turns=draw(st.integers(1, 10)),
                round_number=draw(st.integers(1, 3)),
            )
        )
    return EventRecords(
        tournament=1,
        format=format,
        rounds=tuple(RoundRecord(n, False, True) for n in (1, 2, 3)),
        reports=tuple(results),
    )


@settings(max_examples=60, deadline=None)
@given(tournaments())
def test_faction_wins_add_up_to_the_winners_of_every_game(records: EventRecords) -> None:
    report = event_report(records)
    assert faction_wins_total(report) == sum(len(winners(r)) for r in records.reports)
    assert sum(f.games for f in report.factions) == sum(len(r.rows) for r in records.reports)
    assert report.games == len(records.reports) == sum(s.games for s in report.by_size)
    assert report.solo_wins + sum(n for _, n in report.alliance_wins) == report.games
    assert sum(r.games for r in report.rounds) == report.games
    assert (
        sum(r.adjudicated for r in report.rounds)
        == report.adjudicated
        == dict(report.results).get("adjudicated", 0)
    )
    for faction in report.factions:
        assert 0 <= faction.wins <= faction.games
