"""What the table judge's page shows, read from the cached snapshot and evaluation.

A fixed number of queries whatever the length of the log: the game row (snapshot and
evaluation), the seats, the last few events, the void events, the filed report.

`page_context` reads in four steps, each a small function below: what this viewer may read of
the record (`Reading`), which forms the engine offers now (`Offer`), the next step of the turn
and its buttons, and the page's parts (the record, the evaluation, the judge's forms). The
board tables are in `page_board.py`, the forms' contents in `page_forms.py`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from django.http import HttpRequest
from django.utils import translation
from django.utils.translation import gettext as _

from dune import turn_flow
from dune.engine.codec.schema import SnapshotView
from dune.engine.evaluation import Evaluation
from dune.engine.names import faction_name
from gameplay import engine_adapter as rules
from gameplay import presenters
from gameplay.models import Game
from gameplay.services import game_events, position_of, voided_seqs
from tournament.permissions import can_judge_table, is_head_judge
from tournament.table_state import TableState, state_of
from web.gameplay.actions import ACTION_EVENTS, NEXT_TURN
from web.gameplay.page_board import (
    FACTION_COLUMNS,
    faction_rows,
    grid,
    pieces,
    spice_on_board,
    stronghold_tiles,
)
from web.gameplay.page_forms import (
    INCOME_STEP_PHASES,
    THEN_ACTIONS,
    battle_forms,
    expansion_pieces,
    form_defaults,
    income_forms,
    judge_forms,
    move_kinds,
    priced,
    removed_by_engine,
    with_picked,
    worm_territory,
)

#: The full-tracking fold that holds each phase's own records: open as the phase begins, so
#: its forms are a tap away in the next step's box (CHOAM Charity and bidding: spice and
#: cards; revival, shipment and movement, battle: forces).
# The phone's cache of the table pages and their assets: the service worker fills it and serves
# from it offline, and the page puts its own labelled copy there after every answer. Bumped when
# the worker's asset list changes; the worker drops every other cache when it takes over.
OFFLINE_CACHE = "table-pages-v2"

PHASE_FOLDS = {"choam_charity": "spice-cards-leaders", "bidding": "spice-cards-leaders", "revival": "forces-forms",
               "shipment_movement": "forces-forms", "battle": "forces-forms"}


#: How many recent events the page lists (with their void buttons).
RECENT = 12


def _quick_then(
    step: turn_flow.Step, phase_choices: list[str], turn: int | None, *, last_turn: bool, phases: list[str],
) -> tuple[str, str] | None:
    """Quick tracking's usual answer of two steps in one tap, as the `then` value and the
    label of the next step's first button: the storm moved and no worm in the spice blow, on to
    the battle phase (a phase skipped, never gone back to: LoLV 1.00.00, AH V); the Mentat Pause
    with nobody winning and the next turn (LoLV 1.09.04). The engine checks both records: a
    victory that stands, the last turn or a clock run out refuse the pair and record neither.
    None where the step has no such pair."""
    if step.key == "move_storm" and "battle" in phases:
        return "battle", _("Move, no worm: battle phase")
    if step.key == "battle_done" and step.advance_to == "mentat_pause" and "mentat_pause" in phase_choices \
            and not last_turn and turn is not None:
        return NEXT_TURN, _("Nobody wins: next turn (%(turn)s)") % {"turn": turn + 1}
    return None


#: The judge's sections in their usual order; the next step's own section moves first.
SECTIONS = ("setup", "nexus", "attempts", "quick", "flow", "full", "ending")


def _sections(step: turn_flow.Step, *, judge: bool) -> list[str]:
    """The judge's sections below the faction table; the next step's own section is inside
    the next step's box (`step_section`), at the top."""
    if not judge:
        return []
    return [f"gameplay/sections/{name}.html" for name in SECTIONS if name != step.section]


def _this_phase(recent_rows: list[dict[str, Any]]) -> list[str]:
    """Event types recorded (and not voided) since the current phase began, oldest first."""
    types: list[str] = []
    for row in recent_rows:  # newest first
        if row["type"] in ("phase_advanced", "turn_advanced", "game_setup"):
            break
        if not row.get("voided") and row["type"] != "void":
            types.append(row["type"])
    return types[::-1]


def _next_phase(phase: str | None, phase_list: list[str]) -> str | None:
    """The phase after `phase`: setup goes on to turn 1's storm phase; after the Mentat Pause
    comes a new turn (no next phase)."""
    if phase in phase_list[:-1]:
        return phase_list[phase_list.index(phase) + 1]
    return phase_list[0] if phase == "setup" else None


def _attempts(snapshot: Mapping[str, Any] | SnapshotView, answer: Evaluation | None, turn: Any) -> tuple[list[list[str]], list[list[str]]]:
    """The win attempts the engine proposes that are not yet confirmed this turn, and the
    confirmed ones (LoLV 4.01.04)."""
    done = {tuple(sorted(side)) for t, side in SnapshotView.of(snapshot).attempts if t == turn}
    proposed = answer.win_attempts if answer is not None else ()
    proposals = [list(side) for side in proposed if tuple(sorted(side)) not in done]
    return proposals, [list(side) for side in sorted(done)]


@dataclasses.dataclass(frozen=True)
class Reading:
    """The record as this viewer may read it: a judge reads everything; anyone else reads the
    snapshot (`shown`) and the evaluation (`answer`) with the hidden parts taken out. The
    faction table and the judge's forms read the whole `snapshot`."""

    judge: bool
    head: bool
    snapshot: Mapping[str, Any]
    shown: Mapping[str, Any]
    view: SnapshotView
    answer: Evaluation | None
    seats: list[Any]
    factions: list[str]
    recent_rows: list[dict[str, Any]]
    phase: str | None
    turn: Any
    state: TableState
    quick: bool

    @property
    def full(self) -> bool:
        """A judge's page in full tracking: every form of the record is offered."""
        return self.judge and not self.quick


@dataclasses.dataclass(frozen=True)
class Offer:
    """What the engine accepts now, for the judge's forms (nothing for anyone else, nor under a
    filed report): the forms, the phases the game may advance to, the engine's offers and the
    phase the main button goes to."""

    can: set[str]
    phase_choices: list[str]
    offered: dict[str, Any]
    next_phase: str | None


def read_record(user: Any, table: Any, game: Game, filed: Any) -> Reading:
    """The game's record as `user` may read it, with the table's state."""
    judge = can_judge_table(user, table)
    snapshot: Mapping[str, Any] = game.position or {}
    view = SnapshotView.of(snapshot)
    answer = rules.answer_of(game.evaluation)
    shown = snapshot if judge else rules.redact(snapshot, answer)
    if not judge:
        answer = rules.redact_answer(snapshot, answer)
    seats = list(table.seats.select_related("player").order_by("seat"))
    recent = game_events(game, latest=RECENT)
    voided = voided_seqs(game.events.filter(type="void")) if game.pk is not None else set()
    return Reading(
        judge=judge,
        head=is_head_judge(user, table.round.tournament),
        snapshot=snapshot,
        shown=shown,
        view=view,
        answer=answer,
        seats=seats,
        factions=[s.faction for s in seats],
        recent_rows=presenters.events_json(recent, game=game, judge=judge, voided=voided),
        phase=answer.phase if answer is not None else view.phase,
        turn=answer.turn if answer is not None else view.turn,
        state=_table_state(table, answer, view, filed),
        quick=game.tracking == Game.Tracking.QUICK,
    )


def _table_state(table: Any, answer: Evaluation | None, view: SnapshotView, filed: Any) -> TableState:
    """The table's state (`tournament.table_state`); a report filed in this request may not be
    on the loaded row yet, so the filed report counts too."""
    return state_of(
        game_started=table.game_started_at is not None,
        clock_started=table.clock_started_at is not None,
        filed=table.report_filed_at is not None or bool(filed is not None and filed.locked),
        decided=bool(answer is not None and answer.outcome) or view.ended,
    )


def offer(record: Reading, game: Game, phase_list: list[str], error: dict[str, Any] | None) -> Offer:
    """The forms the engine accepts now; a filed report closes the record, so nothing is
    offered under it."""
    next_phase = _next_phase(record.phase, phase_list)
    if not record.judge or record.state.filed:
        return Offer(can=set(), phase_choices=[], offered={}, next_phase=next_phase)
    can, phase_choices, offered = judge_forms(game, error=error)
    if next_phase not in phase_choices:
        next_phase = phase_choices[0] if phase_choices else None
    return Offer(can=can, phase_choices=phase_choices, offered=offered, next_phase=next_phase)


def next_step(record: Reading, offers: Offer, proposals: list[list[str]]) -> turn_flow.Step:
    """The next step of the turn (`dune.turn_flow`) with its section and main button."""
    can = offers.can
    step = turn_flow.next_step(
        phase=record.phase, turn=record.turn, storm=record.view.storm, this_phase=_this_phase(record.recent_rows),
        nexus_open=record.view.nexus and bool(can & {"form_alliance", "break_alliance"}),
        proposals=len(proposals) if "confirm_win_attempt" in can else 0,
        victory_proposed=record.answer is not None and bool(record.answer.victory) and "claim_victory" in can,
        allowed={ACTION_EVENTS[action] for action in can}, quick=record.quick,
        # A filed report ends the game, even one judged on paper with no result in the record.
        over=record.state.over,
        next_phase=offers.next_phase,
        to_place=[faction_name(f) for f in offers.offered.get("to_place") or ()],
        words=translation,
    )
    if record.full and step.key == "next_turn" and "moritani" in record.factions and "place_terror" in can:
        # The Moritani place their Terror tokens at the Mentat Pause (LoLV 2.12.05): the forms
        # come with the next turn's button, at the top.
        step = dataclasses.replace(step, section="full")
    stands = record.answer.victory if record.answer is not None else None
    if stands is not None and step.advance_to == "mentat_pause":
        # A faction (or an alliance) holds what wins: the main button goes to the Mentat Pause,
        # where the victory is confirmed, never on to another turn (LoLV 1.09.02, AH IV.A).
        step = dataclasses.replace(step, advance_label=_("Mentat Pause: %(winners)s win") % {
            "winners": " & ".join(faction_name(f) for f in stands.winners)})
    return step


def step_buttons(record: Reading, offers: Offer, step: turn_flow.Step, phase_list: list[str]) -> dict[str, Any]:
    """The buttons that take more than one step: in full tracking a form's second button
    records its event and moves on to the next phase in one request, and the phases after it
    are a tap away too (skipped phases allowed); quick tracking's usual pair of steps."""
    choices = offers.phase_choices
    reachable = record.full and offers.next_phase in choices
    then_to = offers.next_phase if reachable else None
    if then_to == "spice_collection" and not record.view.spice_on_board and "mentat_pause" in choices:
        then_to = "mentat_pause"  # no spice lies on the board: nothing to collect (LoLV 1.08, AH XI)
    later = choices[choices.index(offers.next_phase) + 1:] if reachable else []
    undecided = record.answer is None or record.answer.victory is None
    return {
        "then_to": then_to,
        "then_label": turn_flow.phase_label(then_to, translation) if then_to else "",
        "then_actions": THEN_ACTIONS.get(record.phase or "", frozenset()) if then_to else frozenset(),
        "quick_then": _quick_then(step, choices, record.turn, last_turn=record.view.last_turn, phases=phase_list)
        if record.judge and record.quick and undecided else None,
        "later_phases": [(p, turn_flow.phase_label(p, translation)) for p in later],
    }


def record_parts(record: Reading, table: Any, game: Game) -> dict[str, Any]:
    """The record as everyone reads it: the table, the turn and phase, the board's tables and
    the recent records."""
    shown, factions = record.shown, record.factions
    control = record.answer.control if record.answer is not None else {}
    return {
        "table": table,
        "tournament": table.round.tournament,
        "round": table.round,
        "game": game,
        "seq": game.seq,
        "judge": record.judge,
        "head": record.head,
        "snapshot": shown,
        "turn": record.turn,
        "phase": record.phase,
        "storm": record.view.storm,
        "worms": record.view.worms,
        "nexus_open": record.view.nexus,
        # In board order, whatever order the stored evaluation kept its keys in.
        "control": stronghold_tiles(shown, control),
        "factions": factions,
        "rows": faction_rows(record.snapshot, record.answer, record.seats),
        "faction_columns": FACTION_COLUMNS,
        "phase_fold": None if record.quick else PHASE_FOLDS.get(record.phase or ""),
        "prediction": SnapshotView.of(shown).bg_prediction,
        "bg_in_game": "bene_gesserit" in factions,
        # A heat of six under the WBC: three factions ally only if the table agreed at the start.
        "three_alliances": record.view.three_alliances and len(factions) == 6,
        "spice_on_board": spice_on_board(record.snapshot),
        "leader_states": rules.leader_states(),
        "recent": record.recent_rows,
        "poll_etag": presenters.game_etag(game, judge=record.judge),
        "ended": record.state.over,
        "table_state": record.state,
    }


def evaluation_parts(answer: Evaluation | None) -> dict[str, Any]:
    """The engine's evaluation as the page reads it: who wins, the end of the game, an
    adjudication, the outcome."""
    if answer is None:
        return dict.fromkeys(("answer", "victory", "end_of_game", "adjudication", "outcome"))
    return {"answer": answer, "victory": answer.victory, "end_of_game": answer.end_of_game,
            "adjudication": answer.adjudication, "outcome": answer.outcome}


def judge_parts(record: Reading, offers: Offer, game: Game, values: dict[str, Any] | None) -> dict[str, Any]:
    """The judge's forms and their choices; empty for anyone else. A refused form (`values`)
    keeps what the judge typed and picked."""
    can, offered = offers.can, offers.offered
    fights = "battle" in can
    cite = rules.citations(game.ruleset)
    parts: dict[str, Any] = {
        "can": can,
        "phase_choices": offers.phase_choices,
        # The alliance forms list what the engine accepts now; a refused form keeps its picks.
        "allies": with_picked(offered.get("allies") or [], values, "form_alliance", record.factions),
        "breakers": with_picked(offered.get("breakers") or [], values, "break_alliance", record.factions),
        "to_place": [faction_name(f) for f in offered.get("to_place") or ()],
        "battles": battle_forms(position_of(game), values) if fights else [],
        "battle_cards": rules.battle_cards(game.ruleset) if fights else {},
        "stone_burner": fights and "stone_burner" in cite,
        "income_in_step": record.phase in INCOME_STEP_PHASES,
        **_full_tracking_parts(record, offers, game, cite),
    }
    if not record.judge:
        return parts | dict.fromkeys(("grid", "removed", "pieces", "territories", "blow_choices", "leaders"), [])
    hms = "ixians" in record.factions
    return parts | {
        "grid": grid(record.snapshot, record.answer),
        "removed": removed_by_engine(record.snapshot, values),
        "pieces": pieces(hms=hms),
        "territories": rules.territory_choices(hms=hms),
        "blow_choices": rules.spice_blow_choices(),
        "leaders": [(f"{f}|{lid}", f"{faction_name(f)}: {name}") for f in record.factions
                    for lid, name in rules.leaders_of(f)],
    }


def _full_tracking_parts(record: Reading, offers: Offer, game: Game, cite: Mapping[str, str]) -> dict[str, Any]:
    """What only full tracking's forms start from: the defaults, the kinds of move and the
    income rounds."""
    if not record.full:
        return {"defaults": {}, "move_kinds": [], "income_forms": {}}
    return {
        "defaults": priced(game, form_defaults(record.snapshot, record.recent_rows, worm_territory(game))),
        "move_kinds": move_kinds(offers.offered, cite, _this_phase(record.recent_rows)),
        "income_forms": income_forms(game, offers.can),
    }


def _just_done(record: Reading, error: dict[str, Any] | None) -> str | None:
    """The event type just refused, or else just recorded: its form's block stays open."""
    refused = ACTION_EVENTS.get((error or {}).get("action", ""))
    return refused or (record.recent_rows[0]["type"] if record.recent_rows else None)


def page_context(
    request: HttpRequest,
    table: Any,
    game: Game,
    *,
    error: dict[str, Any] | None = None,
    stale: dict[str, Any] | None = None,
    values: dict[str, Any] | None = None,
    filed: Any = None,
) -> dict[str, Any]:
    """Everything the table page shows; `filed` is the table's filed game report, if any."""
    record = read_record(request.user, table, game, filed)
    phase_list = list(rules.phases())
    offers = offer(record, game, phase_list, error)
    proposals, confirmed = _attempts(record.view, record.answer, record.turn)
    step = next_step(record, offers, proposals)
    return {
        **record_parts(record, table, game),
        **evaluation_parts(record.answer),
        **judge_parts(record, offers, game, values),
        **step_buttons(record, offers, step, phase_list),
        **expansion_pieces(record.shown, record.factions, judge=record.judge, quick=record.quick,
                           just_done=_just_done(record, error), phase=record.phase),
        "step": step,
        "sections": _sections(step, judge=record.judge),
        "step_section": f"gameplay/sections/{step.section}.html" if record.judge and step.section else None,
        "cite": rules.citations(game.ruleset),
        "phases": phase_list,
        "next_phase": offers.next_phase,
        "proposals": proposals,
        "confirmed_attempts": confirmed,
        "filed": filed,
        "error": error,
        "stale": stale,
        "values": values,
        # Under a filed report the page speaks of the report's turns, not of the record's position.
        "filed_turns": (filed.data or {}).get("turns") if record.state.filed and filed is not None else None,
        "offline_cache": OFFLINE_CACHE,
    }
