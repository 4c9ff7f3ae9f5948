"""A game script replayed through the table judge's phone (`benchmarks/table_phone.py --game`).

Each event the script's steps give for the table's position (read from the database before
each step, as the page shows it) is recorded the way a judge does on the page: the next step's
box first, then the phase's own form, sending with a form's "then" button when the next step
only moves on to the next phase. Taps, scrolls, requests, seconds waiting and bytes are counted
by `tests.e2e.full_walk.Judge` (a menu is two taps, a field one, the digits typed none).
"""

from __future__ import annotations

from typing import Any

from benchmarks.games import script as game_script
from tests.e2e.full_walk import ON_SCREEN, Judge, Turn, battle


class CountingJudge(Judge):
    """A judge that also notes what each scroll was for (`scrolled`: control, times)."""

    def __init__(self, page: Any, wire: Any = None) -> None:
        super().__init__(page, wire)
        self.scrolled: dict[str, int] = {}

    def _reach(self, locator: Any) -> Any:
        first = locator.first
        if not first.evaluate(ON_SCREEN):
            what = first.evaluate("e => (e.closest('form') || e).dataset.action || e.id || e.tagName")
            self.scrolled[what] = self.scrolled.get(what, 0) + 1
        return super()._reach(locator)


def _form(j: Judge, selector: str) -> Any:
    """The form, its fold opened first when it is closed (one tap on its summary)."""
    form = j.page.locator(selector).first
    if not form.is_visible():
        fold = form.locator("xpath=ancestor::details[1]/summary")
        if fold.count():
            j.tap(fold)
    return form


def _send(j: Judge, form: Any, then: str | None, plain: str | None = None) -> bool:
    """Send `form`, with its "then" button when it moves on to `then` (True: the phase step is
    done with it)."""
    if then:
        button = form.locator(f"button[name=then][value={then}]")
        if button.count():
            j.send(button)
            return True
    j.send(form.get_by_role("button", name=plain, exact=True) if plain else form.locator("button[type=submit]:not([name])").first)
    return False


def _piece(territory: str, sector: int | None) -> str:
    return territory if sector is None else f"{territory}@{sector}"


def record(j: Judge, event: dict[str, Any], then: str | None) -> bool:
    """Record one event on the page; True when its "then" button also moved on to `then`.

    Long because it holds one short recipe per event type, in the order of a turn."""
    page, kind = j.page, event["type"]
    if kind == "phase_advanced":
        j.on_to(event["phase"])
        return False
    if kind == "turn_advanced":
        j.next()
        return False
    if kind == "storm_placed":
        j.type(page.locator("#storm-start"), str(event["sector"]))
        j.send(page.locator("#next form[data-action=place_storm] button").first)
        return False
    if kind == "storm_moved":
        j.type(page.locator("#storm-sectors"), str(event["sectors"]))
        return _send(j, page.locator("#next form[data-action=move_storm]"), then, "Move storm")
    if kind == "spice_blow":
        form = _form(j, "form[data-action=spice_blow]")
        j.choose(form.locator("#sb-territory"), event["territory"])
        return _send(j, form, then, "Place the spice")
    if kind == "worm":
        # The one-tap Worm! records it on the top territory of the worm's own discard pile
        # (LoLV 1.13.02.02); when the page cannot know it, the worm form is used instead.
        quick = page.locator("form[data-action=next-worm]")
        default = quick.locator("input[name=territory]")
        if quick.count() and (default.get_attribute("value") if default.count() else None) == event["territory"]:
            j.send(quick.locator("button").first)
            return False
        form = _form(j, "form[data-action=worm]")
        j.choose(form.locator("#worm-territory"), event["territory"] or "")
        j.send(form.get_by_role("button", name="Record worm"))
        return False
    if kind == "alliance_formed":
        form = _form(j, "form[data-action=form_alliance]")
        for f in event["factions"]:
            j.tap(form.locator(f"input[value={f}]"))
        j.send(form.get_by_role("button", name="Form alliance"))
        return False
    if kind == "charity_collected":
        return _send(j, _form(j, "#charity-form"), then, "Collect CHOAM Charity")
    if kind == "card_bought":
        form = _form(j, "#bid-form")
        if event["faction"] is None:
            none = j.page.locator(f"#bid-none-form button[name=then][value={then}]") if then else None
            if none is not None and none.count():
                j.send(none)
                return True  # the card nobody bids on, and the next phase, in one request
            j.send(form.locator("button[name=nobody]"))
            return False
        j.tap(form.locator(f"input[name=faction][value={event['faction']}]"))
        j.type(form.locator("#bid-price"), str(event["price"]))
        if event.get("ally_paid"):
            j.type(form.locator("#bid-ally"), str(event["ally_paid"]))
        if event.get("karama"):
            j.tap(form.locator("input[name=karama]"))
        j.send(form.get_by_role("button", name="Card sold"))
        return False
    if kind == "forces_revived":
        form = _form(j, "form[data-action=revive_forces]")
        j.choose(form.locator("select[name=faction]"), event["faction"])
        j.type(form.locator("input[name=normal]"), str(event["normal"]))
        return _send(j, form, then, "Revive forces")
    if kind == "ambassador_placed":
        form = _form(j, "form[data-action=place_ambassador]")
        j.choose(form.locator("#amb-territory"), event["territory"])
        j.choose(form.locator("#amb-token"), event["ambassador"])
        j.send(form.get_by_role("button", name="Place Ambassador"))
        return False
    if kind == "forces_placed":
        form = _form(j, "form[data-action=place_forces]")
        j.choose(form.locator("select[name=faction]"), event["faction"])
        j.choose(form.locator("#pf-piece"), _piece(event["territory"], event["sector"]))
        j.type(form.locator("input[name=normal]"), str(event["normal"]))
        return _send(j, form, then, "Place forces")
    if kind == "forces_moved":
        form = _form(j, "form[data-action=move_forces]")
        j.choose(form.locator("select[name=faction]"), event["faction"])
        j.choose(form.locator("#mf-from"), _piece(event["from_territory"], event["from_sector"]))
        j.choose(form.locator("#mf-to"), _piece(event["to_territory"], event["to_sector"]))
        j.type(form.locator("input[name=normal]"), str(event["normal"]))
        return _send(j, form, then, "Move forces")
    if kind == "battle":
        plans = {}
        for side in (event["aggressor"], event["defender"]):
            plans[side["faction"]] = {"leader": f"{side['faction']}|{side['leader']}" if side.get("leader") else "",
                                      "dial": str(side["dial"]), "spice": str(side.get("spice") or "")}
        battle(j, plans, then=then is not None)
        return then is not None
    if kind == "spice_harvested":
        return _send(j, _form(j, "#harvest-form"), then, "Collect spice")
    if kind == "victory_claimed":
        j.send(page.locator("form.proposal[data-action=claim_victory] button").first)
        return False
    raise AssertionError(f"no recipe for {kind}")


def replay(j: Judge, script: game_script.Script, position_now: Any) -> list[Turn]:
    """Every turn of the script recorded on the page; `position_now()` is the table's position
    as stored. The next turn's first tap (its "Next turn") counts in the turn it ends."""
    turns: list[Turn] = []
    plans = [game_script.turn_steps(script, t) for t in script.turns]
    for i, (turn, steps) in enumerate(zip(script.turns, plans, strict=True)):
        j.begin(f"turn {turn['turn']}")
        own = steps[1:] if int(turn["turn"]) > 1 else steps  # its "Next turn" ended the turn before
        if i + 1 < len(plans) and int(script.turns[i + 1]["turn"]) > 1:
            own = own + plans[i + 1][:1]
        k = 0
        while k < len(own):
            event = own[k](position_now())
            after = own[k + 1] if k + 1 < len(own) else None
            then = game_script.phase_of(after) if after is not None else None
            k += 1
            if event is None:
                continue
            if record(j, event, then):
                k += 1  # the "then" button moved on to that phase too
        turns.append(j.end())
        t = turns[-1]
        print(f"  {t.name} recorded: {t.taps} taps, {t.scrolls} scrolls, {t.seconds:.1f} s waiting", flush=True)
    return turns
