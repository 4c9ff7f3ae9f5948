"""A full-tracked turn on the table judge's page, walked the way a judge records it on a phone:
the storm, a worm and an alliance in the nexus, a revival, a shipment, a battle with its
leaders, dials and a traitor call, then the phases on to the next turn. Shared by
`benchmarks/table_phone.py --tracking full` (taps, scrolls, requests, seconds and bytes per
turn on the slow network) and the browser test that keeps the walk honest.

What counts: a tap on a button, link or checkbox is one tap; a menu (a `select`) is two (open
it, pick); a number field is one tap (the digits typed are not taps); a menu or field that the
form already offers as the judge wants it is no tap. A scroll is counted when
the next thing to touch is not wholly on the screen. Seconds are the time from each sending tap
until the answer is in place (the page's record number moved on, or the battle's resolution
shown).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from tests.e2e.phone_walk import NEXT_CONTROL, Wire

#: Wholly on the screen, above the one-line banners at its bottom edge.
ON_SCREEN = """(e) => { const r = e.getBoundingClientRect();
  const banner = document.getElementById('net-banner');
  const bottom = innerHeight - (banner ? banner.getBoundingClientRect().height : 0);
  return r.top >= 0 && r.bottom <= bottom && r.left >= 0 && r.right <= innerWidth; }"""


@dataclass
class Turn:
    name: str
    taps: int = 0
    scrolls: int = 0
    requests: int = 0
    bytes: int = 0
    seconds: float = 0.0
    sends: list[str] = field(default_factory=list)


class Judge:
    """Counts what a judge does on the page while a turn is recorded."""

    def __init__(self, page: Any, wire: Wire | None = None) -> None:
        self.page = page
        self.wire = wire
        self.turn = Turn("")
        self._start = (0, 0)

    def begin(self, name: str) -> None:
        self.turn = Turn(name)
        self._start = (self.wire.bytes, self.wire.requests) if self.wire else (0, 0)

    def end(self) -> Turn:
        self.page.wait_for_timeout(300)  # late bytes of the last answer belong to the turn
        if self.wire:
            self.turn.bytes = self.wire.bytes - self._start[0]
            self.turn.requests = self.wire.requests - self._start[1]
        return self.turn

    def _reach(self, locator: Any) -> Any:
        locator = locator.first
        if not locator.evaluate(ON_SCREEN):
            self.turn.scrolls += 1
            locator.evaluate("e => e.scrollIntoView({block: 'center'})")
        return locator

    def tap(self, locator: Any) -> None:
        self._reach(locator).click()
        self.turn.taps += 1

    def choose(self, locator: Any, value: str) -> None:
        """Pick `value` in a menu (no tap when the form already offers it picked)."""
        if locator.first.input_value() == value:
            return
        self._reach(locator).select_option(value)
        self.turn.taps += 2

    def type(self, locator: Any, text: str) -> None:
        """Type `text` into a field (no tap when the form already holds it)."""
        if locator.first.input_value() == text:
            return
        self._reach(locator).fill(text)
        self.turn.taps += 1

    def send(self, locator: Any, *, shows: str | None = None) -> None:
        """Tap a sending button and wait for the answer in place (or for `shows` to appear)."""
        button = self._reach(locator)
        name = button.inner_text().strip()
        before = self.page.locator("#table-live").get_attribute("data-seq")
        start = time.perf_counter()
        button.click()
        self.turn.taps += 1
        if shows:
            self.page.locator(shows).wait_for()
        else:
            self.page.wait_for_function(
                "([seq]) => { const live = document.getElementById('table-live');"
                " return live.dataset.seq !== seq || live.querySelector('#refusal, #stale'); }", arg=[before])
        self.turn.seconds += time.perf_counter() - start
        refused = self.page.locator("#table-live #refusal, #table-live #stale, #table-live .field-error")
        if refused.count():
            raise AssertionError(f"{name!r} refused: {refused.first.inner_text()} after {self.turn.sends}")
        self.turn.sends.append(name)

    def on_to(self, phase: str) -> None:
        """Tap the next step's one-tap move until the page is in `phase` (the header's)."""
        for _ in range(9):
            if self.page.locator("#phase").get_attribute("data-phase") == phase:
                return
            later = self.page.locator(f"#next form[data-action=later-advance_phase] button[value={phase}]")
            if later.count():  # one tap past the phases with nothing to record
                self.send(later)
            else:
                self.next()
        raise AssertionError(f"never reached {phase}: {self.turn.sends}")

    def next(self, expect: str | None = None) -> None:
        control = self.page.locator(NEXT_CONTROL).first
        if expect is not None:
            assert control.inner_text().strip() == expect, (control.inner_text(), expect)
        self.send(control)


def battle(j: Judge, plans: dict[str, dict[str, str]], *, then: bool = True, preview: bool = False) -> None:
    """The battle form at the top: each side's leader, dial, spice and traitor call, then the
    record in one request (with `then`, and on to the next phase); with `preview`, the engine's
    resolution is read first."""
    form = j.page.locator("#next form[data-action=battle]").first
    for side in form.locator("fieldset.battle-side").all():
        faction = side.locator("input[type=hidden]").first.get_attribute("value") or ""
        plan = plans[faction]
        if plan.get("leader"):
            j.choose(side.get_by_label("Leader"), plan["leader"])
        j.type(side.get_by_label("Dial"), plan.get("dial", "0"))
        if plan.get("spice"):
            j.type(side.get_by_label("Spice paid"), plan["spice"])
        if plan.get("traitor"):
            j.tap(side.get_by_label("Calls a traitor"))
    if preview:
        j.send(form.get_by_role("button", name="Show the engine's resolution"), shows="#battle-resolution")
        form = j.page.locator("#next form[data-action=battle]").first
    j.send(form.locator("button[name=then]" if then else "button:not([name])").first)


def then(j: Judge, form: Any) -> None:
    """Send `form` with its "then" button: its event, then the next phase, in one request."""
    j.send(form.locator("button[name=then]"))


def later(j: Judge, words: str) -> None:
    """One tap on to a later phase ("Or on to: ...") in the next step's box."""
    j.send(j.page.locator("#next form[data-action=later-advance_phase]").get_by_role("button", name=words, exact=True))


def wbc_turn(j: Judge) -> Turn:
    """Turn 2 of a WBC final (tests.gameplay.full_game: the storm in sector 10, three Harkonnen
    forces in The Great Flat): the storm moves over them, a worm opens a nexus where the
    Emperor and the Guild ally, the Harkonnen revive two forces (free, AH IX.B.1) and ship three
    into Arrakeen (3 spice to the Guild, AH IX.C.1.b: the form's empty cost is the rules' price),
    where they fight the Atreides, who call Feyd-Rautha a traitor (AH X.D.2)."""
    page = j.page
    j.begin("WBC final, turn 2")
    j.type(page.locator("#storm-sectors"), "4")
    then(j, page.locator("#next form[data-action=move_storm]"))
    j.send(page.locator("#next form[data-action=next-worm] button"))
    nexus = page.locator("form[data-action=form_alliance]")
    for name in ("Emperor", "Guild"):
        j.tap(nexus.get_by_label(name, exact=True))
    j.send(nexus.get_by_role("button", name="Form alliance"))
    later(j, "Revival")
    revive = page.locator("form[data-action=revive_forces]")
    j.choose(revive.get_by_label("Faction"), "harkonnen")
    j.type(revive.get_by_label("Forces"), "2")
    then(j, revive)
    ship = page.locator("form[data-action=place_forces]")
    j.choose(ship.get_by_label("Faction"), "harkonnen")
    j.choose(ship.get_by_label("Territory · sector"), "arrakeen@9")
    j.type(ship.get_by_label("Forces"), "3")
    then(j, ship)
    battle(j, {"harkonnen": {"leader": "harkonnen|feyd_rautha", "dial": "2", "spice": "2"},
               "atreides": {"leader": "atreides|duncan_idaho", "dial": "1", "spice": "1", "traitor": "1"}})
    j.on_to("mentat_pause")
    j.next()
    return j.end()


def wbc_second_turn(j: Judge) -> Turn:
    """Turn 3 of the same final: the storm moves on, no worm; the Harkonnen ship into Habbanya
    Sietch (2 spice to the Guild) and move from Carthag into Arrakeen: with Carthag they stand in three strongholds, a
    win attempt (WBC: they win if they win their battle), which the judge confirms; they fight
    the Atreides in Arrakeen, and lose."""
    page = j.page
    j.begin("WBC final, turn 3")
    j.type(page.locator("#storm-sectors"), "1")
    then(j, page.locator("#next form[data-action=move_storm]"))
    later(j, "Shipment and movement")
    ship = page.locator("form[data-action=place_forces]")
    j.choose(ship.get_by_label("Faction"), "harkonnen")
    j.choose(ship.get_by_label("Territory · sector"), "habbanya_sietch@16")
    j.type(ship.get_by_label("Forces"), "2")
    j.send(ship.get_by_role("button", name="Place forces", exact=True))
    move = page.locator("form[data-action=move_forces]")
    j.choose(move.get_by_label("Faction"), "harkonnen")
    j.choose(move.get_by_label("From"), "carthag@10")
    j.choose(move.get_by_label("To"), "arrakeen@9")
    j.type(move.get_by_label("Forces"), "4")
    then(j, move)
    j.send(page.locator("#next form.proposal").get_by_role("button", name="Confirm win attempt"))
    battle(j, {"harkonnen": {"leader": "harkonnen|beast_rabban", "dial": "2"},
               "atreides": {"leader": "atreides|thufir_hawat", "dial": "3"}})
    j.on_to("mentat_pause")
    j.next()
    return j.end()


def lolv_turn(j: Judge) -> Turn:
    """A LoLV final with the Ecaz, Moritani, Richese and Ixians (tests.gameplay.
    test_expansion_pieces_page), from turn 1's shipment and movement: an Ambassador into Tuek's
    Sietch (2.11.05), a shipment with its payment typed (4 spice to the bank, 1.06.02.01), then at the Mentat Pause a Terror token into Habbanya Sietch
    (2.12.05), and the next turn."""
    page = j.page
    j.begin("LoLV final, turn 1 from shipment and movement")
    amb = page.locator("form[data-action=place_ambassador]")
    j.choose(amb.get_by_label("Stronghold"), "tueks_sietch")
    j.choose(amb.get_by_label("Token"), "atreides")
    j.send(amb.get_by_role("button", name="Place Ambassador"))
    ship = page.locator("form[data-action=place_forces]")
    j.choose(ship.get_by_label("Faction"), "richese")
    j.choose(ship.get_by_label("Territory · sector"), "the_great_flat@14")
    j.type(ship.get_by_label("Forces"), "2")
    j.type(ship.get_by_label("Spice paid"), "4")  # typed here; the WBC walk leaves it to the rules' price
    then(j, ship)
    j.on_to("mentat_pause")
    terror = page.locator("form[data-action=place_terror]")
    j.choose(terror.get_by_label("Stronghold"), "habbanya_sietch")
    j.send(terror.get_by_role("button", name="Place Terror token"))
    j.next()
    return j.end()
