"""A round's state: the one definition every page and the API read.

A round is

- **planned**: it exists, nobody is seated yet;
- **seated**: its tables are drawn but the seating is not published (only head judges see it);
- **published**: players can read their tables; no clock has started and no game has begun;
- **running**: published, and a table's clock has started or its game record has begun;
- **finished**: the head judge closed it, or every table has its game report filed.

The head judge's steps (publish, close) are stored on the round (`Round.state`); the rest
is read from the round's tables: `Table.clock_started_at` (written by the clocks),
`Table.game_started_at` (by the game log) and `Table.report_filed_at` (by scoring).
`state_of` is pure over those counts; `with_states` annotates a queryset with them in one query.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext_lazy, ngettext

from tournament.models import Round

PLANNED = "planned"
SEATED = "seated"
PUBLISHED = "published"
RUNNING = "running"
FINISHED = "finished"
STATES = (PLANNED, SEATED, PUBLISHED, RUNNING, FINISHED)

#: The word a page shows for each state (the API's `state`, capitalised).
LABELS = {
    PLANNED: gettext_lazy("Planned"),
    SEATED: gettext_lazy("Seated"),
    PUBLISHED: gettext_lazy("Published"),
    RUNNING: gettext_lazy("Running"),
    FINISHED: gettext_lazy("Finished"),
}
#: What the state means, for the line under the word.
MEANINGS = {
    PLANNED: gettext_lazy("nobody is seated yet"),
    SEATED: gettext_lazy("tables drawn, seating not published yet"),
    PUBLISHED: gettext_lazy("players can see their tables; no clock started yet"),
    RUNNING: gettext_lazy("games under way"),
    FINISHED: gettext_lazy("every report filed or the round closed"),
}


@dataclass(frozen=True)
class RoundState:
    key: str
    tables: int
    started: int
    reported: int

    @property
    def label(self) -> str:
        return LABELS[self.key]

    @property
    def meaning(self) -> str:
        """What the state means now, e.g. "3 of 8 reports filed" (the line beside its badge)."""
        if self.key in (RUNNING, PUBLISHED) and self.tables:
            return ngettext(
                "%(reported)s of %(tables)s report filed", "%(reported)s of %(tables)s reports filed", self.tables
            ) % {"reported": self.reported, "tables": self.tables}
        return MEANINGS[self.key]

    @property
    def detail(self) -> str:
        """The state's word with what it means now, e.g. "Running: 3 of 8 reports filed"."""
        return f"{self.label}: {self.meaning}"

    @property
    def running(self) -> bool:
        return self.key == RUNNING

    @property
    def finished(self) -> bool:
        return self.key == FINISHED

    @property
    def open_for_check_in(self) -> bool:
        """Players check in for a round until its seating is published."""
        return self.key in (PLANNED, SEATED)


def state_of(stage: str, *, tables: int, started: int, reported: int) -> RoundState:
    """The state of a round whose stored step is `stage` (planned, published or finished),
    with `tables` tables, `started` of them with a clock or a game begun, `reported` filed."""
    if stage == Round.State.FINISHED or (stage == Round.State.PUBLISHED and tables and reported >= tables):
        key = FINISHED
    elif stage == Round.State.PUBLISHED:
        key = RUNNING if started or reported else PUBLISHED
    else:
        key = SEATED if tables else PLANNED
    return RoundState(key=key, tables=tables, started=started, reported=reported)


def state_from_tables(stage: str, tables: list[Any]) -> RoundState:
    """The state of a round whose `tables` (Table rows) are already loaded: no query."""
    return state_of(
        stage,
        tables=len(tables),
        started=sum(1 for t in tables if t.clock_started_at or t.game_started_at),
        reported=sum(1 for t in tables if t.report_filed_at),
    )


_COUNTS = {
    "state_tables": Count("tables", distinct=True),
    "state_started": Count(
        "tables",
        filter=Q(tables__clock_started_at__isnull=False) | Q(tables__game_started_at__isnull=False),
        distinct=True,
    ),
    "state_reported": Count("tables", filter=Q(tables__report_filed_at__isnull=False), distinct=True),
}


def with_states(rounds: QuerySet[Round]) -> QuerySet[Round]:
    """The rounds annotated with what `round_state` needs (one query for all of them)."""
    return rounds.annotate(**_COUNTS)


def round_state(round_: Any) -> RoundState:
    """The round's state; reads the counts from `with_states` annotations when present."""
    if not hasattr(round_, "state_tables"):
        counts = Round.objects.filter(pk=round_.pk).aggregate(**_COUNTS)
        for name, value in counts.items():
            setattr(round_, name, value)
    return state_of(
        round_.state, tables=round_.state_tables, started=round_.state_started, reported=round_.state_reported
    )


def attach_states(rounds: list[Any]) -> list[Any]:
    """Set `.current` (a RoundState) on each round (annotated by `with_states` or not)."""
    for r in rounds:
        r.current = round_state(r)
    return rounds


def next_to_seat(rounds: list[Any]) -> Any | None:
    """The round players check in for: the first (by number) whose seating is not published."""
    return next((r for r in sorted(rounds, key=lambda r: r.number) if round_state(r).open_for_check_in), None)
