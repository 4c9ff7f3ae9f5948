"""The event report's shapes for the API, the CSV download and the page.

Means and rates leave as decimal strings rounded half up to two places ("6.40", "0.33");
a figure that cannot be computed (no game of that size, no clock record) is null, never 0.
People are named beside their ids; factions and result kinds by their display names in the
CSV and on the page.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from dune.engine.results import ENDING_WORDS
from dune.event_report.charts import percent, round_name
from dune.event_report.figures import EventReport, FactionFigures, two_places
from dune.points.numbers import fmt
from foundation.core_words import core_word
from scoring.player_states import ordinal
from scoring.presenters import award_json, number


def ending_label(ending: str | None) -> str:
    """How a game ended, in the reader's words ("a victory", "the time limit"): the engine's own
    table, translated; an unknown key as it is."""
    return core_word(ENDING_WORDS.get(ending or "", ending or ""))


def result_label(report: EventReport, kind: Any) -> str:
    """A result kind as the format's points table names it, in the reader's words."""
    return core_word(report.result_labels.get(kind, kind.value))


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
    labels = [core_word(label) for group in report.tiebreaks for label in group.labels]
    return [(label, fmt(v)) for label, v in zip(labels, values, strict=False)]


def _size_rows(report: EventReport) -> Iterator[tuple[str, str, str]]:
    tp, text = two_places, _text
    for s in report.by_size:
        label = _("%(size)s-player tables") % {"size": s.size}
        yield (label, pgettext("event report CSV", "games"), str(s.games))
        yield (label, pgettext("event report CSV", "turns mean"), text(tp(s.turns.mean)))
        yield (label, pgettext("event report CSV", "turns median"), text(tp(s.turns.median)))
        yield (label, pgettext("event report CSV", "hours mean"), text(tp(s.hours.mean)))
        yield (label, pgettext("event report CSV", "hours median"), text(tp(s.hours.median)))
        yield (label, pgettext("event report CSV", "games without a clock record"), str(s.untimed))
        for turns, n in s.turns_histogram:
            yield (label, ngettext("games of %(turns)s turn", "games of %(turns)s turns", turns) % {"turns": turns}, str(n))


def _text(value: object) -> str:
    return "" if value is None else str(value)


def csv_rows(
    report: EventReport, names: Mapping[Hashable, str], factions: Mapping[str, str]
) -> Iterator[tuple[str, str, str]]:
    """The figures as (section, item, value) lines, in the page's order, in the reader's words.

    Long because it lists every line of the CSV in the page's order, in one place.
    """
    tp, text, of = two_places, _text, _("%(part)s of %(whole)s")
    headline = pgettext("event report CSV", "headline")
    status = pgettext("event report CSV", "provisional") if report.provisional else pgettext("event report CSV", "final")
    yield (pgettext("event report CSV", "report"), pgettext("event report CSV", "status"), status)
    yield (headline, pgettext("event report CSV", "players"), str(report.players))
    yield (headline, pgettext("event report CSV", "games"), str(report.games))
    yield (headline, pgettext("event report CSV", "heat games"), str(report.heat_games))
    yield (headline, pgettext("event report CSV", "final games"), str(report.final_games))
    yield (headline, pgettext("event report CSV", "rounds played"), of % {"part": report.rounds_played, "whole": len(report.rounds)})
    yield (headline, pgettext("event report CSV", "turns mean"), text(tp(report.turns.mean)))
    yield (headline, pgettext("event report CSV", "turns median"), text(tp(report.turns.median)))
    yield (headline, pgettext("event report CSV", "hours mean"), text(tp(report.hours.mean)))
    yield (headline, pgettext("event report CSV", "hours median"), text(tp(report.hours.median)))
    yield (headline, pgettext("event report CSV", "games without a clock record"), str(report.untimed))
    yield from _size_rows(report)
    for kind, n in report.results:
        yield (pgettext("event report CSV", "results"), result_label(report, kind), str(n))
    for ending, n in report.ended_by:
        yield (pgettext("event report CSV", "ended by"), ending_label(ending), str(n))
    yield (pgettext("event report CSV", "wins"), pgettext("event report CSV", "solo"), str(report.solo_wins))
    for size, n in report.alliance_wins:
        yield (pgettext("event report CSV", "wins"), _("%(size)s-faction alliance") % {"size": size}, str(n))
    adjudicated = pgettext("event report CSV", "adjudicated")
    yield (adjudicated, pgettext("event report CSV", "games"), str(report.adjudicated))
    yield (adjudicated, pgettext("event report CSV", "rate"), text(tp(report.adjudicated_rate)))
    for r in report.rounds:
        yield (adjudicated, round_name(r, translation), of % {"part": r.adjudicated, "whole": r.games})
    yield (headline, pgettext("event report CSV", "concessions"), str(report.concessions))
    yield (headline, pgettext("event report CSV", "dropouts"), str(report.dropouts))
    for section, rows in (
        (pgettext("event report CSV", "factions in the heats"), report.factions_heats),
        (pgettext("event report CSV", "factions in the final"), report.factions_final),
    ):
        for f in rows:
            name = {"faction": factions.get(f.faction, f.faction)}
            yield (section, _("%(faction)s games") % name, str(f.games))
            yield (section, _("%(faction)s wins") % name, str(f.wins))
            yield (section, _("%(faction)s win rate") % name, text(tp(f.rate)))
    for a in report.awards:
        award = _("%(name)s: %(score)s (%(figure)s %(unit)s, %(turns)s turns, %(players)s players, heat %(round)s)") % {
            "name": names.get(a.player, a.player), "score": fmt(a.score), "figure": fmt(a.figure), "unit": a.unit,
            "turns": a.turns, "players": a.players, "round": a.round_number,
        }
        yield (pgettext("event report CSV", "best-faction awards"), factions.get(a.faction, a.faction), award + (" " + _("tied") if a.tied else ""))
    for f in report.finalists:
        parts = "; ".join(f"{label} {value}" for label, value in tiebreak_labelled(report, f.tiebreak))
        yield (pgettext("event report CSV", "finalists"), str(names.get(f.player, f.player)),
               _("%(points)s points; %(tiebreaks)s") % {"points": fmt(f.points), "tiebreaks": parts})
    for p in report.placings:
        yield (
            _("final placings"),
            ordinal(p.place) + (" " + _("(tied)") if p.tied else ""),
            f"{names.get(p.player, p.player)}: {core_word(p.reason)}",
        )
    for player in report.champion:
        yield (_("champion"), str(names.get(player, player)), _("1st in the final"))
    yield from _final_rows(report, names, factions)


def _final_rows(
    report: EventReport, names: Mapping[Hashable, str], factions: Mapping[str, str]
) -> Iterator[tuple[str, str, str]]:
    final = report.final
    if final is None:
        return
    section = pgettext("event report CSV, the final round", "final")
    for s in final.seats:
        result = result_label(report, s.result) if s.result else _("not filed")
        yield (
            section,
            _("seat %(seat)s") % {"seat": s.seat},
            f"{names.get(s.player, s.player)}, {factions.get(s.faction or '', s.faction or '')}, {result}",
        )
    if final.filed:
        yield (section, pgettext("event report CSV", "ended by"), ending_label(final.ended_by))
        yield (section, pgettext("event report CSV", "turns"), _text(final.turns))
        yield (section, pgettext("event report CSV", "hours"), _text(two_places(final.hours)) or _("no clock record"))


__all__ = ["csv_rows", "ending_label", "percent", "report_json", "result_label", "tiebreak_labelled"]
