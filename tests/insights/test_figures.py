"""The event report's figures on hand-made tournaments (pure: no database)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from fractions import Fraction

import pytest

from dune.engine.ids import ResultKind
from dune.event_report.figures import (
    ClockRecord,
    EventRecords,
    EventReportError,
    RoundRecord,
    alliance_size,
    event_report,
    faction_wins_total,
    two_places,
    winners,
)
from dune.formats import get_format
from dune.points import best_faction_awards
from tests.insights.helpers import NO_FREMEN_NO_GUILD, NO_GUILD, SIX, START, clock, game, seats_of

R = ResultKind
P6 = (1, 2, 3, 4, 5, 6)
P5 = (1, 2, 3, 4, 5)

#: One game of each winning kind: (format, factions, winners -> kind, ending, alliances, solo?).
KIND_GAMES = {
    R.SOLO_STRONGHOLD: ("wbc", SIX, {"harkonnen": "solo_stronghold"}, "victory", (), 1),
    R.BG_PREDICTION: ("wbc", SIX, {"bene_gesserit": "bg_prediction"}, "victory", (), 1),
    R.ALLIED_STRONGHOLD: (
        "wbc",
        SIX,
        {"atreides": "allied_stronghold", "emperor": "allied_stronghold"},
        "victory",
        (("atreides", "emperor"),),
        2,
    ),
    R.THREE_ALLIANCE: (
        "wbc",
        SIX,
        {f: "three_alliance" for f in ("atreides", "emperor", "guild")},
        "victory",
        (("atreides", "emperor", "guild"),),
        3,
    ),
    R.FREMEN_SPECIAL_SOLO: ("wbc", SIX, {"fremen": "fremen_special_solo"}, "turn_limit", (), 1),
    R.FREMEN_SPECIAL_ALLIED: (
        "wbc",
        SIX,
        {"fremen": "fremen_special_allied", "atreides": "fremen_special_allied"},
        "turn_limit",
        (("fremen", "atreides"),),
        2,
    ),
    R.GUILD_DEFAULT_SOLO: ("wbc", SIX, {"guild": "guild_default_solo"}, "turn_limit", (), 1),
    R.GUILD_DEFAULT_ALLIED: (
        "wbc",
        SIX,
        {"guild": "guild_default_allied", "emperor": "guild_default_allied"},
        "turn_limit",
        (("guild", "emperor"),),
        2,
    ),
    R.FREMEN_DEFAULT_SOLO: ("wbc", NO_GUILD, {"fremen": "fremen_default_solo"}, "turn_limit", (), 1),
    R.FREMEN_DEFAULT_ALLIED: (
        "wbc",
        NO_GUILD,
        {"fremen": "fremen_default_allied", "harkonnen": "fremen_default_allied"},
        "turn_limit",
        (("fremen", "harkonnen"),),
        2,
    ),
    R.END_GAME_SOLO: ("lolv", NO_FREMEN_NO_GUILD, {"ixians": "end_game_solo"}, "turn_limit", (), 1),
    R.END_GAME_ALLIED: (
        "lolv",
        NO_FREMEN_NO_GUILD,
        {"ixians": "end_game_allied", "emperor": "end_game_allied"},
        "turn_limit",
        (("ixians", "emperor"),),
        2,
    ),
    R.ADJUDICATED: ("wbc", SIX, {"harkonnen": "adjudicated"}, "time_limit", (), 1),
}


def heats_only(*results, format: str = "wbc", **kw) -> EventRecords:
    rounds = sorted({r.round_number for r in results})
    return EventRecords(
        tournament=1,
        format=format,
        rounds=tuple(RoundRecord(n, False, True) for n in rounds),
        reports=tuple(results),
        **kw,
    )


def test_every_winning_kind_has_a_game_above() -> None:
    assert set(KIND_GAMES) == set(ResultKind) - {R.LOSS, R.DROPOUT}


@pytest.mark.parametrize("kind", list(KIND_GAMES), ids=lambda k: k.value)
def test_each_result_kind_is_counted_once_with_its_winners(kind: ResultKind) -> None:
    """A game counts under the kind its winners had; its winning factions each score a win."""
    format, factions, won, ending, alliances, size = KIND_GAMES[kind]
    players = P6[: len(factions)]
    result = game(1, players, factions, won, format=format, ended_by=ending, alliances=alliances)
    report = event_report(heats_only(result, format=format))

    counts = dict(report.results)
    assert counts[kind] == 1
    assert sum(counts.values()) == 1
    assert report.games == report.heat_games == 1 and report.players == len(factions)
    assert alliance_size(result) == size
    assert report.solo_wins == (1 if size == 1 else 0)
    assert dict(report.alliance_wins) == ({} if size == 1 else {size: 1})
    wins = {f.faction: f.wins for f in report.factions if f.wins}
    assert wins == {f: 1 for f in won}
    assert report.adjudicated == (1 if kind is R.ADJUDICATED else 0)
    assert report.result_labels[kind] == get_format(format).points.table[kind].label


def wbc_event(*, final_filed: bool = True, closed: bool = True) -> EventRecords:
    """Two heats and a final: a solo win, an alliance, a BG prediction at five (no clock),
    a Guild default with a dropout, a concession at five, two adjudications."""
    h1 = [
        game(11, P6, SIX, {"harkonnen": "solo_stronghold"}, turns=5, pp={"harkonnen": "12"}),
        game(
            12,
            (7, 8, 9, 10, 11, 12),
            SIX,
            {"atreides": "allied_stronghold", "emperor": "allied_stronghold"},
            turns=6,
            alliances=(("atreides", "emperor"),),
            pp={"atreides": "9.5"},
        ),
        game(13, (13, 14, 15, 16, 17), NO_GUILD, {"bene_gesserit": "bg_prediction"}, turns=3),
    ]
    h2 = [
        game(
            21,
            P6,
            SIX,
            {"guild": "guild_default_solo"},
            turns=10,
            ended_by="turn_limit",
            dropouts=("emperor",),
            round_number=2,
        ),
        game(
            22,
            (7, 8, 9, 10, 11),
            NO_GUILD,
            {"fremen": "solo_stronghold"},
            turns=4,
            ended_by="concession",
            round_number=2,
        ),
        game(
            23,
            (12, 13, 14, 15, 16, 17),
            SIX,
            {"harkonnen": "adjudicated"},
            turns=6,
            ended_by="time_limit",
            round_number=2,
        ),
        game(
            24,
            (18, 19, 20, 21, 22, 23),
            SIX,
            {"fremen": "adjudicated", "atreides": "adjudicated"},
            turns=7,
            ended_by="time_limit",
            round_number=2,
            alliances=(("fremen", "atreides"),),
        ),
    ]
    final = game(
        31, (1, 7, 8, 11, 12, 22), SIX, {"fremen": "solo_stronghold"}, turns=9, round_number=3, is_final=True
    )
    heats = h1 + h2
    reports = (*heats, final) if final_filed else tuple(heats)
    seats = [s for i, r in enumerate([*heats, final]) for s in seats_of(r, table_number=i % 3 + 1)]
    clocks = (
        clock(11, hours=3, pause_minutes=30),
        clock(12, hours=4),
        # table 13 (the BG prediction at five) has no clock record
        clock(21, hours=5, pause_minutes=15),
        clock(22, hours=2),
        clock(23, hours=5),
        clock(24, hours=5),
        clock(31, hours=6, pause_minutes=60),
    )
    return EventRecords(
        tournament=7,
        format="wbc",
        rounds=(RoundRecord(1, False, True), RoundRecord(2, False, True), RoundRecord(3, True, closed)),
        reports=reports,
        seats=tuple(seats),
        clocks=clocks,
    )


def test_a_whole_wbc_event() -> None:
    report = event_report(wbc_event())

    assert report.provisional is False
    assert report.players == 23
    assert (report.games, report.heat_games, report.final_games) == (8, 7, 1)
    assert report.rounds_played == 3
    # Turns: 5, 6, 3, 10, 4, 6, 7 in the heats and 9 in the final.
    assert report.turns.mean == Fraction(50, 8) and report.turns.median == 6
    five, six = report.size(5), report.size(6)
    assert (five.games, five.turns.mean, six.games, six.turns.mean) == (2, Fraction(7, 2), 6, Fraction(43, 6))
    assert five.turns_histogram == ((3, 1), (4, 1))
    # Hours from the clocks, pauses excluded; the game at five without a clock is not guessed.
    assert five.hours.games == 1 and five.hours.mean == 2 and five.untimed == 1
    assert six.hours.mean == Fraction(3 + 4 + 5 + 5 + 5 + 6, 6)
    assert report.untimed == 1
    assert dict(report.results)[R.SOLO_STRONGHOLD] == 3
    assert dict(report.results)[R.ADJUDICATED] == 2
    assert dict(report.ended_by) == {"victory": 4, "turn_limit": 1, "time_limit": 2, "concession": 1}
    assert report.solo_wins == 6 and dict(report.alliance_wins) == {2: 2}
    assert (report.adjudicated, report.adjudicated_rate) == (2, Fraction(1, 4))
    assert (report.concessions, report.dropouts) == (1, 1)
    adjudications = [(r.number, r.games, r.adjudicated) for r in report.rounds]
    assert adjudications == [(1, 3, 0), (2, 4, 2), (3, 1, 0)]


def test_faction_balance_keeps_heats_and_final_apart() -> None:
    report = event_report(wbc_event())
    heats = {f.faction: (f.games, f.wins) for f in report.factions_heats}
    final = {f.faction: (f.games, f.wins) for f in report.factions_final}
    both = {f.faction: (f.games, f.wins) for f in report.factions}
    assert heats["fremen"] == (7, 2) and final["fremen"] == (1, 1) and both["fremen"] == (8, 3)
    assert heats["guild"] == (5, 1) and final["guild"] == (1, 0)
    assert heats["harkonnen"] == (7, 2)
    assert faction_wins_total(report) == 10  # 1 + 2 + 1 + 1 + 1 + 1 + 2 winners, + 1 in the final
    fremen = next(f for f in report.factions if f.faction == "fremen")
    assert fremen.rate == Fraction(3, 8)


def test_the_final_shows_seats_factions_result_turns_and_hours() -> None:
    report = event_report(wbc_event())
    final = report.final
    assert final is not None and final.filed
    assert [(s.seat, s.player, s.faction) for s in final.seats][:2] == [
        (1, 1, "atreides"),
        (2, 7, "bene_gesserit"),
    ]
    assert final.winners == (11,) and final.results == (R.SOLO_STRONGHOLD,)
    assert (final.ended_by, final.turns, final.hours) == ("victory", 9, 6)
    # The finalists are the final's seated players, with their qualifying tuples.
    assert [f.player for f in report.finalists] == [1, 7, 8, 11, 12, 22]
    atreides = report.finalists[1]  # player 7: an allied win in heat 1 (1 QP), a loss in heat 2
    assert atreides.points == 1
    assert len(atreides.tiebreak) == sum(g.size for g in report.tiebreaks)
    assert atreides.tiebreak[0] == 1  # the best single game's QP comes first (WBC Advancement)


def test_a_final_seated_but_not_played_leaves_the_report_provisional() -> None:
    report = event_report(wbc_event(final_filed=False, closed=False))
    assert report.provisional is True
    assert report.final is not None and not report.final.filed and report.final.turns is None
    assert [s.result for s in report.final.seats] == [None] * 6
    assert report.games == 7


def test_the_report_is_provisional_until_the_final_round_is_closed() -> None:
    assert event_report(wbc_event(closed=False)).provisional is True
    records = wbc_event()
    heats_only_rounds = EventRecords(
        tournament=7, format="wbc", rounds=records.rounds[:2], reports=records.reports[:7]
    )
    assert event_report(heats_only_rounds).provisional is True  # no final round at all yet
    assert event_report(EventRecords(tournament=7, format="wbc", rounds=(), reports=())).provisional is True


def test_wbc_awards_come_from_the_scoring_system_with_their_pp() -> None:
    records = wbc_event()
    report = event_report(records)
    assert report.awards_rule == get_format("wbc").awards_rule
    assert report.awards == best_faction_awards([r for r in records.reports if not r.is_final])
    harkonnen = next(a for a in report.awards if a.faction == "harkonnen" and a.pp)
    assert (harkonnen.player, harkonnen.pp, harkonnen.score) == (5, 12, Fraction(12, 5))


def test_lolv_has_no_awards_and_shows_the_qualifiers_tiebreak_tuples() -> None:
    lolv = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "ixians")
    results = [
        game(1, P6, lolv, {"harkonnen": "solo_stronghold"}, format="lolv", turns=5),
        game(
            2,
            (7, 8, 9, 10, 11, 12),
            lolv,
            {"ixians": "adjudicated"},
            format="lolv",
            turns=8,
            ended_by="time_limit",
        ),
    ]
    report = event_report(heats_only(*results, format="lolv", qualifiers=(5, 12)))
    assert report.awards_rule is None and report.awards == ()
    system = get_format("lolv").points
    whole = {row.player: row for row in system.standings(results)}
    assert [(f.player, f.points, f.tiebreak) for f in report.finalists] == [
        (p, whole[p].points, whole[p].tiebreak) for p in (5, 12)
    ]
    assert [g.key for g in report.tiebreaks] == ["weighted_wins", "best_game"]


def test_hours_are_none_where_no_game_of_that_size_has_a_clock() -> None:
    result = game(1, P5, NO_GUILD, {"harkonnen": "solo_stronghold"})
    other = game(2, P6, SIX, {"harkonnen": "solo_stronghold"})
    report = event_report(heats_only(result, other, clocks=(clock(2, hours=3.5),)))
    assert report.size(5).hours.mean is None and report.size(5).untimed == 1
    assert report.size(6).hours.mean == Fraction(7, 2)
    # A clock of a table without a filed report does not count.
    unfiled = event_report(heats_only(result, clocks=(clock(99, hours=2),)))
    assert unfiled.hours.games == 0


def test_a_clock_still_paused_at_the_end_counts_up_to_the_pause() -> None:
    from dune.clock_limits import Interval

    record = ClockRecord(
        table=1,
        started_at=START,
        ended_at=START + timedelta(hours=5),
        pauses=(Interval(START + timedelta(hours=4), None),),
    )
    assert record.played == timedelta(hours=4)


def test_two_filed_reports_for_one_table_are_refused() -> None:
    result = game(1, P6, SIX, {"harkonnen": "solo_stronghold"})
    with pytest.raises(EventReportError, match="table 1 has two filed reports"):
        event_report(heats_only(result, result))


def test_figures_round_half_up_to_two_places() -> None:
    assert two_places(Fraction(32, 5)) == "6.40"
    assert two_places(Fraction(1, 3)) == "0.33"
    assert two_places(Fraction(1, 8)) == "0.13"
    assert two_places(Fraction(5)) == "5.00"
    assert two_places(None) is None


def test_winners_lists_every_winning_seat() -> None:
    result = game(
        1,
        P6,
        SIX,
        {"atreides": "allied_stronghold", "emperor": "allied_stronghold"},
        alliances=(("atreides", "emperor"),),
    )
    assert winners(result) == (1, 3)


def test_awards_scoring_already_computed_are_taken_as_they_are() -> None:
    records = wbc_event()
    computed = event_report(records).awards
    given = event_report(replace(records, awards=computed[:1])).awards
    assert given == computed[:1]
    # A format without awards shows none, whatever it is handed.
    lolv = event_report(EventRecords(tournament=1, format="lolv", rounds=(), reports=(), awards=computed))
    assert lolv.awards == ()
