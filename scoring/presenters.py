"""JSON and text shapes of scoring answers (API, pages and CSV share them).

Exact Fractions leave as Decimals: halves and tenths stay exact, normalised PP scores are
rounded to three places as the WBC text shows them (1.131) with the exact value beside.
"""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext, ngettext, pgettext

from dune.engine.ids import ResultKind
from dune.points import Award, Finalists, StandingRow
from dune.points.numbers import fmt, to_decimal
from foundation.core_words import core_word
from scoring.models import GameReport
from scoring.player_states import PlayerState


def number(value: Fraction | int) -> Decimal | int:
    """An exact value for JSON: ints stay ints, Fractions become Decimals (3 places at most)."""
    if isinstance(value, int):
        return value
    if value.denominator == 1:
        return value.numerator
    return to_decimal(value)


def dotted(values: tuple[Fraction | int, ...]) -> str:
    """A tiebreak tuple the way the rule texts write it: 2.4.2.2.4.2.1."""
    return ".".join(fmt(v) for v in values)


def separated(values: tuple[Fraction | int, ...]) -> str:
    """A tiebreak tuple for pages: values apart by "·", so a decimal point never reads as a separator."""
    return " · ".join(fmt(v) for v in values)


def tiebreak_columns(labels: tuple[str, ...]) -> list[dict[str, str]]:
    """Column headings for the tiebreak values: the label in words, its rule number apart
    ("best game win attempts" with "4.01.10.01"), so every value sits under a name."""
    columns = []
    for label in labels:
        words, _, rule = label.partition(" (")
        columns.append({"heading": words, "rule": rule.rstrip(")"), "label": label})
    return columns


def points_words(value: Fraction | int) -> str:
    """Points with the right plural, in the reader's language: "1 point", "0 points", "1.5 points"."""
    return ngettext("%(points)s point", "%(points)s points", 1 if value == 1 else 2) % {"points": fmt(value)}


def standing_json(row: StandingRow) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "tied": row.tied,
        "player": row.player,
        "points": number(row.points),
        "tiebreak": [number(v) for v in row.tiebreak],
        "disqualified": row.disqualified,
        "games": row.games,
        "results": [r.value for r in row.results],
        "explanation": row.explanation,
    }


def finalists_json(finalists: Finalists, placings: Any = ()) -> dict[str, Any]:
    body: dict[str, Any] = {
        "finalists": list(finalists.finalists),
        "alternates": list(finalists.alternates),
        "drawn_by_lot": list(finalists.drawn_by_lot),
    }
    if placings:
        body["placings"] = [
            {"place": p.place, "tied": p.tied, "player": p.player, "reason": p.reason} for p in placings
        ]
    return body


def award_json(award: Award) -> dict[str, Any]:
    return {
        "faction": award.faction,
        "player": award.player,
        "score": number(award.score),
        "score_exact": f"{award.score.numerator}/{award.score.denominator}",
        "pp": number(award.pp),
        "strongholds": award.strongholds,
        "measure": award.measure,
        "figure": number(award.figure),
        "unit": award.unit,
        "turns": award.turns,
        "players": award.players,
        "round": award.round_number,
        "table": award.table,
        "tied": award.tied,
    }


def report_json(report: GameReport) -> dict[str, Any]:
    return {
        "table": report.table_id,
        "state": report.state,
        "locked": report.locked,
        "version": report.version,
        "filed_at": report.filed_at.isoformat(),
        "filed_by": report.filed_by_id,
        "reopened_at": report.reopened_at.isoformat() if report.reopened_at else None,
        "reopen_reason": report.reopen_reason,
        "report": report.data,
    }


def state_json(state: PlayerState) -> dict[str, Any]:
    """One player's derived state (`scoring.player_states`) as the API gives it."""
    return {
        "player": state.player,
        "state": state.key,
        "words": state.words,
        "in_final": state.in_final,
        "alternate": state.alternate,
        "came_in_as_alternate": state.came_in_as_alternate,
        "place": state.place,
    }


def system_description(system: Any) -> str:
    """A points system's summary (its `description`) in the reader's language: the points per
    result kind, the order of the tiebreaks and who qualifies."""
    shown: dict[str, Any] = {}
    for kind, entry in system.table.items():
        if kind not in (ResultKind.LOSS, ResultKind.DROPOUT):
            shown.setdefault(entry.label, entry)
    lines = ", ".join(f"{core_word(e.label)} {fmt(e.points)} ({e.rule})" for e in shown.values())
    between = pgettext("between the tiebreaks of a points system", "; then ")
    ties = between.join(core_word(tb.summary or tb.key) for tb in system.precedence.tiebreakers)
    text = gettext(
        "%(name)s (%(text)s). Points per game: %(lines)s; losses 0. Order: total points, then %(ties)s. "
        "The top %(seats)s qualify for the final; "
    ) % {"name": system.name, "text": system.text, "lines": lines, "ties": ties, "seats": system.finalist_seats}
    if system.alternates is None:
        return text + gettext("the others are alternates in order.")
    return text + gettext(
        "the next %(alternates)s are alternates in order, with any player tied with the last of them."
    ) % {"alternates": system.alternates}


_EXPLANATION = re.compile(
    r"^(?P<points>\S+) points from (?P<games>\d+) games?: (?P<wins>.*?)\. Tiebreak: (?P<named>.*?)\."
    r"(?: Disqualified: dropped out in round (?P<round>\d+) \((?P<rule>.*)\)\.)?$"
)
_WIN = re.compile(r"^(?P<n>\d+)x (?P<label>.+) \((?P<rule>[^()]*)\)$")


def explanation_words(explanation: str, labels: tuple[str, ...]) -> str:
    """A standings row's explanation (dune.points' sentence on how the points and the tiebreak
    were made) in the reader's language; a sentence of another shape as it is."""
    found = _EXPLANATION.match(explanation)
    if found is None:
        return explanation
    wins = []
    for part in found["wins"].split(", "):
        win = _WIN.match(part)
        wins.append(f"{win['n']}x {core_word(win['label'])} ({win['rule']})" if win else core_word(part))
    games = int(found["games"])
    text = ngettext(
        "%(points)s points from %(games)s game: %(wins)s.", "%(points)s points from %(games)s games: %(wins)s.", games
    ) % {"points": found["points"], "games": games, "wins": ", ".join(wins)}
    named = []
    for part in found["named"].split(", "):
        label = next((lb for lb in sorted(labels, key=len, reverse=True) if part.startswith(f"{lb} ")), None)
        named.append(f"{core_word(label)} {part[len(label) + 1:]}" if label else part)
    text += " " + gettext("Tiebreak: %(values)s.") % {"values": ", ".join(named)}
    if found["round"]:
        text += " " + gettext("Disqualified: dropped out in round %(round)s (%(rule)s).") % {
            "round": found["round"], "rule": found["rule"]}
    return text
