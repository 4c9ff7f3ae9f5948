"""The event report's shapes for the API, the CSV download and the page.

Means and rates leave as decimal strings rounded half up to two places ("6.40", "0.33");
a figure that cannot be computed (no game of that size, no clock record) is null, never 0.
People are named beside their ids; factions and result kinds by their display names in the
CSV and on the page.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from dune.engine.results import ENDING_WORDS
from dune.event_report.charts import percent, round_name
from dune.event_report.figures import EventReport, FactionFigures, two_places
from dune.points.numbers import fmt
from scoring.player_states import ordinal
from scoring.presenters import award_json, number

#: How a game may end, in words ("a victory", "the time limit"): the engine's own table.
ENDING_LABELS = ENDING_WORDS


def _factions(rows: Sequence[FactionFigures]) -> dict[str, dict[str, Any]]:
    return {f.faction: {"games": f.games, "wins": f.wins, "rate": two_places(f.rate)} for f in rows}


def report_json(report: EventReport, names: Mapping[Hashable, str]) -> dict[str, Any]:
    """The API's answer: the keys the event report promises, then the rest of the figures.

    Long because it lists every key of the public answer in one place, where API clients can read
    them.
    """
    final = report.final
    size_keys = {
        str(s.size): {
            "games": s.games,
            "turns_mean": two_places(s.turns.mean),
            "hours_mean": two_places(s.hours.mean),
            "turns_median": two_places(s.turns.median),
            "hours_median": two_places(s.hours.median),
            "timed_games": s.hours.games,
            "turns_distribution": {str(t): n for t, n in s.turns_histogram},
        }
        for s in report.by_size
    }
    return {
        "tournament": report.tournament,
        "provisional": report.provisional,
        "reopened": report.reopened,
        "players": report.players,
        "games": report.games,
        "turns_mean": two_places(report.turns.mean),
        "by_size": size_keys,
        "results": {kind.value: n for kind, n in report.results},
        "adjudicated": {"games": report.adjudicated, "rate": two_places(report.adjudicated_rate)},
        "factions": _factions(report.factions),
        "final": None
        if final is None
        else {
            "table": final.table,
            "table_number": final.table_number,
            "filed": final.filed,
            "seats": [
                {
                    "seat": s.seat,
                    "player": s.player,
                    "name": names.get(s.player, ""),
                    "faction": s.faction,
                    "result": s.result.value if s.result is not None else None,
                }
                for s in final.seats
            ],
            "winners": list(final.winners),
            "results": [k.value for k in final.results],
            "ended_by": final.ended_by,
            "turns": final.turns,
            "hours": two_places(final.hours),
        },
        # Beyond the promised keys:
        "format": report.format,
        "rounds": {
            "planned": len(report.rounds),
            "played": report.rounds_played,
            "by_round": [
                {
                    "round": r.number,
                    "kind": "final" if r.is_final else "heat",
                    "closed": r.closed,
                    "games": r.games,
                    "adjudicated": r.adjudicated,
                }
                for r in report.rounds
            ],
        },
        "heat_games": report.heat_games,
        "final_games": report.final_games,
        "turns_median": two_places(report.turns.median),
        "hours_mean": two_places(report.hours.mean),
        "hours_median": two_places(report.hours.median),
        "timed_games": report.hours.games,
        "untimed_games": report.untimed,
        "ended_by": dict(report.ended_by),
        "wins": {"solo": report.solo_wins, "alliance": {str(k): n for k, n in report.alliance_wins}},
        "concessions": report.concessions,
        "dropouts": report.dropouts,
        "factions_heats": _factions(report.factions_heats),
        "factions_final": _factions(report.factions_final),
        "awards_rule": report.awards_rule,
        "awards_how": report.awards_how or None,
        "awards": [{**award_json(a), "name": names.get(a.player, "")} for a in report.awards],
        "tiebreaks": [{"key": g.key, "summary": g.summary, "values": g.size} for g in report.tiebreaks],
        "finalists": [
            {
                "player": f.player,
                "name": names.get(f.player, ""),
                "points": number(f.points),
                "tiebreak": [number(v) for v in f.tiebreak],
                "disqualified": f.disqualified,
            }
            for f in report.finalists
        ],
        "champion": champion_json(report, names),
        "placings": [
            {"place": p.place, "tied": p.tied, "player": p.player, "name": names.get(p.player, ""), "reason": p.reason}
            for p in report.placings
        ],
    }


def champion_json(report: EventReport, names: Mapping[Hashable, str]) -> dict[str, Any] | None:
    """The final's 1st place (None until the final is filed): `player` and `name`, and the
    players sharing it when the criteria could not part them (`shared_with`)."""
    if not report.champion:
        return None
    first, *others = report.champion
    return {
        "player": first,
        "name": names.get(first, ""),
        "shared_with": [{"player": p, "name": names.get(p, "")} for p in others],
    }


def tiebreak_labelled(report: EventReport, values: Sequence[Any]) -> list[tuple[str, str]]:
    """Each tiebreak value with its label ("best game QP", "2"), in the format's order."""
    labels = [label for group in report.tiebreaks for label in group.labels]
    return [(label, fmt(v)) for label, v in zip(labels, values, strict=False)]


def csv_rows(
    report: EventReport, names: Mapping[Hashable, str], factions: Mapping[str, str]
) -> Iterator[tuple[str, str, str]]:
    """The figures as (section, item, value) lines, in the page's order.

    Long because it lists every line of the CSV in the page's order, in one place.
    """
    tp = two_places

    def text(value: object) -> str:
        return "" if value is None else str(value)

    yield ("report", "status", "provisional" if report.provisional else "final")
    yield ("headline", "players", str(report.players))
    yield ("headline", "games", str(report.games))
    yield ("headline", "heat games", str(report.heat_games))
    yield ("headline", "final games", str(report.final_games))
    yield ("headline", "rounds played", f"{report.rounds_played} of {len(report.rounds)}")
    yield ("headline", "turns mean", text(tp(report.turns.mean)))
    yield ("headline", "turns median", text(tp(report.turns.median)))
    yield ("headline", "hours mean", text(tp(report.hours.mean)))
    yield ("headline", "hours median", text(tp(report.hours.median)))
    yield ("headline", "games without a clock record", str(report.untimed))
    for s in report.by_size:
        label = f"{s.size}-player tables"
        yield (label, "games", str(s.games))
        yield (label, "turns mean", text(tp(s.turns.mean)))
        yield (label, "turns median", text(tp(s.turns.median)))
        yield (label, "hours mean", text(tp(s.hours.mean)))
        yield (label, "hours median", text(tp(s.hours.median)))
        yield (label, "games without a clock record", str(s.untimed))
        for turns, n in s.turns_histogram:
            yield (label, f"games of {turns} turns", str(n))
    for kind, n in report.results:
        yield ("results", report.result_labels[kind], str(n))
    for ending, n in report.ended_by:
        yield ("ended by", ENDING_LABELS.get(ending, ending), str(n))
    yield ("wins", "solo", str(report.solo_wins))
    for size, n in report.alliance_wins:
        yield ("wins", f"{size}-faction alliance", str(n))
    yield ("adjudicated", "games", str(report.adjudicated))
    yield ("adjudicated", "rate", text(tp(report.adjudicated_rate)))
    for r in report.rounds:
        yield ("adjudicated", round_name(r), f"{r.adjudicated} of {r.games}")
    yield ("headline", "concessions", str(report.concessions))
    yield ("headline", "dropouts", str(report.dropouts))
    for section, rows in (
        ("factions in the heats", report.factions_heats),
        ("factions in the final", report.factions_final),
    ):
        for f in rows:
            name = factions.get(f.faction, f.faction)
            yield (section, f"{name} games", str(f.games))
            yield (section, f"{name} wins", str(f.wins))
            yield (section, f"{name} win rate", text(tp(f.rate)))
    for a in report.awards:
        yield (
            "best-faction awards",
            factions.get(a.faction, a.faction),
            f"{names.get(a.player, a.player)}: {fmt(a.score)} ({fmt(a.figure)} {a.unit}, {a.turns} turns, "
            f"{a.players} players, heat {a.round_number}){' tied' if a.tied else ''}",
        )
    for f in report.finalists:
        parts = "; ".join(f"{label} {value}" for label, value in tiebreak_labelled(report, f.tiebreak))
        yield ("finalists", str(names.get(f.player, f.player)), f"{fmt(f.points)} points; {parts}")
    for p in report.placings:
        yield (
            _("final placings"),
            ordinal(p.place) + (" " + _("(tied)") if p.tied else ""),
            f"{names.get(p.player, p.player)}: {p.reason}",
        )
    for player in report.champion:
        yield (_("champion"), str(names.get(player, player)), _("1st in the final"))
    final = report.final
    if final is not None:
        for s in final.seats:
            result = report.result_labels.get(s.result, s.result.value) if s.result else "not filed"
            yield (
                "final",
                f"seat {s.seat}",
                f"{names.get(s.player, s.player)}, {factions.get(s.faction or '', s.faction or '')}, {result}",
            )
        if final.filed:
            yield ("final", "ended by", ENDING_LABELS.get(final.ended_by or "", final.ended_by or ""))
            yield ("final", "turns", text(final.turns))
            yield ("final", "hours", text(tp(final.hours)) or "no clock record")


__all__ = ["ENDING_LABELS", "csv_rows", "percent", "report_json", "tiebreak_labelled"]
