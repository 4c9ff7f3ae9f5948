"""The turn leads the judge: what the table page offers as its one next step.

Pure (no Django): from the phase, the turn and what was already recorded in this turn and
this phase, name the next thing to record, or the one-tap move to the next phase where
something needs recording. An ordinary quick-tracked turn is then: next turn, move the storm,
no worm (on to the battle phase), strongholds, the win attempts the engine proposes,
Mentat Pause. Phases where quick tracking records nothing (a spice blow without a worm,
CHOAM Charity, bidding, revival, shipment and movement, spice collection) are passed over;
the full list stays on the page.
In full tracking every phase has something to record, so the one-tap move goes to the next
phase of the turn (`next_phase`), never past one.

Every sentence is written through the `Words` the page hands in (dune/words.py): the reader's
language, English by default.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from dune.words import ENGLISH, Words, gettext_noop

__all__ = ["Step", "next_step", "phase_label"]


@dataclass(frozen=True)
class Step:
    """The next step: `key` names it (and the page section that records it, if any);
    `advance_to` is the phase a one-tap button moves to (None: no such button)."""

    key: str
    title: str
    hint: str = ""
    advance_to: str | None = None
    advance_label: str = ""
    section: str | None = None
    #: A second, smaller one-tap move (the way when the usual answer is not the case).
    other_to: str | None = None
    other_label: str = ""


def phase_label(phase: str, words: Words = ENGLISH) -> str:
    """A phase's name on a button ("Shipment and movement")."""
    known = _FULL_PHASES.get(phase)
    return words.gettext(known[1]) if known else phase.replace("_", " ").capitalize()


#: What a judge records in each phase in full tracking, and the phase's name on a button.
_FULL_PHASES: dict[str, tuple[str, str]] = {
    "choam_charity": (gettext_noop("CHOAM Charity: record the spice handed out"), gettext_noop("CHOAM Charity")),
    "bidding": (gettext_noop("Bidding: record the cards and spice that change hands"), gettext_noop("Bidding")),
    "revival": (gettext_noop("Revival: record the forces and leaders revived"), gettext_noop("Revival")),
    "shipment_movement": (gettext_noop("Shipment and movement: record each faction's shipment and move"),
                          gettext_noop("Shipment and movement")),
    "battle": (gettext_noop("Battle phase: record each battle's losses"), gettext_noop("Battle phase")),
    "spice_collection": (gettext_noop("Spice collection: record what each faction collects"), gettext_noop("Spice collection")),
    "mentat_pause": (gettext_noop("Mentat Pause"), gettext_noop("Mentat Pause")),
}
#: Where the form of a full-tracking phase's record is, when the phase has one of its own.
_FULL_HINTS: dict[str, str] = {
    "revival": gettext_noop("The Revive form is in Full tracking, under Forces (tanks to reserves, LoLV 1.05.01)."),
    "shipment_movement": gettext_noop(
        "In storm order, one faction after the other: its shipment, then its move. A faction's "
        "turn is over once a later one has begun; only the Guild may go out of turn."
    ),
}


#: Steps that ask for more in full tracking than quick tracking records.
_ASKS_MORE_IN_FULL = frozenset({"spice_blow", "passing", "battle_done"})


def next_step(
    *,
    phase: str | None,
    turn: int | None,
    storm: int | None,
    this_phase: Sequence[str],
    nexus_open: bool,
    proposals: int,
    victory_proposed: bool,
    allowed: Collection[str],
    quick: bool,
    over: bool,
    next_phase: str | None = None,
    to_place: Sequence[str] = (),
    words: Words = ENGLISH,
) -> Step:
    """The step the page puts first. `this_phase`: event types recorded (not voided) since the
    current phase began; `allowed`: the event types the engine accepts now; `next_phase`: the
    phase after this one in the table's ruleset (full tracking moves there, one at a time);
    `to_place`: the names of the factions that must still place their starting forces;
    `words`: the reader's language."""
    w = words
    if over:
        step = Step("report", w.gettext("The game is over: file the game report"),
                    w.gettext("Check the prefilled report with the players, then file it."), section="ending")
    elif phase == "setup":
        step = _setup_step(storm, to_place, w)
    elif phase == "storm" and (turn or 1) == 1 and storm is None and "storm_placed" in allowed:
        step = Step("place_storm", w.gettext("Turn 1: where does the storm start?"))
    elif phase == "storm":
        step = _storm_step(turn, this_phase, allowed, w, quick=quick)
    elif phase == "spice_blow":
        step = _spice_blow_step(this_phase, nexus_open, w)
    elif phase == "battle":
        step = _battle_step(this_phase, allowed, proposals, w, quick=quick)
    elif phase == "mentat_pause":
        step = _mentat_pause_step(victory_proposed, w)
    else:
        step = _passing_step(phase, w)
    if quick or next_phase is None or step.advance_to is None:
        return step
    if step.advance_to == next_phase and step.key not in _ASKS_MORE_IN_FULL:
        return step
    return _one_phase_on(step, phase, next_phase, w)


def _one_phase_on(step: Step, phase: str | None, next_phase: str, w: Words) -> Step:
    """A full-tracking step whose one-tap move goes to the next phase, not past it."""
    title, hint = step.title, step.hint
    if step.key == "spice_blow":
        title = w.gettext("Spice blow: record the card turned over and any worm")
        where = w.gettext("The Spice Blow form is in Full tracking, just below.")
        hint = f"{where} {hint}" if hint else where
    elif step.key in ("passing", "battle_done"):
        known = _FULL_PHASES.get(phase or "")
        title = w.gettext(known[0]) if known else title
        hint = w.gettext(_FULL_HINTS[phase or ""]) if (phase or "") in _FULL_HINTS else hint
    label = phase_label(next_phase, w)
    section = step.section or ("full" if step.key in _ASKS_MORE_IN_FULL else None)
    advance = w.gettext("Next: %(phase)s") % {"phase": label}
    return Step(step.key, title, hint, advance_to=next_phase, advance_label=advance, section=section)


# The steps as quick tracking walks the turn; full tracking's differ only in where their
# one-tap move goes and what they ask for (`_one_phase_on`).


def _setup_step(storm: int | None, to_place: Sequence[str], w: Words) -> Step:
    """Setup: the storm's start, then the starting forces of the factions that choose where
    they go (LoLV 0.13, 2.12.02; AH III.E.4), named until every one has placed them."""
    waiting = (
        w.gettext("Still to place their starting forces: %(factions)s.") % {"factions": ", ".join(to_place)}
        if to_place
        else ""
    )
    if storm is None:
        return Step("place_storm", w.gettext("Setup: where does the storm start?"), waiting, section="setup")
    if to_place:
        return Step("starting_forces", w.gettext("Setup: the starting forces"), waiting, section="setup")
    return Step("setup", w.gettext("Setup"), w.gettext("Record what the table decided, then start turn 1."),
                advance_to="storm", advance_label=w.gettext("Setup done: turn 1 storm phase"), section="setup")


def _storm_step(turn: int | None, this_phase: Sequence[str], allowed: Collection[str], w: Words, *, quick: bool) -> Step:
    if (turn or 1) > 1 and "storm_moved" not in this_phase and "storm_moved" in allowed:
        return Step("move_storm", w.gettext("Turn %(turn)s: how far does the storm move?") % {"turn": turn})
    if quick:
        # Quick tracking records nothing in a spice blow without a worm: that phase is passed
        # over (phases may be skipped, never gone back to: LoLV 1.00.00, AH V); a worm goes
        # through the spice blow, where it is recorded and may open a nexus (AH VII.A).
        return Step("storm_done", w.gettext("Storm recorded: did a worm appear in the spice blow?"),
                    advance_to="battle", advance_label=w.gettext("No worm: battle phase"),
                    other_to="spice_blow", other_label=w.gettext("A worm appeared: spice blow"))
    return Step("storm_done", w.gettext("Storm recorded"), advance_to="spice_blow",
                advance_label=w.gettext("Spice blow"))


def _spice_blow_step(this_phase: Sequence[str], nexus_open: bool, w: Words) -> Step:
    worms = this_phase.count("worm")
    if nexus_open:
        return Step("nexus", w.gettext("Nexus: alliances may form or break"),
                    w.gettext("Record any alliance change, then go on."), advance_to="battle",
                    advance_label=w.gettext("Nexus done: battle phase"), section="nexus")
    hint = (
        w.gettext("One tap per worm.")
        if not worms
        else w.ngettext("%(worms)s worm recorded this spice blow.", "%(worms)s worms recorded this spice blow.", worms)
        % {"worms": worms}
    )
    return Step("spice_blow", w.gettext("Spice blow: did a worm appear?"), hint, advance_to="battle",
                advance_label=w.gettext("No worm: battle phase") if not worms else phase_label("battle", w))


def _battle_step(this_phase: Sequence[str], allowed: Collection[str], proposals: int, w: Words, *, quick: bool) -> Step:
    if quick and "quick_record" not in this_phase and "quick_record" in allowed:
        return Step("strongholds", w.gettext("Battle phase: who stands in the strongholds?"),
                    w.gettext("Untick or tick what changed; record it even when nothing did."), section="quick")
    if proposals:
        return Step("attempts", w.gettext("Battle phase: confirm the win attempts the engine sees"),
                    advance_to="mentat_pause", advance_label=phase_label("mentat_pause", w), section="attempts")
    return Step("battle_done", w.gettext("Battle phase recorded"), advance_to="mentat_pause",
                advance_label=phase_label("mentat_pause", w))


def _mentat_pause_step(victory_proposed: bool, w: Words) -> Step:
    if victory_proposed:
        return Step("victory", w.gettext("Mentat Pause: the engine sees a victory"),
                    w.gettext("Confirm it with the table."), section="ending")
    return Step("next_turn", w.gettext("Mentat Pause: nobody has won"), section=None)


def _passing_step(phase: str | None, w: Words) -> Step:
    """A phase quick tracking does not record: on to the next one that needs something."""
    later = "mentat_pause" if phase == "spice_collection" else "battle"
    return Step("passing", w.gettext("Nothing to record in this phase"), advance_to=later,
                advance_label=phase_label(later, w))
