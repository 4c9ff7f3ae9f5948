"""The one place the Django layer talks to the rules engine.

Everything the table judge's code needs from `dune.engine` goes through these functions:
parsing an event dict, folding events into a position, the JSON snapshot of a position and its
evaluation, and the few facts of a position the pages show. If the engine's public face moves,
only this module changes.

Positions are kept in a small per-process memory cache keyed by the game's identity and the
sequence number: the log is append-only, so `(game, seq)` names exactly one position and a
cached entry never goes stale.
"""

from __future__ import annotations

import functools
import queue
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from dune.engine import income, recording, spice, turn_order
from dune.engine.battle.cards import CARDS, EXPANSION_CARDS
from dune.engine.battle.choices import battle_choices
from dune.engine.battle.resolve import resolution_json
from dune.engine.board import HIDDEN_MOBILE_STRONGHOLD, PRINTED_STRONGHOLDS, SHIELD_WALL, TERRITORIES
from dune.engine.choices import allowed_event_types, legal_choices, move_kinds, still_to_place
from dune.engine.codec.position import dump_position, read_stored_position
from dune.engine.codec.schema import SnapshotView, prediction_hidden, without_prediction
from dune.engine.editions import CURRENT
from dune.engine.evaluation import Evaluation, evaluate
from dune.engine.events import (
    FLIP_TARGETS,
    LEADER_STATES,
    TERROR_EFFECTS,
    Battle,
    Event,
    ForcesRevived,
    event_from_dict,
)
from dune.engine.factions import FACTION_SHEETS
from dune.engine.game_log import apply, replay
from dune.engine.game_log import insertion_point as find_insertion_point
from dune.engine.ids import FACTIONS, ResultKind
from dune.engine.impossible import AMBASSADOR_SYMBOLS
from dune.engine.payments import ambassador_price, own_revival_price
from dune.engine.phases import PHASES
from dune.engine.rulesets import get_ruleset
from dune.engine.supplies import NO_FIELD_NUMBERS

Position = Any  # the engine's immutable position object

#: The edition of the engine's rulings a new game records (`dune.engine.editions`).
CURRENT_EDITION: int = CURRENT

#: How many positions a process keeps (a busy event has a few dozen live tables).
CACHE_SIZE = 256


# --- events -----------------------------------------------------------------------------


def parse_event(data: Any) -> Event:
    """The engine's typed event for a JSON dict. Raises RuleViolation (InvalidEvent,
    UnknownIdentifier) naming the bad field."""
    return event_from_dict(data)


def priced(position: Position, event: Event) -> Event:
    """A shipment or revival that names no cost, with the rules' price for it where the engine
    knows one (LoLV 1.06.02.01, 1.05.01.02, AH IX.C.1.b, AH IX.B.1; an allied faction's revival
    at its own sheet's price, the ally's help being the table's to record; an Ambassador at
    2.11.06's rising price); any other event as it is (`dune.engine.recording.priced`)."""
    return recording.priced(position, event)


def record(
    position: Position, event: Event | Mapping[str, Any], *, history: Callable[[], list[dict[str, Any]]],
    priced: bool = False,
) -> recording.Recorded:
    """One call into the engine for one event: `event` (an engine event or its JSON) parsed,
    priced when `priced` (see `priced`), applied to `position` (a void or an insert replays
    `history()`, the log so far, with it), and answered with its canonical JSON, the new
    position, its snapshot (`dump`) and its evaluation (`evaluation`) together.
    Raises RuleViolation, leaving `position` unchanged."""
    return recording.record(position, event, log=history, priced=priced)


def revival_cost(position: Position, faction: str, normal: int) -> int | None:
    """The rules' price of the faction reviving `normal` forces now, or None if the engine
    cannot tell (LoLV 1.05.01.02, AH IX.B.1)."""
    return own_revival_price(position, ForcesRevived(faction=faction, normal=normal))


def ambassador_cost(position: Position) -> int:
    """The rules' price of the Ecaz's next Ambassador this turn (LoLV 2.11.06)."""
    return ambassador_price(position)


def income_offers(position: Position) -> dict[str, Any]:
    """What the engine derives for the bidding round, CHOAM Charity and the collection round
    (`dune.engine.income`): the bidders in storm order with their spice and cards, the card up
    for bid, the charity due (None: the table's to record), each faction's collection and the
    strongholds' income."""
    sold, dealt, over = income.auction_state(position)
    return {
        "bidders": [(f, position.states[f].spice, position.states[f].cards) for f in income.bidders(position)],
        "card": (sold + 1, dealt, over),
        "opener": income.opener(position) if position.setup is not None and not over else None,
        "charity": income.charity_due(position),
        "inflation": income.inflation_now(position) if position.setup is not None else None,
        "collections": income.collection_due(position),
        "income": income.income_due(position),
    }


def next_to_ship(position: Position) -> str | None:
    """The faction whose turn to ship comes next in storm order (`turn_order.next_to_ship`)."""
    return turn_order.next_to_ship(position)


def event_body(event: Event) -> dict[str, Any]:
    """The canonical JSON of an event, as stored in the log."""
    return event.to_dict()


# --- folding ----------------------------------------------------------------------------


def replay_bodies(bodies: Iterable[Mapping[str, Any]]) -> Position:
    """The position after the whole log. Raises RuleViolation if an event is refused."""
    return replay([parse_event(b) for b in bodies])


def advance(position: Position, event: Event, *, history: Callable[[], list[dict[str, Any]]]) -> Position:
    """The position after `event`; `history()` gives the log so far, needed for a void.

    A void cancels an earlier event and an insert places one earlier, so the position after
    either is the replay of the log with it appended (the engine decides whether the rest of the log still holds: VoidRefused).
    Raises RuleViolation, leaving `position` unchanged (positions are immutable).
    """
    if event.type in ("void", "insert"):
        return replay([parse_event(b) for b in history()] + [event])
    return apply(position, event)


def insertion_point(bodies: Iterable[Mapping[str, Any]], event: Event) -> int | None:
    """The latest record before which `event`, refused at the end of the log `bodies`, would
    hold (`game_log.insertion_point`), or None."""
    position = replay_bodies(bodies)
    return find_insertion_point(position, priced(position, event))


def load(snapshot: Mapping[str, Any]) -> Position:
    """A position from the JSON snapshot a game stores (the engine's own `dump`: read without
    proving again what the engine proved when it made the position)."""
    return read_stored_position(snapshot)


def dump(position: Position) -> dict[str, Any]:
    """The JSON snapshot of a position (the engine's shape; `load(dump(p)) == p`)."""
    return dump_position(position)


def evaluation(position: Position) -> dict[str, Any]:
    """`evaluate(position)` as the JSON the game row keeps and the API answers: control,
    battles, win attempts, victory, stats, PP, adjudication."""
    result: dict[str, Any] = evaluate(position).to_dict()
    return result


def answer_of(stored: Mapping[str, Any] | None) -> Evaluation | None:
    """The typed evaluation from the JSON a game row keeps; None while the game has none."""
    return Evaluation.from_dict(stored) if stored else None


# --- per-process cache ------------------------------------------------------------------

_cache: OrderedDict[tuple[Any, ...], Position] = OrderedDict()
_lock = threading.Lock()
#: Positions whose records committed, handed over by the commit itself (`remember_on_commit`)
#: and taken into the cache at its next use: a thread-safe put, no work at the commit.
_committed: queue.SimpleQueue[tuple[tuple[Any, ...], Position]] = queue.SimpleQueue()


def cached(key: tuple[Any, ...]) -> Position | None:
    with _lock:
        _take_committed()
        position = _cache.get(key)
        if position is not None:
            _cache.move_to_end(key)
        return position


def remember(key: tuple[Any, ...], position: Position) -> None:
    with _lock:
        _take_committed()
        _keep(key, position)


def remember_on_commit(key: tuple[Any, ...], position: Position) -> Callable[[], None]:
    """What the transaction that wrote `position` runs when it commits (`on_commit`): the
    position handed to the cache under `key` (the exact record it is the position after), so
    the cache holds only committed truth; a rollback runs nothing."""
    return functools.partial(_committed.put, (key, position))


def _take_committed() -> None:
    """The committed positions handed over since the cache's last use, in commit order (with `_lock`)."""
    while True:
        try:
            key, position = _committed.get_nowait()
        except queue.Empty:
            return
        _keep(key, position)


def _keep(key: tuple[Any, ...], position: Position) -> None:
    _cache[key] = position
    _cache.move_to_end(key)
    while len(_cache) > CACHE_SIZE:
        _cache.popitem(last=False)


def forget_all() -> None:
    with _lock:
        _take_committed()
        _cache.clear()


# --- facts the pages read from a snapshot ------------------------------------------------


def prediction_revealed(snapshot: Mapping[str, Any], answer: Evaluation | None) -> bool:
    """Whether the BG prediction is public: revealed by its event, or it decided the game."""
    if SnapshotView.of(snapshot).prediction_revealed:
        return True
    # Only a recorded outcome counts: `victory` in the answer is what *would* happen now.
    decided = answer.outcome if answer is not None else None
    return decided is not None and decided.kind == ResultKind.BG_PREDICTION


def redact(snapshot: Mapping[str, Any], answer: Evaluation | None) -> dict[str, Any]:
    """The snapshot a non-judge may see: the BG prediction hidden until revealed."""
    return dict(snapshot) if prediction_revealed(snapshot, answer) else prediction_hidden(snapshot)


def redact_answer(snapshot: Mapping[str, Any], answer: Evaluation | None) -> Evaluation | None:
    """The evaluation a non-judge may see (`answer` itself when nothing is secret). While the
    prediction is secret, an answer that a BG prediction would win would give it away; such
    an answer is recomputed as if no prediction had been made (the stronghold picture everyone
    can see on the board)."""
    if answer is None:
        return None
    secret = bool(SnapshotView.of(snapshot).bg_prediction) and not prediction_revealed(snapshot, answer)
    telling = any(
        verdict is not None and verdict.kind == ResultKind.BG_PREDICTION
        for verdict in (answer.victory, answer.end_of_game)
    )
    if not (secret and telling):
        return answer
    redacted: Evaluation = evaluate(load(without_prediction(snapshot)))
    return redacted


#: An event's free-text fields: a judge may write anything there, a BG prediction included.
FREE_TEXT_FIELDS = ("reason", "override_reason")


def redact_event(body: Mapping[str, Any], *, revealed: bool) -> dict[str, Any]:
    """An event as a non-judge may see it: no free-text reasons, and the prediction's
    faction and turn hidden until it is revealed."""
    out = {key: value for key, value in body.items() if key not in FREE_TEXT_FIELDS}
    if revealed:
        return out
    if out.get("type") == "bg_prediction_made":
        out["faction"] = "hidden"
        out["turn"] = "hidden"
    if out.get("type") == "game_setup" and out.get("bg_prediction"):
        out["bg_prediction"] = "hidden"
    return out


# --- board and roster facts the forms offer ------------------------------------------------


def territory_choices(*, hms: bool = True) -> list[tuple[str, str, tuple[int, ...]]]:
    """(id, name, sectors) of every territory, by name; without the Hidden Mobile Stronghold
    when `hms` is false (a game without the Ixians, whose stronghold it is: LoLV 2.07.04)."""
    return sorted(
        ((t.id, t.name, t.sectors) for t in TERRITORIES.values() if hms or t.id != HIDDEN_MOBILE_STRONGHOLD),
        key=lambda x: x[1],
    )


def spice_blow_choices() -> list[tuple[str, str, int]]:
    """(id, name, amount printed on its card) of every Spice Blow territory, by name."""
    return sorted(
        ((t.id, t.name, t.spice_blow[1]) for t in TERRITORIES.values() if t.spice_blow is not None),
        key=lambda x: x[1],
    )


def worm_territory(position: Any, log: Iterable[tuple[str, str | None]]) -> str | None:
    """Where a worm turned over next appears: the territory on top of its own Spice discard
    pile (`dune.engine.spice.worm_pile_top`, two piles with the double spice blow), or None."""
    return spice.worm_pile_top(log, spice.spice_blows(position))


def printed_strongholds() -> tuple[str, ...]:
    return PRINTED_STRONGHOLDS


def shield_wall_pieces() -> list[str]:
    """The Shield Wall's sector pieces (`shield_wall@7`), for the quick-tracking grid."""
    return [f"{SHIELD_WALL}@{s}" for s in TERRITORIES[SHIELD_WALL].sectors]


def stronghold_places(answer: Evaluation | None) -> list[str]:
    """The places the quick-tracking grid lists: the strongholds the evaluation counts
    (`Evaluation.strongholds`), the Shield Wall as its sector pieces; the printed five when
    there is no evaluation."""
    places: list[str] = []
    for place in answer.strongholds if answer is not None else PRINTED_STRONGHOLDS:
        places += shield_wall_pieces() if place == SHIELD_WALL else [place]
    return places


def stronghold_choices() -> list[tuple[str, str]]:
    """(id, name) of every stronghold, by name: where Ambassador and Terror tokens go."""
    return sorted(((t.id, t.name) for t in TERRITORIES.values() if t.is_stronghold), key=lambda x: x[1])


def ambassador_symbols() -> list[str]:
    """The factions an Ecaz Ambassador token can show (LoLV 2.11.03), in roster order."""
    return [f for f in FACTIONS if f in AMBASSADOR_SYMBOLS]


def terror_effects() -> tuple[str, ...]:
    """The Moritani Terror tokens' effects (LoLV 2.12.09)."""
    return TERROR_EFFECTS


def no_field_numbers() -> tuple[int, ...]:
    """The numbers a Richese No-Field token can hide (LoLV 2.10.03)."""
    return NO_FIELD_NUMBERS


def flip_targets() -> tuple[str, ...]:
    """The side flipped Bene Gesserit tokens show afterwards (LoLV 2.02.10)."""
    return FLIP_TARGETS


def leaders_of(faction: str) -> list[tuple[str, str]]:
    """(id, printed name) of a faction's leaders."""
    return [(ld.id, ld.name) for ld in FACTION_SHEETS[faction].leaders]


def free_revival(faction: str) -> int:
    """How many of a faction's forces come back from the tanks for free each turn (LoLV 1.05.01, AH IX.B)."""
    return FACTION_SHEETS[faction].free_revival


def phases() -> tuple[str, ...]:
    return PHASES


def leader_states() -> tuple[str, ...]:
    return LEADER_STATES


# --- what the page offers ----------------------------------------------------------------


def offers(position: Position) -> dict[str, Any]:
    """What a judge can record now, for the page to offer only those forms:
    `{"allowed": set of event types, "phases": phases the game may advance to, "breakers":
    factions that may break from their alliance, "allies": factions that may form one,
    "to_place": factions that must still place their starting forces, "move_kinds": the kinds
    of move some faction may make in this phase (`ForcesMoved.via`)}`
    (the engine's `choices.allowed_event_types` / `legal_choices`)."""
    allowed = set(allowed_event_types(position))
    phases: list[str] = []
    if "phase_advanced" in allowed:
        phases = list((legal_choices(position, "phase_advanced")["choices"] or {}).get("phases", []))
    # The alliance forms list only the factions the engine accepts now: members of an
    # alliance to break one, factions of some alliance that may form to form one.
    breakers: list[str] = []
    if "alliance_broken" in allowed:
        breakers = list((legal_choices(position, "alliance_broken")["choices"] or {}).get("factions", []))
    allies: list[str] = []
    if "alliance_formed" in allowed:
        found = legal_choices(position, "alliance_formed")["choices"] or {}
        sides = [*found.get("sides", []), *(way["factions"] for way in found.get("ways", []))]
        allies = [f for f in position.factions if any(f in side for side in sides)]
    return {"allowed": allowed, "phases": phases, "breakers": breakers, "allies": allies,
            "to_place": still_to_place(position),
            "move_kinds": move_kinds(position) if "forces_moved" in allowed else []}


def battles_to_fight(position: Position) -> list[dict[str, Any]]:
    """The battles still to fight and what each side may put in its plan (the engine's
    `battle.choices.battle_choices`), for the battle form."""
    return battle_choices(position)


def battle_resolution(position: Position, body: Mapping[str, Any]) -> dict[str, Any]:
    """What a `battle` event would come to (winner, losses, leaders, cards, spice, each with its
    rule) before the judge confirms it; nothing is recorded. Raises RuleViolation naming the
    field at fault, as recording it would."""
    event = parse_event({**body, "type": "battle"})
    assert isinstance(event, Battle)
    return resolution_json(position, event)


def battle_cards(ruleset: str | None = None) -> dict[str, list[tuple[str, str]]]:
    """The cards a battle plan may hold, by slot: `{"weapon": [(id, name)], "defense": [...]}`
    (a worthless card goes in either slot, LoLV 3.01.07); with a `ruleset`, only the cards of
    its deck (the second expansion's Mirror Weapon, Portable Snooper and Stone Burner in the
    LoLV's: 3.02.04, 3.02.07, 3.02.10)."""
    cite = get_ruleset(ruleset).cite if ruleset else None
    out: dict[str, list[tuple[str, str]]] = {"weapon": [], "defense": []}
    for card, (kind, _how) in CARDS.items():
        if cite is not None and card in EXPANSION_CARDS and EXPANSION_CARDS[card] not in cite:
            continue
        name = " ".join(w.capitalize() for w in card.split("_"))
        for slot in ("weapon", "defense"):
            if kind in (slot, "worthless"):
                out[slot].append((card, name))
    return out


def citations(ruleset: str) -> Mapping[str, str]:
    """The ruleset's rule references by topic (`win_attempts`, `dropout`, ...), so a page
    cites the rules the table plays."""
    return get_ruleset(ruleset).cite
